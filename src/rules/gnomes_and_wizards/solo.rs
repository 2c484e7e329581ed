//! Solo mode: the automaton. Its units never roll or move on their own; the crumbling earth
//! flips two tiles each turn (from the second), targeting the player's units; its units
//! strike back when attacked and fall toward the crystal mines.

use super::board::TileId;
use super::combat;
use super::data::{Token, unit_stats};
use super::state::{State, Status, UnitRef};

/// Solo flippable tiles: face up, not a mine, on the outer edge or sharing a flat edge with a
/// flipped tile.
pub fn flippable(state: &State) -> Vec<TileId> {
    combat::flippable(state, 1)
}

fn on_mine(state: &State, u: UnitRef) -> bool {
    state
        .unit(u)
        .and_then(|x| x.tile)
        .is_some_and(|t| state.is_mine(t))
}

/// The units the crumbling earth targets now, tied: the player's unit with the least health
/// (then the least defense) not on a mine and not yet hit this turn; failing that, the
/// automaton's unit with the most health (then the least defense) not on a mine.
pub fn target_units(state: &State) -> Vec<UnitRef> {
    let units = state.units_on_board();
    let pick = |owner: usize, most_health: bool| -> Vec<UnitRef> {
        let pool: Vec<(UnitRef, i32, u8)> = units
            .iter()
            .copied()
            .filter(|u| u.owner == owner && !on_mine(state, *u) && !state.solo_hit.contains(u))
            .filter_map(|u| {
                state.unit(u).map(|x| {
                    let hp = i32::from(x.hp);
                    (u, if most_health { -hp } else { hp }, x.defense)
                })
            })
            .collect();
        let Some(best) = pool.iter().map(|&(_, h, d)| (h, d)).min() else {
            return Vec::new();
        };
        pool.into_iter()
            .filter(|&(_, h, d)| (h, d) == best)
            .map(|(u, _, _)| u)
            .collect()
    };
    let player = pick(0, false);
    if !player.is_empty() {
        return player;
    }
    pick(1, true)
}

/// The tiles the crumbling earth may flip next, best first: the flippable tiles nearest the
/// targeted units; failing any target, the tiles of the player's Clans not yet summoned;
/// failing those, every flippable tile (the player chooses among ties).
pub fn crumble_choices(state: &State) -> Vec<TileId> {
    let flippable = flippable(state);
    if flippable.is_empty() {
        return Vec::new();
    }
    let targets = target_units(state);
    if !targets.is_empty() {
        // The tiles nearest each tied unit: "If there is still a tie, the player chooses which
        // unit is targeted" (l.572, l.574), and then which of its nearest tiles.
        let mut tiles: Vec<TileId> = Vec::new();
        for u in targets {
            let Some(from) = state.unit(u).and_then(|x| x.tile) else {
                continue;
            };
            let dist = state.geometry().distances(from, |_| true);
            let d = |t: TileId| dist.get(usize::from(t)).copied().flatten();
            let best = flippable.iter().filter_map(|&t| d(t)).min();
            tiles.extend(
                flippable
                    .iter()
                    .copied()
                    .filter(|&t| best.is_some() && d(t) == best),
            );
        }
        tiles.sort_unstable();
        tiles.dedup();
        return tiles;
    }
    let tribe = state.tribe_of(0);
    let unsummoned: Vec<u8> = state
        .player(0)
        .map(|p| {
            p.units
                .iter()
                .filter(|u| u.slot > 0 && u.status == Status::Inactive)
                .map(|u| u.slot)
                .collect()
        })
        .unwrap_or_default();
    let icons: Vec<TileId> = flippable
        .iter()
        .copied()
        .filter(|&t| {
            state
                .tile(t)
                .and_then(|s| s.card)
                .is_some_and(|c| c.tribe == tribe && unsummoned.contains(&c.clan))
        })
        .collect();
    if icons.is_empty() { flippable } else { icons }
}

/// "Anytime the player attacks an enemy unit, all enemy units in that space attack the unit
/// using their base stat before the player may perform their attack", weakest first.
pub fn strike_back(state: &mut State, attacker: UnitRef, tile: TileId) {
    let mut strikers: Vec<(u8, UnitRef)> = state
        .units_on(tile)
        .into_iter()
        .filter(|u| u.owner == 1)
        .filter(|&u| {
            // Counters stop its units too: "If a unit is sleeping, they cannot attack"
            // (l.485), No attack (l.493), and a flier is attacked only by fliers (l.481).
            let flying = |v: UnitRef| state.unit(v).is_some_and(|x| x.has(Token::Flying));
            state
                .unit(u)
                .is_some_and(|x| !x.has(Token::Sleeping) && !x.has(Token::NoAttack))
                && flying(u) == flying(attacker)
        })
        .map(|u| (unit_stats(u.slot).attack, u))
        .collect();
    strikers.sort_unstable();
    for (power, _) in strikers {
        if !state.unit(attacker).is_some_and(|x| x.on_board()) {
            return;
        }
        combat::attack(state, attacker, power, 1);
    }
}

/// "1. Defeat all 7 enemy units 2. Have all 7 units active".
pub fn objectives_met(state: &State) -> bool {
    let all_defeated = state
        .player(1)
        .is_some_and(|p| p.units.iter().all(|u| u.status == Status::Defeated));
    let all_active = state
        .player(0)
        .is_some_and(|p| p.units.iter().all(|u| u.on_board()));
    all_defeated && all_active
}
