//! Rules-engine benchmarks (issue 7), one group per ruleset:
//!
//! - `playout`: random playouts from fixed seeds, counted in actions (player actions and chance
//!   steps alike; each costs a `next`, a `legal_actions` for the acting seat or the chance
//!   outcomes, and an `apply`). Throughput is actions per second on one core.
//! - `state`: a mid-game state (half-way through seed 0's playout): `clone`, serialise to JSON
//!   (what the service stores as the snapshot) and deserialise (what each submission loads).
//!   The snapshot's size in bytes is printed once.
//! - `fold`: folding a 10,000-entry log from `new_game` (`turnpost replay`'s work). A ruleset
//!   whose games end sooner folds consecutive games' logs until 10,000 entries are applied.
//!
//! Each ruleset is benchmarked with its default options (the first of its option sets);
//! wiz-war also with the schools added in issue 17 (Conjuring, Mutation and Thaumaturgy), as
//! group `wiz-war-conjuring-mutation-thaumaturgy`.
//!
//! `cargo bench --bench engine` (add `-- <ruleset>` to run one group; `-- wiz-war` runs both
//! wiz-war groups). Figures in docs/BENCHMARKS.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use turnpost::rules::{
    Actor, Next, Ruleset,
    bag_of_fate::BagOfFate,
    garden_gnomes::GardenGnomes,
    gnomes_and_wizards::GnomesAndWizards,
    monsters_and_magic::MonstersAndMagic,
    wiz_war::{self, School, WizWar},
};

/// Entries folded by the `fold` bench.
const FOLD_ENTRIES: usize = 10_000;
/// A bound on any one benchmarked playout (every ruleset's games end far sooner).
const MAX_STEPS: usize = 100_000;

/// The seat count benchmarked: four, or the most the ruleset allows if fewer.
fn seats<R: Ruleset>(options: &R::Options) -> usize {
    let range = R::seats(options);
    4.clamp(*range.start(), *range.end())
}

/// Plays one random game from `seed`, calling `each` with every applied action.
fn playout<R: Ruleset>(
    options: &R::Options,
    seats: usize,
    seed: u64,
    mut each: impl FnMut(&R::State, Actor, &R::Action),
) -> R::State {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let Ok(mut state) = R::new_game(options, seats) else {
        panic!("{}: new_game refused the options", R::ID);
    };
    for _ in 0..MAX_STEPS {
        let (actor, action) = match R::next(&state) {
            Next::Over(_) => return state,
            Next::Players(acting) => {
                let Some(&seat) = acting.choose(&mut rng) else {
                    panic!("{}: no seat to act", R::ID)
                };
                let legal = R::legal_actions(&state, seat);
                let Some(action) = legal.choose(&mut rng) else {
                    panic!("{}: seat {seat} has no legal action", R::ID)
                };
                (Actor::Seat(seat), action.clone())
            }
            Next::Chance(chance) => {
                let point = rng.random_range(0..chance.total_weight());
                let Some(action) = chance.pick(point) else {
                    panic!("{}: chance step without outcomes", R::ID)
                };
                (Actor::Chance, action.clone())
            }
        };
        if let Err(e) = R::apply(&mut state, actor, &action) {
            panic!("{}: a listed action failed: {e:?}", R::ID);
        }
        each(&state, actor, &action);
    }
    panic!("{}: a playout ran past {MAX_STEPS} steps", R::ID);
}

/// The ruleset's default options: the first of its option sets.
fn bench_ruleset<R: Ruleset>(c: &mut Criterion) {
    let options = R::option_sets().into_iter().next().unwrap_or_default();
    bench_options::<R>(c, R::ID, &options);
}

fn bench_options<R: Ruleset>(c: &mut Criterion, name: &str, options: &R::Options) {
    let seats = seats::<R>(options);
    let mut group = c.benchmark_group(name);
    group.measurement_time(Duration::from_secs(4));
    group.warm_up_time(Duration::from_secs(1));

    // Playouts: a fixed batch of seeds whose total length is known, so throughput is exact.
    let seeds: Vec<u64> = (0..8).collect();
    let actions: usize = seeds
        .iter()
        .map(|&s| {
            let mut n = 0;
            playout::<R>(options, seats, s, |_, _, _| n += 1);
            n
        })
        .sum();
    group.throughput(Throughput::Elements(actions as u64));
    group.bench_function(format!("playout/{seats}-seats/{actions}-actions"), |b| {
        b.iter(|| {
            for &s in &seeds {
                black_box(playout::<R>(options, seats, s, |_, _, _| {}));
            }
        })
    });

    // A mid-game state.
    let mut length = 0;
    playout::<R>(options, seats, 0, |_, _, _| length += 1);
    let mut mid = None;
    let mut step = 0;
    playout::<R>(options, seats, 0, |state, _, _| {
        step += 1;
        if step == length / 2 {
            mid = Some(state.clone());
        }
    });
    let Some(mid) = mid else {
        panic!("{}: seed 0's game is too short for a mid-game state", name)
    };
    let json = serde_json::to_vec(&mid).unwrap_or_default();
    println!(
        "{}: mid-game state (step {} of {length}, {seats} seats): {} bytes of JSON",
        name,
        length / 2,
        json.len()
    );
    group.throughput(Throughput::Bytes(json.len() as u64));
    group.bench_function("state/clone", |b| b.iter(|| black_box(mid.clone())));
    group.bench_function("state/serialise", |b| {
        b.iter(|| black_box(serde_json::to_vec(&mid).unwrap_or_default()))
    });
    group.bench_function("state/deserialise", |b| {
        b.iter(|| black_box(serde_json::from_slice::<R::State>(&json).ok()))
    });

    // Folding: logs of consecutive seeds until FOLD_ENTRIES entries.
    let mut logs: Vec<Vec<(Actor, R::Action)>> = Vec::new();
    let mut total = 0;
    let mut seed = 1_000;
    while total < FOLD_ENTRIES {
        let mut log = Vec::new();
        playout::<R>(options, seats, seed, |_, actor, action| {
            if total + log.len() < FOLD_ENTRIES {
                log.push((actor, action.clone()));
            }
        });
        total += log.len();
        logs.push(log);
        seed += 1;
    }
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function(format!("fold/{total}-entries/{}-games", logs.len()), |b| {
        b.iter(|| {
            for log in &logs {
                let Ok(mut state) = R::new_game(options, seats) else {
                    panic!("new_game")
                };
                for (actor, action) in log {
                    if R::apply(&mut state, *actor, action).is_err() {
                        panic!("{}: the log does not refold", name);
                    }
                }
                black_box(state);
            }
        })
    });
    group.finish();
}

fn engines(c: &mut Criterion) {
    bench_ruleset::<BagOfFate>(c);
    bench_ruleset::<GardenGnomes>(c);
    bench_ruleset::<WizWar>(c);
    // The schools of issue 17, with the default options' round limit (random play rarely
    // scores 2 points).
    bench_options::<WizWar>(
        c,
        "wiz-war-conjuring-mutation-thaumaturgy",
        &wiz_war::Options {
            schools: vec![School::Conjuring, School::Mutation, School::Thaumaturgy],
            round_limit: Some(wiz_war::CONFORMANCE_ROUND_LIMIT),
            ..wiz_war::Options::default()
        },
    );
    bench_ruleset::<MonstersAndMagic>(c);
    bench_ruleset::<GnomesAndWizards>(c);
}

criterion_group!(benches, engines);
criterion_main!(benches);
