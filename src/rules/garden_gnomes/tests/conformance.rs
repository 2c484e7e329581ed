//! The shared conformance suite (src/rules/conformance.rs) for garden-gnomes.

use super::super::secrets::{SECRET_MARKER, plant_action_marker, plant_secret_markers};
use super::{Action, GardenGnomes, State};
use crate::rules::Seat;
use crate::rules::conformance::{self, Config, Secrets};

impl Secrets for GardenGnomes {
    const MARKER: &'static str = SECRET_MARKER;

    fn plant(state: &mut State, seat: Seat) {
        plant_secret_markers(state, seat);
    }

    fn plant_action(action: &Action) -> Option<Action> {
        plant_action_marker(action)
    }
}

/// Bound on a random game (docs/rules/garden-gnomes.md, "Game length"): the round limit ends
/// every game; over 500 seeded random playouts per option set and seat count the longest
/// took 1,160 actions.
pub const MAX_ACTIONS: usize = 5_000;

#[test]
fn garden_gnomes_passes_the_conformance_suite() {
    let report = conformance::check::<GardenGnomes>(&Config::new(MAX_ACTIONS));
    println!("{report:?}");
}
