//! Idempotency keys: a retried POST returns the first response.
//!
//! The key row is inserted in the same transaction as the work it guards. A concurrent
//! request with the same key blocks on the primary key until the first commits (then it
//! finds the saved response) or rolls back (then it does the work itself).

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::Value;
use uuid::Uuid;

use super::Conn;
use super::schema::idempotency_keys;

/// What a key says about a request.
pub enum Claim {
    /// First time: go on, then call [`save`] in the same transaction.
    Fresh,
    /// Done before with the same request: return this response.
    Replay { status: u16, body: Value },
    /// The key was used for another request.
    Mismatch,
}

pub async fn claim(
    conn: &mut Conn,
    user: Uuid,
    key: &str,
    request_sha256: &str,
) -> QueryResult<Claim> {
    let inserted = diesel::insert_into(idempotency_keys::table)
        .values((
            idempotency_keys::user_id.eq(user),
            idempotency_keys::key.eq(key),
            idempotency_keys::request_sha256.eq(request_sha256),
        ))
        .on_conflict_do_nothing()
        .execute(conn)
        .await?;
    if inserted == 1 {
        return Ok(Claim::Fresh);
    }
    let (hash, status, body): (String, Option<i32>, Option<Value>) = idempotency_keys::table
        .find((user, key))
        .select((
            idempotency_keys::request_sha256,
            idempotency_keys::response_status,
            idempotency_keys::response_body,
        ))
        .first(conn)
        .await?;
    if hash != request_sha256 {
        return Ok(Claim::Mismatch);
    }
    match (status, body) {
        (Some(status), Some(body)) => Ok(Claim::Replay {
            status: u16::try_from(status).unwrap_or(200),
            body,
        }),
        // Saved without a response cannot be seen outside its transaction; treat as reuse.
        _ => Ok(Claim::Mismatch),
    }
}

pub async fn save(
    conn: &mut Conn,
    user: Uuid,
    key: &str,
    status: u16,
    body: &Value,
) -> QueryResult<()> {
    diesel::update(idempotency_keys::table.find((user, key)))
        .set((
            idempotency_keys::response_status.eq(i32::from(status)),
            idempotency_keys::response_body.eq(body),
        ))
        .execute(conn)
        .await
        .map(|_| ())
}
