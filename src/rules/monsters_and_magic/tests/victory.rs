//! The four ways to win and the turn limit.

use super::*;

fn outcome(state: &State) -> crate::rules::Outcome {
    match Game::next(state) {
        Next::Over(o) => o,
        other => panic!("expected the end, got {other:?}"),
    }
}

// "1. Eliminate all of your opponents Units."
#[test]
fn eliminating_every_enemy_unit_wins() {
    let mut state = game(2);
    // Seat 1 keeps only its hero at [7,7]; seat 0's hero attacks it from [6,6].
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
    fight(&mut state, 11, 3);
    let o = outcome(&state);
    assert_eq!(o.winners, vec![0]);
    assert!(o.summary.contains("eliminated"));
    assert!(Game::legal_actions(&state, 0).is_empty());
}

// "1. Eliminate all of your opponents Units." — with 3 players, one eliminated player is
// out and the game goes on.
#[test]
fn an_eliminated_player_is_skipped() {
    // Seats 0, 1, 2 sit in a1, h1, h8: clockwise the turns go 0, 2, 1.
    let mut state = game(3);
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
    fight(&mut state, 11, 3);
    assert!(!state.has_units(2));
    assert!(!state.is_over());
    let spare = spare_cards(&state, 2, &[]);
    finish_turn(&mut state, spare[0], spare[1]);
    assert_eq!((state.turn, state.current), (3, 1));
}

// "2. Occupy 5 or more Temple Spaces at the beginning of your turn."
#[test]
fn five_temples_at_the_beginning_of_your_turn_win() {
    let mut state = game(2);
    let temples: Vec<Pos> = Pos::all()
        .filter(|&p| state.structure(p) == Some(Structure::Temple) && state.occupant(p).is_none())
        .take(5)
        .collect();
    for &p in &temples {
        put_garrison(&mut state, 0, p);
    }
    // Not at once: at the beginning of seat 0's next turn.
    assert!(!state.is_over());
    let spare = spare_cards(&state, 2, &[]);
    finish_turn(&mut state, spare[0], spare[1]);
    assert!(!state.is_over());
    let spare = spare_cards(&state, 2, &[]);
    finish_turn(&mut state, spare[0], spare[1]);
    let o = outcome(&state);
    assert_eq!(o.winners, vec![0]);
    assert!(o.summary.contains("Temples"));
}

// "3. Have Garrisons in 33 Map Spaces at the beginning of your turn."
#[test]
fn thirty_three_garrisons_win() {
    let mut state = game(2);
    let free: Vec<Pos> = Pos::all()
        .filter(|&p| state.occupant(p).is_none() && state.structure(p) != Some(Structure::Temple))
        .take(32)
        .collect();
    for &p in &free {
        put_garrison(&mut state, 0, p);
    }
    assert_eq!(state.garrisons_on_map(0), 33);
    assert_eq!(state.garrisons_left(0), 0);
    let spare = spare_cards(&state, 2, &[]);
    finish_turn(&mut state, spare[0], spare[1]);
    let spare = spare_cards(&state, 2, &[]);
    finish_turn(&mut state, spare[0], spare[1]);
    let o = outcome(&state);
    assert_eq!(o.winners, vec![0]);
    assert!(o.summary.contains("33"));
}

// "4. Control the most Map spaces at the end of turn 20X. (X = Number of Players)"
#[test]
fn the_most_spaces_at_the_end_of_turn_20x_win() {
    let mut state = game(2);
    assert_eq!(state.last_turn(), 40);
    put_garrison(&mut state, 1, Pos(5, 5));
    state.turn = 39;
    let spare = spare_cards(&state, 2, &[]);
    finish_turn(&mut state, spare[0], spare[1]);
    assert_eq!((state.turn, state.current), (40, 1));
    let spare = spare_cards(&state, 2, &[]);
    finish_turn(&mut state, spare[0], spare[1]);
    let o = outcome(&state);
    assert_eq!(o.winners, vec![1]);
    assert_eq!(o.scores, Some(vec![1, 2]));
}

// Ruling (CONTENT.md): "a tie in spaces controlled is broken by garrison count".
#[test]
fn a_tie_in_spaces_is_broken_by_garrisons() {
    let mut state = game(2);
    // Seat 0: 2 spaces, 2 garrisons. Seat 1: 2 spaces, 1 garrison (a figure alone).
    put_garrison(&mut state, 0, Pos(2, 2));
    put_figure(&mut state, 1, FigureKind::Army, Pos(5, 5));
    state.turn = 40;
    state.current = 1;
    // Play seat 1's last turn without moving or recruiting.
    decide(&mut state, 1, Action::EndMovement);
    let spare = spare_cards(&state, 2, &[]);
    chance(&mut state, Action::DrawCard(spare[0]));
    chance(&mut state, Action::RollDie(1));
    chance(&mut state, Action::DrawCard(spare[1]));
    decide(&mut state, 1, Action::EndTurn);
    let o = outcome(&state);
    assert_eq!(o.scores, Some(vec![2, 2]));
    assert_eq!(o.winners, vec![0]);
}
