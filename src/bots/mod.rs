//! PROVISIONAL until the bots branch lands: the first legal action.
use serde_json::Value;

use crate::rules::{GameState, Seat};

pub fn choose(state: &dyn GameState, seat: Seat, _seed: u64) -> Option<Value> {
    state.legal_actions(seat).into_iter().next().map(|a| a.action)
}
