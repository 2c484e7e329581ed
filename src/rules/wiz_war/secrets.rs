//! Support for the shared conformance suite's secret check: plant a card id outside the card
//! table (`card_4242`, a name nothing else prints) where a seat's secrets are.

use super::actions::Action;
use super::cards::CardId;
use super::state::State;
use crate::rules::Seat;

pub(crate) const SECRET_MARKER: &str = "card_4242";
const MARKER_CARD: CardId = CardId(4242);

/// Overwrites every secret of `seat`: the cards in its hand.
pub(crate) fn plant_secret_markers(state: &mut State, seat: Seat) {
    if let Some(w) = state.wizards.get_mut(seat) {
        for c in &mut w.hand {
            *c = MARKER_CARD;
        }
    }
}

/// A card drawn or stolen is the hidden payload.
pub(crate) fn plant_action_marker(action: &Action) -> Option<Action> {
    match action {
        Action::Draw(_) => Some(Action::Draw(MARKER_CARD)),
        Action::Steal(_) => Some(Action::Steal(MARKER_CARD)),
        _ => None,
    }
}
