//! The game's content as data: clans, the map, the token supply and the 48 objective cards,
//! read from `data/*.json` (stand-ins from CONTENT.md, replaceable without code changes).
//!
//! The files are parsed once. A file that does not parse gives empty content (no clans, no
//! territories, no objectives) rather than a panic; `tests::data` checks that they parse.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// A clan colour. The order is the order of the clan cards and of the home territories.
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
pub enum Colour {
    Red,
    Green,
    Yellow,
    Black,
    White,
    Blue,
}

impl Colour {
    pub const ALL: [Colour; 6] = [
        Colour::Red,
        Colour::Green,
        Colour::Yellow,
        Colour::Black,
        Colour::White,
        Colour::Blue,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "Red",
            Colour::Green => "Green",
            Colour::Yellow => "Yellow",
            Colour::Black => "Black",
            Colour::White => "White",
            Colour::Blue => "Blue",
        }
    }

    /// This clan's card (gnomes, the roll that kills them, reinforcements, abilities).
    pub fn card(self) -> ClanCard {
        CONTENT
            .clans
            .iter()
            .find(|c| c.colour == self)
            .cloned()
            .unwrap_or(ClanCard {
                colour: self,
                gnomes: 0,
                killed_on: 7,
                reinforcements: 0,
                die_bonus: 0,
                revive_on_six: false,
            })
    }

    /// The territory this clan reinforces onto, if the map has one.
    pub fn home(self) -> Option<Territory> {
        territories()
            .iter()
            .position(|t| t.home_of == Some(self))
            .and_then(|i| u8::try_from(i).ok())
    }
}

/// A food kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Food {
    Acorn,
    Apple,
    Berry,
}

impl Food {
    pub const ALL: [Food; 3] = [Food::Acorn, Food::Apple, Food::Berry];

    pub fn name(self) -> &'static str {
        match self {
            Food::Acorn => "acorn",
            Food::Apple => "apple",
            Food::Berry => "berry",
        }
    }

    pub fn plural(self) -> &'static str {
        match self {
            Food::Acorn => "acorns",
            Food::Apple => "apples",
            Food::Berry => "berries",
        }
    }
}

/// A token: a food, or a gnome token of a clan colour.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Token {
    Acorn,
    Apple,
    Berry,
    Gnome(Colour),
}

impl Token {
    pub fn food(food: Food) -> Token {
        match food {
            Food::Acorn => Token::Acorn,
            Food::Apple => Token::Apple,
            Food::Berry => Token::Berry,
        }
    }

    /// "acorn", "Green gnome token".
    pub fn name(self) -> String {
        match self {
            Token::Acorn => "acorn".to_string(),
            Token::Apple => "apple".to_string(),
            Token::Berry => "berry".to_string(),
            Token::Gnome(c) => format!("{} gnome token", c.name()),
        }
    }
}

/// One clan card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ClanCard {
    pub colour: Colour,
    /// Gnomes in the clan.
    pub gnomes: u8,
    /// A die showing this or more kills one of the clan's gnomes.
    pub killed_on: u8,
    pub reinforcements: u8,
    /// Added to every die the clan rolls (White: +1).
    pub die_bonus: u8,
    /// Blue: for each 6 rolled, one gnome fewer is removed after the roll.
    pub revive_on_six: bool,
}

impl ClanCard {
    /// The card's text: "12 gnomes; killed by a die of 3+; 3 reinforcements a round", and its
    /// ability.
    pub fn text(&self) -> String {
        let mut text = format!(
            "{} gnomes; killed by a die of {}+; {} reinforcement{} a round",
            self.gnomes,
            self.killed_on,
            self.reinforcements,
            if self.reinforcements == 1 { "" } else { "s" }
        );
        if self.die_bonus > 0 {
            text.push_str(&format!("; adds {} to every die it rolls", self.die_bonus));
        }
        if self.revive_on_six {
            text.push_str("; loses one gnome fewer for each 6 it rolls in a battle");
        }
        text
    }
}

impl TerritoryCard {
    /// What holding it gives and what it is: "home of Red; loot: Red gnome token".
    pub fn text(&self) -> String {
        let mut parts = Vec::new();
        if let Some(c) = self.home_of {
            parts.push(format!(
                "home of {} (its reinforcements arrive here)",
                c.name()
            ));
        }
        if self.statue {
            parts.push("statue (statue objectives need a gnome here when the game ends)".into());
        }
        match self.yields {
            Some(token) => parts.push(format!(
                "loot: 1 {} a round to the clan holding it",
                token.name()
            )),
            None => parts.push("loot: nothing".into()),
        }
        parts.join("; ")
    }
}

/// A territory, numbered by its place in `map.json` (0 to 15).
pub type Territory = u8;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerritoryCard {
    pub name: String,
    /// The token collected by whoever holds it in the loot phase (none for a statue).
    #[serde(default)]
    pub yields: Option<Token>,
    #[serde(default)]
    pub home_of: Option<Colour>,
    #[serde(default)]
    pub statue: bool,
}

/// What an objective card asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Needs {
    /// Food tokens of each kind.
    Food(FoodCount),
    /// This many gnome tokens not of the clan's own colour.
    Hostages(u8),
    /// A gnome on both statues when the game ends.
    Statues([Territory; 2]),
}

#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct FoodCount {
    pub acorn: u8,
    pub apple: u8,
    pub berry: u8,
}

impl FoodCount {
    pub fn get(self, food: Food) -> u8 {
        match food {
            Food::Acorn => self.acorn,
            Food::Apple => self.apple,
            Food::Berry => self.berry,
        }
    }
}

/// An objective card: a clan's own (`clan`), or neutral.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectiveCard {
    pub id: u16,
    #[serde(default)]
    pub clan: Option<Colour>,
    pub needs: Needs,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
struct ClanFile {
    clans: Vec<ClanCard>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
struct MapFile {
    territories: Vec<TerritoryCard>,
    passages: Vec<[Territory; 2]>,
    food_tokens_each: u8,
    gnome_tokens_per_clan: u8,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
struct ObjectiveFile {
    objectives: Vec<ObjectiveCard>,
}

/// Everything read from the data files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Content {
    pub clans: Vec<ClanCard>,
    pub territories: Vec<TerritoryCard>,
    /// For each territory, its neighbours in increasing order.
    pub neighbours: Vec<Vec<Territory>>,
    pub food_tokens_each: u8,
    pub gnome_tokens_per_clan: u8,
    pub objectives: Vec<ObjectiveCard>,
}

pub const CLANS_JSON: &str = include_str!("data/clans.json");
pub const MAP_JSON: &str = include_str!("data/map.json");
pub const OBJECTIVES_JSON: &str = include_str!("data/objectives.json");

/// Parses the three files; `Err` names the file that failed.
pub fn parse_content() -> Result<Content, String> {
    let clans: ClanFile =
        serde_json::from_str(CLANS_JSON).map_err(|e| format!("clans.json: {e}"))?;
    let map: MapFile = serde_json::from_str(MAP_JSON).map_err(|e| format!("map.json: {e}"))?;
    let objectives: ObjectiveFile =
        serde_json::from_str(OBJECTIVES_JSON).map_err(|e| format!("objectives.json: {e}"))?;
    let mut neighbours: Vec<Vec<Territory>> = vec![Vec::new(); map.territories.len()];
    for [a, b] in map.passages {
        for (from, to) in [(a, b), (b, a)] {
            let list = neighbours
                .get_mut(usize::from(from))
                .ok_or_else(|| format!("map.json: passage to unknown territory {from}"))?;
            if !list.contains(&to) {
                list.push(to);
            }
        }
    }
    for list in &mut neighbours {
        list.sort_unstable();
    }
    Ok(Content {
        clans: clans.clans,
        territories: map.territories,
        neighbours,
        food_tokens_each: map.food_tokens_each,
        gnome_tokens_per_clan: map.gnome_tokens_per_clan,
        objectives: objectives.objectives,
    })
}

pub static CONTENT: LazyLock<Content> = LazyLock::new(|| parse_content().unwrap_or_default());

pub fn territories() -> &'static [TerritoryCard] {
    &CONTENT.territories
}

pub fn territory_count() -> usize {
    CONTENT.territories.len()
}

pub fn territory_name(t: Territory) -> String {
    territories()
        .get(usize::from(t))
        .map_or_else(|| format!("territory {t}"), |c| c.name.clone())
}

pub fn neighbours(t: Territory) -> &'static [Territory] {
    CONTENT
        .neighbours
        .get(usize::from(t))
        .map_or(&[], Vec::as_slice)
}

pub fn objective(id: u16) -> Option<&'static ObjectiveCard> {
    CONTENT.objectives.iter().find(|o| o.id == id)
}

/// The clan's own five objective cards, by id.
pub fn clan_objectives(colour: Colour) -> Vec<u16> {
    CONTENT
        .objectives
        .iter()
        .filter(|o| o.clan == Some(colour))
        .map(|o| o.id)
        .collect()
}

/// The neutral objective cards, by id.
pub fn neutral_objectives() -> Vec<u16> {
    CONTENT
        .objectives
        .iter()
        .filter(|o| o.clan.is_none())
        .map(|o| o.id)
        .collect()
}

/// Neutral objectives dealt to each clan.
pub const NEUTRAL_DEALT: usize = 3;

/// "Needs" in words: "3 acorns, 2 berries", "2 gnome tokens not your own", "a gnome on the
/// Frog Statue and the Flamingo Statue at the end".
pub fn describe_needs(needs: &Needs) -> String {
    match needs {
        Needs::Food(count) => {
            let parts: Vec<String> = Food::ALL
                .into_iter()
                .filter(|&f| count.get(f) > 0)
                .map(|f| {
                    let n = count.get(f);
                    format!("{n} {}", if n == 1 { f.name() } else { f.plural() })
                })
                .collect();
            if parts.is_empty() {
                "nothing".to_string()
            } else {
                parts.join(", ")
            }
        }
        Needs::Hostages(n) => format!("{n} gnome tokens not of your colour"),
        Needs::Statues([a, b]) => format!(
            "a gnome on the {} and the {} when the game ends",
            territory_name(*a),
            territory_name(*b)
        ),
    }
}

/// An objective in words, falling back to its number for an unknown card.
pub fn describe_objective(id: u16) -> String {
    match objective(id) {
        Some(card) => format!("objective {id} ({})", describe_needs(&card.needs)),
        None => format!("objective {id}"),
    }
}
