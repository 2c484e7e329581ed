//! A stored game as the use cases show it: who sits where and who looks (`seat_of`,
//! `viewer_of`), and the views of the game, its state and its log entries built from its rows.
//! Every use case reads games through these; they change nothing.

use chrono::Utc;
use serde_json::Value;
use uuid::Uuid;

use super::deadlines::ClockSettings;
use super::views::{
    ActorView, DeadlineView, EventView, GameView, LegalActionView, OutcomeView, SeatView,
    StateView, Vacation,
};
use super::{Result, ServiceError, Services};
use crate::rules::Viewer;
use crate::store::clocks::Deadline;
use crate::store::models::{Event, Game, GameStatus, SeatPlayer};
use crate::store::{self, Conn};

pub fn outcome_view(outcome: &Option<Value>) -> Option<OutcomeView> {
    outcome
        .as_ref()
        .and_then(|o| serde_json::from_value(o.clone()).ok())
}

pub fn game_view(game: &Game, players: &[SeatPlayer]) -> GameView {
    game_view_with(game, players, &[])
}

/// The game with the deadlines of its waiting seats (from `deadlines`, any game's rows).
pub fn game_view_with(game: &Game, players: &[SeatPlayer], deadlines: &[Deadline]) -> GameView {
    let seats = (0..game.seat_count)
        .map(|seat| {
            let p = players.iter().find(|p| p.seat == seat);
            SeatView {
                seat,
                user_id: p.map(|p| p.user_id),
                display_name: p.map(|p| p.display_name.clone()),
                played_by_bot: game.robots.contains(&seat),
                away: p
                    .and_then(|p| p.vacation)
                    .filter(|(_, until)| *until > Utc::now())
                    .map(|(from, until)| Vacation { from, until }),
            }
        })
        .collect();
    GameView {
        id: game.id,
        ruleset: game.ruleset.clone(),
        options: game.options.clone(),
        status: game.status.clone(),
        version: game.version,
        seats,
        to_act: game.to_act.clone(),
        seed_sha256: game.seed_sha256.clone(),
        seed: is_over(game).then(|| hex::encode(&game.seed)),
        outcome: outcome_view(&game.outcome),
        created_at: game.created_at,
        updated_at: game.updated_at,
        clock: ClockSettings::of(game),
        deadlines: deadline_views(game, deadlines),
    }
}

/// The deadline of each seat in `to_act` that has one.
pub fn deadline_views(game: &Game, deadlines: &[Deadline]) -> Vec<DeadlineView> {
    deadlines
        .iter()
        .filter(|d| d.game_id == game.id && game.to_act.contains(&d.seat))
        .map(|d| DeadlineView {
            seat: d.seat,
            due_at: d.due_at,
        })
        .collect()
}

/// The deadlines of a game with a clock (no query for one without).
pub async fn deadlines_of(conn: &mut Conn, game: &Game) -> Result<Vec<Deadline>> {
    if game.clock.is_none() {
        return Ok(vec![]);
    }
    Ok(store::clocks::deadlines_of(conn, game.id).await?)
}

/// Whether the game is over: finished, or abandoned (every player voted to abort). Then
/// nothing in it is secret any more: its seed is revealed (the `aborted` entry of an abandoned
/// game carries it too) and everybody reads its whole log.
pub fn is_over(game: &Game) -> bool {
    matches!(game.status(), GameStatus::Finished | GameStatus::Abandoned)
}

/// Who the caller is at this table.
pub fn viewer_of(game: &Game, seat: Option<i32>) -> Viewer {
    if is_over(game) {
        return Viewer::Everyone;
    }
    match seat.and_then(|s| usize::try_from(s).ok()) {
        Some(s) => Viewer::Seat(s),
        None => Viewer::Spectator,
    }
}

/// `seat` as one of `game`'s seats, or why not (`field` names it in the refusal).
pub fn seat_number(game: &Game, seat: i64, field: &str) -> Result<i32> {
    i32::try_from(seat)
        .ok()
        .filter(|s| (0..game.seat_count).contains(s))
        .ok_or_else(|| {
            ServiceError::Invalid(format!(
                "{field} must be between 0 and {}",
                game.seat_count - 1
            ))
        })
}

pub fn seat_of(players: &[SeatPlayer], user: Uuid) -> Option<i32> {
    players.iter().find(|p| p.user_id == user).map(|p| p.seat)
}

/// The caller's state of a game from its snapshot.
pub fn state_view(
    svc: &Services,
    game: &Game,
    seat: Option<i32>,
    state: Option<&dyn crate::rules::GameState>,
) -> Result<StateView> {
    let loaded;
    let state = match (state, &game.state) {
        (Some(s), _) => Some(s),
        (None, Some(json)) => {
            loaded = svc.load_state(game, json)?;
            Some(loaded.as_ref())
        }
        (None, None) => None,
    };
    let viewer = viewer_of(game, seat);
    let must_act = seat.filter(|s| game.to_act.contains(s) && game.status() == GameStatus::Active);
    Ok(StateView {
        version: game.version,
        status: game.status.clone(),
        seat,
        to_act: game.to_act.clone(),
        view: state.map(|s| s.view_text(viewer)).unwrap_or_default(),
        legal_actions: match (state, must_act.and_then(|s| usize::try_from(s).ok())) {
            (Some(state), Some(s)) => state
                .legal_actions(s)
                .into_iter()
                .map(|a| LegalActionView {
                    action: a.action,
                    description: a.description,
                    notation: a.notation,
                })
                .collect(),
            _ => vec![],
        },
        outcome: outcome_view(&game.outcome),
        deadlines: vec![],
    })
}

/// A log entry as `viewer` may see it.
pub fn event_view(e: &Event, viewer: Viewer) -> EventView {
    let full = match (&e.visible_to, viewer) {
        (None, _) | (_, Viewer::Everyone) => true,
        (Some(seats), Viewer::Seat(s)) => seats.iter().any(|v| usize::try_from(*v) == Ok(s)),
        (Some(_), Viewer::Spectator) => false,
    };
    let actor = match (e.actor.as_str(), e.seat) {
        ("seat", Some(seat)) => ActorView::Seat { seat },
        ("chance", _) => ActorView::Chance,
        _ => ActorView::System,
    };
    EventView {
        seq: e.seq,
        actor,
        kind: e.kind.clone(),
        action: if full {
            e.action.clone()
        } else {
            e.redacted.clone().unwrap_or(Value::Null)
        },
        redacted: !full,
        description: if full {
            e.description.clone()
        } else {
            e.redacted_description.clone().unwrap_or_default()
        },
        notation: if full { e.notation.clone() } else { None },
        at: e.created_at,
    }
}
