//! Issue 35, items 2–4: every seat action by mail, the player told of what happens to their
//! seat, and one address for many games. Over real SMTP both ways, as play_by_mail.rs: lettre
//! sends the replies into Turnpost's listener; Turnpost's mail goes to a real SMTP server.

use chrono::{DateTime, Duration as Span, Utc};
use serde_json::{Value, json};
use turnpost::clock::Clock;
use uuid::Uuid;

use crate::system_tests::helpers::{Picker, Player, TestApp, spawn_app_with};
use crate::system_tests::mailbox::{
    INBOUND_SECRET, choice_numbers, mail_to, reply_address, reply_message, send_smtp, settle,
    text_of, verdict, verified_players, wait_for_mail_where,
};
use crate::system_tests::smtp::{Received, SmtpServer};

const HOUR: i64 = 3600;

/// A mail server for the players, the inbound listener, and a clock the test moves.
async fn mail_app(smtp: &SmtpServer) -> (TestApp, Clock) {
    let clock = Clock::adjustable();
    let (c, url) = (clock.clone(), smtp.url());
    let app = spawn_app_with(move |s| {
        s.clock = c;
        s.clock_poll_ms = 25;
        s.mail.smtp_url = Some(url);
        s.mail.from = "Turnpost <play@turnpost.test>".into();
        s.inbound.smtp_addr = Some("127.0.0.1:0".parse().unwrap());
        s.inbound.secret = Some(INBOUND_SECRET.into());
        s.mail.poll_ms = 20;
    })
    .await;
    (app, clock)
}

async fn clocked_game(app: &TestApp, players: &[Player], clock: Value) -> Uuid {
    let game = app
        .post(
            "/v1/games",
            &players[0],
            &json!({"ruleset": "bag-of-fate", "seats": players.len(), "clock": clock}),
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

fn played_by_bot(game: &Value, seat: i64) -> bool {
    game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["seat"] == json!(seat) && s["played_by_bot"] == json!(true))
}

async fn log(app: &TestApp, id: Uuid, who: &Player) -> Vec<Value> {
    let page = app
        .get(&format!("/v1/games/{id}/events?after=0&limit=1000"), who)
        .await
        .expect(200);
    page["entries"].as_array().unwrap().clone()
}

/// One decision for `who` through the API (they are not the mail player under test).
async fn act(app: &TestApp, id: Uuid, who: &Player, picker: &mut Picker) {
    let state = app
        .get(&format!("/v1/games/{id}/state"), who)
        .await
        .expect(200);
    let legal = state["legal_actions"].as_array().unwrap();
    let action = legal[picker.below(legal.len())]["action"].clone();
    app.post(
        &format!("/v1/games/{id}/actions"),
        who,
        &json!({"expected_version": state["version"], "actions": [action]}),
    )
    .await
    .expect(200);
}

/// Sends `answer` as a reply to `answered` (to `to`, its reply address unless told) and
/// returns the answer mail whose subject contains `expect`, with the reply's verdict.
async fn reply_to(
    app: &TestApp,
    smtp: &SmtpServer,
    who: &Player,
    answered: &Received,
    answer: &str,
    expect: &str,
) -> (Received, String) {
    let to = reply_address(answered).expect("the mail takes replies");
    let seen = mail_to(smtp, who).len();
    let (id, raw) = reply_message(&who.email, &to, answered, answer, "");
    send_smtp(app, Some(&who.email), &to, &raw).await;
    let got = wait_for_mail_where(smtp, who, seen, |m| m.subject().contains(expect)).await;
    (got, verdict(app, &id).await.unwrap_or_default())
}

#[tokio::test]
async fn a_mail_only_player_mutes_tells_goes_away_resubscribes_and_resigns_by_mail() {
    let smtp = SmtpServer::start();
    let (app, _clock) = mail_app(&smtp).await;
    let players = verified_players(&app, &["Alma", "Bea", "Cyril"]).await;
    let id = clocked_game(&app, &players, json!({"per_decision_secs": 24 * HOUR})).await;
    let g = game(&app, id, &players[0]).await;
    let seat = g["to_act"][0].as_i64().unwrap();
    let me = players.iter().find(|p| seat_of(&g, p) == seat).unwrap();
    let others: Vec<&Player> = players.iter().filter(|p| p.id != me.id).collect();
    let names = ["Alma", "Bea", "Cyril"];
    let name_of = |p: &Player| names[players.iter().position(|q| q.id == p.id).unwrap()];
    let first = wait_for_mail_where(&smtp, me, 0, |m| {
        reply_address(m).is_some() && !choice_numbers(&text_of(m)).is_empty()
    })
    .await;

    // HELP lists every command, with the game's summary.
    let (help, v) = reply_to(&app, &smtp, me, &first, "help", "Help").await;
    assert_eq!(v, "command");
    let text = text_of(&help);
    for word in [
        "STATUS",
        "HISTORY",
        "SAY",
        "TELL",
        "AWAY 3",
        "AWAY OFF",
        "BACK",
        "MUTE",
        "UNMUTE",
        "UNSUBSCRIBE",
        "SUBSCRIBE",
        "ABORT",
        "RESIGN",
        "CONFIRM",
        "HELP",
    ] {
        assert!(text.contains(word), "HELP names {word}: {text}");
    }
    assert!(text.contains("Bag of Fate"), "{text}");

    // MUTE: table talk from this game no longer comes; UNMUTE: it comes again.
    let (muted, v) = reply_to(&app, &smtp, me, &first, "MUTE", "Muted").await;
    assert_eq!(v, "command");
    assert!(
        reply_address(&muted).is_some(),
        "the answer to a command takes the next command"
    );
    let talk = format!("/v1/games/{id}/messages");
    let seen = mail_to(&smtp, me).len();
    app.post(&talk, others[0], &json!({"body": "while muted"}))
        .await
        .expect(201);
    // Its mail is composed (and skipped) before the game is unmuted.
    settle(&app).await;
    let (_, v) = reply_to(&app, &smtp, me, &muted, "UNMUTE", "Unmuted").await;
    assert_eq!(v, "command");
    app.post(&talk, others[0], &json!({"body": "after unmuting"}))
        .await
        .expect(201);
    let relayed =
        wait_for_mail_where(&smtp, me, seen, |m| text_of(m).contains("after unmuting")).await;
    assert!(relayed.subject().contains("writes to the table"));
    assert!(
        mail_to(&smtp, me)
            .iter()
            .all(|m| !text_of(m).contains("while muted")),
        "a muted game's talk was mailed"
    );

    // TELL writes privately to one player, named by name.
    let to = others[1];
    let seen_to = mail_to(&smtp, to).len();
    let (_, v) = reply_to(
        &app,
        &smtp,
        me,
        &first,
        &format!("TELL {} Shall we gang up?", name_of(to).to_lowercase()),
        &format!("Sent privately to {}", name_of(to)),
    )
    .await;
    assert_eq!(v, "posted");
    let private = wait_for_mail_where(&smtp, to, seen_to, |m| {
        m.subject().contains("writes to you privately")
    })
    .await;
    assert!(text_of(&private).contains("Shall we gang up?"));
    let seen_by_other = app.get(&talk, others[0]).await.expect(200);
    assert!(
        !seen_by_other.to_string().contains("Shall we gang up?"),
        "a private message is the recipient's alone"
    );
    let (_, v) = reply_to(&app, &smtp, me, &first, "TELL Dora hello", "Refused").await;
    assert_eq!(v, "refused");

    // AWAY 3: a vacation in all games, from now; AWAY OFF ends it.
    let (away, v) = reply_to(&app, &smtp, me, &first, "AWAY 3", "Away until").await;
    assert_eq!(v, "command");
    assert!(
        text_of(&away).contains("all your games"),
        "{}",
        text_of(&away)
    );
    let vacation = app.get("/v1/me/vacation", me).await.expect(200);
    let until: DateTime<Utc> = vacation["vacation"]["until"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((until - (Utc::now() + Span::days(3))).num_minutes().abs() < 10);
    assert_eq!(vacation["days_left"], 27);
    let seats = game(&app, id, me).await["seats"].clone();
    assert!(!seats[seat as usize]["away"].is_null(), "the table sees it");
    let (_, v) = reply_to(&app, &smtp, me, &away, "away off", "Welcome back").await;
    assert_eq!(v, "command");
    let vacation = app.get("/v1/me/vacation", me).await.expect(200);
    assert!(vacation["vacation"].is_null(), "{vacation}");
    let (_, v) = reply_to(&app, &smtp, me, &first, "AWAY next week", "Refused").await;
    assert_eq!(v, "refused");

    // UNSUBSCRIBE turns all game mail off and says so; SUBSCRIBE turns it on again.
    let (off, _) = reply_to(&app, &smtp, me, &first, "UNSUBSCRIBE", "Unsubscribed").await;
    assert!(text_of(&off).contains("SUBSCRIBE"));
    assert!(!text_of(&off).contains("API"), "{}", text_of(&off));
    assert_eq!(
        app.get("/v1/me/preferences", me).await.expect(200)["mail"],
        "none"
    );
    // SUBSCRIBE TURNS: only the mail that asks for a decision, and the answer says so.
    let (turns, v) = reply_to(&app, &smtp, me, &off, "Subscribe turns", "turn mail only").await;
    assert_eq!(v, "command");
    assert!(
        text_of(&turns).contains("all your games"),
        "{}",
        text_of(&turns)
    );
    assert_eq!(
        app.get("/v1/me/preferences", me).await.expect(200)["mail"],
        "turns"
    );
    let (_, v) = reply_to(&app, &smtp, me, &off, "subscribe", "Subscribed").await;
    assert_eq!(v, "command");
    assert_eq!(
        app.get("/v1/me/preferences", me).await.expect(200)["mail"],
        "all"
    );

    // Whoever does not act first can still answer the mail that started the game with a
    // command: it takes replies, for this game (issue 35, item 4).
    let other = others[0];
    let started =
        wait_for_mail_where(&smtp, other, 0, |m| m.subject().contains("has started")).await;
    assert!(choice_numbers(&text_of(&started)).is_empty() || seat_of(&g, other) == seat);
    let (help, v) = reply_to(&app, &smtp, other, &started, "HELP", "Help").await;
    assert_eq!(v, "command");
    assert!(
        text_of(&help).contains("SUBSCRIBE TURNS"),
        "{}",
        text_of(&help)
    );

    // CONFIRM without a question does nothing; RESIGN asks; CONFIRM to its answer resigns.
    let (_, v) = reply_to(&app, &smtp, me, &first, "CONFIRM", "nothing to confirm").await;
    assert_eq!(v, "refused");
    let (asked, v) = reply_to(&app, &smtp, me, &first, "RESIGN", "really want to resign").await;
    assert_eq!(v, "command");
    assert!(text_of(&asked).contains("CONFIRM"), "{}", text_of(&asked));
    assert_ne!(reply_address(&asked), reply_address(&first));
    let g = game(&app, id, me).await;
    assert!(
        log(&app, id, me)
            .await
            .iter()
            .all(|e| e["kind"] != "resigned"),
        "RESIGN alone resigns nobody"
    );
    assert_eq!(g["status"], "active");
    let (_, v) = reply_to(&app, &smtp, me, &asked, "Confirm", "Resigned").await;
    assert_eq!(v, "command");
    let entries = log(&app, id, me).await;
    assert!(entries.iter().any(|e| e["kind"] == "resigned"), "resigned");
    assert!(
        played_by_bot(&game(&app, id, me).await, seat),
        "the bot plays the seat of a player who resigned a 3-seat game"
    );
    // A move to an old turn mail is refused without promising a turn mail that will not come.
    let (refused, v) = reply_to(&app, &smtp, me, &first, "1", "Refused").await;
    assert_eq!(v, "refused");
    let text = text_of(&refused);
    assert!(text.contains("you resigned"), "{text}");
    assert!(
        !text.contains("you will get a mail when it is your turn"),
        "{text}"
    );
}

#[tokio::test]
async fn a_timeout_is_mailed_absence_names_back_and_back_by_mail_returns_the_seat() {
    let smtp = SmtpServer::start();
    let (app, clock) = mail_app(&smtp).await;
    let players = verified_players(&app, &["Alma", "Bea"]).await;
    let id = clocked_game(
        &app,
        &players,
        json!({"per_decision_secs": HOUR, "absent_after": 2}),
    )
    .await;
    let g = game(&app, id, &players[0]).await;
    let seat = g["to_act"][0].as_i64().unwrap();
    let me = players.iter().find(|p| seat_of(&g, p) == seat).unwrap();
    let other = players.iter().find(|p| p.id != me.id).unwrap();
    let mut picker = Picker::new(35);
    let first = wait_for_mail_where(&smtp, me, 0, |m| {
        reply_address(m).is_some() && !choice_numbers(&text_of(m)).is_empty()
    })
    .await;

    // The mail player lets their deadlines pass; the other plays through the API.
    let mut timed_out = None;
    let mut absent = None;
    for _ in 0..200 {
        let g = game(&app, id, me).await;
        assert_eq!(g["status"], "active");
        if waits(&g, seat_of(&g, other)) {
            act(&app, id, other, &mut picker).await;
            continue;
        }
        let seen = mail_to(&smtp, me).len();
        clock.advance(Span::hours(2));
        let told = wait_for_mail_where(&smtp, me, seen, |m| {
            let s = m.subject();
            s.contains("your time ran out") || s.contains("the bot plays for you")
        })
        .await;
        if told.subject().contains("the bot plays for you") {
            absent = Some(told);
            break;
        }
        timed_out.get_or_insert(told);
    }
    // "A deadline that passes sends the player a mail saying what was played."
    let timed_out = timed_out.expect("a timeout mail before the absence");
    let text = text_of(&timed_out);
    assert!(text.contains("Played for you: "), "{text}");
    let absent = absent.expect("marked absent after two timeouts");
    let text = text_of(&absent);
    assert!(text.contains("Played for you: "), "{text}");
    assert!(text.contains("BACK"), "the absence mail names BACK: {text}");
    assert!(reply_address(&absent).is_some(), "and takes it by reply");

    // While absent, a move is refused with the truth: the bot plays, BACK returns.
    let (refused, v) = reply_to(&app, &smtp, me, &first, "1", "Refused").await;
    assert_eq!(v, "refused");
    let text = text_of(&refused);
    assert!(
        text.contains("marked absent") && text.contains("BACK"),
        "{text}"
    );
    assert!(
        !text.contains("you will get a mail when it is your turn"),
        "{text}"
    );

    // BACK by mail: the seat's next decision is the player's own, not the bot's.
    let (_, v) = reply_to(&app, &smtp, me, &absent, "BACK", "Back: you play your seat").await;
    assert_eq!(v, "command");
    assert!(!played_by_bot(&game(&app, id, me).await, seat));
    let seen = mail_to(&smtp, me).len();
    let back_at = log(&app, id, me)
        .await
        .iter()
        .rposition(|e| e["kind"] == "back")
        .expect("a back entry");
    for _ in 0..50 {
        let g = game(&app, id, me).await;
        if waits(&g, seat) || g["status"] != "active" {
            break;
        }
        act(&app, id, other, &mut picker).await;
    }
    let g = game(&app, id, me).await;
    assert!(waits(&g, seat), "the seat waits for its player again");
    let entries = log(&app, id, me).await;
    assert!(
        entries[back_at..]
            .iter()
            .all(|e| !(e["kind"] == "bot" && e["seat"] == json!(seat))),
        "the bot decided for a player who came back"
    );
    let latest = wait_for_mail_where(&smtp, me, seen, |m| {
        reply_address(m).is_some() && !choice_numbers(&text_of(m)).is_empty()
    })
    .await;

    // ABORT by mail is a vote; when the other votes too, the mail says it is abandoned.
    let (_, v) = reply_to(&app, &smtp, me, &latest, "ABORT", "Voted to abort").await;
    assert_eq!(v, "command");
    assert_eq!(game(&app, id, me).await["status"], "active");
    let seen = mail_to(&smtp, me).len();
    app.post(&format!("/v1/games/{id}/abort"), other, &json!({}))
        .await
        .expect(200);
    let over = wait_for_mail_where(&smtp, me, seen, |m| m.subject().contains("abandoned")).await;
    let text = text_of(&over);
    assert!(text.contains("every player voted to abort"), "{text}");
    assert!(!text.contains("Winners"), "{text}");
}
