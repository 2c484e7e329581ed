//! What players do with their seats besides playing: come back after an absence, resign, vote
//! to abort, take over a seat someone left, and go on vacation (issue 16). Each is one
//! transaction under the game's row lock, logged as a lifecycle entry everyone sees.

use chrono::{DateTime, Datelike, Duration, Utc};
use diesel_async::AsyncConnection;
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;
use uuid::Uuid;

use super::deadlines::{ClockSettings, due_at};
use super::game_views::{deadlines_of, game_view_with, seat_of};
use super::submit::{Play, lifecycle_event};
use super::views::{GameView, Vacation};
use super::{Result, ServiceError, Services};
use crate::notify::{Answer, Compose, Notice, Show};
use crate::rules::Outcome;
use crate::store::clocks::{self as store_clocks, SeatClock};
use crate::store::models::{EventKind, Game, GameStatus, GameUpdate, SeatPlayer, User};
use crate::store::{self, Conn};

/// Vacation days a player may take per calendar year.
pub const VACATION_DAYS_PER_YEAR: i32 = 30;

type Locked = (Game, Vec<SeatPlayer>, Vec<User>);

/// The locked, active game with its players, and the caller's seat in it.
async fn lock_seat(conn: &mut Conn, user: Uuid, game_id: Uuid) -> Result<(Locked, i32)> {
    let locked = store::games::lock_with_players(conn, game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    let seat = seat_of(&locked.1, user).ok_or(ServiceError::NotAPlayer)?;
    if locked.0.status() != GameStatus::Active {
        return Err(ServiceError::WrongStatus(locked.0.status.clone()));
    }
    Ok((locked, seat))
}

/// The game as answered after a change.
async fn answer(conn: &mut Conn, game: &Game) -> Result<GameView> {
    let players = store::games::seat_players(conn, game.id).await?;
    let deadlines = deadlines_of(conn, game).await?;
    Ok(game_view_with(game, &players, &deadlines))
}

fn name_of(players: &[SeatPlayer], seat: i32) -> String {
    players
        .iter()
        .find(|p| p.seat == seat)
        .map_or_else(|| format!("Seat {seat}"), |p| p.display_name.clone())
}

fn seat_clock(seats: &mut [SeatClock], seat: i32) -> Result<&mut SeatClock> {
    seats
        .iter_mut()
        .find(|s| s.seat == seat)
        .ok_or(ServiceError::NotAPlayer)
}

/// A play that changes no rules state: lifecycle entries, then the bot's decisions for the
/// seats it now plays, committed like a turn.
fn lifecycle_play(svc: &Services, game: &Game, players: &[SeatPlayer]) -> Result<Play> {
    let snapshot = game.state.as_ref().ok_or_else(|| {
        ServiceError::Unexpected(anyhow::anyhow!("active game without a snapshot"))
    })?;
    let state = svc.load_state(game, snapshot)?;
    Ok(Play::new(game, state, game.version + 1, svc.clock.now()).with_orders(players))
}

async fn set_robots(conn: &mut Conn, game: &mut Game, robots: Vec<i32>) -> Result<()> {
    let mut robots = robots;
    robots.sort_unstable();
    robots.dedup();
    store_clocks::set_robots(conn, game.id, &robots).await?;
    game.robots = robots;
    Ok(())
}

/// `POST /v1/games/{id}/back`: a player marked absent plays their own seat again.
pub async fn back(svc: &Services, user: Uuid, game_id: Uuid) -> Result<GameView> {
    let mut conn = svc.conn().await?;
    back_in(svc, &mut conn, user, game_id).await
}

/// [`back`] on `conn` (in a savepoint when it is already in a transaction: a reply by mail).
pub async fn back_in(
    svc: &Services,
    conn: &mut Conn,
    user: Uuid,
    game_id: Uuid,
) -> Result<GameView> {
    conn.transaction::<_, ServiceError, _>(async |conn| {
        let ((mut game, players, users), seat) = lock_seat(conn, user, game_id).await?;
        let (game, players, users) = (&mut game, &players[..], &users[..]);
        let mut seats = store_clocks::seat_clocks(conn, game.id).await?;
        let sc = seat_clock(&mut seats, seat)?;
        if sc.absent_since.is_none() {
            return Err(ServiceError::NotNow(
                "you are not marked absent in this game: your seat is yours to play".into(),
            ));
        }
        sc.absent_since = None;
        sc.timeouts = 0;
        store_clocks::save_seat(conn, game.id, sc).await?;
        let resigned = sc.resigned_at.is_some();
        if !resigned {
            let robots = game.robots.iter().copied().filter(|s| *s != seat).collect();
            set_robots(conn, game, robots).await?;
        }
        let mut play = lifecycle_play(svc, game, players)?;
        play.log(
            EventKind::Back,
            json!({"seat": seat}),
            format!(
                "{} is back and plays their own seat again",
                name_of(players, seat)
            ),
        );
        let before = game.to_act.clone();
        play.commit(svc, conn, game, &before, players, users, vec![])
            .await?;
        answer(conn, game).await
    })
    .await
}

/// `POST /v1/games/{id}/resign`: in a two-seat game the other player wins; otherwise the bot
/// plays the seat to the end.
pub async fn resign(svc: &Services, user: Uuid, game_id: Uuid) -> Result<GameView> {
    let mut conn = svc.conn().await?;
    resign_in(svc, &mut conn, user, game_id).await
}

/// [`resign`] on `conn` (in a savepoint when it is already in a transaction: a reply by mail).
pub async fn resign_in(
    svc: &Services,
    conn: &mut Conn,
    user: Uuid,
    game_id: Uuid,
) -> Result<GameView> {
    conn.transaction::<_, ServiceError, _>(async |conn| {
        let ((mut game, players, users), seat) = lock_seat(conn, user, game_id).await?;
        let (game, players, users) = (&mut game, &players[..], &users[..]);
        let mut seats = store_clocks::seat_clocks(conn, game.id).await?;
        let now = svc.clock.now();
        let sc = seat_clock(&mut seats, seat)?;
        if sc.resigned_at.is_some() {
            return Err(ServiceError::NotNow(
                "you have already resigned from this game".into(),
            ));
        }
        sc.resigned_at = Some(now);
        store_clocks::save_seat(conn, game.id, sc).await?;
        let name = name_of(players, seat);
        let mut play = lifecycle_play(svc, game, players)?;
        if game.seat_count == 2 {
            let other = 1 - seat;
            let winner = name_of(players, other);
            play.log(
                EventKind::Resigned,
                json!({"seat": seat}),
                format!("{name} resigned: {winner} wins"),
            );
            play.ended = Some(Outcome {
                winners: vec![usize::try_from(other).unwrap_or(0)],
                scores: None,
                summary: format!("{name} resigned; {winner} wins"),
            });
        } else {
            play.log(
                EventKind::Resigned,
                json!({"seat": seat}),
                format!("{name} resigned: the bot plays their seat to the end of the game"),
            );
            let mut robots = game.robots.clone();
            robots.push(seat);
            set_robots(conn, game, robots).await?;
            play.run_robots(&game.robots)?;
        }
        let before = game.to_act.clone();
        play.commit(svc, conn, game, &before, players, users, vec![])
            .await?;
        answer(conn, game).await
    })
    .await
}

/// `POST /v1/games/{id}/abort`: the caller votes to abort; when every player still in the
/// game (not a bot, not resigned) has voted, the game is abandoned.
pub async fn abort(svc: &Services, user: Uuid, game_id: Uuid) -> Result<GameView> {
    let mut conn = svc.conn().await?;
    abort_in(svc, &mut conn, user, game_id).await
}

/// [`abort`] on `conn` (in a savepoint when it is already in a transaction: a reply by mail).
pub async fn abort_in(
    svc: &Services,
    conn: &mut Conn,
    user: Uuid,
    game_id: Uuid,
) -> Result<GameView> {
    conn.transaction::<_, ServiceError, _>(async |conn| {
        let ((mut game, players, users), seat) = lock_seat(conn, user, game_id).await?;
        let (game, players, users) = (&mut game, &players[..], &users[..]);
        let mut seats = store_clocks::seat_clocks(conn, game.id).await?;
        let sc = seat_clock(&mut seats, seat)?;
        if sc.abort_vote {
            return Err(ServiceError::NotNow(
                "you have already voted to abort this game".into(),
            ));
        }
        sc.abort_vote = true;
        store_clocks::save_seat(conn, game.id, sc).await?;
        let now = svc.clock.now();
        let name = name_of(players, seat);
        let voters: Vec<&SeatClock> = seats
            .iter()
            .filter(|s| s.resigned_at.is_none())
            .filter(|s| users.iter().any(|u| u.id == s.user_id && !u.is_bot))
            .collect();
        let all = voters.iter().all(|s| s.abort_vote);
        let mut entries = vec![lifecycle_event(
            game,
            game.version + 1,
            now,
            EventKind::AbortVote,
            json!({"seat": seat}),
            format!(
                "{name} votes to abort the game ({} of {} votes)",
                voters.iter().filter(|s| s.abort_vote).count(),
                voters.len()
            ),
        )];
        let status = if all {
            entries.push(lifecycle_event(
                game,
                game.version + 2,
                now,
                EventKind::Aborted,
                json!({"seed": hex::encode(&game.seed)}),
                "Every player voted to abort: the game is abandoned".into(),
            ));
            store_clocks::clear(conn, game.id).await?;
            GameStatus::Abandoned
        } else {
            GameStatus::Active
        };
        store::events::append(conn, &entries).await?;
        let version = game.version + i64::try_from(entries.len()).unwrap_or(1);
        let to_act = if all { vec![] } else { game.to_act.clone() };
        store::games::update(
            conn,
            game.id,
            GameUpdate {
                status: status.as_str(),
                version,
                state: game.state.as_ref(),
                to_act: &to_act,
                outcome: None,
                updated_at: now,
                waiting_since: if all { None } else { game.waiting_since },
            },
        )
        .await?;
        store::games::notify(conn, game.id, version).await?;
        if all {
            let notices: Vec<(i32, Compose)> = players
                .iter()
                .map(|p| (p.seat, Compose::notice(p.seat, Notice::GameOver)))
                .collect();
            game.status = status.as_str().into();
            game.to_act = to_act;
            game.version = version;
            game.outcome = None;
            let mail = super::mail::game_mail(svc, game, players, users, &notices)?;
            store::outbox::enqueue(conn, &mail).await?;
            let hooks = super::webhooks::events_json(game, players, &notices, now)?;
            store::webhooks::queue(conn, &hooks).await?;
        }
        game.status = status.as_str().into();
        game.version = version;
        game.updated_at = now;
        answer(conn, game).await
    })
    .await
}

/// `POST /v1/games/{id}/seats/{seat}/take-over`: the caller takes a seat whose player is absent
/// or resigned, and plays it from now on, with that seat's view (never more of the log than
/// the seat saw).
pub async fn take_over(svc: &Services, user: Uuid, game_id: Uuid, seat: i64) -> Result<GameView> {
    let mut conn = svc.conn().await?;
    conn.transaction::<_, ServiceError, _>(async |conn| {
        let (mut game, players, _) = store::games::lock_with_players(conn, game_id)
            .await?
            .ok_or(ServiceError::NotFound("game"))?;
        if game.status() != GameStatus::Active {
            return Err(ServiceError::WrongStatus(game.status.clone()));
        }
        if seat_of(&players, user).is_some() {
            return Err(ServiceError::SeatUnavailable(
                "you already hold a seat in this game".into(),
            ));
        }
        let seat = i32::try_from(seat)
            .ok()
            .filter(|s| (0..game.seat_count).contains(s))
            .ok_or_else(|| {
                ServiceError::Invalid(format!(
                    "seat must be between 0 and {}",
                    game.seat_count - 1
                ))
            })?;
        let mut seats = store_clocks::seat_clocks(conn, game.id).await?;
        let sc = seat_clock(&mut seats, seat)?;
        if sc.absent_since.is_none() && sc.resigned_at.is_none() {
            return Err(ServiceError::SeatUnavailable(format!(
                "seat {seat} has a player: only the seat of an absent or resigned player can be \
                 taken over"
            )));
        }
        let before = name_of(&players, seat);
        let left_by = sc.user_id;
        *sc = SeatClock {
            seat,
            user_id: user,
            timeouts: 0,
            absent_since: None,
            resigned_at: None,
            bank_secs: sc.bank_secs,
            abort_vote: false,
        };
        store_clocks::save_seat(conn, game.id, sc).await?;
        let robots = game.robots.iter().copied().filter(|s| *s != seat).collect();
        set_robots(conn, &mut game, robots).await?;
        // The standing orders were the last player's, and private: the new one starts without.
        store::games::set_standing_orders(conn, game_id, seat, &[]).await?;
        let (_, players, users) = store::games::lock_with_players(conn, game_id)
            .await?
            .ok_or(ServiceError::NotFound("game"))?;
        let mut play = lifecycle_play(svc, &game, &players)?;
        play.log(
            EventKind::TakenOver,
            json!({"seat": seat, "user_id": user}),
            format!(
                "{} took over seat {seat} from {before}",
                name_of(&players, seat)
            ),
        );
        let to_act = game.to_act.clone();
        play.commit(svc, conn, &mut game, &to_act, &players, &users, vec![])
            .await?;
        tell_who_left(svc, conn, &game, seat, left_by, &name_of(&players, seat)).await?;
        answer(conn, &game).await
    })
    .await
}

/// Tells the player who left `seat` (absent or resigned) that `taker` took it over.
async fn tell_who_left(
    svc: &Services,
    conn: &mut Conn,
    game: &Game,
    seat: i32,
    left_by: Uuid,
    taker: &str,
) -> Result<()> {
    let Some(user) = store::users::by_id(conn, left_by).await? else {
        return Ok(());
    };
    let former = [SeatPlayer {
        seat,
        user_id: user.id,
        display_name: user.display_name.clone(),
        vacation: None,
        orders: vec![],
    }];
    let notice = Compose {
        answer: Some(Answer {
            verdict: format!("{taker} took over your seat"),
            lines: vec![
                "You had left it (absent or resigned), so another player may take it: they \
                 play it from now on, and you get no more mail from this game."
                    .into(),
            ],
            show: Show::None,
            since: None,
            confirm: None,
            commands: false,
        }),
        ..Compose::notice(seat, Notice::TakenOver)
    };
    let rows = super::mail::game_mail(
        svc,
        game,
        &former,
        std::slice::from_ref(&user),
        &[(seat, notice)],
    )?;
    store::outbox::enqueue(conn, &rows).await?;
    Ok(())
}

/// The vacation as kept, with the days left this year.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct VacationView {
    /// The current or next vacation, `null` when none is set.
    pub vacation: Option<Vacation>,
    /// Vacation days left in the calendar year of the last vacation set (30 a year).
    pub days_left: i32,
}

/// A user's vacation columns: (from, until, the year its days count in, days used that year).
type VacationRow = (
    Option<DateTime<Utc>>,
    Option<DateTime<Utc>>,
    Option<i32>,
    i32,
);

fn vacation_view(row: Option<VacationRow>, now: DateTime<Utc>) -> VacationView {
    let (from, until, year, days) = row.unwrap_or((None, None, None, 0));
    let used = if year == Some(now.year()) { days } else { 0 };
    VacationView {
        vacation: match (from, until) {
            (Some(from), Some(until)) if until > now => Some(Vacation { from, until }),
            _ => None,
        },
        days_left: (VACATION_DAYS_PER_YEAR - used).max(0),
    }
}

pub async fn vacation(svc: &Services, user: Uuid) -> Result<VacationView> {
    let mut conn = svc.conn().await?;
    let row = store_clocks::vacation(&mut conn, user).await?;
    Ok(vacation_view(row, svc.clock.now()))
}

/// The allowance a deadline was computed with, given the vacation it was moved for.
fn allowance_of(
    started: DateTime<Utc>,
    due: DateTime<Utc>,
    vacation: Option<(DateTime<Utc>, DateTime<Utc>)>,
) -> i64 {
    let plain = (due - started).num_seconds();
    if let Some((from, until)) = vacation
        && until > started
    {
        let paused_at = from.max(started);
        let without = plain - (until - paused_at).num_seconds();
        if without > 0 && paused_at < started + Duration::seconds(without) {
            return without;
        }
    }
    plain
}

/// `PUT /v1/me/vacation` (a vacation) or `DELETE` (`None`: back early). Every deadline of the
/// player's waiting seats moves by exactly the pause.
pub async fn set_vacation(
    svc: &Services,
    user: Uuid,
    wanted: Option<Vacation>,
) -> Result<VacationView> {
    let mut conn = svc.conn().await?;
    set_vacation_in(svc, &mut conn, user, wanted).await
}

/// [`set_vacation`] on `conn` (in a savepoint when it is already in a transaction).
pub async fn set_vacation_in(
    svc: &Services,
    conn: &mut Conn,
    user: Uuid,
    wanted: Option<Vacation>,
) -> Result<VacationView> {
    let now = svc.clock.now();
    conn.transaction::<_, ServiceError, _>(async |conn| {
        let row = store_clocks::vacation(conn, user)
            .await?
            .ok_or(ServiceError::NotFound("user"))?;
        let (old_from, old_until, year, days) = row;
        let old = old_from.zip(old_until);
        let used = if year == Some(now.year()) { days } else { 0 };
        let new = match wanted {
            None => old
                .filter(|(_, u)| *u > now)
                .map(|(f, _)| (f.min(now), now)),
            Some(ref v) => {
                if v.until <= v.from || v.until <= now {
                    return Err(ServiceError::Invalid(
                        "a vacation ends after it begins, and in the future".into(),
                    ));
                }
                let from = v.from.max(now);
                let length = (v.until - from).num_seconds();
                let days = i32::try_from((length + 86_399) / 86_400).unwrap_or(i32::MAX);
                if used.saturating_add(days) > VACATION_DAYS_PER_YEAR {
                    return Err(ServiceError::Invalid(format!(
                        "a vacation of {days} days is more than the {} days left this year \
                         ({VACATION_DAYS_PER_YEAR} a year)",
                        (VACATION_DAYS_PER_YEAR - used).max(0)
                    )));
                }
                Some((from, v.until))
            }
        };
        let (year, days) = match (wanted.is_some(), new) {
            (true, Some((from, until))) => {
                let d = i32::try_from(((until - from).num_seconds() + 86_399) / 86_400)
                    .unwrap_or(i32::MAX);
                (Some(now.year()), used + d)
            }
            _ => (year, days),
        };
        store_clocks::set_vacation(conn, user, new.map(|v| v.0), new.map(|v| v.1), year, days)
            .await?;
        // Move the deadlines of the player's waiting seats.
        for d in store_clocks::deadlines_of_user(conn, user).await? {
            let Some(game) = store::games::get(conn, d.game_id).await? else {
                continue;
            };
            let Some(settings) = ClockSettings::of(&game) else {
                continue;
            };
            let allowance = allowance_of(d.started_at, d.due_at, old);
            let due = due_at(d.started_at, allowance, new);
            let remind = settings.next_reminder(d.started_at, due, now);
            store_clocks::set_due_at(conn, d.game_id, d.seat, due, remind).await?;
        }
        let row = store_clocks::vacation(conn, user).await?;
        Ok(vacation_view(row, now))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(h: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + h * 3600, 0).unwrap()
    }

    #[test]
    fn the_allowance_before_a_vacation_is_found_again() {
        for (vacation, allowance) in [
            (None, 24 * 3600),
            (Some((at(10), at(40))), 24 * 3600),
            (Some((at(-5), at(6))), 24 * 3600),
            (Some((at(30), at(40))), 24 * 3600),
            (Some((at(1), at(2))), 2 * 3600),
        ] {
            let due = due_at(at(0), allowance, vacation);
            assert_eq!(
                allowance_of(at(0), due, vacation),
                allowance,
                "{vacation:?}"
            );
        }
    }
}
