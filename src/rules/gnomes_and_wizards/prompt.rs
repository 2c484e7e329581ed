//! What the game waits for, in words: the prompt of every view and the reason given when an
//! action is refused. Below the actions (which refuse with it) and the view (which shows it);
//! it reads the state, and `call` for what is left to charge.

use super::call;
use super::state::{Phase, State, Step, UnitRef};

fn owner_name(state: &State, owner: usize) -> String {
    if state.player(owner).is_some_and(|p| p.automaton) {
        "the automaton".to_owned()
    } else {
        format!("seat {owner}")
    }
}

pub(super) fn unit_name(state: &State, u: UnitRef) -> String {
    format!(
        "{}'s {}",
        owner_name(state, u.owner),
        state.tribe_of(u.owner).unit_name(u.slot)
    )
}

/// What the game waits for, in words (also the reason given for a refused action).
pub fn prompt(state: &State) -> String {
    if let Some(u) = state.falls.first() {
        return format!(
            "{} must land on the nearest face-up tile",
            unit_name(state, *u)
        );
    }
    if let Some(p) = state.placements.first() {
        return format!(
            "{} must choose where {}, moved by an ability, goes",
            owner_name(state, p.unit.owner),
            unit_name(state, p.unit)
        );
    }
    if let Some((from, to)) = state.offer {
        return format!("seat {to} may accept or decline seat {from}'s offer of an alliance");
    }
    if let Some(w) = &state.window {
        let seats: Vec<String> = w.waiting.iter().map(|s| format!("seat {s}")).collect();
        return format!("{} may cast an ability or pass", seats.join(", "));
    }
    if !state.solo_choice.is_empty() {
        return "choose which of the tied tiles the crumbling earth flips".to_owned();
    }
    match &state.phase {
        Phase::Tribes => "tribes are being dealt".to_owned(),
        Phase::Tiles => "tiles are being placed".to_owned(),
        Phase::SplitClans => "the automaton's Clans are being placed".to_owned(),
        Phase::FirstPlayer => "the first player is being chosen".to_owned(),
        Phase::Leaders => "place a Leader on a starting tile".to_owned(),
        Phase::Over => "the game is over".to_owned(),
        Phase::Turn { seat, step } => {
            let what = match step {
                Step::Start => "starts their turn",
                Step::Reenter => "must bring a Clan back onto one of its face-up tiles",
                Step::Flip { .. } => "must flip a tile",
                Step::Roll { .. } if !state.to_roll.is_empty() => "is rolling dice",
                Step::Roll { .. } => "may mark dice and re-roll them, or keep the dice",
                Step::Assign => "must assign each die to an active unit",
                Step::Act if state.must_attack.is_some() => {
                    "must attack with the unit that entered an enemy's tile"
                }
                Step::Act if state.moving.is_some() => {
                    "may move the moving unit on, or stop it on a face-up tile"
                }
                Step::Act => "may move and attack with their units, then end their actions",
                Step::Call if state.draw.is_some() => "is drawing ability cards",
                Step::Call => "may call Clans to war or draw cards, then end Call to War",
                Step::Charge
                    if state.player(*seat).is_none_or(|p| p.reserve == 0)
                        || call::charge_slots(state, *seat).is_empty() =>
                {
                    "may cast an ability charged this turn, or end the turn"
                }
                Step::Charge => "may charge abilities from the reserve",
            };
            format!("seat {seat} {what}")
        }
    }
}
