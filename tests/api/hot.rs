//! The hot-game cache (src/service/hot.rs) with two servers over one database: each server's
//! memory of a game is always one turn behind the other's, and every submission must still
//! be played on the game as the database has it.

use serde_json::json;

use crate::system_tests::games::acting;
use crate::system_tests::helpers::spawn_app;

#[tokio::test]
async fn turns_alternating_between_two_servers_are_all_played() {
    let a = spawn_app().await;
    let b = a.twin().await;
    let players = vec![a.register("Ann").await, a.register("Bob").await];
    let game = a.start_game("bag-of-fate", &players, json!({})).await;
    let mut last_version = 0;
    for turn in 0..24 {
        let app = if turn % 2 == 0 { &a } else { &b };
        let (seat, state) = acting(app, game, &players).await;
        if state["status"] != "active" {
            break;
        }
        let version = state["version"].as_i64().expect("version");
        assert!(version > last_version, "turn {turn}: the game moved on");
        last_version = version;
        let action = state["legal_actions"][0]["action"].clone();
        // Half the turns name the version they saw, half do not (then a stale memory of the
        // game could only be noticed by the write, or by a refusal that must not be answered
        // from it).
        let body = if turn % 4 < 2 {
            json!({"actions": [action]})
        } else {
            json!({"actions": [action], "expected_version": version})
        };
        let reply = app
            .post(&format!("/v1/games/{game}/actions"), &players[seat], &body)
            .await
            .expect(200);
        assert!(reply["version"].as_i64().expect("version") > version);
    }
    assert!(last_version > 10, "the game was played: {last_version}");
    // Both servers and the log agree.
    let va = a
        .get(&format!("/v1/games/{game}"), &players[0])
        .await
        .expect(200);
    let vb = b
        .get(&format!("/v1/games/{game}"), &players[1])
        .await
        .expect(200);
    assert_eq!(va["version"], vb["version"]);
    let entries = a
        .count_where("game_events", &format!("game_id = '{game}'"))
        .await;
    assert_eq!(
        Some(entries),
        va["version"].as_i64(),
        "one entry per version, none lost"
    );
}

#[tokio::test]
async fn a_move_refused_by_a_stale_memory_is_played_when_the_database_allows_it() {
    let a = spawn_app().await;
    let b = a.twin().await;
    let players = vec![a.register("Ann").await, a.register("Bob").await];
    let game = a.start_game("bag-of-fate", &players, json!({})).await;
    // A plays a turn (and remembers the game as that turn left it) ...
    let (seat, state) = acting(&a, game, &players).await;
    let action = state["legal_actions"][0]["action"].clone();
    a.post(
        &format!("/v1/games/{game}/actions"),
        &players[seat],
        &json!({"actions": [action]}),
    )
    .await
    .expect(200);
    // ... then B plays on until the seat to act is one A's memory says must wait.
    let (remembered, _) = acting(&a, game, &players).await;
    let mut guard = 0;
    loop {
        let (seat, state) = acting(&b, game, &players).await;
        if seat != remembered {
            let action = state["legal_actions"][0]["action"].clone();
            // To A, which has not seen B's turns: its memory says this seat must wait.
            a.post(
                &format!("/v1/games/{game}/actions"),
                &players[seat],
                &json!({"actions": [action]}),
            )
            .await
            .expect(200);
            break;
        }
        let action = state["legal_actions"][0]["action"].clone();
        b.post(
            &format!("/v1/games/{game}/actions"),
            &players[seat],
            &json!({"actions": [action]}),
        )
        .await
        .expect(200);
        guard += 1;
        assert!(guard < 50, "the other seat never came to act");
    }
}
