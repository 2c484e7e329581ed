//! The shared conformance suite for gnomes-and-wizards.

use super::super::state::State;
use super::super::{Action, GnomesAndWizards};
use crate::rules::Seat;
use crate::rules::conformance::{self, Config, Secrets};

/// A card number no card has (real cards are 0–43): shown as "card 4242".
pub const MARKER_CARD: u16 = 4242;

impl Secrets for GnomesAndWizards {
    const MARKER: &'static str = "4242";

    fn plant(state: &mut State, seat: Seat) {
        if let Some(p) = state.players.get_mut(seat) {
            for c in &mut p.hand {
                *c = MARKER_CARD;
            }
        }
        if state.current() == Some(seat)
            && let Some(d) = state.draw.as_mut()
        {
            for c in &mut d.drawn {
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
}

/// Bound on a random game (docs/rules/gnomes-and-wizards.md, "Game length").
pub const MAX_ACTIONS: usize = 40_000;

#[test]
fn gnomes_and_wizards_passes_the_conformance_suite() {
    // Its random games run to tens of thousands of actions, and each fully checked state now
    // draws and parses pictures: one state in 64 is fully checked (16 for the other rulesets),
    // which still checks thousands of states per seat count and option set.
    let config = Config {
        sample_every: 64,
        ..Config::new(MAX_ACTIONS)
    };
    conformance::check::<GnomesAndWizards>(&config);
}
