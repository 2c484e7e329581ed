//! Notifications: mail rendered from templates into the outbox (in the transaction that causes
//! it), and the worker that sends the outbox through a transport (SMTP, `.eml` files, memory);
//! webhook deliveries and their worker (`webhooks`).

pub mod inbound;
pub mod names;
pub mod picture;
pub mod reply_text;
pub mod templates;
pub mod transport;
pub mod webhook_urls;
pub mod webhooks;
pub mod worker;

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::store::models::OutboxRow;

/// Seconds until the next attempt of an outbox row or a webhook delivery that failed its
/// `attempts`-th time: `base_ms` × 2^(attempts−1), at most `max_secs`, with ±50 % jitter from
/// the clock and the row id (it spreads the retries of a burst without an RNG here).
pub(crate) fn retry_delay(base_ms: f64, max_secs: f64, attempts: i32, id: i64) -> f64 {
    let exp = base_ms / 1000.0 * 2f64.powi(attempts.clamp(1, 30) - 1);
    let nanos =
        chrono::Utc::now().timestamp_subsec_nanos() as u64 ^ (id as u64).wrapping_mul(0x9E37_79B9);
    exp.min(max_secs) * (0.5 + (nanos % 1000) as f64 / 1000.0)
}

/// A worker's loop: `round` until `stop` turns true, at once again after a round that worked
/// (`Ok(true)`), after `poll_ms` when nothing was due, after at least a second when the round
/// failed (a round cut short by the stop is expected: its rows' leases expire for the next run).
pub(crate) async fn poll_rounds<F, Fut>(
    name: &str,
    poll_ms: u64,
    mut stop: tokio::sync::watch::Receiver<bool>,
    mut round: F,
) where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<bool>>,
{
    use std::time::Duration;
    loop {
        if *stop.borrow() {
            break;
        }
        let pause = match round().await {
            Ok(true) => None,
            Ok(false) => Some(Duration::from_millis(poll_ms)),
            Err(_) if *stop.borrow() => break,
            Err(e) => {
                tracing::error!(error = %format!("{e:#}"), "{name} worker round failed");
                Some(Duration::from_millis(poll_ms.max(1000)))
            }
        };
        if let Some(pause) = pause {
            tokio::select! {
                _ = tokio::time::sleep(pause) => {}
                _ = stop.changed() => {}
            }
        }
    }
    tracing::info!("{name} worker stopped");
}

/// A rendered message as stored in `outbox.payload`. The envelope (Message-ID, From) is added
/// when it is sent, so a retry is byte-for-byte the same message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// Message-ID of the game's thread root: every mail of a game refers to it.
    #[serde(default)]
    pub thread: Option<String>,
    /// One-click unsubscribe URL (RFC 8058), for game mail.
    #[serde(default)]
    pub unsubscribe: Option<String>,
    /// Where an answer goes: a signed reply address for mail that asks for a decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<String>,
    /// The board as a PNG, sent inline with the HTML part as `cid:board` (composed mail only:
    /// never stored in the outbox).
    #[serde(skip)]
    pub picture: Option<Vec<u8>>,
}

/// What an outbox row carries: a message rendered when it was queued (account mail), or a
/// game mail that the worker composes when it sends it, from the game as it is then. A
/// submission thus queues a few bytes, and a turn mail shows the latest table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Payload {
    Compose { compose: Compose },
    Mail(Mail),
}

/// A game mail to compose for the player at `seat`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Compose {
    pub seat: i32,
    pub notice: Notice,
    /// For [`Notice::Answer`]: what the answered mail did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Answer>,
    /// For [`Notice::Message`]: the id of the table-talk message to relay (its text is read
    /// when the mail is composed, never copied into the outbox).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<i64>,
}

impl Compose {
    /// A plain notice (no answer) for `seat`.
    pub fn notice(seat: i32, notice: Notice) -> Self {
        Compose {
            seat,
            notice,
            answer: None,
            message: None,
        }
    }

    /// The table-talk message `id`, relayed to the player at `seat`.
    pub fn message(seat: i32, id: i64) -> Self {
        Compose {
            message: Some(id),
            ..Compose::notice(seat, Notice::Message)
        }
    }
}

/// Why a game mail is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Notice {
    GameStarted,
    YourTurn,
    GameOver,
    /// The answer to a mail the player sent.
    Answer,
    /// A decision's deadline is near: the turn mail again.
    Reminder,
    /// Table talk: a message to the table or privately to the recipient.
    Message,
    /// A deadline passed and a default was played for the player (what, in the answer).
    TimedOut,
    /// The player was marked absent: the bot plays their seat until they reply BACK.
    Absent,
    /// Someone took over the seat the player had left (sent to that player).
    TakenOver,
}

impl Notice {
    /// The outbox `kind` (and the preference it is checked against).
    pub fn kind(self) -> &'static str {
        match self {
            Notice::GameStarted => "game_started",
            Notice::YourTurn => "your_turn",
            Notice::GameOver => "game_over",
            Notice::Answer => "answer",
            Notice::Reminder => "reminder",
            Notice::Message => "message",
            Notice::TimedOut => "timed_out",
            Notice::Absent => "absent",
            Notice::TakenOver => "taken_over",
        }
    }
}

/// The answer to an inbound mail: what happened, and what to show after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// One line: "Accepted: ..." or "Refused: ...".
    pub verdict: String,
    /// More lines under it (the reason, what to do).
    #[serde(default)]
    pub lines: Vec<String>,
    /// What follows: the table and choices (`status`), the whole log (`history`), the
    /// commands (`help`), or nothing more (`none`).
    pub show: Show,
    /// The version of the game the answered mail showed (entries after it are described).
    #[serde(default)]
    pub since: Option<i64>,
    /// A question: the mail's reply address takes `CONFIRM` for this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirm: Option<crate::auth::reply::Confirm>,
    /// The mail takes commands by reply even when it shows no choices (the answer to a
    /// command, a notice that names one).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub commands: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Show {
    Status,
    History,
    Help,
    None,
}

/// A composed game mail, or why there is none to send any more.
#[allow(
    clippy::large_enum_variant,
    reason = "one per mail, moved once from the composer to the sender"
)]
pub enum Composed {
    Mail {
        mail: Mail,
        /// (game, user, version): the version this mail shows, noted once it is sent.
        shown: Option<(Uuid, Uuid, i64)>,
    },
    Skip(String),
}

/// Composes game mail when the worker sends it (implemented by `service::mail`).
pub trait Composer: Send + Sync {
    fn compose<'a>(
        &'a self,
        row: &'a OutboxRow,
        compose: &'a Compose,
    ) -> BoxFuture<'a, anyhow::Result<Composed>>;

    /// Of a claimed batch's game mail, the rows no longer worth composing, with why: looked up
    /// for the whole batch at once, so that the many turn mails whose wait is over by the time
    /// the worker comes to them cost no query each. `compose` checks again for the others.
    fn stale<'a>(
        &'a self,
        rows: &'a [(&'a OutboxRow, &'a Compose)],
    ) -> BoxFuture<'a, anyhow::Result<Vec<(i64, String)>>> {
        let _ = rows;
        Box::pin(async { Ok(vec![]) })
    }
}

/// `<local@domain>` for Message-IDs: the domain of the From address, or `turnpost.invalid`.
pub fn message_id(local: &str, from: &str) -> String {
    let domain = from
        .rsplit_once('@')
        .map(|(_, d)| d.trim_end_matches('>').trim())
        .filter(|d| !d.is_empty())
        .unwrap_or("turnpost.invalid");
    format!("<{local}@{domain}>")
}

/// Whether a user with mail preference `preference` (`all` | `turns` | `none`) gets mail of
/// `kind`. Account mail (address verification, a sign-in link they asked for) ignores
/// preferences; table talk (`message`) goes only to `all`.
pub fn wants(preference: &str, kind: &str) -> bool {
    match (preference, kind) {
        (_, "verify_email" | "sign_in") => true,
        ("all", _) => true,
        // Answers to a player's own mail go out whatever the preference: they asked.
        (_, "answer") => true,
        // What became of the player's own seat goes with the turns.
        ("turns", "your_turn" | "reminder" | "timed_out" | "absent" | "taken_over") => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn table_talk_goes_to_those_who_take_all_game_mail() {
        assert!(super::wants("all", "message"));
        assert!(!super::wants("turns", "message"));
        assert!(!super::wants("none", "message"));
        assert!(super::wants("turns", "your_turn"));
        assert!(super::wants("none", "answer"));
    }
}
