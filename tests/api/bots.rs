//! Issue 38 ("Bots that finish games"): the service never waits on a bot. A request lets the
//! bot decide at most a turn's worth of times; the deadline worker's bot round continues the
//! rest in transactions of its own.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use uuid::Uuid;

use crate::system_tests::helpers::{Picker, Player, Reply, TestApp, spawn_app_with};

/// Bot decisions one request makes at most (`turnpost::bots::DECISIONS_PER_REQUEST`).
const TURN_OF_BOTS: usize = turnpost::bots::DECISIONS_PER_REQUEST;

/// A reply that is not a server error.
#[track_caller]
fn no_5xx(reply: Reply) -> Reply {
    assert!(
        !reply.status.is_server_error(),
        "{}: {}",
        reply.status,
        reply.text
    );
    reply
}

/// Bot decisions in `entries` (the log entries a request wrote).
fn bot_decisions(entries: &Value) -> usize {
    entries
        .as_array()
        .map_or(0, |e| e.iter().filter(|e| e["kind"] == "bot").count())
}

/// The most bot decisions any one request or worker round logged in `game` (the entries of
/// one transaction share their time).
async fn most_bot_decisions_in_one_write(app: &TestApp, game: Uuid) -> i64 {
    use diesel::sql_types::BigInt;
    use diesel_async::{AsyncConnection, RunQueryDsl};
    let mut conn = diesel_async::AsyncPgConnection::establish(&app.database_url)
        .await
        .unwrap();
    #[derive(diesel::QueryableByName)]
    struct Most {
        #[diesel(sql_type = BigInt)]
        most: i64,
    }
    let rows: Vec<Most> = diesel::sql_query(format!(
        "SELECT coalesce(max(n), 0) AS most FROM (SELECT count(*) AS n FROM game_events \
         WHERE game_id = '{game}' AND kind = 'bot' GROUP BY created_at) t"
    ))
    .load(&mut conn)
    .await
    .unwrap();
    rows[0].most
}

/// Plays `game` for `human` (random legal actions) until it ends; the bots play the others.
/// Returns the human's submissions.
async fn play_against_bots(app: &TestApp, game: Uuid, human: &Player, seed: u64) -> usize {
    let mut picker = Picker::new(seed);
    let mut moves = 0;
    let deadline = Instant::now() + Duration::from_secs(600);
    while Instant::now() < deadline {
        let state = no_5xx(app.get(&format!("/v1/games/{game}/state"), human).await).expect(200);
        if state["status"] == "finished" {
            return moves;
        }
        let legal = state["legal_actions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if legal.is_empty() {
            // The bots are to act: the worker continues them.
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        }
        let choice = &legal[picker.below(legal.len())];
        let body = json!({"expected_version": state["version"], "actions": [choice["action"]]});
        let reply = no_5xx(
            app.post(&format!("/v1/games/{game}/actions"), human, &body)
                .await,
        );
        // A 409: the worker moved the game on between the read and the move (never a bot's
        // refusal of the player's move).
        if reply.status.as_u16() == 409 {
            continue;
        }
        let result = reply.expect(200);
        moves += 1;
        let bots = bot_decisions(&result["entries"]);
        assert!(
            bots <= TURN_OF_BOTS,
            "one submission let the bots decide {bots} times"
        );
    }
    panic!("game {game} did not end in 10 minutes ({moves} moves)");
}

// Issue 38, acceptance: "a 4-seat bag-of-fate game with 3 bot seats and a human playing
// random legal moves ends, with no 5xx and no submission taking more than a turn's worth of
// bot decisions."
#[tokio::test]
async fn a_human_and_three_bots_finish_a_game_of_bag_of_fate() {
    let app = spawn_app_with(|s| s.clock_poll_ms = 25).await;
    for seed in 0..2u64 {
        let ann = app.register("Ann").await;
        let created = no_5xx(
            app.post(
                "/v1/games",
                &ann,
                &json!({"ruleset": "bag-of-fate", "seats": 4, "bots": 3}),
            )
            .await,
        )
        .expect(201);
        let game: Uuid = created["id"].as_str().unwrap().parse().unwrap();
        let moves = play_against_bots(&app, game, &ann, seed).await;
        assert!(moves > 0);
        let most = most_bot_decisions_in_one_write(&app, game).await;
        assert!(
            most as usize <= TURN_OF_BOTS,
            "a request or worker round made {most} bot decisions"
        );
    }
}

// The audit of 2026-11-28 (finding 1): resigning into a game of bots answered 500 after
// seconds of bot play in the request, whenever the bots went round in circles. A resignation
// now answers at once, and the worker plays the bots to the end.
#[tokio::test]
async fn resigning_into_a_game_of_bots_answers_at_once_and_the_bots_finish_it() {
    let app = spawn_app_with(|s| s.clock_poll_ms = 25).await;
    let ann = app.register("Ann").await;
    let mut games = Vec::new();
    for _ in 0..4 {
        let created = no_5xx(
            app.post(
                "/v1/games",
                &ann,
                &json!({"ruleset": "bag-of-fate", "seats": 5, "bots": 4}),
            )
            .await,
        )
        .expect(201);
        let game: Uuid = created["id"].as_str().unwrap().parse().unwrap();
        let resigned = no_5xx(
            app.post(&format!("/v1/games/{game}/resign"), &ann, &json!({}))
                .await,
        )
        .expect(200);
        assert_ne!(resigned["status"], "abandoned");
        games.push(game);
    }
    let deadline = Instant::now() + Duration::from_secs(600);
    for game in games {
        loop {
            let record = no_5xx(app.get(&format!("/v1/games/{game}"), &ann).await).expect(200);
            if record["status"] == "finished" {
                break;
            }
            assert!(Instant::now() < deadline, "game {game} did not end");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let most = most_bot_decisions_in_one_write(&app, game).await;
        assert!(
            most as usize <= TURN_OF_BOTS,
            "{most} bot decisions at once"
        );
    }
}
