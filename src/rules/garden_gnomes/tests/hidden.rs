//! Hidden information: views, log visibility, redaction, descriptions.

use serde_json::{Value, json};

use super::*;
use crate::rules::{Viewer, Visibility};

// Issue 5: "Hidden: chosen objectives (others see how many), the neutral objectives not
// taken." "each choice hidden from the others until the end"
#[test]
fn each_player_sees_only_their_own_objectives() {
    let state = started(&Options::default(), 3, &[Red, Green, Blue], Red);
    let own = Game::view(&state, Viewer::Seat(1));
    let kept = &own["clans"][1]["objectives_kept"];
    assert_eq!(kept.as_array().map(Vec::len), Some(3));
    assert_eq!(
        own["clans"][1]["objectives_discarded"]
            .as_array()
            .map(Vec::len),
        Some(5)
    );
    assert_eq!(own["clans"][0]["objectives_kept"], Value::Null);
    assert_eq!(own["clans"][0]["objectives_discarded"], Value::Null);
    assert_eq!(own["clans"][0]["objectives_kept_count"], json!(3));
    let spectator = Game::view(&state, Viewer::Spectator);
    for clan in 0..3 {
        assert_eq!(spectator["clans"][clan]["objectives_kept"], Value::Null);
        assert_eq!(spectator["clans"][clan]["advanced_score"], Value::Null);
    }
    let everyone = Game::view(&state, Viewer::Everyone);
    for clan in 0..3 {
        assert_eq!(
            everyone["clans"][clan]["objectives_kept"]
                .as_array()
                .map(Vec::len),
            Some(3)
        );
    }
}

// The simultaneous choice: each keep is logged for its player only.
#[test]
fn keeping_an_objective_is_logged_for_its_player_only() {
    let state = dealt(&Options::default(), 3, &[Red, Green, Blue], Red);
    let id = state.clans[1].offered[0];
    let keep = Action::KeepObjective(id);
    let actor = Actor::Seat(1);
    assert_eq!(
        Game::visibility(&state, actor, &keep),
        Visibility::Seats(vec![1])
    );
    assert_eq!(
        Game::redact(&state, actor, &keep),
        json!({"keep_objective": "hidden"})
    );
    assert_eq!(
        Game::describe(&state, actor, &keep, Viewer::Seat(0)),
        "Green (Seat 1) kept an objective"
    );
    assert_eq!(
        Game::describe(&state, actor, &keep, Viewer::Seat(1)),
        format!("Green (Seat 1) kept objective {id} (2 acorns, 3 apples)")
    );
}

// The neutral objectives are dealt face down: each deal is logged for its receiver only.
#[test]
fn dealing_an_objective_is_logged_for_its_receiver_only() {
    let mut state = Game::new_game(&Options::default(), 3).unwrap();
    for c in [Red, Green, Blue] {
        chance(&mut state, Action::AssignClan(c));
    }
    chance(&mut state, Action::FirstPlayer(Red));
    let deal = Action::DealObjective(36);
    assert_eq!(
        Game::visibility(&state, Actor::Chance, &deal),
        Visibility::Seats(vec![0])
    );
    assert_eq!(
        Game::redact(&state, Actor::Chance, &deal),
        json!({"deal_objective": "hidden"})
    );
    assert_eq!(
        Game::describe(&state, Actor::Chance, &deal, Viewer::Spectator),
        "Red (Seat 0) was dealt a neutral objective"
    );
    assert_eq!(
        Game::describe(&state, Actor::Chance, &deal, Viewer::Seat(0)),
        "Red (Seat 0) was dealt neutral objective 36 (4 acorns, 2 apples, 1 berry)"
    );
    // The views never list the undealt cards, only how many there are.
    let view = Game::view(&state, Viewer::Everyone);
    assert_eq!(view["neutral_objectives_undealt"], json!(18));
}

// The map, with each clan's gnomes per territory, is public.
#[test]
fn the_board_is_public() {
    let state = started(&Options::default(), 3, &[Red, Green, Blue], Red);
    let view = Game::view(&state, Viewer::Spectator);
    assert_eq!(view["territories"][0]["gnomes"], json!({"red": 3}));
    assert_eq!(view["territories"][0]["name"], json!("Red Home"));
    assert_eq!(view["step"], json!("movement"));
    assert_eq!(view["acting_clan"], json!("red"));
    assert_eq!(view["clans"][0]["tokens"]["gnome"]["red"], json!(5));
}
