//! How well a seat stands, for the built-in bots (`Ruleset::evaluate`; docs/BOTS.md).
//!
//! A wizard's standing: its victory points, its life, its cards (hand, items and spells, by
//! count: the others' hands are secret), its stun, and the way to a victory point: carrying an
//! enemy treasure, the steps still to go home with it, or else the steps to the nearest enemy
//! treasure lying loose, and a little for being near an enemy wizard. Steps are counted through
//! the labyrinth as that wizard may walk (walls, doors, wraparound, portals). A dead wizard is
//! out of the game. The seat's standing is weighed against its rivals' ([`lead`]). Spells
//! waiting for answers are first resolved as if everyone passed.

use std::collections::VecDeque;

use super::actions::Action;
use super::board::{Dir, Pos};
use super::state::{Phase, State};
use crate::rules::{Seat, WIN, after_passes, lead, outcome_value};

/// A victory point (two win).
const POINT: i64 = 250_000;
const LIFE: i64 = 6_000;
const CARD: i64 = 5_000;
const STUN: i64 = 10_000;
/// Carrying an enemy treasure, less [`STEP_HOME`] a step still to go.
const CARRYING: i64 = 90_000;
const STEP_HOME: i64 = 6_000;
const STEP_TO_TREASURE: i64 = 3_000;
const STEP_TO_ENEMY: i64 = 500;
/// Steps counted at most (a square out of reach counts this far): the widest labyrinth's
/// walks, so that the way to a far treasure or enemy still shows which step is nearer.
const FAR: i64 = 40;
/// The hunt: what each step nearer the nearest enemy wizard is worth to the wizard itself
/// (not weighed against the rivals', where it would cancel out: two wizards are as near to
/// each other), growing from [`STEP_TO_ENEMY`] to this in [`HUNT_ROUNDS`] rounds. Without it
/// two bots waited each other out: a two-seat game without a round limit ran past 12,000
/// steps (issue 38). A player who waits forever is not playing to win.
const HUNT: i64 = 4_000;
const HUNT_ROUNDS: i64 = 12;
const DEAD: i64 = -400_000;

pub fn evaluate(state: &State, seat: Seat) -> i64 {
    let state = after_passes::<super::WizWar>(
        state,
        |s: &State| s.stack.last().and_then(|top| top.waiting.first().copied()),
        &Action::Pass,
    );
    if let Phase::Over { winners, .. } = &state.phase {
        return outcome_value(winners, seat);
    }
    // Each wizard's steps, worked out once: its standing and the seat's hunt use them.
    let steps: Vec<Option<Steps>> = (0..state.seats())
        .map(|s| state.pos(s).map(|at| distances(&state, s, at)))
        .collect();
    let steps_of = |s: Seat| steps.get(s).and_then(Option::as_ref);
    let others = (0..state.seats())
        .filter(|&s| s != seat)
        .map(|s| standing(&state, s, steps_of(s)));
    let lead = lead(standing(&state, seat, steps_of(seat)), others);
    lead.saturating_sub(hunt(&state, seat, steps_of(seat)))
        .clamp(-(WIN - 1), WIN - 1)
}

/// The seat's own hunt ([`HUNT`]): its steps to the nearest living enemy wizard, at the price
/// of the round; `steps`: its steps from where it stands ([`distances`]), none if it is not
/// on the board.
fn hunt(state: &State, seat: Seat, steps: Option<&Steps>) -> i64 {
    let Some(steps) = steps else {
        return 0;
    };
    let round = i64::from(state.turn.round).min(HUNT_ROUNDS);
    let per_step = STEP_TO_ENEMY + (HUNT - STEP_TO_ENEMY) * round / HUNT_ROUNDS;
    let enemy = state
        .living()
        .into_iter()
        .filter(|&s| s != seat)
        .filter_map(|s| state.pos(s))
        .map(|p| steps.get(p).unwrap_or(FAR).min(FAR))
        .min()
        .unwrap_or(0);
    per_step * enemy
}

/// `steps`: the wizard's steps from where it stands ([`distances`]), none if it is not on the
/// board.
fn standing(state: &State, seat: Seat, steps: Option<&Steps>) -> i64 {
    let Some(w) = state.wizard(seat) else {
        return 0;
    };
    let points = i64::from(state.points(seat)) * POINT;
    let (Some(_), Some(steps)) = (w.at, steps) else {
        return points + DEAD;
    };
    let mut value = points
        + i64::from(w.life) * LIFE
        + i64::try_from(state.hand_total(seat)).unwrap_or(0) * CARD
        - i64::from(w.stun) * STUN;
    let to = |p: Pos| steps.get(p).unwrap_or(FAR).min(FAR);
    let carried = w
        .treasure
        .and_then(|t| state.treasures.get(t))
        .filter(|t| t.owner != seat);
    match (carried, state.board.home(seat)) {
        (Some(_), Some(home)) => value += CARRYING - STEP_HOME * to(home),
        _ => {
            // Loose enemy treasures, not yet in anyone's home base.
            let nearest = state
                .treasures
                .iter()
                .filter(|t| t.owner != seat)
                .filter_map(|t| t.at)
                .filter(|&p| state.board.home_of(p).is_none())
                .map(to)
                .min()
                .unwrap_or(FAR);
            value -= STEP_TO_TREASURE * nearest;
        }
    }
    let enemy = state
        .living()
        .into_iter()
        .filter(|&s| s != seat)
        .filter_map(|s| state.pos(s))
        .map(to)
        .min()
        .unwrap_or(FAR);
    value - STEP_TO_ENEMY * enemy
}

/// Steps from `from` to every square, walking as `seat` may.
struct Steps {
    width: i64,
    steps: Vec<Option<i64>>,
}

impl Steps {
    fn get(&self, p: Pos) -> Option<i64> {
        let i = usize::try_from(i64::from(p.1) * self.width + i64::from(p.0)).ok()?;
        self.steps.get(i).copied().flatten()
    }

    fn set(&mut self, p: Pos, n: i64) -> bool {
        let Ok(i) = usize::try_from(i64::from(p.1) * self.width + i64::from(p.0)) else {
            return false;
        };
        match self.steps.get_mut(i) {
            Some(slot @ None) => {
                *slot = Some(n);
                true
            }
            _ => false,
        }
    }
}

fn distances(state: &State, seat: Seat, from: Pos) -> Steps {
    let width = i64::from(state.board.width);
    let size = usize::try_from(width * i64::from(state.board.height)).unwrap_or(0);
    let mut steps = Steps {
        width,
        steps: vec![None; size],
    };
    steps.set(from, 0);
    let walker = state.walker(seat);
    let mut queue = VecDeque::from([(from, 0)]);
    while let Some((p, n)) = queue.pop_front() {
        if n >= FAR {
            continue;
        }
        for d in Dir::ALL {
            let Some((q, _)) = state.board.across(p, d) else {
                continue;
            };
            // A square already reached needs no second look at its line.
            if steps.get(q).is_none()
                && walker.may_cross(state, p, d)
                && !state.blocks_entry(q)
                && steps.set(q, n + 1)
            {
                queue.push_back((q, n + 1));
            }
        }
    }
    steps
}
