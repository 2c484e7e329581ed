//! The shared conformance suite (src/rules/conformance.rs) for monsters-and-magic.

use super::super::secrets::{SECRET_MARKER, plant_action_marker, plant_secret_markers};
use super::super::{Action, MonstersAndMagic, State};
use crate::rules::Seat;
use crate::rules::conformance::{self, Config, Secrets};

impl Secrets for MonstersAndMagic {
    const MARKER: &'static str = SECRET_MARKER;

    fn plant(state: &mut State, seat: Seat) {
        plant_secret_markers(state, seat);
    }

    fn plant_action(action: &Action) -> Option<Action> {
        plant_action_marker(action)
    }
    /// The hand, re-dealt from the unseen deck; none while an Oracle has seen it (then the
    /// hand is no longer this seat's alone).
    fn perturb(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> Option<State> {
        if state.peeks.iter().any(|p| p.of == seat) {
            return None;
        }
        let mut twin = state.clone();
        let hand = &mut twin.players.get_mut(seat)?.hand;
        if !conformance::redeal(hand, &mut twin.deck, pick) {
            return None;
        }
        hand.sort();
        twin.deck.sort();
        Some(twin)
    }
}

/// Bound on a random game (docs/rules/monsters-and-magic.md, "Game length"): over 6,000
/// seeded conformance playouts (500 per seat count and option set) the longest took 1,704
/// actions.
const MAX_ACTIONS: usize = 20_000;

/// The suite in 2 tests, which the test harness runs on every core (`conformance::shards!`).
mod monsters_and_magic_passes_the_conformance_suite {
    use super::*;

    conformance::shards!(
        MonstersAndMagic,
        Config::new(MAX_ACTIONS),
        shard_0_of_2 = 0 of 2,
        shard_1_of_2 = 1 of 2,
    );
}
