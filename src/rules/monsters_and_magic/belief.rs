//! What a seat could believe of the cards it cannot see, for the built-in bot's look-ahead
//! ([`crate::rules::Ruleset::imagine`]).

use super::data::CardId;
use super::state::State;
use crate::rules::{Seat, deal_others_anew};

/// A state `seat` could believe it is in: the cards of the other players' hands that `seat`
/// has not seen, dealt anew from those cards and the deck together. Kept: its own hand, every
/// hand's size, the deck's size, and the cards it saw in a hand with the Oracle this turn
/// (while that hand still holds them). An Oracle's look that `seat` took no part in is taken
/// as a look at the hand believed.
pub(crate) fn imagine(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> State {
    let mut believed = state.clone();
    let seen = |of: Seat| -> Vec<CardId> {
        state
            .peeks
            .iter()
            .filter(|p| p.by == seat && p.of == of)
            .flat_map(|p| p.cards.iter().copied())
            .collect()
    };
    let hands = believed.players.iter_mut().map(|p| &mut p.hand).collect();
    deal_others_anew(hands, seat, seen, &mut believed.deck, pick);
    let hands: Vec<Vec<CardId>> = believed.players.iter().map(|p| p.hand.clone()).collect();
    for peek in believed
        .peeks
        .iter_mut()
        .filter(|p| p.by != seat && p.of != seat)
    {
        peek.cards = hands.get(peek.of).cloned().unwrap_or_default();
    }
    believed
}
