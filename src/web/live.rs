//! Live updates for the web pages: one `LISTEN turnpost_games` connection per server process,
//! fanned out to the pages' server-sent-event streams. Every committed turn is announced on
//! that channel as `<game id>:<version>` once it is committed (see `service::announce`), so a
//! page follows its game whichever server process took the move.

use std::sync::{Arc, Weak};
use std::time::Duration;

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use futures_util::StreamExt;
use tokio::sync::broadcast;
use uuid::Uuid;

use crate::service::submit::NOTIFY_CHANNEL;

/// A committed version of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moved {
    pub game: Uuid,
    pub version: i64,
}

/// The announcements of this process's listener. Dropping the last clone stops the listener.
#[derive(Clone)]
pub struct Live {
    tx: Arc<broadcast::Sender<Moved>>,
}

impl Live {
    /// Starts listening on `database_url` (reconnecting after a second whenever the
    /// connection is lost) for as long as the returned `Live` or a clone of it exists.
    pub fn start(database_url: String) -> Live {
        let (tx, _) = broadcast::channel(1024);
        let tx = Arc::new(tx);
        tokio::spawn(listen(database_url, Arc::downgrade(&tx)));
        Live { tx }
    }

    /// A `Live` that never announces anything (for servers built without a listener).
    pub fn silent() -> Live {
        let (tx, _) = broadcast::channel(1);
        Live { tx: Arc::new(tx) }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Moved> {
        self.tx.subscribe()
    }
}

/// `<uuid>:<version>`, the channel's payload.
pub fn parse(payload: &str) -> Option<Moved> {
    let (game, version) = payload.split_once(':')?;
    Some(Moved {
        game: game.parse().ok()?,
        version: version.parse().ok()?,
    })
}

async fn listen(url: String, tx: Weak<broadcast::Sender<Moved>>) {
    // Ends when the `Live` is gone; each pass is one connection's life.
    while tx.strong_count() > 0 {
        match AsyncPgConnection::establish(&url).await {
            Ok(mut conn) => {
                if let Err(e) = conn
                    .batch_execute(&format!("LISTEN {NOTIFY_CHANNEL}"))
                    .await
                {
                    tracing::warn!(error = %e, "LISTEN for live pages failed");
                } else {
                    let mut stream = std::pin::pin!(conn.notifications_stream());
                    loop {
                        // Wake now and then to notice that nobody needs us any more.
                        let next = tokio::time::timeout(Duration::from_secs(5), stream.next());
                        match next.await {
                            Ok(Some(Ok(n))) => {
                                let Some(tx) = tx.upgrade() else { return };
                                if let Some(moved) = parse(&n.payload) {
                                    // No receiver is fine: nobody is watching.
                                    let _ = tx.send(moved);
                                }
                            }
                            Ok(Some(Err(e))) => {
                                tracing::warn!(error = %e, "live pages' listener lost");
                                break;
                            }
                            Ok(None) => break,
                            Err(_) if tx.strong_count() == 0 => return,
                            Err(_) => {}
                        }
                    }
                }
            }
            Err(e) => tracing::debug!(error = %e, "live pages' listener cannot connect"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_parse_as_the_channel_writes_them() {
        let id = Uuid::new_v4();
        assert_eq!(
            parse(&format!("{id}:17")),
            Some(Moved {
                game: id,
                version: 17
            })
        );
        assert_eq!(parse("nonsense"), None);
        assert_eq!(parse(&format!("{id}:x")), None);
    }
}
