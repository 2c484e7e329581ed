//! How well a seat stands, for the built-in bots (`Ruleset::evaluate`; docs/BOTS.md).
//!
//! The four ways to win are all about the board: spaces controlled (the most at the end, or
//! Garrisons in 33), Temples (5 win) and the units to take and hold them. A seat's standing:
//! its spaces, its Temples (more for the fourth and fifth), its figures, the structure types
//! it holds five of (their bonuses), and its hand by count (the others' hands are secret); a
//! seat without units is out. A fight in progress counts as its three endings (the attacker
//! wins, the defender wins, both fall) weighed by their chances from both sides' force and
//! the 2D6 still to roll. The seat's standing is weighed against its rivals' ([`lead`]).

use super::actions::Action;
use super::combat::{force, remove_fallen, sides};
use super::data::{DECLARE_AT, Structure};
use super::state::{Combat, Phase, State};
use crate::rules::{Seat, WIN, lead, outcome_value};

const SPACE: i64 = 8_000;
const TEMPLE: i64 = 12_000;
/// Added for the fourth Temple held, and again for the fifth (five win).
const TEMPLE_CLOSE: i64 = 60_000;
const FIGURE: i64 = 20_000;
const STRUCTURE_BONUS: i64 = 15_000;
const CARD: i64 = 4_000;
const OUT: i64 = -400_000;

pub fn evaluate(state: &State, seat: Seat) -> i64 {
    if let Phase::Over(outcome) = &state.phase {
        return outcome_value(&outcome.winners, seat);
    }
    match &state.phase {
        Phase::Combat(combat) => fight(state, combat, seat),
        _ => steady(state, seat),
    }
}

fn steady(state: &State, seat: Seat) -> i64 {
    let others = (0..state.seats())
        .filter(|&s| s != seat)
        .map(|s| standing(state, s));
    lead(standing(state, seat), others)
}

fn standing(state: &State, seat: Seat) -> i64 {
    if !state.has_units(seat) {
        return OUT;
    }
    let temples = i64::try_from(state.structures_occupied(seat, Structure::Temple)).unwrap_or(0);
    let close = (temples - (i64::try_from(DECLARE_AT).unwrap_or(5) - 2)).clamp(0, 2);
    let figures = state.figures.iter().filter(|f| f.owner == seat).count();
    let hand = state.players.get(seat).map_or(0, |p| p.hand.len());
    i64::try_from(state.spaces_controlled(seat)).unwrap_or(0) * SPACE
        + temples * TEMPLE
        + close * TEMPLE_CLOSE
        + i64::try_from(figures).unwrap_or(0) * FIGURE
        + i64::try_from(state.declarable(seat).len()).unwrap_or(0) * STRUCTURE_BONUS
        + i64::try_from(hand).unwrap_or(0) * CARD
}

/// A fight in progress: its endings weighed by their chances.
fn fight(state: &State, combat: &Combat, seat: Seat) -> i64 {
    let Some((attacker, defender)) = sides(state, combat) else {
        return steady(state, seat);
    };
    let (attack, defence) = (force(state, &attacker), force(state, &defender));
    // Chances in 1296ths (two 2D6 rolls), 36ths once the attacker has rolled, 1 once both have.
    let (mut wins, mut ties, mut losses) = (0i64, 0i64, 0i64);
    let attack_rolls: Vec<(u8, i64)> = match combat.attack_roll {
        Some(roll) => vec![(roll, 1)],
        None => two_dice(),
    };
    let defence_rolls: Vec<(u8, i64)> = match combat.defence_roll {
        Some(roll) => vec![(roll, 1)],
        None => two_dice(),
    };
    for (a, wa) in &attack_rolls {
        for &(d, wd) in &defence_rolls {
            let (at, de) = (i32::from(*a) + attack, i32::from(d) + defence);
            let w = wa * wd;
            match at.cmp(&de) {
                std::cmp::Ordering::Greater => wins += w,
                std::cmp::Ordering::Equal => ties += w,
                std::cmp::Ordering::Less => losses += w,
            }
        }
    }
    let ending = |attacker_falls: bool, defender_falls: bool| -> i64 {
        let mut after = state.clone();
        remove_fallen(&mut after, combat, attacker_falls, defender_falls);
        steady(&after, seat)
    };
    let total = (wins + ties + losses).max(1);
    let value = (i128::from(wins) * i128::from(ending(false, true))
        + i128::from(ties) * i128::from(ending(true, true))
        + i128::from(losses) * i128::from(ending(true, false)))
        / i128::from(total);
    i64::try_from(value).unwrap_or(0).clamp(-(WIN - 1), WIN - 1)
}

/// The sums of 2D6 with their weights in 36ths.
fn two_dice() -> Vec<(u8, i64)> {
    super::actions::two_dice()
        .outcomes
        .into_iter()
        .filter_map(|(roll, w)| match roll {
            Action::Roll2d6(sum) => Some((sum, i64::from(w))),
            _ => None,
        })
        .collect()
}
