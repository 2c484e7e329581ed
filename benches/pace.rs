//! The pace of a game by mail (issue 36): for each ruleset and seat count, seeded games with the
//! built-in bot in every seat (see `turnpost::service::pace`), and per player per game the
//! decisions, the forced choices the service played, and the mail replies needed when each
//! reply carries every decision up to new information (a web visit with plan-and-confirm is the
//! same unit).
//!
//! `cargo bench --bench pace` prints the table in docs/MAIL.md. `TURNPOST_PACE_GAMES` sets the
//! games per row (default 6); `TURNPOST_PACE_RULESETS` (ids, comma-separated) and
//! `TURNPOST_PACE_SEATS` (e.g. `3,4`) keep only those rows.
#![allow(clippy::expect_used)] // a benchmark that cannot run its game stops with why

use turnpost::rules::Registry;
use turnpost::service::mail_sizes::measured_options;
use turnpost::service::pace::measure;

/// The most actions of one game (chance included) before it counts as unfinished.
const MAX_STEPS: usize = 40_000;

fn main() {
    let games: u64 = std::env::var("TURNPOST_PACE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let list = |name: &str| -> Vec<String> {
        std::env::var(name)
            .map(|v| v.split(',').map(|s| s.trim().to_owned()).collect())
            .unwrap_or_default()
    };
    let (only_rulesets, only_seats) = (list("TURNPOST_PACE_RULESETS"), list("TURNPOST_PACE_SEATS"));
    let registry = Registry::standard();
    println!(
        "{games} games per row, the bot in every seat, default options (wiz-war: round_limit 30)\n"
    );
    println!(
        "| ruleset | seats | decisions | forced | replies | replies / decisions | unfinished |"
    );
    println!("|---|---|---|---|---|---|---|");
    for rules in registry.all() {
        if !only_rulesets.is_empty() && !only_rulesets.iter().any(|r| r == rules.id()) {
            continue;
        }
        let options = measured_options(rules.id());
        let Ok(range) = rules.seats(&options) else {
            continue;
        };
        let wanted = |s: &usize| only_seats.is_empty() || only_seats.contains(&s.to_string());
        for seats in range.filter(|s| (2..=4).contains(s)).filter(wanted) {
            let (mut decisions, mut forced, mut replies, mut unfinished) = (0, 0, 0, 0);
            for seed in 0..games {
                let pace = measure(rules, &options, seats, seed, MAX_STEPS).expect("a bot game");
                decisions += pace.decisions.iter().sum::<usize>();
                forced += pace.forced.iter().sum::<usize>();
                replies += pace.replies.iter().sum::<usize>();
                unfinished += usize::from(!pace.ended);
            }
            let per = (games as usize * seats).max(1) as f64;
            println!(
                "| {} | {seats} | {:.0} | {:.0} | {:.0} | {:.2} | {unfinished} |",
                rules.id(),
                decisions as f64 / per,
                forced as f64 / per,
                replies as f64 / per,
                replies as f64 / (decisions.max(1)) as f64,
            );
        }
    }
}
