//! A player who plays by mail only: reads the turn mails the real SMTP server received for
//! them, and answers by sending a reply with lettre into Turnpost's own SMTP listener (or
//! through `POST /v1/inbound/mail`).

use std::time::Duration;

use diesel::sql_types::{BigInt, Text};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use lettre::address::Envelope;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use uuid::Uuid;

use crate::system_tests::helpers::{Player, TestApp, spawn_app_with};
use crate::system_tests::smtp::{Received, SmtpServer};

pub const INBOUND_SECRET: &str = "inbound-secret-for-tests-0123456789";

/// A server whose mail goes to `smtp` and which takes replies on its SMTP listener and over
/// HTTP.
pub async fn spawn_mail_app(smtp: &SmtpServer) -> TestApp {
    let url = smtp.url();
    spawn_app_with(move |s| {
        s.mail.smtp_url = Some(url);
        s.mail.from = "Turnpost <play@turnpost.test>".into();
        s.inbound.smtp_addr = Some("127.0.0.1:0".parse().unwrap());
        s.inbound.secret = Some(INBOUND_SECRET.into());
        s.mail.poll_ms = 20;
    })
    .await
}

/// Registers players and marks their addresses verified (verification by link is tested in
/// mail.rs).
pub async fn verified_players(app: &TestApp, names: &[&str]) -> Vec<Player> {
    let mut out = vec![];
    for n in names {
        let p = app.register(n).await;
        app.sql(&format!(
            "UPDATE users SET email_verified_at = now() WHERE id = '{}'",
            p.id
        ))
        .await;
        out.push(p);
    }
    out
}

/// Mail received for `who`, in the order it arrived.
pub fn mail_to(smtp: &SmtpServer, who: &Player) -> Vec<Received> {
    smtp.received()
        .into_iter()
        .filter(|m| m.to.iter().any(|t| t.eq_ignore_ascii_case(&who.email)))
        .collect()
}

/// The text part of a message.
pub fn text_of(mail: &Received) -> String {
    let msg = mail_parser::MessageParser::default()
        .parse(mail.raw.as_bytes())
        .expect("a parseable message");
    msg.body_text(0).unwrap_or_default().into_owned()
}

/// The numbers listed under "Your choices" in a turn mail's text.
pub fn choice_numbers(text: &str) -> Vec<usize> {
    let Some(start) = text.find("== Your choices ==") else {
        return vec![];
    };
    text[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("=="))
        .filter_map(|l| {
            let t = l.trim_start();
            let (n, rest) = t.split_once(". ")?;
            (l.starts_with(' ') && !rest.is_empty())
                .then(|| n.parse().ok())
                .flatten()
        })
        .collect()
}

/// The address inside `Reply-To`.
pub fn reply_address(mail: &Received) -> Option<String> {
    let header = mail.header("Reply-To")?;
    Some(match (header.find('<'), header.rfind('>')) {
        (Some(a), Some(b)) if a < b => header[a + 1..b].to_owned(),
        _ => header.trim().to_owned(),
    })
}

/// A reply as a mail client writes it: the answer on top, then the quoted mail.
pub fn reply_message(
    from: &str,
    to: &str,
    answered: &Received,
    answer: &str,
    extra_headers: &str,
) -> (String, Vec<u8>) {
    let id = format!("<reply.{}@client.test>", Uuid::new_v4().simple());
    let quoted: String = text_of(answered)
        .lines()
        .map(|l| format!("> {l}\r\n"))
        .collect();
    let raw = format!(
        "From: {from}\r\nTo: {to}\r\nSubject: Re: {}\r\nMessage-ID: {id}\r\nIn-Reply-To: {}\r\n\
         Date: Tue, 24 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n{extra_headers}\r\n{answer}\r\n\r\n\
         On Tue, 24 Nov 2026 at 09:59, Turnpost <play@turnpost.test> wrote:\r\n{quoted}",
        answered.subject(),
        answered.header("Message-ID").unwrap_or_default(),
    );
    (id, raw.into_bytes())
}

/// Sends `raw` by SMTP into the app's listener; `from = None` is the null sender.
pub async fn send_smtp(app: &TestApp, from: Option<&str>, to: &str, raw: &[u8]) {
    let port = app.inbound_port.expect("the inbound SMTP listener runs");
    let smtp = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
        .port(port)
        .timeout(Some(Duration::from_secs(20)))
        .build();
    let envelope = Envelope::new(
        from.map(|f| f.parse().expect("a sender address")),
        vec![to.parse().expect("a recipient address")],
    )
    .expect("an envelope");
    smtp.send_raw(&envelope, raw)
        .await
        .expect("the listener accepts the message");
}

/// The verdict recorded for an inbound Message-ID.
pub async fn verdict(app: &TestApp, message_id: &str) -> Option<String> {
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = Text)]
        verdict: String,
    }
    let mut conn = AsyncPgConnection::establish(&app.database_url)
        .await
        .expect("connect");
    let rows: Vec<Row> =
        diesel::sql_query("SELECT verdict FROM inbound_mail WHERE message_id = $1")
            .bind::<Text, _>(message_id)
            .load(&mut conn)
            .await
            .expect("verdict");
    rows.into_iter().next().map(|r| r.verdict)
}

/// How many inbound messages got this verdict.
pub async fn verdicts(app: &TestApp, verdict: &str) -> i64 {
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    let mut conn = AsyncPgConnection::establish(&app.database_url)
        .await
        .expect("connect");
    let row: Row = diesel::sql_query("SELECT count(*) AS n FROM inbound_mail WHERE verdict = $1")
        .bind::<Text, _>(verdict)
        .get_result(&mut conn)
        .await
        .expect("count");
    row.n
}

/// Waits (bounded) until the outbox has nothing pending, then a little more for the sends.
pub async fn settle(app: &TestApp) {
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    let mut conn = AsyncPgConnection::establish(&app.database_url)
        .await
        .expect("connect");
    for _ in 0..400 {
        let row: Row =
            diesel::sql_query("SELECT count(*) AS n FROM outbox WHERE status = 'pending'")
                .get_result(&mut conn)
                .await
                .expect("count");
        if row.n == 0 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the outbox did not settle");
}

/// Waits (bounded) until one of the messages `who` received after the first `seen` satisfies
/// `wanted`, and returns it. Other mail (a turn mail the worker sent meanwhile) is passed over.
pub async fn wait_for_mail_where(
    smtp: &SmtpServer,
    who: &Player,
    seen: usize,
    wanted: impl Fn(&Received) -> bool,
) -> Received {
    for _ in 0..1200 {
        if let Some(m) = mail_to(smtp, who)
            .into_iter()
            .skip(seen)
            .find(|m| wanted(m))
        {
            return m;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{} received no such mail after {seen} messages", who.email);
}

/// Waits (bounded) until `who` has received more than `seen` messages.
pub async fn wait_for_mail(smtp: &SmtpServer, who: &Player, seen: usize) -> Vec<Received> {
    // A minute at most: a loaded machine's debug worker takes seconds per mail.
    for _ in 0..2400 {
        let got = mail_to(smtp, who);
        if got.len() > seen {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{} received no new mail after {seen} messages", who.email);
}
