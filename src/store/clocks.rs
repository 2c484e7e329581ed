//! Deadlines of waiting seats, and the seat state clocks and absences keep (issue 16).

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::Conn;
use super::schema::{deadlines, games, seats, users};

/// The deadline of one waiting seat.
#[derive(Clone, Debug, PartialEq, Queryable, Selectable, Insertable)]
#[diesel(table_name = deadlines)]
pub struct Deadline {
    pub game_id: Uuid,
    pub seat: i32,
    pub started_at: DateTime<Utc>,
    pub due_at: DateTime<Utc>,
    pub remind_at: Option<DateTime<Utc>>,
}

/// What clocks and absences keep per seat.
#[derive(Clone, Debug, PartialEq, Queryable, Selectable)]
#[diesel(table_name = seats)]
pub struct SeatClock {
    pub seat: i32,
    pub user_id: Uuid,
    pub timeouts: i32,
    pub absent_since: Option<DateTime<Utc>>,
    pub resigned_at: Option<DateTime<Utc>>,
    pub bank_secs: Option<i64>,
    pub abort_vote: bool,
}

pub async fn deadlines_of(conn: &mut Conn, game: Uuid) -> QueryResult<Vec<Deadline>> {
    deadlines::table
        .filter(deadlines::game_id.eq(game))
        .order(deadlines::seat.asc())
        .select(Deadline::as_select())
        .load(conn)
        .await
}

/// Deadlines of many games (for lists and views).
pub async fn deadlines_in(conn: &mut Conn, games: &[Uuid]) -> QueryResult<Vec<Deadline>> {
    deadlines::table
        .filter(deadlines::game_id.eq_any(games))
        .order((deadlines::game_id, deadlines::seat.asc()))
        .select(Deadline::as_select())
        .load(conn)
        .await
}

pub async fn seat_clocks(conn: &mut Conn, game: Uuid) -> QueryResult<Vec<SeatClock>> {
    seats::table
        .filter(seats::game_id.eq(game))
        .order(seats::seat.asc())
        .select(SeatClock::as_select())
        .load(conn)
        .await
}

/// Removes the deadlines of `seats` and writes `rows` in their place.
pub async fn replace(
    conn: &mut Conn,
    game: Uuid,
    seats: &[i32],
    rows: &[Deadline],
) -> QueryResult<()> {
    if !seats.is_empty() {
        diesel::delete(
            deadlines::table
                .filter(deadlines::game_id.eq(game))
                .filter(deadlines::seat.eq_any(seats)),
        )
        .execute(conn)
        .await?;
    }
    if !rows.is_empty() {
        diesel::insert_into(deadlines::table)
            .values(rows)
            .execute(conn)
            .await?;
    }
    Ok(())
}

pub async fn clear(conn: &mut Conn, game: Uuid) -> QueryResult<()> {
    diesel::delete(deadlines::table.filter(deadlines::game_id.eq(game)))
        .execute(conn)
        .await
        .map(|_| ())
}

pub async fn set_remind_at(
    conn: &mut Conn,
    game: Uuid,
    seat: i32,
    at: Option<DateTime<Utc>>,
) -> QueryResult<()> {
    diesel::update(deadlines::table.find((game, seat)))
        .set(deadlines::remind_at.eq(at))
        .execute(conn)
        .await
        .map(|_| ())
}

pub async fn set_due_at(
    conn: &mut Conn,
    game: Uuid,
    seat: i32,
    due: DateTime<Utc>,
    remind: Option<DateTime<Utc>>,
) -> QueryResult<()> {
    diesel::update(deadlines::table.find((game, seat)))
        .set((deadlines::due_at.eq(due), deadlines::remind_at.eq(remind)))
        .execute(conn)
        .await
        .map(|_| ())
}

/// Writes a seat's clock state.
pub async fn save_seat(conn: &mut Conn, game: Uuid, s: &SeatClock) -> QueryResult<()> {
    diesel::update(seats::table.find((game, s.seat)))
        .set((
            seats::user_id.eq(s.user_id),
            seats::timeouts.eq(s.timeouts),
            seats::absent_since.eq(s.absent_since),
            seats::resigned_at.eq(s.resigned_at),
            seats::bank_secs.eq(s.bank_secs),
            seats::abort_vote.eq(s.abort_vote),
        ))
        .execute(conn)
        .await
        .map(|_| ())
}

pub async fn set_robots(conn: &mut Conn, game: Uuid, robots: &[i32]) -> QueryResult<()> {
    diesel::update(games::table.find(game))
        .set(games::robots.eq(robots))
        .execute(conn)
        .await
        .map(|_| ())
}

/// Games with a deadline or a reminder due at `now`, soonest first (unlocked: the worker then
/// claims each game with [`claim`]).
pub async fn due_games(conn: &mut Conn, now: DateTime<Utc>, limit: i64) -> QueryResult<Vec<Uuid>> {
    let mut ids: Vec<(Uuid, DateTime<Utc>)> = deadlines::table
        .filter(deadlines::due_at.le(now))
        .order(deadlines::due_at.asc())
        .select((deadlines::game_id, deadlines::due_at))
        .limit(limit)
        .load(conn)
        .await?;
    let reminders: Vec<(Uuid, Option<DateTime<Utc>>)> = deadlines::table
        .filter(deadlines::remind_at.le(now))
        .order(deadlines::remind_at.asc())
        .select((deadlines::game_id, deadlines::remind_at))
        .limit(limit)
        .load(conn)
        .await?;
    ids.extend(reminders.into_iter().filter_map(|(g, at)| Some((g, at?))));
    ids.sort_by_key(|(_, at)| *at);
    let mut out: Vec<Uuid> = vec![];
    for (g, _) in ids {
        if !out.contains(&g) {
            out.push(g);
        }
    }
    Ok(out)
}

/// Locks the game row unless another worker or a submission holds it
/// (`FOR UPDATE SKIP LOCKED`): true when this transaction now holds it.
pub async fn claim(conn: &mut Conn, game: Uuid) -> QueryResult<bool> {
    let got: Option<Uuid> = games::table
        .find(game)
        .select(games::id)
        .for_update()
        .skip_locked()
        .first(conn)
        .await
        .optional()?;
    Ok(got.is_some())
}

/// A user's vacation, if set.
pub async fn vacation(
    conn: &mut Conn,
    user: Uuid,
) -> QueryResult<
    Option<(
        Option<DateTime<Utc>>,
        Option<DateTime<Utc>>,
        Option<i32>,
        i32,
    )>,
> {
    users::table
        .find(user)
        .select((
            users::vacation_from,
            users::vacation_until,
            users::vacation_year,
            users::vacation_days,
        ))
        .first(conn)
        .await
        .optional()
}

pub async fn set_vacation(
    conn: &mut Conn,
    user: Uuid,
    from: Option<DateTime<Utc>>,
    until: Option<DateTime<Utc>>,
    year: Option<i32>,
    days: i32,
) -> QueryResult<()> {
    diesel::update(users::table.find(user))
        .set((
            users::vacation_from.eq(from),
            users::vacation_until.eq(until),
            users::vacation_year.eq(year),
            users::vacation_days.eq(days),
        ))
        .execute(conn)
        .await
        .map(|_| ())
}

/// The waiting deadlines of a user's seats in active games (to move them for a vacation).
pub async fn deadlines_of_user(conn: &mut Conn, user: Uuid) -> QueryResult<Vec<Deadline>> {
    deadlines::table
        .inner_join(
            seats::table.on(seats::game_id
                .eq(deadlines::game_id)
                .and(seats::seat.eq(deadlines::seat))),
        )
        .filter(seats::user_id.eq(user))
        .select(Deadline::as_select())
        .load(conn)
        .await
}
