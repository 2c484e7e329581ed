//! Support for the shared conformance suite's secret check: plant impossible values where a
//! seat's secrets are, then look for them where they must not show.
//!
//! A planted card shows 237 icons (real cards show 1 to 3). Nothing else in a view, a
//! redaction or a description can print 237: every other number there is a seat (< 5), a
//! level (<= 6), a character or space number (<= 7), a gem count (<= 8), an icon total or a
//! count of cards or tokens (< 100) or an index into a hand (< 60). The round counter, the
//! only unbounded number, is shown in the view, the presenter's table and the picture's
//! status line (ruling 19): it would print 237 only in round 237, which no game reaches (the
//! longest of 40,000 random games took 51 rounds). Descriptions print no round.

use super::actions::Action;
use super::data::Card;
use super::state::State;
use crate::rules::Seat;

pub(crate) const SECRET_MARKER: &str = "237";
const MARKER_ICONS: u8 = 237;

fn planted(card: Card) -> Card {
    Card {
        icons: MARKER_ICONS,
        ..card
    }
}

/// Overwrites every secret of `seat`: the cards in hand and, while `seat` is the Oracle
/// looking at cards, those.
pub(crate) fn plant_secret_markers(state: &mut State, seat: Seat) {
    if let Some(player) = state.players.get_mut(seat) {
        for card in &mut player.hand {
            *card = planted(*card);
        }
    }
    if state.current_seat() == Some(seat) {
        for card in &mut state.looked_at {
            *card = planted(*card);
        }
    }
}

/// The action with its hidden payload replaced: the card drawn, or which looked-at card the
/// Oracle keeps.
pub(crate) fn plant_action_marker(action: &Action) -> Option<Action> {
    match action {
        Action::DrawCard(card) => Some(Action::DrawCard(planted(*card))),
        Action::KeepCard(_) => Some(Action::KeepCard(usize::from(MARKER_ICONS))),
        _ => None,
    }
}
