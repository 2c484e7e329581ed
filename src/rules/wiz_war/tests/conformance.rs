//! The shared conformance suite (src/rules/conformance.rs) for wiz-war.

use super::super::secrets::{SECRET_MARKER, plant_action_marker, plant_secret_markers};
use super::super::state::How;
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
    /// The hand, re-dealt from the unseen deck; but the card being cast, which everyone saw
    /// named, stays.
    fn perturb(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> Option<State> {
        let mut twin = state.clone();
        let shown = state
            .casting
            .as_ref()
            .filter(|c| c.how == How::Cast && state.turn.seat == seat)
            .map(|c| c.card);
        let hand = &mut twin.wizards.get_mut(seat)?.hand;
        let mut hidden = hand.clone();
        let kept = shown.and_then(|card| hidden.iter().position(|&c| c == card));
        let kept = kept.map(|i| hidden.remove(i));
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

#[test]
fn wiz_war_passes_the_conformance_suite() {
    let report = conformance::check::<WizWar>(&Config::new(MAX_ACTIONS));
    println!("{report:?}");
}
