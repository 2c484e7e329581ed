//! A whole game through the erased, JSON interface the service uses: the action forms of
//! docs/rules/garden-gnomes.md, including the simultaneous objective choice.

use serde_json::{Value, json};

use super::*;
use crate::rules::registry::{Applied, Erased, Game as _, GameState, Waiting};
use crate::rules::{Viewer, Visibility};

fn waiting(game: &dyn GameState) -> Waiting {
    game.waiting()
}

/// Plays the chance step at outcome `index` and returns the action applied.
fn chance_at(game: &mut dyn GameState, index: usize) -> Value {
    game.apply_chance(index).unwrap().action
}

fn send(game: &mut dyn GameState, seat: Seat, action: Value) -> Applied {
    game.apply_json(seat, &action)
        .unwrap_or_else(|e| panic!("seat {seat}: {action} refused: {e}"))
}

// "Each player now chooses 3 of the 8 Objectives and discards the rest." — all at once, each
// choice hidden from the others; then the rounds, a battle and the end by the round limit.
#[test]
fn a_whole_game_in_json() {
    let erased = Erased::<GardenGnomes>::default();
    let options = json!({"scoring": "advanced", "round_limit": 2});
    let mut game = erased.new_game(&options, 3).unwrap();

    // Set-up: chance picks the first outcome each time: Red, Green, Yellow; Red first.
    assert_eq!(chance_at(game.as_mut(), 0), json!({"assign_clan": "red"}));
    assert_eq!(chance_at(game.as_mut(), 0), json!({"assign_clan": "green"}));
    assert_eq!(
        chance_at(game.as_mut(), 0),
        json!({"assign_clan": "yellow"})
    );
    assert_eq!(chance_at(game.as_mut(), 0), json!({"first_player": "red"}));
    for _ in 0..9 {
        let applied = game.apply_chance(0).unwrap();
        assert!(matches!(applied.visibility, Visibility::Seats(_)));
        assert_eq!(applied.redacted, json!({"deal_objective": "hidden"}));
    }

    // The simultaneous choice: all three seats are asked at once.
    assert_eq!(waiting(game.as_ref()), Waiting::Players(vec![0, 1, 2]));
    let dealt = |game: &dyn GameState, seat: usize| -> Vec<Value> {
        game.legal_actions(seat)
            .into_iter()
            .map(|a| a.action)
            .collect()
    };
    assert_eq!(dealt(game.as_ref(), 1).len(), 8);
    assert_eq!(dealt(game.as_ref(), 1)[0], json!({"keep_objective": 5}));
    // Interleaved, in any order.
    let applied = send(game.as_mut(), 2, json!({"keep_objective": 10}));
    assert_eq!(applied.visibility, Visibility::Seats(vec![2]));
    assert_eq!(applied.redacted, json!({"keep_objective": "hidden"}));
    assert_eq!(
        applied.redacted_description,
        "Yellow (Seat 2) kept an objective"
    );
    send(game.as_mut(), 0, json!({"keep_objective": 3}));
    send(game.as_mut(), 2, json!({"keep_objective": 13}));
    send(game.as_mut(), 0, json!({"keep_objective": 4}));
    send(game.as_mut(), 0, json!({"keep_objective": 36}));
    // Seat 0 is done and drops out.
    assert_eq!(waiting(game.as_ref()), Waiting::Players(vec![1, 2]));
    assert!(game.apply_json(0, &json!({"keep_objective": 0})).is_err());
    let view0 = game.view(Viewer::Seat(0));
    assert_eq!(
        view0["clans"][0]["objectives_kept"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(view0["clans"][2]["objectives_kept"], Value::Null);
    assert_eq!(view0["clans"][2]["objectives_kept_count"], json!(2));
    for keep in [5, 6, 7] {
        send(game.as_mut(), 1, json!({"keep_objective": keep}));
    }
    send(game.as_mut(), 2, json!({"keep_objective": 14}));

    // Round 1: "each player may put Gnomes from his/ her reserve onto the board": each clan
    // says how many, in turn order (all of them here).
    assert_eq!(waiting(game.as_ref()), Waiting::Players(vec![0]));
    assert_eq!(dealt(game.as_ref(), 0)[0], json!({"reinforce": 3}));
    send(game.as_mut(), 0, json!({"reinforce": 3}));
    send(game.as_mut(), 1, json!({"reinforce": 2}));
    send(game.as_mut(), 2, json!({"reinforce": 2}));
    // Red (first) moves 2 of its 3 gnomes onto the Toadstool, Green attacks there.
    assert_eq!(waiting(game.as_ref()), Waiting::Players(vec![0]));
    send(game.as_mut(), 0, json!({"move": {"from": 0, "to": 12}}));
    send(game.as_mut(), 0, json!({"move": {"from": 0, "to": 12}}));
    send(game.as_mut(), 0, json!("end_movement"));
    send(game.as_mut(), 1, json!({"move": {"from": 2, "to": 12}}));
    send(game.as_mut(), 1, json!("end_movement"));
    send(game.as_mut(), 2, json!("end_movement"));
    // Red against Green: no decision, 3 dice rolled one chance step each (index 5 = a 6).
    assert_eq!(waiting(game.as_ref()), Waiting::Chance(vec![1; 6]));
    assert_eq!(chance_at(game.as_mut(), 5), json!({"roll": 6}));
    assert_eq!(chance_at(game.as_mut(), 0), json!({"roll": 1}));
    assert_eq!(chance_at(game.as_mut(), 0), json!({"roll": 1}));
    // Green's gnome is killed; round 2 with Green first.
    let view = game.view(Viewer::Spectator);
    assert_eq!(view["round"], json!(2));
    assert_eq!(view["territories"][12]["gnomes"], json!({"red": 2}));
    assert_eq!(waiting(game.as_ref()), Waiting::Players(vec![1]));
    // Green puts none on this time; Yellow and Red all theirs.
    send(game.as_mut(), 1, json!({"reinforce": 0}));
    send(game.as_mut(), 2, json!({"reinforce": 2}));
    send(game.as_mut(), 0, json!({"reinforce": 3}));
    for seat in [1, 2, 0] {
        send(game.as_mut(), seat, json!("end_movement"));
    }
    let Waiting::Over(outcome) = waiting(game.as_ref()) else {
        panic!("the round limit should have ended the game")
    };
    assert_eq!(outcome.scores.as_ref().map(Vec::len), Some(3));
    let everyone = game.view(Viewer::Everyone);
    assert_eq!(everyone["clans"][1]["objectives_kept"][0]["id"], json!(5));
}
