//! Listeners hear of every committed turn, and only of committed ones (DESIGN.md: "commit, then
//! `pg_notify` listeners"): a submission is announced on `turnpost_games` by its server right
//! after its one-statement transaction (`service::announce`), never before.

use std::time::Duration;

use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use futures::StreamExt;
use serde_json::json;

use crate::system_tests::helpers::spawn_app;

#[derive(diesel::QueryableByName)]
struct Version {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    version: i64,
}

/// Waits (at most `wait`) for the next notification on the connection.
async fn next_notification(conn: &mut AsyncPgConnection, wait: Duration) -> Option<String> {
    let mut stream = Box::pin(conn.notifications_stream());
    match tokio::time::timeout(wait, stream.next()).await {
        Ok(Some(Ok(n))) => {
            assert_eq!(n.channel, "turnpost_games");
            Some(n.payload)
        }
        Ok(Some(Err(e))) => panic!("notification stream failed: {e}"),
        Ok(None) | Err(_) => None,
    }
}

#[tokio::test]
async fn every_committed_turn_is_announced_once_and_a_refused_one_never() {
    let app = spawn_app().await;
    let players = [
        app.register("ann").await,
        app.register("bob").await,
        app.register("cat").await,
    ];
    let game = app.start_game("bag-of-fate", &players, json!({})).await;

    let mut listener = AsyncPgConnection::establish(&app.database_url)
        .await
        .expect("connect the listener");
    diesel::sql_query("LISTEN turnpost_games")
        .execute(&mut listener)
        .await
        .expect("listen");

    for _ in 0..3 {
        let info = app
            .get(&format!("/v1/games/{game}"), &players[0])
            .await
            .expect(200);
        let seat = info["to_act"][0].as_u64().expect("a seat to act") as usize;
        let state = app
            .get(&format!("/v1/games/{game}/state"), &players[seat])
            .await
            .expect(200);
        let action = state["legal_actions"][0]["action"].clone();
        let version = state["version"].as_i64().expect("version");

        // A stale expected_version is refused (409) and announces nothing.
        app.post(
            &format!("/v1/games/{game}/actions"),
            &players[seat],
            &json!({"expected_version": version - 1, "actions": [action]}),
        )
        .await
        .expect_problem(409, "version-conflict");
        assert_eq!(
            next_notification(&mut listener, Duration::from_millis(300)).await,
            None,
            "a refused submission must not be announced"
        );

        let done = app
            .post(
                &format!("/v1/games/{game}/actions"),
                &players[seat],
                &json!({"expected_version": version, "actions": [action]}),
            )
            .await
            .expect(200);
        let new_version = done["version"].as_i64().expect("version");
        assert_eq!(
            next_notification(&mut listener, Duration::from_secs(10)).await,
            Some(format!("{game}:{new_version}")),
            "the committed turn is announced with the game's new version"
        );
        // Whoever hears it can read it: the announcement comes after the commit.
        let stored: Vec<Version> =
            diesel::sql_query(format!("SELECT version FROM games WHERE id = '{game}'"))
                .load(&mut listener)
                .await
                .expect("read the game");
        assert_eq!(stored.iter().map(|v| v.version).next(), Some(new_version));
    }
}
