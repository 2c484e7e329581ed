//! Creating, joining, acting: the rules of the API around the game.

use reqwest::Method;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::system_tests::helpers::{Player, TestApp, spawn_app};

pub(crate) async fn acting(app: &TestApp, game: Uuid, players: &[Player]) -> (usize, Value) {
    let record = app
        .get(&format!("/v1/games/{game}"), &players[0])
        .await
        .expect(200);
    let seat = record["to_act"][0].as_u64().expect("someone to act") as usize;
    let state = app
        .get(&format!("/v1/games/{game}/state"), &players[seat])
        .await
        .expect(200);
    (seat, state)
}

#[tokio::test]
async fn rulesets_are_listed_with_seat_ranges() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let list = app.get("/v1/rulesets", &ann).await.expect(200);
    let bof = list["rulesets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "bag-of-fate")
        .expect("bag-of-fate listed");
    assert_eq!(bof["min_seats"], 2);
    assert_eq!(bof["max_seats"], 5);
    assert!(bof["name"].as_str().is_some_and(|n| !n.is_empty()));
    assert!(bof["options"].is_array());
}

#[tokio::test]
async fn a_game_opens_fills_and_starts_by_itself() {
    let app = spawn_app().await;
    let (ann, bob, cat, dan) = (
        app.register("Ann").await,
        app.register("Bob").await,
        app.register("Cat").await,
        app.register("Dan").await,
    );
    let created = app
        .post(
            "/v1/games",
            &ann,
            &json!({"ruleset": "bag-of-fate", "seats": 3}),
        )
        .await
        .expect(201);
    let id = created["id"].as_str().unwrap().to_owned();
    assert_eq!(created["status"], "open");
    assert_eq!(created["seats"][0]["user_id"], ann.id.to_string());
    assert_eq!(created["seats"][0]["display_name"], "Ann");
    assert!(created["seats"][1]["user_id"].is_null());
    assert_eq!(created["to_act"], json!([]));
    assert_eq!(created["seed_sha256"].as_str().unwrap().len(), 64);
    assert!(created["seed"].is_null());

    // Listed among open games, and among the creator's games.
    let open = app.get("/v1/games", &bob).await.expect(200);
    assert!(
        open["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str())
    );
    let mine = app.get("/v1/me/games", &ann).await.expect(200);
    assert_eq!(mine["games"].as_array().unwrap().len(), 1);

    // Joining: a chosen seat, a taken seat, a second seat for the same user.
    app.post(&format!("/v1/games/{id}/join"), &bob, &json!({"seat": 2}))
        .await
        .expect(200);
    app.post(&format!("/v1/games/{id}/join"), &cat, &json!({"seat": 2}))
        .await
        .expect_problem(409, "seat-unavailable");
    app.post(&format!("/v1/games/{id}/join"), &bob, &json!({}))
        .await
        .expect_problem(409, "seat-unavailable");
    app.post(&format!("/v1/games/{id}/join"), &cat, &json!({"seat": 7}))
        .await
        .expect_problem(422, "invalid-request");
    // An empty body takes the lowest free seat; the last seat starts the game.
    let started = app
        .request(
            Method::POST,
            &format!("/v1/games/{id}/join"),
            Some(&cat.token),
            None,
            &[],
        )
        .await
        .expect(200);
    assert_eq!(started["status"], "active");
    assert_eq!(started["seats"][1]["display_name"], "Cat");
    assert_eq!(started["to_act"].as_array().unwrap().len(), 1);
    app.post(&format!("/v1/games/{id}/join"), &dan, &json!({}))
        .await
        .expect_problem(409, "game-status");
    let open = app.get("/v1/games", &dan).await.expect(200);
    assert!(
        !open["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str())
    );

    // The log: created, three joins, started, then the set-up chance steps.
    let events = app
        .get(&format!("/v1/games/{id}/events"), &dan)
        .await
        .expect(200);
    let kinds: Vec<&str> = events["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        &kinds[..5],
        ["created", "joined", "joined", "joined", "started"]
    );
    assert!(kinds[5..].iter().all(|k| *k == "chance"), "{kinds:?}");
    let started_entry = &events["entries"][4];
    assert_eq!(
        started_entry["action"]["seed_sha256"],
        started["seed_sha256"]
    );

    // Waiting on exactly one player, who sees it in /me/turns.
    let seat = started["to_act"][0].as_u64().unwrap() as usize;
    let players = [&ann, &cat, &bob];
    let turns = app.get("/v1/me/turns", players[seat]).await.expect(200);
    assert_eq!(turns["games"][0]["id"], id.as_str());
    let other = players[(seat + 1) % 3];
    let none = app.get("/v1/me/turns", other).await.expect(200);
    assert_eq!(none["games"], json!([]));
}

#[tokio::test]
async fn nobody_can_act_for_another_seat() {
    let app = spawn_app().await;
    let players = vec![
        app.register("Ann").await,
        app.register("Bob").await,
        app.register("Cat").await,
    ];
    let outsider = app.register("Eve").await;
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    let (seat, state) = acting(&app, game, &players).await;
    let action = state["legal_actions"][0]["action"].clone();
    let version = app.count("game_events").await;

    // Another seated player sending the acting seat's legal action: 403.
    for other in (0..3).filter(|s| *s != seat) {
        let other_state = app
            .get(&format!("/v1/games/{game}/state"), &players[other])
            .await
            .expect(200);
        assert_eq!(
            other_state["legal_actions"],
            json!([]),
            "only the acting seat gets actions"
        );
        app.post(
            &format!("/v1/games/{game}/actions"),
            &players[other],
            &json!({"actions": [action]}),
        )
        .await
        .expect_problem(403, "not-your-decision");
    }
    // Someone without a seat: 403 too.
    app.post(
        &format!("/v1/games/{game}/actions"),
        &outsider,
        &json!({"actions": [action]}),
    )
    .await
    .expect_problem(403, "not-a-player");
    let spectator_state = app
        .get(&format!("/v1/games/{game}/state"), &outsider)
        .await
        .expect(200);
    assert!(spectator_state["seat"].is_null());
    assert_eq!(spectator_state["legal_actions"], json!([]));
    assert_eq!(
        app.count("game_events").await,
        version,
        "refusals append nothing"
    );
}

#[tokio::test]
async fn illegal_actions_are_422_with_the_reason_and_change_nothing() {
    let app = spawn_app().await;
    let players = vec![app.register("Ann").await, app.register("Bob").await];
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    let (seat, state) = acting(&app, game, &players).await;
    let before = app.count("game_events").await;
    let path = format!("/v1/games/{game}/actions");
    for junk in [
        json!("fly_away"),
        json!({"choose_character": "dragon"}),
        json!(42),
        json!(null),
        json!({"play_card": 99}),
    ] {
        let problem = app
            .post(&path, &players[seat], &json!({"actions": [junk]}))
            .await
            .expect_problem(422, "illegal-action");
        assert_eq!(problem["action_index"], 0);
        assert!(
            problem["detail"].as_str().is_some_and(|d| d.len() > 10),
            "{problem}"
        );
    }
    // A legal first action followed by an illegal one: all or nothing.
    let good = state["legal_actions"][0]["action"].clone();
    let problem = app
        .post(
            &path,
            &players[seat],
            &json!({"actions": [good, {"choose_character": "dragon"}]}),
        )
        .await
        .expect_problem(422, "illegal-action");
    assert_eq!(problem["action_index"], 1);
    app.post(&path, &players[seat], &json!({"actions": []}))
        .await
        .expect_problem(422, "invalid-request");
    assert_eq!(app.count("game_events").await, before);
    let after = app
        .get(&format!("/v1/games/{game}/state"), &players[seat])
        .await
        .expect(200);
    assert_eq!(after["version"], state["version"]);
    assert_eq!(after["view"], state["view"]);
}

#[tokio::test]
async fn twenty_concurrent_submissions_with_one_expected_version() {
    let app = spawn_app().await;
    let players = vec![
        app.register("Ann").await,
        app.register("Bob").await,
        app.register("Cat").await,
    ];
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    let (seat, state) = acting(&app, game, &players).await;
    let body = json!({"expected_version": state["version"], "actions": [state["legal_actions"][0]["action"]]});
    let path = format!("/v1/games/{game}/actions");
    let requests = (0..20).map(|_| app.post(&path, &players[seat], &body));
    let replies = futures::future::join_all(requests).await;
    let ok = replies.iter().filter(|r| r.status == 200).count();
    let conflicts: Vec<_> = replies.iter().filter(|r| r.status == 409).collect();
    assert_eq!(ok, 1, "exactly one accepted");
    assert_eq!(conflicts.len(), 19, "the rest are stale");
    for c in &conflicts {
        assert_eq!(
            c.body["type"],
            "https://turnpost.dev/problems/version-conflict"
        );
        assert!(c.body["current_version"].as_i64().unwrap() > state["version"].as_i64().unwrap());
    }
    let events = app
        .get(&format!("/v1/games/{game}/events?limit=1000"), &players[0])
        .await
        .expect(200);
    let seqs: Vec<i64> = events["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_i64().unwrap())
        .collect();
    assert_eq!(
        seqs,
        (1..=seqs.len() as i64).collect::<Vec<_>>(),
        "seq contiguous"
    );
    let record = app
        .get(&format!("/v1/games/{game}"), &players[0])
        .await
        .expect(200);
    assert_eq!(record["version"], *seqs.last().unwrap());
}

#[tokio::test]
async fn idempotency_key_replays_the_first_response() {
    let app = spawn_app().await;
    let players = vec![app.register("Ann").await, app.register("Bob").await];
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    let (seat, state) = acting(&app, game, &players).await;
    let path = format!("/v1/games/{game}/actions");
    let body = json!({"expected_version": state["version"], "actions": [state["legal_actions"][0]["action"]]});
    let key = [("Idempotency-Key", "move-1")];
    let first = app
        .request(
            Method::POST,
            &path,
            Some(&players[seat].token),
            Some(&body),
            &key,
        )
        .await;
    let events_after_first = app.count("game_events").await;
    let second = app
        .request(
            Method::POST,
            &path,
            Some(&players[seat].token),
            Some(&body),
            &key,
        )
        .await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(second.status, 200, "{}", second.text);
    assert_eq!(first.body, second.body, "the same response twice");
    assert_eq!(
        app.count("game_events").await,
        events_after_first,
        "one append"
    );

    // The same key with another body: 422, nothing written.
    let other =
        json!({"actions": [state["legal_actions"].as_array().unwrap().last().unwrap()["action"]]});
    app.request(
        Method::POST,
        &path,
        Some(&players[seat].token),
        Some(&other),
        &key,
    )
    .await
    .expect_problem(422, "idempotency-key-reused");
    assert_eq!(app.count("game_events").await, events_after_first);

    // Keys are per user: another user's identical key is their own (here: not their turn).
    let other_seat = 1 - seat;
    app.request(
        Method::POST,
        &path,
        Some(&players[other_seat].token),
        Some(&body),
        &key,
    )
    .await
    .expect_problem(409, "version-conflict");
}

#[tokio::test]
async fn concurrent_retries_with_one_idempotency_key_apply_once() {
    let app = spawn_app().await;
    let players = vec![app.register("Ann").await, app.register("Bob").await];
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    let (seat, state) = acting(&app, game, &players).await;
    let path = format!("/v1/games/{game}/actions");
    let body = json!({"actions": [state["legal_actions"][0]["action"]]});
    let before = app.count("game_events").await;
    let key = [("Idempotency-Key", "retry-storm")];
    let replies = futures::future::join_all((0..8).map(|_| {
        app.request(
            Method::POST,
            &path,
            Some(&players[seat].token),
            Some(&body),
            &key,
        )
    }))
    .await;
    for r in &replies {
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.body, replies[0].body);
    }
    let appended = replies[0].body["entries"].as_array().unwrap().len() as i64;
    assert_eq!(app.count("game_events").await, before + appended);
}

#[tokio::test]
async fn submitted_entries_read_back_exactly_as_returned() {
    let app = spawn_app().await;
    let players = [
        app.register("Ann").await,
        app.register("Bob").await,
        app.register("Cat").await,
    ];
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    let (seat, state) = acting(&app, game, &players).await;
    let reply = app
        .post(
            &format!("/v1/games/{game}/actions"),
            &players[seat],
            &json!({
                "expected_version": state["version"],
                "actions": [state["legal_actions"][0]["action"].clone()],
            }),
        )
        .await
        .expect(200);
    let entries = reply["entries"].as_array().expect("entries").clone();
    assert!(!entries.is_empty());
    let first = entries[0]["seq"].as_i64().expect("seq");
    assert_eq!(
        reply["version"].as_i64(),
        entries.last().and_then(|e| e["seq"].as_i64())
    );
    // The log, read back by the same player, holds the very entries the submission returned
    // (same seq, text, redaction and timestamps to the microsecond).
    let page = app
        .get(
            &format!("/v1/games/{game}/events?after={}", first - 1),
            &players[seat],
        )
        .await
        .expect(200);
    let stored = page["entries"].as_array().expect("entries");
    assert_eq!(&stored[..entries.len()], &entries[..]);
}

/// Issue 19: "conditional GETs answer 304 to `If-None-Match`". The tag is the caller's own:
/// it changes when anything the caller would see changes, and only then.
#[tokio::test]
async fn conditional_gets_answer_304_until_the_game_changes() {
    let app = spawn_app().await;
    let players = vec![app.register("Ann").await, app.register("Bob").await];
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    let get = async |path: &str, who: &Player, tag: Option<&str>| {
        let mut req = app
            .client
            .get(format!("{}{path}", app.base))
            .bearer_auth(&who.token);
        if let Some(t) = tag {
            req = req.header("if-none-match", t);
        }
        let res = req.send().await.expect("send");
        let status = res.status().as_u16();
        let etag = res
            .headers()
            .get("etag")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .expect("an ETag");
        let body = res.bytes().await.expect("a body");
        (status, etag, body.len())
    };
    for path in [
        format!("/v1/games/{game}"),
        format!("/v1/games/{game}/state"),
    ] {
        let (status, tag, len) = get(&path, &players[0], None).await;
        assert_eq!(status, 200);
        assert!(
            len > 0 && tag.starts_with('"') && tag.ends_with('"'),
            "{tag}"
        );
        let (status, again, len) = get(&path, &players[0], Some(&tag)).await;
        assert_eq!(
            (status, len),
            (304, 0),
            "{path}: unchanged is 304 with no body"
        );
        assert_eq!(again, tag);
        // A list of tags, weak or strong, and `*`.
        let list = format!("W/\"0-0000000000000000\", {tag}");
        assert_eq!(get(&path, &players[0], Some(&list)).await.0, 304);
        assert_eq!(get(&path, &players[0], Some("*")).await.0, 304);
        assert_eq!(
            get(&path, &players[0], Some("\"1-0000000000000000\""))
                .await
                .0,
            200
        );
    }
    // Each player's view has its own tag (their own hands differ).
    let state = format!("/v1/games/{game}/state");
    let (_, ann_tag, _) = get(&state, &players[0], None).await;
    let (_, bob_tag, _) = get(&state, &players[1], None).await;
    assert_ne!(ann_tag, bob_tag);
    assert_eq!(get(&state, &players[1], Some(&ann_tag)).await.0, 200);

    // A move changes every tag: the next conditional GET is a whole answer.
    let (_, game_tag, _) = get(&format!("/v1/games/{game}"), &players[0], None).await;
    let (seat, view) = acting(&app, game, &players).await;
    let body = json!({"expected_version": view["version"], "actions": [view["legal_actions"][0]["action"]]});
    app.post(&format!("/v1/games/{game}/actions"), &players[seat], &body)
        .await
        .expect(200);
    let (status, new_tag, len) =
        get(&format!("/v1/games/{game}"), &players[0], Some(&game_tag)).await;
    assert_eq!(status, 200);
    assert!(len > 0);
    assert_ne!(new_tag, game_tag);
    assert_eq!(get(&state, &players[0], Some(&ann_tag)).await.0, 200);
}
