//! Previewing a turn (DESIGN.md, "Pace: a turn per reply"): the caller's actions applied to a
//! copy of the game, and the caller's view and choices after them; nothing is written. It
//! stops before anything the caller may not see yet: a chance step (a die, a draw), another
//! seat's decision, the end of the game. The web's plan-and-confirm uses it; the confirmed plan
//! is then one submission (`POST /v1/games/{id}/actions`).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::game_views::{seat_of, viewer_of};
use super::views::LegalActionView;
use super::{Result, ServiceError, Services};
use crate::rules::registry::names_choice;
use crate::rules::{GameState, LegalAction, RuleError, Waiting};
use crate::store::models::GameStatus;
use crate::store::{self};

/// Why a preview went no further than it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PreviewStop {
    /// A chance step (a die, a draw) comes next: its result is not known before it is played.
    Chance,
    /// Another seat decides next.
    Others,
    /// The game would be over.
    Over,
}

/// The caller's game after the previewed actions.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PreviewResult {
    /// The game's version the preview started from (send it as `expected_version` to submit).
    pub version: i64,
    /// How many of the given actions were applied: all of them, unless the preview stopped
    /// before the rest (`stopped`).
    pub applied: usize,
    /// The caller's view after them.
    pub view: Value,
    /// The caller's legal actions after them (empty when `stopped` is set).
    pub legal_actions: Vec<LegalActionView>,
    /// Why the preview went no further, if it stopped; `null` when the caller decides next.
    pub stopped: Option<PreviewStop>,
}

/// `POST /v1/games/{id}/actions/preview`.
pub async fn preview(
    svc: &Services,
    user: Uuid,
    game_id: Uuid,
    actions: &[Value],
) -> Result<PreviewResult> {
    let mut conn = svc.conn().await?;
    let (game, players) = store::games::get_with_players(&mut conn, game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    drop(conn);
    let seat = seat_of(&players, user).ok_or(ServiceError::NotAPlayer)?;
    if game.status() != GameStatus::Active {
        return Err(ServiceError::WrongStatus(game.status.clone()));
    }
    if !game.to_act.contains(&seat) {
        return Err(ServiceError::NotYourDecision);
    }
    let snapshot = game.state.as_ref().ok_or_else(|| {
        ServiceError::Unexpected(anyhow::anyhow!("active game without a snapshot"))
    })?;
    let mut state = svc.load_state(&game, snapshot)?;
    let s = usize::try_from(seat).map_err(anyhow::Error::from)?;
    let (applied, stopped) = run(state.as_mut(), s, actions)?;
    let viewer = viewer_of(&game, Some(seat));
    Ok(PreviewResult {
        version: game.version,
        applied,
        view: state.view(viewer),
        legal_actions: if stopped.is_none() {
            state
                .legal_actions(s)
                .into_iter()
                .map(|a| LegalActionView {
                    action: a.action,
                    description: a.description,
                    notation: a.notation,
                })
                .collect()
        } else {
            vec![]
        },
        stopped,
    })
}

/// Applies `actions` of `seat` to `state` as a submission would (the forced choices between
/// them included), up to where the caller can no longer see what comes: how many were applied,
/// and why it stopped. An illegal action is the submission's error.
pub fn run(
    state: &mut dyn GameState,
    seat: usize,
    actions: &[Value],
) -> Result<(usize, Option<PreviewStop>)> {
    for (index, action) in actions.iter().enumerate() {
        if index > 0 {
            forced_before(state, seat, action);
        }
        match state.waiting() {
            Waiting::Players(seats) if seats.contains(&seat) => {}
            Waiting::Players(_) => return Ok((index, Some(PreviewStop::Others))),
            Waiting::Chance(_) => return Ok((index, Some(PreviewStop::Chance))),
            Waiting::Over(_) => return Ok((index, Some(PreviewStop::Over))),
        }
        state.apply_json(seat, action).map_err(|e| match e {
            RuleError::NotYourDecision => ServiceError::NotYourDecision,
            RuleError::GameOver => ServiceError::WrongStatus("finished".into()),
            RuleError::Illegal(reason) => ServiceError::IllegalAction { index, reason },
        })?;
    }
    let stop = match state.waiting() {
        Waiting::Players(seats) if seats.contains(&seat) => None,
        Waiting::Players(_) => Some(PreviewStop::Others),
        Waiting::Chance(_) => Some(PreviewStop::Chance),
        Waiting::Over(_) => Some(PreviewStop::Over),
    };
    Ok((actions.len(), stop))
}

/// The forced choices a submission plays before `next` (`Play::run_forced_before`).
pub fn forced_before(state: &mut dyn GameState, seat: usize, next: &Value) {
    let named = |choice: &LegalAction| names_choice(next, choice);
    for _ in 0..1_000 {
        let Some((s, forced)) = state.next_forced(seat, &named) else {
            return;
        };
        if state.apply_json(s, &forced.action).is_err() {
            return;
        }
    }
}
