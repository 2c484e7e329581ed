//! Issue 6: a whole Wiz-War game over HTTP, including counter-spell windows answered by a
//! wizard whose turn it is not.

use serde_json::{Value, json};

use crate::system_tests::helpers::{Picker, spawn_app};
use crate::system_tests::play::verify_finished_game;

#[tokio::test]
async fn a_whole_wiz_war_game_over_http_with_counter_spell_windows() {
    let app = spawn_app().await;
    let players = vec![app.register("Merlin").await, app.register("Morgana").await];
    let watcher = app.register("Eve").await;
    // Every affected wizard is asked about every spell, so windows open whatever the hands.
    // Random play need not score 2 points: the optional round limit ends the game (the
    // rulebook's game, the default, has none).
    let game = app
        .start_game(
            "wiz-war",
            &players,
            json!({"ask_every_affected_wizard": true, "round_limit": 30}),
        )
        .await;
    let mut picker = Picker::new(6);
    let (mut windows, mut out_of_turn_answers) = (0, 0);
    for _ in 0..20_000 {
        let record = app
            .get(&format!("/v1/games/{game}"), &players[0])
            .await
            .expect(200);
        if record["status"] == "finished" {
            break;
        }
        let seat = record["to_act"][0].as_u64().unwrap() as usize;
        let state = app
            .get(&format!("/v1/games/{game}/state"), &players[seat])
            .await
            .expect(200);
        let legal = state["legal_actions"].as_array().unwrap();
        let in_window = state["view"]["phase"] == "reaction_window";
        let choice: Value = if in_window {
            windows += 1;
            assert!(legal.iter().any(|a| a["action"] == "pass"));
            // The other wizard answers the active one's spells (the active wizard may in turn
            // be asked about a counter to its own spell).
            if state["view"]["active_seat"] != json!(seat) {
                out_of_turn_answers += 1;
            }
            // Counter when possible, else pass.
            legal
                .iter()
                .find(|a| a["action"].get("counter").is_some())
                .unwrap_or_else(|| legal.iter().find(|a| a["action"] == "pass").unwrap())["action"]
                .clone()
        } else {
            // Favour casting so windows open; otherwise act at random.
            let casts: Vec<&Value> = legal
                .iter()
                .filter(|a| a["action"].get("cast").is_some())
                .collect();
            if !casts.is_empty() && picker.below(2) == 0 {
                casts[picker.below(casts.len())]["action"].clone()
            } else {
                legal[picker.below(legal.len())]["action"].clone()
            }
        };
        app.post(
            &format!("/v1/games/{game}/actions"),
            &players[seat],
            &json!({"expected_version": state["version"], "actions": [choice]}),
        )
        .await
        .expect(200);
        // Hands stay hidden from the other wizard and from spectators.
        let other = app
            .get(&format!("/v1/games/{game}/state"), &players[1 - seat])
            .await
            .expect(200);
        let spectator = app
            .get(&format!("/v1/games/{game}/state"), &watcher)
            .await
            .expect(200);
        if other["status"] == "active" {
            assert!(
                other["view"]["wizards"][seat]["hand"].is_null(),
                "a wizard's hand is hidden from the other"
            );
            assert!(
                other["view"]["wizards"][1 - seat]["hand"].is_array(),
                "but not from its owner"
            );
            for w in spectator["view"]["wizards"].as_array().unwrap() {
                assert!(w["hand"].is_null(), "spectators see no hand");
            }
        }
    }
    assert!(windows > 0, "a counter-spell window opened");
    assert!(
        out_of_turn_answers > 0,
        "a wizard answered in another's turn"
    );
    verify_finished_game(&app, game, &watcher).await;
}
