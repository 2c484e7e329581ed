//! Games whose mail a player muted (`MUTE` / `UNMUTE` by mail).

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::Conn;

diesel::table! {
    game_mutes (game_id, user_id) {
        game_id -> Uuid,
        user_id -> Uuid,
        muted_at -> Timestamptz,
    }
}

/// Mutes or unmutes `game` for `user`; whether anything changed.
pub async fn set(
    conn: &mut Conn,
    game: Uuid,
    user: Uuid,
    muted: bool,
    now: DateTime<Utc>,
) -> QueryResult<bool> {
    let n = if muted {
        diesel::insert_into(game_mutes::table)
            .values((
                game_mutes::game_id.eq(game),
                game_mutes::user_id.eq(user),
                game_mutes::muted_at.eq(now),
            ))
            .on_conflict_do_nothing()
            .execute(conn)
            .await?
    } else {
        diesel::delete(game_mutes::table.find((game, user)))
            .execute(conn)
            .await?
    };
    Ok(n == 1)
}

/// Whether `user` muted `game`.
pub async fn is_muted(conn: &mut Conn, game: Uuid, user: Uuid) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(game_mutes::table.find((game, user))))
        .get_result(conn)
        .await
}
