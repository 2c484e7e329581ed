//! The shared conformance suite for gnomes-and-wizards.

use super::super::data::CardId;
use super::super::state::State;
use super::super::{Action, GnomesAndWizards, belief};
use crate::rules::Seat;
use crate::rules::conformance::{self, Config, Secrets};

/// A card number no card has (real cards are 0–43): shown as "card 4242".
pub const MARKER_CARD: u16 = 4242;

impl Secrets for GnomesAndWizards {
    const MARKER: &'static str = "4242";

    fn plant(state: &mut State, seat: Seat) {
        if let Some(p) = state.players.get_mut(seat) {
            for c in p.hand.iter_mut().chain(&mut p.learned_hand) {
                *c = MARKER_CARD;
            }
        }
        if state.current() == Some(seat)
            && let Some(d) = state.draw.as_mut()
        {
            for c in d.drawn.iter_mut().chain(&mut d.attach) {
                *c = MARKER_CARD;
            }
        }
    }

    fn plant_action(action: &Action) -> Option<Action> {
        match action {
            Action::DrawCard(_) => Some(Action::DrawCard(MARKER_CARD)),
            _ => None,
        }
    }

    /// The Secret cards in hand (but those declared in an open window: everyone saw them)
    /// and the cards of a draw in progress, re-dealt from the unseen cards of the same deck.
    fn perturb(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> Option<State> {
        let mut twin = state.clone();
        let declared = belief::declared(state, seat);
        let (mut learned, mut secret): (Vec<CardId>, Vec<CardId>) =
            twin.unseen.iter().partition(|c| belief::learned(c));
        let player = twin.players.get_mut(seat)?;
        let (shown, mut hidden): (Vec<CardId>, Vec<CardId>) =
            player.hand.iter().partition(|c| declared.contains(c));
        let mut changed = conformance::redeal(&mut hidden, &mut secret, pick);
        player.hand = shown.into_iter().chain(hidden).collect();
        player.hand.sort_unstable();
        changed |= conformance::redeal(&mut player.learned_hand, &mut learned, pick);
        player.learned_hand.sort_unstable();
        if state.current() == Some(seat)
            && let Some(draw) = twin.draw.as_mut()
        {
            for card in draw.drawn.iter_mut().chain(&mut draw.attach) {
                let pool = if belief::learned(card) {
                    &mut learned
                } else {
                    &mut secret
                };
                changed |= conformance::redeal(std::slice::from_mut(card), pool, pick);
            }
        }
        twin.unseen = learned.into_iter().chain(secret).collect();
        twin.unseen.sort_unstable();
        changed.then_some(twin)
    }
}

/// Bound on a random game (docs/rules/gnomes-and-wizards.md, "Game length").
pub const MAX_ACTIONS: usize = 40_000;

// Its random games run to tens of thousands of actions, and each fully checked state draws and
// parses pictures: one state in 64 is fully checked (16 for the other rulesets), which still
// checks thousands of states per seat count and option set.
/// The suite in 3 tests, which the test harness runs on every core (`conformance::shards!`).
mod gnomes_and_wizards_passes_the_conformance_suite {
    use super::*;

    conformance::shards!(
        GnomesAndWizards,
        Config {
            sample_every: 64,
            ..Config::new(MAX_ACTIONS)
        },
        shard_0_of_3 = 0 of 3,
        shard_1_of_3 = 1 of 3,
        shard_2_of_3 = 2 of 3,
    );
}
