//! Quick random playouts (no conformance checks): lengths and crashes.

use super::super::{Action, GnomesAndWizards, Options, Variant};
use crate::rules::{Actor, Next, Ruleset};

fn lcg(x: &mut u64) -> u64 {
    *x = x
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *x >> 33
}

pub fn playout(options: &Options, seats: usize, seed: u64) -> (usize, String) {
    let mut rng = seed.wrapping_add(17);
    let mut state = GnomesAndWizards::new_game(options, seats).unwrap();
    for step in 0..200_000 {
        match GnomesAndWizards::next(&state) {
            Next::Over(o) => return (step, o.summary),
            Next::Chance(c) => {
                let total = c.total_weight();
                let a = c.pick(lcg(&mut rng) % total).unwrap().clone();
                GnomesAndWizards::apply(&mut state, Actor::Chance, &a).unwrap();
            }
            Next::Players(seats) => {
                assert!(!seats.is_empty(), "no seats: {:?}", state.phase);
                let seat = seats[(lcg(&mut rng) as usize) % seats.len()];
                let legal = GnomesAndWizards::legal_actions(&state, seat);
                assert!(
                    !legal.is_empty(),
                    "no legal actions for {seat} at {:?} {}",
                    state.phase,
                    super::super::prompt::prompt(&state)
                );
                let a: Action = legal[(lcg(&mut rng) as usize) % legal.len()].clone();
                GnomesAndWizards::apply(&mut state, Actor::Seat(seat), &a)
                    .unwrap_or_else(|e| panic!("{a:?}: {e}"));
            }
        }
    }
    panic!("no end after 200000 steps: {:?}", state.phase);
}

#[test]
#[ignore]
fn random_lengths() {
    let mut sets = GnomesAndWizards::option_sets();
    sets.push(Options {
        variants: vec![Variant::Fatigue],
        ..Options::default()
    });
    for options in &sets {
        for seats in GnomesAndWizards::seats(options) {
            let mut longest = 0;
            let mut total = 0;
            for seed in 0..20 {
                let (n, _) = playout(options, seats, seed);
                longest = longest.max(n);
                total += n;
            }
            println!(
                "{:?} seats {seats}: mean {} longest {longest}",
                options.variants,
                total / 20
            );
        }
    }
}

/// The policy of the scripted whole game: horns onto the Leader, draw Secret cards whenever
/// possible, cast the first listed ability in every reaction window, otherwise end each step.
fn scripted_choice(state: &super::super::State, seat: usize, legal: &[Action]) -> Action {
    let in_window = state.window.is_some();
    let pick = |f: &dyn Fn(&Action) -> bool| legal.iter().find(|a| f(a)).cloned();
    if in_window {
        return pick(&|a| matches!(a, Action::Cast(_))).unwrap_or(Action::Pass);
    }
    pick(&|a| {
        matches!(
            a,
            Action::Assign {
                face: super::super::Face::Horn,
                slot: 0
            }
        )
    })
    .or_else(|| pick(&|a| matches!(a, Action::DrawCards { .. })))
    .or_else(|| pick(&|a| *a == Action::DrawFrom(super::super::Deck::Secret)))
    .or_else(|| pick(&|a| *a == Action::KeepDice))
    .or_else(|| pick(&|a| *a == Action::EndActions))
    .or_else(|| pick(&|a| *a == Action::EndCall))
    .or_else(|| pick(&|a| *a == Action::EndCharge))
    .or_else(|| pick(&|a| !matches!(a, Action::Cast(_))))
    .unwrap_or_else(|| {
        let _ = seat;
        legal[0].clone()
    })
}

#[test]
fn a_whole_game_with_an_ability_cast_in_another_players_turn() {
    // "This phase is unique to the others because it can be played at almost any point during
    // any player's turn."
    let mut rng = 5u64;
    let mut state = GnomesAndWizards::new_game(&Options::default(), 2).unwrap();
    let mut out_of_turn = 0;
    for _ in 0..20_000 {
        match GnomesAndWizards::next(&state) {
            Next::Over(o) => {
                assert!(out_of_turn > 0, "no ability was cast out of turn");
                assert_eq!(o.scores.as_ref().map(Vec::len), Some(2));
                return;
            }
            Next::Chance(c) => {
                let a = c.pick(lcg(&mut rng) % c.total_weight()).unwrap().clone();
                GnomesAndWizards::apply(&mut state, Actor::Chance, &a).unwrap();
            }
            Next::Players(seats) => {
                let seat = seats[0];
                let legal = GnomesAndWizards::legal_actions(&state, seat);
                let a = scripted_choice(&state, seat, &legal);
                if matches!(a, Action::Cast(_)) && state.current() != Some(seat) {
                    out_of_turn += 1;
                }
                GnomesAndWizards::apply(&mut state, Actor::Seat(seat), &a).unwrap();
            }
        }
    }
    panic!("the scripted game did not end");
}
