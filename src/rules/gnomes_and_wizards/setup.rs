//! Set-up: tribes, the tiles on the shape, the solo automaton's Clans, the first player and
//! the Leaders (and the Shorter Game's head start).

use super::Variant;
use super::board::{Side, TileId};
use super::data::Tribe;
use super::state::{Phase, State, Status, TileCard, UnitRef};
use crate::rules::Seat;

/// The tribes a seat (or the automaton, index 1 in solo) may be dealt now.
pub fn tribe_choices(state: &State) -> Vec<Tribe> {
    let Some(index) = state.players.iter().position(|p| p.tribe.is_none()) else {
        return Vec::new();
    };
    let taken: Vec<Tribe> = state.players.iter().filter_map(|p| p.tribe).collect();
    let first = state.players.first().and_then(|p| p.tribe);
    Tribe::ALL
        .into_iter()
        .filter(|t| !taken.contains(t))
        .filter(|t| {
            // Team play is gnomes against wizards: seats 0 and 2 against 1 and 3.
            !state.options.has(Variant::TeamPlay)
                || first.is_none_or(|f| (f.is_gnome() == t.is_gnome()) == (index % 2 == 0))
        })
        .collect()
}

pub fn deal_tribe(state: &mut State, tribe: Tribe) {
    if let Some(p) = state.players.iter_mut().find(|p| p.tribe.is_none()) {
        p.tribe = Some(tribe);
    }
    if state.players.iter().all(|p| p.tribe.is_some()) {
        prepare_tiles(state);
    }
}

/// Builds the piles: each tribe in play has its six Clans' A and B tiles.
pub fn prepare_tiles(state: &mut State) {
    let mut piles = Vec::new();
    for p in &state.players {
        for clan in 1..=6 {
            for side in [Side::A, Side::B] {
                piles.push(TileCard {
                    tribe: p.tribe(),
                    clan,
                    side,
                });
            }
        }
    }
    piles.sort();
    state.piles = piles;
    state.phase = Phase::Tiles;
}

/// The next position to fill: the lowest empty one that is not the three-player centre. From
/// edition 2, on a board with more positions than tiles (a board of the players' own), the
/// crystal mines are filled first, so the positions left face down are never mines: "Crystal
/// Mine tiles ... can never be flipped no matter what" (l.437), and "it is important that the
/// crystal mines end up in the center of the board" (l.145).
pub fn next_position(state: &State) -> Option<TileId> {
    let g = state.geometry();
    let empty = |t: TileId| {
        state.tile(t).is_some_and(|s| s.card.is_none()) && !g.tile(t).is_some_and(|p| p.centre)
    };
    let tiles = 12 * state.players.len();
    let spare = g
        .ids()
        .filter(|&t| !g.tile(t).is_some_and(|p| p.centre))
        .count()
        > tiles;
    if state.options.edition >= 2
        && spare
        && let Some(mine) = g.ids().find(|&t| empty(t) && state.is_mine(t))
    {
        return Some(mine);
    }
    g.ids().find(|&t| empty(t))
}

/// The tiles that may land on the next position: the pile of its half (even player counts:
/// A tiles on side A, B tiles on side B), or the single pile for three players. A shape with
/// more positions than tiles ('Shape It Up') draws from every pile once its own is empty.
pub fn tile_choices(state: &State) -> Vec<TileCard> {
    let Some(t) = next_position(state) else {
        return Vec::new();
    };
    let side = state.geometry().tile(t).map(|p| p.side);
    let mut choices: Vec<TileCard> = if state.players.len() == 3 {
        state.piles.clone()
    } else {
        state
            .piles
            .iter()
            .copied()
            .filter(|c| Some(c.side) == side)
            .collect()
    };
    if choices.is_empty() {
        choices = state.piles.clone();
    }
    choices.dedup();
    choices
}

pub fn place_tile(state: &mut State, card: TileCard) {
    let Some(t) = next_position(state) else {
        return;
    };
    if let Some(i) = state.piles.iter().position(|&c| c == card) {
        state.piles.remove(i);
    }
    if let Some(tile) = state.tile_mut(t) {
        tile.card = Some(card);
    }
    if next_position(state).is_none() || state.piles.is_empty() {
        finish_tiles(state);
    }
}

fn finish_tiles(state: &mut State) {
    // Positions left without a tile (none on the predefined shapes) and the three-player
    // centre stay face down for the whole game; the centre shows the unused faction.
    let unused = Tribe::ALL
        .into_iter()
        .find(|t| !state.players.iter().any(|p| p.tribe == Some(*t)));
    for t in state.geometry().ids().collect::<Vec<_>>() {
        let centre = state.geometry().tile(t).is_some_and(|p| p.centre);
        if let Some(tile) = state.tile_mut(t)
            && tile.card.is_none()
        {
            tile.flipped = true;
            if centre {
                tile.card = unused.map(|tribe| TileCard {
                    tribe,
                    clan: 1,
                    side: Side::A,
                });
            }
        }
    }
    state.piles.clear();
    if state.options.has(Variant::BalancedTerrain) {
        balance(state);
    }
    state.phase = if state.solo() {
        Phase::SplitClans
    } else {
        Phase::FirstPlayer
    };
}

/// How many Clans of `tribe` have both tiles on the outer edge.
pub fn exposed_clans(state: &State, tribe: Tribe) -> usize {
    (1..=6u8)
        .filter(|&clan| {
            let tiles: Vec<TileId> = state
                .geometry()
                .ids()
                .filter(|&t| {
                    state
                        .tile(t)
                        .and_then(|s| s.card)
                        .is_some_and(|c| c.tribe == tribe && c.clan == clan)
                })
                .collect();
            !tiles.is_empty()
                && tiles
                    .iter()
                    .all(|&t| state.geometry().tile(t).is_some_and(|p| p.edge))
        })
        .count()
}

/// The spread (most minus least) of the tribes' counts of Clans with both tiles on the edge.
fn spread(state: &State, tribes: &[Tribe]) -> usize {
    let counts: Vec<usize> = tribes.iter().map(|&t| exposed_clans(state, t)).collect();
    let hi = counts.iter().copied().max().unwrap_or(0);
    let lo = counts.iter().copied().min().unwrap_or(0);
    hi - lo
}

fn swap_cards(state: &mut State, a: TileId, b: TileId) {
    let ca = state.tile(a).and_then(|s| s.card);
    let cb = state.tile(b).and_then(|s| s.card);
    if let Some(t) = state.tile_mut(a) {
        t.card = cb;
    }
    if let Some(t) = state.tile_mut(b) {
        t.card = ca;
    }
}

/// 'Balanced Terrain': while the tribes' counts of Clans with both tiles on the edge differ,
/// swap an edge tile with an inner tile of the same half, taking the first swap (in tile
/// order) that narrows the spread; stop when even or when no swap helps (deterministic,
/// bounded).
pub fn balance(state: &mut State) {
    let tribes: Vec<Tribe> = state.players.iter().filter_map(|p| p.tribe).collect();
    for _ in 0..48 {
        let now = spread(state, &tribes);
        if now == 0 {
            return;
        }
        let g = state.geometry();
        let mut found = None;
        'search: for a in g.ids() {
            let Some(pa) = g.tile(a) else { continue };
            if !pa.edge || state.tile(a).and_then(|s| s.card).is_none() {
                continue;
            }
            for b in g.ids() {
                let ok = g
                    .tile(b)
                    .is_some_and(|pb| !pb.edge && !pb.centre && pb.side == pa.side)
                    && state.tile(b).and_then(|s| s.card).is_some();
                if !ok {
                    continue;
                }
                let mut trial = state.clone();
                swap_cards(&mut trial, a, b);
                if spread(&trial, &tribes) < now {
                    found = Some((a, b));
                    break 'search;
                }
            }
        }
        let Some((a, b)) = found else {
            return;
        };
        swap_cards(state, a, b);
    }
}

/// Every set of three automaton Clans (bit k: Clan k + 1) that may go on side A.
pub fn splits() -> Vec<u8> {
    (0u8..64).filter(|m| m.count_ones() == 3).collect()
}

/// Solo: the automaton's Clans go on their matching tiles, `mask` on side A, the rest on B;
/// all seven automaton units are active from the start.
pub fn split_clans(state: &mut State, mask: u8) {
    let tribe = state.tribe_of(1);
    for slot in 1..=6u8 {
        let side = if mask & (1 << (slot - 1)) != 0 {
            Side::A
        } else {
            Side::B
        };
        let tile = state.geometry().ids().find(|&t| {
            state.tile(t).and_then(|s| s.card)
                == Some(TileCard {
                    tribe,
                    clan: slot,
                    side,
                })
        });
        if let Some(u) = state.unit_mut(UnitRef { owner: 1, slot }) {
            u.status = Status::Active;
            u.tile = tile;
        }
    }
    state.phase = Phase::Leaders;
}

/// The order in which Leaders are placed (player indices): the automaton's first in solo
/// (the player chooses its start), otherwise turn order from the first player.
pub fn leader_order(state: &State) -> Vec<usize> {
    if state.solo() {
        vec![1, 0]
    } else {
        (0..state.seats)
            .map(|k| (state.first_player + k) % state.seats)
            .collect()
    }
}

/// Who places the next Leader, and which seat decides it.
pub fn next_leader(state: &State) -> Option<(usize, Seat)> {
    let owner = leader_order(state).into_iter().find(|&o| {
        state
            .unit(UnitRef { owner: o, slot: 0 })
            .is_some_and(|u| u.tile.is_none())
    })?;
    Some((owner, if state.solo() { 0 } else { owner }))
}

pub fn leader_choices(state: &State) -> Vec<TileId> {
    let taken: Vec<TileId> = state
        .players
        .iter()
        .filter_map(|p| p.unit(0).and_then(|u| u.tile))
        .collect();
    let g = state.geometry();
    // "If playing the variant 'Every Tribe for Themselves' with four players, place leaders
    // on any tile on the outer perimeter of the board." (l.173)
    let starts: Vec<TileId> = if state.options.has(Variant::EveryTribeForThemselves) {
        g.ids()
            .filter(|&t| g.tile(t).is_some_and(|p| p.edge))
            .collect()
    } else {
        // A start that stays face down (a board of the players' own with more positions than
        // tiles) gives way to the nearest face-up perimeter tiles (ruling 17).
        let open = |t: TileId| {
            !state.flipped(t) && g.tile(t).is_some_and(|p| p.edge && !p.mine && !p.centre)
        };
        let mut starts: Vec<TileId> = Vec::new();
        for &s in &g.starts {
            if !state.flipped(s) {
                starts.push(s);
                continue;
            }
            let dist = g.distances(s, |_| true);
            let steps = |t: TileId| dist.get(usize::from(t)).copied().flatten();
            let nearest = g.ids().filter(|&t| open(t)).filter_map(steps).min();
            starts.extend(g.ids().filter(|&t| open(t) && steps(t) == nearest));
        }
        starts.sort_unstable();
        starts.dedup();
        starts
    };
    starts
        .into_iter()
        .filter(|t| !taken.contains(t) && !state.flipped(*t))
        .collect()
}

pub fn place_leader(state: &mut State, t: TileId) {
    let Some((owner, _)) = next_leader(state) else {
        return;
    };
    if let Some(u) = state.unit_mut(UnitRef { owner, slot: 0 }) {
        u.tile = Some(t);
    }
    if next_leader(state).is_none() {
        if state.options.has(Variant::ShorterGame) {
            head_start(state);
        }
        super::turn::begin_game(state);
    }
}

/// 'Shorter Game': each player's last Clan starts on the crystal mine nearest its Leader.
fn head_start(state: &mut State) {
    for owner in 0..state.seats {
        let Some(from) = state.unit(UnitRef { owner, slot: 0 }).and_then(|u| u.tile) else {
            continue;
        };
        let dist = state.geometry().distances(from, |_| true);
        let mine = state
            .geometry()
            .ids()
            .filter(|&t| state.is_mine(t))
            .min_by_key(|&t| (dist.get(usize::from(t)).copied().flatten(), t));
        if let Some(u) = state.unit_mut(UnitRef { owner, slot: 6 }) {
            u.status = Status::Active;
            u.tile = mine;
        }
    }
}
