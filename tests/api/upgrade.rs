//! Snapshots written by an older Turnpost (`service::upgrade`): a game whose stored state this
//! Turnpost cannot load is refolded from its log when a server starts, and plays on; a game
//! whose log does not refold either is left untouched.

use serde_json::json;

use crate::system_tests::helpers::spawn_app;
use crate::system_tests::web::play_some;

/// Wraps a game's snapshot in a shape no ruleset loads, as a state type reshaped by an
/// upgrade would leave it.
fn outdate(game: uuid::Uuid) -> String {
    format!(
        "UPDATE games SET state = jsonb_build_object('written_by', 'an older turnpost', 'state', state) \
         WHERE id = '{game}'"
    )
}

#[tokio::test]
async fn a_snapshot_this_turnpost_cannot_load_is_refolded_from_the_log_at_start() {
    let app = spawn_app().await;
    let players = vec![app.register("ada").await, app.register("bo").await];
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    play_some(&app, game, &players, 8, 11).await;
    let stuck = app.start_game("bag-of-fate", &players, json!({})).await;
    play_some(&app, stuck, &players, 3, 12).await;
    let before = app
        .get(&format!("/v1/games/{game}/state"), &players[0])
        .await
        .expect(200);

    app.sql(&outdate(game)).await;
    // The second game's log cannot be refolded either: its options are not this ruleset's.
    app.sql(&outdate(stuck)).await;
    app.sql(&format!(
        "UPDATE games SET options = '{{\"no_such_option\": true}}' WHERE id = '{stuck}'"
    ))
    .await;

    // A server starting on the database (a new release taking over) refolds the first.
    let upgraded = app.twin().await;
    let mut after = None;
    for _ in 0..100 {
        let reply = upgraded
            .get(&format!("/v1/games/{game}/state"), &players[0])
            .await;
        if reply.status == 200 {
            after = Some(reply.expect(200));
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let after = after.expect("the outdated snapshot is refolded within 5 s of the start");
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["view"], before["view"]);
    assert_eq!(after["legal_actions"], before["legal_actions"]);
    assert_eq!(
        app.count_where(
            "games",
            &format!("id = '{game}' AND NOT state ? 'written_by'")
        )
        .await,
        1,
        "the refolded snapshot is stored"
    );
    // And the game plays on.
    play_some(&upgraded, game, &players, 2, 13).await;
    let moved = upgraded
        .get(&format!("/v1/games/{game}"), &players[0])
        .await
        .expect(200);
    assert!(moved["version"].as_i64() > before["version"].as_i64());

    // The game that does not refold is left as it was, never overwritten with a guess.
    assert_eq!(
        app.count_where("games", &format!("id = '{stuck}' AND state ? 'written_by'"))
            .await,
        1
    );
}
