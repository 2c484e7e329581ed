//! Mail sizes (issue 14): for each ruleset, random games from fixed seeds, every mail a player
//! gets written and formatted as it goes out (see `turnpost::service::mail_sizes`).
//!
//! `cargo bench --bench mail` prints the tables in docs/MAIL.md: the first turn mail's size and
//! numbered choices, and the mean and largest mail over the games, first in words only (the
//! default setting), then with the board's picture (the player's choice). It fails if any mail
//! reaches 100 KB. The largest mail of each row is written to `target/mail-samples/` (text and
//! HTML) to be looked at.
#![allow(clippy::expect_used)] // a benchmark that cannot run its game stops with why

use turnpost::rules::Registry;
use turnpost::service::mail_sizes::{MAIL_LIMIT, measure};

/// Games per ruleset and seat count.
const SEEDS: u64 = 5;

fn main() {
    let mut over = vec![];
    for pictures in [false, true] {
        println!(
            "\n{}\n",
            if pictures {
                "With the board's picture (the setting `pictures: true`):"
            } else {
                "In words only (the default):"
            }
        );
        table(pictures, &mut over);
    }
    assert!(over.is_empty(), "mail over 100 KB: {over:?}");
}

fn table(pictures: bool, over: &mut Vec<String>) {
    let registry = Registry::standard();
    println!(
        "| ruleset | seats | first turn mail | its choices | mails | mean | largest | most choices |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for rules in registry.all() {
        let Ok(range) = rules.seats(&serde_json::Value::Null) else {
            continue;
        };
        for seats in [*range.start(), *range.end()] {
            let runs: Vec<_> = (0..SEEDS)
                .map(|seed| measure(rules, seats, seed, 1, pictures).expect("a random game"))
                .collect();
            let first = &runs[0];
            let mails: usize = runs.iter().map(|r| r.mails).sum();
            let mean = runs.iter().map(|r| r.mean_bytes * r.mails).sum::<usize>() / mails.max(1);
            let largest = runs.iter().map(|r| r.largest_bytes).max().unwrap_or(0);
            let most = runs.iter().map(|r| r.most_choices).max().unwrap_or(0);
            if let Some(mail) = runs
                .iter()
                .max_by_key(|r| r.largest_bytes)
                .and_then(|r| r.largest.as_ref())
            {
                let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/target/mail-samples");
                let _ = std::fs::create_dir_all(dir);
                let kind = if pictures { "picture" } else { "words" };
                let name = format!("{dir}/{}-{seats}-{kind}", rules.id());
                let _ = std::fs::write(format!("{name}.txt"), &mail.text);
                let _ = std::fs::write(format!("{name}.html"), &mail.html);
            }
            println!(
                "| {} | {seats} | {:.1} KB | {} | {mails} | {:.1} KB | {:.1} KB | {most} |",
                rules.id(),
                first.first_turn_bytes as f64 / 1024.0,
                first.first_turn_choices,
                mean as f64 / 1024.0,
                largest as f64 / 1024.0,
            );
            if largest >= MAIL_LIMIT {
                over.push(format!(
                    "{} with {seats} seats: {largest} bytes",
                    rules.id()
                ));
            }
            if range.start() == range.end() {
                break;
            }
        }
    }
}
