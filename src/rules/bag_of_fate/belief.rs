//! What a seat could believe of the cards it cannot see, for the built-in bot's look-ahead
//! ([`crate::rules::Ruleset::imagine`]).

use super::state::State;
use crate::rules::{Seat, deal_anew};

/// A state `seat` could believe it is in: the other players' hands and, while another player
/// is the Oracle at work, the cards it looks at, dealt anew from those cards and the deck
/// together (the discards were seen face up and stay). Everything `seat` sees is kept: its own
/// hand, every hand's size, the deck's size.
pub(crate) fn imagine(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> State {
    let mut believed = state.clone();
    let oracle_at_work = state.current_seat().is_some_and(|s| s != seat);
    let State {
        players,
        deck,
        looked_at,
        ..
    } = &mut believed;
    let mut hidden: Vec<&mut Vec<_>> = players
        .iter_mut()
        .enumerate()
        .filter(|&(s, _)| s != seat)
        .map(|(_, p)| &mut p.hand)
        .collect();
    if oracle_at_work {
        hidden.push(looked_at);
    }
    deal_anew(&mut hidden, deck, pick);
    for (s, player) in players.iter_mut().enumerate() {
        if s != seat {
            player.hand.sort();
        }
    }
    deck.sort();
    believed
}
