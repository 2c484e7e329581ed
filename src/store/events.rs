//! The append-only event log of a game.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::Conn;
use super::models::Event;
use super::schema::game_events;

/// Appends entries; their `seq` must continue the game's log (the primary key refuses gaps
/// being filled twice, and the game row lock orders writers).
pub async fn append(conn: &mut Conn, entries: &[Event]) -> QueryResult<()> {
    if entries.is_empty() {
        return Ok(());
    }
    diesel::insert_into(game_events::table)
        .values(entries)
        .execute(conn)
        .await
        .map(|_| ())
}

/// Entries with `seq > after`, at most `limit`, in order.
pub async fn page(conn: &mut Conn, game: Uuid, after: i64, limit: i64) -> QueryResult<Vec<Event>> {
    game_events::table
        .filter(game_events::game_id.eq(game))
        .filter(game_events::seq.gt(after))
        .order(game_events::seq.asc())
        .limit(limit)
        .select(Event::as_select())
        .load(conn)
        .await
}

/// The last `limit` entries with `seq > after`, in order, and how many such entries there
/// are in all (for "since your last mail", which shows the latest and counts the rest).
pub async fn latest_after(
    conn: &mut Conn,
    game: Uuid,
    after: i64,
    limit: i64,
) -> QueryResult<(Vec<Event>, i64)> {
    let mut entries: Vec<Event> = game_events::table
        .filter(game_events::game_id.eq(game))
        .filter(game_events::seq.gt(after))
        .order(game_events::seq.desc())
        .limit(limit)
        .select(Event::as_select())
        .load(conn)
        .await?;
    entries.reverse();
    let total = if (entries.len() as i64) < limit {
        entries.len() as i64
    } else {
        game_events::table
            .filter(game_events::game_id.eq(game))
            .filter(game_events::seq.gt(after))
            .count()
            .get_result(conn)
            .await?
    };
    Ok((entries, total))
}

/// The whole log of a game, in order.
pub async fn all(conn: &mut Conn, game: Uuid) -> QueryResult<Vec<Event>> {
    game_events::table
        .filter(game_events::game_id.eq(game))
        .order(game_events::seq.asc())
        .select(Event::as_select())
        .load(conn)
        .await
}
