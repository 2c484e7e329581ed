//! Wiz-War's standing orders (docs/rules/wiz-war.md, "Standing orders"): answers a wizard
//! gives in advance to recurring small decisions. Each reads only the public table and the
//! wizard's own legal choices.

use super::actions::Action;
use super::state::{State, Target};
use crate::rules::{OrderDoc, Seat};

/// "Pass in reaction windows unless I am the target."
pub const PASS_UNLESS_TARGETED: &str = "pass-unless-targeted";

pub fn standing_orders() -> Vec<OrderDoc> {
    vec![OrderDoc {
        id: PASS_UNLESS_TARGETED,
        description: "Pass in reaction windows unless the spell or attack may be aimed at you: \
                      at you, your item, your square or a border of it, your own spell (a \
                      counter), a direction, the whole board or anything on it.",
        argument: None,
        example: None,
    }]
}

pub fn standing_answer(state: &State, seat: Seat, order: &str) -> Option<Action> {
    if order != PASS_UNLESS_TARGETED {
        return None;
    }
    let top = state.stack.last()?;
    if top.waiting.first() != Some(&seat) || may_be_aimed_at(state, seat) {
        return None;
    }
    super::legal::legal_actions(state, seat)
        .contains(&Action::Pass)
        .then_some(Action::Pass)
}

/// Whether the entry on top of the stack may be aimed at `seat`: only a target that names
/// another wizard, another wizard's item, or a square or border away from `seat` is surely
/// not (a direction or a spell on the board may reach anyone: the order then asks).
fn may_be_aimed_at(state: &State, seat: Seat) -> bool {
    let Some(top) = state.stack.last() else {
        return false;
    };
    // A counter spell aims at the entry below it.
    if top.counter {
        let below = state
            .stack
            .len()
            .checked_sub(2)
            .and_then(|i| state.stack.get(i));
        return below.is_none_or(|entry| entry.by == seat);
    }
    let at = state.wizards.get(seat).and_then(|w| w.at);
    match &top.target {
        Target::Wizard(s) | Target::WizardToward(s, _) | Target::Item(s, _) => *s == seat,
        Target::Square(pos) | Target::Side(pos, _) => at.is_none_or(|at| at == *pos),
        Target::None
        | Target::Direction(_)
        | Target::Rotate(..)
        | Target::Spell(_)
        | Target::Object(_)
        | Target::Treasure(_) => true,
    }
}
