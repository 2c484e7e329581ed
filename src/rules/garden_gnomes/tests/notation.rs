//! Notation (issue 36).

use super::*;
use crate::rules::notation;

// "Each ruleset defines a short, unique, stable text for each of its legal actions (like
// chess's algebraic notation: e.g. `gnome green-home east-orchard`)": territories by name.
#[test]
fn a_move_reads_as_the_two_territories() {
    let mut state = rulebook_table();
    place(&mut state, Red, RED_HOME, 3);
    let seat = state.clans[clan_index(&state, Red)].seat;
    let legal = Game::legal_actions(&state, seat);
    let texts: Vec<String> = legal
        .iter()
        .map(|a| Game::notation(&state, seat, a))
        .collect();
    assert!(texts.contains(&"end".to_string()), "{texts:?}");
    let home = texts
        .iter()
        .find(|t| t.starts_with("move red-home "))
        .unwrap_or_else(|| panic!("no move from Red Home in {texts:?}"));
    let found = notation::find(&home.to_uppercase(), &texts).unwrap();
    assert!(matches!(legal[found], Action::Move { from: RED_HOME, .. }));
    assert_eq!(
        Game::notation(
            &state,
            seat,
            &Action::Move {
                from: RED_HOME,
                to: EAST_ORCHARD
            }
        ),
        "move red-home east-orchard"
    );
    assert_eq!(
        Game::notation(
            &state,
            seat,
            &Action::Attack {
                target: Green,
                dice: 2
            }
        ),
        "attack green 2"
    );
}

// The rulebook: "At the start of each round, each player may put Gnomes from his/ her reserve
// onto the board. Reinforcements are always put onto your home territory." Issue 36's standing
// order answers that recurring decision with all of them, for the clan asked and nobody else.
#[test]
fn the_reinforce_all_order_puts_every_reinforcement_on() {
    let state = kept(&Options::default(), 4, &[Red, Green, Blue, Yellow], Red);
    let clan = state
        .reinforcing()
        .expect("round 1 begins with reinforcements");
    let seat = state.clans[clan].seat;
    let due = state.reinforcements_due(clan);
    assert!(due > 0, "the first clan has gnomes in reserve");
    assert_eq!(
        Game::standing_answer(&state, seat, "reinforce-all"),
        Some(Action::Reinforce(due))
    );
    assert_eq!(
        Game::legal_actions(&state, seat)[0],
        Action::Reinforce(due),
        "the order's answer is one of the clan's choices"
    );
    for other in (0..4).filter(|&s| s != seat) {
        assert_eq!(Game::standing_answer(&state, other, "reinforce-all"), None);
    }
    assert_eq!(Game::standing_answer(&state, seat, "no-such-order"), None);
    // In the movement the order answers nothing: where to move is the clan's turn.
    let moving = started(&Options::default(), 4, &[Red, Green, Blue, Yellow], Red);
    let mover = waiting_for(&moving)[0];
    assert_eq!(Game::standing_answer(&moving, mover, "reinforce-all"), None);
}
