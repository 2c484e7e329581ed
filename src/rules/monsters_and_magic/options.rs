//! The game's options: the rulebook's variants (permanent cards dealt, hand size), the optional
//! Realignment rule and the rules edition. Data at the bottom of the ruleset: the state keeps
//! the options it was created with.

use serde::{Deserialize, Serialize};

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
