//! What a Magic card is: its type, range, aim, traits, duration and effect (one [`CardDef`]
//! per row of `card_table`), and what a transformed form is ([`Form`]). Plain data at the bottom
//! of the ruleset, below the table that fills it in and `cards`, which looks rows up by id.

use serde::{Deserialize, Serialize};

/// The five card types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Attack,
    Counter,
    Energy,
    Item,
    Neutral,
}

/// Target range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Range {
    Caster,
    Adjacent,
    Sight,
    Anywhere,
}

/// What a card is aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aim {
    /// Nothing to choose (the caster, the game board, your sector).
    Nothing,
    Wizard,
    /// A wizard, or a wall or door (attacks that damage objects).
    WizardOrWall,
    Square,
    EmptySquare,
    BorderLine,
    Wall,
    Door,
    /// A wall, a door or an object on the board.
    Barrier,
    Treasure,
    Spell,
    Sector,
    Direction,
    /// An item carried by a wizard.
    CarriedItem,
    Creature,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trait {
    Creation,
    Curse,
    Fire,
    Global,
    MagicStone,
    Mundane,
    ThrownWeapon,
    Transformation,
    Trinket,
    Water,
    Weapon,
    /// The object fills the entire square (blocks sight through it).
    FillsSquare,
    /// A dropped or created object that can be picked up.
    Mobile,
    /// An animate object (Conjuring's creatures, later): an object on the board whose card has
    /// this trait; spells aimed at creatures (`Aim::Creature`) target it.
    Creature,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Duration {
    Instant,
    /// Lasts while it has energy tokens; one is removed when time passes on its caster's turn.
    Temporary,
    Permanent,
}

/// The effect code of a card (`effects.rs`). `Later` marks a card of a school not implemented
/// yet: it can only be spent for its energy value or discarded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    Energy,
    // Counter spells.
    FullShield,
    NegateNeutral,
    Zot,
    AbsorbSpell,
    Shield,
    Featherweight,
    // Cantrip.
    DropObject,
    AroundTheCorner,
    CreateWall,
    DestroyWall,
    Dispel,
    PickLock,
    RotateSector,
    ThrownDamage,
    // Alchemy.
    FoolsGold,
    AcidBath,
    StoneDead,
    Add,
    Homonculus,
    BloodShard,
    Boomstone,
    Brainstone,
    Lifestone,
    Mightstone,
    NullPowder,
    Powerstone,
    Speedstone,
    Spellstone,
    UniversalSolvent,
    Visionstone,
    // Elemental.
    WallOfEarth,
    Fireball,
    LightningBolt,
    Waterbolt,
    Flood,
    WallOfFire,
    Fog,
    MistBody,
    StoneBlock,
    StoneSpikes,
    Windrider,
    FireClock,
    // Mentalism.
    BrainBurn,
    MentalForce,
    Powerthrust,
    PsychicStorm,
    ShareLife,
    ThoughtSteal,
    PainLink,
    Teleport,
    AstralProjection,
    Meditate,
    Shatter,
    // Conjuring.
    Ward,
    FireDarts,
    KaBong,
    Swap,
    BoobyTrap,
    CreateDoor,
    DustCloud,
    Glue,
    Rosebush,
    Thornbush,
    Tacks,
    // Mutation.
    Disease,
    HeaveHo,
    Stretch,
    Adrenaline,
    ExtraArms,
    MadDash,
    Strength,
    Wallivore,
    /// A transformation card (Golem Form, ...): the caster takes the form of
    /// `card_table::FORMS` whose `card` is this card's key.
    Transform,
    // Thaumaturgy.
    AntiAnti,
    Backlash,
    GlobeOfPain,
    SlowDeath,
    Yoink,
    Invisible,
    Gravity,
    PassThroughWall,
    SealDoor,
    MasterKey,
    /// A weapon's blow (Dagger, Wizardblade): the card's number in damage.
    Blade,
    /// Not implemented yet (no card uses it now; kept for cards to come).
    Later,
}

/// One card. `power` is the card's number (damage, cracks to destroy, movement, …) as its text
/// says; `energy` its printed energy value, given when it is spent as energy (0: it shows
/// none and cannot be).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CardDef {
    pub key: &'static str,
    pub name: &'static str,
    pub kind: Kind,
    pub range: Range,
    pub aim: Aim,
    pub traits: &'static [Trait],
    pub duration: Duration,
    /// Whether the spell's energy changes what it does. Any spell may be boosted (l.297);
    /// this only tells the presenters whether a boost is worth it.
    pub boost: bool,
    pub energy: u8,
    pub power: u8,
    pub effect: Effect,
    pub text: &'static str,
}

impl CardDef {
    /// The same card showing the printed energy value `value` (l.290: "The energy value of
    /// \"3\" at the bottom of the card"): it may be spent as that much energy instead of being
    /// played for its effect.
    pub const fn e(self, value: u8) -> CardDef {
        CardDef {
            energy: value,
            ..self
        }
    }
}

/// A transformed form (Mutation's transformations), taken by casting its card (`card`, the
/// key of a card with effect [`Effect::Transform`]). Movement points, punch damage (plus a
/// roll of a die with `punch_die` faces when that is not 0: the Werewolf's d4), damage taken
/// off each hit, a range of the four-sided die on which an attack aimed at it misses (Gnome:
/// evades on 1-2), and whether it passes doors of any colour (Slime).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Form {
    pub name: &'static str,
    /// The card that gives this form.
    pub card: &'static str,
    pub movement: u8,
    pub punch: u8,
    /// Faces of the die rolled and added to the punch (0: none).
    pub punch_die: u8,
    pub armour: u8,
    pub evades_up_to: u8,
    /// Oozes under doors: passes any door, whatever its colour (never a wall).
    pub through_doors: bool,
}

impl Form {
    /// What the form does, in words: "2 movement points, punches 2, takes 2 less damage".
    pub fn words(&self) -> String {
        let mut parts = vec![format!("{} movement points", self.movement)];
        parts.push(if self.punch_die > 0 {
            format!("punches d{}", self.punch_die)
        } else {
            format!("punches {}", self.punch.max(1))
        });
        if self.armour > 0 {
            parts.push(format!("takes {} less damage", self.armour));
        }
        if self.evades_up_to > 0 {
            parts.push(format!("attacks miss on 1-{}", self.evades_up_to));
        }
        if self.through_doors {
            parts.push("passes any door".to_owned());
        }
        parts.join(", ")
    }

    /// The numbers in short, for the picture's legend: "move 2, punch 2, -2 damage". The punch
    /// is left out where it is a wizard's usual 1 damage (the legend's panel is narrow).
    pub fn short_words(&self) -> String {
        let mut parts = vec![format!("move {}", self.movement)];
        if self.punch_die > 0 {
            parts.push(format!("punch d{}", self.punch_die));
        } else if self.punch > 1 {
            parts.push(format!("punch {}", self.punch));
        }
        if self.armour > 0 {
            parts.push(format!("-{} damage", self.armour));
        }
        if self.evades_up_to > 0 {
            parts.push(format!("evades 1-{}", self.evades_up_to));
        }
        if self.through_doors {
            parts.push("any door".to_owned());
        }
        parts.join(", ")
    }

    /// Two letters for the picture's badge ("Go", "We", "Bi", "Gn", "Sl").
    pub fn badge(&self) -> String {
        self.name
            .chars()
            .filter(|c| c.is_alphabetic())
            .take(2)
            .collect()
    }
}
