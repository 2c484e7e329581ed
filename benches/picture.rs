//! The board picture of the HTML mail (issue 15) and its cost to the mail worker (issue 14):
//! for each ruleset, the acting seat's pictures along random games of fixed seeds, each
//! rendered as the worker renders it (`notify::picture::mail_png`: SVG → resvg → palette PNG).
//!
//! `cargo bench --bench picture` prints, per ruleset, the mean and slowest time to render one
//! picture and the mean PNG size (docs/BENCHMARKS.md, "The board picture").
#![allow(clippy::expect_used)] // a benchmark that cannot run its game stops with why

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use turnpost::notify::picture;
use turnpost::rules::{Registry, Viewer, Waiting, weighted_index};
use uuid::Uuid;

/// Pictures per ruleset (taken at every few decisions along the games).
const PICTURES: usize = 60;
const SEEDS: u64 = 3;
const MAX_STEPS: usize = 5_000;

fn pictures(rules: &dyn turnpost::rules::Game, seats: usize, seed: u64, out: &mut Vec<String>) {
    let names: Vec<String> = ["Ann", "Bob", "Cat", "Dan"]
        .iter()
        .take(seats)
        .map(|n| n.to_string())
        .collect();
    let options = rules
        .normalise_options(&serde_json::Value::Null)
        .expect("default options");
    let mut state = rules.new_game(&options, seats).expect("a new game");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for step in 0..MAX_STEPS {
        match state.waiting() {
            Waiting::Over(_) => return,
            Waiting::Chance(weights) => {
                let sum: u64 = weights.iter().map(|w| u64::from(*w)).sum();
                let point = rng.random_range(0..sum.max(1));
                let index = weighted_index(weights.iter().copied(), point).unwrap_or(0);
                state.apply_chance(index).expect("a chance outcome");
            }
            Waiting::Players(acting) => {
                let seat = acting[rng.random_range(0..acting.len())];
                if step % 7 == 0
                    && let Some(svg) = state.picture(Viewer::Seat(seat), &names)
                {
                    out.push(svg);
                }
                let legal = state.legal_actions(seat);
                let action = &legal[rng.random_range(0..legal.len())].action;
                state.apply_json(seat, action).expect("a legal action");
            }
        }
    }
}

fn main() {
    let registry = Registry::standard();
    println!("| ruleset | pictures | mean render | slowest | mean PNG |");
    println!("|---|---|---|---|---|");
    for rules in registry.all() {
        let Ok(range) = rules.seats(&serde_json::Value::Null) else {
            continue;
        };
        let seats = (*range.end()).min(4);
        let mut svgs = vec![];
        for seed in 0..SEEDS {
            pictures(rules, seats, seed, &mut svgs);
        }
        if svgs.is_empty() {
            continue;
        }
        let step = (svgs.len() / PICTURES).max(1);
        let svgs: Vec<_> = svgs.into_iter().step_by(step).take(PICTURES).collect();
        // Once untimed: the fonts are read on first use.
        let _ = picture::mail_png(Uuid::nil(), &svgs[0]);
        let mut total = Duration::ZERO;
        let mut slowest = Duration::ZERO;
        let mut bytes = 0;
        for svg in &svgs {
            let start = Instant::now();
            let png = picture::mail_png(Uuid::nil(), svg);
            let took = start.elapsed();
            total += took;
            slowest = slowest.max(took);
            bytes += png.map_or(0, |p| p.len());
        }
        let n = svgs.len() as u32;
        println!(
            "| {} | {} | {:.2} ms | {:.2} ms | {:.1} KB |",
            rules.id(),
            n,
            (total / n).as_secs_f64() * 1e3,
            slowest.as_secs_f64() * 1e3,
            bytes as f64 / f64::from(n) / 1024.0,
        );
    }
}
