//! The game's content as data: elements and their sets, the card and token mix, the
//! characters and their actions. The rulebook lost its pictures; the stand-ins come from
//! `shared/rules/CONTENT.md` and can be replaced here without touching the engine.

use serde::{Deserialize, Serialize};

use crate::rules::Seat;

/// Every player's level at the start ("Set the Level on each Level Dial to 1").
pub const STARTING_LEVEL: u8 = 1;
/// The highest level a Level Dial shows.
pub const LEVEL_CAP: u8 = 6;
/// Gems each player stacks on the board at the start.
pub const GEMS_PER_PLAYER: u8 = 8;
/// Cards dealt to each player at the start.
pub const HAND_SIZE: usize = 3;
/// Element tokens of each element in the bag at the start.
pub const TOKENS_PER_ELEMENT: usize = 5;
/// Add-a-Gem tokens in the bag.
pub const ADD_A_GEM_TOKENS: usize = 3;
/// Level-Up tokens in the bag.
pub const LEVEL_UP_TOKENS: usize = 3;
/// Element cards of each element, as (icons shown, copies): 12 per element.
pub const CARD_MIX: [(u8, usize); 3] = [(1, 6), (2, 4), (3, 2)];

/// The five elements, in the order the engine lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Element {
    Potions,
    Flowers,
    Snails,
    Mushrooms,
    Crystals,
}

/// What turning in a set gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reward {
    /// Gems moved from the player's supply into the Bag of Fate.
    pub gems: u8,
    /// Levels gained (up to [`LEVEL_CAP`]).
    pub levels: u8,
}

impl Element {
    pub const ALL: [Element; 5] = [
        Element::Potions,
        Element::Flowers,
        Element::Snails,
        Element::Mushrooms,
        Element::Crystals,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Element::Potions => "Potions",
            Element::Flowers => "Flowers",
            Element::Snails => "Snails",
            Element::Mushrooms => "Mushrooms",
            Element::Crystals => "Crystals",
        }
    }

    /// Icons of this element needed for one set.
    pub fn set_size(self) -> u32 {
        match self {
            Element::Potions => 3,
            Element::Flowers => 4,
            Element::Snails => 5,
            Element::Mushrooms => 6,
            Element::Crystals => 7,
        }
    }

    pub fn reward(self) -> Reward {
        match self {
            Element::Potions => Reward { gems: 1, levels: 0 },
            Element::Flowers => Reward { gems: 0, levels: 1 },
            Element::Snails => Reward { gems: 2, levels: 0 },
            Element::Mushrooms => Reward { gems: 1, levels: 1 },
            Element::Crystals => Reward { gems: 3, levels: 0 },
        }
    }
}

/// An element card. Cards of the same element and icon count are interchangeable, so a card
/// is its kind: the deck, hands and piles are multisets of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Card {
    pub element: Element,
    /// How many times the element appears on the card (1 to 3).
    pub icons: u8,
}

impl Card {
    pub fn new(element: Element, icons: u8) -> Card {
        Card { element, icons }
    }
}

/// A token in (or drawn from) the Bag of Fate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Token {
    /// An element token: shows its element once.
    Element(Element),
    AddAGem,
    LevelUp,
    /// A gem of the player at this seat.
    Gem(Seat),
}

/// The seven characters, in tile order: the order is the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Character {
    Queen,
    Oracle,
    Trader,
    Apprentice,
    Farmer,
    Hunter,
    Wizard,
}

/// How many tokens a token-drawing action draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenCount {
    Fixed(u8),
    /// "Draw Tokens Equal to Your Level".
    Level,
}

/// One action on a character tile, performed in the order listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharacterAction {
    /// Take this many top cards of the deck into the hand, one at a time.
    DrawCards(u8),
    /// The Oracle looks at this many top cards (secretly, one at a time).
    LookAtCards(u8),
    /// The Oracle keeps one looked-at card in hand and discards the others.
    KeepOneLookedAt,
    /// Turn this many cards from the hand face up, one at a time.
    PlayCards(u8),
    /// Swap one face-up card or kept token with another player's.
    Trade,
    /// Draw tokens, all first, then resolve them (Apprentice, Farmer, Hunter).
    DrawTokens(TokenCount),
    /// Draw tokens equal to the level; the player's own gem wins; then all go back.
    WizardDraw,
}

impl Character {
    pub const ALL: [Character; 7] = [
        Character::Queen,
        Character::Oracle,
        Character::Trader,
        Character::Apprentice,
        Character::Farmer,
        Character::Hunter,
        Character::Wizard,
    ];

    /// The tile's number: the turn-order space its player takes next round.
    pub fn number(self) -> u8 {
        match self {
            Character::Queen => 1,
            Character::Oracle => 2,
            Character::Trader => 3,
            Character::Apprentice => 4,
            Character::Farmer => 5,
            Character::Hunter => 6,
            Character::Wizard => 7,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Character::Queen => "Queen",
            Character::Oracle => "Oracle",
            Character::Trader => "Trader",
            Character::Apprentice => "Apprentice",
            Character::Farmer => "Farmer",
            Character::Hunter => "Hunter",
            Character::Wizard => "Wizard",
        }
    }

    /// The actions on the tile, in the order they are performed (CONTENT.md's table).
    pub fn actions(self) -> &'static [CharacterAction] {
        use CharacterAction::*;
        match self {
            Character::Queen => &[DrawCards(1), PlayCards(1)],
            Character::Oracle => &[LookAtCards(3), KeepOneLookedAt, PlayCards(1)],
            Character::Trader => &[DrawCards(1), PlayCards(1), Trade],
            Character::Apprentice => &[DrawTokens(TokenCount::Level)],
            Character::Farmer => &[DrawCards(2), DrawTokens(TokenCount::Fixed(1)), PlayCards(1)],
            Character::Hunter => &[DrawCards(1), DrawTokens(TokenCount::Fixed(1)), PlayCards(2)],
            Character::Wizard => &[WizardDraw],
        }
    }

    /// Whether the player may turn in sets after this character's actions. The Wizard's
    /// text ends "Your turn is over.", so the Wizard does not (ruling 9 in the docs).
    pub fn turns_in_sets(self) -> bool {
        self != Character::Wizard
    }
}

/// The 60 element cards, sorted.
pub fn full_deck() -> Vec<Card> {
    let mut deck = Vec::new();
    for element in Element::ALL {
        for (icons, copies) in CARD_MIX {
            deck.extend(std::iter::repeat_n(Card::new(element, icons), copies));
        }
    }
    deck.sort();
    deck
}

/// The bag at the start (no gems yet), sorted.
pub fn starting_bag() -> Vec<Token> {
    let mut bag = Vec::new();
    for element in Element::ALL {
        bag.extend(std::iter::repeat_n(
            Token::Element(element),
            TOKENS_PER_ELEMENT,
        ));
    }
    bag.extend(std::iter::repeat_n(Token::AddAGem, ADD_A_GEM_TOKENS));
    bag.extend(std::iter::repeat_n(Token::LevelUp, LEVEL_UP_TOKENS));
    bag.sort();
    bag
}
