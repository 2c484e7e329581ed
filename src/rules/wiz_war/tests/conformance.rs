//! The shared conformance suite (src/rules/conformance.rs) for wiz-war.

use super::super::secrets::{SECRET_MARKER, plant_action_marker, plant_secret_markers};
use super::super::{Action, FULL_OPTION_SETS, State, WizWar, belief};
use crate::rules::conformance::{self, Config, Secrets};
use crate::rules::{Seat, split_known};

impl Secrets for WizWar {
    const MARKER: &'static str = SECRET_MARKER;

    fn plant(state: &mut State, seat: Seat) {
        plant_secret_markers(state, seat);
    }

    fn plant_action(action: &Action) -> Option<Action> {
        plant_action_marker(action)
    }
    /// The hand, re-dealt from the unseen deck; but what everyone saw named stays
    /// (`belief::shown`: the card being cast, an Around the Corner a target needs).
    fn perturb(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> Option<State> {
        let mut twin = state.clone();
        let hand = &mut twin.wizards.get_mut(seat)?.hand;
        let (kept, mut hidden) = split_known(std::mem::take(hand), &belief::shown(state, seat));
        if !conformance::redeal(&mut hidden, &mut twin.deck, pick) {
            return None;
        }
        *hand = hidden.into_iter().chain(kept).collect();
        hand.sort();
        twin.deck.sort();
        Some(twin)
    }

    /// Without `ask_every_affected_wizard`, a window asks only the wizards holding a counter
    /// that can answer (docs/rules/wiz-war.md, "Reaction windows": what opening reveals).
    fn asking_discloses(state: &State) -> bool {
        !state.options.ask_every_affected_wizard && !state.stack.is_empty()
    }
}

/// Bound on a random game (docs/rules/wiz-war.md, "Turn limit").
const MAX_ACTIONS: usize = 20_000;

/// The suite in 3 tests, which the test harness runs on every core (`conformance::shards!`).
/// The option sets after the first [`FULL_OPTION_SETS`] (the other combinations of three
/// schools) play each seed at one seat count (`Config::spread_from`).
mod wiz_war_passes_the_conformance_suite {
    use super::*;

    conformance::shards!(
        WizWar,
        Config::new(MAX_ACTIONS).spread_from(FULL_OPTION_SETS),
        shard_0_of_3 = 0 of 3,
        shard_1_of_3 = 1 of 3,
        shard_2_of_3 = 2 of 3,
    );
}
