//! Games where a seat the bot plays has to decide (issue 38): a request lets the bot decide
//! only a turn's worth of times, and the bot worker continues the rest (`service::robots`).

use diesel::PgArrayExpressionMethods;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::Conn;
use super::schema::games;

/// Active games waiting for a seat the bot plays, longest waiting first, at most `limit`
/// (read without a lock: the worker claims each one with `FOR UPDATE SKIP LOCKED`). The
/// partial index `games_bot_turns` holds exactly these rows.
pub async fn waiting_for_bots(conn: &mut Conn, limit: i64) -> QueryResult<Vec<Uuid>> {
    games::table
        .filter(games::status.eq("active"))
        .filter(games::to_act.overlaps_with(games::robots))
        .order(games::updated_at.asc())
        .select(games::id)
        .limit(limit)
        .load(conn)
        .await
}
