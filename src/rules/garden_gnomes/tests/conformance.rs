//! The shared conformance suite (src/rules/conformance.rs) for garden-gnomes.

use super::super::secrets::{SECRET_MARKER, plant_action_marker, plant_secret_markers};
use super::{Action, GardenGnomes, State};
use crate::rules::Seat;
use crate::rules::conformance::{self, Config, Secrets};
use crate::rules::garden_gnomes::data::objective;

impl Secrets for GardenGnomes {
    const MARKER: &'static str = SECRET_MARKER;

    fn plant(state: &mut State, seat: Seat) {
        plant_secret_markers(state, seat);
    }

    fn plant_action(action: &Action) -> Option<Action> {
        plant_action_marker(action)
    }
    /// The neutral objectives of the seat's clans (dealt, kept or given up) re-dealt from the
    /// neutral deck nobody has seen, and which were kept swapped with which were given up.
    /// (A clan's own objectives are known to all: only the choice among them is secret.)
    fn perturb(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> Option<State> {
        let mut twin = state.clone();
        let mut changed = false;
        // Each clan gets only cards of the deck: one of its objectives passing to the seat's
        // other clan would change which clan a keep is for, which everyone sees.
        let unseen = std::mem::take(&mut twin.neutral_deck);
        let mut pool = unseen.clone();
        let mut given_up = Vec::new();
        for clan in twin.clans.iter_mut().filter(|c| c.seat == seat) {
            let sorted = [&clan.offered, &clan.kept, &clan.discarded].map(|v| v.is_sorted());
            let neutral = |id: &u16| objective(*id).is_some_and(|o| o.clan.is_none());
            for id in clan
                .offered
                .iter_mut()
                .chain(clan.kept.iter_mut())
                .chain(clan.discarded.iter_mut())
                .filter(|id| neutral(id))
            {
                changed |= conformance::redeal(std::slice::from_mut(id), &mut pool, pick);
            }
            given_up.extend(pool.iter().filter(|id| !unseen.contains(id)));
            pool.retain(|id| unseen.contains(id));
            if !clan.kept.is_empty() && !clan.discarded.is_empty() {
                let (k, d) = (pick(clan.kept.len()), pick(clan.discarded.len()));
                std::mem::swap(&mut clan.kept[k], &mut clan.discarded[d]);
                changed = true;
            }
            for (list, was_sorted) in [&mut clan.offered, &mut clan.kept, &mut clan.discarded]
                .into_iter()
                .zip(sorted)
            {
                if was_sorted {
                    list.sort_unstable();
                }
            }
        }
        twin.neutral_deck = pool.into_iter().chain(given_up).collect();
        twin.neutral_deck.sort_unstable();
        changed.then_some(twin)
    }
}

/// Bound on a random game (docs/rules/garden-gnomes.md, "Game length"): the round limit ends
/// every game; over 500 seeded random playouts per option set and seat count the longest
/// took 1,160 actions.
pub const MAX_ACTIONS: usize = 5_000;

/// The suite in 2 tests, which the test harness runs on every core (`conformance::shards!`).
mod garden_gnomes_passes_the_conformance_suite {
    use super::*;

    conformance::shards!(
        GardenGnomes,
        Config::new(MAX_ACTIONS),
        shard_0_of_2 = 0 of 2,
        shard_1_of_2 = 1 of 2,
    );
}
