//! The pace of a game by mail (issue 36): for each ruleset and seat count, seeded games with the
//! built-in bot in every seat (see `turnpost::service::pace`), and per player per game the
//! decisions, the forced choices the service played, the mail replies needed when each reply
//! carries every decision up to new information (a web visit with plan-and-confirm is the same
//! unit), and the same with every seat giving its ruleset's standing orders.
//!
//! `cargo bench --bench pace` prints the table in docs/MAIL.md (so does `turnpost pace`, from
//! the release binary). `TURNPOST_PACE_GAMES` sets the games per row (default 6);
//! `TURNPOST_PACE_RULESETS` (ids, comma-separated) and `TURNPOST_PACE_SEATS` (e.g. `3,4`) keep
//! only those rows.
#![allow(clippy::expect_used)] // a benchmark that cannot run its game stops with why

use turnpost::service::pace::{Row, table};

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
    let rulesets = list("TURNPOST_PACE_RULESETS");
    let seats: Vec<usize> = list("TURNPOST_PACE_SEATS")
        .iter()
        .filter_map(|s| s.parse().ok())
        .collect();
    println!("{}", turnpost::service::pace::preamble(games));
    println!("{}", Row::HEADER);
    table(&rulesets, &seats, games, |row| {
        println!("{}", row.markdown())
    })
    .expect("a bot game");
}
