//! Issue 18 (review gap 3; ruling 22): "OT = Once on your Turn" (l.172) powers at the points
//! of the turn that have no decision of their own. A player asks for a stop in the decision
//! before it; the stop offers the powers, then goes on.

use super::*;
use crate::rules::monsters_and_magic::Stop;

fn empire_spots(state: &State) -> Vec<Pos> {
    legal(state, state.current)
        .into_iter()
        .filter_map(|a| match a {
            Action::Empire { at } => Some(at),
            _ => None,
        })
        .collect()
}

// "Each turn has 6 Phases: 1. Declaration Phase 2. Garrison Phase 3. Movement Phase 4. Allies
// Phase 5. Recruitment Phase 6. End Phase" (l.109-115), "OT = Once on your Turn" (l.172) and
// "If you occupy 5 or more spaces of the same structure type, verbally declare that you control
// this structure type." (l.117-118): a power used at the start of the turn, before the
// Declaration phase, counts for this turn's declaration, and it is this turn's use, not the
// previous turn's.
#[test]
fn a_power_before_the_declaration_phase_counts_for_the_declaration() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Empire"));
    for x in 2..=5 {
        set_space(&mut state, Pos(x, 0), Terrain::Plains, Structure::Village);
        put_garrison(&mut state, 0, Pos(x, 0));
    }
    set_space(&mut state, Pos(1, 0), Terrain::Plains, Structure::Village);
    // Seat 0's corner is no Village: four Villages before the power, five after it.
    set_space(&mut state, Pos(0, 0), Terrain::Plains, Structure::Town);
    assert_eq!(state.structures_occupied(0, Structure::Village), 4);
    let cards = spare_cards(&state, 4, &[]);
    // Seat 0 ends its first turn asking to stop at the start of its next one.
    decide(&mut state, 0, Action::EndMovement);
    chance(&mut state, Action::DrawCard(cards[0]));
    chance(&mut state, Action::RollDie(1));
    chance(&mut state, Action::DrawCard(cards[1]));
    assert!(legal(&state, 0).contains(&Action::EndTurn));
    decide(&mut state, 0, Action::StopBefore(Stop::Declaration));
    assert_eq!(state.current, 1);
    assert!(matches!(state.phase, Phase::Movement));
    finish_turn(&mut state, cards[2], cards[3]);
    // Seat 0's second turn stops before its Declaration phase.
    assert_eq!(state.current, 0);
    assert_eq!(state.phase, Phase::Stop(Stop::Declaration));
    assert_eq!(waiting_for(&state), vec![0]);
    let actions = legal(&state, 0);
    assert!(actions.contains(&Action::GoOn), "{actions:?}");
    assert!(actions.contains(&Action::StopBefore(Stop::Garrison)));
    assert!(empire_spots(&state).contains(&Pos(1, 0)));
    decide(&mut state, 0, Action::Empire { at: Pos(1, 0) });
    assert_eq!(state.garrison(Pos(1, 0)), Some(0));
    // Once on this turn: not again.
    assert!(empire_spots(&state).is_empty());
    decide(&mut state, 0, Action::GoOn);
    assert!(matches!(state.phase, Phase::Movement));
    assert!(state.declared(0, Structure::Village));
}

// The same table without the stop: the fifth Village comes too late for the declaration.
#[test]
fn without_the_stop_the_declaration_comes_first() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Empire"));
    for x in 2..=5 {
        set_space(&mut state, Pos(x, 0), Terrain::Plains, Structure::Village);
        put_garrison(&mut state, 0, Pos(x, 0));
    }
    set_space(&mut state, Pos(1, 0), Terrain::Plains, Structure::Village);
    // Seat 0's corner is no Village: four Villages before the power, five after it.
    set_space(&mut state, Pos(0, 0), Terrain::Plains, Structure::Town);
    assert_eq!(state.structures_occupied(0, Structure::Village), 4);
    let cards = spare_cards(&state, 4, &[]);
    finish_turn(&mut state, cards[0], cards[1]);
    finish_turn(&mut state, cards[2], cards[3]);
    assert_eq!(state.current, 0);
    assert!(matches!(state.phase, Phase::Movement));
    assert!(!state.declared(0, Structure::Village));
    decide(&mut state, 0, Action::Empire { at: Pos(1, 0) });
    assert!(!state.declared(0, Structure::Village));
}

// "ALLIES PHASE Draw 1 card from the Ally Deck and put it in your hand." then "RECRUITMENT
// PHASE Roll 1D6. This is your Recruit Roll." (l.144-148), with "OT = Once on your Turn"
// (l.172): after the draw and before the roll, a power may be used — here an Empire garrison
// that then takes the recruit.
#[test]
fn a_power_after_the_allies_draw_and_before_the_recruit_roll() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Empire"));
    let cards = spare_cards(&state, 1, &[]);
    assert!(legal(&state, 0).contains(&Action::StopBefore(Stop::RecruitRoll)));
    decide(&mut state, 0, Action::StopBefore(Stop::RecruitRoll));
    chance(&mut state, Action::DrawCard(cards[0]));
    assert_eq!(state.phase, Phase::Stop(Stop::RecruitRoll));
    assert_eq!(state.players[0].hand, vec![cards[0]]);
    let actions = legal(&state, 0);
    assert!(actions.contains(&Action::GoOn), "{actions:?}");
    assert!(!actions.contains(&Action::StopBefore(Stop::Garrison)));
    decide(&mut state, 0, Action::Empire { at: Pos(1, 1) });
    assert_eq!(state.phase, Phase::Stop(Stop::RecruitRoll));
    decide(&mut state, 0, Action::GoOn);
    assert!(is_chance(&state));
    chance(&mut state, Action::RollDie(2));
    // "Place the new Figure onto any garrison space you control that does not already have
    // a Figure on it."
    assert!(legal(&state, 0).contains(&Action::Recruit {
        figure: FigureKind::Army,
        at: Pos(1, 1)
    }));
}

// Ruling 22: a stop is the player's to ask for; a turn without one asks nothing more.
#[test]
fn a_turn_without_stops_asks_nothing_more() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Empire"));
    let cards = spare_cards(&state, 2, &[]);
    decide(&mut state, 0, Action::EndMovement);
    chance(&mut state, Action::DrawCard(cards[0]));
    assert!(is_chance(&state));
    chance(&mut state, Action::RollDie(1));
    chance(&mut state, Action::DrawCard(cards[1]));
    decide(&mut state, 0, Action::EndTurn);
    assert_eq!(state.current, 1);
    assert!(matches!(state.phase, Phase::Movement));
    assert_eq!(state.players[0].stop, None);
}
