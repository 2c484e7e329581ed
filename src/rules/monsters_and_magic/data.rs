//! The game's content as data: terrain, structures, figure types, the board's make-up and the
//! 64 ally cards (`cards.json`, one entry per card, in rulebook order; a card's id is its index).
//! Real or house-ruled cards ("Make/Alter/Remove/Duplicate Ally Cards") replace the file, not
//! the code: every effect the engine knows is one of [`Effect`]'s variants.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// A card's identity: its index in `cards.json`.
pub type CardId = u16;

/// Side of the board; spaces are `[x, y]` with `0..SIDE`.
pub const SIDE: u8 = 8;
/// Terrain tiles of each type (16 × 4 = 64).
pub const TILES_PER_TERRAIN: u8 = 16;
/// Structure chits of each type (8 × 8 = 64).
pub const CHITS_PER_STRUCTURE: u8 = 8;
/// Garrison markers in a unit set.
pub const GARRISONS_PER_SET: u8 = 33;
/// Figures of each type a player may have on the map without a card that says otherwise.
pub const FIGURES_ON_MAP: u8 = 4;
/// Spaces of one structure type a player must occupy to declare it (and to win by Temples).
pub const DECLARE_AT: usize = 5;
/// Rounds before the game ends on spaces controlled ("the end of turn 20X").
pub const ROUNDS: u32 = 20;

#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Plains,
    Forest,
    Mountains,
    Badlands,
}

impl Terrain {
    pub const ALL: [Terrain; 4] = [
        Terrain::Plains,
        Terrain::Forest,
        Terrain::Mountains,
        Terrain::Badlands,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Plains => "Plains",
            Terrain::Forest => "Forest",
            Terrain::Mountains => "Mountains",
            Terrain::Badlands => "Badlands",
        }
    }
}

#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Structure {
    Village,
    Town,
    City,
    Castle,
    Ruins,
    Mine,
    Temple,
    Tower,
}

impl Structure {
    pub const ALL: [Structure; 8] = [
        Structure::Village,
        Structure::Town,
        Structure::City,
        Structure::Castle,
        Structure::Ruins,
        Structure::Mine,
        Structure::Temple,
        Structure::Tower,
    ];

    /// The structure types a player declares: "Declarations do not apply to Towns or
    /// Castles", and Temples are a victory, not a benefit.
    pub const DECLARED: [Structure; 5] = [
        Structure::Village,
        Structure::City,
        Structure::Ruins,
        Structure::Mine,
        Structure::Tower,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Structure::Village => "Village",
            Structure::Town => "Town",
            Structure::City => "City",
            Structure::Castle => "Castle",
            Structure::Ruins => "Ruins",
            Structure::Mine => "Mine",
            Structure::Temple => "Temple",
            Structure::Tower => "Tower",
        }
    }
}

#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum FigureKind {
    Mage,
    Hero,
    Monster,
    Army,
}

impl FigureKind {
    pub const ALL: [FigureKind; 4] = [
        FigureKind::Mage,
        FigureKind::Hero,
        FigureKind::Monster,
        FigureKind::Army,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FigureKind::Mage => "Mage",
            FigureKind::Hero => "Hero",
            FigureKind::Monster => "Monster",
            FigureKind::Army => "Army",
        }
    }

    pub fn unit(self) -> UnitKind {
        match self {
            FigureKind::Mage => UnitKind::Mage,
            FigureKind::Hero => UnitKind::Hero,
            FigureKind::Monster => UnitKind::Monster,
            FigureKind::Army => UnitKind::Army,
        }
    }

    /// The figure type of the recruit roll ("2 Gain 1 Army … 5 Gain 1 Monster").
    pub fn of_recruit_roll(roll: u8) -> Option<FigureKind> {
        match roll {
            2 => Some(FigureKind::Army),
            3 => Some(FigureKind::Hero),
            4 => Some(FigureKind::Mage),
            5 => Some(FigureKind::Monster),
            _ => None,
        }
    }
}

/// A unit type as cards name it: a Garrison or one of the figure types.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    Garrison,
    Mage,
    Hero,
    Monster,
    Army,
}

impl UnitKind {
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Garrison => "Garrison",
            UnitKind::Mage => "Mage",
            UnitKind::Hero => "Hero",
            UnitKind::Monster => "Monster",
            UnitKind::Army => "Army",
        }
    }

    /// "Figures have a base force of zero. Garrisons have a base force of -2."
    pub fn base_force(self) -> i32 {
        match self {
            UnitKind::Garrison => -2,
            _ => 0,
        }
    }
}

/// Attacking (the moving figure) or defending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Attacking,
    Defending,
}

/// A force bonus and the conditions it needs; every condition given must hold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceBonus {
    /// The unit types that get it.
    pub units: Vec<UnitKind>,
    pub bonus: i32,
    /// The combat space's terrain is one of these.
    #[serde(default)]
    pub terrain: Vec<Terrain>,
    /// The opposing unit is one of these.
    #[serde(default)]
    pub vs: Vec<UnitKind>,
    #[serde(default)]
    pub role: Option<Role>,
    /// One of the player's own figures of this type is in a space adjacent to the combat.
    #[serde(default)]
    pub adjacent_to: Option<FigureKind>,
    /// The combat space's structure is one of these.
    #[serde(default)]
    pub structures: Vec<Structure>,
}

/// A power used by an action of its own ("OT" powers, and the Altar of Sacrifice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Power {
    Oracle,
    Empire,
    AlterTerrain,
    Haste,
    Alchemist,
    Artificer,
    Diplomat,
    Jester,
    Merchant,
    Polymorph,
    Illusionist,
    /// The Altar of Sacrifice: not once per turn.
    Sacrifice,
}

impl Power {
    /// "OT = Once on your Turn": every power but the Altar of Sacrifice.
    pub fn once_per_turn(self) -> bool {
        self != Power::Sacrifice
    }
}

/// What a card does, as a permanent card or played from the hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    Force(ForceBonus),
    /// Figures of this type get extra move points.
    Move {
        figure: FigureKind,
        bonus: u8,
    },
    /// Each figure gets +1 MP once per turn when it enters this terrain.
    TerrainMove(Terrain),
    /// You may have this many figures of the type on the map.
    Cap {
        figure: FigureKind,
        max: u8,
    },
    /// Recruit one figure of this type (placed as in the Recruitment phase).
    Recruit(FigureKind),
    /// Figures of type `by` may Summon figures of type `brings`.
    Summon {
        by: FigureKind,
        brings: FigureKind,
    },
    /// Maximum hand size increase.
    HandSize(u8),
    /// Draw this many cards.
    Draw(u8),
    Power(Power),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardDef {
    pub name: String,
    /// The rulebook's line for the card.
    pub text: String,
    /// Effects both as a permanent and as a hand card (a card without separate PC/HC text
    /// "works the same both ways").
    #[serde(default)]
    pub effects: Vec<Effect>,
    /// Effects as a permanent card, when they differ (PC:).
    #[serde(default)]
    pub permanent: Option<Vec<Effect>>,
    /// Effects as a hand card, when they differ (HC:).
    #[serde(default)]
    pub hand: Option<Vec<Effect>>,
    /// Copies in the deck (the rulebook's deck has one of each).
    #[serde(default = "one")]
    pub copies: u8,
}

fn one() -> u8 {
    1
}

impl CardDef {
    pub fn as_permanent(&self) -> &[Effect] {
        self.permanent.as_deref().unwrap_or(&self.effects)
    }

    pub fn as_hand(&self) -> &[Effect] {
        self.hand.as_deref().unwrap_or(&self.effects)
    }
}

static CARDS: LazyLock<Vec<CardDef>> =
    LazyLock::new(|| serde_json::from_str(include_str!("cards.json")).unwrap_or_default());

/// Every card, by id. (A broken `cards.json` gives no cards; a test checks it reads.)
pub fn cards() -> &'static [CardDef] {
    &CARDS
}

pub fn card(id: CardId) -> Option<&'static CardDef> {
    cards().get(usize::from(id))
}

/// The card's name, or its number for an id outside the data.
pub fn card_name(id: CardId) -> String {
    card(id).map_or_else(|| format!("card {id}"), |c| c.name.clone())
}

pub fn permanent_effects(id: CardId) -> &'static [Effect] {
    card(id).map_or(&[], CardDef::as_permanent)
}

pub fn hand_effects(id: CardId) -> &'static [Effect] {
    card(id).map_or(&[], CardDef::as_hand)
}

/// The full deck, sorted, with each card as many times as it has copies.
pub fn full_deck() -> Vec<CardId> {
    let mut deck = Vec::new();
    for (i, c) in cards().iter().enumerate() {
        if let Ok(id) = CardId::try_from(i) {
            deck.extend(std::iter::repeat_n(id, usize::from(c.copies)));
        }
    }
    deck
}

/// The id of the card called `name` (for tests and tools).
#[cfg_attr(not(test), allow(dead_code))]
pub fn card_id(name: &str) -> Option<CardId> {
    cards()
        .iter()
        .position(|c| c.name == name)
        .and_then(|i| CardId::try_from(i).ok())
}
