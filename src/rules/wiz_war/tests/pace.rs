//! The wiz-war bot's pace in a test build (issues 36 and 38): seeded all-bot games at three
//! seats, timed, and the bot's choices along them fingerprinted, so that a change meant to make
//! the bot faster can show it changed no decision (the same fingerprint before and after).
//! Measurements, not checks: `cargo test --lib rules::wiz_war::tests::pace -- --ignored
//! --nocapture` (`TURNPOST_WW_GAMES` games, default 2; `TURNPOST_WW_STEPS` actions at most a
//! game, default 40,000; `TURNPOST_WW_SEATS`, default 3).

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::rules::{Registry, Waiting, weighted_index};
use crate::service::mail_sizes::measured_options;
use crate::service::pace::measure;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore = "a measurement, not a check: prints the time per seeded all-bot game"]
fn time_per_bot_game() {
    let games = setting("TURNPOST_WW_GAMES", 2);
    let steps = usize::try_from(setting("TURNPOST_WW_STEPS", 40_000)).unwrap();
    let seats = usize::try_from(setting("TURNPOST_WW_SEATS", 3)).unwrap();
    let registry = Registry::standard();
    let rules = registry.get("wiz-war").unwrap();
    let options = measured_options("wiz-war");
    let mut total = 0.0;
    for seed in 0..games {
        let start = Instant::now();
        let pace = measure(rules, &options, seats, seed, steps, &[]).unwrap();
        let took = start.elapsed().as_secs_f64();
        total += took;
        let decisions: usize = pace.decisions.iter().sum();
        println!(
            "seed {seed}: {took:.1} s, {} steps, decisions per seat {:?} ({:.1} ms a decision), ended {}",
            pace.steps,
            pace.decisions,
            took * 1000.0 / decisions.max(1) as f64,
            pace.ended
        );
    }
    println!(
        "{seats} seats: {:.1} s a game over {games} games",
        total / games.max(1) as f64
    );
}

/// FNV-1a, for a fingerprint that does not depend on the standard library's hasher.
fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
#[ignore = "a measurement, not a check: prints a fingerprint of the bot's choices"]
fn fingerprint_of_bot_choices() {
    let games = setting("TURNPOST_WW_GAMES", 2);
    let steps = setting("TURNPOST_WW_STEPS", 300);
    let seats = usize::try_from(setting("TURNPOST_WW_SEATS", 3)).unwrap();
    let registry = Registry::standard();
    let rules = registry.get("wiz-war").unwrap();
    let options = rules
        .normalise_options(&measured_options("wiz-war"))
        .unwrap();
    for seed in 0..games {
        let start = Instant::now();
        let mut state = rules.new_game(&options, seats).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut memory = crate::bots::Memory::default();
        let mut hash = 0xcbf2_9ce4_8422_2325_u64;
        let mut decisions = 0;
        for _ in 0..steps {
            match state.waiting() {
                Waiting::Over(_) => break,
                Waiting::Chance(weights) => {
                    let sum: u64 = weights.iter().map(|w| u64::from(*w)).sum();
                    let point = rng.random_range(0..sum.max(1));
                    let index = weighted_index(weights.iter().copied(), point).unwrap_or(0);
                    hash = fnv(hash, &index.to_le_bytes());
                    state.apply_chance(index).unwrap();
                }
                Waiting::Players(acting) => {
                    let seat = acting.first().copied().unwrap_or(0);
                    let action = memory.choose(state.as_ref(), seat, rng.random()).unwrap();
                    hash = fnv(hash, action.to_string().as_bytes());
                    state.apply_json(seat, &action).unwrap();
                    decisions += 1;
                }
            }
        }
        println!(
            "seed {seed}: {decisions} decisions, fingerprint {hash:016x}, {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
}

/// The answers of line of sight are shared between states whose boards see alike (the memo of
/// `sight.rs`, keyed by the board's size, links, blocking lines and filled squares): along
/// seeded random games at every seat count, with objects placed, walls destroyed and created,
/// sectors turned as the cards make them, every wizard's sight from its square to every square
/// is the same remembered as worked out afresh. A key that left out something sight depends
/// on would make two such states share wrong answers.
#[test]
fn shared_sight_answers_are_the_ones_worked_out_afresh() {
    use crate::rules::Ruleset;
    use crate::rules::wiz_war::{Options, State, WizWar};
    use crate::rules::{Actor, Next};

    let mut compared = 0usize;
    for (seats, seed) in [(2, 1u64), (3, 2), (4, 3), (3, 4)] {
        let options = WizWar::for_new_game(Options {
            round_limit: Some(30),
            ..Options::default()
        });
        let mut state: State = WizWar::new_game(&options, seats).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for step in 0..1500 {
            let (actor, action) = match WizWar::next(&state) {
                Next::Over(_) => break,
                Next::Chance(c) => {
                    let i = rng.random_range(0..c.outcomes.len());
                    (Actor::Chance, c.outcomes[i].0.clone())
                }
                Next::Players(acting) => {
                    let seat = acting[0];
                    let legal = WizWar::legal_actions(&state, seat);
                    let i = rng.random_range(0..legal.len());
                    (Actor::Seat(seat), legal[i].clone())
                }
            };
            WizWar::apply(&mut state, actor, &action).unwrap();
            if step % 7 != 0 || state.wizards.iter().any(|w| w.at.is_none() && w.alive()) {
                continue;
            }
            for seat in 0..seats {
                let Some(from) = state.pos(seat) else {
                    continue;
                };
                // Twice: the second sight of the same board answers from the memo.
                for _ in 0..2 {
                    let sight = state.sight_for(seat);
                    for &to in sight.squares() {
                        assert_eq!(
                            sight.sees(from, to),
                            sight.sees_afresh(from, to),
                            "{seats} seats, seed {seed}, step {step}: {from} to {to}"
                        );
                        compared += 1;
                    }
                }
            }
        }
    }
    assert!(compared > 10_000, "{compared} answers compared");
}
