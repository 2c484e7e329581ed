//! The shared conformance suite (src/rules/conformance.rs) for bag-of-fate.

use super::super::{SECRET_MARKER, plant_action_marker, plant_secret_markers};
use super::{Action, BagOfFate, State};
use crate::rules::Seat;
use crate::rules::conformance::{self, Config, Secrets};

impl Secrets for BagOfFate {
    const MARKER: &'static str = SECRET_MARKER;

    fn plant(state: &mut State, seat: Seat) {
        plant_secret_markers(state, seat);
    }

    fn plant_action(action: &Action) -> Option<Action> {
        plant_action_marker(action)
    }
}

/// Bound on a random game (docs/rules/bag-of-fate.md, "Game length"): over 40,000 seeded
/// random games the longest took 1,433 actions.
const MAX_ACTIONS: usize = 5_000;

#[test]
fn bag_of_fate_passes_the_conformance_suite() {
    let report = conformance::check::<BagOfFate>(&Config::new(MAX_ACTIONS));
    println!("{report:?}");
}
