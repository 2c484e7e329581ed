//! Use cases: one transaction each. `http` calls these; they call `store` and `rules`.
//!
//! The files read one way, bottom floor first; a file uses only the floors below it (this
//! file, the entrance, holds `Services` and the error every use case returns):
//!
//! 1. Values and small pieces, using no other file here (or only one below): `views` (what
//!    the use cases return), `deadlines` (a game's clock and its deadline rows), `chance`,
//!    `cursor`, `limits`, `sessions`, `hot`, `invitees`, `sender`, `reply_plan`,
//!    `inbound_verdicts`, `invitation_words`, `stream_slots`, `api_tokens`, `duel`.
//! 2. Reading: `game_views` (a stored game as the use cases show it), `webhooks` (the
//!    account's hooks and the events a move queues for them), `bot_serve`.
//! 3. Mail: `mail` (the mails of a game and of an account, as outbox rows), `export`,
//!    `preview`, then `invitation_mail`, `mail_sizes` and `users`.
//! 4. `submit`: a turn played and committed (`Play`), which every use case that moves a game
//!    goes through.
//! 5. The use cases on top of it: `games`, `seats`, `messages`, `orders`, `robots`,
//!    `announce`, `upgrade`, `pace`; then `invitations`, `streams`, `mail_commands` and the
//!    deadline worker `clock`.
//! 6. Inbound mail: `invitation_replies`, and on top `inbound`, the receiver, which owns the
//!    dispatch of a reply to the use case it answers.

pub mod announce;
pub mod api_tokens;
pub mod bot_serve;
pub mod chance;
pub mod clock;
pub mod cursor;
pub mod deadlines;
pub mod duel;
pub mod export;
pub mod game_views;
pub mod games;
pub mod hot;
pub mod inbound;
pub mod inbound_verdicts;
pub mod invitation_mail;
pub mod invitation_replies;
pub mod invitation_words;
pub mod invitations;
pub mod invitees;
pub mod limits;
pub mod mail;
pub mod mail_commands;
pub mod mail_sizes;
pub mod messages;
pub mod orders;
pub mod pace;
pub mod preview;
pub mod registration;
pub mod reply_plan;
pub mod robots;
pub mod seats;
pub mod sender;
pub mod sessions;
pub mod stream_slots;
pub mod streams;
pub mod submit;
pub mod upgrade;
pub mod users;
pub mod views;
pub mod webhooks;

use std::sync::Arc;

use crate::auth::Jwt;
use crate::rules::Registry;
use crate::store::{DbError, Pool};

/// Everything a use case needs, shared by all workers of the server.
#[derive(Clone)]
pub struct Services {
    pub pool: Pool,
    pub rules: Arc<Registry>,
    pub jwt: Jwt,
    /// Signs the reply addresses of turn mail.
    pub replies: crate::auth::reply::ReplySigner,
    pub mail: mail::MailConfig,
    pub inbound: inbound::InboundConfig,
    /// The clock deadlines are measured by.
    pub clock: crate::clock::Clock,
    /// Rate limits, per-day mail caps, the password policy.
    pub limits: Arc<limits::Limits>,
    /// The session token versions this process has read lately ([`sessions`]).
    pub versions: Arc<sessions::Versions>,
    /// Games being played right now, between their submissions (a cache: see `hot`).
    pub hot: Arc<hot::HotGames>,
    /// Announces turns committed outside a transaction of their own ([`announce`]).
    pub announcer: announce::Announcer,
    /// Where webhooks may point, and the key of their secrets ([`webhooks`]).
    pub webhooks: webhooks::WebhookConfig,
    /// The event streams open in this process, and their limits ([`stream_slots`]).
    pub streams: Arc<stream_slots::StreamSlots>,
    /// How long a request waits for a database connection (`TURNPOST_DB_WAIT_SECS`).
    pub db_wait: std::time::Duration,
}

/// Why a use case refused or failed. `http` maps each to a status and a stable problem type.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("{0}")]
    Invalid(String),
    /// A list's `cursor` that it did not give out (a query parameter that cannot be read).
    #[error("{0}")]
    BadCursor(String),
    #[error("unknown ruleset {0:?}")]
    UnknownRuleset(String),
    #[error("{0}")]
    InvalidSeats(String),
    #[error("an account with this address already exists: sign in with it")]
    EmailTaken,
    #[error("wrong email or password")]
    BadCredentials,
    #[error("{0} not found")]
    NotFound(&'static str),
    #[error("you do not hold a seat in this game")]
    NotAPlayer,
    #[error("it is not your decision now")]
    NotYourDecision,
    #[error("the game is at version {actual}, not {expected}")]
    VersionConflict { expected: i64, actual: i64 },
    #[error("action {index} is illegal: {reason}")]
    IllegalAction { index: usize, reason: String },
    #[error("{0}")]
    SeatUnavailable(String),
    #[error("the game is {0}")]
    WrongStatus(String),
    /// A seat or account is not in the state the request needs (not absent, already voted…).
    #[error("{0}")]
    NotNow(String),
    /// Too many requests of a kind (table talk, logins, registrations, mail sent): try again
    /// after this many seconds.
    #[error("{detail}")]
    RateLimited {
        retry_after_secs: i64,
        detail: String,
    },
    /// A new password that is too easy to guess; the text says why and what would do.
    #[error("{0}")]
    WeakPassword(String),
    #[error("this Idempotency-Key was used with a different request")]
    IdempotencyMismatch,
    #[error("this link is not valid or has expired")]
    InvalidLink,
    /// The caller's token is valid but names an account that does not exist (any more).
    #[error("the account this token was issued to does not exist; register or log in again")]
    UnknownAccount,
    /// The caller's session token was revoked: its account logged out, or changed its
    /// password, after it was issued.
    #[error(
        "this token was revoked (its account logged out or changed its password since); log in again"
    )]
    Revoked,
    /// The current password given to change it is wrong.
    #[error("the current password is wrong")]
    WrongPassword,
    /// A signed-in caller may not use this invitation: it was sent to another address.
    #[error("{0}")]
    NotInvited(String),
    /// A bearer token that is not (any more) good: a revoked or unknown API token.
    #[error("{0}")]
    BadToken(&'static str),
    /// The caller's API token lacks the scope the request needs.
    #[error("{0}")]
    InsufficientScope(String),
    #[error("database unavailable")]
    Unavailable(#[source] anyhow::Error),
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// How long a client should wait before trying again when the database is unavailable
/// (`Retry-After`): long enough for the private cluster's watchdog to start it again.
pub const RETRY_AFTER_UNAVAILABLE_SECS: i64 = 5;

impl From<DbError> for ServiceError {
    fn from(e: DbError) -> Self {
        if names_a_missing_account(&e) {
            return ServiceError::UnknownAccount;
        }
        if connection_lost(&e) {
            if server_changed(&e) {
                crate::store::servers_changed();
            }
            return ServiceError::Unavailable(e.into());
        }
        ServiceError::Unexpected(e.into())
    }
}

impl ServiceError {
    /// The same error, except that an `Unexpected` one caused by a lost or refused database
    /// connection (wrapped on its way, e.g. by a worker) is `Unavailable`: the request may
    /// succeed when tried again, so it is 503, not 500.
    pub fn classified(self) -> ServiceError {
        match self {
            ServiceError::Unexpected(e) if caused_by_lost_connection(&e) => {
                if e.chain()
                    .any(|cause| cause.downcast_ref::<DbError>().is_some_and(server_changed))
                {
                    crate::store::servers_changed();
                }
                ServiceError::Unavailable(e)
            }
            other => other,
        }
    }
}

/// The beginnings of the messages with which PostgreSQL ends a session because the server is
/// going away or not there yet (SQLSTATE class 57P: `admin_shutdown`, `crash_shutdown`,
/// `cannot_connect_now`). diesel reports them with the message only.
const SERVER_GOING_AWAY: &[&str] = &[
    "terminating connection due to administrator command",
    "terminating connection because of crash of another server process",
    "terminating connection due to unexpected postmaster exit",
    "the database system is shutting down",
    "the database system is starting up",
    "the database system is in recovery mode",
    "the database system is not yet accepting connections",
    "the database system is not accepting connections",
    // `query_canceled` by the pool's `statement_timeout` (`TURNPOST_DB_STATEMENT_TIMEOUT_SECS`):
    // the database is too slow or a lock is held too long; trying again may work.
    STATEMENT_TIMEOUT,
];

const STATEMENT_TIMEOUT: &str = "canceling statement due to statement timeout";

/// Whether `e` means the connection to the database was lost (closed, refused, or ended by a
/// server that is shutting down or crashed), or reached a server that no longer takes writes
/// (SQLSTATE 25006: a primary demoted to a standby by a failover), rather than a fault in the
/// query. Either way the request may succeed when tried again.
pub fn connection_lost(e: &DbError) -> bool {
    use diesel::result::{DatabaseErrorKind, Error};
    match e {
        Error::DatabaseError(
            DatabaseErrorKind::UnableToSendCommand
            | DatabaseErrorKind::ClosedConnection
            | DatabaseErrorKind::ReadOnlyTransaction,
            _,
        ) => true,
        Error::DatabaseError(_, info) => SERVER_GOING_AWAY
            .iter()
            .any(|message| info.message().starts_with(message)),
        Error::RollbackErrorOnCommit { commit_error, .. } => connection_lost(commit_error),
        // A rollback failed before, which happens when the connection went away mid-transaction.
        Error::BrokenTransactionManager => true,
        _ => false,
    }
}

/// Whether `e` (a [`connection_lost`] error) says that the server behind this process's
/// connections may have changed: it went away, or it turned read-only. Then the pools drop
/// the connections they opened before (`store::servers_changed`). A statement that merely
/// took too long says nothing about the server.
fn server_changed(e: &DbError) -> bool {
    use diesel::result::Error;
    match e {
        Error::DatabaseError(_, info) => !info.message().starts_with(STATEMENT_TIMEOUT),
        Error::RollbackErrorOnCommit { commit_error, .. } => server_changed(commit_error),
        _ => true,
    }
}

/// Whether anything in `e`'s chain of causes is a lost database connection, or a connection
/// that could not be made.
pub fn caused_by_lost_connection(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause.downcast_ref::<DbError>().is_some_and(connection_lost)
            || cause.is::<diesel::ConnectionError>()
    })
}

/// Whether a write failed because an account it names does not exist: a foreign key to
/// `users` (`games.created_by`, `seats.user_id`, `messages.from_user`, …). Requests are
/// authenticated by signature alone, so a token can outlive its account (a database reset, a
/// deleted account); such a caller gets 401, not 500.
fn names_a_missing_account(e: &DbError) -> bool {
    use diesel::result::{DatabaseErrorKind, Error};
    const USER_KEYS: [&str; 5] = [
        "_user_id_fkey",
        "_created_by_fkey",
        "_invited_by_fkey",
        "_accepted_by_fkey",
        "_from_user_fkey",
    ];
    match e {
        Error::DatabaseError(DatabaseErrorKind::ForeignKeyViolation, info) => info
            .constraint_name()
            .is_some_and(|c| USER_KEYS.iter().any(|k| c.ends_with(k))),
        _ => false,
    }
}

impl Services {
    /// A pooled connection; pool exhaustion, a down database or one that does not answer
    /// within `db_wait` is `Unavailable` (503).
    pub async fn conn(&self) -> Result<crate::store::PooledConn, ServiceError> {
        match tokio::time::timeout(self.db_wait, self.pool.get()).await {
            Ok(got) => {
                got.map_err(|e| ServiceError::Unavailable(anyhow::anyhow!("database pool: {e}")))
            }
            Err(_) => Err(ServiceError::Unavailable(anyhow::anyhow!(
                "no database connection within {} s",
                self.db_wait.as_secs_f32()
            ))),
        }
    }

    /// The rules state of a game from its snapshot (the ruleset must still be hosted).
    pub fn load_state(
        &self,
        game: &crate::store::models::Game,
        snapshot: &serde_json::Value,
    ) -> Result<Box<dyn crate::rules::GameState>> {
        self.rules
            .get(&game.ruleset)
            .ok_or_else(|| ServiceError::UnknownRuleset(game.ruleset.clone()))?
            .load(snapshot)
            .map_err(|e| ServiceError::Unexpected(anyhow::anyhow!("loading snapshot: {e}")))
    }
}

pub type Result<T, E = ServiceError> = std::result::Result<T, E>;
