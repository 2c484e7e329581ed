//! Clocks: deadlines per decision with an optional time bank, reminders, timeouts, absent
//! seats played by the bot (issue 16; DESIGN.md, "Time: clocks, deadlines, absent players").
//!
//! A waiting seat of a game with a clock has a row in `deadlines`, written in the transaction
//! that makes it wait (`deadlines::sync`, called by `Play::commit`) and removed in the one that
//! ends the wait. The deadline worker ([`run`], one per server process) finds due rows, claims
//! their game with `FOR UPDATE SKIP LOCKED`, and in one transaction plays the ruleset's
//! default action for each seat whose time ran out, logged as a timeout everyone sees
//! ([`tick`]). A seat that times out `absent_after` times in a row is marked absent: the bot
//! plays it at once on every later decision, until its player comes back
//! (`POST /v1/games/{id}/back`). Reminders are turn mails queued when a reminder point of a
//! deadline is reached, at most once per point.

use std::time::Duration as StdDuration;

use chrono::{DateTime, Utc};
use diesel_async::AsyncConnection;
use serde_json::json;
use tokio::sync::watch;
use uuid::Uuid;

use super::deadlines::ClockSettings;
use super::submit::Play;
use super::{Result, ServiceError, Services};
use crate::notify::{Answer, Compose, Notice, Show};
use crate::rules::Waiting;
use crate::store::clocks::{self as store_clocks, Deadline};
use crate::store::models::{EventKind, Game, GameStatus, SeatPlayer, User};
use crate::store::{self, Conn};

/// The display name of `seat`.
fn name_of(players: &[SeatPlayer], seat: i32) -> String {
    players
        .iter()
        .find(|p| p.seat == seat)
        .map_or_else(|| format!("Seat {seat}"), |p| p.display_name.clone())
}

/// One round of the deadline worker: every game with a deadline or a reminder due now is
/// claimed (games another worker or a submission holds are skipped, and looked at again next
/// round) and handled in a transaction of its own. Returns how many games it changed.
pub async fn tick(svc: &Services) -> Result<usize> {
    let now = svc.clock.now();
    let due = {
        let mut conn = svc.conn().await?;
        store_clocks::due_games(&mut conn, now, 64).await?
    };
    let mut done = 0;
    for game in due {
        let mut conn = svc.conn().await?;
        let handled = conn
            .transaction::<_, ServiceError, _>(async |conn| handle(svc, conn, game, now).await)
            .await;
        match handled {
            Ok(true) => done += 1,
            Ok(false) => {}
            Err(e) => tracing::warn!(game = %game, error = %e, "handling a deadline"),
        }
    }
    Ok(done)
}

/// Plays the timeouts due in one game, or queues its due reminders.
async fn handle(
    svc: &Services,
    conn: &mut Conn,
    game_id: Uuid,
    now: DateTime<Utc>,
) -> Result<bool> {
    if !store_clocks::claim(conn, game_id).await? {
        return Ok(false);
    }
    let (mut game, players, users) = store::games::lock_with_players(conn, game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    let Some(settings) = ClockSettings::of(&game).filter(|_| game.status() == GameStatus::Active)
    else {
        store_clocks::clear(conn, game_id).await?;
        return Ok(true);
    };
    let mut rows = store_clocks::deadlines_of(conn, game_id).await?;
    // A row whose seat no longer waits for its player (it cannot outlive its wait, but a row
    // must never stay due forever and crowd out the others).
    let stale: Vec<i32> = rows
        .iter()
        .filter(|d| !game.to_act.contains(&d.seat) || game.robots.contains(&d.seat))
        .map(|d| d.seat)
        .collect();
    if !stale.is_empty() {
        store_clocks::replace(conn, game_id, &stale, &[]).await?;
        rows.retain(|d| !stale.contains(&d.seat));
    }
    let due: Vec<&Deadline> = rows
        .iter()
        .filter(|d| d.due_at <= now && game.to_act.contains(&d.seat))
        .collect();
    if !due.is_empty() {
        time_out(svc, conn, &mut game, &players, &users, &settings, &due, now).await?;
        return Ok(true);
    }
    let mut reminded = !stale.is_empty();
    for d in rows
        .iter()
        .filter(|d| d.remind_at.is_some_and(|r| r <= now))
    {
        let notice = [(d.seat, Compose::notice(d.seat, Notice::Reminder))];
        let mail = super::mail::game_mail(svc, &game, &players, &users, &notice)?;
        store::outbox::enqueue(conn, &mail).await?;
        let next = settings.next_reminder(d.started_at, d.due_at, now);
        store_clocks::set_remind_at(conn, game_id, d.seat, next).await?;
        reminded = true;
    }
    Ok(reminded)
}

/// Plays the default action of each seat whose deadline passed, logged as a timeout; marks a
/// seat absent after too many in a row; then lets the bot play the absent seats.
#[allow(clippy::too_many_arguments)]
async fn time_out(
    svc: &Services,
    conn: &mut Conn,
    game: &mut Game,
    players: &[SeatPlayer],
    users: &[User],
    settings: &ClockSettings,
    due: &[&Deadline],
    now: DateTime<Utc>,
) -> Result<()> {
    let snapshot = game.state.as_ref().ok_or_else(|| {
        ServiceError::Unexpected(anyhow::anyhow!("active game without a snapshot"))
    })?;
    let state = svc.load_state(game, snapshot)?;
    let mut play = Play::new(game, state, game.version + 1, now).with_orders(players);
    let mut seats = store_clocks::seat_clocks(conn, game.id).await?;
    let mut robots = game.robots.clone();
    let names = super::mail::names_by_seat(game, players);
    // Each player whose time ran out is told what was played for them (issue 35).
    let mut notices: Vec<(i32, Compose)> = vec![];
    for d in due {
        let seat = d.seat;
        let Ok(seat_index) = usize::try_from(seat) else {
            continue;
        };
        if !matches!(play.state.waiting(), Waiting::Players(s) if s.contains(&seat_index)) {
            continue;
        }
        let name = name_of(players, seat);
        play.log(
            EventKind::TimedOut,
            json!({"seat": seat, "deadline": d.due_at}),
            format!("{name} ran out of time to decide; the default action is played for them"),
        );
        let fallback = || {
            crate::bots::choose(
                play.state.as_ref(),
                seat_index,
                super::chance::bot_seed(&play.seed, play.next_seq),
            )
        };
        let chosen = play.state.default_action(seat_index).or_else(fallback);
        let Some(action) = chosen else {
            continue;
        };
        if play
            .play_as(seat_index, 0, &action, EventKind::Timeout)
            .is_err()
        {
            // A default action the ruleset no longer accepts: the bot decides instead.
            let action = crate::bots::choose(
                play.state.as_ref(),
                seat_index,
                super::chance::bot_seed(&play.seed, play.next_seq),
            )
            .ok_or_else(|| ServiceError::Unexpected(anyhow::anyhow!("no action for {seat}")))?;
            play.play_as(seat_index, 0, &action, EventKind::Timeout)?;
        }
        let played = play
            .events
            .iter()
            .rev()
            .find(|e| e.seat == Some(seat) && e.kind == EventKind::Timeout.as_str())
            .map(|e| crate::rules::present::name_seats(&e.description, &names));
        let mut told = timed_out_notice(seat, played);
        if let Some(sc) = seats.iter_mut().find(|s| s.seat == seat) {
            sc.timeouts += 1;
            if sc.timeouts >= settings.absent_after && sc.absent_since.is_none() {
                sc.absent_since = Some(now);
                if !robots.contains(&seat) {
                    robots.push(seat);
                }
                play.log(
                    EventKind::Absent,
                    json!({"seat": seat}),
                    format!(
                        "{name} let {} decisions in a row time out and is now absent: the bot \
                         plays their seat until they come back",
                        sc.timeouts
                    ),
                );
                absent_notice(&mut told, sc.timeouts);
            }
            store_clocks::save_seat(conn, game.id, sc).await?;
        }
        notices.push((seat, told));
    }
    if robots != game.robots {
        robots.sort_unstable();
        store_clocks::set_robots(conn, game.id, &robots).await?;
        game.robots = robots;
    }
    play.run_robots(&game.robots)?;
    let before = game.to_act.clone();
    play.commit(svc, conn, game, &before, players, users, notices)
        .await
}

/// The mail to a player whose deadline passed: what was played for them, then the game as
/// it is (with their next choices and deadline when they must decide again).
fn timed_out_notice(seat: i32, played: Option<String>) -> Compose {
    Compose {
        answer: Some(Answer {
            verdict: "Your time ran out: a default was played for you".into(),
            lines: vec![match played {
                Some(what) => format!("Played for you: {what}"),
                None => "Nothing could be played for you.".into(),
            }],
            show: Show::Status,
            since: None,
            confirm: None,
            commands: true,
        }),
        ..Compose::notice(seat, Notice::TimedOut)
    }
}

/// The timeout mail of a player now marked absent: the bot plays for them until BACK.
fn absent_notice(told: &mut Compose, timeouts: i32) {
    told.notice = Notice::Absent;
    if let Some(a) = told.answer.as_mut() {
        a.verdict = "You are marked absent: the bot plays your seat".into();
        a.lines.push(format!(
            "You let {timeouts} decisions in a row time out, so from now on the bot plays your \
             seat at once, at every decision, until you come back. Reply BACK to this mail to \
             play your seat yourself again."
        ));
    }
}

/// The deadline worker: a [`tick`] and a round of the bot worker ([`super::robots::tick`])
/// every `poll_ms` until `stop` turns true.
pub async fn run(svc: Services, poll_ms: u64, mut stop: watch::Receiver<bool>) {
    tracing::info!(poll_ms, "deadline worker started");
    loop {
        if *stop.borrow() {
            break;
        }
        let busy = match tick(&svc).await {
            Ok(n) => n > 0,
            Err(e) => {
                tracing::warn!(error = %e, "deadline worker round failed");
                false
            }
        };
        // The same worker continues the bot seats that requests left waiting (issue 38).
        let busy = match super::robots::tick(&svc).await {
            Ok(n) => busy || n > 0,
            Err(e) => {
                tracing::warn!(error = %e, "bot worker round failed");
                busy
            }
        };
        if busy {
            continue;
        }
        tokio::select! {
            _ = stop.changed() => {}
            () = tokio::time::sleep(StdDuration::from_millis(poll_ms)) => {}
        }
    }
    tracing::info!("deadline worker stopped");
}
