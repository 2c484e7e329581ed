//! When other players may cast: the reaction windows at the start of a turn, after a summon or
//! a card draw, and during an ally's movement (the 2026-11-24 review, gap 4).

use super::*;
use crate::rules::gnomes_and_wizards::data::Deck;
use crate::rules::gnomes_and_wizards::state::{Source, Target};
use crate::rules::gnomes_and_wizards::turn;

/// Seat 0's Leader on `t` with these dice assigned to it, at the Call to War step; seat 1
/// holds a Secret card (so it may answer every window).
fn at_call(t: TileId, faces: &[Face]) -> State {
    let mut state = start(2);
    state.players[1].hand = vec![28]; // Sudden Shield
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(t);
    roll_and_keep(&mut state, 0, faces);
    pass_window(&mut state);
    for &f in faces {
        decide(&mut state, 0, Action::Assign { face: f, slot: 0 });
    }
    decide(&mut state, 0, Action::EndActions);
    assert_eq!(step_of(&state), Step::Call);
    state
}

#[test]
fn other_players_may_cast_as_a_turn_starts() {
    // "This phase is unique to the others because it can be played at almost any point during
    // any player's turn." (l.365)
    let mut state = start(2);
    state.players[0].hand = vec![28]; // Sudden Shield: an ally within 1 gains 3 defense
    turn::end_turn(&mut state);
    turn::advance(&mut state);
    assert_eq!(state.current(), Some(1));
    assert_eq!(step_of(&state), Step::Start);
    assert_eq!(
        waiting_for(&state),
        vec![0],
        "seat 0 is asked before seat 1 rolls"
    );
    assert!(state.dice.is_empty());
    decide(
        &mut state,
        0,
        cast(Source::Secret(28), Target::Unit(unit(0, 0))),
    );
    assert_eq!(state.unit(unit(0, 0)).unwrap().defense, 5);
    // Nothing more to answer: seat 1's turn goes on with its roll.
    assert!(matches!(Game::next(&state), Next::Chance(_)));
    assert!(matches!(step_of(&state), Step::Roll { .. }));
}

#[test]
fn other_players_may_cast_after_a_summon() {
    // l.365 as above; "Call to War" is one of the current player's base actions that other
    // players' abilities come before (priority scale, l.411).
    let probe = start(2);
    let t = clan_tile(&probe, Tribe::Turquefoss, 1);
    let mut state = at_call(t, &[Face::Horn, Face::Horn, Face::Horn, Face::Shield]);
    decide(&mut state, 0, Action::Summon { slot: 0, clan: 1 });
    assert_eq!(waiting_for(&state), vec![1]);
    assert_eq!(state.unit(unit(0, 1)).unwrap().tile, Some(t));
    decide(&mut state, 1, Action::Pass);
    assert_eq!(state.window, None);
}

#[test]
fn other_players_may_cast_after_a_card_draw() {
    // l.365 as above; "Call to War/Draw Cards" (priority scale, l.411).
    let probe = start(2);
    let (t, _) = inner_tile(&probe);
    let mut state = at_call(t, &[Face::Horn, Face::Horn, Face::Shield, Face::Shield]);
    decide(&mut state, 0, Action::DrawCards { slot: 0 });
    decide(&mut state, 0, Action::DrawFrom(Deck::Secret));
    chance(&mut state, Action::DrawCard(24));
    decide(&mut state, 0, Action::DrawFrom(Deck::Secret));
    chance(&mut state, Action::DrawCard(25));
    decide(&mut state, 0, Action::KeepCard(0));
    assert_eq!(waiting_for(&state), vec![1]);
}

#[test]
fn allies_may_cast_during_a_units_movement_and_enemies_may_not() {
    // "It is important to note that you can play abilities during ally unit movement, just not
    // during enemy movement." (l.375)
    let mut state = start_with(&options(&[Variant::TeamPlay]), 4);
    let (a, b) = inner_tile(&state);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(a);
    state.unit_mut(unit(2, 0)).unwrap().tile = Some(a);
    for seat in 1..4 {
        state.players[seat].hand = vec![28]; // Sudden Shield
    }
    roll_and_keep(&mut state, 0, &[Face::MoveAttack; 4]);
    pass_window(&mut state);
    for _ in 0..4 {
        decide(
            &mut state,
            0,
            Action::Assign {
                face: Face::MoveAttack,
                slot: 0,
            },
        );
    }
    pass_window(&mut state);
    decide(&mut state, 0, Action::Move { slot: 0, to: b });
    assert_eq!(state.moving, Some(0));
    // Only the team-mate (seat 2) is asked; the enemies (seats 1, 3) are not.
    assert_eq!(waiting_for(&state), vec![2]);
    assert!(state.window.as_ref().unwrap().during_movement);
    decide(
        &mut state,
        2,
        cast(Source::Secret(28), Target::Unit(unit(0, 0))),
    );
    assert_eq!(state.unit(unit(0, 0)).unwrap().defense, 5);
    // The unit moves on: its movement was not stopped by the ally's cast.
    assert_eq!(state.window, None);
    assert_eq!(state.moving, Some(0));
    assert!(
        legal(&state, 0)
            .iter()
            .any(|x| matches!(x, Action::Move { slot: 0, .. }))
    );
    assert!(legal(&state, 0).contains(&Action::Stop));
}
