//! "The Wizard Always Wins" (Bag of Fate): choose a character each round, draw and play
//! element cards and tokens, turn in sets to level up and put gems into the Bag of Fate; the
//! Wizard who draws their own gem wins. Rulings and the step-by-step mapping onto the engine
//! are in `docs/rules/bag-of-fate.md`.
//!
//! - `data`: elements, cards, tokens and characters as data (stand-ins from CONTENT.md).
//! - `state`: the state and the questions asked of it.
//! - `flow`: automatic steps (skips, forced choices, token effects, end of turn, clean-up).
//! - `actions`: the action type, `next`, legal actions and `apply`.
//! - `view`: views, log visibility, redaction and descriptions.
//! - `label`: each legal action as a choice, in the imperative.
//! - `evaluate`: how well a seat stands, for the built-in bots.
//! - `orders`: the standing order `characters` (a private list of characters, best first).

mod actions;
mod belief;
mod data;
mod evaluate;
mod flow;
mod label;
mod notation;
mod orders;
mod picture;
mod present;
#[cfg(test)]
mod secrets;
mod state;
#[cfg(test)]
mod tests;
mod view;

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

pub use actions::Action;
pub use data::{Card, Character, Element, Token};
pub use state::{Item, Phase, Player, State};

#[cfg(test)]
pub(crate) use secrets::{SECRET_MARKER, plant_action_marker, plant_secret_markers};

use crate::rules::{OptionDoc, Ruleset, Seat, SetupError};

/// The ruleset.
pub struct BagOfFate;

/// The rulebook has no variants, so there are no options to choose; `edition` records the
/// rules edition a game was created under (set by `for_new_game`, never chosen).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// Absent (0) in games created before edition 1, which still accept the old
    /// `{"play_card": n}` by hand index (ruling 21).
    #[serde(skip_serializing_if = "is_zero")]
    pub edition: u32,
}

/// The edition new games are created under: 1 refuses the unlisted `play_card` (ruling 21);
/// 2 makes the discards the deck when the deck runs out or, if there were none then, when a
/// card is next wanted, not the first discards alone (ruling 6).
pub const EDITION: u32 = 2;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Ruleset for BagOfFate {
    const ID: &'static str = "bag-of-fate";
    const NAME: &'static str = "The Wizard Always Wins (Bag of Fate)";

    type Options = Options;
    type State = State;
    type Action = Action;
    type View = view::View;

    fn option_docs() -> Vec<OptionDoc> {
        Vec::new()
    }

    fn option_sets() -> Vec<Options> {
        vec![Self::for_new_game(Options::default())]
    }

    fn for_new_game(_options: Options) -> Options {
        Options { edition: EDITION }
    }

    fn seats(_options: &Options) -> RangeInclusive<usize> {
        2..=5
    }

    fn new_game(options: &Options, seats: usize) -> Result<State, SetupError> {
        if !Self::seats(options).contains(&seats) {
            return Err(SetupError(format!(
                "{} takes 2 to 5 players, not {seats}",
                Self::NAME
            )));
        }
        let mut state = State::new(seats);
        state.edition = options.edition;
        flow::advance(&mut state);
        Ok(state)
    }

    crate::rules::parts!(
        play: actions, view, label, belief, evaluate, present, picture, notation, orders,
        check_order: orders
    );

    /// Stopping a set before it is turned in puts its cards and tokens back as they were, and
    /// cancelling a trade before it is made starts it over: each leads back to the state
    /// before the step that began it. (The bot turned in a set of Flowers and stopped, over and
    /// over, in a game that never ended: issue 38.)
    fn takes_back(_state: &State, _seat: Seat, action: &Action) -> bool {
        matches!(action, Action::CancelSet | Action::CancelTrade)
    }

    /// When a deadline passes: end the turn rather than turn in sets, give up a set in
    /// progress, play a card drawn at random from the hand (the first card of the sorted hand
    /// would tell everyone that no card of it sorts before: ruling 20), and otherwise take the
    /// first legal choice (the lowest-numbered character, the first looked-at card, the first
    /// partner and items of the trade: all public, or hidden from the others alike).
    fn default_action(state: &State, seat: Seat) -> Option<Action> {
        let legal = actions::legal_actions(state, seat);
        // Not `cancel_trade`: the trade must be made, and cancelling only starts it over.
        [Action::EndTurn, Action::CancelSet, Action::PlayAtRandom]
            .into_iter()
            .find(|a| legal.contains(a))
            .or_else(|| legal.into_iter().next())
    }
}
