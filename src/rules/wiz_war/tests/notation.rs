//! Notation and standing orders (issue 36).

use super::*;
use crate::rules::notation;

fn table(options: &Options, hands: [&[&str]; 3]) -> State {
    let mut state = start(3, options);
    open_room(&mut state);
    for (s, h) in hands.iter().enumerate() {
        give(&mut state, s, h);
    }
    state.turn.first = false;
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    place(&mut state, 2, Pos(0, 4));
    state
}

fn notations(state: &State, seat: Seat) -> Vec<String> {
    Game::legal_actions(state, seat)
        .iter()
        .map(|a| Game::notation(state, seat, a))
        .collect()
}

fn every_wizard() -> Options {
    Options {
        ask_every_affected_wizard: true,
        ..Options::default()
    }
}

// "Each ruleset defines a short, unique, stable text for each of its legal actions (like
// chess's algebraic notation: e.g. `cast fireball bob`)": cards by key, wizards by colour.
#[test]
fn a_cast_reads_as_the_card_and_the_wizards_colour() {
    let mut state = table(&quiet(), [&["fireball"], &[], &[]]);
    let turn = notations(&state, 0);
    for text in ["cast fireball", "move north", "end-move"] {
        assert!(turn.iter().any(|n| n == text), "{text} not in {turn:?}");
    }
    let fireball = notation::find("Cast  Fireball", &turn).unwrap();
    assert_eq!(
        Game::legal_actions(&state, 0)[fireball],
        Action::Cast(card("fireball"))
    );
    decide(&mut state, 0, Action::Cast(card("fireball")));
    let blue = state.colour(1);
    assert_eq!(
        Game::notation(&state, 0, &target_wizard(1)),
        format!("target {blue}")
    );
    assert!(notations(&state, 0).contains(&format!("target {blue}")));
}

// Issue 36: "pass in reaction windows unless I am the target".
#[test]
fn the_order_passes_for_a_bystander_and_asks_the_target() {
    let mut state = table(&every_wizard(), [&["fireball"], &["zot"], &["zot"]]);
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(waiting_for(&state), vec![1]);
    assert_eq!(
        Game::standing_answer(&state, 1, "pass-unless-targeted"),
        None,
        "the target decides for itself"
    );
    decide(&mut state, 1, Action::Pass);
    assert_eq!(waiting_for(&state), vec![2]);
    assert_eq!(
        Game::standing_answer(&state, 2, "pass-unless-targeted"),
        Some(Action::Pass)
    );
    assert_eq!(Game::standing_answer(&state, 2, "no-such-order"), None);
}

// Out of a window the order answers nothing: "recurring small decisions" only.
#[test]
fn the_order_leaves_a_turn_to_its_wizard() {
    let state = table(&every_wizard(), [&["fireball"], &[], &[]]);
    assert_eq!(
        Game::standing_answer(&state, 0, "pass-unless-targeted"),
        None
    );
}

// Ruling (docs/rules/wiz-war.md, "Forced choices"): a lone "pass" is played for a wizard
// whose hand is empty (everyone knows it holds no counter), asked of one holding cards.
#[test]
fn a_lone_pass_is_asked_only_of_a_wizard_holding_cards() {
    let mut state = table(&every_wizard(), [&["fireball"], &[], &["fireball"]]);
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(Game::legal_actions(&state, 1), vec![Action::Pass]);
    assert!(
        !Game::keeps_asking(&state, 1),
        "an empty hand hides nothing"
    );
    decide(&mut state, 1, Action::Pass);
    assert_eq!(Game::legal_actions(&state, 2), vec![Action::Pass]);
    assert!(
        Game::keeps_asking(&state, 2),
        "a hand without a counter stays secret"
    );
}
