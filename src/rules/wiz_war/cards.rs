//! The Magic cards: a card by its row ([`CardId`], the id game logs store), the schools and
//! their deck lists, the deck of a game. What a card is (`card_def`) and every card's row, the
//! school lists and the forms (`card_table`) lie below this file; their types are re-exported
//! here, where the rest of the ruleset reads them. The card text is the project's own
//! (CONTENT.md: the printed text is not public); every number a card uses is in its row, so
//! real data can replace the stand-ins there. The effect code of each [`Effect`] is in
//! `effects.rs`.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

pub use super::card_def::{Aim, CardDef, Duration, Effect, Form, Kind, Range, Trait};

/// A card, by its row in [`CARDS`]. JSON: the card's key, e.g. `"fireball"`; a number outside the
/// table reads and prints as `"card_<n>"` (never dealt; it is what the tests plant as a secret).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CardId(pub u16);

impl CardId {
    pub fn def(self) -> Option<&'static CardDef> {
        CARDS.get(usize::from(self.0))
    }

    pub fn key(self) -> String {
        match self.def() {
            Some(d) => d.key.to_owned(),
            None => format!("card_{}", self.0),
        }
    }

    pub fn name(self) -> String {
        match self.def() {
            Some(d) => d.name.to_owned(),
            None => format!("card_{}", self.0),
        }
    }

    pub fn by_key(key: &str) -> Option<CardId> {
        if let Some(i) = CARDS.iter().position(|c| c.key == key) {
            return u16::try_from(i).ok().map(CardId);
        }
        let n = key.strip_prefix("card_")?;
        if n.starts_with('+') || (n.len() > 1 && n.starts_with('0')) {
            return None;
        }
        n.parse::<u16>()
            .ok()
            .filter(|&n| usize::from(n) >= CARDS.len())
            .map(CardId)
    }

    pub fn kind(self) -> Option<Kind> {
        self.def().map(|d| d.kind)
    }

    /// The energy this card gives when spent as energy (energy cards, and cards showing a value).
    pub fn energy_value(self) -> u8 {
        self.def().map_or(0, |d| d.energy)
    }

    pub fn has_trait(self, t: Trait) -> bool {
        self.def().is_some_and(|d| d.traits.contains(&t))
    }

    pub fn effect(self) -> Effect {
        self.def().map_or(Effect::Later, |d| d.effect)
    }

    pub fn power(self) -> u8 {
        self.def().map_or(0, |d| d.power)
    }
}

impl Serialize for CardId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.key())
    }
}

impl<'de> Deserialize<'de> for CardId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Key;
        impl Visitor<'_> for Key {
            type Value = CardId;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a card key such as \"fireball\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<CardId, E> {
                CardId::by_key(v).ok_or_else(|| E::custom(format!("no card {v:?}")))
            }
        }
        d.deserialize_str(Key)
    }
}

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum School {
    Cantrip,
    Alchemy,
    Conjuring,
    Elemental,
    Mentalism,
    Mutation,
    Thaumaturgy,
}

impl School {
    /// The schools a game may choose (Cantrip is always in the deck).
    pub const CHOOSABLE: [School; 6] = [
        School::Alchemy,
        School::Conjuring,
        School::Elemental,
        School::Mentalism,
        School::Mutation,
        School::Thaumaturgy,
    ];

    /// Whether every card of the school has its effect implemented.
    pub fn complete(self) -> bool {
        self.deck()
            .iter()
            .all(|(key, _)| CardId::by_key(key).is_some_and(|c| c.effect() != Effect::Later))
    }

    /// The school's cards: (card key, copies).
    pub fn deck(self) -> &'static [(&'static str, u8)] {
        match self {
            School::Cantrip => CANTRIP,
            School::Alchemy => ALCHEMY,
            School::Conjuring => CONJURING,
            School::Elemental => ELEMENTAL,
            School::Mentalism => MENTALISM,
            School::Mutation => MUTATION,
            School::Thaumaturgy => THAUMATURGY,
        }
    }
}

use super::card_table::{ALCHEMY, CANTRIP, CONJURING, ELEMENTAL, MENTALISM, MUTATION, THAUMATURGY};
pub use super::card_table::{CARDS, FORMS};

/// The faces of the game's one die: "1 Four-sided Die" (l.21). Evasion rolls use it.
pub const DIE_FACES: u8 = 4;

/// The form (its index into [`FORMS`]) that the transformation card `card` gives.
pub fn form_of(card: CardId) -> Option<u8> {
    let key = card.def()?.key;
    FORMS
        .iter()
        .position(|f| f.card == key)
        .and_then(|i| u8::try_from(i).ok())
}

/// The deck of Cantrip plus `schools`, as a sorted multiset.
pub fn deck(schools: &[School]) -> Vec<CardId> {
    let mut deck = Vec::new();
    for school in std::iter::once(School::Cantrip).chain(schools.iter().copied()) {
        for (key, copies) in school.deck() {
            if let Some(id) = CardId::by_key(key) {
                deck.extend(std::iter::repeat_n(id, usize::from(*copies)));
            }
        }
    }
    deck.sort();
    deck
}
