//! The shared conformance suite (src/rules/conformance.rs) for wiz-war.

use super::super::secrets::{SECRET_MARKER, plant_action_marker, plant_secret_markers};
use super::super::state::How;
use super::super::{Action, CardId, FULL_OPTION_SETS, State, WizWar};
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
    /// The hand, re-dealt from the unseen deck; but what everyone saw named stays: the card
    /// being cast, and the Around the Corner a target out of sight needs (choosing that target
    /// told the table the caster holds one).
    fn perturb(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> Option<State> {
        let mut twin = state.clone();
        let casting = state.casting.as_ref().filter(|_| state.turn.seat == seat);
        let mut shown = vec![];
        if let Some(c) = casting {
            if c.how == How::Cast {
                shown.push(c.card);
            }
            if c.bent {
                shown.extend(CardId::by_key("around_the_corner"));
            }
        }
        let hand = &mut twin.wizards.get_mut(seat)?.hand;
        let mut hidden = hand.clone();
        let mut kept = vec![];
        for card in shown {
            if let Some(i) = hidden.iter().position(|&c| c == card) {
                kept.push(hidden.remove(i));
            }
        }
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
