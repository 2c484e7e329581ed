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
