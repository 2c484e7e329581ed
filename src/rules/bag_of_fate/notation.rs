//! Bag of Fate's notation (docs/rules/bag-of-fate.md, "Notation"): a short text for each
//! choice, as a player types it in a reply. Cards by their icons and element (`2-potions`),
//! element tokens as `<element>-token`, players as the texts name them (`seat-1`).

use super::actions::Action;
use super::data::Card;
use super::state::{Item, State};
use crate::rules::Seat;
use crate::rules::notation::{from_json, word};

/// The notation of `action`, one of a player's choices: cards by icons and element, tokens by
/// element, players as `seat-N` (docs/rules/bag-of-fate.md, "Notation").
pub fn notation(state: &State, _seat: Seat, action: &Action) -> String {
    match action {
        Action::ChooseCharacter(character) => format!("choose {}", word(character.name())),
        Action::Play(card) => format!("play {}", card_word(*card)),
        Action::PlayAtRandom => "play-at-random".into(),
        Action::KeepCard(index) => keep(state, *index),
        Action::TradeWith(seat) => format!("trade seat-{seat}"),
        Action::TradeTake(item) => format!("take {}", item_word(*item)),
        Action::TradeGive(item) => format!("give {}", item_word(*item)),
        Action::SkipTrade => "skip-trade".into(),
        Action::CancelTrade => "cancel-trade".into(),
        Action::TurnIn(element) => format!("turn-in {}", word(element.name())),
        Action::AddCard(card) => format!("add {}", card_word(*card)),
        Action::AddToken => "add-token".into(),
        Action::CancelSet => "cancel-set".into(),
        Action::EndTurn => "end".into(),
        // Chance outcomes and the old form of a play by index: never offered as a choice.
        other => from_json(&serde_json::to_value(other).unwrap_or_default()),
    }
}

/// `2-potions`: a card shows one to three icons of its element.
fn card_word(card: Card) -> String {
    format!("{}-{}", card.icons, word(card.element.name()))
}

fn item_word(item: Item) -> String {
    match item {
        Item::Card(card) => card_word(card),
        Item::Token(element) => format!("{}-token", word(element.name())),
    }
}

/// The Oracle keeps a looked-at card by what it is; a second card just like an earlier one
/// is told apart by its place among them (`keep 2-potions 2`): looked-at cards are the
/// Oracle's to see, so their order tells the Oracle nothing new.
fn keep(state: &State, index: usize) -> String {
    let Some(card) = state.looked_at.get(index) else {
        return format!("keep-card {index}");
    };
    let copy = state
        .looked_at
        .iter()
        .take(index)
        .filter(|c| *c == card)
        .count();
    match copy {
        0 => format!("keep {}", card_word(*card)),
        n => format!("keep {} {}", card_word(*card), n + 1),
    }
}
