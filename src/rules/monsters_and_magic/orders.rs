//! Monsters and Magic's standing orders (docs/rules/monsters-and-magic.md, "Standing
//! orders"): answers a player gives in advance to recurring small decisions. Each reads only
//! the public fight and the player's own legal choices.

use super::actions::Action;
use super::state::{CombatStep, Phase, State};
use crate::rules::{OrderDoc, Seat};

/// "Play no card when defending."
pub const NO_CARDS_DEFENDING: &str = "no-cards-defending";

/// "End my turn when nothing is left in it but ending it."
pub const END_TURN: &str = "end-turn";

pub fn standing_orders() -> Vec<OrderDoc> {
    vec![
        OrderDoc {
            id: NO_CARDS_DEFENDING,
            description: "Play no hand card in fights where you defend: answer \"done\" in your \
                          card windows as the defender.",
            argument: None,
            example: None,
        },
        OrderDoc {
            id: END_TURN,
            description: "End my turn when nothing is left in it but ending it: in the End \
                          phase, once no card is over the hand limit and no power, hand card or \
                          realignment can be used, end the turn (without stopping before the \
                          next Declaration phase).",
            argument: None,
            example: None,
        },
    ]
}

pub fn standing_answer(state: &State, seat: Seat, order: &str) -> Option<Action> {
    match order {
        NO_CARDS_DEFENDING => no_cards_defending(state, seat),
        END_TURN => end_turn(state, seat),
        _ => None,
    }
}

/// The End phase's choices are ending the turn and stopping before the next one's Declaration
/// phase, and nothing else: the order ends it.
fn end_turn(state: &State, seat: Seat) -> Option<Action> {
    if !matches!(state.phase, Phase::End) {
        return None;
    }
    let legal = super::legal::legal_actions(state, seat);
    let only_ending = legal
        .iter()
        .all(|a| matches!(a, Action::EndTurn | Action::StopBefore(_)));
    (only_ending && legal.contains(&Action::EndTurn)).then_some(Action::EndTurn)
}

fn no_cards_defending(state: &State, seat: Seat) -> Option<Action> {
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
