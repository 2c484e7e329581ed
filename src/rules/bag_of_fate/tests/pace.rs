//! The pace of Bag of Fate by mail with the `characters` order (issue 36; docs/MAIL.md,
//! "Pace"), for other rankings than the example the pace table gives: a measurement, not a
//! check. `cargo test --lib rules::bag_of_fate::tests::pace -- --ignored --nocapture`
//! (`TURNPOST_PACE_GAMES` games a seat count, default 20; `TURNPOST_PACE_SLOW` adds rankings
//! of all seven at random, whose games mostly run to the step bound).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::rules::Registry;
use crate::service::mail_sizes::measured_options;
use crate::service::pace::{MAX_STEPS, all_orders, measure};

/// Each seat's standing orders in a game, from the game's seed and the seat.
type OrdersOf<'a> = Box<dyn Fn(u64, usize) -> Vec<String> + 'a>;

#[test]
#[ignore = "a measurement, not a check: prints replies per player per game for rankings"]
fn replies_with_other_rankings() {
    let games: u64 = std::env::var("TURNPOST_PACE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let registry = Registry::standard();
    let rules = registry.get("bag-of-fate").unwrap();
    let options = measured_options("bag-of-fate");
    let names = [
        "queen",
        "oracle",
        "trader",
        "apprentice",
        "farmer",
        "hunter",
        "wizard",
    ];
    let fixed = |list: &str| -> Vec<String> { vec!["play-lone-choices".into(), list.into()] };
    // Each seat its own ranking, drawn from the game's seed and the seat: of all seven, or
    // of the six after the Wizard. (A ranking with the Wizard low leaves most games
    // unfinished: a seat draws for its gem only as the Wizard. Slow: thousands of steps a game.)
    let own = |seed: u64, seat: usize, wizard_first: bool| -> Vec<String> {
        let mut list: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| !wizard_first || *n != "wizard")
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed * 16 + seat as u64);
        for i in (1..list.len()).rev() {
            list.swap(i, rng.random_range(0..=i));
        }
        if wizard_first {
            list.insert(0, "wizard");
        }
        fixed(&format!("characters {}", list.join(" ")))
    };
    let slow = std::env::var("TURNPOST_PACE_SLOW").is_ok();
    let mut rankings: Vec<(&str, OrdersOf<'_>)> = vec![
        ("none", Box::new(|_, _| vec![])),
        (
            "the example (pace table)",
            Box::new(|_, _| all_orders(rules)),
        ),
        (
            "each seat its own, the Wizard first",
            Box::new(move |seed, seat| own(seed, seat, true)),
        ),
        (
            "characters wizard hunter farmer oracle trader queen apprentice",
            Box::new(move |_, _| {
                fixed("characters wizard hunter farmer oracle trader queen apprentice")
            }),
        ),
        (
            "characters wizard queen oracle trader apprentice farmer hunter",
            Box::new(move |_, _| {
                fixed("characters wizard queen oracle trader apprentice farmer hunter")
            }),
        ),
    ];
    if slow {
        rankings.push((
            "each seat its own, at random (TURNPOST_PACE_SLOW)",
            Box::new(move |seed, seat| own(seed, seat, false)),
        ));
    }
    println!("{games} games a row; per player per game");
    println!("| ranking | seats | decisions | answered by orders | replies | unfinished |");
    println!("|---|---|---|---|---|---|");
    for (name, orders_of) in &rankings {
        for seats in 2..=4_usize {
            let (mut decisions, mut ordered, mut replies, mut unfinished) = (0, 0, 0, 0);
            for seed in 0..games {
                let orders: Vec<Vec<String>> = (0..seats).map(|s| orders_of(seed, s)).collect();
                let pace = measure(rules, &options, seats, seed, MAX_STEPS, &orders).unwrap();
                decisions += pace.decisions.iter().sum::<usize>();
                ordered += pace.ordered.iter().sum::<usize>();
                replies += pace.replies.iter().sum::<usize>();
                unfinished += usize::from(!pace.ended);
            }
            let per = (games as f64 * seats as f64).max(1.0);
            println!(
                "| {name} | {seats} | {:.2} | {:.2} | {:.2} | {unfinished} |",
                decisions as f64 / per,
                ordered as f64 / per,
                replies as f64 / per
            );
        }
    }
}
