//! What a seat could believe of the cards it cannot see, for the built-in bot's look-ahead
//! ([`crate::rules::Ruleset::imagine`]).

use super::data::{self, CardId, Deck};
use super::state::{Source, State};
use crate::rules::{Seat, deal_anew};

/// The Secret cards `seat` declared in the open reaction window: everyone saw them.
pub(crate) fn declared(state: &State, seat: Seat) -> Vec<CardId> {
    state
        .window
        .iter()
        .flat_map(|w| &w.casts)
        .filter(|(s, _)| *s == seat)
        .filter_map(|(_, cast)| match cast.source {
            Source::Secret(card) => Some(card),
            _ => None,
        })
        .collect()
}

/// Whether `card` is of the Learned deck (else of the Secret deck).
pub(crate) fn learned(card: &CardId) -> bool {
    data::card(*card).map(|(d, _)| d) == Some(Deck::Learned)
}

/// A state `seat` could believe it is in: the others' Secret cards in hand (but those declared
/// in the open window), their Learned cards held in hand and the cards of another player's
/// draw in progress and the cards put at the bottom of the decks, dealt anew, each from its
/// own deck's unseen cards and those. Kept: its own cards and every count.
pub(crate) fn imagine(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> State {
    let mut believed = state.clone();
    let (mut learned_pool, mut secret_pool): (Vec<CardId>, Vec<CardId>) =
        std::mem::take(&mut believed.unseen)
            .into_iter()
            .partition(learned);
    // The others' hidden cards, by deck: each seat's Secret and Learned hands, then the draw.
    let mut secret: Vec<Vec<CardId>> = Vec::new();
    let mut shown: Vec<Vec<CardId>> = Vec::new();
    let mut held: Vec<Vec<CardId>> = Vec::new();
    for (s, player) in believed.players.iter_mut().enumerate() {
        if s == seat {
            secret.push(Vec::new());
            shown.push(Vec::new());
            held.push(Vec::new());
            continue;
        }
        let declared = declared(state, s);
        let (seen, hidden): (Vec<CardId>, Vec<CardId>) = std::mem::take(&mut player.hand)
            .into_iter()
            .partition(|c| declared.contains(c));
        shown.push(seen);
        secret.push(hidden);
        held.push(std::mem::take(&mut player.learned_hand));
    }
    let drawer = state.current().filter(|&s| s != seat);
    let mut drawn: Vec<CardId> = match (drawer, believed.draw.as_mut()) {
        (Some(_), Some(draw)) => draw.drawn.iter().chain(&draw.attach).copied().collect(),
        _ => Vec::new(),
    };
    let (mut drawn_learned, mut drawn_secret): (Vec<CardId>, Vec<CardId>) =
        drawn.iter().partition(|c| learned(c));
    // The cards at the bottom of the decks too: which card a player put back after a draw is
    // that player's secret (l.309), so no seat knows the bottom's cards (what it put there
    // itself is forgotten rather than told apart from the rest; only the counts are public).
    let mut bottom_secret = std::mem::take(&mut believed.bottom_secret);
    let mut bottom_learned = std::mem::take(&mut believed.bottom_learned);
    let mut hands: Vec<&mut Vec<CardId>> = secret.iter_mut().collect();
    hands.push(&mut drawn_secret);
    hands.push(&mut bottom_secret);
    deal_anew(&mut hands, &mut secret_pool, pick);
    let mut hands: Vec<&mut Vec<CardId>> = held.iter_mut().collect();
    hands.push(&mut drawn_learned);
    hands.push(&mut bottom_learned);
    deal_anew(&mut hands, &mut learned_pool, pick);
    believed.bottom_secret = bottom_secret;
    believed.bottom_learned = bottom_learned;
    // Each drawn card's place gets a card of its own deck.
    let (mut next_learned, mut next_secret) = (drawn_learned.into_iter(), drawn_secret.into_iter());
    for card in &mut drawn {
        let next = if learned(card) {
            next_learned.next()
        } else {
            next_secret.next()
        };
        *card = next.unwrap_or(*card);
    }
    if let (Some(_), Some(draw)) = (drawer, believed.draw.as_mut()) {
        let mut cards = drawn.into_iter();
        for card in draw.drawn.iter_mut().chain(&mut draw.attach) {
            *card = cards.next().unwrap_or(*card);
        }
    }
    let others = shown.into_iter().zip(secret).zip(held);
    for ((s, player), ((seen, hidden), kept)) in believed.players.iter_mut().enumerate().zip(others)
    {
        if s == seat {
            continue;
        }
        player.hand = seen.into_iter().chain(hidden).collect();
        player.hand.sort_unstable();
        player.learned_hand = kept;
        player.learned_hand.sort_unstable();
    }
    believed.unseen = learned_pool.into_iter().chain(secret_pool).collect();
    believed.unseen.sort_unstable();
    believed
}
