//! Support for the shared conformance suite's secret check: plant an impossible objective
//! number where a seat's objectives are, then look for it where it must not show.
//!
//! Objective cards are numbered 0 to 47. Nothing else in a view, a redaction or a description
//! can print 4242: every other number there is a seat (< 6), a territory (< 16), a gnome or
//! token count (< 100), a die (1 to 6), a round (the suite's games stop at round 20: its
//! option sets carry a round limit) or a score (< 1,000).

use super::actions::Action;
use super::state::State;
use crate::rules::Seat;

pub(crate) const SECRET_MARKER: &str = "4242";
const MARKER_ID: u16 = 4242;

/// Overwrites every secret of `seat`: the objectives dealt, kept and discarded by its clans.
pub(crate) fn plant_secret_markers(state: &mut State, seat: Seat) {
    for clan in state.clans.iter_mut().filter(|c| c.seat == seat) {
        for id in clan
            .offered
            .iter_mut()
            .chain(clan.kept.iter_mut())
            .chain(clan.discarded.iter_mut())
        {
            *id = MARKER_ID;
        }
    }
}

/// The action with its hidden payload replaced: the objective dealt or kept.
pub(crate) fn plant_action_marker(action: &Action) -> Option<Action> {
    match action {
        Action::DealObjective(_) => Some(Action::DealObjective(MARKER_ID)),
        Action::KeepObjective(_) => Some(Action::KeepObjective(MARKER_ID)),
        _ => None,
    }
}
