//! The transactional outbox: mail to send, written in the transaction that caused it.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use super::Conn;
use super::models::NewOutbox;
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
