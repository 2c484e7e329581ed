//! Monsters and Magic (Warpspawn): an 8×8 map of random terrain and structures, four figure
//! types and garrisons, an ally deck of 64 cards as permanent and hand cards, combat by 2D6
//! plus force, and four ways to win. Rulings and the step-by-step mapping onto the engine are
//! in `docs/rules/monsters-and-magic.md`.
//!
//! The files read one way, from the bottom up: no file imports a file on a floor above it, and
//! on one floor a file imports only those listed before it.
//!
//! 1. Data, nothing of the rules: `data` (terrain, structures, figure types and the ally
//!    cards, `cards.json`), `options` (the game's options).
//! 2. The state: `state` (the state and the questions asked of it); `actions` (the action
//!    type and what the game waits for, `next`, read from the state).
//! 3. The rules, each step above the ones it starts:
//!    - `flow`: set-up, the automatic phases, recruitment, the End phase, victory, and the
//!      changes the steps above share (a figure added, a card swapped, a player eliminated).
//!    - `combat`: fights; `movement`: the Movement phase, whose move into an enemy space
//!      starts a fight; `powers`: hand cards and card powers.
//!    - `legal`: the legal actions of a seat, and why an action is refused.
//!    - `play`: `apply`, the one dispatch: each decision or chance outcome goes to the step
//!      that carries it out, then `flow` runs the automatic phases.
//! 4. For people and bots, on top: `view` (views, log visibility, redaction, descriptions),
//!    `notation`, `orders` (standing orders), `present` and `picture` (text and SVG),
//!    `evaluate` (how well a seat stands, for the built-in bots), `belief` (what a bot
//!    imagines of hidden cards).
//!
//! This file, the [`Ruleset`], delegates to them.

mod actions;
mod belief;
mod combat;
mod data;
mod evaluate;
mod flow;
mod legal;
mod movement;
mod notation;
mod options;
mod orders;
mod picture;
mod play;
mod powers;
mod present;
#[cfg(test)]
mod secrets;
mod state;
#[cfg(test)]
mod tests;
mod view;

use std::ops::RangeInclusive;

use serde_json::json;

pub use actions::Action;
pub use data::{CardId, FigureKind, Structure, Terrain, UnitKind};
pub use options::{EDITION, MAX_HAND_SIZE, MAX_PERMANENT_CARDS, Options};
pub use state::{Phase, Pos, State, Stop, Unit};

use crate::rules::{OptionDoc, Ruleset, Seat, SetupError};

/// The ruleset.
pub struct MonstersAndMagic;

impl Ruleset for MonstersAndMagic {
    const ID: &'static str = "monsters-and-magic";
    const NAME: &'static str = "Monsters and Magic";

    type Options = Options;
    type State = State;
    type Action = Action;
    type View = view::View;

    fn option_docs() -> Vec<OptionDoc> {
        vec![
            OptionDoc {
                name: "realignment",
                description: "The optional Realignment rule: in the End phase you may discard \
                              1 of your permanent cards and replace it with a card from your hand.",
                default: json!(false),
            },
            OptionDoc {
                name: "permanent_cards",
                description: "Variant: the number of permanent cards each player is dealt \
                              (0 to 10; the rulebook deals 5).",
                default: json!(5),
            },
            OptionDoc {
                name: "hand_size",
                description: "Variant: the maximum hand size at the end of a turn (1 to 10; \
                              the rulebook says 5; the Emperor adds 2).",
                default: json!(5),
            },
        ]
    }

    /// As new games get them (the current edition); games of edition 0 are the old logs'
    /// (`rules::old_logs`) and the rule tests'.
    fn option_sets() -> Vec<Options> {
        vec![
            Self::for_new_game(Options::default()),
            Self::for_new_game(Options {
                realignment: true,
                ..Options::default()
            }),
            Self::for_new_game(Options {
                realignment: false,
                permanent_cards: 3,
                hand_size: 3,
                edition: 0,
            }),
            Self::for_new_game(Options {
                realignment: true,
                permanent_cards: 8,
                hand_size: 7,
                edition: 0,
            }),
        ]
    }

    fn for_new_game(options: Options) -> Options {
        Options {
            edition: EDITION,
            ..options
        }
    }

    fn seats(_options: &Options) -> RangeInclusive<usize> {
        2..=4
    }

    fn new_game(options: &Options, seats: usize) -> Result<State, SetupError> {
        if !Self::seats(options).contains(&seats) {
            return Err(SetupError(format!(
                "{} takes 2 to 4 players, not {seats}",
                Self::NAME
            )));
        }
        if options.permanent_cards > MAX_PERMANENT_CARDS {
            return Err(SetupError(format!(
                "permanent_cards must be 0 to {MAX_PERMANENT_CARDS}, not {}",
                options.permanent_cards
            )));
        }
        if options.hand_size == 0 || options.hand_size > MAX_HAND_SIZE {
            return Err(SetupError(format!(
                "hand_size must be 1 to {MAX_HAND_SIZE}, not {}",
                options.hand_size
            )));
        }
        let deck = data::full_deck();
        if deck.is_empty() {
            return Err(SetupError("the ally card data did not load".to_owned()));
        }
        let mut state = State::new(options.clone(), seats, deck);
        flow::advance(&mut state);
        Ok(state)
    }

    crate::rules::parts!(
        next: actions, legal_actions: legal, apply: play, view, belief, evaluate,
        present, picture, notation, orders
    );

    /// When a deadline passes: play no more cards, end the movement phase, end the turn,
    /// leave a stop, cancel a half-made Illusion or Alter Terrain, finish the Alchemist,
    /// discard a card drawn at random (the first card of the sorted hand would tell everyone
    /// that no card of it sorts before: ruling 43); otherwise the first legal action (the
    /// first starting figure, the first recruit space: all public).
    /// Cancelling the Illusionist or Alter Terrain after choosing its first unit or square
    /// (nothing was spent yet) leads back to the state before it.
    fn takes_back(_state: &State, _seat: Seat, action: &Action) -> bool {
        matches!(action, Action::CancelIllusion | Action::CancelAlterTerrain)
    }

    /// A player with cards in hand is asked even when none can be played now: playing the
    /// lone choice at once would tell the table so. With an empty hand (its count is public)
    /// a lone choice, a fight's "done" too, tells nobody anything and is played
    /// (docs/rules/monsters-and-magic.md, "Forced choices").
    fn keeps_asking(state: &State, seat: Seat) -> bool {
        state.players.get(seat).is_none_or(|p| !p.hand.is_empty())
    }

    fn default_action(state: &State, seat: Seat) -> Option<Action> {
        let legal = legal::legal_actions(state, seat);
        [
            Action::DoneCards,
            Action::CancelIllusion,
            Action::CancelAlterTerrain,
            Action::AlchemyDone,
            Action::EndMovement,
            Action::EndTurn,
            Action::DiscardAtRandom,
            Action::GoOn,
            Action::DeclineExtraFigure,
        ]
        .into_iter()
        .find(|a| legal.contains(a))
        .or_else(|| {
            legal
                .iter()
                .find(|a| matches!(a, Action::Recruit { .. }))
                .cloned()
        })
        .or_else(|| legal.into_iter().next())
    }
}
