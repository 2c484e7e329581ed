//! The `json!` view that the typed one replaced, kept to check they agree (test-only).

use serde_json::{Value, json};

use super::super::data::{CardId, card, card_name};
use super::super::legal::legal_actions;
use super::super::state::{Defender, Pending, Phase, Player, State, Stop};
use super::prompt;
use crate::rules::{Seat, Viewer};

fn card_view(id: CardId) -> Value {
    json!({
        "id": id,
        "name": card_name(id),
        "text": card(id).map(|c| c.text.clone()),
    })
}

pub fn view(state: &State, viewer: Viewer) -> Value {
    let board: Vec<Vec<Value>> = (0..8u8)
        .map(|y| {
            (0..8u8)
                .map(|x| {
                    let at = super::super::state::Pos(x, y);
                    let space = state.space(at);
                    json!({
                        "terrain": space.and_then(|s| s.terrain),
                        "structure": space.and_then(|s| s.structure),
                        "garrison": space.and_then(|s| s.garrison),
                        "figures": state.figures_at(at).map(|f| f.id).collect::<Vec<_>>(),
                    })
                })
                .collect()
        })
        .collect();
    let figures: Vec<Value> = state
        .figures
        .iter()
        .map(|f| {
            json!({
                "id": f.id,
                "owner": f.owner,
                "kind": f.kind,
                "at": f.at,
                "moves_left": if f.done { 0 } else { state.moves_left(f) },
                "done": f.done,
            })
        })
        .collect();
    // The Oracle's look is shown to the two players concerned only.
    let peeks: Vec<Value> = state
        .peeks
        .iter()
        .filter(|p| viewer.sees_secrets_of(p.by) || viewer.sees_secrets_of(p.of))
        .map(|p| {
            json!({
                "by": p.by,
                "of": p.of,
                "cards": p.cards.iter().map(|&c| card_view(c)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let looked_at_by: Vec<Value> = state
        .peeks
        .iter()
        .map(|p| json!({"by": p.by, "of": p.of}))
        .collect();
    let you = match viewer {
        Viewer::Seat(s) => json!(s),
        _ => Value::Null,
    };
    let your_actions: Value = match viewer {
        Viewer::Seat(s) => json!(legal_actions(state, s).len()),
        _ => Value::Null,
    };
    json!({
        "you": you,
        "phase": phase_name(state),
        "prompt": prompt(state),
        "turn": state.turn,
        "last_turn": state.last_turn(),
        "current_seat": if state.turn > 0 { json!(state.current) } else { Value::Null },
        "first_seat": if state.turn > 0 { json!(state.first) } else { Value::Null },
        "turn_order": if state.turn > 0 { json!(state.turn_order()) } else { Value::Null },
        "first_player_rolls": first_player_rolls(state),
        "moving_figure": state.moving,
        "board": board,
        "figures": figures,
        "players": state.players.iter().enumerate()
            .map(|(seat, p)| player_view(state, seat, p, viewer))
            .collect::<Vec<_>>(),
        "deck_count": state.deck.len(),
        "discard": state.discard.iter().map(|&c| card_view(c)).collect::<Vec<_>>(),
        "cards_to_draw": state.draws,
        "combat": combat_view(state),
        "last_combat": state.last_combat,
        "pending": match &state.pending {
            Some(Pending::Alchemist { discarded }) => json!({"alchemist": {"discarded": discarded}}),
            Some(Pending::Illusionist { first }) => json!({"illusionist": {"first": first}}),
            Some(Pending::AlterTerrain { at }) => json!({"alter_terrain": {"at": at}}),
            None => Value::Null,
        },
        "oracle_looks": looked_at_by,
        "oracle_seen": peeks,
        "your_action_count": your_actions,
        "outcome": match &state.phase { Phase::Over(o) => json!(o), _ => Value::Null },
    })
}

/// The 2D6 rolls for the first turn, round by round (ties roll again), by seat.
fn first_player_rolls(state: &State) -> Value {
    json!(
        state
            .first_rolls
            .iter()
            .map(|&(seat, roll)| json!({"seat": seat, "roll": roll}))
            .collect::<Vec<_>>()
    )
}

fn player_view(state: &State, seat: Seat, p: &Player, viewer: Viewer) -> Value {
    let hand = if viewer.sees_secrets_of(seat) {
        json!(p.hand.iter().map(|&c| card_view(c)).collect::<Vec<_>>())
    } else {
        Value::Null
    };
    json!({
        "seat": seat,
        "corner": p.corner,
        "permanent": p.permanent.iter().map(|&c| card_view(c)).collect::<Vec<_>>(),
        "hand_count": p.hand.len(),
        "hand": hand,
        "hand_limit": state.hand_limit(seat),
        "declared": p.declared,
        "played_this_turn": p.played.iter().map(|&c| card_name(c)).collect::<Vec<_>>(),
        "powers_used_this_turn": p.used.iter().map(|&c| card_name(c)).collect::<Vec<_>>(),
        "garrisons_on_map": state.garrisons_on_map(seat),
        "garrisons_left": state.garrisons_left(seat),
        "spaces_controlled": state.spaces_controlled(seat),
        "has_units": state.has_units(seat),
    })
}

fn combat_view(state: &State) -> Value {
    let Phase::Combat(c) = &state.phase else {
        return Value::Null;
    };
    let sides = super::super::combat::sides(state, c);
    json!({
        "at": c.at,
        "attacker": c.attacker,
        "attacker_seat": state.current,
        "defender_seat": c.defender_seat,
        "defender": match c.defender {
            Defender::Figure(id) => json!({"figure": id}),
            Defender::Garrison => json!("garrison"),
        },
        "step": c.step,
        "attack_roll": c.attack_roll,
        "attack_force": sides.map(|(a, _)| super::super::combat::force(state, &a)),
        "defence_force": sides.map(|(_, d)| super::super::combat::force(state, &d)),
    })
}

fn phase_name(state: &State) -> &'static str {
    match &state.phase {
        Phase::Map => "setup_map",
        Phase::Deal => "setup_permanent_cards",
        Phase::Corner { .. } => "setup_corners",
        Phase::StartFigure { .. } | Phase::ExtraFigure { .. } => "setup_figures",
        Phase::FirstPlayer { .. } => "setup_first_player",
        Phase::Movement if state.draws > 0 => "drawing",
        Phase::Movement => "movement",
        Phase::Combat(_) => "combat",
        Phase::Allies => "allies",
        Phase::Recruit | Phase::RecruitPlace { .. } => "recruitment",
        Phase::End if state.draws > 0 => "recruitment",
        Phase::End => "end",
        Phase::Stop(Stop::Declaration) => "stop_before_declaration",
        Phase::Stop(Stop::Garrison) => "stop_before_garrison",
        Phase::Stop(Stop::RecruitRoll) => "stop_before_recruit_roll",
        Phase::Over(_) => "over",
    }
}

#[test]
fn the_typed_view_writes_what_the_json_view_wrote() {
    let (compared, ended) = crate::rules::conformance::same_views::<
        crate::rules::monsters_and_magic::MonstersAndMagic,
    >(view, 600, 13);
    assert!(compared > 100, "only {compared} views compared");
    assert!(ended > 0, "no finished game compared");
}
