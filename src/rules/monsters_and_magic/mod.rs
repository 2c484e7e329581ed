//! Monsters and Magic (Warpspawn): an 8×8 map of random terrain and structures, four figure
//! types and garrisons, an ally deck of 64 cards as permanent and hand cards, combat by 2D6
//! plus force, and four ways to win. Rulings and the step-by-step mapping onto the engine are
//! in `docs/rules/monsters-and-magic.md`.
//!
//! - `data`: terrain, structures, figure types and the ally cards (`cards.json`) as data.
//! - `state`: the state and the questions asked of it.
//! - `flow`: set-up, the automatic phases, recruitment, the End phase, victory.
//! - `movement`, `combat`, `powers`: the Movement phase, fights, card powers.
//! - `actions`, `legal`: the action type, `next`, legal actions and `apply`.
//! - `view`: views, log visibility, redaction and descriptions.
//! - `evaluate`: how well a seat stands, for the built-in bots.

mod actions;
mod belief;
mod combat;
mod data;
mod evaluate;
mod flow;
mod legal;
mod movement;
mod notation;
mod orders;
mod picture;
mod powers;
mod present;
#[cfg(test)]
mod secrets;
mod state;
#[cfg(test)]
mod tests;
mod view;

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::json;

pub use actions::Action;
pub use data::{CardId, FigureKind, Structure, Terrain, UnitKind};
pub use state::{Phase, Pos, State, Stop, Unit};

use crate::rules::{
    Actor, Next, OptionDoc, RuleError, Ruleset, Seat, SetupError, Viewer, Visibility,
};

/// The ruleset.
pub struct MonstersAndMagic;

/// The rulebook's variants and optional rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// "THE OPTIONAL REALIGNMENT RULE".
    pub realignment: bool,
    /// "Increase or Decrease the number of Permanent Cards" (rulebook: 5), 0 to 10.
    #[schemars(range(max = MAX_PERMANENT_CARDS))]
    pub permanent_cards: u8,
    /// "Increase or Decreas Max Hand Size" (rulebook: 5), 1 to 10.
    #[schemars(range(min = 1, max = MAX_HAND_SIZE))]
    pub hand_size: u8,
    /// The rules edition the game was created under (set by `for_new_game`, never chosen):
    /// absent (0) in games created before edition 1, which keep the old rules
    /// (docs/rules/monsters-and-magic.md, "Editions").
    #[serde(skip_serializing_if = "is_zero")]
    pub edition: u32,
}

/// The edition new games are created under: 1 lets a figure that arrives before or during
/// the Movement phase move in it (ruling 15), and offers the Movement phase's powers and
/// cards at the stops before it (ruling 22); 2 ends the turn of a player who is out of the
/// game (ruling 41), keeps the Jester and the Oracle off players who are out, counts "Once
/// on your Turn" per copy of a card (ruling 22) and lets a figure enter a Town again for free
/// once it has paid a move point since (ruling 12).
pub const EDITION: u32 = 2;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Default for Options {
    fn default() -> Self {
        Options {
            realignment: false,
            permanent_cards: 5,
            hand_size: 5,
            edition: 0,
        }
    }
}

/// The most permanent cards a player may be dealt (4 players × 10 leaves 24 to draw).
pub const MAX_PERMANENT_CARDS: u8 = 10;
pub const MAX_HAND_SIZE: u8 = 10;

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

    fn next(state: &State) -> Next<Action> {
        actions::next(state)
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        legal::legal_actions(state, seat)
    }

    fn apply(state: &mut State, actor: Actor, action: &Action) -> Result<(), RuleError> {
        actions::apply(state, actor, action)
    }

    fn typed_view(state: &State, viewer: Viewer) -> view::View {
        view::typed_view(state, viewer)
    }

    fn view_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        view::view_schema(generator)
    }

    fn visibility(state: &State, actor: Actor, action: &Action) -> Visibility {
        view::visibility(state, actor, action)
    }

    fn redact(state: &State, actor: Actor, action: &Action) -> serde_json::Value {
        view::redact(state, actor, action)
    }

    fn describe(state: &State, actor: Actor, action: &Action, viewer: Viewer) -> String {
        view::describe(state, actor, action, viewer)
    }

    fn imagine(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> State {
        belief::imagine(state, seat, pick)
    }

    fn evaluate(state: &State, seat: Seat) -> i64 {
        evaluate::evaluate(state, seat)
    }

    fn present(state: &State, viewer: Viewer, names: &[String]) -> crate::rules::Presented {
        present::present(state, viewer, names)
    }

    fn picture(state: &State, viewer: Viewer, names: &[String]) -> Option<String> {
        Some(picture::picture(state, viewer, names))
    }

    fn targets(state: &State, seat: Seat, actions: &[Action]) -> Vec<Option<String>> {
        picture::targets(state, seat, actions)
    }

    fn choices(
        state: &State,
        seat: Seat,
        actions: &[Action],
        names: &[String],
    ) -> Vec<crate::rules::ChoiceGroup> {
        present::choices(state, seat, actions, names)
    }

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

    /// Cards by name, figures by kind and number, spaces as the board names them
    /// (docs/rules/monsters-and-magic.md, "Notation").
    fn notation(state: &State, _seat: Seat, action: &Action) -> String {
        notation::notation(state, action)
    }

    /// A player with cards in hand is asked even when none can be played now: playing the
    /// lone choice at once would tell the table so. With an empty hand (its count is public)
    /// a lone choice, a fight's "done" too, tells nobody anything and is played
    /// (docs/rules/monsters-and-magic.md, "Forced choices").
    fn keeps_asking(state: &State, seat: Seat) -> bool {
        state.players.get(seat).is_none_or(|p| !p.hand.is_empty())
    }

    fn standing_orders() -> Vec<crate::rules::OrderDoc> {
        orders::standing_orders()
    }

    fn standing_answer(state: &State, seat: Seat, order: &str) -> Option<Action> {
        orders::standing_answer(state, seat, order)
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
