//! The outbox worker. It runs inside `turnpost serve` (unless disabled) and alone as
//! `turnpost worker`; any number may run against one database (see `store::outbox`).

use std::sync::Arc;

use tokio::sync::watch;
use uuid::Uuid;

use super::transport::{Transport, build};
use super::{Compose, Composed, Composer, Mail, Payload};
use crate::config::MailSettings;
use crate::store::models::{OutboxRow, User};
use crate::store::{self, Pool};

/// What one round of work did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// Rows were claimed and dealt with (sent, retried later, parked or skipped).
    Worked {
        sent: usize,
        retried: usize,
        parked: usize,
        skipped: usize,
    },
    /// Nothing was due.
    Empty,
}

#[derive(Clone)]
pub struct Worker {
    pool: Pool,
    transport: Arc<Transport>,
    settings: MailSettings,
    composer: Option<Arc<dyn Composer>>,
}

enum Fate {
    /// Sent; for a composed game mail, the (game, user, version) it showed.
    Sent(Option<(Uuid, Uuid, i64)>),
    Skipped(String),
    Retry(String),
    Park(String),
}

impl Worker {
    pub fn new(pool: Pool, transport: Arc<Transport>, settings: MailSettings) -> Self {
        Worker {
            pool,
            transport,
            settings,
            composer: None,
        }
    }

    /// A worker that also composes game mail (`Payload::Compose` rows).
    pub fn with_composer(mut self, composer: Arc<dyn Composer>) -> Self {
        self.composer = Some(composer);
        self
    }

    /// Claims one batch of due rows, reads their recipients' accounts in one query (to skip
    /// mail nobody wants any more), and deals with each row.
    pub async fn run_once(&self) -> anyhow::Result<Round> {
        let (rows, recipients) = {
            let mut conn = self.pool.get().await?;
            let rows = store::outbox::claim(
                &mut conn,
                self.settings.batch,
                self.settings.lease_secs as f64,
            )
            .await?;
            let mut ids: Vec<Uuid> = rows.iter().filter_map(|r| r.user_id).collect();
            ids.sort_unstable();
            ids.dedup();
            let recipients = if ids.is_empty() {
                Ok(vec![])
            } else {
                store::users::by_ids(&mut conn, &ids).await
            };
            (rows, recipients)
        };
        if rows.is_empty() {
            return Ok(Round::Empty);
        }
        let (mut sent, mut retried, mut parked, mut skipped) = (0, 0, 0, 0);
        // Game mail no longer worth composing, found for the whole batch and marked in one
        // statement (a busy game queues many turn mails whose wait is over before they go).
        let stale = self.stale(&rows).await;
        if !stale.is_empty() {
            let marks: Vec<_> = rows
                .iter()
                .filter_map(|r| {
                    let why = stale.iter().find(|s| s.0 == r.id)?;
                    Some((r.id, r.lease_until?, why.1.clone()))
                })
                .collect();
            let mut conn = self.pool.get().await?;
            skipped += store::outbox::mark_skipped_many(&mut conn, &marks).await?;
        }
        for row in rows {
            if stale.iter().any(|s| s.0 == row.id) {
                continue;
            }
            let Some(lease) = row.lease_until else {
                continue;
            };
            let fate = match &recipients {
                Ok(users) => self.deliver(&row, users).await,
                Err(e) => Fate::Retry(format!("checking the recipient: {e}")),
            };
            // Each row is marked as soon as it is dealt with, so a worker killed in mid-batch
            // repeats at most the mail it was sending.
            let mut conn = self.pool.get().await?;
            let kept = match &fate {
                Fate::Sent(shown) => {
                    sent += 1;
                    store::outbox::mark_sent_showing(&mut conn, row.id, lease, *shown).await?
                }
                Fate::Skipped(why) => {
                    skipped += 1;
                    store::outbox::mark_skipped(&mut conn, row.id, lease, why).await?
                }
                Fate::Retry(error) => {
                    retried += 1;
                    let delay = self.backoff(row.attempts, row.id);
                    tracing::warn!(id = row.id, attempts = row.attempts, retry_in_secs = delay, %error, "mail not sent; will retry");
                    store::outbox::mark_unsent(&mut conn, row.id, lease, error, Some(delay)).await?
                }
                Fate::Park(error) => {
                    parked += 1;
                    tracing::error!(id = row.id, attempts = row.attempts, %error, "mail parked as failed");
                    store::outbox::mark_unsent(&mut conn, row.id, lease, error, None).await?
                }
            };
            if !kept {
                tracing::warn!(id = row.id, "lease on a mail was lost while sending it");
            }
        }
        Ok(Round::Worked {
            sent,
            retried,
            parked,
            skipped,
        })
    }

    /// The batch's game mail that the composer finds stale (none when it cannot tell).
    async fn stale(&self, rows: &[OutboxRow]) -> Vec<(i64, String)> {
        let Some(composer) = &self.composer else {
            return vec![];
        };
        let parsed: Vec<(&OutboxRow, Compose)> = rows
            .iter()
            .filter_map(|r| match serde_json::from_value(r.payload.clone()) {
                Ok(Payload::Compose { compose }) => Some((r, compose)),
                _ => None,
            })
            .collect();
        let pairs: Vec<(&OutboxRow, &Compose)> = parsed.iter().map(|(r, c)| (*r, c)).collect();
        match composer.stale(&pairs).await {
            Ok(stale) => stale,
            Err(error) => {
                // Each row is then composed (and checked) on its own.
                tracing::warn!(%error, "checking a batch for stale game mail");
                vec![]
            }
        }
    }

    async fn deliver(&self, row: &OutboxRow, users: &[User]) -> Fate {
        let payload: Payload = match serde_json::from_value(row.payload.clone()) {
            Ok(p) => p,
            Err(e) => return Fate::Park(format!("unreadable payload: {e}")),
        };
        if let Some(user) = row.user_id
            && let Some(why) = unwanted(
                users.iter().find(|u| u.id == user),
                &row.kind,
                &row.to_address,
            )
        {
            return Fate::Skipped(why);
        }
        let (mail, shown): (Mail, _) = match payload {
            Payload::Mail(mail) => (mail, None),
            Payload::Compose { compose } => {
                let Some(composer) = &self.composer else {
                    return Fate::Retry("this worker cannot compose game mail".into());
                };
                match composer.compose(row, &compose).await {
                    Ok(Composed::Mail { mail, shown }) => (mail, shown),
                    Ok(Composed::Skip(why)) => return Fate::Skipped(why),
                    Err(e) if row.attempts >= self.settings.max_attempts => {
                        return Fate::Park(format!("composing: {e:#}"));
                    }
                    Err(e) => return Fate::Retry(format!("composing: {e:#}")),
                }
            }
        };
        let message = match build(&mail, &self.settings.from, &row.message_id) {
            Ok(m) => m,
            Err(e) => return Fate::Park(format!("{e:#}")),
        };
        match self.transport.send(message, &row.message_id).await {
            Ok(()) => Fate::Sent(shown),
            Err(e) => {
                let permanent = e
                    .downcast_ref::<lettre::transport::smtp::Error>()
                    .is_some_and(|s| s.is_permanent());
                if permanent || row.attempts >= self.settings.max_attempts {
                    Fate::Park(format!("{e:#}"))
                } else {
                    Fate::Retry(format!("{e:#}"))
                }
            }
        }
    }

    /// Seconds until the next attempt ([`super::retry_delay`]).
    fn backoff(&self, attempts: i32, id: i64) -> f64 {
        super::retry_delay(
            self.settings.retry_base_ms as f64,
            self.settings.retry_max_secs as f64,
            attempts,
            id,
        )
    }

    /// Works until `stop` turns true, sleeping `poll_ms` whenever nothing is due.
    pub async fn run(self, stop: watch::Receiver<bool>) {
        tracing::info!(transport = %self.transport.describe(), "mail worker started");
        let poll_ms = self.settings.poll_ms;
        super::poll_rounds("mail", poll_ms, stop, || async {
            Ok(matches!(self.run_once().await?, Round::Worked { .. }))
        })
        .await;
    }
}

/// Why a mail should no longer go out to `user` (the account is gone, unsubscribed, or the
/// address changed or is unverified); `None` if it should. A verification mail goes to an
/// unverified address (that is what it is for); a sign-in link only to the verified address
/// it was asked for, whatever the game-mail preference.
fn unwanted(user: Option<&User>, kind: &str, to: &str) -> Option<String> {
    let Some(u) = user else {
        return Some("the account is gone".into());
    };
    if kind == "verify_email" {
        return None;
    }
    if u.email_verified_at.is_none() || !u.email.eq_ignore_ascii_case(to) {
        return Some("the address is not verified".into());
    }
    if !super::wants(&u.mail_preference, kind) {
        return Some(format!(
            "the recipient's preference is {:?}",
            u.mail_preference
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    fn user(verified: bool, preference: &str) -> User {
        User {
            id: Uuid::nil(),
            email: "ann@example.test".into(),
            display_name: "Ann".into(),
            password_hash: String::new(),
            created_at: Utc::now(),
            email_verified_at: verified.then(Utc::now),
            mail_preference: preference.into(),
            mail_pictures: true,
            is_bot: false,
            vacation_from: None,
            vacation_until: None,
            token_version: 0,
        }
    }

    #[test]
    fn a_sign_in_link_goes_only_to_the_verified_address_it_was_asked_for() {
        let to = "ann@example.test";
        for preference in ["all", "turns", "none"] {
            assert_eq!(unwanted(Some(&user(true, preference)), "sign_in", to), None);
        }
        assert!(unwanted(Some(&user(false, "all")), "sign_in", to).is_some());
        assert!(unwanted(Some(&user(true, "all")), "sign_in", "new@example.test").is_some());
        assert!(unwanted(None, "sign_in", to).is_some());
        // Game mail follows the preference; verification ignores the address's state.
        assert!(unwanted(Some(&user(true, "none")), "your_turn", to).is_some());
        assert_eq!(
            unwanted(Some(&user(false, "none")), "verify_email", to),
            None
        );
    }
}
