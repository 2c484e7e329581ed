//! Games and their seats.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::Conn;
use super::models::{
    Event, Game, GameUpdate, JsonText, NewGame, NewOutbox, Seat, SeatPlayer, User,
};
use super::schema::{games, seats, users};

pub async fn insert(conn: &mut Conn, new: NewGame<'_>) -> QueryResult<Game> {
    diesel::insert_into(games::table)
        .values(new)
        .returning(Game::as_returning())
        .get_result(conn)
        .await
}

pub async fn get(conn: &mut Conn, id: Uuid) -> QueryResult<Option<Game>> {
    games::table
        .find(id)
        .select(Game::as_select())
        .first(conn)
        .await
        .optional()
}

/// The id of every game, in order.
pub async fn all_ids(conn: &mut Conn) -> QueryResult<Vec<Uuid>> {
    games::table
        .select(games::id)
        .order(games::id)
        .load(conn)
        .await
}

/// The game row and its seated players by seat, in one pipelined round trip (two reads,
/// each with its own snapshot, as two statements one after the other would be).
pub async fn get_with_players(
    conn: &mut Conn,
    id: Uuid,
) -> QueryResult<Option<(Game, Vec<SeatPlayer>)>> {
    let shared: &Conn = conn;
    let game = games::table
        .find(id)
        .select(Game::as_select())
        .first::<Game>(&mut &*shared);
    let players = seat_players_query(id).load::<SeatRow>(&mut &*shared);
    let (game, players) = futures_util::future::join(game, players).await;
    let Some(game) = game.optional()? else {
        return Ok(None);
    };
    Ok(Some((
        game,
        players?.into_iter().map(seat_player).collect(),
    )))
}

/// The game row, locked for the rest of the transaction (`SELECT … FOR UPDATE`): every
/// change to a game goes through this lock, so submissions to one game are serialised.
/// Who each of these games waits for: `(id, status, version, to_act)` (the outbox worker's
/// check, for a whole batch at once, of which turn mails are still wanted).
pub async fn waits(
    conn: &mut Conn,
    ids: &[Uuid],
) -> QueryResult<Vec<(Uuid, String, i64, Vec<i32>)>> {
    games::table
        .filter(games::id.eq_any(ids))
        .select((games::id, games::status, games::version, games::to_act))
        .load(conn)
        .await
}

pub async fn lock(conn: &mut Conn, id: Uuid) -> QueryResult<Option<Game>> {
    games::table
        .find(id)
        .select(Game::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()
}

/// The game row locked `FOR UPDATE`, its seated players by seat and their accounts, in one
/// pipelined round trip (the seats query runs after the lock, in the same transaction).
pub async fn lock_with_players(
    conn: &mut Conn,
    id: Uuid,
) -> QueryResult<Option<(Game, Vec<SeatPlayer>, Vec<User>)>> {
    let shared: &Conn = conn;
    let game = games::table
        .find(id)
        .select(Game::as_select())
        .for_update()
        .first::<Game>(&mut &*shared);
    let seated = seats::table
        .inner_join(users::table)
        .filter(seats::game_id.eq(id))
        .order(seats::seat.asc())
        .select((seats::seat, seats::standing_orders, User::as_select()))
        .load::<(i32, Vec<String>, User)>(&mut &*shared);
    let (game, seated) = futures_util::future::join(game, seated).await;
    with_users(game, seated)
}

/// The game row, its seated players by seat and their accounts, in one pipelined round trip
/// and without a lock: for a turn written with `save_turn`'s version check.
pub async fn read_with_players(
    conn: &mut Conn,
    id: Uuid,
) -> QueryResult<Option<(Game, Vec<SeatPlayer>, Vec<User>)>> {
    let shared: &Conn = conn;
    let game = games::table
        .find(id)
        .select(Game::as_select())
        .first::<Game>(&mut &*shared);
    let seated = seats::table
        .inner_join(users::table)
        .filter(seats::game_id.eq(id))
        .order(seats::seat.asc())
        .select((seats::seat, seats::standing_orders, User::as_select()))
        .load::<(i32, Vec<String>, User)>(&mut &*shared);
    let (game, seated) = futures_util::future::join(game, seated).await;
    with_users(game, seated)
}

#[allow(clippy::type_complexity)]
fn with_users(
    game: QueryResult<Game>,
    seated: QueryResult<Vec<(i32, Vec<String>, User)>>,
) -> QueryResult<Option<(Game, Vec<SeatPlayer>, Vec<User>)>> {
    let Some(game) = game.optional()? else {
        return Ok(None);
    };
    let (players, users) = seated?
        .into_iter()
        .map(|(seat, orders, user)| {
            let player = SeatPlayer {
                seat,
                user_id: user.id,
                display_name: user.display_name.clone(),
                vacation: user.vacation_from.zip(user.vacation_until),
                orders,
            };
            (player, user)
        })
        .unzip();
    Ok(Some((game, players, users)))
}

/// The SQL functions of the migrations (diesel's generated wrappers take one argument per
/// parameter).
#[allow(clippy::too_many_arguments)]
mod sql {
    diesel::define_sql_function! {
        /// migrations/2026-11-24-000002_optimistic_turn, 2026-11-29-000050_notify_after_commit
        /// and 2026-12-01-000019_webhooks: a turn's game row (if it is still at version
        /// `expected`), entries, outbox rows, webhook deliveries and, when `channel` is not
        /// NULL, `NOTIFY`; false, writing nothing, if the row is gone or at another version.
        fn turnpost_save_turn(
            game: diesel::sql_types::Uuid,
            expected: diesel::sql_types::BigInt,
            entries: diesel::sql_types::Text,
            status: diesel::sql_types::Text,
            version: diesel::sql_types::BigInt,
            state: diesel::sql_types::Nullable<diesel::sql_types::Jsonb>,
            to_act: diesel::sql_types::Array<diesel::sql_types::Integer>,
            outcome: diesel::sql_types::Nullable<diesel::sql_types::Jsonb>,
            updated_at: diesel::sql_types::Timestamptz,
            waiting_since: diesel::sql_types::Nullable<diesel::sql_types::Timestamptz>,
            mail: diesel::sql_types::Text,
            channel: diesel::sql_types::Nullable<diesel::sql_types::Text>,
            payload: diesel::sql_types::Text,
            hooks: diesel::sql_types::Text,
        ) -> diesel::sql_types::Bool;
    }
}
use sql::turnpost_save_turn;

/// The writes of one turn in one statement (a call of `turnpost_save_turn`, which diesel
/// prepares once per connection): the game row (`change`, with `state` as its snapshot: the
/// snapshot is written as text, and `change.state` is not read), if it is still at version
/// `expected`, then
/// the new log entries, the outbox rows, the webhook deliveries of `hooks` (a JSON array for
/// `turnpost_queue_webhooks`: one INSERT when it is not empty), and, when `channel` is given,
/// a `NOTIFY` on it that
/// PostgreSQL delivers when (and only if) the transaction commits. `Ok(false)`, with nothing
/// written, when the game is gone or another turn was committed since `expected`. One
/// statement is one atomic transaction, so a caller outside a transaction needs no lock (and
/// announces the turn itself after it: see `service::announce`).
#[allow(clippy::too_many_arguments)]
pub async fn save_turn(
    conn: &mut Conn,
    id: Uuid,
    expected: i64,
    entries: &[Event],
    change: GameUpdate<'_>,
    state: &JsonText,
    mail: &[NewOutbox],
    channel: Option<&str>,
    payload: &str,
    hooks: &str,
) -> QueryResult<bool> {
    let json = |e: serde_json::Error| diesel::result::Error::SerializationError(Box::new(e));
    let entries = serde_json::to_string(entries).map_err(json)?;
    let mail = serde_json::to_string(mail).map_err(json)?;
    diesel::select(turnpost_save_turn(
        id,
        expected,
        entries,
        change.status,
        change.version,
        Some(state),
        change.to_act,
        change.outcome,
        change.updated_at,
        change.waiting_since,
        mail,
        channel,
        payload,
        hooks,
    ))
    .get_result::<bool>(conn)
    .await
}

pub async fn update(conn: &mut Conn, id: Uuid, change: GameUpdate<'_>) -> QueryResult<()> {
    diesel::update(games::table.find(id))
        .set(change)
        .execute(conn)
        .await
        .map(|_| ())
}

pub async fn insert_seat(conn: &mut Conn, seat: Seat) -> QueryResult<()> {
    diesel::insert_into(seats::table)
        .values(seat)
        .execute(conn)
        .await
        .map(|_| ())
}

/// Taken seats of a game with their players' names, by seat number.
pub async fn seat_players(conn: &mut Conn, game: Uuid) -> QueryResult<Vec<SeatPlayer>> {
    let rows = seat_players_query(game).load::<SeatRow>(conn).await?;
    Ok(rows.into_iter().map(seat_player).collect())
}

type SeatPlayersQuery = diesel::dsl::Select<
    diesel::dsl::Order<
        diesel::dsl::Filter<
            diesel::dsl::InnerJoin<seats::table, users::table>,
            diesel::dsl::Eq<seats::game_id, Uuid>,
        >,
        diesel::dsl::Asc<seats::seat>,
    >,
    (
        seats::seat,
        seats::user_id,
        users::display_name,
        users::vacation_from,
        users::vacation_until,
        seats::standing_orders,
    ),
>;

type Instant = chrono::DateTime<chrono::Utc>;
type SeatRow = (
    i32,
    Uuid,
    String,
    Option<Instant>,
    Option<Instant>,
    Vec<String>,
);

fn seat_players_query(game: Uuid) -> SeatPlayersQuery {
    seats::table
        .inner_join(users::table)
        .filter(seats::game_id.eq(game))
        .order(seats::seat.asc())
        .select((
            seats::seat,
            seats::user_id,
            users::display_name,
            users::vacation_from,
            users::vacation_until,
            seats::standing_orders,
        ))
}

fn seat_player((seat, user_id, display_name, from, until, orders): SeatRow) -> SeatPlayer {
    SeatPlayer {
        seat,
        user_id,
        display_name,
        vacation: from.zip(until),
        orders,
    }
}

/// Seat players for many games at once (for lists), grouped by game.
/// A [`SeatRow`] with its game first.
type GameSeatRow = (
    Uuid,
    i32,
    Uuid,
    String,
    Option<Instant>,
    Option<Instant>,
    Vec<String>,
);

pub async fn seat_players_of(
    conn: &mut Conn,
    game_ids: &[Uuid],
) -> QueryResult<Vec<(Uuid, SeatPlayer)>> {
    let rows: Vec<GameSeatRow> = seats::table
        .inner_join(users::table)
        .filter(seats::game_id.eq_any(game_ids))
        .order((seats::game_id, seats::seat.asc()))
        .select((
            seats::game_id,
            seats::seat,
            seats::user_id,
            users::display_name,
            users::vacation_from,
            users::vacation_until,
            seats::standing_orders,
        ))
        .load(conn)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(g, seat, user_id, name, from, until, orders)| {
            (g, seat_player((seat, user_id, name, from, until, orders)))
        })
        .collect())
}

/// Open games, and active games with a seat to take over (its player is absent or resigned),
/// oldest first, after the cursor `(created_at, id)`.
pub async fn list_open(
    conn: &mut Conn,
    after: Option<(chrono::DateTime<chrono::Utc>, Uuid)>,
    limit: i64,
) -> QueryResult<Vec<Game>> {
    use diesel::dsl::sql;
    use diesel::sql_types::Bool;
    let mut query = games::table
        .filter(sql::<Bool>(
            "(games.status = 'open' OR (games.status = 'active' AND EXISTS (SELECT 1 FROM seats s \
             WHERE s.game_id = games.id AND (s.absent_since IS NOT NULL OR s.resigned_at IS NOT NULL))))",
        ))
        .order((games::created_at.asc(), games::id.asc()))
        .select(Game::as_select())
        .limit(limit)
        .into_boxed();
    if let Some((at, id)) = after {
        query = query.filter(
            games::created_at
                .gt(at)
                .or(games::created_at.eq(at).and(games::id.gt(id))),
        );
    }
    query.load(conn).await
}

/// Games in which `user` holds a seat, newest first (by creation, then id: keys that never
/// change, so walking the pages skips and repeats nothing), of these statuses (all when
/// empty), `limit` at most, after the cursor `(created_at, id)`.
pub async fn of_user(
    conn: &mut Conn,
    user: Uuid,
    statuses: &[&str],
    before: Option<(chrono::DateTime<chrono::Utc>, Uuid)>,
    limit: i64,
) -> QueryResult<Vec<Game>> {
    let mut query = games::table
        .inner_join(seats::table)
        .filter(seats::user_id.eq(user))
        .order((games::created_at.desc(), games::id.desc()))
        .select(Game::as_select())
        .limit(limit)
        .into_boxed();
    if !statuses.is_empty() {
        query = query.filter(games::status.eq_any(statuses.to_vec()));
    }
    if let Some((at, id)) = before {
        query = query.filter(
            games::created_at
                .lt(at)
                .or(games::created_at.eq(at).and(games::id.lt(id))),
        );
    }
    query.load(conn).await
}

/// The time an active game has been waiting on its seats since (its creation if unknown):
/// the sort key of [`waiting_on`].
pub const WAITING_KEY: &str = "COALESCE(games.waiting_since, games.created_at)";

/// Active games waiting on `user`, longest wait first, `limit` at most, after the cursor
/// `(waiting key, id)`.
pub async fn waiting_on(
    conn: &mut Conn,
    user: Uuid,
    after: Option<(chrono::DateTime<chrono::Utc>, Uuid)>,
    limit: i64,
) -> QueryResult<Vec<Game>> {
    use diesel::dsl::sql;
    use diesel::sql_types::{Bool, Timestamptz};
    let mut query = games::table
        .inner_join(seats::table)
        .filter(seats::user_id.eq(user))
        .filter(games::status.eq("active"))
        .filter(sql::<Bool>("seats.seat = ANY(games.to_act)"))
        .order((sql::<Timestamptz>(WAITING_KEY).asc(), games::id.asc()))
        .select(Game::as_select())
        .limit(limit)
        .into_boxed();
    if let Some((at, id)) = after {
        query = query.filter(
            sql::<Bool>(&format!("({WAITING_KEY}, games.id) > ("))
                .bind::<Timestamptz, _>(at)
                .sql(", ")
                .bind::<diesel::sql_types::Uuid, _>(id)
                .sql(")"),
        );
    }
    query.load(conn).await
}

/// Announces a new version of a game on the `turnpost_games` channel (delivered at commit).
pub async fn notify(conn: &mut Conn, game: Uuid, version: i64) -> QueryResult<()> {
    diesel::sql_query("SELECT pg_notify('turnpost_games', $1)")
        .bind::<diesel::sql_types::Text, _>(format!("{game}:{version}"))
        .execute(conn)
        .await
        .map(|_| ())
}

/// What an account's event stream needs of one of its games (no state, no seed).
#[derive(Debug, Clone, Queryable)]
pub struct GameMark {
    pub id: Uuid,
    pub ruleset: String,
    pub status: String,
    pub version: i64,
    pub to_act: Vec<i32>,
    pub outcome: Option<serde_json::Value>,
    pub updated_at: chrono::DateTime<chrono::Utc>,
    /// The account's seat in it.
    pub seat: i32,
}

/// `user`'s games that are open or running, and those that ended after `ended_after`.
pub async fn marks_of_user(
    conn: &mut Conn,
    user: Uuid,
    ended_after: chrono::DateTime<chrono::Utc>,
) -> QueryResult<Vec<GameMark>> {
    games::table
        .inner_join(seats::table)
        .filter(seats::user_id.eq(user))
        .filter(
            games::status
                .eq_any(["open", "active"])
                .or(games::updated_at.gt(ended_after)),
        )
        .order((games::updated_at.asc(), games::id.asc()))
        .select((
            games::id,
            games::ruleset,
            games::status,
            games::version,
            games::to_act,
            games::outcome,
            games::updated_at,
            seats::seat,
        ))
        .load(conn)
        .await
}

/// A game's status, and whether `user` holds a seat in it; `None` for no such game.
pub async fn seated(
    conn: &mut Conn,
    game: Uuid,
    user: Uuid,
) -> QueryResult<Option<(String, bool)>> {
    use diesel::dsl::exists;
    games::table
        .find(game)
        .select((
            games::status,
            exists(
                seats::table
                    .filter(seats::game_id.eq(game))
                    .filter(seats::user_id.eq(user)),
            ),
        ))
        .first(conn)
        .await
        .optional()
}

/// Sets the standing orders of `seat` in `game` (ids of its ruleset's standing orders).
pub async fn set_standing_orders(
    conn: &mut Conn,
    game: Uuid,
    seat: i32,
    orders: &[String],
) -> QueryResult<usize> {
    diesel::update(seats::table.find((game, seat)))
        .set(seats::standing_orders.eq(orders))
        .execute(conn)
        .await
}
