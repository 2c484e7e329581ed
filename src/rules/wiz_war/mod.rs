//! Wiz-War: wizards duel in a labyrinth of sector boards, casting spells from a shared Magic
//! deck, to kill each other and steal treasures. Rulings and the step-by-step mapping onto the
//! engine are in `docs/rules/wiz-war.md`.
//!
//! The files read one way, from the bottom up: no file imports a file on a floor above it, and
//! on one floor a file imports only those listed before it.
//!
//! 1. Data, nothing of the rules:
//!    - `card_def`: what a Magic card is (type, range, aim, traits, duration, effect) and what
//!      a transformed form is; `card_table`: every card's row, the schools' deck lists and the
//!      forms; `cards`: a card by its id, the schools, a game's deck.
//!    - `options`: the game's options.
//!    - `board` (+ `data/sectors.txt`): sectors, layouts, border lines, wraparound and
//!      portals; `sight`: line of sight in integer geometry.
//! 2. The state:
//!    - `state`: the state (with `Target`, what a card is aimed at, which spells in play
//!      keep) and the questions asked of it.
//!    - `actions`: the action type and what the game waits for (`next`, the chance step, the
//!      seat to decide), read from the state.
//! 3. The rules, each step above the ones it starts:
//!    - `changes`: the changes every step shares: damage, death, a spell ended, a wizard
//!      moved, items dropped, draws owed.
//!    - `effects`: each card's effect code, run when a spell or attack resolves.
//!    - `cast`: playing cards, targets, casts step by step, reaction windows; a cast
//!      committed or a window closed runs its effect.
//!    - `flow`: set-up, turns, movement, the automatic steps between decisions, victory; it
//!      resolves the top of the stack (`cast`) and an attack after its evasion roll
//!      (`effects`).
//!    - `legal`: the legal actions of a seat, and why an action is refused.
//!    - `play`: `apply`, the one dispatch: each decision or chance outcome goes to the step
//!      that carries it out, then `flow` runs the automatic steps.
//! 4. For people and bots, on top: `view` (views, log visibility, redaction, descriptions),
//!    `notation`, `orders` (standing orders), `present` and `picture` (text and SVG),
//!    `evaluate` (how well a seat stands, for the built-in bots; it plays the passes of a
//!    window through the ruleset itself), `belief` (what a bot imagines of hidden cards).
//!
//! This file, the [`Ruleset`], delegates to them.

mod actions;
mod belief;
mod board;
mod card_def;
mod card_table;
mod cards;
mod cast;
mod changes;
mod effects;
mod evaluate;
mod flow;
mod legal;
mod notation;
mod options;
mod orders;
mod picture;
mod play;
mod present;
#[cfg(test)]
mod secrets;
mod sight;
mod state;
#[cfg(test)]
mod tests;
mod view;

use std::ops::RangeInclusive;

pub use actions::Action;
pub use board::{Dir, Pos};
pub use cards::{CardId, School};
pub use options::{BoardSide, EDITION, Options};
pub use state::{State, Target};

use crate::rules::{OptionDoc, Ruleset, Seat, SetupError};

/// The ruleset.
pub struct WizWar;

/// The round limit of the conformance suite's and the benchmarks' option sets: random play
/// rarely scores 2 points, so without a limit a random game need not end.
pub const CONFORMANCE_ROUND_LIMIT: u32 = 30;

/// How many of [`WizWar::option_sets`] come first and are played at every seat count: the
/// first-game set (twice: the default, and the other window and board side), and the four
/// combinations added with Conjuring and Mutation. The rest are spread over the seat counts.
pub const FULL_OPTION_SETS: usize = 6;

/// An option set of the conformance suite: these schools, windows asking every wizard, the
/// suite's round limit.
fn conformance_schools(schools: [School; 3]) -> Options {
    Options {
        schools: schools.to_vec(),
        round_limit: Some(CONFORMANCE_ROUND_LIMIT),
        ..Options::default()
    }
}

impl Ruleset for WizWar {
    const ID: &'static str = "wiz-war";
    const NAME: &'static str = "Wiz-War";

    type Options = Options;
    type State = State;
    type Action = Action;
    type View = view::View;

    fn option_docs() -> Vec<OptionDoc> {
        vec![
            OptionDoc {
                name: "schools",
                description: "The three schools of magic shuffled into the deck with White \
                    Cantrip (default: the rulebook's first-game set): any three of alchemy, \
                    conjuring, elemental, mentalism, mutation and thaumaturgy.",
                default: serde_json::json!(["alchemy", "elemental", "mentalism"]),
            },
            OptionDoc {
                name: "ask_every_affected_wizard",
                description: "Open a reaction window for every spell and ask every other \
                    living wizard in turn, whether or not they hold a counter spell, so a \
                    window reveals nothing about hands (the rulebook: hands are kept secret). \
                    Off: only wizards holding a counter that can answer are asked, which is \
                    quicker by mail but shows who holds one.",
                default: serde_json::json!(true),
            },
            OptionDoc {
                name: "round_limit",
                description: "End the game when this round (1 to 1000) is over; the living \
                    wizards with the most victory points win. Default: no limit, as in the \
                    rulebook (play until someone wins).",
                default: serde_json::Value::Null,
            },
            OptionDoc {
                name: "board_side",
                description: "The side of the sector boards all players play on: \"a\" (new) \
                    or \"b\" (classic), each with its own four sector designs.",
                default: serde_json::json!("a"),
            },
        ]
    }

    /// Random play need not ever score 2 points, so the suite's (and the benchmarks') playouts
    /// carry a round limit. The first [`FULL_OPTION_SETS`] sets are played at every seat count;
    /// after them come the other combinations of three schools (every one of the C(6,3) = 20
    /// is covered), which the suite spreads over the seat counts (`Config::spread_from`).
    fn option_sets() -> Vec<Options> {
        let mut sets = vec![
            Options {
                round_limit: Some(CONFORMANCE_ROUND_LIMIT),
                ..Options::default()
            },
            Options {
                ask_every_affected_wizard: false,
                round_limit: Some(CONFORMANCE_ROUND_LIMIT),
                board_side: BoardSide::B,
                ..Options::default()
            },
            // Every other combination of the schools available (each with Conjuring).
            conformance_schools([School::Alchemy, School::Conjuring, School::Elemental]),
            conformance_schools([School::Alchemy, School::Conjuring, School::Mentalism]),
            conformance_schools([School::Conjuring, School::Elemental, School::Mentalism]),
            // Mutation, with the first-game set's Alchemy and Elemental (Mightstone and
            // Strength on punches, fire on a Golem, Waterbolt beside Heave-Ho). One set only:
            // which other combinations the suite covers is the lead's choice (CI time).
            conformance_schools([School::Alchemy, School::Elemental, School::Mutation]),
        ];
        let all = School::CHOOSABLE;
        for (i, a) in all.iter().enumerate() {
            for (j, b) in all.iter().enumerate().skip(i + 1) {
                for c in all.iter().skip(j + 1) {
                    let schools = [*a, *b, *c];
                    let listed = sets.iter().any(|o| {
                        let mut s = o.schools.clone();
                        s.sort();
                        s == schools
                    });
                    if !listed {
                        sets.push(conformance_schools(schools));
                    }
                }
            }
        }
        sets.into_iter().map(Self::for_new_game).collect()
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
                "Wiz-War takes 2 to 4 players, not {seats}"
            )));
        }
        options.check()?;
        board::designs().map_err(SetupError)?;
        State::new(options.clone(), seats)
            .ok_or_else(|| SetupError(format!("no layout for {seats} players")))
    }

    crate::rules::parts!(
        next: actions, legal_actions: legal, apply: play, view, belief, evaluate,
        present, picture, notation, orders
    );

    /// Cancelling a cast takes back the step that began it: a bot that casts Fog, cancels and
    /// casts it again would never end its turn (it did, in a bot game of seed 5). Dropping an
    /// item picked up this turn takes back the pick-up: with Homonculus a pick-up costs no
    /// movement, and the bot dropped a stone and picked it up again 1,500 times in a turn (9
    /// of 200 duels against a random player, `docs/BOTS.md`); the dropped object's new id made
    /// each state a new one, so the bot's memory of the turn did not stop it.
    fn takes_back(state: &State, _seat: Seat, action: &Action) -> bool {
        match action {
            Action::CancelCast => true,
            Action::Drop(card) => state.turn.picked_up.contains(card),
            _ => false,
        }
    }

    /// A wizard with cards in hand is asked even when none of them can be used now: playing
    /// the lone choice ("pass" in a counter window, "end") at once would tell the table so.
    /// With an empty hand (its count is public) a lone choice tells nobody anything and is
    /// played (docs/rules/wiz-war.md, "Forced choices").
    fn keeps_asking(state: &State, seat: Seat) -> bool {
        state.wizards.get(seat).is_none_or(|w| !w.hand.is_empty())
    }

    /// When a deadline passes: pass in a window, take back a spell being cast, end the move,
    /// end the turn; over the hand limit, discard a card drawn at random (the first card of the
    /// sorted hand would tell everyone that no card of it sorts before: ruling 31), or with an
    /// empty hand drop the first carried item or end the first spell (both public).
    /// Nothing else reaches the first legal action: every other step lists one of these.
    fn default_action(state: &State, seat: Seat) -> Option<Action> {
        let legal = legal::legal_actions(state, seat);
        [
            Action::Pass,
            Action::CancelCast,
            Action::EndMove,
            Action::EndTurn,
            Action::DiscardAtRandom,
        ]
        .into_iter()
        .find(|a| legal.contains(a))
        .or_else(|| legal.into_iter().next())
    }
}

impl State {
    fn new(options: Options, seats: usize) -> Option<State> {
        let board = board::Board::new(seats)?;
        let deck = cards::deck(&options.schools);
        Some(State {
            options,
            board,
            wizards: (0..seats)
                .map(|_| state::Wizard {
                    at: None,
                    life: state::START_LIFE,
                    kills: 0,
                    stun: 0,
                    hand: Vec::new(),
                    items: Vec::new(),
                    treasure: None,
                    turns: 0,
                    form: None,
                })
                .collect(),
            treasures: Vec::new(),
            objects: Vec::new(),
            spells: Vec::new(),
            deck,
            discard: Vec::new(),
            next_id: 0,
            phase: state::Phase::Building {
                slot: 0,
                sector: None,
            },
            turn: state::Turn::default(),
            casting: None,
            stack: Vec::new(),
            needs: Vec::new(),
            events: Vec::new(),
            colours: Vec::new(),
        })
    }
}
