//! Gnomes and Wizards' notation (docs/rules/gnomes-and-wizards.md, "Notation"): a short text
//! for each choice, as a player types it in a reply. Units by one word of their name (a Clan
//! by its first word, `catapult` for the Catapult Specialists; a Leader by its last,
//! `quartzbeard`): no two units of the four tribes share it. Tiles and dice by the numbers the
//! texts use, abilities and cards by name (`pebble-volley`), players as `seat-N`.

use super::actions::Action;
use super::data::{self, CardId, Deck, Face};
use super::state::{Cast, Source, State, Target, UnitRef};
use crate::rules::Seat;
use crate::rules::notation::{from_json, word};

/// The notation of `action`, one of `seat`'s choices: units by one word of their name, tiles
/// and dice by number, abilities by name (docs/rules/gnomes-and-wizards.md, "Notation").
pub fn notation(state: &State, seat: Seat, action: &Action) -> String {
    let own = |slot: &u8| unit_word(state, seat, *slot);
    match action {
        Action::PlaceLeader(tile) => format!("leader {tile}"),
        Action::Reenter { clan, tile } => format!("reenter {} {tile}", own(clan)),
        Action::Flip(tile) => format!("flip {tile}"),
        Action::CrumbleTile(tile) => format!("crumble {tile}"),
        Action::Fall(tile) => format!("fall {tile}"),
        Action::MoveUnitTo(tile) => format!("place {tile}"),
        Action::MarkReroll(die) => format!("mark {die}"),
        Action::Reroll => "reroll".into(),
        Action::KeepDice => "keep".into(),
        Action::Assign { face, slot } => format!("assign {} {}", face_word(*face), own(slot)),
        Action::Move { slot, to } => format!("move {} {to}", own(slot)),
        Action::Stop => "stop".into(),
        Action::Attack { slot, target, dice } => {
            format!("attack {} {} {dice}", own(slot), unit_ref(state, target))
        }
        Action::EndActions => "end".into(),
        Action::Summon { slot, clan } => format!("summon {} {}", own(slot), own(clan)),
        Action::DrawCards { slot } => format!("draw-cards {}", own(slot)),
        Action::DrawFrom(deck) => format!("draw-from {}", deck_word(*deck)),
        Action::KeepCard(n) => keep_card(state, *n),
        Action::Attach(slot) => format!("attach {}", own(slot)),
        Action::HoldLearned => "hold".into(),
        Action::AttachHeld { card, slot } => {
            format!("attach {} {}", card_word(*card), own(slot))
        }
        Action::Empower {
            slot,
            clan,
            learned,
        } => format!("empower {} {} {}", own(slot), own(clan), which(*learned)),
        Action::EndCall => "end-call".into(),
        Action::Charge { slot, learned } => format!("charge {} {}", own(slot), which(*learned)),
        Action::EndCharge => "end-charge".into(),
        Action::Cast(cast) => format!("cast {}", cast_words(state, seat, cast)),
        Action::Pass => "pass".into(),
        Action::OfferAlliance(other) => format!("offer-alliance seat-{other}"),
        Action::AcceptAlliance => "accept".into(),
        Action::DeclineAlliance => "decline".into(),
        Action::EndAlliance(other) => format!("end-alliance seat-{other}"),
        // Chance outcomes: never a player's choice.
        other => from_json(&serde_json::to_value(other).unwrap_or_default()),
    }
}

/// One word for unit `slot` of `owner`'s tribe: a Clan's first word, a Leader's last.
fn unit_word(state: &State, owner: Seat, slot: u8) -> String {
    let name = state.tribe_of(owner).unit_name(slot);
    let mut words = name.split_whitespace();
    let one = if slot == 0 {
        words.next_back()
    } else {
        words.next()
    };
    word(one.unwrap_or(name))
}

fn unit_ref(state: &State, unit: &UnitRef) -> String {
    unit_word(state, unit.owner, unit.slot)
}

fn face_word(face: Face) -> String {
    from_json(&serde_json::to_value(face).unwrap_or_default())
}

fn deck_word(deck: Deck) -> &'static str {
    match deck {
        Deck::Learned => "learned",
        Deck::Secret => "secret",
    }
}

fn which(learned: bool) -> &'static str {
    if learned { "learned" } else { "innate" }
}

fn card_word(card: CardId) -> String {
    word(&data::card_name(card))
}

/// A drawn card by name: the drawer sees what was drawn.
fn keep_card(state: &State, n: usize) -> String {
    match state.draw.as_ref().and_then(|d| d.drawn.get(n)) {
        Some(card) => format!("keep-card {}", card_word(*card)),
        None => format!("keep-card {n}"),
    }
}

/// What is cast (the ability by name) and at what.
fn cast_words(state: &State, seat: Seat, cast: &Cast) -> String {
    let source = match cast.source {
        Source::Innate(slot) => state
            .tribe_of(seat)
            .innate(slot)
            .map_or_else(|| format!("innate-{slot}"), |a| word(a.name)),
        Source::Learned(slot) => state
            .player(seat)
            .and_then(|p| p.units.iter().find(|u| u.slot == slot))
            .and_then(|u| u.learned)
            .map_or_else(|| format!("learned-{slot}"), card_word),
        Source::Secret(card) => card_word(card),
    };
    let target = match &cast.target {
        Target::Unit(unit) => unit_ref(state, unit),
        Target::Tile(tile) => tile.to_string(),
        Target::Move { unit, to } => format!("{} {to}", unit_ref(state, unit)),
        Target::Crystals { unit, learned } => {
            format!("{} {}", unit_ref(state, unit), which(*learned))
        }
    };
    format!("{source} {target}")
}
