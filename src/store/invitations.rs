//! Invitations to a seat.

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

/// Invitations not yet accepted to games still open, mailed to `email` (any letter case).
pub async fn pending_for(conn: &mut Conn, email: &str) -> QueryResult<Vec<Invitation>> {
    use super::schema::games;
    use diesel::dsl::sql;
    use diesel::sql_types::{Bool, Text};
    invitations::table
        .filter(invitations::accepted_by.is_null())
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
