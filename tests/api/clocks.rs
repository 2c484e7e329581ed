//! Games that survive absent players (issue 16): clocks and deadlines, timeouts played exactly
//! once by two deadline workers, absence and coming back, reminders, vacations, resignation,
//! abort, take-over. Time is moved with the server's adjustable clock, never slept through.

use std::time::Duration;

use chrono::{DateTime, Duration as Span, SubsecRound, Utc};
use diesel::sql_types::{Array, BigInt, Int4, Nullable};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use reqwest::Method;
use serde_json::{Value, json};
use tokio::sync::watch;
use turnpost::clock::Clock;
use uuid::Uuid;

use crate::system_tests::helpers::{Picker, Player, TestApp, spawn_app_with};
use crate::system_tests::mailbox::{
    mail_to, reply_address, text_of, verified_players, wait_for_mail_where,
};
use crate::system_tests::smtp::SmtpServer;

const HOUR: i64 = 3600;

async fn clocked_app() -> (TestApp, Clock) {
    let clock = Clock::adjustable();
    let c = clock.clone();
    let app = spawn_app_with(move |s| {
        s.clock = c;
        s.clock_poll_ms = 25;
    })
    .await;
    (app, clock)
}

async fn create(
    app: &TestApp,
    players: &[Player],
    ruleset: &str,
    clock: Value,
    bots: usize,
) -> Uuid {
    let game = app
        .post(
            "/v1/games",
            &players[0],
            &json!({"ruleset": ruleset, "seats": players.len() + bots, "clock": clock, "bots": bots}),
        )
        .await
        .expect(201);
    let id: Uuid = game["id"].as_str().unwrap().parse().unwrap();
    for p in &players[1..] {
        app.post(&format!("/v1/games/{id}/join"), p, &json!({}))
            .await
            .expect(200);
    }
    id
}

async fn game(app: &TestApp, id: Uuid, who: &Player) -> Value {
    app.get(&format!("/v1/games/{id}"), who).await.expect(200)
}

fn seat_of(game: &Value, who: &Player) -> i64 {
    game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["user_id"] == json!(who.id))
        .map(|s| s["seat"].as_i64().unwrap())
        .expect("a seat")
}

fn waits(game: &Value, seat: i64) -> bool {
    game["to_act"].as_array().unwrap().contains(&json!(seat))
}

/// Every log entry as `who` sees it.
async fn log(app: &TestApp, id: Uuid, who: &Player) -> Vec<Value> {
    let mut out = vec![];
    let mut after = 0;
    loop {
        let page = app
            .get(
                &format!("/v1/games/{id}/events?after={after}&limit=1000"),
                who,
            )
            .await
            .expect(200);
        let entries = page["entries"].as_array().unwrap().clone();
        out.extend(entries);
        match page["next"].as_i64() {
            Some(n) => after = n,
            None => return out,
        }
    }
}

/// Plays one decision for `who` (a legal action picked by `picker`); false if the game moved
/// on first.
async fn act(app: &TestApp, id: Uuid, who: &Player, picker: &mut Picker) -> bool {
    let state = app
        .get(&format!("/v1/games/{id}/state"), who)
        .await
        .expect(200);
    let legal = state["legal_actions"].as_array().unwrap();
    if legal.is_empty() {
        return false;
    }
    let action = legal[picker.below(legal.len())]["action"].clone();
    let reply = app
        .post(
            &format!("/v1/games/{id}/actions"),
            who,
            &json!({"expected_version": state["version"], "actions": [action]}),
        )
        .await;
    reply.status.is_success()
}

/// Waits (bounded) until the game's version is past `version`.
async fn wait_past(app: &TestApp, id: Uuid, who: &Player, version: i64) -> Value {
    for _ in 0..800 {
        let g = game(app, id, who).await;
        if g["version"].as_i64().unwrap() > version {
            return g;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("game {id} stayed at version {version}");
}

/// Plays the humans in `active` and lets every decision of anyone else time out (moving the
/// clock past it), until `done` says so or the game is over. Bounded.
async fn play_with_timeouts(
    app: &TestApp,
    clock: &Clock,
    id: Uuid,
    active: &[&Player],
    watcher: &Player,
    picker: &mut Picker,
    done: impl Fn(&Value) -> bool,
) -> Value {
    for _ in 0..4000 {
        let g = game(app, id, watcher).await;
        if g["status"] != "active" || done(&g) {
            return g;
        }
        let mut moved = false;
        for p in active {
            if waits(&g, seat_of(&g, p)) && act(app, id, p, picker).await {
                moved = true;
                break;
            }
        }
        if !moved {
            clock.advance(Span::hours(2));
            wait_past(app, id, watcher, g["version"].as_i64().unwrap()).await;
        }
    }
    panic!("the game did not get there");
}

#[tokio::test]
async fn a_game_where_one_player_never_acts_still_ends_and_each_timeout_is_logged_once() {
    let (app, clock) = clocked_app().await;
    // A second deadline worker on the same database: timeouts must still happen once.
    let other = turnpost::app::services(&app.settings, &app.database_url)
        .await
        .unwrap();
    let (stop, stopped) = watch::channel(false);
    let second = tokio::spawn(turnpost::service::clock::run(other, 10, stopped));

    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let cat = app.register("Cat").await;
    let clock_json = json!({"per_decision_secs": HOUR, "absent_after": 2});
    let id = create(
        &app,
        &[ann.clone(), bob.clone(), cat.clone()],
        "bag-of-fate",
        clock_json.clone(),
        0,
    )
    .await;
    let g = game(&app, id, &ann).await;
    assert_eq!(g["clock"]["per_decision_secs"], HOUR);
    assert_eq!(g["clock"]["absent_after"], 2);
    // Every waiting seat has a deadline, an hour after its wait began.
    let deadlines = g["deadlines"].as_array().unwrap();
    assert_eq!(deadlines.len(), g["to_act"].as_array().unwrap().len());
    assert_eq!(deadlines[0]["seat"], g["to_act"][0]);

    let mut picker = Picker::new(16);
    let end = play_with_timeouts(&app, &clock, id, &[&ann, &bob], &ann, &mut picker, |_| {
        false
    })
    .await;
    assert_eq!(end["status"], "finished", "{end}");
    let _ = stop.send(true);
    second.await.unwrap();

    let cat_seat = seat_of(&end, &cat);
    let entries = log(&app, id, &ann).await;
    let seqs: Vec<i64> = entries.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
    assert_eq!(
        seqs,
        (1..=seqs.len() as i64).collect::<Vec<_>>(),
        "a contiguous log"
    );
    let timed_out: Vec<usize> = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e["kind"] == "timed_out")
        .map(|(i, _)| i)
        .collect();
    // "after a configurable number of consecutive timeouts the seat is marked absent and is
    // played by a bot at once on every later decision": two timeouts, then the bot.
    assert_eq!(timed_out.len(), 2, "each timeout logged once");
    for &i in &timed_out {
        assert_eq!(entries[i]["action"]["seat"], cat_seat);
        let next = &entries[i + 1];
        assert_eq!(
            next["kind"], "timeout",
            "the default action follows: {next}"
        );
        assert_eq!(next["actor"]["seat"], cat_seat);
    }
    let absent: Vec<usize> = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e["kind"] == "absent")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(absent.len(), 1);
    let cat_moves: Vec<&Value> = entries
        .iter()
        .skip(absent[0])
        .filter(|e| e["actor"]["type"] == "seat" && e["actor"]["seat"] == cat_seat)
        .collect();
    assert!(!cat_moves.is_empty(), "the bot played the absent seat");
    assert!(cat_moves.iter().all(|e| e["kind"] == "bot"));
    assert!(
        entries
            .iter()
            .filter(|e| e["actor"]["seat"] == cat_seat)
            .all(|e| e["kind"] != "action"),
        "Cat never acted"
    );
    assert_eq!(end["seats"][cat_seat as usize]["played_by_bot"], true);
    assert_eq!(
        app.count("deadlines").await,
        0,
        "a finished game has no deadlines"
    );
}

#[tokio::test]
async fn an_absent_player_who_comes_back_gets_the_seat_back() {
    let (app, clock) = clocked_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let id = create(
        &app,
        &[ann.clone(), bob.clone()],
        "bag-of-fate",
        json!({"per_decision_secs": HOUR, "absent_after": 1}),
        0,
    )
    .await;
    let mut picker = Picker::new(3);
    let bob_seat = seat_of(&game(&app, id, &ann).await, &bob);
    let g = play_with_timeouts(&app, &clock, id, &[&ann], &ann, &mut picker, |g| {
        g["seats"][bob_seat as usize]["played_by_bot"] == true
    })
    .await;
    assert_eq!(g["status"], "active", "the game is still on");
    app.post(&format!("/v1/games/{id}/back"), &ann, &json!({}))
        .await
        .expect_problem(409, "not-now");
    let back = app
        .post(&format!("/v1/games/{id}/back"), &bob, &json!({}))
        .await
        .expect(200);
    assert_eq!(back["seats"][bob_seat as usize]["played_by_bot"], false);
    // Ann plays until it is Bob's turn again; then Bob plays it himself.
    for _ in 0..400 {
        let g = game(&app, id, &ann).await;
        assert_eq!(g["status"], "active");
        if waits(&g, bob_seat) {
            assert!(
                act(&app, id, &bob, &mut picker).await,
                "Bob plays his own seat"
            );
            let entries = log(&app, id, &ann).await;
            assert!(entries.iter().any(|e| e["kind"] == "back"));
            let last_bob = entries
                .iter()
                .rev()
                .find(|e| e["actor"]["seat"] == bob_seat)
                .unwrap();
            assert_eq!(last_bob["kind"], "action");
            return;
        }
        act(&app, id, &ann, &mut picker).await;
    }
    panic!("Bob never had to decide again");
}

#[tokio::test]
async fn a_vacation_moves_the_deadline_by_exactly_the_pause() {
    let (app, _clock) = clocked_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let id = create(
        &app,
        &[ann.clone(), bob.clone()],
        "bag-of-fate",
        json!({"per_decision_secs": 24 * HOUR}),
        0,
    )
    .await;
    let g = game(&app, id, &ann).await;
    let seat = g["to_act"][0].as_i64().unwrap();
    let who = if seat_of(&g, &ann) == seat {
        &ann
    } else {
        &bob
    };
    let due = |g: &Value| -> DateTime<Utc> {
        g["deadlines"][0]["due_at"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap()
    };
    let d0 = due(&g);
    let from = (Utc::now() + Span::hours(1)).trunc_subsecs(0);
    let until = from + Span::hours(30);
    let v = app
        .request(
            Method::PUT,
            "/v1/me/vacation",
            Some(&who.token),
            Some(&json!({"from": from, "until": until})),
            &[],
        )
        .await
        .expect(200);
    assert_eq!(v["days_left"], 28, "30 hours take 2 of the 30 days");
    // "their clocks pause for it": the deadline moves by exactly the 30 hours.
    let seen = game(&app, id, &ann).await;
    let d1 = due(&seen);
    assert_eq!(d1 - d0, until - from);
    // "the other players see that they are away and until when"
    let away = &seen["seats"][seat as usize]["away"];
    let shown: DateTime<Utc> = away["until"].as_str().unwrap().parse().unwrap();
    assert_eq!(shown, until);
    // Back early, before it began: no pause at all.
    app.request(
        Method::DELETE,
        "/v1/me/vacation",
        Some(&who.token),
        None,
        &[],
    )
    .await
    .expect(200);
    let seen = game(&app, id, &ann).await;
    assert_eq!(due(&seen), d0);
    assert!(seen["seats"][seat as usize]["away"].is_null());
    // Bounded per year.
    app.request(
        Method::PUT,
        "/v1/me/vacation",
        Some(&who.token),
        Some(&json!({"from": from, "until": from + Span::days(29)})),
        &[],
    )
    .await
    .expect_problem(422, "invalid-request");
}

#[tokio::test]
async fn reminders_arrive_once_per_point_with_the_turn_mail_s_content() {
    let smtp = SmtpServer::start();
    let clock = Clock::adjustable();
    let (c, url) = (clock.clone(), smtp.url());
    let app = spawn_app_with(move |s| {
        s.clock = c;
        s.clock_poll_ms = 25;
        s.mail.smtp_url = Some(url);
        s.mail.poll_ms = 20;
        s.mail.from = "Turnpost <play@turnpost.test>".into();
    })
    .await;
    let players = verified_players(&app, &["Ann", "Bob"]).await;
    let id = create(
        &app,
        &players,
        "bag-of-fate",
        json!({"per_decision_secs": 48 * HOUR, "reminders_secs": [24 * HOUR, HOUR]}),
        0,
    )
    .await;
    let g = game(&app, id, &players[0]).await;
    let seat = g["to_act"][0].as_i64().unwrap();
    let me = players.iter().find(|p| seat_of(&g, p) == seat).unwrap();
    let reminders = |smtp: &SmtpServer| {
        mail_to(smtp, me)
            .into_iter()
            .filter(|m| m.subject().contains("reminder"))
            .collect::<Vec<_>>()
    };
    let seen = mail_to(&smtp, me).len();
    clock.advance(Span::hours(25));
    let first = wait_for_mail_where(&smtp, me, seen, |m| m.subject().contains("reminder")).await;
    let text = text_of(&first);
    assert!(text.contains("== Your choices =="), "{text}");
    assert!(text.contains("Decide by"), "{text}");
    assert!(
        reply_address(&first).is_some(),
        "a reminder can be answered like a turn mail"
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(reminders(&smtp).len(), 1, "one reminder per point");
    clock.advance(Span::minutes(22 * 60 + 30));
    let seen = mail_to(&smtp, me).len();
    wait_for_mail_where(&smtp, me, seen, |m| m.subject().contains("reminder")).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(reminders(&smtp).len(), 2);
    assert_eq!(
        game(&app, id, me).await["version"],
        g["version"],
        "nothing timed out yet"
    );
}

#[tokio::test]
async fn resigning_ends_a_two_seat_game_and_hands_a_four_seat_seat_to_the_bot() {
    let app = spawn_app_with(|_| {}).await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let id = create(
        &app,
        &[ann.clone(), bob.clone()],
        "bag-of-fate",
        Value::Null,
        0,
    )
    .await;
    let g = app
        .post(&format!("/v1/games/{id}/resign"), &bob, &json!({}))
        .await
        .expect(200);
    // "a two-player game ends with the other player's win"
    assert_eq!(g["status"], "finished");
    assert_eq!(g["outcome"]["winners"], json!([seat_of(&g, &ann)]));
    app.post(&format!("/v1/games/{id}/resign"), &ann, &json!({}))
        .await
        .expect_problem(409, "game-status");

    let four: Vec<Player> = vec![
        app.register("Cat").await,
        app.register("Dan").await,
        app.register("Eve").await,
        app.register("Fay").await,
    ];
    let id = create(&app, &four, "bag-of-fate", Value::Null, 0).await;
    let dan = &four[1];
    let g = app
        .post(&format!("/v1/games/{id}/resign"), dan, &json!({}))
        .await
        .expect(200);
    assert_eq!(g["status"], "active");
    let dan_seat = seat_of(&g, dan);
    assert_eq!(g["seats"][dan_seat as usize]["played_by_bot"], true);
    assert!(!waits(&g, dan_seat), "the bot decides for the seat at once");
    // The others play on; Dan's seat is never waited for.
    let mut picker = Picker::new(9);
    for _ in 0..3000 {
        let g = game(&app, id, &four[0]).await;
        if g["status"] != "active" {
            break;
        }
        assert!(!waits(&g, dan_seat));
        for p in four.iter().filter(|p| p.id != dan.id) {
            if waits(&g, seat_of(&g, p)) {
                act(&app, id, p, &mut picker).await;
                break;
            }
        }
    }
    assert_eq!(game(&app, id, &four[0]).await["status"], "finished");
}

#[tokio::test]
async fn every_player_must_vote_to_abort() {
    let app = spawn_app_with(|_| {}).await;
    let players = vec![
        app.register("Ann").await,
        app.register("Bob").await,
        app.register("Cat").await,
    ];
    let id = create(&app, &players, "bag-of-fate", Value::Null, 0).await;
    let outsider = app.register("Zed").await;
    app.post(&format!("/v1/games/{id}/abort"), &outsider, &json!({}))
        .await
        .expect_problem(403, "not-a-player");
    for p in &players[..2] {
        let g = app
            .post(&format!("/v1/games/{id}/abort"), p, &json!({}))
            .await
            .expect(200);
        assert_eq!(g["status"], "active");
    }
    app.post(&format!("/v1/games/{id}/abort"), &players[0], &json!({}))
        .await
        .expect_problem(409, "not-now");
    let g = app
        .post(&format!("/v1/games/{id}/abort"), &players[2], &json!({}))
        .await
        .expect(200);
    assert_eq!(g["status"], "abandoned");
    assert!(g["to_act"].as_array().unwrap().is_empty());
    let entries = log(&app, id, &players[0]).await;
    assert_eq!(
        entries.iter().filter(|e| e["kind"] == "abort_vote").count(),
        3
    );
    assert_eq!(entries.last().unwrap()["kind"], "aborted");
    app.post(
        &format!("/v1/games/{id}/actions"),
        &players[0],
        &json!({"actions": [{}]}),
    )
    .await
    .expect_problem(409, "game-status");
}

/// `(seq, visible_to)` of every log entry, from the database.
async fn visibility(app: &TestApp, id: Uuid) -> Vec<(i64, Option<Vec<i32>>)> {
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = BigInt)]
        seq: i64,
        #[diesel(sql_type = Nullable<Array<Int4>>)]
        visible_to: Option<Vec<i32>>,
    }
    let mut conn = AsyncPgConnection::establish(&app.database_url)
        .await
        .unwrap();
    let rows: Vec<Row> = diesel::sql_query(format!(
        "SELECT seq, visible_to FROM game_events WHERE game_id = '{id}' ORDER BY seq"
    ))
    .load(&mut conn)
    .await
    .unwrap();
    rows.into_iter().map(|r| (r.seq, r.visible_to)).collect()
}

#[tokio::test]
async fn a_replacement_takes_over_an_absent_seat_and_sees_only_what_that_seat_saw() {
    let (app, clock) = clocked_app().await;
    let players = vec![
        app.register("Ann").await,
        app.register("Bob").await,
        app.register("Cat").await,
    ];
    let id = create(
        &app,
        &players,
        "bag-of-fate",
        json!({"per_decision_secs": HOUR, "absent_after": 1}),
        0,
    )
    .await;
    let cat = &players[2];
    let mut picker = Picker::new(5);
    let cat_seat = seat_of(&game(&app, id, cat).await, cat);
    let g = play_with_timeouts(
        &app,
        &clock,
        id,
        &[&players[0], &players[1]],
        &players[0],
        &mut picker,
        |g| g["seats"][cat_seat as usize]["played_by_bot"] == true,
    )
    .await;
    assert_eq!(g["status"], "active");
    // The game is offered: it is listed with the open games.
    let eve = app.register("Eve").await;
    let listed = app.get("/v1/games", &eve).await.expect(200);
    assert!(
        listed["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == json!(id))
    );
    // A seat with a player cannot be taken; a seated player cannot take another.
    app.post(
        &format!("/v1/games/{id}/seats/0/take-over"),
        &eve,
        &json!({}),
    )
    .await
    .expect_problem(409, "seat-unavailable");
    app.post(
        &format!("/v1/games/{id}/seats/{cat_seat}/take-over"),
        &players[0],
        &json!({}),
    )
    .await
    .expect_problem(409, "seat-unavailable");
    let g = app
        .post(
            &format!("/v1/games/{id}/seats/{cat_seat}/take-over"),
            &eve,
            &json!({}),
        )
        .await
        .expect(200);
    assert_eq!(seat_of(&g, &eve), cat_seat);
    assert_eq!(g["seats"][cat_seat as usize]["played_by_bot"], false);
    // Eve sees the seat's view (its hand) ...
    let state = app
        .get(&format!("/v1/games/{id}/state"), &eve)
        .await
        .expect(200);
    assert_eq!(state["seat"], cat_seat);
    let cat_view = state["view"].clone();
    assert!(!cat_view.is_null());
    // ... and the log exactly as that seat saw it: entries hidden from it stay hidden.
    let rows = visibility(&app, id).await;
    let entries = log(&app, id, &eve).await;
    assert_eq!(rows.len(), entries.len());
    let mut hidden = 0;
    for ((seq, visible_to), e) in rows.iter().zip(&entries) {
        assert_eq!(e["seq"], *seq);
        let seen = visible_to
            .as_ref()
            .is_none_or(|v| v.contains(&(cat_seat as i32)));
        assert_eq!(e["redacted"], !seen, "entry {seq}: {e}");
        hidden += usize::from(!seen);
    }
    assert!(hidden > 0, "the game had entries hidden from the seat");
    // Cat, no longer seated, sees a spectator's view.
    let cat_state = app
        .get(&format!("/v1/games/{id}/state"), cat)
        .await
        .expect(200);
    assert!(cat_state["seat"].is_null());
}

#[tokio::test]
async fn clocks_are_checked_when_a_game_is_created() {
    let app = spawn_app_with(|_| {}).await;
    let ann = app.register("Ann").await;
    for (clock, bots) in [
        (json!({"per_decision_secs": 60}), 0),
        (json!({"per_decision_secs": 15 * 24 * HOUR}), 0),
        (json!({"per_decision_secs": HOUR, "absent_after": 0}), 0),
        (
            json!({"per_decision_secs": HOUR, "bank": {"initial_secs": 10, "credit_secs": 1, "cap_secs": 5}}),
            0,
        ),
        (json!({"per_decision_secs": HOUR, "tempo": "blitz"}), 0),
        (json!("daily"), 0),
    ] {
        app.post(
            "/v1/games",
            &ann,
            &json!({"ruleset": "bag-of-fate", "seats": 2, "clock": clock, "bots": bots}),
        )
        .await
        .expect_problem(422, "invalid-request");
    }
    for bots in [-1, 2, 5] {
        app.post(
            "/v1/games",
            &ann,
            &json!({"ruleset": "bag-of-fate", "seats": 2, "bots": bots}),
        )
        .await
        .expect_problem(422, "invalid-seat-count");
    }
    // No clock: no deadlines.
    let g = app
        .post(
            "/v1/games",
            &ann,
            &json!({"ruleset": "bag-of-fate", "seats": 2}),
        )
        .await
        .expect(201);
    assert!(g["clock"].is_null());
    assert_eq!(g["deadlines"], json!([]));
}

#[tokio::test]
async fn a_due_deadline_of_a_seat_that_does_not_wait_is_dropped_and_plays_nothing() {
    let (app, _clock) = clocked_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let id = create(
        &app,
        &[ann.clone(), bob.clone()],
        "bag-of-fate",
        json!({"per_decision_secs": HOUR}),
        0,
    )
    .await;
    let g = game(&app, id, &ann).await;
    let idle = 1 - g["to_act"][0].as_i64().unwrap();
    app.sql(&format!(
        "INSERT INTO deadlines (game_id, seat, started_at, due_at) \
         VALUES ('{id}', {idle}, now() - interval '2 hours', now() - interval '1 hour')"
    ))
    .await;
    for _ in 0..400 {
        if app.count("deadlines").await == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(
        app.count("deadlines").await,
        1,
        "only the waiting seat's deadline is left"
    );
    let after = game(&app, id, &ann).await;
    assert_eq!(after["version"], g["version"], "nothing was played");
}
#[tokio::test]
async fn one_person_plays_every_ruleset_against_bots_to_the_end() {
    let app = spawn_app_with(|_| {}).await;
    let ann = app.register("Ann").await;
    let rulesets = app.get("/v1/rulesets", &ann).await.expect(200);
    let mut picker = Picker::new(77);
    for r in rulesets["rulesets"].as_array().unwrap() {
        let ruleset = r["id"].as_str().unwrap();
        let seats = r["min_seats"].as_u64().unwrap().max(2) as usize;
        // "a built-in player any game can seat at creation (so one person can try a ruleset
        // alone)": with seats - 1 bots the game starts at once.
        let id = create(
            &app,
            std::slice::from_ref(&ann),
            ruleset,
            Value::Null,
            seats - 1,
        )
        .await;
        let g = game(&app, id, &ann).await;
        assert_eq!(g["status"], "active", "{ruleset}: {g}");
        let me = seat_of(&g, &ann);
        let bots: Vec<i64> = (0..seats as i64).filter(|s| *s != me).collect();
        for b in &bots {
            assert_eq!(g["seats"][*b as usize]["played_by_bot"], true);
        }
        let mut status = g["status"].clone();
        for _ in 0..20_000 {
            let mut g = game(&app, id, &ann).await;
            // A request plays at most a turn's worth of bot decisions (bots::
            // DECISIONS_PER_REQUEST); the bot worker plays the rest: the game comes back to
            // the person within moments, never waiting on a bot for long.
            for _ in 0..800 {
                if g["status"] != "active" || g["to_act"] == json!([me]) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(25)).await;
                g = game(&app, id, &ann).await;
            }
            status = g["status"].clone();
            if status != "active" {
                break;
            }
            assert_eq!(
                g["to_act"],
                json!([me]),
                "{ruleset}: only the person is waited for"
            );
            act(&app, id, &ann, &mut picker).await;
        }
        assert_eq!(status, "finished", "{ruleset} reached its end");
        let entries = log(&app, id, &ann).await;
        let bot_moves = entries
            .iter()
            .filter(|e| e["actor"]["type"] == "seat" && e["actor"]["seat"] != me)
            .collect::<Vec<_>>();
        assert!(!bot_moves.is_empty(), "{ruleset}: the bots played");
        assert!(bot_moves.iter().all(|e| e["kind"] == "bot"), "{ruleset}");
    }
}
