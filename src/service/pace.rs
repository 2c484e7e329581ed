//! The pace of a game by mail, measured without a database (DESIGN.md, "Pace: a turn per
//! reply"): the built-in bot plays every seat of a seeded game, and each seat's decisions are
//! counted as the service would meet them: a lone choice that the ruleset lets the service
//! play (`Ruleset::keeps_asking`) is *forced* and asks nobody; the other decisions are the
//! player's, and a mail reply carries every decision of its seat up to new information (a
//! chance step, another seat's own decision), as a reply of several lines does
//! (`reply_plan`). A web visit with plan-and-confirm is the same unit as a reply.
//!
//! `cargo bench --bench pace` prints the table in docs/MAIL.md; a unit test plays one game per
//! ruleset and checks the counting.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::rules::{self, Waiting};

/// What one seeded all-bot game came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pace {
    /// Per seat: every action the seat took (its own and the forced ones).
    pub decisions: Vec<usize>,
    /// Per seat: the lone choices the service played for it.
    pub forced: Vec<usize>,
    /// Per seat: mail replies needed when each carries every decision up to new information.
    pub replies: Vec<usize>,
    /// Whether the game ended within the step bound.
    pub ended: bool,
    /// Every action of the game, chance steps included.
    pub steps: usize,
}

impl Pace {
    fn new(seats: usize) -> Self {
        Pace {
            decisions: vec![0; seats],
            forced: vec![0; seats],
            replies: vec![0; seats],
            ended: false,
            steps: 0,
        }
    }
}

/// Plays one game of `rules` with `options` at `seats` seats from `seed`, the bot in every
/// seat, chance drawn from the seed; at most `max_steps` actions.
pub fn measure(
    rules: &dyn rules::Game,
    options: &Value,
    seats: usize,
    seed: u64,
    max_steps: usize,
) -> anyhow::Result<Pace> {
    let options = rules.normalise_options(options)?;
    let mut state = rules.new_game(&options, seats)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pace = Pace::new(seats);
    // Per seat: whether its last own decision is still the latest news (no chance step and no
    // other seat's own decision since), so a further decision rides on the same reply.
    let mut current = vec![false; seats];
    // The bot as the service runs it: never back to a state it decided in.
    let mut memory = crate::bots::Memory::default();
    for _ in 0..max_steps {
        match state.waiting() {
            Waiting::Over(_) => {
                pace.ended = true;
                return Ok(pace);
            }
            Waiting::Chance(weights) => {
                let sum: u64 = weights.iter().map(|w| u64::from(*w)).sum();
                let point = rng.random_range(0..sum.max(1));
                let index = rules::weighted_index(weights.iter().copied(), point).unwrap_or(0);
                state
                    .apply_chance(index)
                    .map_err(|e| anyhow::anyhow!("a listed chance outcome failed: {e}"))?;
                current.iter_mut().for_each(|c| *c = false);
            }
            Waiting::Players(acting) => {
                let forced = state.next_forced(0, &|_| false).map(|(s, f)| (s, f.action));
                let (seat, action, was_forced) = match forced {
                    Some((s, action)) => (s, action, true),
                    None => {
                        let s = acting.first().copied().unwrap_or(0);
                        let choice = memory
                            .choose(state.as_ref(), s, rng.random())
                            .ok_or_else(|| anyhow::anyhow!("the bot found no action"))?;
                        (s, choice, false)
                    }
                };
                state
                    .apply_json(seat, &action)
                    .map_err(|e| anyhow::anyhow!("the bot's action was refused: {e}"))?;
                if let Some(d) = pace.decisions.get_mut(seat) {
                    *d += 1;
                }
                if was_forced {
                    if let Some(f) = pace.forced.get_mut(seat) {
                        *f += 1;
                    }
                } else {
                    if !current.get(seat).copied().unwrap_or(false)
                        && let Some(r) = pace.replies.get_mut(seat)
                    {
                        *r += 1;
                    }
                    for (s, c) in current.iter_mut().enumerate() {
                        *c = s == seat;
                    }
                }
            }
        }
        pace.steps += 1;
    }
    Ok(pace)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::rules::Registry;

    /// The table of `cargo bench --bench pace` from a test build, for a machine without the
    /// time for a release build: `cargo test --lib pace_table -- --ignored --nocapture`
    /// (`TURNPOST_PACE_GAMES`, default 2, games per row).
    #[test]
    #[ignore = "a measurement, not a check: prints the pace table"]
    fn pace_table() {
        let games: u64 = std::env::var("TURNPOST_PACE_GAMES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2);
        let registry = Registry::standard();
        println!("| ruleset | seats | decisions | forced | replies | unfinished |");
        println!("|---|---|---|---|---|---|");
        for rules in registry.all() {
            let options = crate::service::mail_sizes::measured_options(rules.id());
            let range = rules.seats(&options).unwrap();
            for seats in range.filter(|s| (2..=4).contains(s)) {
                let (mut d, mut f, mut r, mut u) = (0, 0, 0, 0);
                for seed in 0..games {
                    let pace = measure(rules, &options, seats, seed, 40_000).unwrap();
                    d += pace.decisions.iter().sum::<usize>();
                    f += pace.forced.iter().sum::<usize>();
                    r += pace.replies.iter().sum::<usize>();
                    u += usize::from(!pace.ended);
                }
                let per = (games as usize * seats).max(1);
                println!(
                    "| {} | {seats} | {} | {} | {} | {u} |",
                    rules.id(),
                    d / per,
                    f / per,
                    r / per
                );
            }
        }
    }

    /// Every ruleset's game is counted whole: each seat's replies are at most its own
    /// decisions, forced choices are decisions that took no reply, and a game of the bot in
    /// every seat ends (wiz-war with its optional round limit, as the mail measure plays it).
    #[test]
    fn a_reply_carries_a_seats_decisions_up_to_new_information() {
        let registry = Registry::standard();
        for rules in registry.all() {
            let options = crate::service::mail_sizes::measured_options(rules.id());
            let seats = *rules.seats(&options).unwrap().start().max(&2);
            let pace = measure(rules, &options, seats, 1, 50_000).unwrap();
            assert!(
                pace.ended,
                "{}: the game did not end in {} steps",
                rules.id(),
                pace.steps
            );
            for s in 0..seats {
                let own = pace.decisions[s] - pace.forced[s];
                assert!(
                    pace.replies[s] <= own && (own == 0 || pace.replies[s] >= 1),
                    "{} seat {s}: {} replies for {own} own decisions",
                    rules.id(),
                    pace.replies[s]
                );
            }
            assert!(pace.decisions.iter().sum::<usize>() > 0, "{}", rules.id());
        }
    }
}
