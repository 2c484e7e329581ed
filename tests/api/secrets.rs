//! "No other seat and no spectator ever sees a hand's cards, in state, events or errors."

use serde_json::{Value, json};
use uuid::Uuid;

use crate::system_tests::helpers::{Player, TestApp, spawn_app};

/// Every seat sees its own hand and only the sizes of the others'; a spectator sees no hand;
/// every card draw is redacted in the log for everyone but the drawer.
pub async fn assert_no_foreign_secrets(
    app: &TestApp,
    game: Uuid,
    players: &[Player],
    spectator: &Player,
) {
    let mut viewers: Vec<(Option<usize>, &Player)> = players
        .iter()
        .enumerate()
        .map(|(s, p)| (Some(s), p))
        .collect();
    viewers.push((None, spectator));
    for (me, who) in viewers {
        let state = app
            .get(&format!("/v1/games/{game}/state"), who)
            .await
            .expect(200);
        if state["status"] == "finished" {
            return;
        }
        let view = &state["view"];
        for (seat, p) in view["players"].as_array().unwrap().iter().enumerate() {
            let size = p["hand_size"].as_u64().unwrap() as usize;
            if Some(seat) == me {
                assert_eq!(
                    p["hand"].as_array().map(Vec::len),
                    Some(size),
                    "own hand visible: {p}"
                );
            } else {
                assert!(
                    p["hand"].is_null(),
                    "seat {seat}'s hand shown to {me:?}: {p}"
                );
            }
        }
        if view["current_seat"].as_u64().map(|s| s as usize) != me {
            assert!(
                view["looked_at"].is_null(),
                "the Oracle's cards shown to {me:?}"
            );
        }
        let log = app
            .get(&format!("/v1/games/{game}/events?limit=1000"), who)
            .await
            .expect(200);
        for e in log["entries"].as_array().unwrap() {
            let action = &e["action"];
            let is_card = action.get("draw_card").is_some() || action.get("keep_card").is_some();
            if !is_card {
                continue;
            }
            if e["redacted"] == true {
                assert!(
                    action == &json!({"draw_card": "hidden"})
                        || action == &json!({"keep_card": "hidden"}),
                    "redacted entry still shows a card: {e}"
                );
                let d = e["description"].as_str().unwrap().to_lowercase();
                for element in ["potions", "flowers", "snails", "mushrooms", "crystals"] {
                    assert!(
                        !d.contains(element),
                        "redacted description names the card: {d}"
                    );
                }
            } else {
                assert!(me.is_some(), "a spectator saw a card draw in full: {e}");
            }
        }
    }
}

#[tokio::test]
async fn hands_stay_hidden_in_state_events_and_errors() {
    let app = spawn_app().await;
    let players: Vec<Player> = vec![
        app.register("Ann").await,
        app.register("Bob").await,
        app.register("Cat").await,
    ];
    let spectator = app.register("Eve").await;
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    assert_no_foreign_secrets(&app, game, &players, &spectator).await;

    // Each player was dealt three cards: they see them, nobody else does.
    for (seat, p) in players.iter().enumerate() {
        let own = app
            .get(&format!("/v1/games/{game}/state"), p)
            .await
            .expect(200);
        let hand = own["view"]["players"][seat]["hand"]
            .as_array()
            .unwrap()
            .clone();
        assert_eq!(hand.len(), 3);
        let own_log = app
            .get(&format!("/v1/games/{game}/events"), p)
            .await
            .expect(200);
        let full_draws = own_log["entries"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| {
                e["kind"] == "chance"
                    && e["redacted"] == false
                    && e["action"].get("draw_card").is_some()
            })
            .count();
        assert_eq!(
            full_draws, 3,
            "a player sees exactly their own three draws in full"
        );
    }

    // Errors: refusals to others say nothing about the hand.
    let record = app
        .get(&format!("/v1/games/{game}"), &players[0])
        .await
        .expect(200);
    let seat = record["to_act"][0].as_u64().unwrap() as usize;
    let other = (seat + 1) % 3;
    let problem: Value = app
        .post(
            &format!("/v1/games/{game}/actions"),
            &players[other],
            &json!({"actions": [{"play_card": 0}]}),
        )
        .await
        .expect_problem(403, "not-your-decision");
    assert_eq!(problem["detail"], "it is not your decision now");
    let problem = app
        .post(
            &format!("/v1/games/{game}/actions"),
            &spectator,
            &json!({"actions": [{"play_card": 0}]}),
        )
        .await
        .expect_problem(403, "not-a-player");
    assert_eq!(problem["detail"], "you do not hold a seat in this game");
}
