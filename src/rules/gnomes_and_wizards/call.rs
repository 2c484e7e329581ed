//! Call to War (summoning, drawing cards, 'Empowering Call') and charging abilities.

use super::Variant;
use super::combat;
use super::data::{self, Deck};
use super::state::{DeclaredCall, DrawState, State, Status, UnitRef};
use crate::rules::Seat;

/// Whether `owner`'s unit `slot` stands on a face-up tile of its own tribe's Clan `clan`.
fn on_clan_tile(state: &State, owner: usize, slot: u8, clan: u8) -> bool {
    let tribe = state.tribe_of(owner);
    state
        .unit(UnitRef { owner, slot })
        .and_then(|u| u.tile)
        .and_then(|t| state.tile(t))
        .is_some_and(|s| !s.flipped && s.card.is_some_and(|c| c.tribe == tribe && c.clan == clan))
}

/// Summons possible now: (caller slot, Clan).
pub fn summons(state: &State, seat: Seat) -> Vec<(u8, u8)> {
    let Some(p) = state.player(seat) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for caller in p
        .units
        .iter()
        .filter(|u| u.on_board() && u.horns >= data::HORNS_TO_SUMMON)
    {
        for clan in p.units.iter().filter(|u| {
            u.slot > 0 && u.status == Status::Inactive && !p.uncallable.contains(&u.slot)
        }) {
            if on_clan_tile(state, seat, caller.slot, clan.slot) {
                out.push((caller.slot, clan.slot));
            }
        }
    }
    out
}

pub fn summon(state: &mut State, seat: Seat, caller: u8, clan: u8) {
    spend_horns(state, seat, caller, data::HORNS_TO_SUMMON);
    bring_out(state, seat, caller, clan);
}

fn spend_horns(state: &mut State, seat: Seat, caller: u8, horns: u8) {
    if let Some(u) = state.unit_mut(UnitRef {
        owner: seat,
        slot: caller,
    }) {
        u.horns = u.horns.saturating_sub(horns);
    }
}

/// From edition 2: a summon or an empowering call is declared (its horns spent: "all committed
/// actions are final", l.389) and takes effect once the others have answered
/// ([`resolve_declared`]).
pub fn declare(state: &mut State, seat: Seat, call: DeclaredCall) {
    let (caller, horns) = match call {
        DeclaredCall::Summon { slot, .. } => (slot, data::HORNS_TO_SUMMON),
        DeclaredCall::Empower { slot, .. } => (slot, data::HORNS_TO_EMPOWER),
    };
    spend_horns(state, seat, caller, horns);
    state.declared_call = Some(call);
}

/// The declared call takes effect if it still can: the caller still stands on a face-up tile
/// of the Clan, which is still to call (a summon) or on the board (an empowering call), and
/// may still be called or charged. Otherwise it fails and its horns stay spent, as a declared
/// attack that misses is spent (l.459).
pub fn resolve_declared(state: &mut State) {
    let (Some(call), Some(seat)) = (state.declared_call.take(), state.current()) else {
        return;
    };
    let open = |state: &State, caller: u8, clan: u8| {
        state
            .unit(UnitRef {
                owner: seat,
                slot: caller,
            })
            .is_some_and(|u| u.on_board())
            && on_clan_tile(state, seat, caller, clan)
            && state
                .player(seat)
                .is_some_and(|p| !p.uncallable.contains(&clan))
    };
    let clan_status = |state: &State, clan: u8| {
        state
            .unit(UnitRef {
                owner: seat,
                slot: clan,
            })
            .map(|u| (u.status, u.on_board()))
    };
    match call {
        DeclaredCall::Summon { slot, clan } => {
            if open(state, slot, clan)
                && clan_status(state, clan) == Some((Status::Inactive, false))
            {
                bring_out(state, seat, slot, clan);
            }
        }
        DeclaredCall::Empower {
            slot,
            clan,
            learned,
        } => {
            if open(state, slot, clan) && clan_status(state, clan).is_some_and(|(_, on)| on) {
                fill(state, seat, clan, learned);
            }
        }
    }
}

/// Clan `clan` enters the battlefield on the tile of `seat`'s unit `caller`.
fn bring_out(state: &mut State, seat: Seat, caller: u8, clan: u8) {
    let tile = state
        .unit(UnitRef {
            owner: seat,
            slot: caller,
        })
        .and_then(|u| u.tile);
    if let Some(u) = state.unit_mut(UnitRef {
        owner: seat,
        slot: clan,
    }) {
        u.status = Status::Active;
        u.tile = tile;
    }
}

/// Units that may spend two horns to draw two cards (if a deck has a card).
pub fn drawers(state: &State, seat: Seat) -> Vec<u8> {
    if state.deck_count(Deck::Learned) + state.deck_count(Deck::Secret) == 0 {
        return Vec::new();
    }
    state.player(seat).map_or(Vec::new(), |p| {
        p.units
            .iter()
            .filter(|u| u.on_board() && u.horns >= data::HORNS_TO_DRAW)
            .map(|u| u.slot)
            .collect()
    })
}

pub fn start_draw(state: &mut State, seat: Seat, slot: u8) {
    spend_horns(state, seat, slot, data::HORNS_TO_DRAW);
    state.draw = Some(DrawState {
        from: Vec::new(),
        drawn: Vec::new(),
        attach: None,
    });
}

/// How many cards the draw in progress still has to draw (two, or fewer if the decks run out).
pub fn draws_left(state: &State) -> usize {
    let Some(draw) = &state.draw else {
        return 0;
    };
    if draw.attach.is_some() {
        return 0;
    }
    let available = state.deck_count(Deck::Learned) + state.deck_count(Deck::Secret);
    2usize
        .saturating_sub(draw.drawn.len())
        .min(available)
        .saturating_sub(draw.from.len())
}

/// Chooses the deck of the next card: an unseen card is a chance step; with none unseen the
/// card put at the bottom first comes up.
pub fn draw_from(state: &mut State, deck: Deck) {
    let unseen = state
        .unseen
        .iter()
        .any(|&c| data::card(c).is_some_and(|(d, _)| d == deck));
    if unseen {
        if let Some(draw) = state.draw.as_mut() {
            draw.from.push(deck);
        }
        return;
    }
    let bottom = match deck {
        Deck::Learned => &mut state.bottom_learned,
        Deck::Secret => &mut state.bottom_secret,
    };
    if bottom.is_empty() {
        return;
    }
    let card = bottom.remove(0);
    if let Some(draw) = state.draw.as_mut() {
        draw.drawn.push(card);
    }
}

pub fn draw_card(state: &mut State, card: data::CardId) {
    state.unseen.retain(|&c| c != card);
    if let Some(draw) = state.draw.as_mut() {
        if !draw.from.is_empty() {
            draw.from.remove(0);
        }
        draw.drawn.push(card);
    }
}

/// Keeps drawn card `index`; the other goes to the bottom of its deck. A Secret card goes to
/// the hand; a Learned card waits to be attached.
pub fn keep_card(state: &mut State, seat: Seat, index: usize) {
    let Some(mut draw) = state.draw.take() else {
        return;
    };
    if index >= draw.drawn.len() {
        state.draw = Some(draw);
        return;
    }
    let kept = draw.drawn.remove(index);
    for card in std::mem::take(&mut draw.drawn) {
        combat::put_bottom(state, card);
    }
    match data::card(kept).map(|(d, _)| d) {
        Some(Deck::Secret) => {
            if let Some(p) = state.players.get_mut(seat) {
                p.hand.push(kept);
                p.hand.sort_unstable();
            }
        }
        _ => {
            draw.attach = Some(kept);
            state.draw = Some(draw);
        }
    }
}

/// Attaches the kept Learned card to unit `slot`, replacing (and discarding) its old one.
pub fn attach(state: &mut State, seat: Seat, slot: u8) {
    let Some(card) = state.draw.take().and_then(|d| d.attach) else {
        return;
    };
    attach_card(state, seat, card, slot);
}

/// Keeps the kept Learned card in hand instead of attaching it: "nor can they play crystals
/// on Learned Abilities that are still in their hand" (l.357).
pub fn hold_learned(state: &mut State, seat: Seat) {
    let Some(card) = state.draw.take().and_then(|d| d.attach) else {
        return;
    };
    if let Some(p) = state.players.get_mut(seat) {
        p.learned_hand.push(card);
        p.learned_hand.sort_unstable();
    }
}

/// Learned cards in `seat`'s hand and the units they may go on now: (card, unit slot).
pub fn held_attachments(state: &State, seat: Seat) -> Vec<(data::CardId, u8)> {
    let Some(p) = state.player(seat) else {
        return Vec::new();
    };
    let mut cards = p.learned_hand.clone();
    cards.dedup();
    let units: Vec<u8> = p
        .units
        .iter()
        .filter(|u| u.on_board())
        .map(|u| u.slot)
        .collect();
    cards
        .into_iter()
        .flat_map(|c| units.iter().map(move |&slot| (c, slot)))
        .collect()
}

/// Attaches the Learned `card` from the hand to unit `slot`.
pub fn attach_held(state: &mut State, seat: Seat, card: data::CardId, slot: u8) {
    let Some(p) = state.players.get_mut(seat) else {
        return;
    };
    let Some(i) = p.learned_hand.iter().position(|&c| c == card) else {
        return;
    };
    p.learned_hand.remove(i);
    attach_card(state, seat, card, slot);
}

fn attach_card(state: &mut State, seat: Seat, card: data::CardId, slot: u8) {
    let old = state.unit_mut(UnitRef { owner: seat, slot }).and_then(|u| {
        u.learned_charge = 0;
        u.learned.replace(card)
    });
    if let Some(old) = old {
        combat::put_bottom(state, old);
    }
}

/// 'Empowering Call': (caller, Clan, Learned?) — three horns on a unit standing on an active
/// Clan's tile fill one of that Clan's abilities.
pub fn empowers(state: &State, seat: Seat) -> Vec<(u8, u8, bool)> {
    if !state.options.has(Variant::EmpoweringCall) {
        return Vec::new();
    }
    let Some(p) = state.player(seat) else {
        return Vec::new();
    };
    let tribe = p.tribe();
    let mut out = Vec::new();
    for caller in p
        .units
        .iter()
        .filter(|u| u.on_board() && u.horns >= data::HORNS_TO_EMPOWER)
    {
        // "units can no longer use the Call to War action to activate or charge that specific
        // Clan" once both its tiles were flipped (l.441; from edition 2, `uncallable`).
        for clan in p
            .units
            .iter()
            .filter(|u| u.slot > 0 && u.on_board() && !p.uncallable.contains(&u.slot))
        {
            if !on_clan_tile(state, seat, caller.slot, clan.slot) {
                continue;
            }
            if tribe
                .innate(clan.slot)
                .is_some_and(|a| clan.innate_charge < a.cost)
            {
                out.push((caller.slot, clan.slot, false));
            }
            if clan.learned.is_some() && !clan.learned_full() {
                out.push((caller.slot, clan.slot, true));
            }
        }
    }
    out
}

pub fn empower(state: &mut State, seat: Seat, caller: u8, clan: u8, learned: bool) {
    spend_horns(state, seat, caller, data::HORNS_TO_EMPOWER);
    fill(state, seat, clan, learned);
}

/// Fills Clan `clan`'s innate or Learned ability ('Empowering Call').
fn fill(state: &mut State, seat: Seat, clan: u8, learned: bool) {
    let tribe = state.tribe_of(seat);
    if let Some(u) = state.unit_mut(UnitRef {
        owner: seat,
        slot: clan,
    }) {
        if learned {
            if let Some((_, a)) = u.learned.and_then(data::card) {
                u.learned_charge = a.cost;
            }
        } else if let Some(a) = tribe.innate(u.slot) {
            u.innate_charge = a.cost;
        }
    }
    state.filled_this_turn = true;
}

pub fn call_actions_exist(state: &State, seat: Seat) -> bool {
    !summons(state, seat).is_empty()
        || !drawers(state, seat).is_empty()
        || !held_attachments(state, seat).is_empty()
        || !empowers(state, seat).is_empty()
}

/// Abilities with open crystal slots: (unit slot, Learned?).
pub fn charge_slots(state: &State, seat: Seat) -> Vec<(u8, bool)> {
    let Some(p) = state.player(seat) else {
        return Vec::new();
    };
    let tribe = p.tribe();
    let mut out = Vec::new();
    for u in p.units.iter().filter(|u| u.on_board()) {
        if tribe
            .innate(u.slot)
            .is_some_and(|a| u.innate_charge < a.cost)
        {
            out.push((u.slot, false));
        }
        if u.learned.is_some() && !u.learned_full() {
            out.push((u.slot, true));
        }
    }
    out
}

pub fn charge_one(state: &mut State, seat: Seat, slot: u8, learned: bool) {
    if let Some(p) = state.players.get_mut(seat) {
        p.reserve = p.reserve.saturating_sub(1);
    }
    let tribe = state.tribe_of(seat);
    let mut filled = false;
    if let Some(u) = state.unit_mut(UnitRef { owner: seat, slot }) {
        if learned {
            u.learned_charge = u.learned_charge.saturating_add(1);
            filled = u.learned_full();
        } else {
            u.innate_charge = u.innate_charge.saturating_add(1);
            filled = u.innate_full(tribe);
        }
    }
    state.filled_this_turn |= filled;
}
