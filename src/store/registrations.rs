//! Registrations waiting for their address to be confirmed.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use super::Conn;
use super::lower;
use super::models::PendingRegistration;
use super::schema::{outbox, pending_registrations};

pub async fn insert(conn: &mut Conn, row: &PendingRegistration) -> QueryResult<()> {
    diesel::insert_into(pending_registrations::table)
        .values(row.clone())
        .execute(conn)
        .await
        .map(|_| ())
}

/// Takes (deletes and returns) the registration whose token has this SHA-256, expired or not:
/// a link is good for one use.
pub async fn take(
    conn: &mut Conn,
    token_sha256: &[u8],
) -> QueryResult<Option<PendingRegistration>> {
    diesel::delete(pending_registrations::table)
        .filter(pending_registrations::token_sha256.eq(token_sha256))
        .returning(PendingRegistration::as_returning())
        .get_result(conn)
        .await
        .optional()
}

/// Forgets the registrations that expired before `now`; how many.
pub async fn purge_expired(conn: &mut Conn, now: DateTime<Utc>) -> QueryResult<usize> {
    diesel::delete(pending_registrations::table)
        .filter(pending_registrations::expires_at.le(now))
        .execute(conn)
        .await
}

/// The registration mails (either kind) queued for `email` (in any case) since `since`, at
/// most `most`, newest first.
pub async fn mails_to(
    conn: &mut Conn,
    email: &str,
    kinds: Vec<&str>,
    since: DateTime<Utc>,
    most: i64,
) -> QueryResult<Vec<DateTime<Utc>>> {
    outbox::table
        .filter(lower(outbox::to_address).eq(email.to_lowercase()))
        .filter(outbox::kind.eq_any(kinds))
        .filter(outbox::created_at.gt(since))
        .order(outbox::created_at.desc())
        .limit(most)
        .select(outbox::created_at)
        .load(conn)
        .await
}
