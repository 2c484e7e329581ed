//! The legal actions of a seat, and why an action that is not one of them is refused: the
//! hand limit first, then a reaction window (`cast`), a cast being built (`cast`), or the
//! phase's own choices (movement from `flow`, cards from `cast`).

use super::actions::{Action, actor};
use super::cards::{CardId, Effect, Kind};
use super::cast;
use super::flow;
use super::state::{DRAWS, Phase, State, tally};
use crate::rules::Seat;

pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    legal_actions_for(state, seat, None)
}

/// Whether `action` is one of [`legal_actions`] (without working out the others' targets).
pub fn is_legal(state: &State, seat: Seat, action: &Action) -> bool {
    legal_actions_for(state, seat, Some(action)).contains(action)
}

/// [`legal_actions`], or with `want`, at least `want` if it is legal: the card actions that are
/// not `want` may be left out.
fn legal_actions_for(state: &State, seat: Seat, want: Option<&Action>) -> Vec<Action> {
    if actor(state) != Some(seat) {
        return Vec::new();
    }
    let Some(w) = state.wizard(seat) else {
        return Vec::new();
    };
    let distinct =
        |cards: &[CardId]| -> Vec<CardId> { tally(cards).into_iter().map(|(c, _)| c).collect() };
    if state.over_limit() == Some(seat) {
        let mut out: Vec<Action> = distinct(&w.hand).into_iter().map(Action::Discard).collect();
        // Ruling 31: or leave the pick to chance (what a deadline does).
        if !w.hand.is_empty() {
            out.push(Action::DiscardAtRandom);
        }
        out.extend(distinct(&w.items).into_iter().map(Action::Drop));
        out.extend(own_spells(state, seat));
        return out;
    }
    if !state.stack.is_empty() {
        return cast::window_actions(state, seat);
    }
    if state.casting.is_some() {
        return cast::casting_actions(state, seat);
    }
    let mut out = Vec::new();
    match state.phase {
        Phase::MoveAndCast => {
            out.extend(flow::movement_actions(state, seat));
            out.extend(cast::card_actions_for(state, seat, want));
            out.extend(own_spells(state, seat));
            out.push(Action::EndMove);
        }
        Phase::DiscardAndDraw => {
            if state.turn.drawn == 0 {
                out.extend(distinct(&w.hand).into_iter().map(Action::Discard));
            }
            let draws = if state.carries(seat, Effect::Brainstone) > 0 {
                DRAWS + 1
            } else {
                DRAWS
            };
            let cards_left = !state.deck.is_empty() || !state.discard.is_empty();
            if state.turn.drawn < draws
                && state.hand_total(seat) < state.hand_limit(seat)
                && cards_left
            {
                out.push(Action::DrawCard);
            }
            // "A wizard may also drop any of his carried items ... at any time during his turn."
            // From edition 1, not once cards are drawn: "Once he has either drawn cards or
            // declined to do so, the active player's turn immediately ends" (l.112; audit
            // 2026-11-28, B8): only the second draw or the end of the turn is left.
            if state.turn.drawn == 0 || state.options.edition < 1 {
                out.extend(distinct(&w.items).into_iter().map(Action::Drop));
                out.extend(own_spells(state, seat));
            }
            out.push(Action::EndTurn);
        }
        _ => {}
    }
    out
}

fn own_spells(state: &State, seat: Seat) -> Vec<Action> {
    state
        .spells
        .iter()
        .filter(|s| s.caster == seat)
        .map(|s| Action::EndSpell(s.id))
        .collect()
}

/// Why a player's action is not legal now, in the game's words.
pub fn why_not(state: &State, seat: Seat, action: &Action) -> String {
    let in_hand = |c: &CardId| state.wizard(seat).is_some_and(|w| w.hand.contains(c));
    match action {
        Action::Cast(c) | Action::Discard(c) | Action::Speed(c) | Action::Play(c)
            if !in_hand(c) =>
        {
            format!("you have no {} in your hand", c.name())
        }
        Action::Counter(c) | Action::CounterToward(c, _) if !in_hand(c) => {
            format!("you have no {} in your hand", c.name())
        }
        Action::Counter(c) => format!("{} cannot answer this", c.name()),
        Action::Move(d) if state.turn.movement == 0 => {
            format!("you have no movement points left to move {}", d.name())
        }
        Action::Move(d) => format!("a wall, door or object stops you moving {}", d.name()),
        Action::Cast(c) if c.kind() == Some(Kind::Attack) && state.turn.first => {
            "no attack in a wizard's first turn".to_owned()
        }
        Action::Cast(c) | Action::Throw(c) | Action::Wield(c)
            if c.kind() == Some(Kind::Attack)
                || matches!(action, Action::Throw(_) | Action::Wield(_)) =>
        {
            if state.turn.attacked {
                "you have already made your attack this turn".to_owned()
            } else {
                format!("{} has no legal target now", c.name())
            }
        }
        Action::Punch(_) if state.turn.attacked => {
            "you have already made your attack this turn".to_owned()
        }
        Action::Punch(s) => format!("Seat {s} is not in or next to your square in sight"),
        Action::Target(_) => "that is not a legal target for this card".to_owned(),
        Action::DrawCard => "you cannot draw more cards now".to_owned(),
        Action::PickUpTreasure(_) => "no treasure you may pick up is in your square".to_owned(),
        Action::Pass => "there is nothing to answer".to_owned(),
        _ => "that is not possible now".to_owned(),
    }
}
