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

    /// The reward in words: "+1 level and +1 gem into the Bag of Fate".
    pub fn reward_text(self) -> String {
        let reward = self.reward();
        let mut parts = Vec::new();
        if reward.levels > 0 {
            parts.push(format!("+{}", plural(reward.levels, "level", "levels")));
        }
        if reward.gems > 0 {
            parts.push(format!(
                "+{} into the Bag of Fate",
                plural(reward.gems, "gem", "gems")
            ));
        }
        parts.join(" and ")
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
pub enum Token {
    /// An element token: shows its element once.
    Element(Element),
    AddAGem,
    LevelUp,
    /// A gem of the player at this seat.
    Gem(Seat),
}

/// The seven characters, in tile order: the order is the number.
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

    /// What the tile says, from its actions: "draw 1 card, play 1 card".
    pub fn text(self) -> String {
        use CharacterAction::*;
        let mut parts: Vec<String> = self
            .actions()
            .iter()
            .map(|action| match *action {
                DrawCards(n) => format!("draw {}", plural(n, "card", "cards")),
                LookAtCards(n) => format!("look at the top {n} cards of the deck"),
                KeepOneLookedAt => "keep 1, discard the others".into(),
                PlayCards(n) => format!("play {}", plural(n, "card", "cards")),
                Trade => "swap one of your face-up cards or tokens for one of another player's \
                          (always, when you and another player have one)"
                    .into(),
                DrawTokens(TokenCount::Fixed(n)) => {
                    format!("draw {}", plural(n, "token", "tokens"))
                }
                DrawTokens(TokenCount::Level) => "draw tokens equal to your level".into(),
                WizardDraw => "draw tokens equal to your level (drawing your own gem wins the \
                               game; all tokens go back)"
                    .into(),
            })
            .collect();
        if !self.turns_in_sets() {
            parts.push("no sets that turn".into());
        }
        parts.join(", ")
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

/// "1 card", "2 cards".
fn plural(n: u8, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The token chart (l.165-170) in words, for the Apprentice, Farmer and Hunter.
pub const TOKEN_EFFECTS: &str = "Apprentice, Farmer and Hunter: Add-a-Gem puts one of your gems \
    into the Bag of Fate; Level-Up raises your level by 1 (up to 6); an element token is kept \
    in front of you for sets; a gem has no effect. Element tokens are kept, all other tokens go \
    back into the bag. Wizard: only a gem of your own colour matters (you win); all tokens go \
    back.";
