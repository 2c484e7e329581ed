//! Refused actions: wrong actor, not legal now, after the end; and the deadline defaults.

use super::*;

#[test]
fn another_seat_or_chance_cannot_act_in_your_turn() {
    let state = game(2);
    let mv = Action::Move {
        figure: 1,
        to: Pos(1, 1),
    };
    let mut copy = state.clone();
    assert_eq!(
        Game::apply(&mut copy, Actor::Seat(1), &mv),
        Err(RuleError::NotYourDecision)
    );
    assert_eq!(
        Game::apply(&mut copy, Actor::Chance, &mv),
        Err(RuleError::NotYourDecision)
    );
    assert_eq!(
        Game::apply(&mut copy, Actor::Seat(0), &Action::RollDie(3)),
        Err(RuleError::Illegal(
            "only chance decides that (now: the Movement phase)".to_owned()
        ))
    );
    assert_eq!(copy, state);
}

// "Each Figure pays 1 Move Point to move 1 space."
#[test]
fn an_illegal_move_is_refused_with_a_reason_and_changes_nothing() {
    let mut state = game(2);
    let err = illegal(
        &state,
        0,
        Action::Move {
            figure: 1,
            to: Pos(2, 2),
        },
    );
    assert!(err.to_string().contains("not next to"), "{err}");
    let err = illegal(
        &state,
        0,
        Action::Move {
            figure: 2,
            to: Pos(6, 6),
        },
    );
    assert!(err.to_string().contains("not yours"), "{err}");
    decide(
        &mut state,
        0,
        Action::Move {
            figure: 1,
            to: Pos(1, 1),
        },
    );
    let err = illegal(
        &state,
        0,
        Action::Move {
            figure: 1,
            to: Pos(2, 2),
        },
    );
    assert!(err.to_string().contains("no move points"), "{err}");
}

#[test]
fn a_seat_cannot_play_a_card_it_does_not_hold() {
    let mut state = game(2);
    give(&mut state, 1, id("Wings"));
    let err = illegal(&state, 0, Action::PlayCard(id("Wings")));
    assert!(err.to_string().contains("you do not hold Wings"), "{err}");
    let err = illegal(&state, 0, Action::Haste { figure: 1 });
    assert!(err.to_string().contains("no unused card"), "{err}");
}

#[test]
fn chance_outcomes_must_be_possible() {
    let mut state = game(2);
    decide(&mut state, 0, Action::EndMovement);
    let mut copy = state.clone();
    assert!(Game::apply(&mut copy, Actor::Chance, &Action::DrawCard(9_999)).is_err());
    assert!(Game::apply(&mut copy, Actor::Chance, &Action::RollDie(3)).is_err());
    assert_eq!(copy, state);
}

#[test]
fn nothing_applies_after_the_end() {
    let mut state = game(2);
    state.space_mut(Pos(7, 7)).unwrap().garrison = None;
    state.figure_mut(1).unwrap().at = Pos(6, 6);
    decide(
        &mut state,
        0,
        Action::Move {
            figure: 1,
            to: Pos(7, 7),
        },
    );
    fight(&mut state, 12, 2);
    assert!(state.is_over());
    let mut copy = state.clone();
    assert_eq!(
        Game::apply(&mut copy, Actor::Seat(0), &Action::EndMovement),
        Err(RuleError::GameOver)
    );
}

#[test]
fn deadline_defaults_end_the_phase_or_pass() {
    let mut state = game(2);
    assert_eq!(Game::default_action(&state, 0), Some(Action::EndMovement));
    assert_eq!(Game::default_action(&state, 1), None);
    set_space(&mut state, Pos(1, 1), Terrain::Plains, Structure::Village);
    put_figure(&mut state, 1, FigureKind::Army, Pos(1, 1));
    give(&mut state, 0, id("Paladin"));
    decide(
        &mut state,
        0,
        Action::Move {
            figure: 1,
            to: Pos(1, 1),
        },
    );
    chance(&mut state, Action::Roll2d6(7));
    chance(&mut state, Action::Roll2d6(7));
    assert_eq!(Game::default_action(&state, 0), Some(Action::DoneCards));
}
