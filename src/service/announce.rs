//! Announcing committed turns on the `turnpost_games` channel from outside their transactions.
//!
//! PostgreSQL serialises the commits of every transaction that sends a `NOTIFY`: it takes a
//! database-wide lock before the commit record and holds it until the record is flushed, so
//! such transactions never share a WAL flush. With a `NOTIFY` in every submission that lock,
//! not the work, bounded the submissions per second (pgbench on this machine, one `UPDATE` a
//! transaction at 32 clients: 4,700–4,900 tx/s, and 700–950 with a `NOTIFY` added).
//!
//! So a turn written by one statement outside any transaction (`submit::submit_unlocked`)
//! carries no `NOTIFY`; once it is committed, its server hands `<game>:<version>` to this
//! process's [`Announcer`], which sends what has gathered in one short transaction of its own
//! on one pooled connection (asynchronous commit: an announcement is a hint that needs no
//! flush). Listeners ([`crate::web::live`]) still hear only of committed versions, a few
//! milliseconds later. Turns written inside a larger transaction (clocks, mail replies, seats)
//! keep their `NOTIFY` in it, delivered when and only if it commits.
//!
//! An announcement is a hint, not data: if the process dies between a commit and its
//! announcement, a page following that game from another process sees the move at the game's
//! next announcement, or when it is reloaded.

use diesel_async::SimpleAsyncConnection;
use tokio::sync::mpsc;
use uuid::Uuid;

use crate::store::Pool;

use super::submit::NOTIFY_CHANNEL;

/// Announcements waiting at most (beyond this they are dropped and logged: pages then catch
/// up at the game's next one).
const QUEUE: usize = 16_384;

/// Announcements sent in one transaction at most.
const BATCH: usize = 512;

/// Hands committed versions to a task that announces them.
#[derive(Clone)]
pub struct Announcer {
    tx: Option<mpsc::Sender<(Uuid, i64)>>,
}

impl Announcer {
    /// An announcer sending on connections of `pool`, for as long as a clone of it exists.
    /// Needs a Tokio runtime.
    pub fn start(pool: Pool) -> Announcer {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(pool, rx));
        Announcer { tx: Some(tx) }
    }

    /// An announcer that announces nothing.
    pub fn silent() -> Announcer {
        Announcer { tx: None }
    }

    /// Queues the announcement that `game` is now at `version` (call it after the commit).
    pub fn announce(&self, game: Uuid, version: i64) {
        let Some(tx) = &self.tx else { return };
        if let Err(e) = tx.try_send((game, version)) {
            tracing::warn!(%game, version, error = %e, "announcement dropped");
        }
    }
}

async fn run(pool: Pool, mut rx: mpsc::Receiver<(Uuid, i64)>) {
    let mut batch = Vec::with_capacity(BATCH);
    // Ends when every `Announcer` is gone and the queue is empty.
    while rx.recv_many(&mut batch, BATCH).await > 0 {
        let sql = statement(&batch);
        let sent = match pool.get().await {
            Ok(mut conn) => conn.batch_execute(&sql).await.map_err(anyhow::Error::from),
            Err(e) => Err(anyhow::Error::from(e)),
        };
        if let Err(error) = sent {
            tracing::warn!(%error, count = batch.len(), "announcing committed turns failed");
        }
        batch.clear();
    }
}

/// One transaction sending every announcement of `batch`, in order. The payloads are a UUID
/// and a number, written by this code: nothing in them needs quoting.
fn statement(batch: &[(Uuid, i64)]) -> String {
    let payloads: Vec<String> = batch
        .iter()
        .map(|(game, version)| format!("'{game}:{version}'"))
        .collect();
    format!(
        "BEGIN; SET LOCAL synchronous_commit TO OFF; \
         SELECT pg_notify('{NOTIFY_CHANNEL}', p) FROM unnest(ARRAY[{}]::text[]) \
         WITH ORDINALITY AS t(p, n) ORDER BY n; COMMIT;",
        payloads.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_one_transaction_announcing_each_version_in_order() {
        let a = Uuid::from_u128(1);
        let b = Uuid::from_u128(2);
        let sql = statement(&[(a, 7), (b, 3), (a, 8)]);
        assert!(sql.starts_with("BEGIN; SET LOCAL synchronous_commit TO OFF;"));
        assert!(sql.ends_with("COMMIT;"));
        let first = sql.find(&format!("'{a}:7'")).unwrap();
        let second = sql.find(&format!("'{b}:3'")).unwrap();
        let third = sql.find(&format!("'{a}:8'")).unwrap();
        assert!(first < second && second < third, "{sql}");
        assert!(sql.contains("pg_notify('turnpost_games', p)"), "{sql}");
    }
}
