//! Gnomes & Wizards (Cavernwire Games): tribes of a Leader and six Clans fight over ten
//! rounds on a board of triangle tiles that crumbles from round six. Rulings, stand-in content
//! and the mapping onto the engine are in `docs/rules/gnomes-and-wizards.md`.
//!
//! The files read one way, bottom floor first: a file uses only files on the floors below it
//! (and, on the top floor, `present` and `picture` use `view`). This file is the entrance: it assembles
//! them into the `Ruleset`.
//!
//! 1. Data: `data` (tribes, units, abilities, the 44 cards and the die, and their names:
//!    stand-ins, as data) and `board` (the triangular grid, the shapes, mines, halves and
//!    leader starts).
//! 2. The state: `state`, and the questions asked of it.
//! 3. The rules, each step below the steps that call it: `combat` (damage, attacks, flips and
//!    falls, counters); `call` (Call to War and charging) and `solo` (the automaton: what the
//!    crumbling earth may flip, its strike back); `cast` (abilities and reaction windows);
//!    `turn` (the turn and the end of the game; it owns the dispatch between the steps, so a
//!    step that must go on to another returns to it); `setup` (set-up, then the first turn);
//!    `prompt` (what the game waits for, in words); `actions` (the actions, `next`, legality,
//!    `apply`: the top of the rules, which refuses with the prompt).
//! 4. What people and bots make of it, reading the rules and never read by them: `view`
//!    (views, log visibility and descriptions), `present` (the table and the grouped choices
//!    in words), `picture` (SVG), `notation`, `orders` (standing orders), `evaluate` (how well
//!    a seat stands) and `belief` (what a seat imagines of the cards it cannot see), the last
//!    two for the built-in bots.

mod actions;
mod belief;
pub mod board;
mod call;
mod cast;
mod combat;
pub mod data;
mod evaluate;
mod notation;
mod orders;
mod picture;
mod present;
mod prompt;
mod setup;
mod solo;
mod state;
#[cfg(test)]
mod tests;
mod turn;
mod view;

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

pub use actions::Action;
pub use board::{Shape, Side, TileId};
pub use data::{CardId, Deck, Face, Token, Tribe};
pub use state::{Cast, Phase, Source, State, Step, Target, UnitRef};

use crate::rules::{OptionDoc, Ruleset, Seat, SetupError};

/// The ruleset.
pub struct GnomesAndWizards;

/// A variant of the rulebook's 'Game Variants' section.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    TeamPlay,
    BalancedTerrain,
    Fatigue,
    EnemyOccupation,
    HomeField,
    ShorterGame,
    TemporaryAlliances,
    EmpoweringCall,
    /// 'Every Tribe for Themselves' (four players): Leaders start on any perimeter tile.
    EveryTribeForThemselves,
}

/// Options: `{"variants":["fatigue"],"own_turn_casting":true,"tribes":["imblasham","betrumour"],"shape":"broad"}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    pub variants: Vec<Variant>,
    /// Abilities may be cast only in one's own turn: no reaction windows (faster by mail).
    pub own_turn_casting: bool,
    /// Tribes by seat (solo: the player's, then the automaton's); empty deals them at random.
    /// Otherwise one different tribe per seat (solo: two); with `team_play`, seats 0 and 2 one
    /// faction and 1 and 3 the other.
    #[schemars(length(max = 4), extend("uniqueItems" = true))]
    pub tribes: Vec<Tribe>,
    /// 'Shape It Up': the board's shape.
    pub shape: Shape,
    /// The rules edition the game was created under (set by `for_new_game`, never chosen):
    /// absent (0) in games created before edition 1, which keep the old rules
    /// (docs/rules/gnomes-and-wizards.md, "Editions").
    #[serde(skip_serializing_if = "is_zero")]
    pub edition: u32,
}

/// The edition new games are created under. Edition 1 (the fresh review of 2026-11-28,
/// docs/reviews/2026-11-28-gnomes-and-wizards.md): the turn does not end by itself after an
/// ability is filled while its player could still cast (R1); a unit falling onto a crystal
/// mine adds a crystal (R3); a team-mate's unit defeated wins no card (R4). Edition 2 (the
/// audit of 2026-11-28, docs/reviews/audit-2026-11-28-gnomes-and-wizards.md): the active
/// player answers a reaction window after the others and its casts resolve first (l.381); a
/// summon or an empowering call waits for the others' answers before it takes effect; crystal
/// mines always get a tile; a Clan whose two tiles were flipped is never called or charged
/// again (l.303, l.441); solo, an ability's attack made from the target's tile draws the
/// strike-back (l.588); a temporary ally may end the alliance as a unit moves through its
/// units' tile, which then stops it (l.531); restore abilities only turn a tile face up.
pub const EDITION: u32 = 2;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Options {
    pub fn has(&self, v: Variant) -> bool {
        self.variants.contains(&v)
    }

    fn with(variants: &[Variant]) -> Options {
        Options {
            variants: variants.to_vec(),
            ..Options::default()
        }
    }
}

impl Ruleset for GnomesAndWizards {
    const ID: &'static str = "gnomes-and-wizards";
    const NAME: &'static str = "Gnomes & Wizards";

    type Options = Options;
    type State = State;
    type Action = Action;
    type View = view::View;

    fn option_docs() -> Vec<OptionDoc> {
        vec![
            OptionDoc {
                name: "variants",
                description: "Rulebook variants to play: team_play (4 seats, gnomes vs wizards), \
                    balanced_terrain, fatigue, enemy_occupation, home_field, shorter_game, \
                    temporary_alliances, empowering_call, every_tribe_for_themselves (4 seats, \
                    not with team_play: Leaders start on any perimeter tile). Solo always plays \
                    enemy_occupation.",
                default: serde_json::json!([]),
            },
            OptionDoc {
                name: "own_turn_casting",
                description: "Abilities may be cast only in one's own turn: no reaction windows \
                    in other players' turns (faster games by mail).",
                default: serde_json::json!(false),
            },
            OptionDoc {
                name: "tribes",
                description: "The tribe of each seat (solo: the player's, then the automaton's), \
                    from turquefoss, achrinnolder, imblasham, betrumour; empty deals them at random.",
                default: serde_json::json!([]),
            },
            OptionDoc {
                name: "shape",
                description: "'Shape It Up': standard (the rulebook's board), broad, long, or \
                    a board of your own, {\"hexagon\":[top, upper right, lower right, bottom, \
                    lower left, upper left]}: a hexagon of triangles given by its six sides (a \
                    side may be 0) that closes (top - bottom = lower left - upper right = lower \
                    right - upper left), with 12 spaces per tribe and at most 12 more, at most 7 \
                    rows high and 15 triangles wide; the innermost fifth are crystal mines.",
                default: serde_json::json!("standard"),
            },
        ]
    }

    /// As new games get them (the current edition); games of edition 0 are the old logs'
    /// (`rules::old_logs`) and most rule tests'.
    fn option_sets() -> Vec<Options> {
        use Variant::*;
        let mut sets = vec![
            Options::default(),
            Options {
                own_turn_casting: true,
                ..Options::default()
            },
            Options::with(&[TeamPlay]),
            Options::with(&[BalancedTerrain, HomeField]),
            Options::with(&[Fatigue, EnemyOccupation]),
            Options::with(&[ShorterGame, EmpoweringCall]),
            Options::with(&[TemporaryAlliances]),
            Options::with(&[EveryTribeForThemselves]),
        ];
        sets.push(Options {
            shape: Shape::Broad,
            tribes: Vec::new(),
            ..Options::default()
        });
        sets.push(Options {
            shape: Shape::Long,
            ..Options::default()
        });
        sets.push(Options {
            shape: Shape::Hexagon([3, 1, 3, 3, 1, 3]),
            ..Options::default()
        });
        sets.into_iter().map(Self::for_new_game).collect()
    }

    fn for_new_game(options: Options) -> Options {
        Options {
            edition: EDITION,
            ..options
        }
    }

    fn seats(options: &Options) -> RangeInclusive<usize> {
        let by_variants =
            if options.has(Variant::TeamPlay) || options.has(Variant::EveryTribeForThemselves) {
                4..=4
            } else if options.has(Variant::TemporaryAlliances) {
                2..=4
            } else {
                1..=4
            };
        // A board of the players' own fits some player counts only.
        let fits: Vec<usize> = board::seat_counts(options.shape)
            .into_iter()
            .filter(|s| by_variants.contains(s))
            .collect();
        match (fits.first(), fits.last()) {
            (Some(&lo), Some(&hi)) => lo..=hi,
            _ => by_variants,
        }
    }

    fn new_game(options: &Options, seats: usize) -> Result<State, SetupError> {
        if !Self::seats(options).contains(&seats) {
            let r = Self::seats(options);
            return Err(SetupError(format!(
                "{} takes {} to {} players with these options, not {seats}",
                Self::NAME,
                r.start(),
                r.end()
            )));
        }
        board::check_shape(options.shape, seats.max(2)).map_err(SetupError)?;
        if options.has(Variant::TeamPlay) && options.has(Variant::EveryTribeForThemselves) {
            return Err(SetupError(
                "every_tribe_for_themselves is a free-for-all: it cannot be played with team_play"
                    .to_owned(),
            ));
        }
        let tribes_needed = if seats == 1 { 2 } else { seats };
        let mut tribes = options.tribes.clone();
        if !tribes.is_empty() {
            let mut sorted = tribes.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if tribes.len() != tribes_needed || sorted.len() != tribes.len() {
                return Err(SetupError(format!(
                    "tribes must name {tribes_needed} different tribes (one per seat{})",
                    if seats == 1 {
                        ", then the automaton's"
                    } else {
                        ""
                    }
                )));
            }
            if options.has(Variant::TeamPlay)
                && tribes.iter().enumerate().any(|(s, t)| {
                    t.is_gnome() != tribes.first().is_some_and(|f| f.is_gnome()) ^ (s % 2 == 1)
                })
            {
                return Err(SetupError(
                    "team play is gnomes against wizards: seats 0 and 2 one faction, 1 and 3 the other"
                        .to_owned(),
                ));
            }
        }
        let players = if seats == 1 { 2 } else { seats };
        let mut state = State::new(options, seats, players);
        if !tribes.is_empty() {
            for (p, t) in state.players.iter_mut().zip(tribes.drain(..)) {
                p.tribe = Some(t);
            }
            setup::prepare_tiles(&mut state);
        }
        turn::advance(&mut state);
        Ok(state)
    }

    crate::rules::parts!(play: actions, view, belief, evaluate, present, picture, notation, orders);

    /// A player holding Secret or Learned cards is asked even when none can be cast or
    /// attached now: playing the lone choice at once would tell the table so. With both hands
    /// empty (their counts are public) a lone choice, a reaction window's "pass" too, tells
    /// nobody anything and is played (docs/rules/gnomes-and-wizards.md, "Forced choices").
    fn keeps_asking(state: &State, seat: Seat) -> bool {
        state
            .players
            .get(seat)
            .is_none_or(|p| !p.hand.is_empty() || !p.learned_hand.is_empty())
    }

    /// When a deadline passes: pass in a reaction window, keep the dice, stop, end the step,
    /// decline an alliance, hold a kept Learned card in hand (attaching it would discard the
    /// unit's Learned card and its crystals, review R2); otherwise the first legal choice.
    fn default_action(state: &State, seat: Seat) -> Option<Action> {
        let legal = actions::legal_actions(state, seat);
        [
            Action::Pass,
            Action::DeclineAlliance,
            Action::KeepDice,
            Action::Stop,
            Action::EndActions,
            Action::EndCall,
            Action::EndCharge,
            Action::HoldLearned,
        ]
        .into_iter()
        .find(|a| legal.contains(a))
        .or_else(|| legal.into_iter().next())
    }
}
