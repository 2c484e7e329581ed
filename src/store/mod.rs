//! The store: diesel over PostgreSQL. Games are event logs with a snapshot; nothing here knows
//! HTTP, and the rules engine is reached only through serialized JSON.
//!
//! Query functions take `&mut Conn` so that a use case in `service` can compose several of
//! them inside one transaction.

pub mod api_tokens;
pub mod caps;
pub mod clocks;
pub mod events;
pub mod games;
pub mod idempotency;
pub mod inbound;
pub mod invitations;
pub mod messages;
pub mod models;
pub mod mutes;
pub mod outbox;
pub mod registrations;
pub mod robots;
pub mod schema;
pub mod users;
pub mod webhooks;

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::Context;
use diesel::Connection;
use diesel_async::AsyncPgConnection;
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_async::pooled_connection::deadpool::{Hook, HookError, Object, Pool as Deadpool};
use diesel_async::pooled_connection::{
    AsyncDieselConnectionManager, ManagerConfig, RecyclingMethod,
};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

pub use diesel::result::Error as DbError;

pub type Conn = AsyncPgConnection;
pub type Pool = Deadpool<AsyncPgConnection>;
pub type PooledConn = Object<AsyncPgConnection>;

// `lower(text)`: addresses are compared without case.
diesel::define_sql_function!(fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text);

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");

/// When this process last saw a database server go away or refuse a write because it is
/// read-only (nanoseconds after [`epoch`], 0 for never): the primary it was connected to
/// may have been replaced by a standby. Connections opened before then are not reused.
static SERVERS_CHANGED: AtomicU64 = AtomicU64::new(0);

/// The instant that [`SERVERS_CHANGED`] counts from.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn nanos_since_epoch(at: Instant) -> u64 {
    u64::try_from(at.saturating_duration_since(epoch()).as_nanos()).unwrap_or(u64::MAX)
}

/// Notes that a server went away or became read-only: every pool of this process drops the
/// connections it opened before now instead of handing them out again. (With a multi-host
/// `DATABASE_URL` and `target_session_attrs=read-write`, the next connection goes to whichever
/// server is the primary now.)
pub fn servers_changed() {
    // At least 1, so that "never" stays distinct.
    let now = nanos_since_epoch(Instant::now()).max(1);
    SERVERS_CHANGED.fetch_max(now, Ordering::Relaxed);
}

/// Whether a connection opened at `created` predates the last [`servers_changed`].
fn servers_changed_since(created: Instant) -> bool {
    let changed = SERVERS_CHANGED.load(Ordering::Relaxed);
    changed != 0 && nanos_since_epoch(created) <= changed
}

/// A connection pool of `size` connections to `url`.
pub fn pool(url: &str, size: usize) -> anyhow::Result<Pool> {
    pool_with(url, size, None)
}

/// A connection pool of `size` connections to `url`, each with PostgreSQL's
/// `statement_timeout` set to `statement_timeout` when given.
pub fn pool_with(
    url: &str,
    size: usize,
    statement_timeout: Option<std::time::Duration>,
) -> anyhow::Result<Pool> {
    // `Fast` recycling: a connection handed back in a good state is reused as it is. The
    // default (`Verified`) sent `SELECT 1` to the server on every checkout, one more round
    // trip for every request; a connection that broke is still dropped (diesel-async checks
    // its state and its transaction manager on return).
    let mut config = ManagerConfig::default();
    config.recycling_method = RecyclingMethod::Fast;
    if let Some(timeout) = statement_timeout {
        let set = format!("SET statement_timeout = {}", timeout.as_millis().max(1));
        config.custom_setup = Box::new(move |url| {
            let set = set.clone();
            Box::pin(async move {
                use diesel_async::{AsyncConnection, RunQueryDsl};
                let mut conn = AsyncPgConnection::establish(url).await?;
                diesel::sql_query(set)
                    .execute(&mut conn)
                    .await
                    .map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
                Ok(conn)
            })
        });
    }
    let manager = AsyncDieselConnectionManager::<AsyncPgConnection>::new_with_config(url, config);
    Pool::builder(manager)
        .max_size(size)
        // A connection opened before the server was seen to go away or turn read-only (a
        // failover) is not handed out again: a new one finds the primary of now.
        .pre_recycle(Hook::sync_fn(|_, metrics| {
            if servers_changed_since(metrics.created) {
                Err(HookError::message("opened before a failover"))
            } else {
                Ok(())
            }
        }))
        .build()
        .context("building the database pool")
}

/// Runs the pending migrations (embedded in the binary) against `url`.
pub async fn migrate(url: &str) -> anyhow::Result<()> {
    let url = url.to_owned();
    tokio::task::spawn_blocking(move || -> anyhow::Result<()> {
        let mut conn = AsyncConnectionWrapper::<AsyncPgConnection>::establish(&url)
            .context("connecting to the database to migrate")?;
        let applied = conn
            .run_pending_migrations(MIGRATIONS)
            .map_err(|e| anyhow::anyhow!("running migrations: {e}"))?;
        for m in applied {
            tracing::info!(migration = %m, "applied migration");
        }
        Ok(())
    })
    .await
    .context("migration task")?
}
