//! Issue 5: a whole garden-gnomes game over HTTP, with the simultaneous objective choice.

use serde_json::{Value, json};

use crate::system_tests::helpers::spawn_app;
use crate::system_tests::play::{play_counting_waits, verify_finished_game};

#[tokio::test]
async fn a_whole_garden_gnomes_game_over_http() {
    let app = spawn_app().await;
    let players = vec![
        app.register("Rachel").await,
        app.register("Greg").await,
        app.register("Brian").await,
    ];
    let outsider = app.register("Eve").await;
    let game = app
        .start_game(
            "garden-gnomes",
            &players,
            json!({"scoring": "advanced", "round_limit": 4}),
        )
        .await;

    // "All players choose at the same time": every seat is asked at once.
    let record = app
        .get(&format!("/v1/games/{game}"), &players[0])
        .await
        .expect(200);
    assert_eq!(record["to_act"], json!([0, 1, 2]));
    for (seat, p) in players.iter().enumerate() {
        let state = app
            .get(&format!("/v1/games/{game}/state"), p)
            .await
            .expect(200);
        assert!(
            state["legal_actions"]
                .as_array()
                .unwrap()
                .iter()
                .all(|a| a["action"].get("keep_objective").is_some())
        );
        assert_eq!(state["seat"], seat);
    }
    // Seat 2 keeps one objective; nobody else learns which.
    let s2 = app
        .get(&format!("/v1/games/{game}/state"), &players[2])
        .await
        .expect(200);
    let keep = s2["legal_actions"][0]["action"].clone();
    let result = app
        .post(
            &format!("/v1/games/{game}/actions"),
            &players[2],
            &json!({"actions": [keep]}),
        )
        .await
        .expect(200);
    assert_eq!(
        result["entries"][0]["action"], keep,
        "the chooser sees the choice"
    );
    for viewer in [&players[0], &outsider] {
        let log = app
            .get(&format!("/v1/games/{game}/events?limit=1000"), viewer)
            .await
            .expect(200);
        let last = log["entries"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["redacted"], true);
        assert_eq!(last["action"], json!({"keep_objective": "hidden"}));
        let view = app
            .get(&format!("/v1/games/{game}/state"), viewer)
            .await
            .expect(200)["view"]
            .clone();
        let clans = view["clans"].as_array().unwrap();
        let seat2_clan = clans.iter().find(|c| c["seat"] == 2).unwrap_or(&clans[2]);
        assert!(
            seat2_clan["objectives_kept"].is_null(),
            "another player's objectives are hidden: {seat2_clan}"
        );
    }
    // Still waiting on everyone: seat 2 has more to keep.
    let record = app
        .get(&format!("/v1/games/{game}"), &players[0])
        .await
        .expect(200);
    assert_eq!(record["to_act"], json!([0, 1, 2]));

    let (finished, waits) = play_counting_waits(&app, game, &players, None, 21).await;
    assert_eq!(finished["status"], "finished");
    assert!(waits.iter().all(|w| *w > 0));
    let winners: Vec<Value> = finished["outcome"]["winners"].as_array().unwrap().clone();
    assert!(!winners.is_empty());
    verify_finished_game(&app, game, &outsider).await;
}

/// Submissions without `expected_version` are written with a version check instead of a lock:
/// when the seats of a simultaneous choice all send theirs at once, each write that finds the
/// game moved on is tried again on the new state, and every choice is played exactly once.
#[tokio::test]
async fn simultaneous_choices_sent_at_once_are_all_played() {
    let app = spawn_app().await;
    let players = vec![
        app.register("Ann").await,
        app.register("Bob").await,
        app.register("Cat").await,
        app.register("Dan").await,
    ];
    let game = app.start_game("garden-gnomes", &players, json!({})).await;
    let before = app
        .get(&format!("/v1/games/{game}"), &players[0])
        .await
        .expect(200);
    assert_eq!(before["to_act"], json!([0, 1, 2, 3]));
    let mut keeps = vec![];
    for p in &players {
        let state = app
            .get(&format!("/v1/games/{game}/state"), p)
            .await
            .expect(200);
        keeps.push(state["legal_actions"][0]["action"].clone());
    }
    let path = format!("/v1/games/{game}/actions");
    let bodies: Vec<Value> = keeps.iter().map(|k| json!({"actions": [k]})).collect();
    let sends = players
        .iter()
        .zip(&bodies)
        .map(|(p, body)| app.post(&path, p, body));
    for reply in futures::future::join_all(sends).await {
        reply.expect(200);
    }
    let events = app
        .get(&format!("/v1/games/{game}/events?limit=200"), &players[0])
        .await
        .expect(200);
    let kept = events["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["actor"]["type"] == "seat" && e["kind"] == "action")
        .count();
    assert_eq!(
        kept, 4,
        "each of the four choices is in the log once: {events}"
    );
    let after = app
        .get(&format!("/v1/games/{game}"), &players[0])
        .await
        .expect(200);
    assert!(
        after["version"].as_i64().unwrap() >= before["version"].as_i64().unwrap() + 4,
        "four turns were written one after the other: {} then {}",
        before["version"],
        after["version"]
    );
}
