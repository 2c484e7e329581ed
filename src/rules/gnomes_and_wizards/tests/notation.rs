//! Notation, forced choices and standing orders (issue 36).

use super::*;
use crate::rules::notation;

fn notations(state: &State, seat: Seat) -> Vec<String> {
    legal(state, seat)
        .iter()
        .map(|a| Game::notation(state, seat, a))
        .collect()
}

/// Seat 0 has rolled and kept its dice: the window after the roll asks seat 1.
fn window_after_the_roll(hand: Vec<u16>) -> State {
    let mut state = start(2);
    state.players[1].hand = hand;
    roll_and_keep(&mut state, 0, &[Face::MoveAttack; 4]);
    assert_eq!(waiting_for(&state), vec![1]);
    state
}

// "Each ruleset defines a short, unique, stable text for each of its legal actions (like
// chess's algebraic notation: e.g. `keep`, `reroll 1 3`)": units by one word of their name.
#[test]
fn dice_and_units_read_as_words() {
    let mut state = start(2);
    roll(&mut state, &[Face::MoveAttack; 4]);
    let dice = notations(&state, 0);
    assert!(dice.contains(&"keep".to_string()), "{dice:?}");
    assert!(dice.contains(&"mark 1".to_string()), "{dice:?}");
    decide(&mut state, 0, Action::KeepDice);
    while state.window.is_some() {
        let seat = waiting_for(&state)[0];
        decide(&mut state, seat, Action::Pass);
    }
    // Seat 0 plays the Gnome Tribe of Turquefoss: its Leader is Grand Tinkerer Quartzbeard.
    let assign = notations(&state, 0);
    let found = notation::find("Assign move-attack  QUARTZBEARD", &assign).unwrap();
    assert_eq!(
        legal(&state, 0)[found],
        Action::Assign {
            face: Face::MoveAttack,
            slot: 0
        }
    );
}

// Issue 36: gnomes-and-wizards "cast nothing in other players' turns".
#[test]
fn the_order_passes_in_another_players_turn_only() {
    let mut state = window_after_the_roll(vec![30]);
    assert_eq!(
        Game::standing_answer(&state, 1, "pass-outside-my-turn"),
        Some(Action::Pass)
    );
    assert_eq!(
        Game::standing_answer(&state, 0, "pass-outside-my-turn"),
        None
    );
    // The same window in seat 1's own turn: the order leaves it to the player.
    if let Phase::Turn { seat, .. } = &mut state.phase {
        *seat = 1;
    }
    assert_eq!(
        Game::standing_answer(&state, 1, "pass-outside-my-turn"),
        None
    );
}

// Ruling (docs/rules/gnomes-and-wizards.md, "Forced choices"): a lone choice, a window's
// "pass" too, is played for a player with empty hands (their counts are public), asked of one
// holding a card that cannot be cast now.
#[test]
fn a_lone_choice_is_asked_only_of_a_player_holding_cards() {
    let mut state = window_after_the_roll(vec![30]);
    assert!(Game::keeps_asking(&state, 1), "the hand stays secret");
    state.players[1].hand.clear();
    assert!(
        !Game::keeps_asking(&state, 1),
        "with empty hands a lone choice tells nothing, in a window too"
    );
    state.players[1].learned_hand.push(0);
    assert!(
        Game::keeps_asking(&state, 1),
        "a held Learned card stays secret"
    );
}
