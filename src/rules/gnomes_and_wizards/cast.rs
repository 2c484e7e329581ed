//! Abilities: which can be cast, on what, resolving them, and the reaction windows in which
//! other players cast during the active player's turn.

use super::board::TileId;
use super::combat;
use super::data::{Ability, Effect, Token};
use super::state::{After, Cast, Source, State, Target, UnitRef, Window};
use crate::rules::Seat;

/// The tiles an ability of `owner` reaches from: its unit's tile (Innate, Learned) or, for a
/// Secret ability, the tile of any of `owner`'s units on the board.
fn origins(state: &State, owner: usize, source: Source) -> Vec<TileId> {
    let Some(p) = state.player(owner) else {
        return Vec::new();
    };
    match source {
        Source::Innate(slot) | Source::Learned(slot) => p
            .unit(slot)
            .filter(|u| u.on_board())
            .and_then(|u| u.tile)
            .into_iter()
            .collect(),
        Source::Secret(_) => p
            .units
            .iter()
            .filter(|u| u.on_board())
            .filter_map(|u| u.tile)
            .collect(),
    }
}

/// Whether `owner` may cast from `source` now (charged, on an active unit, or in hand).
pub fn castable(state: &State, owner: usize, source: Source) -> bool {
    let Some(p) = state.player(owner) else {
        return false;
    };
    match source {
        Source::Innate(slot) => {
            slot > 0
                && p.unit(slot)
                    .is_some_and(|u| u.on_board() && u.innate_full(p.tribe()))
        }
        Source::Learned(slot) => p
            .unit(slot)
            .is_some_and(|u| u.on_board() && u.learned_full()),
        Source::Secret(card) => p.hand.contains(&card) && p.has_units_on_board(),
    }
}

fn sources(state: &State, owner: usize) -> Vec<Source> {
    let Some(p) = state.player(owner) else {
        return Vec::new();
    };
    let mut out: Vec<Source> = Vec::new();
    for slot in 0..7u8 {
        out.push(Source::Innate(slot));
        out.push(Source::Learned(slot));
    }
    let mut hand = p.hand.clone();
    hand.dedup();
    out.extend(hand.into_iter().map(Source::Secret));
    out.into_iter()
        .filter(|&s| castable(state, owner, s))
        .collect()
}

/// The effect of `source` for `owner`, with the Leader bonus of a Learned ability on a Leader.
fn effect(state: &State, owner: usize, source: Source) -> Option<(&'static Ability, Effect)> {
    let ability = state.ability(owner, source)?;
    let on_leader = matches!(source, Source::Learned(0));
    Some((ability, ability.effect_with_bonus(on_leader)))
}

/// The legal targets of `source` for `owner` now.
pub fn targets(state: &State, owner: usize, source: Source) -> Vec<Target> {
    let Some((ability, effect)) = effect(state, owner, source) else {
        return Vec::new();
    };
    let mut reach: Vec<bool> = vec![false; state.geometry().len()];
    for o in origins(state, owner, source) {
        let dist = state.geometry().distances(o, |_| true);
        for (r, d) in reach.iter_mut().zip(dist) {
            *r |= d.is_some_and(|d| d <= ability.range);
        }
    }
    let in_range = |t: TileId| reach.get(usize::from(t)).copied().unwrap_or(false);
    let unit_in_range = |u: UnitRef| state.unit(u).and_then(|x| x.tile).is_some_and(in_range);
    let units = state.units_on_board();
    let enemies = || {
        units
            .iter()
            .copied()
            .filter(|u| !state.allied(owner, u.owner) && unit_in_range(*u))
    };
    let allies = || {
        units
            .iter()
            .copied()
            .filter(|u| state.allied(owner, u.owner) && unit_in_range(*u))
    };
    let lacks = |u: &UnitRef, token: Token| state.unit(*u).is_some_and(|x| !x.has(token));
    match effect {
        Effect::Damage(_) | Effect::Attack(_) => enemies().map(Target::Unit).collect(),
        Effect::Token(Token::Flying) => allies()
            .filter(|u| lacks(u, Token::Flying))
            .map(Target::Unit)
            .collect(),
        Effect::Token(token) => enemies()
            .filter(|u| lacks(u, token))
            .map(Target::Unit)
            .collect(),
        Effect::Defense(_) => allies()
            .filter(|u| state.unit(*u).is_some_and(|x| x.defense < x.max_defense()))
            .map(Target::Unit)
            .collect(),
        Effect::Crystals(_) => allies()
            .filter(|u| open_slots(state, *u) > 0)
            .map(Target::Unit)
            .collect(),
        Effect::Move(n) => allies()
            .flat_map(|u| {
                move_destinations(state, u, n)
                    .into_iter()
                    .map(move |to| Target::Move { unit: u, to })
            })
            .collect(),
        Effect::Blockade => state
            .geometry()
            .ids()
            .filter(|&t| in_range(t) && state.tile(t).is_some_and(|s| s.blockade.is_none()))
            .map(Target::Tile)
            .collect(),
        Effect::FlipTile => state
            .geometry()
            .ids()
            .filter(|&t| in_range(t) && !state.flipped(t) && !state.is_mine(t))
            .map(Target::Tile)
            .collect(),
        Effect::RestoreTile => state
            .geometry()
            .ids()
            .filter(|&t| {
                in_range(t)
                    && state.flipped(t)
                    && !state.geometry().tile(t).is_some_and(|p| p.centre)
            })
            .map(Target::Tile)
            .collect(),
    }
}

/// Face-up tiles `u` may be moved to by an ability moving it up to `n` spaces.
pub fn move_destinations(state: &State, u: UnitRef, n: u8) -> Vec<TileId> {
    let Some(unit) = state.unit(u) else {
        return Vec::new();
    };
    let Some(from) = unit.tile else {
        return Vec::new();
    };
    let dist = state.reach(from, unit.has(Token::Flying));
    state
        .geometry()
        .ids()
        .filter(|&t| {
            t != from
                && !state.flipped(t)
                && dist
                    .get(usize::from(t))
                    .copied()
                    .flatten()
                    .is_some_and(|d| d <= n)
        })
        .collect()
}

/// Empty crystal slots on `u`'s innate and Learned abilities.
pub fn open_slots(state: &State, u: UnitRef) -> u8 {
    let tribe = state.tribe_of(u.owner);
    let Some(unit) = state.unit(u) else {
        return 0;
    };
    if !unit.on_board() {
        return 0;
    }
    let innate = tribe
        .innate(unit.slot)
        .map_or(0, |a| a.cost.saturating_sub(unit.innate_charge));
    let learned = unit
        .learned
        .and_then(super::data::card)
        .map_or(0, |(_, a)| a.cost.saturating_sub(unit.learned_charge));
    innate.saturating_add(learned)
}

/// Every cast `owner` may make now.
pub fn legal_casts(state: &State, owner: usize) -> Vec<Cast> {
    let mut out = Vec::new();
    for source in sources(state, owner) {
        for target in targets(state, owner, source) {
            out.push(Cast { source, target });
        }
    }
    out
}

pub fn is_legal(state: &State, owner: usize, cast: &Cast) -> bool {
    castable(state, owner, cast.source) && targets(state, owner, cast.source).contains(&cast.target)
}

/// Resolves a cast by `owner`: spends the ability and applies its effect. A cast whose target
/// is no longer legal (an earlier ability changed the board) fizzles: an ability on a unit
/// keeps its crystals, but a Secret card, shown when it was cast, is spent all the same
/// (docs/rules/gnomes-and-wizards.md: a card everyone saw cast must not stay in a secret hand).
pub fn resolve(state: &mut State, owner: usize, cast: Cast) {
    if !is_legal(state, owner, &cast) {
        if let Source::Secret(card) = cast.source
            && state.player(owner).is_some_and(|p| p.hand.contains(&card))
        {
            spend(state, owner, cast.source);
        }
        return;
    }
    let Some((_, effect)) = effect(state, owner, cast.source) else {
        return;
    };
    spend(state, owner, cast.source);
    let wake = |state: &mut State, u: UnitRef| {
        if let Some(x) = state.unit_mut(u) {
            x.counters.retain(|c| c.token != Token::Sleeping);
        }
    };
    match (effect, cast.target) {
        (Effect::Damage(n), Target::Unit(u)) => combat::damage(state, u, n, Some(owner)),
        (Effect::Attack(n), Target::Unit(u)) => combat::attack(state, u, n, owner),
        (Effect::Defense(n), Target::Unit(u)) => {
            wake(state, u);
            if let Some(x) = state.unit_mut(u) {
                x.defense = x.defense.saturating_add(n).min(x.max_defense());
            }
        }
        (Effect::Move(_), Target::Move { unit, to }) => {
            wake(state, unit);
            if let Some(x) = state.unit_mut(unit) {
                x.tile = Some(to);
            }
            if state.is_mine(to)
                && let Some(p) = state.players.get_mut(unit.owner)
            {
                p.reserve = p.reserve.saturating_add(1);
            }
        }
        (Effect::Token(Token::LingeringAttack), Target::Unit(u)) => {
            combat::attack(state, u, super::data::LINGERING_POWER, owner);
            combat::give_counter(state, u, Token::LingeringAttack, owner);
        }
        (Effect::Token(Token::Sleeping), Target::Unit(u)) => {
            combat::give_counter(state, u, Token::Sleeping, owner);
        }
        (Effect::Token(token), Target::Unit(u)) => {
            wake(state, u);
            combat::give_counter(state, u, token, owner);
        }
        (Effect::Blockade, Target::Tile(t)) => {
            if let Some(tile) = state.tile_mut(t) {
                tile.blockade = Some(owner);
            }
        }
        (Effect::Crystals(n), Target::Unit(u)) => {
            wake(state, u);
            charge(state, u, n);
        }
        (Effect::FlipTile, Target::Tile(t)) => combat::flip(state, t),
        (Effect::RestoreTile, Target::Tile(t)) => {
            if let Some(tile) = state.tile_mut(t) {
                tile.flipped = false;
            }
        }
        _ => {}
    }
}

/// Puts up to `n` crystals on `u`'s abilities, innate first; the overflow is lost.
pub fn charge(state: &mut State, u: UnitRef, mut n: u8) {
    let tribe = state.tribe_of(u.owner);
    let Some(unit) = state.unit_mut(u) else {
        return;
    };
    if let Some(a) = tribe.innate(unit.slot) {
        let add = a.cost.saturating_sub(unit.innate_charge).min(n);
        unit.innate_charge += add;
        n -= add;
    }
    if let Some((_, a)) = unit.learned.and_then(super::data::card) {
        let add = a.cost.saturating_sub(unit.learned_charge).min(n);
        unit.learned_charge += add;
    }
}

fn spend(state: &mut State, owner: usize, source: Source) {
    match source {
        Source::Innate(slot) => {
            if let Some(u) = state.unit_mut(UnitRef { owner, slot }) {
                u.innate_charge = 0;
            }
        }
        Source::Learned(slot) => {
            if let Some(u) = state.unit_mut(UnitRef { owner, slot }) {
                u.learned_charge = 0;
            }
        }
        Source::Secret(card) => {
            if let Some(p) = state.players.get_mut(owner)
                && let Some(i) = p.hand.iter().position(|&c| c == card)
            {
                p.hand.remove(i);
            }
            combat::put_bottom(state, card);
        }
    }
}

/// The seats that may answer a reaction window now, in turn order after the active player:
/// not the active player, with a unit on the board, and holding a Secret card or a charged
/// ability with a target. (A Secret card counts whatever its targets, so the window's
/// opening reveals no more than the public hand count.)
pub fn eligible(state: &State) -> Vec<Seat> {
    if state.options.own_turn_casting || state.solo() {
        return Vec::new();
    }
    let Some(current) = state.current() else {
        return Vec::new();
    };
    state
        .seats_after(current)
        .into_iter()
        .filter(|&s| s != current)
        .filter(|&s| {
            state.player(s).is_some_and(|p| {
                !p.eliminated
                    && p.has_units_on_board()
                    && (!p.hand.is_empty() || !legal_casts(state, s).is_empty())
            })
        })
        .collect()
}

/// Opens a reaction window before `after` happens; with nobody to answer, `after` is
/// queued at once.
pub fn open_window(state: &mut State, after: After) {
    let waiting = eligible(state);
    if waiting.is_empty() {
        state.pending_after.push(after);
    } else {
        state.window = Some(Window {
            waiting,
            casts: Vec::new(),
            after,
        });
    }
}

/// `seat` answers the open window with a cast or a pass. When the last seat has answered,
/// the casts resolve in turn order; if any was cast, the window opens again (the others may
/// answer the new situation), otherwise it closes.
pub fn answer(state: &mut State, seat: Seat, cast: Option<Cast>) {
    let Some(window) = state.window.as_mut() else {
        return;
    };
    window.waiting.retain(|&s| s != seat);
    if let Some(cast) = cast {
        window.casts.push((seat, cast));
    }
    if !window.waiting.is_empty() {
        return;
    }
    let Some(window) = state.window.take() else {
        return;
    };
    if window.casts.is_empty() {
        state.pending_after.push(window.after);
        return;
    }
    let order = state
        .current()
        .map(|c| state.seats_after(c))
        .unwrap_or_default();
    let mut casts = window.casts;
    casts.sort_by_key(|(s, _)| order.iter().position(|o| o == s));
    for (s, cast) in casts {
        resolve(state, s, cast);
    }
    open_window(state, window.after);
}
