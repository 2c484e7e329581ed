//! Damage, attacks, defeat, flipping tiles and falling, and the token counters' expiry.

use super::Variant;
use super::board::TileId;
use super::data::{self, Deck, Token};
use super::state::{Counter, State, Status, UnitRef};
use crate::rules::Seat;

/// Deals `amount` damage to `target`; `by` is the player who dealt it (None for falls).
/// A unit reduced to 0 HP is defeated and its card goes to `by`.
pub fn damage(state: &mut State, target: UnitRef, amount: u8, by: Option<usize>) {
    let automaton = state.player(target.owner).is_some_and(|p| p.automaton);
    let tribe = state.tribe_of(target.owner);
    let Some(unit) = state.unit_mut(target) else {
        return;
    };
    if !unit.on_board() {
        return;
    }
    unit.counters.retain(|c| c.token != Token::Sleeping);
    unit.hp = unit.hp.saturating_sub(amount);
    // Solo: "Any time an opponent unit takes damage ... their defense goes up by one".
    if automaton && amount > 0 {
        unit.defense = unit.defense.saturating_add(1).min(unit.max_defense());
    }
    if unit.hp > 0 {
        return;
    }
    unit.status = Status::Defeated;
    unit.tile = None;
    unit.counters.clear();
    unit.horns = 0;
    unit.innate_charge = 0;
    unit.learned_charge = 0;
    let learned = unit.learned.take();
    if let Some(card) = learned {
        put_bottom(state, card);
    }
    // From edition 1 (review R4): only an enemy's final blow wins the card — "how many enemy
    // units they defeated" (l.34); a team-mate's unit defeated by one's own flip is no trophy.
    let own_side = |b: usize| {
        if state.options.edition >= 1 {
            state.team_mates(b, target.owner)
        } else {
            b == target.owner
        }
    };
    if let Some(by) = by.filter(|&b| !own_side(b))
        && let Some(p) = state.players.get_mut(by)
    {
        p.trophies.push((tribe, target.slot));
    }
    state.falls.retain(|&u| u != target);
}

/// Puts a card at the bottom of its deck.
pub fn put_bottom(state: &mut State, card: data::CardId) {
    match data::card(card).map(|(d, _)| d) {
        Some(Deck::Learned) => state.bottom_learned.push(card),
        Some(Deck::Secret) => state.bottom_secret.push(card),
        None => {}
    }
}

/// Whether `owner`'s unit gets the Home Field Advantage on tile `t`.
pub fn home_field(state: &State, owner: usize, t: Option<TileId>) -> u8 {
    let tribe = state.tribe_of(owner);
    let home = t
        .and_then(|t| state.tile(t))
        .is_some_and(|s| !s.flipped && s.card.is_some_and(|c| c.tribe == tribe));
    u8::from(state.options.has(Variant::HomeField) && home)
}

/// An attack of `power` on `target` (a base attack, an ability attack or a lingering
/// attack): half damage, rounded down, when defense ≥ attack; then the defense slider drops.
pub fn attack(state: &mut State, target: UnitRef, power: u8, by: usize) {
    let Some(unit) = state.unit(target) else {
        return;
    };
    if !unit.on_board() {
        return;
    }
    let defense = unit
        .defense
        .saturating_add(home_field(state, target.owner, unit.tile));
    let dealt = if defense >= power { power / 2 } else { power };
    if let Some(unit) = state.unit_mut(target) {
        unit.defense = unit.defense.saturating_sub(1).max(unit.min_defense());
    }
    damage(state, target, dealt, Some(by));
}

/// Tiles that may be flipped in the 'Flip Two Tiles' step: face up, not a crystal mine, and
/// touching the empty space around the board or two flipped tiles (or, solo, one).
pub fn flippable(state: &State, needed_flipped_neighbours: usize) -> Vec<TileId> {
    let candidates: Vec<TileId> = state
        .geometry()
        .ids()
        .filter(|&t| !state.flipped(t) && !state.is_mine(t))
        .collect();
    let flipped_around = |t: TileId| {
        state
            .geometry()
            .adjacent(t)
            .iter()
            .filter(|&&n| state.flipped(n))
            .count()
    };
    let by_rule: Vec<TileId> = candidates
        .iter()
        .copied()
        .filter(|&t| {
            state.geometry().tile(t).is_some_and(|p| p.edge)
                || flipped_around(t) >= needed_flipped_neighbours
        })
        .collect();
    if !by_rule.is_empty() {
        return by_rule;
    }
    // Ruling: when no tile qualifies but face-up tiles remain, any tile next to a flipped one
    // may be flipped, so the board still crumbles down to the mines.
    candidates
        .into_iter()
        .filter(|&t| flipped_around(t) > 0)
        .collect()
}

/// Flips tile `t`: units on it take fall damage and must move to the nearest face-up tile.
/// `by` is the player whose ability flipped it (their final blow wins the card), `None` for
/// the Flip step and the solo crumbling earth.
pub fn flip(state: &mut State, t: TileId, by: Option<usize>) {
    if state.is_mine(t) {
        return;
    }
    let Some(tile) = state.tile_mut(t) else {
        return;
    };
    if tile.flipped {
        return;
    }
    tile.flipped = true;
    tile.blockade = None;
    for u in state.units_on(t) {
        damage(state, u, data::FALL_DAMAGE, by);
        if state.unit(u).is_some_and(|x| x.on_board()) && !state.falls.contains(&u) {
            state.falls.push(u);
        }
        if state.solo() && u.owner == 0 && !state.solo_hit.contains(&u) {
            state.solo_hit.push(u);
        }
    }
    if state.options.edition >= 2 {
        mark_uncallable(state);
    }
}

/// Records each Clan both of whose tiles are now flipped as never to be called or charged by
/// a Call to War again (l.303, l.441; [`super::state::Player::uncallable`]).
fn mark_uncallable(state: &mut State) {
    for owner in 0..state.players.len() {
        let tribe = state.tribe_of(owner);
        for clan in 1..=6u8 {
            let flipped: Vec<bool> = state
                .tiles
                .iter()
                .filter(|s| s.card.is_some_and(|c| c.tribe == tribe && c.clan == clan))
                .map(|s| s.flipped)
                .collect();
            if let Some(p) = state.players.get_mut(owner)
                && !flipped.is_empty()
                && flipped.iter().all(|&f| f)
                && !p.uncallable.contains(&clan)
            {
                p.uncallable.push(clan);
                p.uncallable.sort_unstable();
            }
        }
    }
}

/// Where a falling unit may land: the nearest face-up tiles, the way there passing no blockade
/// unless it flies ("a unit cannot pass through the blockade unless they are Flying", l.497).
/// Ruling: if blockades shut it off from every face-up tile, it falls as if they were not
/// there (it must land somewhere, l.439), though never onto a blockade while it can avoid one.
pub fn landing_tiles(state: &State, u: UnitRef) -> Vec<TileId> {
    let Some(unit) = state.unit(u) else {
        return Vec::new();
    };
    let Some(from) = unit.tile else {
        return Vec::new();
    };
    let nearest = |dist: &[Option<u8>]| -> Vec<TileId> {
        let best = state
            .geometry()
            .ids()
            .filter(|&t| !state.flipped(t))
            .filter_map(|t| dist.get(usize::from(t)).copied().flatten())
            .min();
        state
            .geometry()
            .ids()
            .filter(|&t| !state.flipped(t))
            .filter(|&t| best.is_some() && dist.get(usize::from(t)).copied().flatten() == best)
            .collect()
    };
    let by_rule = nearest(&state.reach(from, unit.has(Token::Flying)));
    if !by_rule.is_empty() {
        return by_rule;
    }
    let open = nearest(&state.geometry().distances(from, |t| {
        state.tile(t).is_none_or(|s| s.blockade.is_none()) || state.flipped(t)
    }));
    if !open.is_empty() {
        return open;
    }
    nearest(&state.geometry().distances(from, |_| true))
}

/// Lands a falling unit on `t`. From edition 1 (review R3) a crystal mine it lands on adds a
/// crystal to its owner's reserve: "For every Crystal Mine tile a unit enters, that player
/// adds one Power Crystals to their Power Crystal reserve" (l.349), as a move or an
/// ability's move does.
pub fn land(state: &mut State, u: UnitRef, t: TileId) {
    state.falls.retain(|&x| x != u);
    if let Some(unit) = state.unit_mut(u) {
        unit.tile = Some(t);
    }
    if state.options.edition >= 1
        && state.is_mine(t)
        && let Some(p) = state.players.get_mut(u.owner)
        && !p.automaton
    {
        p.reserve = p.reserve.saturating_add(1);
    }
}

/// Solo: the automaton's units fall toward the crystal mines (the nearest face-up tile, the
/// one closest to the centre among them, the lowest position number on a tie).
pub fn automaton_landing(state: &State, u: UnitRef) -> Option<TileId> {
    landing_tiles(state, u).into_iter().min_by_key(|&t| {
        (
            state
                .geometry()
                .tile(t)
                .map_or(i64::MAX, |p| p.centre_distance),
            t,
        )
    })
}

/// At the start of `seat`'s turn: counters with `seat`'s ring end (a lingering attack
/// strikes a second time first), and `seat`'s blockades are removed. Counters whose ring
/// belongs to an eliminated seat end too.
pub fn expire(state: &mut State, seat: Seat) {
    let eliminated: Vec<Seat> = (0..state.seats)
        .filter(|&s| state.player(s).is_some_and(|p| p.eliminated))
        .collect();
    let ends = |c: &Counter| c.ring == seat || eliminated.contains(&c.ring);
    let mut lingering = Vec::new();
    for u in state.units_on_board() {
        if let Some(unit) = state.unit(u) {
            for c in unit.counters.iter().filter(|c| ends(c)) {
                if c.token == Token::LingeringAttack {
                    lingering.push((u, c.by));
                }
            }
        }
        if let Some(unit) = state.unit_mut(u) {
            unit.counters.retain(|c| !ends(c));
        }
    }
    for (u, by) in lingering {
        attack(state, u, data::LINGERING_POWER, by);
    }
    for tile in &mut state.tiles {
        if tile.blockade == Some(seat) {
            tile.blockade = None;
        }
    }
}

/// Gives `u` a counter (one of each type per unit; from edition 2 only to a unit on the board,
/// so a lingering attack whose first strike defeats its target leaves no counter behind).
pub fn give_counter(state: &mut State, u: UnitRef, token: Token, by: usize) {
    let ring = state.current().unwrap_or(0);
    let new_rules = state.options.edition >= 2;
    if let Some(unit) = state.unit_mut(u)
        && !unit.has(token)
        && (unit.on_board() || !new_rules)
    {
        unit.counters.push(Counter { token, ring, by });
    }
}
