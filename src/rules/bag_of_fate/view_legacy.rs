//! The `json!` view that the typed one replaced, kept to check they agree (test-only).

use serde_json::{Value, json};

use super::super::data::{Character, CharacterAction, Element, TOKEN_EFFECTS, Token};
use super::super::state::{Phase, Player, State};
use super::{prompt, set_icons};
use crate::rules::{Seat, Viewer};

pub fn view(state: &State, viewer: Viewer) -> Value {
    let current = state.current_seat();
    let looked_at = match current {
        Some(seat) if viewer.sees_secrets_of(seat) => json!(state.looked_at),
        _ => Value::Null,
    };
    json!({
        "you": match viewer { Viewer::Seat(seat) => json!(seat), _ => Value::Null },
        "step": step_kind(state),
        "round": state.round,
        "prompt": prompt(state),
        "current_seat": current,
        "current_character": state.current_character(),
        "winner": state.winner(),
        "turn_order": state.turn_order(),
        "characters": Character::ALL.map(|c| json!({
            "character": c,
            "number": c.number(),
            "taken_by": state.character_holder(c),
            "available": state.character_holder(c).is_none(),
            "text": c.text(),
        })),
        "sets": Element::ALL.map(|e| json!({
            "element": e,
            "needed": e.set_size(),
            "reward": e.reward_text(),
        })),
        "token_effects": TOKEN_EFFECTS,
        "players": state.players.iter().enumerate()
            .map(|(seat, p)| player_view(state, seat, p, viewer))
            .collect::<Vec<_>>(),
        "deck_count": state.deck.len(),
        "discard_count": state.discards.len(),
        "discards": state.discards,
        "bag": bag_view(state),
        "tokens_drawn": state.drawn,
        "used_element_tokens": state.used_tokens.len(),
        "looked_at_count": state.looked_at.len(),
        "looked_at": looked_at,
        "set_in_progress": match &state.phase {
            Phase::BuildingSet { element, cards, tokens } => json!({
                "element": element,
                "needed": element.set_size(),
                "icons": set_icons(cards, *tokens),
                "cards": cards,
                "tokens": tokens,
            }),
            _ => Value::Null,
        },
        "trade": match &state.phase {
            Phase::Trading { partner, take, .. } => json!({ "with": partner, "take": take }),
            _ => Value::Null,
        },
    })
}

fn player_view(state: &State, seat: Seat, player: &Player, viewer: Viewer) -> Value {
    let icons: serde_json::Map<String, Value> = Element::ALL
        .into_iter()
        .map(|e| (element_key(e), json!(player.icons(e))))
        .collect();
    json!({
        "seat": seat,
        "level": player.level,
        "gems_in_supply": player.gems,
        "gems_in_bag": state.gems_in_bag(seat),
        "hand_size": player.hand.len(),
        "hand": if viewer.sees_secrets_of(seat) { json!(player.hand) } else { Value::Null },
        "face_up": player.face_up,
        "tokens": player.tokens,
        "icons": icons,
        "can_turn_in": player.completable(),
        "character": player.character,
        "turn_marker": player.turn_marker,
    })
}

fn bag_view(state: &State) -> Value {
    let mut elements = serde_json::Map::new();
    for e in Element::ALL {
        let n = state
            .bag
            .iter()
            .filter(|&&t| t == Token::Element(e))
            .count();
        elements.insert(element_key(e), json!(n));
    }
    let gems: Vec<usize> = (0..state.seats())
        .map(|seat| state.bag.iter().filter(|&&t| t == Token::Gem(seat)).count())
        .collect();
    json!({
        "total": state.bag.len(),
        "element_tokens": elements,
        "add_a_gem": state.bag.iter().filter(|&&t| t == Token::AddAGem).count(),
        "level_up": state.bag.iter().filter(|&&t| t == Token::LevelUp).count(),
        "gems": gems,
    })
}

/// A stable name for the current step, for clients.
fn step_kind(state: &State) -> &'static str {
    match &state.phase {
        Phase::Dealing => "dealing",
        Phase::PlacingMarkers => "placing_turn_markers",
        Phase::ChoosingCharacter => "choose_character",
        Phase::Acting { .. } => match state.current_action() {
            Some(CharacterAction::DrawCards(_)) => "draw_cards",
            Some(CharacterAction::LookAtCards(_)) => "look_at_cards",
            Some(CharacterAction::KeepOneLookedAt) => "keep_card",
            Some(CharacterAction::PlayCards(_)) => "play_cards",
            Some(CharacterAction::Trade) => "trade",
            Some(CharacterAction::DrawTokens(_)) => "draw_tokens",
            Some(CharacterAction::WizardDraw) => "wizard_draw",
            None => "acting",
        },
        Phase::Trading { .. } => "trade",
        Phase::TurningIn => "turn_in_sets",
        Phase::BuildingSet { .. } => "build_set",
        Phase::Over { .. } => "game_over",
    }
}

fn element_key(element: Element) -> String {
    element.name().to_lowercase()
}

#[test]
fn the_typed_view_writes_what_the_json_view_wrote() {
    let (compared, ended) = crate::rules::conformance::same_views::<
        crate::rules::bag_of_fate::BagOfFate,
    >(view, 600, 13);
    assert!(compared > 100, "only {compared} views compared");
    assert!(ended > 0, "no finished game compared");
}
