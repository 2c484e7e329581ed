//! Support for the conformance suite's secrets check: plant an impossible card id where a
//! seat's secrets are, then look for it where it must not show.
//!
//! The planted card id is 9999 (real ids are 0..63). Nothing else in a view, a redaction or a
//! description prints 9999: other numbers are seats (< 4), coordinates (< 8), turns (<= 80),
//! figure ids (one per figure ever placed, a few hundred at most), counts and forces.

use super::actions::Action;
use super::data::CardId;
use super::state::State;
use crate::rules::Seat;

pub(crate) const SECRET_MARKER: &str = "9999";
pub(crate) const MARKER_CARD: CardId = 9999;

/// Overwrites every secret of `seat`: its hand. What an Oracle saw is left out: two seats
/// see it (the Oracle's user and the player looked at), so it is no one seat's secret.
pub(crate) fn plant_secret_markers(state: &mut State, seat: Seat) {
    if let Some(player) = state.players.get_mut(seat) {
        for card in &mut player.hand {
            *card = MARKER_CARD;
        }
    }
}

/// The card drawn into a hand is the only hidden payload of an action.
pub(crate) fn plant_action_marker(action: &Action) -> Option<Action> {
    match action {
        Action::DrawCard(_) => Some(Action::DrawCard(MARKER_CARD)),
        _ => None,
    }
}
