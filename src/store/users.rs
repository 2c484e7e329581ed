//! Users.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::models::{NewUser, User};
use super::schema::users;
use super::{Conn, lower};

/// Inserts a user; `Ok(None)` when the email (case-insensitively) is taken.
pub async fn insert(conn: &mut Conn, new: NewUser<'_>) -> QueryResult<Option<User>> {
    diesel::insert_into(users::table)
        .values(new)
        .on_conflict_do_nothing()
        .returning(User::as_returning())
        .get_result(conn)
        .await
        .optional()
}

pub async fn by_email(conn: &mut Conn, email: &str) -> QueryResult<Option<User>> {
    users::table
        .filter(lower(users::email).eq(email.to_lowercase()))
        .select(User::as_select())
        .first(conn)
        .await
        .optional()
}

pub async fn by_id(conn: &mut Conn, id: Uuid) -> QueryResult<Option<User>> {
    users::table
        .find(id)
        .select(User::as_select())
        .first(conn)
        .await
        .optional()
}

/// The user, locked until the end of the transaction (`FOR UPDATE`): requests about one
/// account that must not overlap wait for each other here.
pub async fn lock(conn: &mut Conn, id: Uuid) -> QueryResult<Option<User>> {
    users::table
        .find(id)
        .select(User::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()
}

pub async fn by_ids(conn: &mut Conn, ids: &[Uuid]) -> QueryResult<Vec<User>> {
    users::table
        .filter(users::id.eq_any(ids))
        .select(User::as_select())
        .load(conn)
        .await
}

/// Marks `email` verified for `id`, if it is still the account's address.
pub async fn mark_verified(conn: &mut Conn, id: Uuid, email: &str) -> QueryResult<bool> {
    let n = diesel::update(
        users::table
            .filter(users::id.eq(id))
            .filter(lower(users::email).eq(email.to_lowercase())),
    )
    .set(users::email_verified_at.eq(Some(chrono::Utc::now())))
    .execute(conn)
    .await?;
    Ok(n == 1)
}

pub async fn set_display_name(conn: &mut Conn, id: Uuid, name: &str) -> QueryResult<bool> {
    let n = diesel::update(users::table.find(id))
        .set(users::display_name.eq(name))
        .execute(conn)
        .await?;
    Ok(n == 1)
}

pub async fn set_preference(conn: &mut Conn, id: Uuid, preference: &str) -> QueryResult<bool> {
    let n = diesel::update(users::table.find(id))
        .set(users::mail_preference.eq(preference))
        .execute(conn)
        .await?;
    Ok(n == 1)
}

/// Whether `id`'s game mail shows the board as a picture.
pub async fn set_mail_pictures(conn: &mut Conn, id: Uuid, on: bool) -> QueryResult<bool> {
    let n = diesel::update(users::table.find(id))
        .set(users::mail_pictures.eq(on))
        .execute(conn)
        .await?;
    Ok(n == 1)
}

/// A new account for a built-in bot: it has no password (no hash verifies), an address in the
/// reserved `.invalid` domain that is never verified (so it gets no mail), and `is_bot`.
pub async fn insert_bot(conn: &mut Conn, name: &str) -> QueryResult<Uuid> {
    let id = Uuid::new_v4();
    diesel::insert_into(users::table)
        .values((
            users::id.eq(id),
            users::email.eq(format!("bot-{}@bots.turnpost.invalid", id.simple())),
            users::display_name.eq(name),
            users::password_hash.eq("!bot"),
            users::is_bot.eq(true),
        ))
        .execute(conn)
        .await?;
    Ok(id)
}

/// The account's token version, if the account exists.
pub async fn token_version(conn: &mut Conn, id: Uuid) -> QueryResult<Option<i32>> {
    users::table
        .find(id)
        .select(users::token_version)
        .first(conn)
        .await
        .optional()
}

/// Raises the account's token version (revoking every session issued before); the new
/// version, if the account exists.
pub async fn raise_token_version(conn: &mut Conn, id: Uuid) -> QueryResult<Option<i32>> {
    diesel::update(users::table.find(id))
        .set(users::token_version.eq(users::token_version + 1))
        .returning(users::token_version)
        .get_result(conn)
        .await
        .optional()
}

/// A new password hash, and a raised token version (a new password ends every session);
/// the new version, if the account exists.
pub async fn set_password(conn: &mut Conn, id: Uuid, hash: &str) -> QueryResult<Option<i32>> {
    diesel::update(users::table.find(id))
        .set((
            users::password_hash.eq(hash),
            users::token_version.eq(users::token_version + 1),
        ))
        .returning(users::token_version)
        .get_result(conn)
        .await
        .optional()
}

/// Marks the account's address verified (now) unless it was already.
pub async fn mark_own_address_verified(conn: &mut Conn, id: Uuid) -> QueryResult<()> {
    diesel::update(
        users::table
            .filter(users::id.eq(id))
            .filter(users::email_verified_at.is_null()),
    )
    .set(users::email_verified_at.eq(Some(chrono::Utc::now())))
    .execute(conn)
    .await
    .map(|_| ())
}
