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
