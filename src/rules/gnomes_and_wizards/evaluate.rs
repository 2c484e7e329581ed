//! How well a seat stands, for the built-in bots (`Ruleset::evaluate`; docs/BOTS.md).
//!
//! The game's own score comes first (HP of the active units, 20 per Clan and 30 per Leader
//! defeated), then what wins points later: active units, defense, horns, crystals and charges,
//! ability cards (by count: the others' hands are secret), dice still to use, and a little for
//! standing near an enemy (to attack) and, once tiles crumble, on a Crystal Mine. A side's
//! standing is weighed against the rivals' ([`lead`]); in team play a side is the team. The
//! solo player counts towards the two objectives: enemy units defeated and own units active.
//! Reaction windows still open are first closed as if everyone passed.

use super::Variant;
use super::actions::{self, Action};
use super::state::{State, Status, UnitRef};
use crate::rules::{Next, Seat, WIN, after_passes, lead, outcome_value};

/// A point of the game's score.
const POINT: i64 = 3_000;
const ACTIVE_UNIT: i64 = 8_000;
const DEFENSE: i64 = 1_500;
const HORN: i64 = 1_500;
const CRYSTAL: i64 = 1_000;
const CHARGE: i64 = 1_500;
const CARD: i64 = 3_000;
const FREE_DIE: i64 = 800;
const STEP_TO_ENEMY: i64 = 400;
/// Steps counted at most to the nearest enemy.
const FAR: i64 = 8;
/// On a Crystal Mine once tiles start to crumble (round 6).
const ON_MINE: i64 = 2_000;
const CRUMBLING_FROM: u8 = 6;
const ELIMINATED: i64 = -300_000;
/// The solo objectives: each enemy unit defeated and each own unit active.
const OBJECTIVE_UNIT: i64 = 60_000;

pub fn evaluate(state: &State, seat: Seat) -> i64 {
    let state = after_passes::<super::GnomesAndWizards>(
        state,
        |s: &State| s.window.as_ref().and_then(|w| w.waiting.first().copied()),
        &Action::Pass,
    );
    if let Next::Over(outcome) = actions::next(&state) {
        return outcome_value(&outcome.winners, seat);
    }
    if state.solo() {
        return solo(&state).clamp(-(WIN - 1), WIN - 1);
    }
    let team = state.options.has(Variant::TeamPlay);
    let side = |s: Seat| if team { s % 2 } else { s };
    let side_value = |of: Seat| -> i64 {
        (0..state.seats)
            .filter(|&s| side(s) == side(of))
            .map(|s| standing(&state, s))
            .sum()
    };
    let mut rivals: Vec<Seat> = (0..state.seats)
        .filter(|&s| side(s) != side(seat))
        .map(side)
        .collect();
    rivals.dedup();
    lead(side_value(seat), rivals.into_iter().map(side_value))
}

fn standing(state: &State, owner: usize) -> i64 {
    let Some(p) = state.player(owner) else {
        return 0;
    };
    let mut value = state.score(owner) * POINT
        + i64::from(p.reserve) * CRYSTAL
        + i64::try_from(p.hand.len()).unwrap_or(0) * CARD;
    if p.eliminated {
        return value + ELIMINATED;
    }
    let crumbling = state.round >= CRUMBLING_FROM;
    for u in p.units.iter().filter(|u| u.on_board()) {
        value += ACTIVE_UNIT
            + i64::from(u.defense) * DEFENSE
            + i64::from(u.horns) * HORN
            + i64::from(u.innate_charge.saturating_add(u.learned_charge)) * CHARGE
            + i64::from(u.free_dice()) * FREE_DIE
            + i64::from(u.learned.is_some()) * CARD;
        let Some(tile) = u.tile else { continue };
        if crumbling && state.is_mine(tile) {
            value += ON_MINE;
        }
        value -= STEP_TO_ENEMY * nearest_enemy(state, owner, tile);
    }
    value
}

/// Steps from `tile` to the nearest enemy unit of `owner` (at most [`FAR`]).
fn nearest_enemy(state: &State, owner: usize, tile: super::TileId) -> i64 {
    let steps = state.geometry().distances(tile, |_| true);
    state
        .units_on_board()
        .into_iter()
        .filter(|u| !state.allied(u.owner, owner))
        .filter_map(|u| state.unit(u).and_then(|u| u.tile))
        .filter_map(|t| steps.get(usize::from(t)).copied().flatten())
        .map(i64::from)
        .min()
        .unwrap_or(FAR)
        .min(FAR)
}

/// The solo player (seat 0) against the automaton: "Defeat all 7 enemy units; have all 7
/// units active", with the score and the automaton's strength after them.
fn solo(state: &State) -> i64 {
    let units = |owner: usize, status: Status| {
        state.player(owner).map_or(0, |p| {
            i64::try_from(p.units.iter().filter(|u| u.status == status).count()).unwrap_or(0)
        })
    };
    let active = state.player(0).map_or(0, |p| {
        i64::try_from(p.units.iter().filter(|u| u.on_board()).count()).unwrap_or(0)
    });
    let enemy_hp: i64 = state
        .units_on_board()
        .into_iter()
        .filter(|u| u.owner == 1)
        .filter_map(|u: UnitRef| state.unit(u))
        .map(|u| i64::from(u.hp))
        .sum();
    OBJECTIVE_UNIT * (units(1, Status::Defeated) + active) + standing(state, 0) - enemy_hp * POINT
}
