//! What the bot remembers between its decisions: the states each seat has decided in, so that
//! within a turn it never comes back to one (issue 38: "No dithering, by construction").
//!
//! The look-ahead of one decision cannot see where the seat has been: from the state before a
//! step, taking the step can look best, and from the state after it, taking it back (a
//! bag-of-fate bot turned in a set of Flowers and stopped turning it in, thousands of times).
//! So whoever lets the bot decide several times in a row keeps a [`Memory`]: a candidate that
//! leads back to a state the seat already decided in is never chosen while another is left,
//! whatever the evaluation says.

use serde_json::Value;

use crate::rules::{GameState, Seat};

/// States remembered per seat, the most recent ones (a turn of any ruleset takes fewer
/// decisions; comparing a candidate with each costs one equality test).
const REMEMBERED: usize = 64;

/// The states each seat decided in, most recent last.
#[derive(Default)]
pub struct Memory {
    seats: Vec<(Seat, Vec<Box<dyn GameState>>)>,
}

impl Memory {
    /// [`super::choose`] for `seat` in `state`, never back to a state this memory holds for
    /// the seat while it has another choice; the state is remembered.
    pub fn choose(&mut self, state: &dyn GameState, seat: Seat, seed: u64) -> Option<Value> {
        let action = super::choose_after(state, seat, seed, self.of(seat));
        self.remember(state, seat);
        action
    }

    /// The states `seat` decided in.
    pub fn of(&self, seat: Seat) -> &[Box<dyn GameState>] {
        self.seats
            .iter()
            .find(|(s, _)| *s == seat)
            .map_or(&[], |(_, states)| states.as_slice())
    }

    /// Remembers that `seat` decided in `state`.
    pub fn remember(&mut self, state: &dyn GameState, seat: Seat) {
        let at = match self.seats.iter().position(|(s, _)| *s == seat) {
            Some(at) => at,
            None => {
                self.seats.push((seat, Vec::new()));
                self.seats.len() - 1
            }
        };
        let Some((_, states)) = self.seats.get_mut(at) else {
            return;
        };
        if states.len() >= REMEMBERED {
            states.remove(0);
        }
        states.push(state.clone_box());
    }

    /// Whether `seat` already decided in `state`.
    pub fn has_been(&self, state: &dyn GameState, seat: Seat) -> bool {
        self.of(seat).iter().any(|s| s.same_state(state))
    }
}
