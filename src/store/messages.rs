//! Table talk: messages in a game, to the whole table (`to_seat` NULL) or privately to one
//! seat's player. Every read here filters by who may see a message; nothing else reads them.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::Conn;
use super::schema::{messages, seats, users};

/// A message, with its sender's display name.
#[derive(Clone, Debug, PartialEq, Queryable, Selectable)]
#[diesel(table_name = messages)]
pub struct Message {
    pub game_id: Uuid,
    pub id: i64,
    pub from_seat: i32,
    pub from_user: Uuid,
    /// `None`: to the whole table.
    pub to_seat: Option<i32>,
    /// The recipient's account, for a private message.
    pub to_user: Option<Uuid>,
    pub body: String,
    pub created_at: DateTime<Utc>,
}

impl Message {
    /// Whether `user`, holding a seat in the game, may read this message: it went to the
    /// whole table, or they sent it, or it was sent to them.
    pub fn visible_to(&self, user: Uuid) -> bool {
        self.to_user.is_none() || self.from_user == user || self.to_user == Some(user)
    }
}

#[derive(Insertable)]
#[diesel(table_name = messages)]
pub struct NewMessage<'a> {
    pub game_id: Uuid,
    pub from_seat: i32,
    pub from_user: Uuid,
    pub to_seat: Option<i32>,
    pub to_user: Option<Uuid>,
    pub body: &'a str,
    pub created_at: DateTime<Utc>,
}

pub async fn insert(conn: &mut Conn, new: NewMessage<'_>) -> QueryResult<Message> {
    diesel::insert_into(messages::table)
        .values(new)
        .returning(Message::as_returning())
        .get_result(conn)
        .await
}

/// Locks the sender's seat row for the rest of the transaction, so that two messages from
/// one seat are counted against the rate limit one after the other (a turn is not held up:
/// it locks the game row).
pub async fn lock_sender(conn: &mut Conn, game: Uuid, seat: i32) -> QueryResult<()> {
    seats::table
        .filter(seats::game_id.eq(game))
        .filter(seats::seat.eq(seat))
        .select(seats::seat)
        .for_no_key_update()
        .first::<i32>(conn)
        .await
        .map(|_| ())
}

/// When `user` sent their latest messages in `game` since `since`: at most `limit`, newest
/// first (what the rate limit needs).
pub async fn sent_since(
    conn: &mut Conn,
    game: Uuid,
    user: Uuid,
    since: DateTime<Utc>,
    limit: i64,
) -> QueryResult<Vec<DateTime<Utc>>> {
    messages::table
        .filter(messages::game_id.eq(game))
        .filter(messages::from_user.eq(user))
        .filter(messages::created_at.gt(since))
        .order(messages::created_at.desc())
        .limit(limit)
        .select(messages::created_at)
        .load(conn)
        .await
}

/// The messages of `game` that `user` may read, after the message `after`, oldest first,
/// with their senders' names.
pub async fn page_for(
    conn: &mut Conn,
    game: Uuid,
    user: Uuid,
    after: i64,
    limit: i64,
) -> QueryResult<Vec<(Message, String)>> {
    messages::table
        .inner_join(users::table.on(users::id.eq(messages::from_user)))
        .filter(messages::game_id.eq(game))
        .filter(messages::id.gt(after))
        .filter(
            messages::to_user
                .is_null()
                .or(messages::from_user.eq(user))
                .or(messages::to_user.eq(user)),
        )
        .order(messages::id.asc())
        .limit(limit)
        .select((Message::as_select(), users::display_name))
        .load(conn)
        .await
}

/// The latest `limit` messages of a game that `user` may read (sent by them, to them, or to
/// the whole table), newest first, each with its sender's name.
pub async fn latest_for(
    conn: &mut Conn,
    game: Uuid,
    user: Uuid,
    limit: i64,
) -> QueryResult<Vec<(Message, String)>> {
    messages::table
        .inner_join(users::table.on(users::id.eq(messages::from_user)))
        .filter(messages::game_id.eq(game))
        .filter(
            messages::to_user
                .is_null()
                .or(messages::from_user.eq(user))
                .or(messages::to_user.eq(user)),
        )
        .order(messages::id.desc())
        .limit(limit)
        .select((Message::as_select(), users::display_name))
        .load(conn)
        .await
}

/// One message with its sender's name (for the mail that relays it).
pub async fn get(conn: &mut Conn, game: Uuid, id: i64) -> QueryResult<Option<(Message, String)>> {
    messages::table
        .inner_join(users::table.on(users::id.eq(messages::from_user)))
        .filter(messages::game_id.eq(game))
        .filter(messages::id.eq(id))
        .select((Message::as_select(), users::display_name))
        .first(conn)
        .await
        .optional()
}

/// Whether `from_user` wrote privately from `from_seat` to `to_user` in `game`.
pub async fn has_written(
    conn: &mut Conn,
    game: Uuid,
    from_user: Uuid,
    from_seat: i32,
    to_user: Uuid,
) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        messages::table
            .filter(messages::game_id.eq(game))
            .filter(messages::from_user.eq(from_user))
            .filter(messages::from_seat.eq(from_seat))
            .filter(messages::to_user.eq(to_user)),
    ))
    .get_result(conn)
    .await
}
