//! Inbound mail: each message acted on once (by Message-ID), and the version of each game a
//! player was last shown by mail.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::Conn;
use super::schema::{inbound_mail, mail_shown};

/// Records an inbound message with its verdict; `false` if this Message-ID was seen before
/// (then nothing is written: the first delivery's verdict stands).
pub async fn record(
    conn: &mut Conn,
    message_id: &str,
    verdict: &str,
    game: Option<Uuid>,
    user: Option<Uuid>,
) -> QueryResult<bool> {
    let n = diesel::insert_into(inbound_mail::table)
        .values((
            inbound_mail::message_id.eq(message_id),
            inbound_mail::verdict.eq(verdict),
            inbound_mail::game_id.eq(game),
            inbound_mail::user_id.eq(user),
        ))
        .on_conflict_do_nothing()
        .execute(conn)
        .await?;
    Ok(n == 1)
}

/// Sets the verdict of a message recorded earlier in the same transaction.
pub async fn set_verdict(conn: &mut Conn, message_id: &str, verdict: &str) -> QueryResult<()> {
    diesel::update(inbound_mail::table.find(message_id))
        .set(inbound_mail::verdict.eq(verdict))
        .execute(conn)
        .await
        .map(|_| ())
}

/// The verdict recorded for a message, if it was seen.
pub async fn verdict(conn: &mut Conn, message_id: &str) -> QueryResult<Option<String>> {
    inbound_mail::table
        .find(message_id)
        .select(inbound_mail::verdict)
        .first(conn)
        .await
        .optional()
}

/// The last version of `game` that `user` was shown by mail.
pub async fn shown(conn: &mut Conn, game: Uuid, user: Uuid) -> QueryResult<Option<i64>> {
    mail_shown::table
        .find((game, user))
        .select(mail_shown::version)
        .first(conn)
        .await
        .optional()
}

/// The versions last shown by mail for these games (every user of them): `(game, user, version)`.
pub async fn shown_in(conn: &mut Conn, games: &[Uuid]) -> QueryResult<Vec<(Uuid, Uuid, i64)>> {
    mail_shown::table
        .filter(mail_shown::game_id.eq_any(games))
        .select((
            mail_shown::game_id,
            mail_shown::user_id,
            mail_shown::version,
        ))
        .load(conn)
        .await
}

/// Notes that `user` has been sent `version` of `game` (never moving backwards).
pub async fn mark_shown(conn: &mut Conn, game: Uuid, user: Uuid, version: i64) -> QueryResult<()> {
    diesel::insert_into(mail_shown::table)
        .values((
            mail_shown::game_id.eq(game),
            mail_shown::user_id.eq(user),
            mail_shown::version.eq(version),
        ))
        .on_conflict((mail_shown::game_id, mail_shown::user_id))
        .do_update()
        .set((
            mail_shown::version.eq(diesel::dsl::sql::<diesel::sql_types::BigInt>(
                "GREATEST(mail_shown.version, excluded.version)",
            )),
            mail_shown::updated_at.eq(diesel::dsl::now),
        ))
        .execute(conn)
        .await
        .map(|_| ())
}
