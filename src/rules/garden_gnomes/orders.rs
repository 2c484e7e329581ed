//! Garden Gnomes' standing orders (docs/rules/garden-gnomes.md, "Standing orders"): answers a
//! clan gives in advance to recurring small decisions. Each reads only the public board and
//! the clan's own legal choices.

use super::actions::Action;
use super::state::{Phase, State};
use crate::rules::{OrderDoc, Seat};

/// "Put all my reinforcements on at the start of every round."
pub const REINFORCE_ALL: &str = "reinforce-all";

pub fn standing_orders() -> Vec<OrderDoc> {
    vec![OrderDoc {
        id: REINFORCE_ALL,
        description: "At the start of every round, put all the reinforcements I may (at most \
                      my reserve) onto my home territory.",
        argument: None,
        example: None,
    }]
}

pub fn standing_answer(state: &State, seat: Seat, order: &str) -> Option<Action> {
    if order != REINFORCE_ALL || !matches!(state.phase, Phase::Reinforcement { .. }) {
        return None;
    }
    let clan = state.reinforcing()?;
    if state.clan(clan).map(|c| c.seat) != Some(seat) {
        return None;
    }
    let all = Action::Reinforce(state.reinforcements_due(clan));
    super::actions::legal_actions(state, seat)
        .contains(&all)
        .then_some(all)
}
