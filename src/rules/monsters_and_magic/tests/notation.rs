//! Notation, forced choices and standing orders (issue 36).

use super::*;

fn notations(state: &State, seat: Seat) -> Vec<String> {
    legal(state, seat)
        .iter()
        .map(|a| Game::notation(state, seat, a))
        .collect()
}

/// Seat 0's figure 1 attacks seat 1's Army at b2; both have rolled. Seat 1 holds
/// `defender_cards`; seat 0 holds only Duelist (for fights against Heroes: no use here).
fn fight_at_b2(defender_cards: &[&str]) -> State {
    let mut state = game(2);
    set_space(&mut state, Pos(1, 1), Terrain::Plains, Structure::Village);
    put_figure(&mut state, 1, FigureKind::Army, Pos(1, 1));
    state.players[0].hand.clear();
    give(&mut state, 0, id("Duelist"));
    for name in defender_cards {
        give(&mut state, 1, id(name));
    }
    let kind = state.figure(1).unwrap().kind.name().to_lowercase();
    let moves = notations(&state, 0);
    assert!(moves.contains(&format!("move {kind}-1 b2")), "{moves:?}");
    move_to(&mut state, 0, 1, Pos(1, 1));
    chance(&mut state, Action::Roll2d6(6));
    chance(&mut state, Action::Roll2d6(9));
    assert_eq!(waiting_for(&state), vec![0]);
    state
}

// "Each ruleset defines a short, unique, stable text for each of its legal actions": cards by
// name, figures by kind and number, spaces as the board names them.
#[test]
fn a_fight_reads_as_card_names() {
    let mut state = fight_at_b2(&["Shield Bearers", "Horse Archers"]);
    decide(&mut state, 0, Action::DoneCards);
    assert_eq!(
        notations(&state, 1),
        vec!["play shield-bearers", "play horse-archers", "done"]
    );
}

// Issue 36: monsters-and-magic "play no card in fights" — as the defender (only the attacker
// and the defender are asked in a fight).
#[test]
fn the_order_answers_done_for_the_defender_only() {
    let mut state = fight_at_b2(&["Shield Bearers"]);
    assert_eq!(
        Game::standing_answer(&state, 0, "no-cards-defending"),
        None,
        "the attacker's window is the attacker's"
    );
    decide(&mut state, 0, Action::DoneCards);
    assert_eq!(waiting_for(&state), vec![1]);
    assert_eq!(
        Game::standing_answer(&state, 1, "no-cards-defending"),
        Some(Action::DoneCards)
    );
}

// Ruling (docs/rules/monsters-and-magic.md, "Forced choices"): a fight's lone "done" is
// asked of a player holding cards (none of which helps here), played for one whose hand is
// empty (its count is public).
#[test]
fn a_lone_done_is_asked_only_of_a_player_holding_cards() {
    let mut state = fight_at_b2(&["Shield Bearers"]);
    assert_eq!(legal(&state, 0), vec![Action::DoneCards]);
    assert!(Game::keeps_asking(&state, 0), "the hand stays secret");
    state.players[0].hand.clear();
    assert_eq!(legal(&state, 0), vec![Action::DoneCards]);
    assert!(
        !Game::keeps_asking(&state, 0),
        "an empty hand hides nothing"
    );
}

// Issue 36: "everywhere 'end my turn when nothing is left but ending it'". The End phase may
// still hold something to do ("THE OPTIONAL REALIGNMENT RULE: In End Phase you may discard 1 of
// your permanent cards and replace it with a card from your hand."): the order waits until
// only ending the turn (or stopping before the next one) is left.
#[test]
fn the_end_turn_order_ends_only_a_turn_with_nothing_left_in_it() {
    let mut state = game_with(
        Options {
            realignment: true,
            permanent_cards: 0,
            ..Options::default()
        },
        2,
    );
    give_permanent(&mut state, 0, id("Wings"));
    assert_eq!(
        Game::standing_answer(&state, 0, "end-turn"),
        None,
        "the Movement phase is the player's"
    );
    decide(&mut state, 0, Action::EndMovement);
    chance(&mut state, Action::DrawCard(id("Paladin")));
    chance(&mut state, Action::RollDie(3));
    assert!(matches!(state.phase, Phase::End));
    assert_eq!(
        Game::standing_answer(&state, 0, "end-turn"),
        None,
        "a realignment can still be made"
    );
    decide(
        &mut state,
        0,
        Action::Realign {
            permanent: id("Wings"),
            hand: id("Paladin"),
        },
    );
    assert_eq!(
        Game::standing_answer(&state, 0, "end-turn"),
        Some(Action::EndTurn)
    );
    assert_eq!(Game::standing_answer(&state, 1, "end-turn"), None);
}
