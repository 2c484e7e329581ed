//! The `json!` view that the typed one replaced, kept to check they agree (test-only).

use serde_json::{Value, json};

use super::super::data::{self, CardId, Deck};
use super::super::state::{Phase, State, Unit};
use super::prompt;
use crate::rules::Viewer;

fn card_view(id: CardId) -> Value {
    match data::card(id) {
        Some((deck, a)) => {
            json!({ "card": id, "name": a.name, "deck": deck, "cost": a.cost, "text": a.text() })
        }
        None => json!({ "card": id, "name": data::card_name(id) }),
    }
}

fn unit_view(state: &State, owner: usize, u: &Unit) -> Value {
    let tribe = state.tribe_of(owner);
    let stats = data::unit_stats(u.slot);
    json!({
        "slot": u.slot,
        "name": tribe.unit_name(u.slot),
        "status": u.status,
        "tile": u.tile,
        "hp": u.hp,
        "max_hp": stats.hp,
        "defense": u.defense,
        "min_defense": stats.min_defense,
        "max_defense": stats.max_defense,
        "movement": stats.movement,
        "attack": stats.attack,
        "horns": u.horns,
        "move_attack_dice": u.dice,
        "dice_in_attack": u.dice_spent,
        "moved": u.moved,
        "movement_left": u.movement_left(),
        "attacked": u.attacked,
        "fatigued": u.fatigued,
        "innate": tribe.innate(u.slot).map(|a| json!({
            "name": a.name, "cost": a.cost, "charge": u.innate_charge, "text": a.text(),
        })),
        "learned": u.learned.map(|c| json!({ "ability": card_view(c), "charge": u.learned_charge })),
        "counters": u.counters,
    })
}

pub fn view(state: &State, viewer: Viewer) -> Value {
    let current = state.current();
    let tiles: Vec<Value> = state
        .geometry()
        .ids()
        .map(|t| {
            let p = state.geometry().tile(t);
            let s = state.tile(t);
            let card = s.and_then(|s| s.card);
            json!({
                "tile": t,
                "row": p.map(|p| p.row),
                "col": p.map(|p| p.col),
                "points_up": p.map(|p| p.up),
                "crystal_mine": p.is_some_and(|p| p.mine),
                "outer_edge": p.is_some_and(|p| p.edge),
                "side": p.map(|p| p.side),
                "adjacent": state.geometry().adjacent(t),
                "tribe": card.map(|c| c.tribe),
                "clan": card.map(|c| c.clan),
                "flipped": s.is_none_or(|s| s.flipped),
                "blockade_by": s.and_then(|s| s.blockade),
            })
        })
        .collect();
    let players: Vec<Value> = state
        .players
        .iter()
        .enumerate()
        .map(|(owner, p)| {
            let sees = owner < state.seats && viewer.sees_secrets_of(owner);
            json!({
                "player": owner,
                "automaton": p.automaton,
                "tribe": p.tribe,
                "tribe_name": p.tribe.map(|t| t.name()),
                "reserve": p.reserve,
                "hand_count": p.hand.len(),
                "hand": if sees { json!(p.hand.iter().map(|&c| card_view(c)).collect::<Vec<_>>()) } else { Value::Null },
                "learned_hand_count": p.learned_hand.len(),
                "learned_hand": if sees { json!(p.learned_hand.iter().map(|&c| card_view(c)).collect::<Vec<_>>()) } else { Value::Null },
                "trophies": p.trophies.iter().map(|&(t, slot)| json!({"tribe": t, "unit": t.unit_name(slot)})).collect::<Vec<_>>(),
                "score": state.score(owner),
                "eliminated": p.eliminated,
                "units": p.units.iter().map(|u| unit_view(state, owner, u)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let draw = state.draw.as_ref().map(|d| {
        let sees = current.is_some_and(|c| viewer.sees_secrets_of(c));
        json!({
            "drawn_count": d.drawn.len(),
            "drawn": if sees { json!(d.drawn.iter().map(|&c| card_view(c)).collect::<Vec<_>>()) } else { Value::Null },
            "learned_kept": d.attach.is_some(),
            "learned_to_attach": if sees { json!(d.attach.map(card_view)) } else { Value::Null },
        })
    });
    json!({
        "you": match viewer { Viewer::Seat(s) => json!(s), _ => Value::Null },
        "prompt": prompt(state),
        "round": state.round,
        "last_round": state.last_round,
        "extra_round": state.extra_round,
        "current_seat": current,
        "first_player": state.first_player,
        "step": match &state.phase { Phase::Turn { step, .. } => json!(step), other => json!(other) },
        "tiles": tiles,
        "leader_starts": state.geometry().starts,
        "players": players,
        "dice": state.dice.iter().zip(&state.assigned).map(|(f, a)| json!({"face": f, "assigned": a})).collect::<Vec<_>>(),
        "marked_for_reroll": state.marked,
        "moving_unit": state.moving,
        "must_attack": state.must_attack,
        "pending_attack": state.attack,
        "draw": draw,
        "decks": { "learned": state.deck_count(Deck::Learned), "secret": state.deck_count(Deck::Secret) },
        "reaction_window": state.window,
        "falling_units": state.falls,
        "units_to_place": state.placements,
        "alliances": state.alliances,
        "alliance_offer": state.offer,
        "tied_crumble_tiles": state.solo_choice,
        "result": state.result,
    })
}

#[test]
fn the_typed_view_writes_what_the_json_view_wrote() {
    let (compared, ended) = crate::rules::conformance::same_views::<
        crate::rules::gnomes_and_wizards::GnomesAndWizards,
    >(view, 600, 29);
    assert!(compared > 100, "only {compared} views compared");
    assert!(ended > 0, "no finished game compared");
}
