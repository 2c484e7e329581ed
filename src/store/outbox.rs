//! The transactional outbox: mail to send, written in the transaction that caused it, and
//! the queue operations of the workers that send it.
//!
//! A worker *claims* due rows: in one short transaction it picks them `FOR UPDATE SKIP LOCKED`
//! (so concurrent workers never pick the same row) and gives itself a lease on them. It sends
//! outside any transaction, then marks each row sent — or schedules a retry, or parks it as
//! failed — but only while it still holds the lease. A worker that dies leaves its lease to
//! expire, and the rows are claimed again: delivery is at-least-once, and a repeat carries the
//! same Message-ID.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Double, Text, Timestamptz};
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::Conn;
use super::models::{NewOutbox, OutboxRow};
use super::schema::outbox;

pub async fn enqueue(conn: &mut Conn, rows: &[NewOutbox]) -> QueryResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    diesel::insert_into(outbox::table)
        .values(rows)
        .execute(conn)
        .await
        .map(|_| ())
}

/// Claims up to `batch` due rows for `lease_secs` seconds (database time).
pub async fn claim(conn: &mut Conn, batch: i64, lease_secs: f64) -> QueryResult<Vec<OutboxRow>> {
    diesel::sql_query(
        "WITH due AS (
             SELECT id FROM outbox
             WHERE status = 'pending' AND next_attempt_at <= now()
               AND (lease_until IS NULL OR lease_until < now())
             ORDER BY next_attempt_at, id
             LIMIT $1
             FOR UPDATE SKIP LOCKED)
         UPDATE outbox o
         SET lease_until = now() + make_interval(secs => $2), attempts = o.attempts + 1
         FROM due WHERE o.id = due.id
         RETURNING o.id, o.game_id, o.user_id, o.kind, o.payload, o.status, o.attempts,
                   o.next_attempt_at, o.lease_until, o.to_address, o.message_id",
    )
    .bind::<BigInt, _>(batch)
    .bind::<Double, _>(lease_secs)
    .load(conn)
    .await
}

/// Marks a claimed row sent; `false` if the lease was lost meanwhile.
pub async fn mark_sent(conn: &mut Conn, id: i64, lease: DateTime<Utc>) -> QueryResult<bool> {
    let n = diesel::update(
        outbox::table
            .filter(outbox::id.eq(id))
            .filter(outbox::lease_until.eq(lease)),
    )
    .set((
        outbox::status.eq("sent"),
        outbox::sent_at.eq(diesel::dsl::now),
        outbox::lease_until.eq(None::<DateTime<Utc>>),
        outbox::last_error.eq(None::<String>),
    ))
    .execute(conn)
    .await?;
    Ok(n == 1)
}

/// Marks a claimed row sent and, for a game mail, notes in the same statement (one commit)
/// which version of the game it showed its recipient (never moving backwards).
pub async fn mark_sent_showing(
    conn: &mut Conn,
    id: i64,
    lease: DateTime<Utc>,
    shown: Option<(Uuid, Uuid, i64)>,
) -> QueryResult<bool> {
    let Some((game, user, version)) = shown else {
        return mark_sent(conn, id, lease).await;
    };
    let n = diesel::sql_query(
        "WITH shown AS (\
           INSERT INTO mail_shown (game_id, user_id, version) VALUES ($3, $4, $5) \
           ON CONFLICT (game_id, user_id) DO UPDATE \
           SET version = GREATEST(mail_shown.version, excluded.version), updated_at = now()) \
         UPDATE outbox SET status = 'sent', sent_at = now(), lease_until = NULL, last_error = NULL \
         WHERE id = $1 AND lease_until = $2",
    )
    .bind::<BigInt, _>(id)
    .bind::<Timestamptz, _>(lease)
    .bind::<diesel::sql_types::Uuid, _>(game)
    .bind::<diesel::sql_types::Uuid, _>(user)
    .bind::<BigInt, _>(version)
    .execute(conn)
    .await?;
    Ok(n == 1)
}

/// Marks many claimed rows skipped in one statement, each with its reason; returns how many
/// were still under their lease.
pub async fn mark_skipped_many(
    conn: &mut Conn,
    rows: &[(i64, DateTime<Utc>, String)],
) -> QueryResult<usize> {
    if rows.is_empty() {
        return Ok(0);
    }
    let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
    let leases: Vec<DateTime<Utc>> = rows.iter().map(|r| r.1).collect();
    let why: Vec<&str> = rows.iter().map(|r| r.2.as_str()).collect();
    diesel::sql_query(
        "UPDATE outbox o SET status = 'skipped', lease_until = NULL, last_error = u.why \
         FROM unnest($1::bigint[], $2::timestamptz[], $3::text[]) AS u(id, lease, why) \
         WHERE o.id = u.id AND o.lease_until = u.lease",
    )
    .bind::<Array<BigInt>, _>(ids)
    .bind::<Array<Timestamptz>, _>(leases)
    .bind::<Array<Text>, _>(why)
    .execute(conn)
    .await
}

/// Marks a claimed row as not sent: to be retried after `retry_in_secs`, or parked as failed.
pub async fn mark_unsent(
    conn: &mut Conn,
    id: i64,
    lease: DateTime<Utc>,
    error: &str,
    retry_in_secs: Option<f64>,
) -> QueryResult<bool> {
    let target = outbox::table
        .filter(outbox::id.eq(id))
        .filter(outbox::lease_until.eq(lease));
    let n = match retry_in_secs {
        Some(secs) => {
            diesel::sql_query(
                "UPDATE outbox SET next_attempt_at = now() + make_interval(secs => $1),
                        lease_until = NULL, last_error = $2
                 WHERE id = $3 AND lease_until = $4",
            )
            .bind::<Double, _>(secs)
            .bind::<diesel::sql_types::Text, _>(error)
            .bind::<BigInt, _>(id)
            .bind::<diesel::sql_types::Timestamptz, _>(lease)
            .execute(conn)
            .await?
        }
        None => {
            diesel::update(target)
                .set((
                    outbox::status.eq("failed"),
                    outbox::lease_until.eq(None::<DateTime<Utc>>),
                    outbox::last_error.eq(error),
                ))
                .execute(conn)
                .await?
        }
    };
    Ok(n == 1)
}

/// Marks a claimed row skipped (the recipient no longer wants it).
pub async fn mark_skipped(
    conn: &mut Conn,
    id: i64,
    lease: DateTime<Utc>,
    why: &str,
) -> QueryResult<bool> {
    let n = diesel::update(
        outbox::table
            .filter(outbox::id.eq(id))
            .filter(outbox::lease_until.eq(lease)),
    )
    .set((
        outbox::status.eq("skipped"),
        outbox::lease_until.eq(None::<DateTime<Utc>>),
        outbox::last_error.eq(why),
    ))
    .execute(conn)
    .await?;
    Ok(n == 1)
}

/// Whether `user` was queued mail of `kind` in the last `secs` seconds that is pending or
/// sent (a skipped or failed one does not count).
pub async fn queued_within(
    conn: &mut Conn,
    user: Uuid,
    kind: &str,
    secs: i64,
) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        outbox::table
            .filter(outbox::user_id.eq(user))
            .filter(outbox::kind.eq(kind))
            .filter(outbox::status.eq_any(["pending", "sent"]))
            .filter(outbox::created_at.gt(Utc::now() - chrono::Duration::seconds(secs))),
    ))
    .get_result(conn)
    .await
}

/// Pending and failed counts, for `/readyz`.
pub async fn counts(conn: &mut Conn) -> QueryResult<(i64, i64)> {
    let pending = outbox::table
        .filter(outbox::status.eq("pending"))
        .count()
        .get_result(conn)
        .await?;
    let failed = outbox::table
        .filter(outbox::status.eq("failed"))
        .count()
        .get_result(conn)
        .await?;
    Ok((pending, failed))
}
