//! Gnomes and Wizards' standing orders (docs/rules/gnomes-and-wizards.md, "Standing
//! orders"): answers a player gives in advance to recurring small decisions. Each reads only
//! whose turn it is and the player's own legal choices.

use super::actions::Action;
use super::state::State;
use crate::rules::{OrderDoc, Seat};

/// "Cast nothing in other players' turns."
pub const PASS_OUTSIDE_MY_TURN: &str = "pass-outside-my-turn";

pub fn standing_orders() -> Vec<OrderDoc> {
    vec![OrderDoc {
        id: PASS_OUTSIDE_MY_TURN,
        description: "Cast nothing in other players' turns: pass in every reaction window \
                      opened in another player's turn (or between turns).",
        argument: None,
        example: None,
    }]
}

pub fn standing_answer(state: &State, seat: Seat, order: &str) -> Option<Action> {
    if order != PASS_OUTSIDE_MY_TURN || state.current() == Some(seat) {
        return None;
    }
    let window = state.window.as_ref()?;
    if window.waiting.first() != Some(&seat) {
        return None;
    }
    super::actions::legal_actions(state, seat)
        .contains(&Action::Pass)
        .then_some(Action::Pass)
}
