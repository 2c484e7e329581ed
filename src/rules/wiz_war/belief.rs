//! What a seat could believe of the cards it cannot see, for the built-in bot's look-ahead
//! ([`crate::rules::Ruleset::imagine`]).

use super::cards::CardId;
use super::state::{How, State};
use crate::rules::{Seat, deal_others_anew};

/// The cards of `seat`'s hand that everyone has seen named: the card being cast, and the
/// Around the Corner a target out of sight needs (choosing that target told the table the
/// caster holds one).
pub(crate) fn shown(state: &State, seat: Seat) -> Vec<CardId> {
    let mut shown = vec![];
    if let Some(c) = state.casting.as_ref().filter(|_| state.turn.seat == seat) {
        if c.how == How::Cast {
            shown.push(c.card);
        }
        if c.bent {
            shown.extend(CardId::by_key("around_the_corner"));
        }
    }
    shown
}

/// A state `seat` could believe it is in: the other wizards' hands, but for the cards they
/// showed ([`shown`]), dealt anew from those cards and the deck together. Kept: its own hand,
/// every hand's size, the deck's size, the cards shown.
pub(crate) fn imagine(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> State {
    let mut believed = state.clone();
    let hands = believed.wizards.iter_mut().map(|w| &mut w.hand).collect();
    deal_others_anew(hands, seat, |s| shown(state, s), &mut believed.deck, pick);
    believed
}
