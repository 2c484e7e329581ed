//! Words shared by the table and the choices: who is who (names, letters on the board), units,
//! abilities, dice faces and counters.

use super::super::board::TileId;
use super::super::data::{self, Ability, CardId, Deck, Effect, Face, Token};
pub(super) use super::super::data::{deck_name, face_name};
use super::super::state::{DeclaredCall, Source, State, Target, UnitRef};
use super::super::view::letters;
use crate::rules::present::seat_name;
use crate::rules::{Seat, Viewer};

/// What the presenter needs at hand: the state, who reads, the names and the board letters.
pub(super) struct Ctx<'a> {
    pub state: &'a State,
    pub viewer: Viewer,
    pub names: &'a [String],
    /// One capital letter per player (seats, then the solo automaton) for the board.
    pub letters: Vec<char>,
}

impl<'a> Ctx<'a> {
    pub fn new(state: &'a State, viewer: Viewer, names: &'a [String]) -> Ctx<'a> {
        Ctx {
            state,
            viewer,
            names,
            letters: letters(state, names),
        }
    }

    pub fn automaton(&self, owner: usize) -> bool {
        self.state.player(owner).is_some_and(|p| p.automaton)
    }

    /// The viewer sits at `owner`.
    pub fn is_me(&self, owner: usize) -> bool {
        owner < self.state.seats && self.viewer == Viewer::Seat(owner)
    }

    /// A player's name ("Ann", "the automaton").
    pub fn who(&self, owner: usize) -> String {
        if self.automaton(owner) {
            "the automaton".to_owned()
        } else {
            seat_name(self.names, owner)
        }
    }

    /// A seat's name, capitalised for the start of a sentence.
    pub fn who_cap(&self, owner: usize) -> String {
        capitalise(&self.who(owner))
    }

    /// "your" for the viewer, otherwise "Ann's".
    pub fn whose(&self, owner: usize) -> String {
        if self.is_me(owner) {
            "your".to_owned()
        } else {
            format!("{}'s", self.who(owner))
        }
    }

    pub fn names_of(&self, seats: &[Seat]) -> String {
        and_list(seats.iter().map(|&s| self.who(s)).collect())
    }

    pub fn letter(&self, owner: usize) -> char {
        self.letters.get(owner).copied().unwrap_or('?')
    }

    /// The unit's tag on the board: "AL" for a Leader, "A3" for Clan 3.
    pub fn code(&self, u: UnitRef) -> String {
        let letter = self.letter(u.owner);
        if u.slot == 0 {
            format!("{letter}L")
        } else {
            format!("{letter}{}", u.slot)
        }
    }

    /// "A3 Burrow Runners".
    pub fn unit(&self, u: UnitRef) -> String {
        format!(
            "{} {}",
            self.code(u),
            self.state.tribe_of(u.owner).unit_name(u.slot)
        )
    }

    /// "your A3 Burrow Runners", "Bob's B1 Storm Callers".
    pub fn whose_unit(&self, u: UnitRef) -> String {
        format!("{} {}", self.whose(u.owner), self.unit(u))
    }

    /// A declared summon or empowering call: "the call of A3 Burrow Runners by Ann's AL Grand
    /// Tinkerer Quartzbeard".
    pub fn declared_call(&self) -> Option<String> {
        let owner = self.state.current()?;
        let (slot, clan, what) = match self.state.declared_call? {
            DeclaredCall::Summon { slot, clan } => (slot, clan, "call"),
            DeclaredCall::Empower { slot, clan, .. } => (slot, clan, "empowering call"),
        };
        Some(format!(
            "the {what} of {} by {}",
            self.unit(UnitRef { owner, slot: clan }),
            self.whose_unit(UnitRef { owner, slot })
        ))
    }

    /// "Bob's B1 Storm Callers (tile 5, HP 8, defense 3)".
    pub fn unit_at(&self, u: UnitRef) -> String {
        let Some(x) = self.state.unit(u) else {
            return self.whose_unit(u);
        };
        let tile = x.tile.map_or_else(|| "off the board".to_owned(), tile);
        format!(
            "{} ({tile}, HP {}, defense {})",
            self.whose_unit(u),
            x.hp,
            x.defense
        )
    }

    /// The units on tile `t`, as tags ("AL, B2").
    pub fn occupants(&self, t: TileId) -> Vec<String> {
        self.state
            .units_on(t)
            .into_iter()
            .map(|u| self.code(u))
            .collect()
    }

    /// The seat whose turn it is, named.
    pub fn current_name(&self) -> Option<String> {
        self.state.current().map(|s| self.who(s))
    }

    /// Words for a counter's ring: "until Ann's next turn starts".
    pub fn until(&self, ring: Seat) -> String {
        if self.is_me(ring) {
            "until your next turn starts".to_owned()
        } else {
            format!("until {}'s next turn starts", self.who(ring))
        }
    }

    /// Where an ability comes from, in words: "A1 Toy Masters' innate Wind-up Rush".
    pub fn source(&self, owner: usize, source: Source) -> String {
        let name = self
            .state
            .ability(owner, source)
            .map_or_else(|| "an unknown ability".to_owned(), |a| a.name.to_owned());
        match source {
            Source::Innate(slot) => format!(
                "{} innate {name}",
                poss(&self.unit(UnitRef { owner, slot }))
            ),
            Source::Learned(slot) => format!(
                "{} Learned {name}",
                poss(&self.unit(UnitRef { owner, slot }))
            ),
            Source::Secret(card) => format!("the Secret card {}", data::card_name(card)),
        }
    }
}

/// "Toy Masters'", "Archmage Vellicent's".
pub(super) fn poss(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

pub(super) fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// "A", "A and B", "A, B and C".
pub(super) fn and_list(items: Vec<String>) -> String {
    match items.len() {
        0 => String::new(),
        1 => items.into_iter().next().unwrap_or_default(),
        n => {
            let head = items.get(..n - 1).unwrap_or(&[]).join(", ");
            let last = items.last().cloned().unwrap_or_default();
            format!("{head} and {last}")
        }
    }
}

pub(super) fn tile(t: TileId) -> String {
    format!("tile {t}")
}

pub(super) fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// What a die face does once assigned.
pub(super) fn face_effect(f: Face) -> &'static str {
    match f {
        Face::MoveAttack => "+1 movement or attack this turn",
        Face::Shield => "+2 defense up to the maximum",
        Face::Crystal => "a crystal to the reserve",
        Face::Horn => "a Call to War horn kept on the unit",
    }
}

pub(super) fn token(t: Token) -> &'static str {
    match t {
        Token::Flying => "Flying",
        Token::Sleeping => "Sleeping",
        Token::LingeringAttack => "Lingering attack",
        Token::NoAttack => "No attack",
        Token::NoMovement => "No movement",
    }
}

fn range(r: u8) -> String {
    match r {
        0 => "same tile".to_owned(),
        n => format!("range {n}"),
    }
}

/// An ability in a few words: "3 damage, range 2".
pub(super) fn short(a: &Ability, on_leader: bool) -> String {
    let what = match a.effect_with_bonus(on_leader) {
        Effect::Damage(n) => format!("{n} damage to an enemy, no defense"),
        Effect::Attack(n) => format!("extra attack {n} on an enemy"),
        Effect::Defense(n) => format!("+{n} defense to an ally"),
        Effect::Move(n) => format!("move an ally up to {n}"),
        Effect::Token(Token::Flying) => "an ally flies".to_owned(),
        Effect::Token(Token::Sleeping) => "an enemy sleeps".to_owned(),
        Effect::Token(Token::LingeringAttack) => "lingering attack 2 + 2 on an enemy".to_owned(),
        Effect::Token(Token::NoAttack) => "an enemy cannot attack".to_owned(),
        Effect::Token(Token::NoMovement) => "an enemy cannot move".to_owned(),
        Effect::Blockade => "blockade a tile".to_owned(),
        Effect::Crystals(n) => format!("{n} crystals onto an ally's abilities"),
        Effect::FlipTile => "flip a tile".to_owned(),
        Effect::RestoreTile => "restore a flipped tile".to_owned(),
    };
    format!("{what}, {}", range(a.range))
}

/// A card by number: "Fire Lance (Learned): Charge 3. …"; an unknown number as "card 77".
pub(super) fn card_text(id: CardId) -> String {
    match data::card(id) {
        Some((Deck::Secret, a)) => format!("{}: {}", a.name, a.text()),
        Some((deck, a)) => format!("{} ({}): {}", a.name, deck_name(deck), a.text()),
        None => data::card_name(id),
    }
}

/// An ability's charge: "1/3 crystals" or "charged (3/3)".
pub(super) fn charge(have: u8, cost: u8) -> String {
    if have >= cost {
        format!("charged ({have}/{cost}), ready to cast")
    } else {
        format!("{have}/{cost} crystals")
    }
}

/// A cast's target in words.
pub(super) fn target(cx: &Ctx, t: &Target) -> String {
    match *t {
        Target::Unit(u) => cx.unit_at(u),
        Target::Tile(t) => tile_words(cx, t),
        Target::Move { unit, to } => format!("{}, moving it to {}", cx.whose_unit(unit), tile(to)),
        Target::Crystals { unit, learned } => format!(
            "{}, filling its {} ability first",
            cx.unit_at(unit),
            if learned { "Learned" } else { "innate" }
        ),
    }
}

/// "tile 7 (AL, B2 there)".
pub(super) fn tile_words(cx: &Ctx, t: TileId) -> String {
    let here = cx.occupants(t);
    if here.is_empty() {
        tile(t)
    } else {
        format!("{} ({} there)", tile(t), here.join(", "))
    }
}
