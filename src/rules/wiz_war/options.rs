//! The game's options: the schools in the deck, how reaction windows ask, the round limit,
//! the side of the sector boards and the rules edition. Data at the bottom of the ruleset: the
//! state keeps the options it was created with.

use serde::{Deserialize, Serialize};

use super::cards::School;
use crate::rules::SetupError;

/// Options: the three schools shuffled into the deck with White Cantrip, whether every
/// reaction window asks every wizard who could be affected, and an optional round limit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// Three different schools besides White Cantrip (l.42), which is always in the deck.
    #[schemars(length(equal = 3), extend(
        "uniqueItems" = true,
        "not" = {"contains": {"const": "cantrip"}}
    ))]
    pub schools: Vec<School>,
    /// "Players may look at their cards, but must keep them secret" (l.48): by default every
    /// window asks every other living wizard, so a window says nothing about hands.
    pub ask_every_affected_wizard: bool,
    /// If set, the game also ends when this round (1–1000) is over, the most victory points
    /// winning. The rulebook has no limit: "Players continue taking turns around the table
    /// until one player wins the game" (l.69), so the default is none.
    #[schemars(range(min = 1, max = 1000))]
    pub round_limit: Option<u32>,
    /// The side of the sector boards played: "either new (side A) or classic (side B)" (l.36).
    pub board_side: BoardSide,
    /// The rules edition the game was created under (set by `for_new_game`, never chosen):
    /// absent (0) in games created before edition 1, which keep the old rules
    /// (docs/rules/wiz-war.md, "Editions").
    #[serde(skip_serializing_if = "is_zero")]
    pub edition: u32,
}

/// The edition new games are created under. Edition 1 answers the audit of 2026-11-28
/// (docs/reviews/audit-2026-11-28-wiz-war.md; docs/rules/wiz-war.md, "Editions").
pub const EDITION: u32 = 1;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The side of the sector boards (l.36): `"a"` (new) or `"b"` (classic). Each side has its
/// own four designs in `data/sectors.txt` (sectors 0–3 and 4–7, in colour order).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum BoardSide {
    #[default]
    A,
    B,
}

impl BoardSide {
    /// The design number of this side's red sector.
    pub fn first_design(self) -> u8 {
        match self {
            BoardSide::A => 0,
            BoardSide::B => 4,
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            schools: vec![School::Alchemy, School::Elemental, School::Mentalism],
            ask_every_affected_wizard: true,
            round_limit: None,
            board_side: BoardSide::A,
            edition: 0,
        }
    }
}

impl Options {
    pub fn check(&self) -> Result<(), SetupError> {
        let mut schools = self.schools.clone();
        schools.sort();
        schools.dedup();
        if schools.len() != 3 || self.schools.len() != 3 {
            return Err(SetupError(
                "choose three different schools besides White Cantrip".to_owned(),
            ));
        }
        if let Some(s) = schools
            .iter()
            .find(|s| !s.complete() || **s == School::Cantrip)
        {
            return Err(SetupError(format!(
                "the school {s:?} is not available yet (available: alchemy, conjuring, \
                 elemental, mentalism, mutation, thaumaturgy)"
            )));
        }
        if self.round_limit.is_some_and(|r| !(1..=1000).contains(&r)) {
            return Err(SetupError(
                "round_limit must be 1 to 1000, or left out for no limit".to_owned(),
            ));
        }
        Ok(())
    }
}
