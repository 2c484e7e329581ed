//! Issue 19, "Export": a finished game's record as one document (players, options, revealed
//! seed, the whole log), and a user's finished games as NDJSON.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::system_tests::helpers::{Player, TestApp, spawn_app};
use crate::system_tests::play::play_to_end;

/// The whole log as the events list gives it to `who`.
async fn events(app: &TestApp, game: Uuid, who: &Player) -> Vec<Value> {
    let mut entries = vec![];
    let mut after = 0;
    for _ in 0..100 {
        let page = app
            .get(
                &format!("/v1/games/{game}/events?after={after}&limit=1000"),
                who,
            )
            .await
            .expect(200);
        entries.extend(page["entries"].as_array().unwrap().iter().cloned());
        match page["next"].as_i64() {
            Some(n) => after = n,
            None => return entries,
        }
    }
    panic!("the log of {game} did not end within 100 pages");
}

/// A 2-seat game of Ann and Bob that both vote to abort: abandoned.
async fn abandoned_game(app: &TestApp, ann: &Player, bob: &Player) -> Uuid {
    let game = app
        .start_game("bag-of-fate", &[ann.clone(), bob.clone()], json!({}))
        .await;
    for p in [ann, bob] {
        app.post(&format!("/v1/games/{game}/abort"), p, &json!({}))
            .await
            .expect(200);
    }
    game
}

/// What every export must be: its seed opens its commitment, its log is whole and public.
fn check_document(doc: &Value, record: &Value) {
    assert_eq!(doc["format"], 1);
    for field in [
        "id",
        "ruleset",
        "options",
        "status",
        "created_at",
        "seed_sha256",
        "version",
    ] {
        assert_eq!(doc[field], record[field], "{field}");
    }
    let seed = hex::decode(doc["seed"].as_str().expect("the seed is revealed")).unwrap();
    assert_eq!(
        hex::encode(Sha256::digest(&seed)),
        doc["seed_sha256"].as_str().unwrap(),
        "the seed matches the commitment published at the start"
    );
    let log = doc["log"].as_array().unwrap();
    assert_eq!(log.len() as i64, doc["version"].as_i64().unwrap());
    for (i, e) in log.iter().enumerate() {
        assert_eq!(e["seq"], i as i64 + 1, "seq contiguous from 1");
        assert_eq!(
            e["redacted"], false,
            "nothing is secret once the game is over"
        );
    }
    // The commitment in the log itself, written before any chance step.
    assert_eq!(log[0]["kind"], "created");
    assert_eq!(log[0]["action"]["seed_sha256"], doc["seed_sha256"]);
    assert_eq!(doc["ended_at"], log.last().unwrap()["at"]);
    let seats = record["seats"].as_array().unwrap();
    let players = doc["players"].as_array().unwrap();
    assert_eq!(players.len(), seats.len());
    for (p, s) in players.iter().zip(seats) {
        assert_eq!(p["seat"], s["seat"]);
        assert_eq!(p["display_name"], s["display_name"]);
        assert_eq!(p["played_by_bot"], s["played_by_bot"]);
        if p["bot"] == true {
            assert!(p["user_id"].is_null());
        } else {
            assert_eq!(p["user_id"], s["user_id"]);
        }
    }
}

#[tokio::test]
async fn a_game_played_to_the_end_exports_its_whole_record() {
    let app = spawn_app().await;
    let players = vec![app.register("Ann").await, app.register("Bob").await];
    let zed = app.register("Zed").await;
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    // Not over yet: no export (its log is readable, redacted, meanwhile).
    let refused = app
        .get(&format!("/v1/games/{game}/export"), &players[0])
        .await
        .expect_problem(409, "game-status");
    assert!(refused["detail"].as_str().unwrap().contains("active"));

    let record = play_to_end(&app, game, &players, &zed, 19).await;
    assert_eq!(record["status"], "finished");
    let doc = app
        .get(&format!("/v1/games/{game}/export"), &players[1])
        .await
        .expect(200);
    check_document(&doc, &record);
    assert_eq!(doc["outcome"], record["outcome"]);
    assert!(!doc["outcome"]["winners"].as_array().unwrap().is_empty());
    assert_eq!(doc["seed"], record["seed"]);
    assert_eq!(doc["players"][0]["user_id"], players[0].id.to_string());
    assert_eq!(doc["players"][1]["display_name"], "Bob");
    // Every log entry, exactly as the events list gives it now the game is over.
    let listed = events(&app, game, &players[0]).await;
    assert_eq!(doc["log"].as_array().unwrap(), &listed);
    assert!(listed.iter().any(|e| e["actor"]["type"] == "chance"));
    assert_eq!(listed.last().unwrap()["kind"], "ended");

    // Who may read it: anyone who may read the finished game's log, i.e. every signed-in
    // account (games are public; nothing is secret at the end); nobody without a token, and
    // no token without the `read` scope.
    let by_stranger = app
        .get(&format!("/v1/games/{game}/export"), &zed)
        .await
        .expect(200);
    assert_eq!(by_stranger, doc);
    app.request(
        reqwest::Method::GET,
        &format!("/v1/games/{game}/export"),
        None,
        None,
        &[],
    )
    .await
    .expect_problem(401, "unauthorized");
    let token = app
        .post(
            "/v1/me/tokens",
            &zed,
            &json!({"name": "player only", "scopes": ["play"]}),
        )
        .await
        .expect(201);
    let play_only = Player {
        token: token["secret"].as_str().unwrap().to_owned(),
        ..zed.clone()
    };
    app.get(&format!("/v1/games/{game}/export"), &play_only)
        .await
        .expect_problem(403, "insufficient-scope");
}

#[tokio::test]
async fn only_a_game_that_is_over_is_exported() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let open = app
        .post(
            "/v1/games",
            &ann,
            &json!({"ruleset": "bag-of-fate", "seats": 2}),
        )
        .await
        .expect(201);
    app.get(
        &format!("/v1/games/{}/export", open["id"].as_str().unwrap()),
        &ann,
    )
    .await
    .expect_problem(409, "game-status");
    app.get(&format!("/v1/games/{}/export", Uuid::new_v4()), &ann)
        .await
        .expect_problem(404, "not-found");
    app.get("/v1/games/not-a-uuid/export", &ann)
        .await
        .expect_problem(400, "malformed-request");

    // Abandoned is over too: the seed is out (the `aborted` entry carries it) and so is the
    // whole log, for the players and everybody else alike.
    let game = abandoned_game(&app, &ann, &bob).await;
    let record = app
        .get(&format!("/v1/games/{game}"), &bob)
        .await
        .expect(200);
    assert_eq!(record["status"], "abandoned");
    let doc = app
        .get(&format!("/v1/games/{game}/export"), &ann)
        .await
        .expect(200);
    check_document(&doc, &record);
    assert_eq!(doc["seed"], record["seed"]);
    assert!(doc["outcome"].is_null());
    let log = doc["log"].as_array().unwrap();
    assert_eq!(log.last().unwrap()["kind"], "aborted");
    assert_eq!(log.last().unwrap()["action"]["seed"], doc["seed"]);
    let stranger = app.register("Cat").await;
    assert_eq!(&events(&app, game, &stranger).await, log);
}

#[tokio::test]
async fn my_finished_games_come_as_ndjson_one_line_each() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let cat = app.register("Cat").await;
    let zed = app.register("Zed").await;

    // Nothing over yet: an empty body.
    let empty = app
        .client
        .get(format!("{}/v1/me/games/export", app.base))
        .bearer_auth(&ann.token)
        .send()
        .await
        .unwrap();
    assert_eq!(empty.status().as_u16(), 200);
    assert_eq!(empty.text().await.unwrap(), "");

    // One game played to its end, more abandoned ones than a page of the stream holds, and
    // games that are not over (an open one, one running against the bot, Bob's with Cat).
    let finished = app
        .start_game("bag-of-fate", &[ann.clone(), bob.clone()], json!({}))
        .await;
    play_to_end(&app, finished, &[ann.clone(), bob.clone()], &zed, 7).await;
    let mut over = vec![finished];
    for _ in 0..11 {
        over.push(abandoned_game(&app, &ann, &bob).await);
    }
    app.post(
        "/v1/games",
        &ann,
        &json!({"ruleset": "bag-of-fate", "seats": 3}),
    )
    .await
    .expect(201);
    app.post(
        "/v1/games",
        &ann,
        &json!({"ruleset": "bag-of-fate", "seats": 2, "bots": 1}),
    )
    .await
    .expect(201);
    app.start_game("bag-of-fate", &[bob.clone(), cat.clone()], json!({}))
        .await;

    let res = app
        .client
        .get(format!("{}/v1/me/games/export", app.base))
        .bearer_auth(&ann.token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    assert_eq!(
        res.headers()["content-type"].to_str().unwrap(),
        "application/x-ndjson"
    );
    let body = res.text().await.unwrap();
    assert!(body.ends_with('\n'));
    let lines: Vec<&str> = body.lines().collect();
    assert_eq!(lines.len(), over.len(), "one line per game that is over");
    let docs: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON document"))
        .collect();
    // Newest first, each once: the abandoned ones (last made first), then the finished one.
    let ids: Vec<String> = docs
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_owned())
        .collect();
    let expected: Vec<String> = over.iter().rev().map(Uuid::to_string).collect();
    assert_eq!(ids, expected);
    // Each line is the game's export document.
    for (doc, id) in docs.iter().zip(over.iter().rev()) {
        let single = app
            .get(&format!("/v1/games/{id}/export"), &ann)
            .await
            .expect(200);
        assert_eq!(doc, &single);
    }
    assert_eq!(docs.last().unwrap()["status"], "finished");

    // Bob's export holds the same games (he sat at all of them; his game with Cat is running);
    // Cat has none over.
    let bobs = app
        .client
        .get(format!("{}/v1/me/games/export", app.base))
        .bearer_auth(&bob.token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(bobs, body);
    let cats = app
        .client
        .get(format!("{}/v1/me/games/export", app.base))
        .bearer_auth(&cat.token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(cats, "");
}
