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

use crate::bots::table::{Bound, Table, play_out};
use crate::rules::{self, GameState, Seat};

/// What one seeded all-bot game came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pace {
    /// Per seat: every action the seat took (its own and the forced ones).
    pub decisions: Vec<usize>,
    /// Per seat: the lone choices the service played for it.
    pub forced: Vec<usize>,
    /// Per seat: the decisions its standing orders answered (no reply needed).
    pub ordered: Vec<usize>,
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
            ordered: vec![0; seats],
            replies: vec![0; seats],
            ended: false,
            steps: 0,
        }
    }
}

/// Plays one game of `rules` with `options` at `seats` seats from `seed`, the bot in every
/// seat, chance drawn from the seed; at most `max_steps` actions. Seat `s` has given the
/// standing orders `orders[s]` (as the service keeps them: ids of the ruleset's, an order that
/// takes an argument with it; none for a seat past the end): as in the service, a forced
/// choice comes first, then a standing order that answers, and only then the player (here the
/// bot) decides.
pub fn measure(
    rules: &dyn rules::Game,
    options: &Value,
    seats: usize,
    seed: u64,
    max_steps: usize,
    orders: &[Vec<String>],
) -> anyhow::Result<Pace> {
    let options = rules.normalise_options(options)?;
    let mut state = rules.new_game(&options, seats)?;
    let mut table = Counting {
        rng: ChaCha8Rng::seed_from_u64(seed),
        pace: Pace::new(seats),
        current: vec![false; seats],
        memory: crate::bots::Memory::default(),
        orders,
    };
    let played = play_out(state.as_mut(), &mut table, Bound::Actions(max_steps))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut pace = table.pace;
    pace.ended = played.outcome.is_some();
    pace.steps = played.actions;
    Ok(pace)
}

/// The seats of a paced game, counted as the service would meet their decisions.
struct Counting<'a> {
    rng: ChaCha8Rng,
    pace: Pace,
    /// Per seat: whether its last own decision is still the latest news (no chance step and
    /// no other seat's own decision since), so a further decision rides on the same reply.
    current: Vec<bool>,
    /// The bot as the service runs it: never back to a state it decided in.
    memory: crate::bots::Memory,
    /// Per seat: its standing orders.
    orders: &'a [Vec<String>],
}

impl Table for Counting<'_> {
    fn chance(&mut self, _step: u64, weights: &[u32]) -> Option<usize> {
        let sum: u64 = weights.iter().map(|w| u64::from(*w)).sum();
        let point = self.rng.random_range(0..sum.max(1));
        self.current.iter_mut().for_each(|c| *c = false);
        Some(rules::weighted_index(weights.iter().copied(), point).unwrap_or(0))
    }

    fn decide(
        &mut self,
        state: &dyn GameState,
        acting: &[Seat],
        _step: u64,
    ) -> Result<(Seat, Value), String> {
        let forced = state.next_forced(0, &|_| false).map(|(s, f)| (s, f.action));
        let ordered = || {
            acting.iter().find_map(|&s| {
                let orders = self.orders.get(s).map_or(&[][..], Vec::as_slice);
                let (_, action) = state.standing_answer(s, orders)?;
                Some((s, action))
            })
        };
        let (seat, action, by) = match forced {
            Some((s, action)) => (s, action, By::Service),
            None => match ordered() {
                Some((s, action)) => (s, action, By::Order),
                None => {
                    let s = acting.first().copied().unwrap_or(0);
                    let choice = self
                        .memory
                        .choose(state, s, self.rng.random())
                        .ok_or("the bot found no action")?;
                    (s, choice, By::Player)
                }
            },
        };
        let pace = &mut self.pace;
        if let Some(d) = pace.decisions.get_mut(seat) {
            *d += 1;
        }
        match by {
            By::Service => {
                if let Some(f) = pace.forced.get_mut(seat) {
                    *f += 1;
                }
            }
            // The player's own action without a reply: news to the others, and to the player
            // nothing they had not already answered.
            By::Order => {
                if let Some(o) = pace.ordered.get_mut(seat) {
                    *o += 1;
                }
                for (s, c) in self.current.iter_mut().enumerate() {
                    if s != seat {
                        *c = false;
                    }
                }
            }
            By::Player => {
                if !self.current.get(seat).copied().unwrap_or(false)
                    && let Some(r) = pace.replies.get_mut(seat)
                {
                    *r += 1;
                }
                for (s, c) in self.current.iter_mut().enumerate() {
                    *c = s == seat;
                }
            }
        }
        Ok((seat, action))
    }
}

/// One row of the pace table: `games` seeded games of a ruleset at a seat count, played twice,
/// without standing orders and with every seat giving all the ruleset's orders.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    pub ruleset: &'static str,
    pub seats: usize,
    pub games: u64,
    /// Per player per game (without orders): every decision, the forced ones, the replies.
    pub decisions: f64,
    pub forced: f64,
    pub replies: f64,
    /// Per player per game with the standing orders: the decisions they answered, the replies.
    pub ordered: f64,
    pub replies_with_orders: f64,
    /// Games (of both runs) that did not end within the step bound.
    pub unfinished: usize,
}

impl Row {
    /// The row as a line of the Markdown table of [`Row::HEADER`].
    pub fn markdown(&self) -> String {
        format!(
            "| {} | {} | {:.0} | {:.0} | {:.0} | {:.2} | {:.0} | {:.0} | {} |",
            self.ruleset,
            self.seats,
            self.decisions,
            self.forced,
            self.replies,
            self.replies / self.decisions.max(1.0),
            self.ordered,
            self.replies_with_orders,
            self.unfinished
        )
    }

    pub const HEADER: &'static str = "| ruleset | seats | decisions | forced | replies | replies / decisions | answered by orders | replies with orders | unfinished |\n|---|---|---|---|---|---|---|---|---|";
}

/// Plays the games of one row of the pace table (seeds `0..games`), at most `max_steps`
/// actions a game.
pub fn row(
    rules: &dyn rules::Game,
    seats: usize,
    games: u64,
    max_steps: usize,
) -> anyhow::Result<Row> {
    let options = super::mail_sizes::measured_options(rules.id());
    let orders = vec![all_orders(rules); seats];
    let mut row = Row {
        ruleset: rules.id(),
        seats,
        games,
        ..Row::default()
    };
    let per = (games as f64 * seats as f64).max(1.0);
    let sum = |v: &[usize]| v.iter().sum::<usize>() as f64 / per;
    for seed in 0..games {
        let plain = measure(rules, &options, seats, seed, max_steps, &[])?;
        row.decisions += sum(&plain.decisions);
        row.forced += sum(&plain.forced);
        row.replies += sum(&plain.replies);
        let ordered = measure(rules, &options, seats, seed, max_steps, &orders)?;
        row.ordered += sum(&ordered.ordered);
        row.replies_with_orders += sum(&ordered.replies);
        row.unfinished += usize::from(!plain.ended) + usize::from(!ordered.ended);
    }
    Ok(row)
}

/// Every standing order the ruleset offers, as a player who wants the game to move gives them:
/// an order that takes an argument as its example (`OrderDoc::example`: bag-of-fate's
/// `characters` with a ranking of all seven characters, fixed for the whole game).
pub fn all_orders(rules: &dyn rules::Game) -> Vec<String> {
    rules
        .standing_orders()
        .iter()
        .map(|o| o.example.unwrap_or(o.id).to_owned())
        .collect()
}

/// The pace table: [`row`] for every ruleset (or those named in `rulesets`) and every seat
/// count from 2 to 4 it allows (or those in `seats`), `games` games each; `each` gets every row
/// as it is measured (a row can take minutes).
pub fn table(
    rulesets: &[String],
    seats: &[usize],
    games: u64,
    mut each: impl FnMut(&Row),
) -> anyhow::Result<()> {
    let registry = rules::Registry::standard();
    for rules in registry.all() {
        if !rulesets.is_empty() && !rulesets.iter().any(|r| r == rules.id()) {
            continue;
        }
        let Ok(range) = rules.seats(&super::mail_sizes::measured_options(rules.id())) else {
            continue;
        };
        for n in range.filter(|n| (2..=4).contains(n) && (seats.is_empty() || seats.contains(n))) {
            each(&row(rules, n, games, MAX_STEPS)?);
        }
    }
    Ok(())
}

/// What the table's rows are, for its first line.
pub fn preamble(games: u64) -> String {
    format!(
        "{games} seeded games per row, the bot in every seat, the options of \
         `service::mail_sizes::measured_options` (wiz-war: round_limit 30); per player per \
         game. Each game is played twice: without standing orders, and with every seat giving \
         all of its ruleset's (`play-lone-choices` included; bag-of-fate's `characters` with \
         the ranking of its example)."
    )
}

/// The most actions of one game (chance included) before it counts as unfinished.
pub const MAX_STEPS: usize = 40_000;

/// Who made a decision in [`measure`].
enum By {
    /// A lone choice the service played.
    Service,
    /// A standing order of the seat's.
    Order,
    /// The seat's player (the bot).
    Player,
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
        let only: Vec<String> = std::env::var("TURNPOST_PACE_RULESETS")
            .map(|v| v.split(',').map(str::to_owned).collect())
            .unwrap_or_default();
        println!("{}", Row::HEADER);
        table(&only, &[], games, |row| println!("{}", row.markdown())).unwrap();
    }

    /// Bag-of-fate's `characters` order, given as its example by every seat, chooses every
    /// character of a game (its ranking lists all seven, and at most four are taken before a
    /// seat's turn), so no reply is spent on one; the game still ends.
    #[test]
    fn the_characters_order_answers_every_character_choice() {
        let registry = Registry::standard();
        let rules = registry.get("bag-of-fate").unwrap();
        let options = crate::service::mail_sizes::measured_options(rules.id());
        let orders = vec![all_orders(rules); 3];
        assert!(orders[0].iter().any(|o| o.starts_with("characters ")));
        let plain = measure(rules, &options, 3, 1, MAX_STEPS, &[]).unwrap();
        let ordered = measure(rules, &options, 3, 1, MAX_STEPS, &orders).unwrap();
        assert!(plain.ended && ordered.ended);
        for s in 0..3 {
            assert!(ordered.ordered[s] > 0, "seat {s}: {ordered:?}");
            assert!(
                ordered.replies[s] < ordered.decisions[s] - ordered.ordered[s] + 1,
                "seat {s}: {ordered:?}"
            );
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
            let pace = measure(rules, &options, seats, 1, 50_000, &[]).unwrap();
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
