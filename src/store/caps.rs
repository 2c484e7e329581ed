//! What the per-day caps on mail count: the latest invitations by an account or to an
//! address, and the latest verification mails of an account. Each query returns the times of
//! at most `most` rows newer than `since`, newest first (enough to tell whether a cap is
//! reached and when the oldest of them leaves the window).

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::Text;
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::Conn;
use super::lower;
use super::schema::{invitations, outbox};

/// Holds a transaction-long lock on `key` (any text): two transactions that both take it run
/// one after the other, so a count and the insert that follows it cannot interleave.
pub async fn serialize_on(conn: &mut Conn, key: &str) -> QueryResult<()> {
    diesel::sql_query("SELECT pg_advisory_xact_lock(hashtextextended($1, 20))")
        .bind::<Text, _>(key)
        .execute(conn)
        .await
        .map(|_| ())
}

/// Whose invitations a cap counts.
pub enum Invitations<'a> {
    /// Sent by this account.
    By(Uuid),
    /// Sent to this address (in any case), by anybody.
    To(&'a str),
}

/// The invitations `which` since `since`.
pub async fn invitations(
    conn: &mut Conn,
    which: Invitations<'_>,
    since: DateTime<Utc>,
    most: i64,
) -> QueryResult<Vec<DateTime<Utc>>> {
    let query = invitations::table
        .filter(invitations::created_at.gt(since))
        .order(invitations::created_at.desc())
        .limit(most)
        .select(invitations::created_at)
        .into_boxed();
    let query = match which {
        Invitations::By(user) => query.filter(invitations::invited_by.eq(user)),
        Invitations::To(email) => query.filter(lower(invitations::email).eq(email.to_lowercase())),
    };
    query.load(conn).await
}

/// Mail of `kind` queued for `user` since `since`, whatever became of it.
pub async fn mail_to_user(
    conn: &mut Conn,
    user: Uuid,
    kind: &str,
    since: DateTime<Utc>,
    most: i64,
) -> QueryResult<Vec<DateTime<Utc>>> {
    outbox::table
        .filter(outbox::user_id.eq(user))
        .filter(outbox::kind.eq(kind))
        .filter(outbox::created_at.gt(since))
        .order(outbox::created_at.desc())
        .limit(most)
        .select(outbox::created_at)
        .load(conn)
        .await
}
