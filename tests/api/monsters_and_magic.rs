//! Issue 4: a whole 2-seat Monsters and Magic game over HTTP.

use serde_json::json;

use crate::system_tests::helpers::{Picker, spawn_app};
use crate::system_tests::play::verify_finished_game;

#[tokio::test]
async fn a_whole_two_seat_monsters_and_magic_game_over_http() {
    let app = spawn_app().await;
    let players = vec![app.register("Arwen").await, app.register("Boromir").await];
    let watcher = app.register("Eve").await;
    let game = app
        .start_game("monsters-and-magic", &players, json!({}))
        .await;
    let mut picker = Picker::new(44);
    let mut finished = false;
    for step in 0..40_000 {
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
        let legal = state["legal_actions"].as_array().unwrap();
        assert!(!legal.is_empty());
        // Random play, but end the movement phase now and then so the game moves on.
        let end = legal.iter().find(|a| a["action"] == "end_movement");
        let choice = match end {
            Some(e) if picker.below(4) == 0 => e,
            _ => &legal[picker.below(legal.len())],
        };
        app.post(
            &format!("/v1/games/{game}/actions"),
            &players[seat],
            &json!({"expected_version": state["version"], "actions": [choice["action"]]}),
        )
        .await
        .expect(200);
        if step % 25 == 0 {
            // Hands: own visible, the other's and the spectator's hidden (counts only).
            let own = app
                .get(&format!("/v1/games/{game}/state"), &players[seat])
                .await
                .expect(200);
            let spectator = app
                .get(&format!("/v1/games/{game}/state"), &watcher)
                .await
                .expect(200);
            if own["status"] == "active" {
                assert!(own["view"]["players"][seat]["hand"].is_array());
                assert!(own["view"]["players"][1 - seat]["hand"].is_null());
                for p in spectator["view"]["players"].as_array().unwrap() {
                    assert!(p["hand"].is_null());
                    assert!(p["hand_count"].is_u64());
                }
            }
        }
    }
    assert!(
        finished,
        "the game ended (turn limit 20 × seats at the latest)"
    );
    verify_finished_game(&app, game, &watcher).await;
}
