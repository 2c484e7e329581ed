//! Invitations to a seat. An invitation is pending (and holds its seat) while it is neither
//! accepted nor declined, has not expired, and its game is still open.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::Conn;
use super::models::Invitation;
use super::schema::invitations;

pub async fn insert(conn: &mut Conn, inv: &Invitation) -> QueryResult<()> {
    diesel::insert_into(invitations::table)
        .values(inv)
        .execute(conn)
        .await
        .map(|_| ())
}

pub async fn get(conn: &mut Conn, id: Uuid) -> QueryResult<Option<Invitation>> {
    invitations::table
        .find(id)
        .select(Invitation::as_select())
        .first(conn)
        .await
        .optional()
}

pub async fn lock(conn: &mut Conn, id: Uuid) -> QueryResult<Option<Invitation>> {
    invitations::table
        .find(id)
        .select(Invitation::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()
}

pub async fn mark_accepted(conn: &mut Conn, id: Uuid, user: Uuid) -> QueryResult<()> {
    diesel::update(invitations::table.find(id))
        .set((
            invitations::accepted_by.eq(user),
            invitations::accepted_at.eq(Some(chrono::Utc::now())),
        ))
        .execute(conn)
        .await
        .map(|_| ())
}

pub async fn mark_declined(conn: &mut Conn, id: Uuid, at: DateTime<Utc>) -> QueryResult<()> {
    diesel::update(invitations::table.find(id))
        .set(invitations::declined_at.eq(Some(at)))
        .execute(conn)
        .await
        .map(|_| ())
}

/// The pending invitations of these games at `now`, oldest first (the games' status is the
/// caller's to check).
pub async fn pending_in(
    conn: &mut Conn,
    games: &[Uuid],
    now: DateTime<Utc>,
) -> QueryResult<Vec<Invitation>> {
    invitations::table
        .filter(invitations::game_id.eq_any(games))
        .filter(invitations::accepted_by.is_null())
        .filter(invitations::declined_at.is_null())
        .filter(invitations::expires_at.gt(now))
        .order((invitations::created_at.asc(), invitations::id.asc()))
        .select(Invitation::as_select())
        .load(conn)
        .await
}

/// Invitations pending at `now` to games still open, mailed to `email` (any letter case).
pub async fn pending_for(
    conn: &mut Conn,
    email: &str,
    now: DateTime<Utc>,
) -> QueryResult<Vec<Invitation>> {
    use super::schema::games;
    use diesel::dsl::sql;
    use diesel::sql_types::{Bool, Text};
    invitations::table
        .filter(invitations::accepted_by.is_null())
        .filter(invitations::declined_at.is_null())
        .filter(invitations::expires_at.gt(now))
        .filter(
            invitations::game_id.eq_any(
                games::table
                    .filter(games::status.eq("open"))
                    .select(games::id),
            ),
        )
        .filter(
            sql::<Bool>("lower(invitations.email) = lower(")
                .bind::<Text, _>(email.to_owned())
                .sql(")"),
        )
        .order((invitations::created_at.asc(), invitations::id.asc()))
        .select(Invitation::as_select())
        .load(conn)
        .await
}
