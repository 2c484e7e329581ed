//! Webhooks: an account's registered URLs, and the durable queue of their deliveries.
//!
//! Deliveries are queued by `turnpost_queue_webhooks` (migrations/2026-12-01-000019_webhooks)
//! in the transaction of the move that caused them: by `turnpost_save_turn` for a turn, by
//! [`queue`] for the other writers (a game abandoned by vote). Workers claim them like the mail
//! outbox (`store::outbox`): `FOR UPDATE SKIP LOCKED` and a lease, so any number of processes
//! share the work and a worker that dies leaves its rows to be claimed again; a row is marked
//! only while its claimer still holds the lease. Delivery is therefore at-least-once, and a
//! repeat carries the same event id.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Bytea, Double, Int4, Jsonb, Nullable, Text, Timestamptz};
use diesel_async::RunQueryDsl;
use serde_json::Value;
use uuid::Uuid;

use super::Conn;
use super::schema::{webhook_deliveries, webhooks};

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = webhooks)]
pub struct Webhook {
    pub id: Uuid,
    pub user_id: Uuid,
    pub token_id: Option<Uuid>,
    pub url: String,
    pub events: Vec<String>,
    pub secret_salt: Vec<u8>,
    pub created_at: DateTime<Utc>,
    pub last_delivery_at: Option<DateTime<Utc>>,
    pub last_failure_at: Option<DateTime<Utc>>,
    pub delivered: i64,
    pub failed_attempts: i64,
    pub given_up: i64,
}

#[derive(Insertable)]
#[diesel(table_name = webhooks)]
pub struct NewWebhook<'a> {
    pub id: Uuid,
    pub user_id: Uuid,
    pub token_id: Option<Uuid>,
    pub url: &'a str,
    pub events: &'a [String],
    pub secret_salt: &'a [u8],
}

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = webhook_deliveries)]
pub struct Delivery {
    pub id: i64,
    pub webhook_id: Uuid,
    pub event_id: Uuid,
    pub event: String,
    pub payload: Value,
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub delivered_at: Option<DateTime<Utc>>,
    pub last_status: Option<i32>,
    pub last_error: Option<String>,
}

/// A claimed delivery with what sending it needs from its hook.
#[derive(Clone, Debug, QueryableByName)]
pub struct Claimed {
    #[diesel(sql_type = BigInt)]
    pub id: i64,
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    pub webhook_id: Uuid,
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    pub event_id: Uuid,
    #[diesel(sql_type = Text)]
    pub event: String,
    #[diesel(sql_type = Jsonb)]
    pub payload: Value,
    #[diesel(sql_type = Int4)]
    pub attempts: i32,
    #[diesel(sql_type = Timestamptz)]
    pub lease_until: DateTime<Utc>,
    #[diesel(sql_type = Text)]
    pub url: String,
    #[diesel(sql_type = Bytea)]
    pub secret_salt: Vec<u8>,
    /// The token that registered the hook was revoked: the hook no longer works.
    #[diesel(sql_type = Bool)]
    pub revoked: bool,
}

pub async fn insert(conn: &mut Conn, new: NewWebhook<'_>) -> QueryResult<Webhook> {
    diesel::insert_into(webhooks::table)
        .values(new)
        .returning(Webhook::as_returning())
        .get_result(conn)
        .await
}

/// The account's hook `id`, if it has one.
pub async fn get(conn: &mut Conn, user: Uuid, id: Uuid) -> QueryResult<Option<Webhook>> {
    webhooks::table
        .filter(webhooks::id.eq(id))
        .filter(webhooks::user_id.eq(user))
        .select(Webhook::as_select())
        .first(conn)
        .await
        .optional()
}

/// The account's hooks, newest first, `limit` at most, those made before `before` (the
/// `created_at` and id of the last one of the previous page); each with whether the token
/// that registered it was revoked.
pub async fn of_user(
    conn: &mut Conn,
    user: Uuid,
    before: Option<(DateTime<Utc>, Uuid)>,
    limit: i64,
) -> QueryResult<Vec<(Webhook, bool)>> {
    use super::schema::api_tokens;
    let mut query = webhooks::table
        .left_join(api_tokens::table.on(api_tokens::id.nullable().eq(webhooks::token_id)))
        .filter(webhooks::user_id.eq(user))
        .select((
            Webhook::as_select(),
            api_tokens::revoked_at.nullable().is_not_null(),
        ))
        .order((webhooks::created_at.desc(), webhooks::id.desc()))
        .limit(limit)
        .into_boxed();
    if let Some((at, id)) = before {
        query = query.filter(
            webhooks::created_at
                .lt(at)
                .or(webhooks::created_at.eq(at).and(webhooks::id.lt(id))),
        );
    }
    query.load(conn).await
}

/// How many hooks the account has.
pub async fn count(conn: &mut Conn, user: Uuid) -> QueryResult<i64> {
    webhooks::table
        .filter(webhooks::user_id.eq(user))
        .count()
        .get_result(conn)
        .await
}

/// Deletes the account's hook `id` and its deliveries; `false` when it has no such hook.
pub async fn delete(conn: &mut Conn, user: Uuid, id: Uuid) -> QueryResult<bool> {
    let n = diesel::delete(
        webhooks::table
            .filter(webhooks::id.eq(id))
            .filter(webhooks::user_id.eq(user)),
    )
    .execute(conn)
    .await?;
    Ok(n > 0)
}

/// The hook's deliveries, newest first, `limit` at most, with ids below `before`.
pub async fn deliveries(
    conn: &mut Conn,
    hook: Uuid,
    before: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<Delivery>> {
    let mut query = webhook_deliveries::table
        .filter(webhook_deliveries::webhook_id.eq(hook))
        .select(Delivery::as_select())
        .order(webhook_deliveries::id.desc())
        .limit(limit)
        .into_boxed();
    if let Some(before) = before {
        query = query.filter(webhook_deliveries::id.lt(before));
    }
    query.load(conn).await
}

/// Queues `events` (a JSON array of `{user_id, event_id, event, payload}`) for the hooks that
/// want them, in the caller's transaction: one INSERT.
pub async fn queue(conn: &mut Conn, events: &str) -> QueryResult<()> {
    if events == "[]" {
        return Ok(());
    }
    diesel::sql_query("SELECT turnpost_queue_webhooks($1)")
        .bind::<Text, _>(events)
        .execute(conn)
        .await
        .map(|_| ())
}

/// Claims up to `batch` due deliveries for `lease_secs` seconds (database time), each with its
/// hook's URL and salt.
pub async fn claim(conn: &mut Conn, batch: i64, lease_secs: f64) -> QueryResult<Vec<Claimed>> {
    diesel::sql_query(
        "WITH due AS (
             SELECT id FROM webhook_deliveries
             WHERE status = 'pending' AND next_attempt_at <= now()
               AND (lease_until IS NULL OR lease_until < now())
             ORDER BY next_attempt_at, id
             LIMIT $1
             FOR UPDATE SKIP LOCKED)
         UPDATE webhook_deliveries d
         SET lease_until = now() + make_interval(secs => $2), attempts = d.attempts + 1
         FROM due, webhooks h LEFT JOIN api_tokens t ON t.id = h.token_id
         WHERE d.id = due.id AND h.id = d.webhook_id
         RETURNING d.id, d.webhook_id, d.event_id, d.event, d.payload, d.attempts,
                   d.lease_until, h.url, h.secret_salt, (t.revoked_at IS NOT NULL) AS revoked",
    )
    .bind::<BigInt, _>(batch)
    .bind::<Double, _>(lease_secs)
    .load(conn)
    .await
}

/// What became of one attempt.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A 2xx answer with this status.
    Delivered(i32),
    /// Not delivered (with the answer's status, if any): try again after `retry_in_secs`.
    Retry {
        status: Option<i32>,
        error: String,
        retry_in_secs: f64,
    },
    /// Not delivered, and no more attempts: given up.
    GiveUp { status: Option<i32>, error: String },
    /// Not sent at all: the hook no longer works (its token was revoked).
    Dropped(String),
}

/// Records an attempt's outcome on a claimed delivery and on its hook's counters, in one
/// statement, if the lease is still the claimer's; `false` if it was lost meanwhile.
pub async fn finish(
    conn: &mut Conn,
    id: i64,
    lease: DateTime<Utc>,
    outcome: &Outcome,
) -> QueryResult<bool> {
    let (status, code, error, retry, delivered, failed, given_up): (
        &str,
        Option<i32>,
        Option<&str>,
        f64,
        i64,
        i64,
        i64,
    ) = match outcome {
        Outcome::Delivered(code) => ("delivered", Some(*code), None, 0.0, 1, 0, 0),
        Outcome::Retry {
            status,
            error,
            retry_in_secs,
        } => ("pending", *status, Some(error), *retry_in_secs, 0, 1, 0),
        Outcome::GiveUp { status, error } => ("failed", *status, Some(error), 0.0, 0, 1, 1),
        Outcome::Dropped(why) => ("dropped", None, Some(why), 0.0, 0, 0, 0),
    };
    let n = diesel::sql_query(
        "WITH d AS (
             UPDATE webhook_deliveries
             SET status = $3, lease_until = NULL, last_status = $4, last_error = $5,
                 delivered_at = CASE WHEN $3 = 'delivered' THEN now() END,
                 next_attempt_at = CASE WHEN $3 = 'pending'
                     THEN now() + make_interval(secs => $6) ELSE next_attempt_at END
             WHERE id = $1 AND lease_until = $2
             RETURNING webhook_id)
         UPDATE webhooks h
         SET delivered = h.delivered + $7,
             failed_attempts = h.failed_attempts + $8,
             given_up = h.given_up + $9,
             last_delivery_at = CASE WHEN $7 > 0 THEN now() ELSE h.last_delivery_at END,
             last_failure_at = CASE WHEN $8 > 0 THEN now() ELSE h.last_failure_at END
         FROM d WHERE h.id = d.webhook_id",
    )
    .bind::<BigInt, _>(id)
    .bind::<Timestamptz, _>(lease)
    .bind::<Text, _>(status)
    .bind::<Nullable<Int4>, _>(code)
    .bind::<Nullable<Text>, _>(error)
    .bind::<Double, _>(retry)
    .bind::<BigInt, _>(delivered)
    .bind::<BigInt, _>(failed)
    .bind::<BigInt, _>(given_up)
    .execute(conn)
    .await?;
    Ok(n == 1)
}
