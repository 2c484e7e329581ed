//! Applying an action: a chance outcome or a seat's legal decision is handed to the one step
//! that carries it out (`flow`, `cast`, `changes`), then the automatic steps run (`flow`). This
//! is the one place that dispatches; the steps below never call back up here.

use super::actions::{Action, actor, chance};
use super::cast;
use super::changes;
use super::flow;
use super::legal::{is_legal, why_not};
use super::state::{Need, State};
use crate::rules::{Actor, RuleError, Seat};

/// Applies `action` by `actor`; on error the state is unchanged.
pub fn apply(state: &mut State, actor_: Actor, action: &Action) -> Result<(), RuleError> {
    if state.is_over() {
        return Err(RuleError::GameOver);
    }
    let mut after = state.clone();
    match actor_ {
        Actor::Chance => {
            let Some(chance) = chance(state) else {
                return Err(RuleError::NotYourDecision);
            };
            if !action.is_chance() {
                return Err(RuleError::NotYourDecision);
            }
            if !chance.outcomes.iter().any(|(a, _)| a == action) {
                return Err(RuleError::illegal(
                    "that is not a possible outcome of this chance step",
                ));
            }
            flow::apply_chance(&mut after, action)?;
        }
        Actor::Seat(seat) => {
            if actor(state) != Some(seat) || action.is_chance() {
                return Err(RuleError::NotYourDecision);
            }
            if !is_legal(state, seat, action) {
                return Err(RuleError::illegal(why_not(state, seat, action)));
            }
            decide(&mut after, seat, action)?;
        }
    }
    flow::advance(&mut after);
    *state = after;
    Ok(())
}

fn decide(state: &mut State, seat: Seat, action: &Action) -> Result<(), RuleError> {
    match action {
        Action::Discard(card) => changes::discard(state, seat, *card),
        Action::DiscardAtRandom => {
            // Drawn now, before anything else owed (nothing is: a decision waits for chance).
            state.needs.insert(0, Need::DiscardAtRandom(seat));
            Ok(())
        }
        Action::Drop(card) => changes::drop_item(state, seat, *card),
        Action::EndSpell(id) => {
            changes::end_spell(state, *id);
            Ok(())
        }
        Action::Pass | Action::Counter(_) | Action::CounterToward(..) => {
            cast::answer(state, seat, action)
        }
        Action::Target(_)
        | Action::Boost(_)
        | Action::BoostAdd(..)
        | Action::NoBoost
        | Action::CancelCast
        | Action::Cast(_)
        | Action::Throw(_)
        | Action::Wield(_)
        | Action::Play(_)
        | Action::Punch(_) => cast::decide(state, seat, action),
        Action::Move(_)
        | Action::PickUp(_)
        | Action::PickUpTreasure(_)
        | Action::DropTreasure
        | Action::Speed(_)
        | Action::EndMove
        | Action::DrawCard
        | Action::EndTurn => flow::decide(state, seat, action),
        _ => Err(RuleError::NotYourDecision),
    }
}
