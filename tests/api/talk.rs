//! Table talk (issue 16, item 7): messages to the whole table or privately to one seat, read
//! through the API page by page, relayed by mail to those who take all game mail, answered by
//! mail, rate-limited, and never seen by anyone they were not sent to.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::Duration as Span;
use reqwest::Method;
use serde_json::{Value, json};
use turnpost::clock::Clock;
use uuid::Uuid;

use crate::system_tests::helpers::{Player, TestApp, spawn_app_with};
use crate::system_tests::mailbox::{
    choice_numbers, mail_to, reply_address, reply_message, send_smtp, settle, spawn_mail_app,
    text_of, verdict, verified_players, wait_for_mail_where,
};
use crate::system_tests::smtp::{Received, SmtpServer};

fn messages(game: Uuid) -> String {
    format!("/v1/games/{game}/messages")
}

async fn say(app: &TestApp, game: Uuid, who: &Player, to_seat: Option<i64>, body: &str) -> Value {
    app.post(
        &messages(game),
        who,
        &json!({"to_seat": to_seat, "body": body}),
    )
    .await
    .expect(201)
}

/// Every message `who` can list in `game`, following the cursor.
async fn all_messages(app: &TestApp, game: Uuid, who: &Player) -> Vec<Value> {
    let mut out = vec![];
    let mut cursor = String::new();
    for _ in 0..100 {
        let page = app
            .get(&format!("{}?limit=3&cursor={cursor}", messages(game)), who)
            .await
            .expect(200);
        out.extend(page["messages"].as_array().unwrap().iter().cloned());
        match page["next"].as_str() {
            Some(next) => cursor = next.to_owned(),
            None => return out,
        }
    }
    panic!("the pages did not end");
}

fn bodies(list: &[Value]) -> Vec<&str> {
    list.iter().map(|m| m["body"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn players_post_to_the_table_and_read_the_talk_page_by_page() {
    let app = crate::system_tests::helpers::spawn_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let cat = app.register("Cat").await;
    let game = app
        .start_game(
            "bag-of-fate",
            &[ann.clone(), bob.clone(), cat.clone()],
            json!({}),
        )
        .await;

    let first = say(&app, game, &ann, None, "  Good luck, all!\r\n").await;
    assert_eq!(
        first["body"], "Good luck, all!",
        "trimmed, line ends as \\n"
    );
    assert_eq!(first["from_seat"], 0);
    assert_eq!(first["from_name"], "Ann");
    assert_eq!(first["to_seat"], Value::Null);
    for (who, text) in [
        (&bob, "thanks"),
        (&cat, "gl hf"),
        (&ann, "one"),
        (&bob, "two"),
    ] {
        say(&app, game, who, None, text).await;
    }
    let expected = ["Good luck, all!", "thanks", "gl hf", "one", "two"];
    for who in [&ann, &bob, &cat] {
        let list = all_messages(&app, game, who).await;
        assert_eq!(bodies(&list), expected);
        let ids: Vec<i64> = list.iter().map(|m| m["id"].as_i64().unwrap()).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "oldest first: {ids:?}");
    }
    // A page of two, then the rest from its cursor; the cursor of the last message is "now".
    let page = app
        .get(&format!("{}?limit=2", messages(game)), &cat)
        .await
        .expect(200);
    assert_eq!(
        bodies(page["messages"].as_array().unwrap()),
        ["Good luck, all!", "thanks"]
    );
    let next = page["next"].as_str().unwrap();
    let rest = app
        .get(&format!("{}?cursor={next}&limit=10", messages(game)), &cat)
        .await
        .expect(200);
    assert_eq!(
        bodies(rest["messages"].as_array().unwrap()),
        ["gl hf", "one", "two"]
    );
    assert_eq!(rest["next"], Value::Null);
    // Exactly a page's worth: no `next` leading to an empty page (as every list).
    let whole = app
        .get(&format!("{}?limit=5", messages(game)), &cat)
        .await
        .expect(200);
    assert_eq!(whole["messages"].as_array().unwrap().len(), 5);
    assert_eq!(whole["next"], Value::Null);
    let last = rest["messages"][2]["id"].as_i64().unwrap();
    let empty = app
        .get(&format!("{}?cursor={last}", messages(game)), &cat)
        .await
        .expect(200);
    assert_eq!(empty["messages"], json!([]));

    // What is refused, and changes nothing.
    let bad = |body: Value| {
        let app = &app;
        let bob = &bob;
        async move { app.post(&messages(game), bob, &body).await }
    };
    bad(json!({"body": "   "}))
        .await
        .expect_problem(422, "invalid-request");
    bad(json!({"body": "x".repeat(2001)}))
        .await
        .expect_problem(422, "invalid-request");
    bad(json!({"body": "hi", "to_seat": 1}))
        .await
        .expect_problem(422, "invalid-request");
    bad(json!({"body": "hi", "to_seat": 3}))
        .await
        .expect_problem(422, "invalid-request");
    bad(json!({"body": "hi", "to_seat": -1}))
        .await
        .expect_problem(422, "invalid-request");
    bad(json!({"body": "a\u{0}b"}))
        .await
        .expect_problem(422, "invalid-request");
    bad(json!({"body": "hi", "from_seat": 0}))
        .await
        .expect_problem(400, "malformed-request");
    bad(json!({"to_seat": 0}))
        .await
        .expect_problem(400, "malformed-request");
    app.get(&format!("{}?cursor=abc", messages(game)), &bob)
        .await
        .expect_problem(400, "malformed-request");
    app.get(&format!("{}?limit=0", messages(game)), &bob)
        .await
        .expect_problem(400, "malformed-request");
    // The longest message is fine, in characters (not bytes).
    say(&app, game, &bob, None, &"é".repeat(2000)).await;
    assert_eq!(app.count("messages").await, 6);

    // A retry with the same Idempotency-Key posts once and answers the same.
    let body = json!({"body": "once"});
    let key = [("Idempotency-Key", "talk-1")];
    let mut answers = vec![];
    for _ in 0..2 {
        let answer = app
            .request(
                Method::POST,
                &messages(game),
                Some(&cat.token),
                Some(&body),
                &key,
            )
            .await
            .expect(201);
        answers.push(answer);
    }
    assert_eq!(answers[0], answers[1]);
    assert_eq!(app.count("messages").await, 7);
    app.request(
        Method::POST,
        &messages(game),
        Some(&cat.token),
        Some(&json!({"body": "twice"})),
        &key,
    )
    .await
    .expect_problem(422, "idempotency-key-reused");
}

#[tokio::test]
async fn only_players_may_read_or_write_the_talk() {
    let app = crate::system_tests::helpers::spawn_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let eve = app.register("Eve").await;
    let game = app
        .start_game("bag-of-fate", &[ann.clone(), bob.clone()], json!({}))
        .await;
    say(&app, game, &ann, None, "hello table").await;

    app.get(&messages(game), &eve)
        .await
        .expect_problem(403, "not-a-player");
    app.post(&messages(game), &eve, &json!({"body": "let me in"}))
        .await
        .expect_problem(403, "not-a-player");
    app.post(
        &messages(game),
        &eve,
        &json!({"body": "psst", "to_seat": 0}),
    )
    .await
    .expect_problem(403, "not-a-player");
    let nowhere = messages(Uuid::new_v4());
    app.get(&nowhere, &ann)
        .await
        .expect_problem(404, "not-found");
    app.post(&nowhere, &ann, &json!({"body": "x"}))
        .await
        .expect_problem(404, "not-found");
    app.request(Method::GET, &messages(game), None, None, &[])
        .await
        .expect_problem(401, "unauthorized");
    app.request(
        Method::POST,
        &messages(game),
        Some("not a token"),
        Some(&json!({"body": "x"})),
        &[],
    )
    .await
    .expect_problem(401, "unauthorized");
    assert_eq!(app.count("messages").await, 1);

    // An open game's seated players may talk before it starts.
    let open = app
        .post(
            "/v1/games",
            &ann,
            &json!({"ruleset": "bag-of-fate", "seats": 3}),
        )
        .await
        .expect(201);
    let open: Uuid = open["id"].as_str().unwrap().parse().unwrap();
    say(&app, open, &ann, None, "waiting for two more").await;
    app.post(&messages(open), &ann, &json!({"body": "hi", "to_seat": 1}))
        .await
        .expect_problem(422, "invalid-request");
    app.get(&messages(open), &bob)
        .await
        .expect_problem(403, "not-a-player");

    // A game that is over takes no more talk, but its players still read it.
    app.post(&format!("/v1/games/{game}/resign"), &bob, &json!({}))
        .await
        .expect(200);
    app.post(&messages(game), &ann, &json!({"body": "gg"}))
        .await
        .expect_problem(409, "game-status");
    let list = all_messages(&app, game, &bob).await;
    assert_eq!(bodies(&list), ["hello table"]);
}

#[tokio::test]
async fn too_many_messages_are_answered_429_with_retry_after() {
    let clock = Clock::adjustable();
    let c = clock.clone();
    let app = spawn_app_with(move |s| s.clock = c).await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let game = app
        .start_game("bag-of-fate", &[ann.clone(), bob.clone()], json!({}))
        .await;
    for i in 0..10 {
        say(&app, game, &ann, None, &format!("message {i}")).await;
    }
    let res = app
        .client
        .post(format!("{}{}", app.base, messages(game)))
        .bearer_auth(&ann.token)
        .json(&json!({"body": "one too many"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 429);
    let retry: i64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "Retry-After {retry}");
    let problem: Value = res.json().await.unwrap();
    assert_eq!(
        problem["type"],
        "https://turnpost.dev/problems/rate-limited"
    );
    assert_eq!(problem["retry_after"], retry);
    // The limit is per player: Bob may still write, privately too.
    say(&app, game, &bob, Some(0), "slow down").await;
    // A minute later Ann may write again, ten a minute, until the day's hundred.
    clock.advance(Span::seconds(61));
    say(&app, game, &ann, None, "sorry").await;
    for round in 0..8 {
        clock.advance(Span::seconds(61));
        for i in 0..10 {
            say(
                &app,
                game,
                &ann,
                None,
                &format!("round {round} message {i}"),
            )
            .await;
        }
    }
    clock.advance(Span::seconds(61));
    for i in 0..9 {
        say(&app, game, &ann, None, &format!("last round message {i}")).await;
    }
    // 100 today: the 101st waits for the first of them to be a day old.
    let refused = app
        .post(&messages(game), &ann, &json!({"body": "the 101st"}))
        .await
        .expect_problem(429, "rate-limited");
    let wait = refused["retry_after"].as_i64().unwrap();
    assert!(wait > 23 * 3600, "the day's limit: {wait} s");
    clock.advance(Span::seconds(wait));
    say(&app, game, &ann, None, "a new day").await;
    assert_eq!(app.count("messages").await, 102);
}

/// Everything `who` can read through the API about `game`: the talk, the game, their state,
/// the log, their games and turns.
async fn api_view(app: &TestApp, game: Uuid, who: &Player) -> String {
    let mut out = String::new();
    for path in [
        messages(game),
        format!("/v1/games/{game}"),
        format!("/v1/games/{game}/state"),
        format!("/v1/games/{game}/events?after=0&limit=1000"),
        "/v1/me/games".to_owned(),
        "/v1/me/turns".to_owned(),
        "/v1/games".to_owned(),
    ] {
        out.push_str(&app.get(&path, who).await.text);
    }
    out
}

/// All that `who` received by mail: subjects, decoded parts and raw text.
fn mail_view(smtp: &SmtpServer, who: &Player) -> String {
    mail_to(smtp, who)
        .iter()
        .map(|m| format!("{}\n{}\n{}", m.subject(), m.body_text(), m.raw))
        .collect()
}

#[tokio::test]
async fn a_private_message_is_seen_by_its_recipient_only() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Ann", "Bob", "Cat", "Dan"]).await;
    let [ann, bob, cat, dan] = [0, 1, 2, 3].map(|i| players[i].clone());
    let eve = verified_players(&app, &["Eve"]).await.remove(0);
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    settle(&app).await;

    let marker = format!("marker-{}", Uuid::new_v4().simple());
    let sent = say(
        &app,
        game,
        &ann,
        Some(1),
        &format!("Bob, between us: {marker}"),
    )
    .await;
    assert_eq!(sent["to_seat"], 1);
    // Table talk goes on around it.
    say(&app, game, &cat, None, "Anyone for a truce?").await;
    settle(&app).await;

    // The recipient reads it, in the API and in one mail addressed to them.
    let bob_list = all_messages(&app, game, &bob).await;
    assert_eq!(
        bodies(&bob_list),
        [
            format!("Bob, between us: {marker}").as_str(),
            "Anyone for a truce?"
        ]
    );
    assert_eq!(bob_list[0]["from_name"], "Ann");
    assert_eq!(bob_list[0]["to_seat"], 1);
    let private: Vec<Received> = mail_to(&smtp, &bob)
        .into_iter()
        .filter(|m| m.body_text().contains(&marker))
        .collect();
    assert_eq!(private.len(), 1, "one mail relays it");
    assert!(
        private[0].subject().contains("Ann writes to you privately"),
        "{}",
        private[0].subject()
    );
    assert!(text_of(&private[0]).contains("Ann writes to you privately"));
    // Its sender has it in their own list.
    assert!(api_view(&app, game, &ann).await.contains(&marker));

    // Nobody else: not in any API response, not in any mail they got.
    for other in [&cat, &dan, &eve] {
        let api = api_view(&app, game, other).await;
        assert!(!api.contains(&marker), "{} read it in the API", other.email);
        assert!(
            !mail_view(&smtp, other).contains(&marker),
            "{} got it by mail",
            other.email
        );
    }
    assert!(
        !mail_view(&smtp, &ann).contains(&marker),
        "the sender is not mailed their own message"
    );
    let cat_list = all_messages(&app, game, &cat).await;
    assert_eq!(bodies(&cat_list), ["Anyone for a truce?"]);
    // Of all mail sent, only the recipient's carries it; the outbox never held its text.
    for m in smtp.received() {
        let about = format!("{}\n{}", m.body_text(), m.raw);
        if about.contains(&marker) {
            assert_eq!(m.to, vec![bob.email.clone()], "{}", m.subject());
        }
    }
    // (The marker is hex: safe inside the SQL literal.)
    let in_outbox = format!("strpos(payload::text, '{marker}') > 0");
    assert_eq!(app.count_where("outbox", &in_outbox).await, 0);

    // The seat changes hands: its new player does not inherit the private message.
    app.post(&format!("/v1/games/{game}/resign"), &bob, &json!({}))
        .await
        .expect(200);
    app.post(
        &format!("/v1/games/{game}/seats/1/take-over"),
        &eve,
        &json!({}),
    )
    .await
    .expect(200);
    let eve_view = api_view(&app, game, &eve).await;
    assert!(!eve_view.contains(&marker), "the seat's new player read it");
    assert!(
        eve_view.contains("Anyone for a truce?"),
        "table talk is the table's"
    );
}

#[tokio::test]
async fn table_talk_reaches_every_other_player_who_takes_all_game_mail() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Ann", "Bob", "Cat", "Dan"]).await;
    let [ann, bob, cat, dan] = [0, 1, 2, 3].map(|i| players[i].clone());
    // Dan takes only his turns by mail.
    app.request(
        Method::PUT,
        "/v1/me/preferences",
        Some(&dan.token),
        Some(&json!({"mail": "turns"})),
        &[],
    )
    .await
    .expect(200);
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    settle(&app).await;
    let seen: Vec<usize> = players.iter().map(|p| mail_to(&smtp, p).len()).collect();
    let marker = format!("table-{}", Uuid::new_v4().simple());
    say(&app, game, &ann, None, &format!("To all of you: {marker}")).await;
    settle(&app).await;
    for (i, who) in [&bob, &cat].into_iter().enumerate() {
        let mail =
            wait_for_mail_where(&smtp, who, seen[i + 1], |m| m.body_text().contains(&marker)).await;
        assert!(
            mail.subject().contains("Ann writes to the table"),
            "{}",
            mail.subject()
        );
        let text = text_of(&mail);
        assert!(
            text.contains("== The table =="),
            "the table follows: {text}"
        );
        assert!(
            text.contains("answer the whole table"),
            "replying posts to the table: {text}"
        );
        assert!(reply_address(&mail).is_some());
        assert!(mail.has_text_and_html());
    }
    assert!(
        !mail_view(&smtp, &ann).contains(&marker),
        "not to its sender"
    );
    assert!(
        !mail_view(&smtp, &dan).contains(&marker),
        "not to a `turns` player"
    );
    // Dan still reads it through the API.
    assert!(api_view(&app, game, &dan).await.contains(&marker));
}

#[tokio::test]
async fn a_reply_to_table_talk_by_mail_posts_a_message() {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, &["Ann", "Bob", "Cat"]).await;
    let [ann, bob, cat] = [0, 1, 2].map(|i| players[i].clone());
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    settle(&app).await;

    // A table message, answered by mail: the answer goes to the table.
    let seen = mail_to(&smtp, &bob).len();
    say(&app, game, &ann, None, "Who has the Queen?").await;
    let talk = wait_for_mail_where(&smtp, &bob, seen, |m| {
        m.subject().contains("writes to the table")
    })
    .await;
    let to = reply_address(&talk).unwrap();
    let seen = mail_to(&smtp, &bob).len();
    let (id, raw) = reply_message(&bob.email, &to, &talk, "Not me!\nMaybe Cat.", "");
    send_smtp(&app, Some(&bob.email), &to, &raw).await;
    assert_eq!(verdict(&app, &id).await.as_deref(), Some("posted"));
    let answer = wait_for_mail_where(&smtp, &bob, seen, |m| {
        m.subject().contains("Sent to the table")
    })
    .await;
    assert!(!text_of(&answer).contains("Who has the Queen?"));
    for who in [&ann, &cat] {
        let list = all_messages(&app, game, who).await;
        let last = list.last().unwrap();
        assert_eq!(
            last["body"], "Not me!\nMaybe Cat.",
            "only the new text is posted"
        );
        assert_eq!(last["from_name"], "Bob");
        assert_eq!(last["to_seat"], Value::Null);
    }
    // The same message delivered again posts nothing more.
    send_smtp(&app, Some(&bob.email), &to, &raw).await;
    assert_eq!(app.count("messages").await, 2);

    // A private message, answered by mail: the answer goes back to its sender alone.
    let seen = mail_to(&smtp, &bob).len();
    say(&app, game, &cat, Some(1), "Bob, shall we gang up on Ann?").await;
    let private = wait_for_mail_where(&smtp, &bob, seen, |m| {
        m.subject().contains("Cat writes to you privately")
    })
    .await;
    assert!(text_of(&private).contains("answer Cat privately"));
    let to = reply_address(&private).unwrap();
    let seen_cat = mail_to(&smtp, &cat).len();
    let secret = format!("deal-{}", Uuid::new_v4().simple());
    let (id, raw) = reply_message(&bob.email, &to, &private, &format!("Deal. {secret}"), "");
    send_smtp(&app, Some(&bob.email), &to, &raw).await;
    assert_eq!(verdict(&app, &id).await.as_deref(), Some("posted"));
    let relayed =
        wait_for_mail_where(&smtp, &cat, seen_cat, |m| m.body_text().contains(&secret)).await;
    assert!(relayed.subject().contains("Bob writes to you privately"));
    let cat_list = all_messages(&app, game, &cat).await;
    assert_eq!(cat_list.last().unwrap()["to_seat"], 2);
    settle(&app).await;
    assert!(!api_view(&app, game, &ann).await.contains(&secret));
    assert!(!mail_view(&smtp, &ann).contains(&secret));

    // A reply from another address posts nothing; an empty reply is refused and answered.
    let (id, raw) = reply_message(&ann.email, &to, &private, "I am Bob, honest", "");
    send_smtp(&app, Some(&ann.email), &to, &raw).await;
    assert_eq!(verdict(&app, &id).await.as_deref(), Some("wrong_sender"));
    let seen = mail_to(&smtp, &bob).len();
    let (id, raw) = reply_message(&bob.email, &to, &private, "", "");
    send_smtp(&app, Some(&bob.email), &to, &raw).await;
    assert_eq!(verdict(&app, &id).await.as_deref(), Some("refused"));
    wait_for_mail_where(&smtp, &bob, seen, |m| {
        m.subject().contains("nothing to post")
    })
    .await;
    assert_eq!(app.count("messages").await, 4);

    // SAY in a reply to a turn mail writes to the table instead of playing.
    let record = app
        .get(&format!("/v1/games/{game}"), &ann)
        .await
        .expect(200);
    let seat = record["to_act"][0].as_u64().unwrap() as usize;
    let version = record["version"].clone();
    let who = &players[seat];
    let turn = wait_for_mail_where(&smtp, who, 0, |m| {
        reply_address(m).is_some() && !choice_numbers(&text_of(m)).is_empty()
    })
    .await;
    assert!(text_of(&turn).contains("start the first line with SAY"));
    let to = reply_address(&turn).unwrap();
    let (id, raw) = reply_message(&who.email, &to, &turn, "SAY Thinking...\nback soon", "");
    send_smtp(&app, Some(&who.email), &to, &raw).await;
    assert_eq!(verdict(&app, &id).await.as_deref(), Some("posted"));
    let after = app
        .get(&format!("/v1/games/{game}"), &ann)
        .await
        .expect(200);
    assert_eq!(after["version"], version, "nothing was played");
    let list = all_messages(&app, game, &players[(seat + 1) % 3]).await;
    assert_eq!(list.last().unwrap()["body"], "Thinking...\nback soon");
}
