//! Issue 14's acceptance: games played by mail replies only, over real SMTP both ways (lettre
//! sends into Turnpost's listener; Turnpost's mail goes to a real SMTP server on loopback).

use std::collections::HashSet;

use reqwest::Method;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::system_tests::helpers::{Picker, Player, TestApp};
use crate::system_tests::mailbox::{
    INBOUND_SECRET, choice_numbers, mail_to, reply_address, reply_message, send_smtp, settle,
    spawn_mail_app, text_of, verdict, verdicts, verified_players, wait_for_mail,
    wait_for_mail_where,
};
use crate::system_tests::smtp::{Received, SmtpServer};

/// Bound on the replies of one game (no game here needs as many).
const MAX_REPLIES: usize = 3_000;

async fn game_record(app: &TestApp, game: Uuid, who: &Player) -> Value {
    app.get(&format!("/v1/games/{game}"), who).await.expect(200)
}

/// The outbox as the failing test saw it.
async fn outbox_dump(app: &TestApp) -> String {
    use diesel::sql_types::{Int8, Text};
    use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = Int8)]
        id: i64,
        #[diesel(sql_type = Text)]
        line: String,
    }
    let mut conn = AsyncPgConnection::establish(&app.database_url)
        .await
        .expect("connect");
    let rows: Vec<Row> = diesel::sql_query(
        "SELECT id, kind || ' ' || status || ' ' || to_address || ' ' || coalesce(last_error, '') \
         || ' ' || coalesce(payload->'compose'->>'notice', '') || ' ' || created_at::text AS line \
         FROM outbox ORDER BY id DESC LIMIT 12",
    )
    .load(&mut conn)
    .await
    .unwrap_or_default();
    let ev: Vec<Row> = diesel::sql_query(
        "SELECT seq AS id, actor || ' ' || coalesce(seat::text,'') || ' ' || kind || ' ' || description AS line \
         FROM game_events ORDER BY created_at DESC, seq DESC LIMIT 12",
    )
    .load(&mut conn)
    .await
    .unwrap_or_default();
    let inb: Vec<Row> = diesel::sql_query(
        "SELECT 0::int8 AS id, coalesce(verdict,'') || ' ' || received_at::text AS line FROM inbound_mail ORDER BY received_at DESC LIMIT 6",
    )
    .load(&mut conn)
    .await
    .unwrap_or_default();
    let mut out = String::from("\n=== outbox (newest first)\n");
    for r in rows.iter().chain(ev.iter()).chain(inb.iter()) {
        out.push_str(&format!("{} {}\n", r.id, r.line));
    }
    out
}

/// Every player answers the latest mail they received, when it asks for a decision, with a
/// number picked from it, until the game is over (or `stop_after` moves were played). The
/// test reads the game's record as `observer` (any account: the players themselves need none).
/// Returns how many moves were played by mail.
pub(crate) async fn play_by_mail(
    app: &TestApp,
    smtp: &SmtpServer,
    game: Uuid,
    players: &[Player],
    observer: &Player,
    seed: u64,
    stop_after: Option<usize>,
) -> usize {
    let mut picker = Picker::new(seed);
    let mut answered: HashSet<String> = HashSet::new();
    let mut largest = 0;
    for _ in 0..MAX_REPLIES {
        let record = game_record(app, game, observer).await;
        let played = verdicts(app, "played").await as usize;
        if record["status"] == "finished" || stop_after.is_some_and(|n| played >= n) {
            return played;
        }
        // Whoever's latest mail asks for a decision that was not answered yet. The mailboxes
        // are read once: a mail arriving after this look is waited for below, not missed.
        let boxes: Vec<_> = players.iter().map(|p| mail_to(smtp, p)).collect();
        let mut next = None;
        for (p, mails) in players.iter().zip(&boxes) {
            if let Some(last) = mails.last() {
                largest = largest.max(last.raw.len());
                let id = last.header("Message-ID").unwrap_or_default();
                if !answered.contains(&id)
                    && reply_address(last).is_some()
                    && !choice_numbers(&text_of(last)).is_empty()
                {
                    next = Some((p, last.clone(), mails.len()));
                    break;
                }
            }
        }
        let Some((player, mail, seen)) = next else {
            // Nothing to answer yet: wait for the next mail to anyone.
            let counts: Vec<usize> = boxes.iter().map(Vec::len).collect();
            let mut arrived = false;
            // Bounded, and long: on a loaded machine a debug build's worker takes seconds per
            // mail (each turn mail renders a board picture).
            for _ in 0..2400 {
                tokio::time::sleep(std::time::Duration::from_millis(25)).await;
                if players
                    .iter()
                    .zip(&counts)
                    .any(|(p, n)| mail_to(smtp, p).len() > *n)
                {
                    arrived = true;
                    break;
                }
            }
            if !arrived {
                let mut dump = String::new();
                for p in players {
                    for m in mail_to(smtp, p).iter().rev().take(3).rev() {
                        dump.push_str(&format!(
                            "\n--- to {} id {} reply {:?} answered {}: {}\n{}",
                            p.email,
                            m.header("Message-ID").unwrap_or_default(),
                            reply_address(m).is_some(),
                            answered.contains(&m.header("Message-ID").unwrap_or_default()),
                            m.subject(),
                            text_of(m).chars().take(1500).collect::<String>()
                        ));
                    }
                }
                dump.push_str(&outbox_dump(app).await);
                panic!(
                    "the game waits on {} (version {}) but nobody has a mail to answer{dump}",
                    record["to_act"], record["version"]
                );
            }
            continue;
        };
        answered.insert(mail.header("Message-ID").unwrap_or_default());
        let text = text_of(&mail);
        assert!(
            mail.raw.len() < 100 * 1024,
            "a mail of {} bytes: {}",
            mail.raw.len(),
            mail.subject()
        );
        assert!(!text.contains("{\""), "JSON in a mail: {text}");
        let numbers = choice_numbers(&text);
        assert!(
            !numbers.is_empty(),
            "a mail with a reply address lists choices: {text}"
        );
        let choice = numbers[picker.below(numbers.len())];
        let to = reply_address(&mail).unwrap();
        let (_, raw) = reply_message(&player.email, &to, &mail, &choice.to_string(), "");
        send_smtp(app, Some(&player.email), &to, &raw).await;
        // Every inbound mail is answered.
        wait_for_mail(smtp, player, seen).await;
    }
    panic!("the game did not end within {MAX_REPLIES} replies (largest mail {largest} bytes)");
}

/// Every player got the game-over mail, and no mail was over 100 KB.
pub(crate) async fn check_the_end(app: &TestApp, smtp: &SmtpServer, players: &[Player]) {
    settle(app).await;
    for p in players {
        let mails = mail_to(smtp, p);
        assert!(
            mails.iter().any(|m| m.subject().contains("game over")),
            "{} got no game-over mail",
            p.email
        );
        for m in &mails {
            assert!(
                m.raw.len() < 100 * 1024,
                "{}: {} bytes",
                m.subject(),
                m.raw.len()
            );
        }
    }
}

async fn whole_game_by_mail(ruleset: &str, names: &[&str], options: Value, seed: u64) {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, names).await;
    let game = app.start_game(ruleset, &players, options).await;
    let played = play_by_mail(&app, &smtp, game, &players, &players[0], seed, None).await;
    let record = game_record(&app, game, &players[0]).await;
    assert_eq!(record["status"], "finished");
    assert!(played > 10, "{played} moves by mail");
    // Nothing was played any other way: every player action in the log came by mail.
    let events = app
        .get(
            &format!("/v1/games/{game}/events?after=0&limit=1000"),
            &players[0],
        )
        .await
        .expect(200);
    let by_players = events["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["actor"]["type"] == "seat" && e["kind"] == "action")
        .count();
    // (The others are the lone choices the service played: kind `forced`.)
    assert_eq!(by_players, played, "every move came from a mail");
    check_the_end(&app, &smtp, &players).await;
}

#[tokio::test]
async fn a_three_seat_bag_of_fate_game_is_played_to_the_end_by_mail() {
    whole_game_by_mail("bag-of-fate", &["Ann", "Bob", "Cat"], json!({}), 3).await;
}

#[tokio::test]
async fn a_two_seat_garden_gnomes_game_with_its_secret_objectives_is_played_by_mail() {
    // Both players choose their objective at once, each by answering their own mail.
    // Reinforcements are placed without asking (no longer the default), to keep this game's
    // mail count as it was: the choice of how many is one more mail per clan and round.
    whole_game_by_mail(
        "garden-gnomes",
        &["Ann", "Bob"],
        json!({"round_limit": 20, "reinforcements": "all"}),
        5,
    )
    .await;
}

async fn thirty_decisions_by_mail(ruleset: &str, names: &[&str]) {
    let smtp = SmtpServer::start();
    let app = spawn_mail_app(&smtp).await;
    let players = verified_players(&app, names).await;
    let game = app.start_game(ruleset, &players, json!({})).await;
    let played = play_by_mail(&app, &smtp, game, &players, &players[0], 7, Some(30)).await;
    let record = game_record(&app, game, &players[0]).await;
    assert!(
        played >= 30 || record["status"] == "finished",
        "{played} decisions by mail"
    );
}

#[tokio::test]
async fn wiz_war_is_played_by_mail_for_thirty_decisions() {
    thirty_decisions_by_mail("wiz-war", &["Ann", "Bob"]).await;
}

#[tokio::test]
async fn monsters_and_magic_is_played_by_mail_for_thirty_decisions() {
    thirty_decisions_by_mail("monsters-and-magic", &["Ann", "Bob"]).await;
}

#[tokio::test]
async fn gnomes_and_wizards_is_played_by_mail_for_thirty_decisions() {
    thirty_decisions_by_mail("gnomes-and-wizards", &["Ann", "Bob"]).await;
}

/// A started 2-seat bag-of-fate game, with the first turn mail of whoever acts first.
struct Table {
    app: TestApp,
    smtp: SmtpServer,
    game: Uuid,
    players: Vec<Player>,
}

impl Table {
    async fn new() -> Table {
        let smtp = SmtpServer::start();
        let app = spawn_mail_app(&smtp).await;
        let players = verified_players(&app, &["Ann", "Bob"]).await;
        let game = app.start_game("bag-of-fate", &players, json!({})).await;
        Table {
            app,
            smtp,
            game,
            players,
        }
    }

    async fn record(&self) -> Value {
        game_record(&self.app, self.game, &self.players[0]).await
    }

    /// The seat that must act, and the latest mail it got that asks for a decision.
    async fn turn(&self) -> (usize, Received) {
        let record = self.record().await;
        let seat = record["to_act"][0].as_u64().unwrap() as usize;
        let who = &self.players[seat];
        for _ in 0..400 {
            let mails = mail_to(&self.smtp, who);
            if let Some(m) = mails
                .iter()
                .rev()
                .find(|m| reply_address(m).is_some() && !choice_numbers(&text_of(m)).is_empty())
                && m.header("X-Seen").is_none()
            {
                let text = text_of(m);
                if !choice_numbers(&text).is_empty() {
                    return (seat, m.clone());
                }
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        panic!("no turn mail for seat {seat}");
    }

    async fn version(&self) -> i64 {
        self.record().await["version"].as_i64().unwrap()
    }

    async fn log_len(&self) -> usize {
        let events = self
            .app
            .get(
                &format!("/v1/games/{}/events?after=0&limit=1000", self.game),
                &self.players[0],
            )
            .await
            .expect(200);
        events["entries"].as_array().unwrap().len()
    }
}

#[tokio::test]
async fn forged_foreign_and_automatic_replies_change_nothing() {
    let t = Table::new().await;
    let (seat, mail) = t.turn().await;
    let me = &t.players[seat];
    let other = &t.players[1 - seat];
    let to = reply_address(&mail).unwrap();
    let version = t.version().await;
    let log = t.log_len().await;
    settle(&t.app).await;
    let mails_before: Vec<usize> = t
        .players
        .iter()
        .map(|p| mail_to(&t.smtp, p).len())
        .collect();

    // A forged token: one character of the signed part changed.
    let (local, domain) = to.split_once('@').unwrap();
    let mut forged: Vec<char> = local.chars().collect();
    let i = forged.len() - 3;
    forged[i] = if forged[i] == 'a' { 'b' } else { 'a' };
    let forged = format!("{}@{domain}", forged.into_iter().collect::<String>());
    let (id, raw) = reply_message(&me.email, &forged, &mail, "1", "");
    send_smtp(&t.app, Some(&me.email), &forged, &raw).await;
    assert_eq!(verdict(&t.app, &id).await.as_deref(), Some("bad_token"));

    // A reply from an address that is not the player's: refused, and the refusal goes to the
    // player's verified address, not to the sender.
    let (id, raw) = reply_message("mallory@elsewhere.test", &to, &mail, "1", "");
    send_smtp(&t.app, Some("mallory@elsewhere.test"), &to, &raw).await;
    assert_eq!(verdict(&t.app, &id).await.as_deref(), Some("wrong_sender"));
    let got = wait_for_mail(&t.smtp, me, mails_before[seat]).await;
    let refusal = got.last().unwrap();
    assert!(
        refusal.subject().contains("another address"),
        "{}",
        refusal.subject()
    );
    assert!(text_of(refusal).contains("mallory@elsewhere.test"));
    assert!(
        t.smtp
            .received()
            .iter()
            .all(|m| !m.to.iter().any(|a| a.contains("mallory"))),
        "nothing is sent to the sender"
    );

    // The other player answering with this seat's token (a token for another seat).
    let (id, raw) = reply_message(&other.email, &to, &mail, "1", "");
    send_smtp(&t.app, Some(&other.email), &to, &raw).await;
    assert_eq!(verdict(&t.app, &id).await.as_deref(), Some("wrong_sender"));

    // An unverified address of a registered user (an account from before registrations were
    // confirmed by mail, or made by `turnpost account create`).
    let eve = t.app.register("Eve").await;
    t.app
        .sql(&format!(
            "UPDATE users SET email_verified_at = NULL WHERE id = '{}'",
            eve.id
        ))
        .await;
    let (id, raw) = reply_message(&eve.email, &to, &mail, "1", "");
    send_smtp(&t.app, Some(&eve.email), &to, &raw).await;
    assert_eq!(verdict(&t.app, &id).await.as_deref(), Some("wrong_sender"));

    // An auto-reply (RFC 3834) from the player's own address, and one marked as bulk.
    let (id, raw) = reply_message(
        &me.email,
        &to,
        &mail,
        "1",
        "Auto-Submitted: auto-replied\r\n",
    );
    send_smtp(&t.app, Some(&me.email), &to, &raw).await;
    assert_eq!(verdict(&t.app, &id).await.as_deref(), Some("auto_reply"));
    let (id, raw) = reply_message(&me.email, &to, &mail, "1", "Precedence: bulk\r\n");
    send_smtp(&t.app, Some(&me.email), &to, &raw).await;
    assert_eq!(verdict(&t.app, &id).await.as_deref(), Some("auto_reply"));

    // A bounce: the null sender, a delivery status notification.
    let bounce_id = format!("<dsn.{}@mx.test>", Uuid::new_v4().simple());
    let bounce = format!(
        "From: Mail Delivery System <MAILER-DAEMON@mx.test>\r\nTo: {to}\r\nSubject: Undelivered\r\n\
         Message-ID: {bounce_id}\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n\
         --b\r\nContent-Type: text/plain\r\n\r\n1\r\n--b--\r\n"
    );
    send_smtp(&t.app, None, &to, bounce.as_bytes()).await;
    assert_eq!(verdict(&t.app, &bounce_id).await.as_deref(), Some("bounce"));

    // None of it moved the game; the only mail sent was a refusal to the seat's player for
    // each reply from another address (Mallory, the other player, Eve).
    assert_eq!(t.version().await, version);
    assert_eq!(t.log_len().await, log);
    settle(&t.app).await;
    assert_eq!(mail_to(&t.smtp, other).len(), mails_before[1 - seat]);
    let mine = mail_to(&t.smtp, me);
    assert_eq!(mine.len(), mails_before[seat] + 3);
    assert!(
        mine[mails_before[seat]..]
            .iter()
            .all(|m| m.subject().contains("another address"))
    );
}

#[tokio::test]
async fn a_reply_delivered_twice_makes_one_move() {
    let t = Table::new().await;
    let (seat, mail) = t.turn().await;
    let me = &t.players[seat];
    let to = reply_address(&mail).unwrap();
    let version = t.version().await;
    let (id, raw) = reply_message(&me.email, &to, &mail, "1", "");
    send_smtp(&t.app, Some(&me.email), &to, &raw).await;
    assert_eq!(verdict(&t.app, &id).await.as_deref(), Some("played"));
    let after_first = t.version().await;
    assert!(after_first > version);
    let log = t.log_len().await;
    // The relay delivers the same message again (same Message-ID), by SMTP and over HTTP.
    send_smtp(&t.app, Some(&me.email), &to, &raw).await;
    let again = t
        .app
        .client
        .post(format!("{}/v1/inbound/mail", t.app.base))
        .bearer_auth(INBOUND_SECRET)
        .header("content-type", "message/rfc822")
        .body(raw.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 200);
    let again: Value = again.json().await.unwrap();
    assert_eq!(again["verdict"], "duplicate");
    assert_eq!(again["message_id"], id);
    assert_eq!(t.version().await, after_first);
    assert_eq!(t.log_len().await, log);
    assert_eq!(verdicts(&t.app, "played").await, 1);
}

#[tokio::test]
async fn a_reply_to_an_old_mail_is_played_only_if_its_list_is_still_the_list() {
    let t = Table::new().await;
    // Play by mail until a seat's decision list changes between two of its mails.
    let (seat, first) = t.turn().await;
    let me = &t.players[seat];
    let to = reply_address(&first).unwrap();
    let old_numbers = choice_numbers(&text_of(&first));
    let seen = mail_to(&t.smtp, me).len();
    let (_, raw) = reply_message(&me.email, &to, &first, "1", "");
    send_smtp(&t.app, Some(&me.email), &to, &raw).await;
    wait_for_mail(&t.smtp, me, seen).await;
    // Answer the same (now old) mail again, with a new Message-ID: the game has moved on, and
    // either the seat has nothing to decide or its list is not the one that mail showed.
    let version = t.version().await;
    let log = t.log_len().await;
    let seen = mail_to(&t.smtp, me).len();
    let (id, raw) = reply_message(&me.email, &to, &first, "1", "");
    send_smtp(&t.app, Some(&me.email), &to, &raw).await;
    let v = verdict(&t.app, &id).await.unwrap();
    let record = t.record().await;
    let still_mine = record["to_act"].as_array().unwrap().contains(&json!(seat));
    if v == "refused" {
        // The answer to this reply says it was refused; a turn mail sent meanwhile is not it.
        let answer =
            &wait_for_mail_where(&t.smtp, me, seen, |m| m.subject().contains("Refused")).await;
        assert_eq!(
            t.version().await,
            version,
            "a refused reply changes nothing"
        );
        assert_eq!(t.log_len().await, log);
        let text = text_of(answer);
        assert!(
            text.contains("moved on") || text.contains("not your decision"),
            "{text}"
        );
        if still_mine {
            assert!(
                !choice_numbers(&text).is_empty(),
                "the refusal lists the new choices"
            );
        }
    } else {
        // Only possible when the list it showed is exactly the list now.
        assert_eq!(v, "played");
        assert_eq!(choice_numbers(&text_of(&first)), old_numbers);
    }
}

#[tokio::test]
async fn a_reply_over_http_plays_and_needs_the_secret() {
    let t = Table::new().await;
    let (seat, mail) = t.turn().await;
    let me = &t.players[seat];
    let to = reply_address(&mail).unwrap();
    // The relay says who it delivered to in Delivered-To.
    let (id, raw) = reply_message(
        &me.email,
        "someone-else@turnpost.test",
        &mail,
        "STATUS",
        &format!("Delivered-To: {to}\r\n"),
    );
    let without = t
        .app
        .raw_post("/v1/inbound/mail", None, "message/rfc822", raw.clone())
        .await;
    without.expect_problem(401, "unauthorized");
    let wrong = t
        .app
        .raw_post(
            "/v1/inbound/mail",
            Some("not-the-secret"),
            "message/rfc822",
            raw.clone(),
        )
        .await;
    wrong.expect_problem(401, "unauthorized");
    assert_eq!(
        verdict(&t.app, &id).await,
        None,
        "nothing recorded without the secret"
    );
    let seen = mail_to(&t.smtp, me).len();
    let ok = t
        .app
        .raw_post(
            "/v1/inbound/mail",
            Some(INBOUND_SECRET),
            "message/rfc822",
            raw,
        )
        .await
        .expect(200);
    assert_eq!(ok["verdict"], "command");
    let status = wait_for_mail(&t.smtp, me, seen).await;
    let status = status.last().unwrap();
    assert!(status.subject().contains("Status"), "{}", status.subject());
    // Then a move, over HTTP.
    let version = t.version().await;
    let numbers = choice_numbers(&text_of(status));
    let to = reply_address(status).unwrap();
    let (_, raw) = reply_message(&me.email, &to, status, &numbers[0].to_string(), "");
    let played = t
        .app
        .raw_post(
            "/v1/inbound/mail",
            Some(INBOUND_SECRET),
            "message/rfc822",
            raw,
        )
        .await
        .expect(200);
    assert_eq!(played["verdict"], "played");
    assert!(t.version().await > version);
    // Not a message at all.
    let bad = t
        .app
        .raw_post(
            "/v1/inbound/mail",
            Some(INBOUND_SECRET),
            "application/json",
            b"{}".to_vec(),
        )
        .await;
    bad.expect_problem(415, "unsupported-media-type");
}

#[tokio::test]
async fn commands_are_answered_and_unsubscribe_stops_game_mail() {
    let t = Table::new().await;
    let (seat, mail) = t.turn().await;
    let me = &t.players[seat];
    let to = reply_address(&mail).unwrap();
    for (command, subject) in [
        ("HELP", "Help"),
        ("HISTORY", "History"),
        ("STATUS", "Status"),
    ] {
        let seen = mail_to(&t.smtp, me).len();
        let (_, raw) = reply_message(&me.email, &to, &mail, command, "");
        send_smtp(&t.app, Some(&me.email), &to, &raw).await;
        let got = wait_for_mail(&t.smtp, me, seen).await;
        let answer = got.last().unwrap();
        assert!(answer.subject().contains(subject), "{}", answer.subject());
        let text = text_of(answer);
        if command == "HISTORY" {
            assert!(text.contains("The game started"), "{text}");
        }
        assert!(
            !choice_numbers(&text).is_empty(),
            "{command}: the choices follow"
        );
    }
    let seen = mail_to(&t.smtp, me).len();
    let (_, raw) = reply_message(&me.email, &to, &mail, "unsubscribe", "");
    send_smtp(&t.app, Some(&me.email), &to, &raw).await;
    let got = wait_for_mail(&t.smtp, me, seen).await;
    assert!(got.last().unwrap().subject().contains("Unsubscribed"));
    let prefs = t.app.get("/v1/me/preferences", me).await.expect(200);
    assert_eq!(prefs["mail"], "none");
    let _ = t
        .app
        .request(Method::GET, "/healthz", None, None, &[])
        .await;
}
