//! Monsters and Magic's notation (docs/rules/monsters-and-magic.md, "Notation"): a short text
//! for each choice, as a player types it in a reply. Cards by name (`wood-elves`), figures by
//! kind and number (`hero-3`: the number the board shows), spaces as the board names them
//! (`c4`), players as the texts name them (`seat-1`).

use super::actions::Action;
use super::data::{CardId, card_name};
use super::state::{State, Unit};
use crate::rules::Seat;
use crate::rules::notation::{from_json, word};

/// The notation of `action`, one of a player's choices: cards by name, figures by kind and
/// number, spaces as the board names them (docs/rules/monsters-and-magic.md, "Notation").
pub fn notation(state: &State, _seat: Seat, action: &Action) -> String {
    let figure = |id: &u16| figure_word(state, *id);
    match action {
        Action::ChooseCorner(at) => format!("corner {at}"),
        Action::StartFigure(kind) => format!("start {}", word(kind.name())),
        Action::DeclineExtraFigure => "decline".into(),
        Action::Move { figure: f, to } => format!("move {} {to}", figure(f)),
        Action::Summon { summoner, unit, to } => {
            format!("summon {} {} {to}", figure(summoner), figure(unit))
        }
        Action::PlayCard(card) => format!("play {}", card_word(*card)),
        Action::Oracle { seat } => format!("oracle seat-{seat}"),
        Action::Empire { at } => format!("empire {at}"),
        Action::AlterTerrain { at } => format!("alter-terrain {at}"),
        Action::AlterTerrainTo(terrain) => format!("terrain {}", word(terrain.name())),
        Action::CancelAlterTerrain => "cancel-alter-terrain".into(),
        Action::Haste { figure: f } => format!("haste {}", figure(f)),
        Action::Alchemist => "alchemist".into(),
        Action::AlchemyDiscard(card) => format!("alchemy-discard {}", card_word(*card)),
        Action::AlchemyDone => "alchemy-done".into(),
        Action::Artificer { figure: f } => format!("artificer {}", figure(f)),
        Action::Diplomat { permanent, hand } => {
            format!("diplomat {} {}", card_word(*permanent), card_word(*hand))
        }
        Action::Jester { seat } => format!("jester seat-{seat}"),
        Action::Merchant { at } => format!("merchant {at}"),
        Action::Polymorph { figure: f, into } => {
            format!("polymorph {} {}", figure(f), word(into.name()))
        }
        Action::Illusionist(unit) => format!("illusionist {}", unit_word(state, unit)),
        Action::IllusionistSwap(unit) => format!("swap {}", unit_word(state, unit)),
        Action::CancelIllusion => "cancel-illusion".into(),
        Action::Sacrifice { figure: f } => format!("sacrifice {}", figure(f)),
        Action::RecruitWith { card, at } => format!("recruit-with {} {at}", card_word(*card)),
        Action::EndMovement => "end-movement".into(),
        Action::DoneCards => "done".into(),
        Action::Recruit { figure: kind, at } => format!("recruit {} {at}", word(kind.name())),
        Action::Realign { permanent, hand } => {
            format!("realign {} {}", card_word(*permanent), card_word(*hand))
        }
        Action::Discard(card) => format!("discard {}", card_word(*card)),
        Action::DiscardAtRandom => "discard-at-random".into(),
        Action::EndTurn => "end".into(),
        Action::StopBefore(stop) => format!("stop-before {}", stop_word(stop)),
        Action::GoOn => "go-on".into(),
        // Chance outcomes: never a player's choice.
        other => from_json(&serde_json::to_value(other).unwrap_or_default()),
    }
}

fn card_word(card: CardId) -> String {
    word(&card_name(card))
}

/// `hero-3`: the figure's kind and its number (numbers are public and never reused).
fn figure_word(state: &State, id: u16) -> String {
    match state.figures.iter().find(|f| f.id == id) {
        Some(f) => format!("{}-{id}", word(f.kind.name())),
        None => format!("figure-{id}"),
    }
}

fn unit_word(state: &State, unit: &Unit) -> String {
    match unit {
        Unit::Figure(id) => figure_word(state, *id),
        Unit::Garrison(at) => format!("garrison-{at}"),
    }
}

fn stop_word(stop: &super::state::Stop) -> String {
    from_json(&serde_json::to_value(stop).unwrap_or_default())
}
