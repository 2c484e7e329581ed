//! The shared conformance suite (src/rules/conformance.rs) for wiz-war.

use super::super::secrets::{SECRET_MARKER, plant_action_marker, plant_secret_markers};
use super::super::{Action, State, WizWar};
use crate::rules::Seat;
use crate::rules::conformance::{self, Config, Secrets};

impl Secrets for WizWar {
    const MARKER: &'static str = SECRET_MARKER;

    fn plant(state: &mut State, seat: Seat) {
        plant_secret_markers(state, seat);
    }

    fn plant_action(action: &Action) -> Option<Action> {
        plant_action_marker(action)
    }
}

/// Bound on a random game (docs/rules/wiz-war.md, "Turn limit").
const MAX_ACTIONS: usize = 20_000;

#[test]
fn wiz_war_passes_the_conformance_suite() {
    let report = conformance::check::<WizWar>(&Config::new(MAX_ACTIONS));
    println!("{report:?}");
}
