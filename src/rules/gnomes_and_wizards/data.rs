//! Content as data: tribes, units, innate abilities, the 44 ability cards and the action die.
//! Every value here is a stand-in (CONTENT.md, docs/rules/gnomes-and-wizards.md) that real
//! card data can replace without touching the rules code.

use serde::{Deserialize, Serialize};

/// A face of an action die (black and pink dice have the same faces).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    /// Adds one to the unit's movement or attack, chosen when used.
    MoveAttack,
    /// +2 defense up to the maximum.
    Shield,
    /// One Power Crystal to the reserve.
    Crystal,
    /// One Call to War horn kept on the unit.
    Horn,
}

/// The six faces of every action die (stand-in: 2 move/attack, 1 shield, 1 crystal, 2 horns).
pub const DIE_FACES: [Face; 6] = [
    Face::MoveAttack,
    Face::MoveAttack,
    Face::Shield,
    Face::Crystal,
    Face::Horn,
    Face::Horn,
];

pub const BLACK_DICE: usize = 4;
pub const REROLLS: u8 = 2;
pub const ROUNDS: u8 = 10;
pub const FLIP_FROM_ROUND: u8 = 6;
/// 'Shorter Game': the first round played.
pub const SHORTER_FIRST_ROUND: u8 = 5;
pub const LEADER_HP: u8 = 15;
pub const CLAN_HP: u8 = 10;
pub const FALL_DAMAGE: u8 = 2;
pub const LINGERING_POWER: u8 = 2;
pub const HORNS_TO_SUMMON: u8 = 3;
pub const HORNS_TO_DRAW: u8 = 2;
pub const HORNS_TO_EMPOWER: u8 = 3;
pub const POINTS_PER_CLAN: i64 = 20;
pub const POINTS_PER_LEADER: i64 = 30;

/// Base stats of a unit (the same for every tribe).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    pub movement: u8,
    pub attack: u8,
    pub min_defense: u8,
    pub max_defense: u8,
    pub hp: u8,
}

/// Stats by unit slot: 0 is the Leader, 1–6 the Clans in Tribe-board order.
pub const STATS: [Stats; 7] = [
    stats(3, 3, 2, 8, LEADER_HP),
    stats(4, 4, 1, 6, CLAN_HP),
    stats(2, 5, 2, 8, CLAN_HP),
    stats(5, 2, 1, 5, CLAN_HP),
    stats(3, 3, 3, 9, CLAN_HP),
    stats(3, 4, 2, 7, CLAN_HP),
    stats(2, 3, 4, 10, CLAN_HP),
];

const fn stats(movement: u8, attack: u8, min_defense: u8, max_defense: u8, hp: u8) -> Stats {
    Stats {
        movement,
        attack,
        min_defense,
        max_defense,
        hp,
    }
}

pub fn unit_stats(slot: u8) -> Stats {
    STATS
        .get(usize::from(slot))
        .copied()
        .unwrap_or(stats(0, 0, 0, 0, 1))
}

/// The four tribes, in the rulebook's order.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Tribe {
    Turquefoss,
    Achrinnolder,
    Imblasham,
    Betrumour,
}

impl Tribe {
    pub const ALL: [Tribe; 4] = [
        Tribe::Turquefoss,
        Tribe::Achrinnolder,
        Tribe::Imblasham,
        Tribe::Betrumour,
    ];

    pub fn is_gnome(self) -> bool {
        matches!(self, Tribe::Turquefoss | Tribe::Achrinnolder)
    }

    pub fn name(self) -> &'static str {
        match self {
            Tribe::Turquefoss => "Gnome Tribe of Turquefoss",
            Tribe::Achrinnolder => "Gnome Tribe of Achrinnolder",
            Tribe::Imblasham => "Wizard Tribe of Imblasham",
            Tribe::Betrumour => "Wizard Tribe of Betrumour",
        }
    }

    fn data(self) -> &'static TribeData {
        match self {
            Tribe::Turquefoss => &TRIBES[0],
            Tribe::Achrinnolder => &TRIBES[1],
            Tribe::Imblasham => &TRIBES[2],
            Tribe::Betrumour => &TRIBES[3],
        }
    }

    /// The name of unit `slot` (0 the Leader).
    pub fn unit_name(self, slot: u8) -> &'static str {
        let data = self.data();
        if slot == 0 {
            return data.leader;
        }
        data.clans
            .get(usize::from(slot) - 1)
            .map_or("unknown unit", |c| c.name)
    }

    /// The innate ability of Clan `slot` (the Leader has none).
    pub fn innate(self, slot: u8) -> Option<&'static Ability> {
        let index = usize::from(slot).checked_sub(1)?;
        self.data().clans.get(index).map(|c| &c.innate)
    }
}

pub struct TribeData {
    pub leader: &'static str,
    pub clans: [ClanData; 6],
}

pub struct ClanData {
    pub name: &'static str,
    pub innate: Ability,
}

/// A token counter placed on a unit (blockades go on tiles).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Token {
    Flying,
    Sleeping,
    LingeringAttack,
    NoAttack,
    NoMovement,
}

/// What an ability does: only effects the rulebook defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Deal this much damage to an enemy unit: defense cannot be used.
    Damage(u8),
    /// Make an extra attack of this power on an enemy unit: defense applies.
    Attack(u8),
    /// An ally unit gains this much defense (up to its maximum).
    Defense(u8),
    /// Move an ally unit up to this many spaces.
    Move(u8),
    /// Give a unit this token counter (Flying to an ally, the others to an enemy).
    Token(Token),
    /// Place a blockade on a tile.
    Blockade,
    /// Put this many Power Crystals straight onto an ally unit's abilities.
    Crystals(u8),
    /// Flip a face-up tile (not a crystal mine).
    FlipTile,
    /// Turn a flipped tile face up again.
    RestoreTile,
}

/// An ability: an innate one, or the one on an ability card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ability {
    pub name: &'static str,
    /// Power Crystals to charge it fully (0 for Secret abilities).
    pub cost: u8,
    /// How many spaces from the casting unit the target may be (0: the same tile).
    pub range: u8,
    pub effect: Effect,
    /// Added to the effect's amount when the ability is attached to a Leader.
    pub leader_bonus: u8,
}

impl Ability {
    /// Our own card text for this ability.
    pub fn text(&self) -> String {
        let range = match self.range {
            0 => "on the caster's tile".to_owned(),
            1 => "within 1 space of the caster".to_owned(),
            n => format!("within {n} spaces of the caster"),
        };
        let main = match self.effect {
            Effect::Damage(n) => {
                format!("Deal {n} damage to an enemy unit {range}; defense cannot be used.")
            }
            Effect::Attack(n) => format!(
                "Make an extra attack with attack power {n} on an enemy unit {range}; defense applies."
            ),
            Effect::Defense(n) => {
                format!("An ally unit {range} gains {n} defense, up to its maximum.")
            }
            Effect::Move(n) => format!("Move an ally unit {range} up to {n} spaces."),
            Effect::Token(Token::Flying) => {
                format!("An ally unit {range} is Flying until the ring's colour comes round again.")
            }
            Effect::Token(Token::Sleeping) => format!(
                "An enemy unit {range} falls Sleeping: it cannot move or attack until it is attacked, affected by an ability, or the ring's colour comes round again."
            ),
            Effect::Token(Token::LingeringAttack) => format!(
                "Lingering attack: attack an enemy unit {range} with power 2 now and again with power 2 when the ring's colour comes round."
            ),
            Effect::Token(Token::NoAttack) => {
                format!(
                    "An enemy unit {range} cannot attack until the ring's colour comes round again."
                )
            }
            Effect::Token(Token::NoMovement) => {
                format!(
                    "An enemy unit {range} cannot move until the ring's colour comes round again."
                )
            }
            Effect::Blockade => format!(
                "Place a blockade on a tile {range}: only Flying units may pass through it until the start of your next turn."
            ),
            Effect::Crystals(n) => {
                format!(
                    "Put {n} Power Crystals straight onto the abilities of an ally unit {range}."
                )
            }
            Effect::FlipTile => format!(
                "Flip a face-up tile {range} (never a crystal mine); units on it take fall damage."
            ),
            Effect::RestoreTile => format!("Turn a flipped tile {range} face up again."),
        };
        let cost = if self.cost == 0 {
            "Secret: no charge, used once.".to_owned()
        } else {
            format!("Charge {}.", self.cost)
        };
        if self.leader_bonus > 0 {
            format!("{cost} {main} Leader bonus: +{}.", self.leader_bonus)
        } else {
            format!("{cost} {main}")
        }
    }

    /// The effect's amount, with the Leader bonus when `on_leader`.
    pub fn effect_with_bonus(&self, on_leader: bool) -> Effect {
        let b = if on_leader { self.leader_bonus } else { 0 };
        match self.effect {
            Effect::Damage(n) => Effect::Damage(n.saturating_add(b)),
            Effect::Attack(n) => Effect::Attack(n.saturating_add(b)),
            Effect::Defense(n) => Effect::Defense(n.saturating_add(b)),
            Effect::Move(n) => Effect::Move(n.saturating_add(b)),
            Effect::Crystals(n) => Effect::Crystals(n.saturating_add(b)),
            other => other,
        }
    }
}

const fn ab(name: &'static str, cost: u8, range: u8, effect: Effect, leader_bonus: u8) -> Ability {
    Ability {
        name,
        cost,
        range,
        effect,
        leader_bonus,
    }
}

const fn clan(name: &'static str, innate: Ability) -> ClanData {
    ClanData { name, innate }
}

use Effect::{Attack, Blockade, Crystals, Damage, Defense, FlipTile, Move, RestoreTile};
use Token::{Flying, LingeringAttack, NoAttack, NoMovement, Sleeping};

/// The tribes: a Leader and six Clans each, with the Clans' innate abilities.
pub static TRIBES: [TribeData; 4] = [
    TribeData {
        leader: "Grand Tinkerer Quartzbeard",
        clans: [
            clan("Toy Masters", ab("Wind-up Rush", 3, 0, Attack(4), 0)),
            clan(
                "Catapult Specialists",
                ab("Pebble Volley", 3, 2, Damage(2), 0),
            ),
            clan("Burrow Runners", ab("Tunnel Dash", 2, 0, Move(3), 0)),
            clan(
                "Mushroom Wardens",
                ab("Spore Cloud", 3, 1, Effect::Token(Sleeping), 0),
            ),
            clan("Lantern Keepers", ab("Lantern Ward", 2, 1, Defense(3), 0)),
            clan("Stone Singers", ab("Quake Song", 4, 1, FlipTile, 0)),
        ],
    },
    TribeData {
        leader: "Matriarch Pebblewick",
        clans: [
            clan(
                "Clockwork Tinkers",
                ab("Spring Trap", 3, 1, Effect::Token(NoMovement), 0),
            ),
            clan(
                "Moss Sappers",
                ab("Creeping Moss", 3, 0, Effect::Token(LingeringAttack), 0),
            ),
            clan("Tunnel Scouts", ab("Scout Ahead", 2, 1, Move(2), 0)),
            clan("Gem Cutters", ab("Sharp Facets", 3, 0, Damage(3), 0)),
            clan(
                "Root Binders",
                ab("Root Snare", 3, 1, Effect::Token(NoAttack), 0),
            ),
            clan("Hearth Guard", ab("Shield Wall", 2, 1, Defense(2), 0)),
        ],
    },
    TribeData {
        leader: "Archmage Vellicent",
        clans: [
            clan("Storm Callers", ab("Chain Lightning", 4, 2, Damage(3), 0)),
            clan("Rune Scribes", ab("Warding Rune", 2, 1, Defense(3), 0)),
            clan("Sky Dancers", ab("Updraft", 3, 1, Effect::Token(Flying), 0)),
            clan("Ember Adepts", ab("Ember Bolt", 3, 1, Attack(5), 0)),
            clan(
                "Frost Weavers",
                ab("Frost Bind", 3, 1, Effect::Token(NoMovement), 0),
            ),
            clan("Star Gazers", ab("Starfall Mending", 4, 2, RestoreTile, 0)),
        ],
    },
    TribeData {
        leader: "High Sorceress Maelis",
        clans: [
            clan(
                "Shadow Binders",
                ab("Shadow Chains", 3, 1, Effect::Token(NoAttack), 0),
            ),
            clan(
                "Dream Walkers",
                ab("Lullaby", 3, 1, Effect::Token(Sleeping), 0),
            ),
            clan("Void Seekers", ab("Void Step", 2, 0, Move(3), 0)),
            clan(
                "Hex Brewers",
                ab("Bitter Hex", 3, 1, Effect::Token(LingeringAttack), 0),
            ),
            clan("Mirror Mages", ab("Mirror Wall", 3, 1, Blockade, 0)),
            clan("Bone Whisperers", ab("Grave Touch", 3, 0, Damage(3), 0)),
        ],
    },
];

/// Which ability deck a card belongs to.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Deck {
    /// Attached to a unit, charged with crystals, cast again and again.
    Learned,
    /// Held in hand, cast once with no charge.
    Secret,
}

/// An ability card's number: 0–23 Learned, 24–43 Secret.
pub type CardId = u16;

pub const LEARNED_CARDS: usize = 24;
pub const SECRET_CARDS: usize = 20;

/// The Learned ability cards (stand-in), by card number 0–23.
pub static LEARNED: [Ability; LEARNED_CARDS] = [
    ab("Fire Lance", 3, 1, Damage(2), 1),
    ab("Thunder Strike", 4, 1, Damage(3), 1),
    ab("Rock Hurl", 3, 2, Damage(2), 0),
    ab("Second Wind Strike", 3, 0, Attack(4), 1),
    ab("Battle Fury", 4, 0, Attack(6), 1),
    ab("Arcane Missile", 4, 2, Attack(4), 0),
    ab("Stoneskin", 2, 0, Defense(2), 1),
    ab("Guardian Aura", 3, 1, Defense(3), 0),
    ab("Iron Bark", 4, 1, Defense(4), 1),
    ab("Swift Feet", 2, 0, Move(2), 1),
    ab("Blink", 3, 1, Move(3), 0),
    ab("Long Stride", 4, 0, Move(4), 1),
    ab("Wings of Dusk", 3, 0, Effect::Token(Flying), 0),
    ab("Feather Fall", 4, 1, Effect::Token(Flying), 0),
    ab("Dream Dust", 4, 1, Effect::Token(Sleeping), 0),
    ab("Deep Slumber", 5, 2, Effect::Token(Sleeping), 0),
    ab("Festering Wound", 3, 0, Effect::Token(LingeringAttack), 0),
    ab("Poison Cloud", 4, 1, Effect::Token(LingeringAttack), 0),
    ab("Disarm", 3, 1, Effect::Token(NoAttack), 0),
    ab("Hobble", 3, 1, Effect::Token(NoMovement), 0),
    ab("Stone Barrier", 3, 1, Blockade, 0),
    ab("Earth Shatter", 5, 1, FlipTile, 0),
    ab("Mending Ground", 4, 1, RestoreTile, 0),
    ab("Crushing Blow", 5, 0, Damage(5), 1),
];

/// The Secret ability cards (stand-in), by card number 24–43.
pub static SECRET: [Ability; SECRET_CARDS] = [
    ab("Ambush", 0, 0, Damage(3), 0),
    ab("Sneak Attack", 0, 1, Damage(2), 0),
    ab("Counterstrike", 0, 0, Attack(5), 0),
    ab("Hidden Blade", 0, 1, Attack(3), 0),
    ab("Sudden Shield", 0, 1, Defense(3), 0),
    ab("Last Stand", 0, 0, Defense(4), 0),
    ab("Escape Route", 0, 0, Move(2), 0),
    ab("Smoke and Mirrors", 0, 1, Move(2), 0),
    ab("Gust of Wind", 0, 0, Effect::Token(Flying), 0),
    ab("Sleep Powder", 0, 1, Effect::Token(Sleeping), 0),
    ab("Lingering Curse", 0, 1, Effect::Token(LingeringAttack), 0),
    ab("Butterfingers", 0, 1, Effect::Token(NoAttack), 0),
    ab("Sticky Mud", 0, 1, Effect::Token(NoMovement), 0),
    ab("Rock Slide", 0, 1, Blockade, 0),
    ab("Crystal Cache", 0, 1, Crystals(2), 0),
    ab("Crystal Surge", 0, 0, Crystals(3), 0),
    ab("Cave-in", 0, 1, FlipTile, 0),
    ab("Shore Up", 0, 1, RestoreTile, 0),
    ab("Knockout Gas", 0, 2, Effect::Token(Sleeping), 0),
    ab("Brace", 0, 0, Defense(2), 0),
];

/// The deck and ability of card `id`, if it is a card.
pub fn card(id: CardId) -> Option<(Deck, &'static Ability)> {
    let i = usize::from(id);
    if let Some(a) = LEARNED.get(i) {
        return Some((Deck::Learned, a));
    }
    SECRET
        .get(i.checked_sub(LEARNED_CARDS)?)
        .map(|a| (Deck::Secret, a))
}

/// A die face as the log, the table and the choices name it ("move/attack", "shield").
pub fn face_name(f: Face) -> &'static str {
    match f {
        Face::MoveAttack => "move/attack",
        Face::Shield => "shield",
        Face::Crystal => "crystal",
        Face::Horn => "horn",
    }
}

/// A deck as the log and the table name it ("Learned", "Secret").
pub fn deck_name(deck: Deck) -> &'static str {
    match deck {
        Deck::Learned => "Learned",
        Deck::Secret => "Secret",
    }
}

pub fn card_name(id: CardId) -> String {
    card(id).map_or_else(|| format!("card {id}"), |(_, a)| a.name.to_owned())
}

/// Every card of a deck, by number.
pub fn deck_cards(deck: Deck) -> Vec<CardId> {
    let (from, n) = match deck {
        Deck::Learned => (0, LEARNED_CARDS),
        Deck::Secret => (LEARNED_CARDS, SECRET_CARDS),
    };
    (from..from + n)
        .filter_map(|i| CardId::try_from(i).ok())
        .collect()
}
