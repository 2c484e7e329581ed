//! Issue 8: a whole Gnomes & Wizards game over HTTP, with an ability cast in another
//! player's turn (a reaction window).

use serde_json::{Value, json};

use crate::system_tests::helpers::{Picker, spawn_app};
use crate::system_tests::play::verify_finished_game;

#[tokio::test]
async fn a_whole_gnomes_and_wizards_game_over_http_with_an_out_of_turn_cast() {
    let app = spawn_app().await;
    let players = vec![app.register("Toy").await, app.register("Master").await];
    let watcher = app.register("Eve").await;
    // The game's dice and decks come from the server's seed, so whether a castable ability is
    // in hand when a window opens differs from game to game: play games (at most five) until
    // one had an out-of-turn cast. Each of them must end, and end verified.
    let mut out_of_turn_casts = 0;
    for round in 0..5 {
        let game = app
            .start_game("gnomes-and-wizards", &players, json!({}))
            .await;
        out_of_turn_casts += play_one_game(&app, &players, game, round).await;
        verify_finished_game(&app, game, &watcher).await;
        if out_of_turn_casts > 0 {
            break;
        }
    }
    assert!(
        out_of_turn_casts > 0,
        "an ability was cast in another player's turn"
    );
}

/// Plays `game` to its end, casting in every reaction window where a cast is legal; returns
/// how many casts were made in another player's turn.
async fn play_one_game(
    app: &crate::system_tests::helpers::TestApp,
    players: &[crate::system_tests::helpers::Player],
    game: uuid::Uuid,
    round: u64,
) -> usize {
    let mut picker = Picker::new(8 + round);
    let (mut finished, mut out_of_turn_casts) = (false, 0);
    for _ in 0..40_000 {
        let record = app
            .get(&format!("/v1/games/{game}"), &players[0])
            .await
            .expect(200);
        if record["status"] == "finished" {
            finished = true;
            break;
        }
        let to_act = record["to_act"].as_array().unwrap();
        let seat = to_act[picker.below(to_act.len())].as_u64().unwrap() as usize;
        let state = app
            .get(&format!("/v1/games/{game}/state"), &players[seat])
            .await
            .expect(200);
        let legal: Vec<Value> = state["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["action"].clone())
            .collect();
        let has = |a: &Value| legal.contains(a);
        // A reaction window: asked while it is not this seat's turn, with "pass" on offer.
        let in_window = state["view"]["current_seat"] != json!(seat) && has(&json!("pass"));
        let choice = if in_window {
            // Another player's turn: cast if possible, else pass.
            match legal.iter().find(|a| a.get("cast").is_some()) {
                Some(cast) => {
                    out_of_turn_casts += 1;
                    cast.clone()
                }
                None => json!("pass"),
            }
        } else {
            // Gather horns on the Leader and draw abilities, so there is something to cast.
            let preferred = [
                json!({"assign": {"face": "horn", "slot": 0}}),
                json!({"draw_cards": {"slot": 0}}),
                json!({"draw_from": "secret"}),
                json!({"keep_card": 0}),
            ];
            match preferred.iter().find(|a| has(a)) {
                Some(a) => a.clone(),
                None => {
                    let ends = ["keep_dice", "end_actions", "end_call", "end_charge"];
                    match ends.iter().map(|e| json!(e)).find(|a| has(a)) {
                        Some(e) if picker.below(3) > 0 => e,
                        _ => legal[picker.below(legal.len())].clone(),
                    }
                }
            }
        };
        app.post(
            &format!("/v1/games/{game}/actions"),
            &players[seat],
            &json!({"expected_version": state["version"], "actions": [choice]}),
        )
        .await
        .expect(200);
    }
    assert!(finished, "ten rounds end the game");
    out_of_turn_casts
}
