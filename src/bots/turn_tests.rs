//! Issue 38 ("Bots that finish games"): within a turn the bot never comes back to a state it
//! decided in, and a game whose seats are all bots ends.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::table::{Bound, Table, decision_bound, play_out};
use super::tests::{decision_points, games};
use super::{DECISIONS_PER_REQUEST, Memory};
use crate::rules::{Game, GameState, Outcome, Waiting, weighted_index};

/// Applies a chance outcome drawn by weight from `rng`.
fn draw(state: &mut dyn GameState, weights: &[u32], rng: &mut ChaCha8Rng) {
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    let index = weighted_index(weights.iter().copied(), rng.random_range(0..total.max(1)))
        .expect("a chance step with outcomes");
    state.apply_chance(index).expect("a listed outcome applies");
}

/// Starting states of the property test per ruleset (the issue asks for 200).
const TURN_STARTS: usize = 200;
/// Decisions of one seat in a row beyond which its turn is taken not to end.
const TURN_CAP: usize = 300;

/// From `state`, lets the bot decide for `seat` (with a [`Memory`], as the service does)
/// until it no longer has to; fails at a state where it decided before in this run.
fn one_turn(state: &mut dyn GameState, seat: usize, seed: u64) -> Result<usize, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut memory = Memory::default();
    let mut been: Vec<Box<dyn GameState>> = Vec::new();
    for step in 0..TURN_CAP {
        match state.waiting() {
            Waiting::Over(_) => return Ok(step),
            Waiting::Chance(weights) => draw(state, &weights, &mut rng),
            Waiting::Players(seats) if !seats.contains(&seat) => return Ok(step),
            Waiting::Players(_) => {
                if been.iter().any(|b| b.same_state(state)) {
                    return Err(format!("back at a state of this turn after {step} steps"));
                }
                been.push(state.clone_box());
                let action = memory
                    .choose(state, seat, seed ^ (step as u64).rotate_left(32))
                    .ok_or("the bot found nothing")?;
                state
                    .apply_json(seat, &action)
                    .map_err(|e| format!("{action}: {e}"))?;
            }
        }
    }
    Err(format!("the turn did not end within {TURN_CAP} decisions"))
}

/// Issue 38: "Within one turn the bot never returns to a state it has already been in (take
/// back, start again), whatever the evaluation says." From 200 decision points of random
/// games (every seat count), the bot plays the deciding seat's turn out; it never decides
/// twice in the same state. Before, the bag-of-fate bot turned in a set and stopped turning
/// it in, over and over.
fn the_bot_never_comes_back_within_a_turn(id: &str) {
    let registry = games();
    let game = registry.get(id).unwrap();
    let seats = game.seats(&Value::Null).unwrap();
    let counts: Vec<usize> = seats.filter(|&n| n >= 2).collect();
    let mut starts = Vec::new();
    let mut seed = 0u64;
    while starts.len() < TURN_STARTS {
        let n = counts[seed as usize % counts.len()];
        starts.extend(decision_points(game, n, seed, 7).into_iter().take(10));
        seed += 1;
    }
    let mut failed = Vec::new();
    for (i, (mut state, seat)) in starts.into_iter().take(TURN_STARTS).enumerate() {
        if let Err(e) = one_turn(state.as_mut(), seat, i as u64) {
            failed.push(format!("start {i}: {e}"));
        }
    }
    assert!(failed.is_empty(), "{id}: {}", failed.join("; "));
}

#[test]
fn the_bot_never_comes_back_within_a_turn_at_bag_of_fate() {
    the_bot_never_comes_back_within_a_turn("bag-of-fate");
}

#[test]
fn the_bot_never_comes_back_within_a_turn_at_garden_gnomes() {
    the_bot_never_comes_back_within_a_turn("garden-gnomes");
}

#[test]
fn the_bot_never_comes_back_within_a_turn_at_wiz_war() {
    the_bot_never_comes_back_within_a_turn("wiz-war");
}

#[test]
fn the_bot_never_comes_back_within_a_turn_at_monsters_and_magic() {
    the_bot_never_comes_back_within_a_turn("monsters-and-magic");
}

#[test]
fn the_bot_never_comes_back_within_a_turn_at_gnomes_and_wizards() {
    the_bot_never_comes_back_within_a_turn("gnomes-and-wizards");
}

/// A game of `seats` with the bot in every seat, from `seed`, played as the service plays
/// it: a new [`Memory`] every [`DECISIONS_PER_REQUEST`] decisions (each request, and each
/// round of the worker, starts afresh). The outcome and the decisions it took, or an error
/// past `max_decisions`.
pub(super) fn bot_game(
    game: &dyn Game,
    options: &Value,
    seats: usize,
    seed: u64,
    max_decisions: usize,
) -> Result<(Outcome, usize), String> {
    let mut state = game.new_game(options, seats).map_err(|e| e.to_string())?;
    let mut table = AllBots {
        rng: ChaCha8Rng::seed_from_u64(seed),
        memory: Memory::default(),
        decisions: 0,
        seed,
    };
    let played = play_out(state.as_mut(), &mut table, Bound::Decisions(max_decisions))?;
    match played.outcome {
        Some(outcome) => Ok((outcome, played.decisions)),
        None => Err(format!("no end within {max_decisions} decisions")),
    }
}

/// The bot in every seat; chance, and which of several acting seats goes first, drawn from
/// one generator.
struct AllBots {
    rng: ChaCha8Rng,
    memory: Memory,
    decisions: usize,
    seed: u64,
}

impl Table for AllBots {
    fn chance(&mut self, _step: u64, weights: &[u32]) -> Option<usize> {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        weighted_index(
            weights.iter().copied(),
            self.rng.random_range(0..total.max(1)),
        )
    }

    fn decide(
        &mut self,
        state: &dyn GameState,
        acting: &[usize],
        step: u64,
    ) -> Result<(usize, Value), String> {
        let seat = acting[self.rng.random_range(0..acting.len())];
        if self.decisions.is_multiple_of(DECISIONS_PER_REQUEST) {
            self.memory = Memory::default();
        }
        self.decisions += 1;
        let action = self
            .memory
            .choose(state, seat, self.seed ^ step.rotate_left(32))
            .ok_or_else(|| format!("the bot found nothing for seat {seat}"))?;
        Ok((seat, action))
    }
}

/// Issue 38: "For every ruleset, seat count and the options a game can be created with, a
/// game whose seats are all bots ends within a documented bound of decisions." A few seeds
/// per seat count (`BOT_GAMES=20` for the twenty; `cargo bench --bench bots` does
/// not play whole games), with the default options: wiz-war without a round limit.
fn every_game_of_bots_ends(id: &str, default_games: u64) {
    let registry = games();
    let game = registry.get(id).unwrap();
    let n: u64 = std::env::var("BOT_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default_games);
    let bound = decision_bound(id);
    let mut failed = Vec::new();
    for seats in game.seats(&Value::Null).unwrap() {
        for seed in 0..n {
            if let Err(e) = bot_game(game, &Value::Null, seats, seed, bound) {
                failed.push(format!("{seats} seats, seed {seed}: {e}"));
            }
        }
    }
    assert!(failed.is_empty(), "{id}: {}", failed.join("; "));
}

#[test]
fn every_game_of_bots_ends_at_bag_of_fate() {
    every_game_of_bots_ends("bag-of-fate", 6);
}

#[test]
fn every_game_of_bots_ends_at_garden_gnomes() {
    every_game_of_bots_ends("garden-gnomes", 3);
}

#[test]
fn every_game_of_bots_ends_at_wiz_war() {
    every_game_of_bots_ends("wiz-war", 2);
}

#[test]
fn every_game_of_bots_ends_at_monsters_and_magic() {
    every_game_of_bots_ends("monsters-and-magic", 1);
}

#[test]
fn every_game_of_bots_ends_at_gnomes_and_wizards() {
    every_game_of_bots_ends("gnomes-and-wizards", 1);
}

#[test]
#[ignore = "exploration: cargo test --lib bots::turn_tests::measure -- --ignored --nocapture"]
fn measure() {
    let registry = games();
    let only = std::env::var("ONLY").unwrap_or_default();
    let n_games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let max: usize = std::env::var("MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    for game in registry.all() {
        if !only.is_empty() && game.id() != only {
            continue;
        }
        for seats in game.seats(&Value::Null).unwrap() {
            let started = std::time::Instant::now();
            let mut lens = Vec::new();
            for seed in 0..n_games {
                match bot_game(game, &Value::Null, seats, seed, max) {
                    Ok((_, d)) => lens.push(d.to_string()),
                    Err(e) => lens.push(e),
                }
            }
            println!(
                "{} {seats}: [{}] {:?}",
                game.id(),
                lens.join(", "),
                started.elapsed()
            );
        }
    }
}

#[test]
#[ignore = "exploration: ONLY=<id> SEATS=<n> SEED=<n> cargo test --lib bots::turn_tests::trace -- --ignored --nocapture"]
fn trace() {
    let registry = games();
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let id = std::env::var("ONLY").unwrap_or_else(|_| "wiz-war".into());
    let game = registry.get(&id).unwrap();
    let (seats, seed) = (env("SEATS", 2) as usize, env("SEED", 0));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = game.new_game(&Value::Null, seats).unwrap();
    let mut memory = Memory::default();
    let mut kinds: std::collections::BTreeMap<String, usize> = Default::default();
    for step in 0..env("MAX", 6_000) {
        match state.waiting() {
            Waiting::Over(o) => {
                println!("over at {step}: {}", o.summary);
                return;
            }
            Waiting::Chance(weights) => draw(state.as_mut(), &weights, &mut rng),
            Waiting::Players(acting) => {
                let seat = acting[rng.random_range(0..acting.len())];
                if step % DECISIONS_PER_REQUEST as u64 == 0 {
                    memory = Memory::default();
                }
                let action = memory
                    .choose(state.as_ref(), seat, seed ^ step.rotate_left(32))
                    .unwrap();
                let kind = match &action {
                    Value::Object(m) => m.keys().next().cloned().unwrap_or_default(),
                    other => other.to_string(),
                };
                *kinds.entry(kind).or_default() += 1;
                state.apply_json(seat, &action).unwrap();
            }
        }
        if step % 1000 == 999 {
            let evals: Vec<i64> = (0..seats).map(|s| state.evaluate(s)).collect();
            println!("step {step}: evals {evals:?} kinds {kinds:?}");
            kinds.clear();
        }
    }
    println!("{}", state.view(crate::rules::Viewer::Spectator));
}
