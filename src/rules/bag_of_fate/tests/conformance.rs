//! The shared conformance suite (src/rules/conformance.rs) for bag-of-fate.

use super::super::{SECRET_MARKER, plant_action_marker, plant_secret_markers};
use super::{Action, BagOfFate, Card, State};
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

    /// The hand and, for the Oracle at work, the cards looked at, re-dealt from the deck
    /// (face down: nobody sees it; the discards are public and stay).
    fn perturb(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> Option<State> {
        let mut twin = state.clone();
        let mut secret: Vec<Card> = twin.players.get(seat)?.hand.clone();
        let looking = twin.current_seat() == Some(seat);
        if looking {
            secret.extend(&twin.looked_at);
        }
        if !conformance::redeal(&mut secret, &mut twin.deck, pick) {
            return None;
        }
        twin.deck.sort();
        let player = twin.players.get_mut(seat)?;
        let looked = secret.split_off(player.hand.len());
        player.hand = secret;
        player.hand.sort();
        if looking {
            twin.looked_at = looked;
        }
        Some(twin)
    }
}

/// Bound on a random game (docs/rules/bag-of-fate.md, "Game length"): over 40,000 seeded
/// random games the longest took 1,486 actions.
const MAX_ACTIONS: usize = 5_000;

/// The suite in 2 tests, which the test harness runs on every core (`conformance::shards!`).
mod bag_of_fate_passes_the_conformance_suite {
    use super::*;

    conformance::shards!(
        BagOfFate,
        Config::new(MAX_ACTIONS),
        shard_0_of_2 = 0 of 2,
        shard_1_of_2 = 1 of 2,
    );
}
