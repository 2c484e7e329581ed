//! The built-in bot's speed (issue 16: "under 50 ms per decision on this machine for every
//! ruleset"), one group per ruleset.
//!
//! For each ruleset, at the seat count the service most often sees (the fewest it allows, at
//! least 2, and 4 where allowed), random games from fixed seeds are played and every decision
//! with more than one legal action is kept, up to [`DECISIONS`] spread over whole games (early,
//! middle and late positions alike). The bench `decision` times `bots::choose` on each of them
//! in turn: criterion's figure divided by [`DECISIONS`] is the mean time of one decision
//! (criterion prints it as `thrpt` in elements/s, an element being one decision). The slowest
//! single decision among them is timed separately and printed once.
//!
//! `cargo bench --bench bots` (add `-- <ruleset>` to run one group). Figures in
//! docs/BENCHMARKS.md.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use turnpost::bots;
use turnpost::rules::{Game, GameState, Registry, Seat, Waiting, weighted_index};

/// Decisions timed per ruleset.
const DECISIONS: usize = 60;
/// Seeds of the random games the decisions are taken from.
const GAMES: u64 = 6;
/// A bound on any one random game.
const MAX_STEPS: usize = 100_000;

/// Seat counts benchmarked: two-seat games and four-seat games where the ruleset allows them.
fn seat_counts(game: &dyn Game) -> Vec<usize> {
    let Ok(range) = game.seats(&Value::Null) else {
        return Vec::new();
    };
    let mut counts: Vec<usize> = [2, 4]
        .into_iter()
        .map(|n| n.clamp(*range.start(), *range.end()))
        .collect();
    counts.dedup();
    counts
}

/// Decision points (a state and the seat that decides there) of random games, every
/// `stride`-th one with more than one legal action.
fn decisions(game: &dyn Game, seats: usize) -> Vec<(Box<dyn GameState>, Seat)> {
    let mut all = Vec::new();
    for seed in 0..GAMES {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let Ok(mut state) = game.new_game(&Value::Null, seats) else {
            panic!("{}: new_game refused the default options", game.id());
        };
        for _ in 0..MAX_STEPS {
            match state.waiting() {
                Waiting::Over(_) => break,
                Waiting::Chance(weights) => {
                    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
                    let point = rng.random_range(0..total.max(1));
                    let Some(index) = weighted_index(weights, point) else {
                        panic!("{}: a chance step without outcomes", game.id())
                    };
                    if let Err(e) = state.apply_chance(index) {
                        panic!("{}: a chance outcome failed: {e}", game.id());
                    }
                }
                Waiting::Players(acting) => {
                    let seat = acting[rng.random_range(0..acting.len())];
                    let legal = state.legal_actions(seat);
                    if legal.len() > 1 {
                        all.push((state.clone_box(), seat));
                    }
                    let action = legal[rng.random_range(0..legal.len())].action.clone();
                    if let Err(e) = state.apply_json(seat, &action) {
                        panic!("{}: a listed action failed: {e}", game.id());
                    }
                }
            }
        }
    }
    let stride = (all.len() / DECISIONS).max(1);
    all.into_iter().step_by(stride).take(DECISIONS).collect()
}

fn bench_game(c: &mut Criterion, game: &dyn Game) {
    for seats in seat_counts(game) {
        let points = decisions(game, seats);
        let mut slowest = (Duration::ZERO, 0usize);
        for (i, (state, seat)) in points.iter().enumerate() {
            let started = Instant::now();
            black_box(bots::choose(state.as_ref(), *seat, i as u64));
            slowest = slowest.max((started.elapsed(), i));
        }
        let legal = points
            .get(slowest.1)
            .map_or(0, |(state, seat)| state.legal_actions(*seat).len());
        println!(
            "{} ({seats} seats): {} decisions; the slowest took {:.2?} ({legal} legal actions)",
            game.id(),
            points.len(),
            slowest.0
        );
        let mut group = c.benchmark_group(format!("{}/{seats}-seats", game.id()));
        group.throughput(Throughput::Elements(points.len() as u64));
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(10));
        group.bench_function("decision", |b| {
            b.iter(|| {
                for (i, (state, seat)) in points.iter().enumerate() {
                    black_box(bots::choose(state.as_ref(), *seat, i as u64));
                }
            })
        });
        group.finish();
    }
}

fn bots(c: &mut Criterion) {
    let registry = Registry::standard();
    for game in registry.all() {
        bench_game(c, game);
    }
}

criterion_group!(benches, bots);
criterion_main!(benches);
