//! Garden Gnomes' notation (docs/rules/garden-gnomes.md, "Notation"): a short text for each
//! choice, as a player types it in a reply. Territories by their name without what they yield
//! (`east-orchard`), clans by their colour (`red`), objectives by their card number.

use super::actions::Action;
use super::data::{Territory, territory_name};
use super::state::State;
use crate::rules::Seat;
use crate::rules::notation::{from_json, word};

/// The notation of `action`, one of a clan's choices: territories and clans by name, objectives
/// by number (docs/rules/garden-gnomes.md, "Notation").
pub fn notation(_state: &State, _seat: Seat, action: &Action) -> String {
    match action {
        Action::Reinforce(gnomes) => format!("reinforce {gnomes}"),
        Action::KeepObjective(id) => format!("keep {id}"),
        Action::Move { from, to } => format!("move {} {}", place(*from), place(*to)),
        Action::EndMovement => "end".into(),
        Action::Attack { target, dice } => format!("attack {} {dice}", word(target.name())),
        // Chance outcomes: never a player's choice.
        other => from_json(&serde_json::to_value(other).unwrap_or_default()),
    }
}

/// "East Orchard (apples)" is `east-orchard`: the name, one word.
fn place(territory: Territory) -> String {
    let name = territory_name(territory);
    let bare = name.split('(').next().unwrap_or(&name);
    word(bare.trim())
}
