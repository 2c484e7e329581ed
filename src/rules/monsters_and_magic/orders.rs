//! Monsters and Magic's standing orders (docs/rules/monsters-and-magic.md, "Standing
//! orders"): answers a player gives in advance to recurring small decisions. Each reads only
//! the public fight and the player's own legal choices.

use super::actions::Action;
use super::state::{CombatStep, Phase, State};
use crate::rules::{OrderDoc, Seat};

/// "Play no card when defending."
pub const NO_CARDS_DEFENDING: &str = "no-cards-defending";

pub fn standing_orders() -> Vec<OrderDoc> {
    vec![OrderDoc {
        id: NO_CARDS_DEFENDING,
        description: "Play no hand card in fights where you defend: answer \"done\" in your \
                      card windows as the defender.",
    }]
}

pub fn standing_answer(state: &State, seat: Seat, order: &str) -> Option<Action> {
    if order != NO_CARDS_DEFENDING {
        return None;
    }
    let Phase::Combat(combat) = &state.phase else {
        return None;
    };
    if combat.step != CombatStep::DefenderCards || combat.defender_seat != seat {
        return None;
    }
    super::legal::legal_actions(state, seat)
        .contains(&Action::DoneCards)
        .then_some(Action::DoneCards)
}
