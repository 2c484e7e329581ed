//! Cards in words: a hand with each card's schools, type, energy value and text; the items
//! carried face up; the spells in play; the deck and the discard pile.

use super::super::cards::{CardId, Duration, Kind, School};
use super::super::state::{State, Target, tally};
use super::{plural, seat_name, target_words};
use crate::rules::present::Section;
use crate::rules::{Seat, Viewer};

pub(super) fn counted(c: CardId, n: u32) -> String {
    if n > 1 {
        format!("{} x{n}", c.name())
    } else {
        c.name()
    }
}

/// The schools of the game's deck that hold `card`, e.g. "Cantrip/Elemental".
pub(super) fn schools(state: &State, card: CardId) -> String {
    let key = card.key();
    let mut out: Vec<&str> = Vec::new();
    for school in std::iter::once(School::Cantrip).chain(state.options.schools.iter().copied()) {
        if school.deck().iter().any(|(k, _)| *k == key) {
            out.push(school_name(school));
        }
    }
    out.dedup();
    out.join("/")
}

pub(super) fn school_name(s: School) -> &'static str {
    match s {
        School::Cantrip => "Cantrip",
        School::Alchemy => "Alchemy",
        School::Conjuring => "Conjuring",
        School::Elemental => "Elemental",
        School::Mentalism => "Mentalism",
        School::Mutation => "Mutation",
        School::Thaumaturgy => "Thaumaturgy",
    }
}

pub(super) fn kind_words(k: Kind) -> &'static str {
    match k {
        Kind::Attack => "attack spell",
        Kind::Counter => "counter spell",
        Kind::Energy => "energy card",
        Kind::Item => "item",
        Kind::Neutral => "neutral spell",
    }
}

pub(super) fn card_text(c: CardId) -> String {
    c.def().map_or_else(|| c.name(), |d| d.text.to_owned())
}

/// A card as the hand shows it: name, school, type, energy value, text.
pub(super) fn card_line(state: &State, c: CardId, copies: u32) -> String {
    let Some(d) = c.def() else {
        return counted(c, copies);
    };
    let mut facts = Vec::new();
    let school = schools(state, c);
    if school.is_empty() {
        facts.push(kind_words(d.kind).to_owned());
    } else {
        facts.push(format!("{school} {}", kind_words(d.kind)));
    }
    if d.boost {
        facts.push("boostable".to_owned());
    }
    facts.push(if d.energy > 0 {
        format!("energy value {}", d.energy)
    } else {
        "no energy value".to_owned()
    });
    format!("{} ({}): {}", counted(c, copies), facts.join(", "), d.text)
}

pub(super) fn hand(state: &State, viewer: Viewer, seat: Seat, names: &[String]) -> Section {
    let title = if viewer == Viewer::Seat(seat) {
        "Your hand".to_owned()
    } else {
        format!("{}'s hand", seat_name(names, seat))
    };
    let Some(w) = state.wizard(seat) else {
        return Section::new(title, vec![]);
    };
    let mut lines: Vec<String> = tally(&w.hand)
        .into_iter()
        .map(|(c, n)| card_line(state, c, n))
        .collect();
    if lines.is_empty() {
        lines.push("No cards.".to_owned());
    }
    Section::new(title, lines)
}

/// Items carried by every wizard, face up, with their text.
pub(super) fn items(state: &State, names: &[String]) -> Option<Section> {
    let mut lines = Vec::new();
    for seat in 0..state.seats() {
        let Some(w) = state.wizard(seat) else {
            continue;
        };
        for (c, n) in tally(&w.items) {
            lines.push(format!(
                "{}: {}",
                seat_name(names, seat),
                card_line(state, c, n)
            ));
        }
    }
    (!lines.is_empty()).then(|| Section::new("Items carried (face up)", lines))
}

pub(super) fn spells(state: &State, names: &[String]) -> Option<Section> {
    let lines: Vec<String> = state
        .spells
        .iter()
        .map(|s| {
            let tokens = if State::duration(s.card) == Duration::Temporary {
                format!(
                    ", {} left",
                    plural(usize::from(s.tokens), "energy token", "energy tokens")
                )
            } else {
                String::new()
            };
            let on = match s.target {
                Target::None => String::new(),
                t => format!(" on {}", target_words(state, names, Viewer::Spectator, &t)),
            };
            format!(
                "#{} {} by {}{on} (energy {}{tokens}): {}",
                s.id,
                s.card.name(),
                seat_name(names, s.caster),
                s.energy,
                card_text(s.card)
            )
        })
        .collect();
    (!lines.is_empty()).then(|| Section::new("Spells in play (maintained by their casters)", lines))
}

pub(super) fn piles(state: &State) -> Section {
    let mut lines = vec![format!(
        "Deck: {} face down.",
        plural(state.deck.len(), "card", "cards")
    )];
    if state.discard.is_empty() {
        lines.push("Discard pile: empty.".to_owned());
    } else {
        let cards: Vec<String> = tally(&state.discard)
            .into_iter()
            .map(|(c, n)| counted(c, n))
            .collect();
        lines.push(format!(
            "Discard pile ({}): {}.",
            state.discard.len(),
            cards.join(", ")
        ));
    }
    Section::new("Cards", lines)
}
