//! Garden Gnomes: Violent Vendetta. Clans of gnomes reinforce, move (gathering onto one
//! territory or spreading from one), fight wherever clans meet and loot one token per
//! territory held, until a player has completed all their secret objectives. Rulings and the
//! step-by-step mapping onto the engine are in `docs/rules/garden-gnomes.md`.
//!
//! - `data`: clans, map, tokens and objective cards, read from `data/*.json`.
//! - `state`: the state and the questions asked of it (passability, destinations, turn order).
//! - `flow`: automatic steps (set-up, reinforcements, forced targets, combat results, loot,
//!   scoring, the end).
//! - `actions`: the action type, `next`, legal actions and `apply`.
//! - `view`: views, log visibility, redaction and descriptions.
//! - `evaluate`: how well a seat stands, for the built-in bots.

mod actions;
mod belief;
mod data;
mod evaluate;
mod flow;
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
pub use data::{Colour, Food, Needs, Territory, Token};
pub use state::{Clan, Combat, Die, Ending, Phase, State};

use crate::rules::{OptionDoc, Ruleset, Seat, SetupError};

/// The ruleset.
pub struct GardenGnomes;

/// The round limit of the conformance suite's option sets.
const CONFORMANCE_ROUND_LIMIT: u32 = 20;

/// How the winner is decided.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// "The first player(s) to complete their Objectives are the winner(s)."
    #[default]
    Basic,
    /// 20 points per completed objective, 3 per gnome token, 2 per food token not used.
    Advanced,
}

/// Reinforcements: "each player *may* put Gnomes from his/her reserve onto the board".
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Reinforcements {
    /// Every clan puts its full reinforcements (at most its reserve) onto its home.
    All,
    /// Each clan, in turn order from the first player, says how many it puts on (0 to all):
    /// the rulebook's rule, so the default.
    #[default]
    Choose,
}

/// The game's options. JSON: `{"scoring":"advanced","extra_objectives":1,
/// "clans_per_player":3,"round_limit":20,"short_game":false,"reinforcements":"choose"}`;
/// every field may be left out (`edition` is set by the service, never chosen).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
#[schemars(extend("not" = {
    "required": ["short_game", "extra_objectives"],
    "properties": {"short_game": {"const": true}, "extra_objectives": {"minimum": 1}}
}))]
pub struct Options {
    /// With 2 players the combined point-total decides whatever this says (l.231).
    pub scoring: Scoring,
    /// The long game variant: objectives kept beyond the standard 3 (2 with 5–6 clans), 0–5
    /// (a clan keeps at most the 8 it is dealt). Not with `short_game`.
    #[schemars(range(max = 5))]
    pub extra_objectives: u8,
    /// "You may wish to play with only 2 objectives": every clan keeps 2.
    pub short_game: bool,
    /// The 2-player variant: clans each player runs, 2 or 3 (ignored with 3–6 players).
    #[schemars(range(min = 2, max = 3))]
    pub clans_per_player: u8,
    /// If set, the game also ends after this round (1–1000), scored by the advanced rules.
    #[schemars(range(min = 1, max = 1000))]
    pub round_limit: Option<u32>,
    pub reinforcements: Reinforcements,
    /// The rules edition the game was created under (set by `for_new_game`, never chosen):
    /// absent (0) in games created before edition 1, which keep the old rules
    /// (docs/rules/garden-gnomes.md, "Editions").
    #[serde(skip_serializing_if = "is_zero")]
    pub edition: u32,
}

/// The edition new games are created under. Edition 1 (the fresh review of 2026-11-28,
/// docs/reviews/2026-11-28-garden-gnomes.md): the game also ends, decided by the advanced
/// scores, when no clan can gather the gnome tokens its objectives need any more (R3).
pub const EDITION: u32 = 1;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Default for Options {
    fn default() -> Self {
        Options {
            scoring: Scoring::Basic,
            extra_objectives: 0,
            short_game: false,
            clans_per_player: 2,
            round_limit: None,
            reinforcements: Reinforcements::Choose,
            edition: 0,
        }
    }
}

impl Options {
    fn validate(&self) -> Result<(), SetupError> {
        // "Each player now chooses 3 of the 8 Objectives" (l.81) and "you can pick a higher
        // number of Objectives" (l.235): at most all 8 of them.
        if self.extra_objectives > 5 {
            return Err(SetupError(
                "extra_objectives (the long game) must be 0 to 5".to_string(),
            ));
        }
        if self.short_game && self.extra_objectives > 0 {
            return Err(SetupError(
                "short_game (2 objectives) and extra_objectives (the long game) exclude each \
                 other"
                    .to_string(),
            ));
        }
        if !(2..=3).contains(&self.clans_per_player) {
            return Err(SetupError(
                "clans_per_player (the 2-player variant) must be 2 or 3".to_string(),
            ));
        }
        if self.round_limit.is_some_and(|r| !(1..=1000).contains(&r)) {
            return Err(SetupError(
                "round_limit must be 1 to 1000, or left out for no limit".to_string(),
            ));
        }
        Ok(())
    }
}

impl Ruleset for GardenGnomes {
    const ID: &'static str = "garden-gnomes";
    const NAME: &'static str = "Garden Gnomes: Violent Vendetta";

    type Options = Options;
    type State = State;
    type Action = Action;
    type View = view::View;

    fn option_docs() -> Vec<OptionDoc> {
        let d = Options::default();
        vec![
            OptionDoc {
                name: "scoring",
                description: "\"basic\": the first player(s) to complete all their objectives \
                    win; \"advanced\": 20 points per completed objective, 3 per gnome token, 2 \
                    per food token not used for an objective. With 2 players the combined \
                    advanced points of each player's clans always decide (the 2-player variant)",
                default: serde_json::json!(d.scoring),
            },
            OptionDoc {
                name: "extra_objectives",
                description: "Long game variant: objectives each clan keeps beyond the standard \
                    3 (2 with 5 or 6 clans in play), 0 to 5 (at most the 8 dealt)",
                default: serde_json::json!(d.extra_objectives),
            },
            OptionDoc {
                name: "short_game",
                description: "Short game: every clan keeps only 2 objectives (\"to keep the game \
                    length under an hour\")",
                default: serde_json::json!(d.short_game),
            },
            OptionDoc {
                name: "clans_per_player",
                description: "2-player variant: how many clans each player runs, 2 or 3 \
                    (ignored with 3 to 6 players)",
                default: serde_json::json!(d.clans_per_player),
            },
            OptionDoc {
                name: "round_limit",
                description: "Not in the rulebook, for groups that want a sure end by mail: \
                    the game also ends after this round (1 to 1000) and is then decided by the \
                    advanced scores; null (the default): no limit",
                default: serde_json::json!(d.round_limit),
            },
            OptionDoc {
                name: "reinforcements",
                description: "\"choose\" (the rulebook's \"may\"): each round each clan says \
                    how many of its reinforcements it puts onto its home (all, fewer or none), \
                    one decision per clan and round; \"all\": every clan puts all of them on \
                    without being asked",
                default: serde_json::json!(d.reinforcements),
            },
        ]
    }

    /// As new games get them (the current edition); games of edition 0 are the old logs'
    /// (`rules::old_logs`) and most rule tests'.
    fn option_sets() -> Vec<Options> {
        let sets = vec![
            // Random play need not ever complete the objectives (statues can stay contested), so
            // the suite's playouts carry a round limit.
            Options {
                round_limit: Some(CONFORMANCE_ROUND_LIMIT),
                ..Options::default()
            },
            Options {
                scoring: Scoring::Advanced,
                extra_objectives: 1,
                clans_per_player: 3,
                round_limit: Some(CONFORMANCE_ROUND_LIMIT),
                reinforcements: Reinforcements::Choose,
                ..Options::default()
            },
            Options {
                short_game: true,
                round_limit: Some(CONFORMANCE_ROUND_LIMIT),
                reinforcements: Reinforcements::All,
                ..Options::default()
            },
        ];
        sets.into_iter().map(Self::for_new_game).collect()
    }

    fn for_new_game(options: Options) -> Options {
        Options {
            edition: EDITION,
            ..options
        }
    }

    fn seats(_options: &Options) -> RangeInclusive<usize> {
        2..=6
    }

    fn new_game(options: &Options, seats: usize) -> Result<State, SetupError> {
        if !Self::seats(options).contains(&seats) {
            return Err(SetupError(format!(
                "{} takes 2 to 6 players, not {seats}",
                Self::NAME
            )));
        }
        options.validate()?;
        let clans = if seats == 2 {
            2 * usize::from(options.clans_per_player)
        } else {
            seats
        };
        // "3 Objectives for 3-4 Player games, and 2 Objectives for 5-6 Player games."
        let standard = if clans <= 4 { 3 } else { 2 };
        // "You may wish to play with only 2 objectives to keep the game length under an hour."
        let keep = if options.short_game {
            2
        } else {
            standard + options.extra_objectives
        };
        // "the combined point-total for your clans will determine the winner" (2 players).
        let scoring = if seats == 2 {
            Scoring::Advanced
        } else {
            options.scoring
        };
        let mut state = State::new(seats, clans, scoring, keep, options.round_limit);
        state.choose_reinforcements = options.reinforcements == Reinforcements::Choose;
        state.edition = options.edition;
        flow::advance(&mut state);
        Ok(state)
    }

    crate::rules::parts!(
        play: actions, view, label: view, belief, evaluate, present, picture, notation,
        orders
    );

    /// When a deadline passes: end the movement; keep an objective that nobody else can work
    /// out (ruling 17); otherwise the first listed choice (all reinforcements; all remaining
    /// dice on the first target in turn order: public facts).
    fn default_action(state: &State, seat: Seat) -> Option<Action> {
        let legal = actions::legal_actions(state, seat);
        if legal.contains(&Action::EndMovement) {
            return Some(Action::EndMovement);
        }
        if matches!(state.phase, Phase::ChoosingObjectives) {
            return unguessable_keep(state, seat, &legal);
        }
        legal.into_iter().next()
    }
}

/// The objective a deadline keeps during the objective choice (ruling 17; review 2026-11-28,
/// L1), for the seat's first clan still choosing (which clan keeps is public: the log names
/// it). Not the first card of its offer: the offer is sorted and a clan's own cards (known to
/// all) come before the neutral ones, so that would be the clan's lowest own card not kept
/// yet, and everyone could name it. The pick is instead mixed from every objective the clan
/// was dealt, kept or not: its 3 neutral cards were dealt at random and only its player sees
/// them, so to every other player the objective kept is as unknown as one drawn at random from
/// the offer. (The rules draw nothing at random: this is a pure function of the seat's own
/// secret, the same at every retry.)
fn unguessable_keep(state: &State, seat: Seat, legal: &[Action]) -> Option<Action> {
    let clan = state
        .clans
        .iter()
        .find(|c| c.seat == seat && c.choosing(state.keep))?;
    let mut mix: u64 = 0;
    for &id in clan.offered.iter().chain(&clan.kept) {
        mix = splitmix(mix ^ u64::from(id));
    }
    let n = u64::try_from(clan.offered.len()).ok().filter(|&n| n > 0)?;
    let keep = clan.offered.get(usize::try_from(mix % n).unwrap_or(0))?;
    let keep = Action::KeepObjective(*keep);
    legal.contains(&keep).then_some(keep)
}

/// SplitMix64's finaliser: every bit of the input moves about half the bits of the output.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
