//! What each viewer sees: the state view, the log's visibility and redaction, and the
//! one-line descriptions. Secret: each hand, the cards the Oracle looks at, the deck. Public:
//! everything else, including the bag's contents (every token draw is resolved openly).

use serde_json::{Value, json};

use super::actions::Action;
use super::data::{Card, Character, CharacterAction, Element, TOKEN_EFFECTS, Token};
use super::state::{Item, Phase, Player, State};
use crate::rules::{Actor, Seat, Viewer, Visibility};

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

fn element_key(element: Element) -> String {
    element.name().to_lowercase()
}

fn set_icons(cards: &[Card], tokens: u8) -> u32 {
    cards.iter().map(|c| u32::from(c.icons)).sum::<u32>() + u32::from(tokens)
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

/// What the game waits for, in words.
fn prompt(state: &State) -> String {
    let who = match (state.current_seat(), state.current_character()) {
        (Some(seat), Some(c)) => format!("Seat {seat} (the {})", c.name()),
        (Some(seat), None) => format!("Seat {seat}"),
        _ => String::new(),
    };
    match &state.phase {
        Phase::Dealing => match state.deal_recipient() {
            Some(seat) => format!("Dealing: a card for Seat {seat}"),
            None => "Dealing".to_string(),
        },
        Phase::PlacingMarkers => {
            format!(
                "Drawing the turn marker for space {} of the turn order track",
                state.next_marker_space()
            )
        }
        Phase::ChoosingCharacter => format!("{who} chooses a character"),
        Phase::Acting { .. } => match state.current_action() {
            Some(CharacterAction::DrawCards(_)) => format!("{who} draws a card"),
            Some(CharacterAction::LookAtCards(_)) => {
                format!("{who} looks at the top cards of the deck")
            }
            Some(CharacterAction::KeepOneLookedAt) => {
                format!("{who} keeps one of the cards they looked at")
            }
            Some(CharacterAction::PlayCards(_)) if state.playing_at_random => {
                format!("{who} plays a card drawn at random from their hand")
            }
            Some(CharacterAction::PlayCards(_)) => {
                format!("{who} plays a card from their hand")
            }
            Some(CharacterAction::DrawTokens(_)) => {
                format!("{who} draws tokens from the Bag of Fate")
            }
            Some(CharacterAction::WizardDraw) => {
                format!("{who} draws tokens from the Bag of Fate, seeking their own Gem")
            }
            Some(CharacterAction::Trade) | None => format!("{who} acts"),
        },
        Phase::Trading { partner: None, .. } => {
            format!("{who} chooses a player to trade with")
        }
        Phase::Trading {
            partner: Some(p),
            take: None,
            ..
        } => format!("{who} chooses what to take from Seat {p}, or cancels"),
        Phase::Trading {
            partner: Some(p),
            take: Some(item),
            ..
        } => format!(
            "{who} chooses what to give Seat {p} for {}, or cancels",
            item_text(*item)
        ),
        Phase::TurningIn => format!("{who} may turn in element sets, or end their turn"),
        Phase::BuildingSet {
            element,
            cards,
            tokens,
        } => format!(
            "{who} is turning in a set of {}: {} of {} so far",
            element.name(),
            set_icons(cards, *tokens),
            element.set_size()
        ),
        Phase::Over { winner } => format!("Seat {winner} won"),
    }
}

pub fn visibility(state: &State, actor: Actor, action: &Action) -> Visibility {
    match action {
        Action::DrawCard(_) => Visibility::Seats(state.card_drawer().into_iter().collect()),
        Action::KeepCard(_) => Visibility::Seats(state.current_seat().into_iter().collect()),
        // The old form by hand index: its index is the player's alone (ruling 4).
        Action::PlayCard(_) => Visibility::Seats(match actor {
            Actor::Seat(seat) => vec![seat],
            Actor::Chance => vec![],
        }),
        _ => Visibility::Public,
    }
}

pub fn redact(state: &State, actor: Actor, action: &Action) -> Value {
    match action {
        Action::DrawCard(_) => json!({ "draw_card": "hidden" }),
        Action::KeepCard(_) => json!({ "keep_card": "hidden" }),
        // Others see the card played, as if it had been played in the new form.
        Action::PlayCard(index) => match index_played(state, actor, *index) {
            Some(card) => json!({ "play": card }),
            None => json!({ "play": "hidden" }),
        },
        _ => serde_json::to_value(action).unwrap_or(Value::Null),
    }
}

/// The card at `index` of the acting player's hand (the old form of playing a card).
fn index_played(state: &State, actor: Actor, index: usize) -> Option<Card> {
    let Actor::Seat(seat) = actor else {
        return None;
    };
    state.player(seat).and_then(|p| p.hand.get(index)).copied()
}

pub fn describe(state: &State, actor: Actor, action: &Action, viewer: Viewer) -> String {
    let seat = match actor {
        Actor::Seat(seat) => Some(seat),
        Actor::Chance => state.card_drawer(),
    };
    let who = seat.map_or_else(|| "Someone".to_string(), |s| format!("Seat {s}"));
    let sees = seat.is_some_and(|s| viewer.sees_secrets_of(s));
    match action {
        Action::PlaceTurnMarker(marker) => {
            format!(
                "Seat {marker}'s turn marker goes on space {} of the turn order track",
                state.next_marker_space()
            )
        }
        Action::DrawCard(card) => {
            let looking = matches!(
                state.current_action(),
                Some(CharacterAction::LookAtCards(_))
            );
            match (&state.phase, looking, sees) {
                (Phase::Dealing, _, true) => format!("{who} was dealt {}", card_text(*card)),
                (Phase::Dealing, _, false) => format!("{who} was dealt a card"),
                (_, true, true) => format!("{who} looked at {}", card_text(*card)),
                (_, true, false) => format!("{who} looked at the top card of the deck"),
                (_, false, true) => format!("{who} drew {}", card_text(*card)),
                (_, false, false) => format!("{who} drew a card"),
            }
        }
        Action::DrawToken(token) => {
            let wins = state.current_action() == Some(CharacterAction::WizardDraw)
                && seat.is_some_and(|s| *token == Token::Gem(s));
            if wins {
                format!("{who} drew their own Gem as the Wizard and wins the game!")
            } else {
                format!(
                    "{who} drew {} from the Bag of Fate",
                    token_text(*token, seat)
                )
            }
        }
        Action::ChooseCharacter(c) => format!("{who} chose the {} ({})", c.name(), c.number()),
        Action::Play(card) => format!("{who} played {}", card_text(*card)),
        Action::PlayAtRandom => format!("{who} plays a card from their hand at random"),
        Action::RandomPlay(card) => format!(
            "{who} played {}, drawn at random from their hand",
            card_text(*card)
        ),
        Action::PlayCard(index) => match index_played(state, actor, *index) {
            Some(card) => format!("{who} played {}", card_text(card)),
            None => format!("{who} played a card from their hand"),
        },
        Action::KeepCard(index) => match state.looked_at.get(*index) {
            Some(card) if sees => {
                let mut discarded = state.looked_at.clone();
                discarded.remove(*index);
                let discarded: Vec<String> = discarded.into_iter().map(card_text).collect();
                if discarded.is_empty() {
                    format!("{who} kept {}", card_text(*card))
                } else {
                    format!(
                        "{who} kept {} and discarded {}",
                        card_text(*card),
                        discarded.join(" and ")
                    )
                }
            }
            _ => format!("{who} kept one of the cards they looked at and discarded the others"),
        },
        Action::TradeWith(partner) => format!("{who} will trade with Seat {partner}"),
        Action::TradeTake(item) => {
            let partner = match state.phase {
                Phase::Trading {
                    partner: Some(p), ..
                } => format!("Seat {p}'s"),
                _ => "another player's".to_string(),
            };
            format!("{who} picks {partner} {} to take", item_name(*item))
        }
        Action::TradeGive(give) => match state.phase {
            Phase::Trading {
                partner: Some(p),
                take: Some(take),
                ..
            } => format!(
                "{who} traded {} to Seat {p} for {}",
                item_text(*give),
                item_text(take)
            ),
            _ => format!("{who} gives {}", item_text(*give)),
        },
        Action::SkipTrade => format!("{who} does not trade"),
        Action::CancelTrade => format!("{who} starts the trade over"),
        Action::TurnIn(element) => format!(
            "{who} turns in a set of {} ({} needed)",
            element.name(),
            element.set_size()
        ),
        Action::AddCard(card) => {
            format!(
                "{who} puts {} into the set{}",
                card_text(*card),
                completion(state, u32::from(card.icons))
            )
        }
        Action::AddToken => {
            let element = match state.phase {
                Phase::BuildingSet { element, .. } => element.name(),
                _ => "an element",
            };
            format!(
                "{who} puts a {element} token into the set{}",
                completion(state, 1)
            )
        }
        Action::CancelSet => format!("{who} stops turning in the set"),
        Action::EndTurn => format!("{who} ends their turn"),
    }
}

/// ", completing it: <reward>" when adding `icons` completes the set being built.
pub(super) fn completion(state: &State, icons: u32) -> String {
    let Phase::BuildingSet {
        element,
        cards,
        tokens,
    } = &state.phase
    else {
        return String::new();
    };
    if set_icons(cards, *tokens) + icons < element.set_size() {
        return String::new();
    }
    let reward = element.reward();
    let mut parts = Vec::new();
    if reward.gems > 0 {
        parts.push(format!(
            "+{} {} into the Bag of Fate",
            reward.gems,
            plural(reward.gems, "Gem")
        ));
    }
    if reward.levels > 0 {
        parts.push(format!(
            "+{} {}",
            reward.levels,
            plural(reward.levels, "Level")
        ));
    }
    format!(", completing it: {}", parts.join(", "))
}

fn plural(n: u8, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// "Snails card (2 icons)".
fn card_name(card: Card) -> String {
    let icons = if card.icons == 1 { "icon" } else { "icons" };
    format!("{} card ({} {icons})", card.element.name(), card.icons)
}

/// "a Snails card (2 icons)" (every element name starts with a consonant).
pub(super) fn card_text(card: Card) -> String {
    format!("a {}", card_name(card))
}

pub(super) fn item_name(item: Item) -> String {
    match item {
        Item::Card(card) => card_name(card),
        Item::Token(element) => format!("{} token", element.name()),
    }
}

pub(super) fn item_text(item: Item) -> String {
    format!("a {}", item_name(item))
}

fn token_text(token: Token, drawer: Option<Seat>) -> String {
    match token {
        Token::Element(element) => format!("a {} token", element.name()),
        Token::AddAGem => "an Add-a-Gem token".to_string(),
        Token::LevelUp => "a Level-Up token".to_string(),
        Token::Gem(owner) if Some(owner) == drawer => "their own Gem".to_string(),
        Token::Gem(owner) => format!("a Gem of Seat {owner}"),
    }
}
