//! Wiz-War's notation (docs/rules/wiz-war.md, "Notation"): a short text for each choice, as
//! a player types it in a reply. Cards by their key (`fireball`), wizards by their colour
//! (`red`), squares as the board names them (`c4`), directions in full (`north`).

use super::actions::Action;
use super::board::Pos;
use super::cards::CardId;
use super::state::{State, Target};
use crate::rules::Seat;
use crate::rules::notation::{from_json, word};

/// The notation of `action`, one of a wizard's choices. Wizards are named by colour, which
/// the table knows from set-up on; everything else is what the action's JSON carries: cards by
/// their key, squares as the board names them (docs/rules/wiz-war.md, "Notation").
pub fn notation(state: &State, _seat: Seat, action: &Action) -> String {
    let wizard = |seat: &Seat| state.colour(*seat).to_owned();
    match action {
        Action::Move(dir) => format!("move {}", dir.name()),
        Action::PickUp(id) => format!("pick-up {id}"),
        Action::PickUpTreasure(i) => format!("pick-up-treasure {i}"),
        Action::Drop(card) => format!("drop {}", card_word(*card)),
        Action::DropTreasure => "drop-treasure".into(),
        Action::Speed(card) => format!("speed {}", card_word(*card)),
        Action::Cast(card) => format!("cast {}", card_word(*card)),
        Action::Play(card) => format!("play {}", card_word(*card)),
        Action::Throw(card) => format!("throw {}", card_word(*card)),
        Action::Wield(card) => format!("wield {}", card_word(*card)),
        Action::Punch(seat) => format!("punch {}", wizard(seat)),
        Action::Target(target) => format!("target {}", target_words(state, target)),
        Action::Boost(card) => format!("boost {}", card_word(*card)),
        Action::BoostAdd(energy, add) => {
            format!("boost {} {}", card_word(*energy), card_word(*add))
        }
        Action::NoBoost => "no-boost".into(),
        Action::CancelCast => "cancel".into(),
        Action::EndSpell(id) => format!("end-spell {id}"),
        Action::EndMove => "end-move".into(),
        Action::Discard(card) => format!("discard {}", card_word(*card)),
        Action::DiscardAtRandom => "discard-at-random".into(),
        Action::DrawCard => "draw".into(),
        Action::EndTurn => "end".into(),
        Action::Counter(card) => format!("counter {}", card_word(*card)),
        Action::CounterToward(card, dir) => {
            format!("counter {} {}", card_word(*card), dir.name())
        }
        Action::Pass => "pass".into(),
        // Chance outcomes: never a player's choice, named as their JSON reads.
        chance => from_json(&serde_json::to_value(chance).unwrap_or_default()),
    }
}

fn card_word(card: CardId) -> String {
    word(&card.key())
}

fn square(pos: &Pos) -> String {
    pos.to_string()
}

fn target_words(state: &State, target: &Target) -> String {
    match target {
        Target::None => "none".into(),
        Target::Wizard(seat) => state.colour(*seat).into(),
        Target::WizardToward(seat, dir) => format!("{} {}", state.colour(*seat), dir.name()),
        Target::Square(pos) => square(pos),
        Target::Side(pos, dir) => format!("{} {}", square(pos), dir.name()),
        Target::Direction(dir) => dir.name().into(),
        Target::Rotate(slot, quarters) => {
            format!("sector {slot} {}", u32::from(*quarters) * 90)
        }
        Target::Spell(id) => format!("spell {id}"),
        Target::Object(id) => format!("object {id}"),
        Target::Treasure(i) => format!("treasure {i}"),
        Target::Item(seat, card) => format!("{} {}", state.colour(*seat), card_word(*card)),
    }
}
