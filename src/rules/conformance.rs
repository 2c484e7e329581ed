//! # The rules-engine conformance suite
//!
//! Every ruleset must pass this suite (DESIGN.md, "The rules engine contract", rule 6; the idea
//! is OpenSpiel's `RandomSimTest`). It is test-only (`#[cfg(test)] pub mod conformance;` in
//! `src/rules/mod.rs`) and reports a violation by panicking: a panic is a failed test.
//!
//! A ruleset's tests implement [`Secrets`] and call [`check`] with the bound its rules guarantee:
//!
//! ```ignore
//! use crate::rules::conformance::{self, Config, Secrets};
//!
//! impl Secrets for BagOfFate { /* MARKER, plant, plant_action */ }
//!
//! #[test]
//! fn conformance() {
//!     // Bound: at most 60 rounds of 5 seats × 4 actions (docs/rules/bag-of-fate.md).
//!     conformance::check::<BagOfFate>(&Config::new(1_200));
//! }
//! ```
//!
//! For every option set of `Ruleset::option_sets()` and every seat count of `Ruleset::seats`,
//! [`Config::playouts`] random playouts (20 by default) are played from the seeds 0, 1, 2, …
//! Each seed drives a `ChaCha8Rng`, so a playout is reproducible from (options, seat count, seed)
//! alone. The first violation panics with a message naming all three. With
//! [`Config::spread_from`]`(k)` the option sets from index `k` on play each seed at one seat
//! count only (seed `s` at the `s mod c`-th of their `c` seat counts).
//!
//! - `TURNPOST_PLAYOUTS=500 cargo test conformance` plays 500 playouts per seat count and option
//!   set instead of 20.
//! - `TURNPOST_SEED=17 cargo test conformance` plays only seed 17 (for every seat count and option
//!   set), exactly as the full run played it.
//!
//! ## What is checked
//!
//! Set-up, once per option set: the options survive a JSON round trip and `Game::normalise_options`;
//! `Game::seats` agrees with `Ruleset::seats`; `new_game` refuses the seat counts just outside it.
//!
//! At every step of every playout:
//! - `next()` is well formed: `Players` is non-empty, sorted, without duplicates, within the
//!   table; `Chance` has outcomes, all of weight > 0, all distinct.
//! - Exactly the seats in `Players` have legal actions (none at a chance step or the end).
//! - Rejections, each of which must be an `Err` that leaves the state equal (`PartialEq`) to before:
//!   another seat's listed action tried by each seat it is not listed for (out of turn); a player's
//!   action applied as `Actor::Chance`; a chance outcome applied by a seat; an action from the seat
//!   one past the table; earlier actions that are no longer listed; and random JSON through the
//!   erased `GameState` (arbitrary values, and listed actions with a part changed, a field added or
//!   removed, a variant renamed). JSON that reads as an action is also tried on the typed state,
//!   to see that the refusal leaves it as it was.
//! - A random acting seat plays a random legal action, or a chance outcome is drawn by weight; it
//!   must apply, both to the typed state and, as JSON, to a copy behind the erased interface.
//! - Its description for every viewer is one non-empty line; it survives a JSON round trip.
//! - If [`Secrets::plant_action`] gives it a hidden payload, its visibility is not `Public` and
//!   neither its redacted form nor its description for any viewer outside the visibility shows it.
//! - The playout ends within [`Config::max_steps`] actions (player and chance actions together).
//!
//! At full-check states (every state of the first [`Config::thorough_playouts`] seeds up to
//! [`Config::thorough_steps`] actions, one in
//! [`Config::sample_every`] of the others), and at the end of each playout:
//! - Every listed action of every acting seat applies (to a clone); so does every chance outcome;
//!   the listed actions of a seat are distinct; `default_action` is listed.
//! - All earlier actions that are not listed now are refused.
//! - The state survives a JSON round trip (the service stores snapshots as JSON), and the
//!   round-tripped state lists the same actions in the same order (no `HashMap` order leaks into
//!   the numbered actions of an email). The erased state equals the typed one; the erased
//!   `waiting` and `legal_actions` agree with the typed ones, with one-line descriptions.
//! - A random JSON action that reads as a listed action applies, on a copy loaded from the
//!   snapshot.
//! - Secrets, with planted markers ([`Secrets::plant`] writes a marker into one seat's secrets):
//!   with every seat's secrets planted, a seat's view, and the actions offered to it with their
//!   descriptions, contain exactly as many markers as with only its own secrets planted, and the
//!   spectator's view none; a seat with a secret sees the marker in its own view. Checked for
//!   each seat in turn in the thorough playouts (one per state: seat `k mod n` after `k`
//!   actions), for one seat at random at the sampled states. A mismatch is
//!   reported naming the seat whose secret shows (or a marker that shows with nothing planted).
//! - Secrets, with twins ([`Secrets::perturb`] re-deals one seat's hidden cards from what nobody
//!   sees): every other seat and the spectator see the same view in both twins and the same
//!   seats asked to decide; after each of up to 8 actions (or chance outcomes) listed in both,
//!   they are shown the same log entry (the action or its redacted form, with the description
//!   the service shows them) and the same seats are asked next. So a secret given away by a
//!   hand index, by a description or by a move made without asking fails, which no marker
//!   shows. If the perturbed seat is to act, its default action (what a deadline plays) is
//!   applied in each twin, and the others must get the same log entry and see the same seats
//!   asked next (a default that plays "the first card" of a sorted hand fails).
//!   Checked for each acting seat in turn in the thorough playouts (each seat in turn where
//!   none acts); for one seat at random (an acting one at a decision) at the sampled states.
//! - Beliefs (`conformance/belief.rs`): what each other seat imagines of a twin
//!   ([`Ruleset::imagine`], where the built-in bot's look-ahead starts) is the same state as
//!   what it imagines of the true one, for the same random numbers (so the bot cannot play on
//!   a rival's secrets); and the seat whose secrets are checked sees what it imagines as it sees
//!   the true state: the same view, seats asked, legal actions and labels.
//! - Presenters: the table (`Ruleset::present`) and the grouped choices (`Ruleset::choices`)
//!   are counted with the views above (no seat's presentation shows more markers than its own
//!   secrets put there, the spectator's none); every acting seat's choices number each legal
//!   action exactly once with one-line labels, and a seat's table and choices stay under 40 KB.
//!   They are checked at every fully checked state of the sampled playouts and at one in
//!   `sample_every` states of the thorough ones (whose long games would otherwise present tens
//!   of thousands of states, the dearest part of the suite).
//! - At the end: the erased `Game::load` keeps a snapshot as it is.
//!
//! Folding: after 1, 2, 4, 8, … actions and at the end, folding the log from `new_game` gives a
//! state equal to the incremental one; at the end `Game::fold` of the JSON log gives the same JSON.
//! At the end, nothing applies any more (earlier actions by every seat and by chance, random JSON).
//!
//! Over the whole run, at least one state and one action must have had a secret planted (unless
//! [`Config::expect_secrets`] is off), so the secrets checks cannot pass vacuously.
//!
//! ## The files, bottom floor first
//!
//! A file uses only files on the floors below it; this file is the entrance (the `Secrets`
//! trait, `Config`, `check`, the shared helpers) and runs the playouts.
//!
//! 1. `viewers` (who looks at a game, and who everyone sees asked) and `probe` (random JSON).
//! 2. The single checks, each at one state: `secrets` (planted markers), `schemas` (the
//!    published JSON Schemas), `belief` (what the bot's seat imagines).
//! 3. `twins` (the twin check, which also compares the twins' beliefs).
//! 4. `playout` (one random playout, with its `rejections` probes): it owns the walk and calls
//!    every check; none calls it. `toy` (the suite's own test game) uses `twins` to re-deal.

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::Serialize;
use serde_json::Value;

use super::registry::{Erased, Game};
use super::{Ruleset, Seat};

// `#[path]` keeps the submodules in `conformance/` however this file itself is mounted.
#[path = "conformance/belief.rs"]
mod belief;
#[path = "conformance/playout.rs"]
mod playout;
#[path = "conformance/probe.rs"]
mod probe;
#[path = "conformance/schemas.rs"]
mod schemas;
#[path = "conformance/secrets.rs"]
mod secrets;
#[path = "conformance/tests.rs"]
mod tests;
#[path = "conformance/toy.rs"]
mod toy;
#[path = "conformance/twins.rs"]
mod twins;
#[path = "conformance/viewers.rs"]
mod viewers;

pub use twins::{entry as log_entry, redeal};

/// One step of a random game: a chance outcome drawn by weight, or a uniformly random legal
/// action of a uniformly random seat among those asked; `None` when the game is over (or, never
/// in a ruleset that passes this suite, when there is nothing to draw or choose). For
/// tests and benchmarks that walk random games of one ruleset.
pub fn random_step<R: Ruleset>(
    state: &R::State,
    rng: &mut impl rand::Rng,
) -> Option<(super::Actor, R::Action)> {
    use rand::RngExt as _;
    match R::next(state) {
        super::Next::Over(_) => None,
        super::Next::Chance(chance) => {
            let point = rng.random_range(0..chance.total_weight().max(1));
            Some((super::Actor::Chance, chance.pick(point)?.clone()))
        }
        super::Next::Players(players) => {
            let seat = *players.get(rng.random_range(0..players.len().max(1)))?;
            let legal = R::legal_actions(state, seat);
            let action = legal.get(rng.random_range(0..legal.len().max(1)))?.clone();
            Some((super::Actor::Seat(seat), action))
        }
    }
}

/// The hooks a ruleset's tests give the suite to check secrets with planted markers.
///
/// The marker is a value the game never shows on its own (the suite checks the views it can),
/// written into one seat's secrets; any view, redacted log entry or description that then
/// contains the marker shows that seat's secret. Choose marker values the ruleset's `view` and `describe` can handle
/// (e.g. a card id outside the card data whose name falls back to the id).
pub trait Secrets: Ruleset<State: Send + Sync> {
    /// The text that appears in a view's JSON, a redacted action or a description exactly where a
    /// planted secret is shown. Plain text that JSON does not escape, e.g. `"4242"`.
    const MARKER: &'static str;

    /// Overwrites every secret of `seat` in the state (hand cards, cards it looked at, objectives
    /// it chose) with marker values. Leave out values another seat may also see (a hand shown to
    /// an Oracle): they are no longer `seat`'s alone, and would be reported as a leak. Change
    /// nothing when `seat` has no secret now.
    fn plant(state: &mut Self::State, seat: Seat);

    /// The action with its hidden payload (the card drawn, the objective chosen) replaced by
    /// marker values, or `None` if everyone may see the action in full. An action with a hidden
    /// payload must not have `Visibility::Public`.
    fn plant_action(action: &Self::Action) -> Option<Self::Action>;

    /// A twin of `state` that differs from it only in what `seat` alone knows: its hidden
    /// cards (hand, cards it looks at) re-dealt from cards nobody sees (the unseen deck), the
    /// counts and every public fact kept (use [`redeal`]); `pick(n)` is a random number below
    /// `n`. `None` when `seat` has no such secret now. Leave out what another seat also knows
    /// (a hand shown to an Oracle, a card declared in a window) and what the twin could not
    /// have reached (a card of another deck). The suite checks that no other viewer can tell
    /// the twins apart, now or after any action both allow (see `conformance/twins.rs`).
    fn perturb(
        state: &Self::State,
        seat: Seat,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<Self::State>;

    /// Whether who is asked to decide in `state` depends on secrets by a documented choice of
    /// the game's options (wiz-war's windows that ask only the wizards holding a counter).
    /// The twin check then does not compare who is asked there; everything else it compares.
    fn asking_discloses(state: &Self::State) -> bool {
        let _ = state;
        false
    }
}

/// The playout count when `TURNPOST_PLAYOUTS` is not set.
/// 20: the test run (`cargo test`, what CI runs) must stay short on a two-core machine, and a
/// flaw that shows only past the twentieth seed is what the deeper runs
/// (`TURNPOST_PLAYOUTS=500`, docs/rules/conformance.md) are for.
pub const DEFAULT_PLAYOUTS: u64 = 20;

/// How much the suite plays, and the bound a game must end within.
#[derive(Clone, Debug)]
pub struct Config {
    /// The most actions (player and chance actions together) a game may take: the bound the
    /// rules guarantee, documented by the caller. A playout still running after this many fails.
    pub max_steps: usize,
    /// Playouts per option set and seat count: `TURNPOST_PLAYOUTS`, or [`DEFAULT_PLAYOUTS`].
    pub playouts: u64,
    /// The seed of the first playout; the others follow it (`TURNPOST_SEED` plays only that one).
    pub first_seed: u64,
    /// Seeds below this get the full checks at every state, the secrets checked for every seat.
    pub thorough_playouts: u64,
    /// A thorough playout checks every state up to this many actions, then samples like the
    /// others: the long games (tens of thousands of actions) spent most of the suite's time
    /// re-checking late states whose kind the early ones and the samples already cover.
    pub thorough_steps: usize,
    /// In the other playouts one state in this many, at random, gets the full checks, the
    /// secrets checked for one seat at random (a long game with costly views may raise this).
    pub sample_every: u32,
    /// Random JSON actions tried at every state.
    pub json_probes: u32,
    /// Whether the ruleset has secrets at all (it fails if no plant ever changed anything).
    pub expect_secrets: bool,
    /// `(i, k)`: this run plays only the seeds whose place among the seeds is `i` modulo `k`,
    /// for every option set and seat count; `(0, 1)` plays them all. A ruleset's suite is split
    /// into `k` tests ([`shards!`]) so that the test harness spreads it over the cores; the
    /// `k` of them together play exactly what one run plays.
    pub shard: (u64, u64),
    /// `Some(k)`: the option sets from index `k` on play each seed at one seat count only,
    /// seed `s` at the `s mod c`-th of their `c` seat counts (cycling through them), while the
    /// first `k` play every seed at every seat count; `None`: every set at every seat count.
    /// A ruleset with many option sets (wiz-war's school combinations) covers them all at a
    /// fraction of the cost ([`Config::spread_from`]).
    pub spread_from: Option<usize>,
}

impl Config {
    /// The default configuration for a game that ends within `max_steps` actions, with the
    /// playout count and seed taken from `TURNPOST_PLAYOUTS` and `TURNPOST_SEED` when set.
    pub fn new(max_steps: usize) -> Self {
        let playouts = env_count("TURNPOST_PLAYOUTS").unwrap_or(DEFAULT_PLAYOUTS);
        let seed = env_count("TURNPOST_SEED");
        Config {
            max_steps,
            playouts: if seed.is_some() { 1 } else { playouts },
            first_seed: seed.unwrap_or(0),
            thorough_playouts: 1,
            thorough_steps: 3_000,
            sample_every: 16,
            json_probes: 2,
            expect_secrets: true,
            shard: (0, 1),
            spread_from: None,
        }
    }

    /// This configuration with the option sets from index `k` on spread over the seat counts
    /// (see [`Config::spread_from`]).
    pub fn spread_from(self, k: usize) -> Self {
        Config {
            spread_from: Some(k),
            ..self
        }
    }

    /// Whether the option set at index `set`, whose seat counts are `counts`, plays `seed` at
    /// `seats` players (see [`Config::spread_from`]). The seat count is chosen by the seed
    /// itself, so `TURNPOST_SEED` replays it exactly as the full run played it.
    fn plays_at(&self, set: usize, counts: &[usize], seats: usize, seed: u64) -> bool {
        match self.spread_from {
            Some(k) if set >= k && !counts.is_empty() => {
                let len = u64::try_from(counts.len()).unwrap_or(1);
                let i = usize::try_from(seed % len).unwrap_or(0);
                counts.get(i) == Some(&seats)
            }
            _ => true,
        }
    }

    /// This configuration for shard `index` of `count` (see [`Config::shard`]).
    pub fn shard(self, index: u64, count: u64) -> Self {
        assert!(index < count, "shard {index} of {count}");
        Config {
            shard: (index, count),
            ..self
        }
    }

    /// The seeds this run plays, for each option set and seat count.
    fn seeds(&self) -> impl Iterator<Item = u64> + '_ {
        let (index, count) = self.shard;
        (self.first_seed..self.first_seed.saturating_add(self.playouts))
            .filter(move |seed| (seed - self.first_seed) % count == index)
    }
}

/// Declares a ruleset's conformance suite as tests that each play one shard of it (see
/// [`Config::shard`]), so that the test harness runs them on every core:
/// `shards!(BagOfFate, Config::new(5_000), shard_0_of_2 = 0 of 2, shard_1_of_2 = 1 of 2);`
/// Together they must name every index below the count once; they then play exactly what one
/// run of [`check`] with that configuration plays.
macro_rules! shards {
    ($ruleset:ty, $config:expr, $($test:ident = $index:literal of $count:literal),+ $(,)?) => {
        const _: () = {
            let indexes = [$($index),+];
            let counts = [$($count),+];
            let mut i = 0;
            while i < indexes.len() {
                assert!(counts[i] == indexes.len() as u64 && indexes[i] == i as u64);
                i += 1;
            }
        };
        $(
            #[test]
            fn $test() {
                let config = $config.shard($index, $count);
                $crate::rules::conformance::check::<$ruleset>(&config);
            }
        )+
    };
}
pub(crate) use shards;

fn env_count(name: &str) -> Option<u64> {
    parse_count(name, std::env::var(name).ok().as_deref())
}

fn parse_count(name: &str, value: Option<&str>) -> Option<u64> {
    let value = value?.trim();
    let least = u64::from(name == "TURNPOST_PLAYOUTS");
    match value.parse::<u64>() {
        Ok(n) if n >= least => Some(n),
        _ => panic!("{name}={value:?}: expected a whole number, at least {least}"),
    }
}

/// What a run of the suite played, for tuning [`Config::max_steps`].
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub runs: Vec<Run>,
    pub stats: Stats,
}

/// The playouts of one option set and seat count.
#[derive(Clone, Debug)]
pub struct Run {
    pub options: Value,
    pub seats: usize,
    pub playouts: u64,
    /// The fewest and the most actions a playout took.
    pub shortest: usize,
    pub longest: usize,
    pub total_steps: u64,
}

/// Counts over a whole run, to see that the checks had something to check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// States that got the full checks.
    pub full_states: u64,
    /// (state, seat) pairs where [`Secrets::plant`] planted something.
    pub planted_states: u64,
    /// Applied actions where [`Secrets::plant_action`] found a hidden payload.
    pub planted_actions: u64,
    /// Actions tried that had to be refused.
    pub rejections: u64,
    /// Random JSON actions that read as an action of the ruleset (so reached `apply`).
    pub json_parsed: u64,
    /// … and as a listed one, so they had to apply.
    pub json_listed: u64,
    /// States compared with a twin differing in one seat's secrets ([`Secrets::perturb`]).
    pub twins: u64,
    /// Actions applied to both twins and compared.
    pub twin_actions: u64,
    /// States a seat imagined otherwise ([`Ruleset::imagine`]) and saw as the true one.
    pub imagined: u64,
    /// Legal actions whose notation was found again by it ([`Ruleset::notation`]).
    pub notations: usize,
    /// Twins where the seat had a lone choice the service plays ([`Ruleset::keeps_asking`]).
    pub forced_twins: u64,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for run in &self.runs {
            if run.playouts == 0 {
                // A spread option set plays this run's seeds at its other seat counts.
                writeln!(
                    f,
                    "options {}, {} seats: no playouts in this run",
                    run.options, run.seats
                )?;
                continue;
            }
            writeln!(
                f,
                "options {}, {} seats: {} playouts of {}..={} actions (mean {})",
                run.options,
                run.seats,
                run.playouts,
                run.shortest,
                run.longest,
                run.total_steps / run.playouts.max(1)
            )?;
        }
        let s = &self.stats;
        write!(
            f,
            "{} fully checked states, {} planted (state, seat) pairs, {} planted actions, \
             {} rejections; {} random JSON actions read as actions, {} as listed ones; \
             {} twins compared, after {} actions; {} imagined states; {} notations; \
             {} twins with a forced choice",
            s.full_states,
            s.planted_states,
            s.planted_actions,
            s.rejections,
            s.json_parsed,
            s.json_listed,
            s.twins,
            s.twin_actions,
            s.imagined,
            s.notations,
            s.forced_twins
        )
    }
}

/// Runs the suite on a ruleset: [`Config::playouts`] playouts for every option set and seat
/// count. Panics with a precise message on the first violation.
pub fn check<R: Secrets>(config: &Config) -> Report {
    assert!(
        config.max_steps > 0 && config.sample_every > 0,
        "conformance config needs max_steps > 0 and sample_every > 0: {config:?}"
    );
    let marker = Value::from(R::MARKER).to_string();
    assert!(
        !R::MARKER.is_empty() && marker == format!("\"{}\"", R::MARKER),
        "{}: Secrets::MARKER must be plain text that JSON does not escape, not {marker}",
        R::ID
    );
    let option_sets = R::option_sets();
    assert!(
        !option_sets.is_empty(),
        "{}: option_sets() must list at least the default options",
        R::ID
    );
    check_default_options::<R>();
    check_orders::<R>();

    let mut report = Report::default();
    for (set, options) in option_sets.iter().enumerate() {
        let options_json = check_options::<R>(options);
        let seats = R::seats(options);
        check_seat_range::<R>(options, &options_json, &seats);
        let counts: Vec<usize> = seats.clone().collect();
        for n in seats {
            let mut run = Run {
                options: options_json.clone(),
                seats: n,
                playouts: 0,
                shortest: usize::MAX,
                longest: 0,
                total_steps: 0,
            };
            for seed in config
                .seeds()
                .filter(|&seed| config.plays_at(set, &counts, n, seed))
            {
                let mut at = 0;
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    playout::play::<R>(
                        config,
                        options,
                        &options_json,
                        n,
                        seed,
                        &mut report.stats,
                        &mut at,
                    )
                    .len()
                }));
                let steps = outcome.unwrap_or_else(|payload| {
                    let message = payload
                        .downcast_ref::<String>()
                        .map(String::as_str)
                        .or_else(|| payload.downcast_ref::<&str>().copied())
                        .unwrap_or("(a panic without a message)");
                    panic!(
                        "ruleset {} fails conformance with options {options_json}, {n} seats, \
                         seed {seed}, after {at} actions (rerun only this playout with \
                         TURNPOST_SEED={seed}):\n{message}",
                        R::ID
                    )
                });
                run.playouts += 1;
                run.shortest = run.shortest.min(steps);
                run.longest = run.longest.max(steps);
                run.total_steps += steps as u64;
            }
            report.runs.push(run);
        }
    }
    if report.runs.iter().all(|run| run.playouts == 0) {
        // A shard with no seed of its own (`TURNPOST_SEED` plays one seed, in shard 0).
        println!(
            "conformance of {}: shard {:?} has no playout to play",
            R::ID,
            config.shard
        );
        return report;
    }
    if config.expect_secrets {
        let s = &report.stats;
        assert!(
            s.planted_states > 0
                && s.planted_actions > 0
                && s.twins > 0
                && s.twin_actions > 0
                && s.imagined > 0,
            "ruleset {}: the secrets checks proved nothing: Secrets::plant changed {} states, \
             Secrets::plant_action found {} hidden payloads, Secrets::perturb made {} twins that \
             were compared after {} actions, Ruleset::imagine changed {} states, and all must be \
             some (set Config::expect_secrets to false for a game without secrets)",
            R::ID,
            s.planted_states,
            s.planted_actions,
            s.twins,
            s.twin_actions,
            s.imagined
        );
    }
    println!("conformance of {}:\n{report}", R::ID);
    report
}

fn check_default_options<R: Secrets>() {
    let game = Erased::<R>::default();
    let seats = game
        .seats(&Value::Null)
        .unwrap_or_else(|e| panic!("{}: Game::seats(null) failed: {e}", R::ID));
    assert_eq!(
        seats,
        R::seats(&R::Options::default()),
        "{}: null options must mean the default options",
        R::ID
    );
}

/// Each standing order's id is short and plain (`[a-z0-9-]`) and unique; an order that takes an
/// argument has an example, which [`Ruleset::check_order`] keeps as it is; a bare id of an order
/// that takes none is kept as it is.
fn check_orders<R: Secrets>() {
    let orders = R::standing_orders();
    for (i, order) in orders.iter().enumerate() {
        assert!(
            !order.id.is_empty()
                && order
                    .id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !orders.iter().take(i).any(|o| o.id == order.id),
            "{}: the standing order id {:?} must be [a-z0-9-] and unique",
            R::ID,
            order.id
        );
        match (order.argument, order.example) {
            (None, None) => assert_eq!(
                R::check_order(order.id),
                Ok(order.id.to_owned()),
                "{}: Ruleset::check_order must keep the bare id {:?}",
                R::ID,
                order.id
            ),
            (Some(_), Some(example)) => {
                assert!(
                    example.starts_with(&format!("{} ", order.id)),
                    "{}: the example of {:?} must begin with its id",
                    R::ID,
                    order.id
                );
                assert_eq!(
                    R::check_order(example),
                    Ok(example.to_owned()),
                    "{}: Ruleset::check_order must keep the example of {:?} as it is",
                    R::ID,
                    order.id
                );
            }
            _ => panic!(
                "{}: the standing order {:?} takes an argument exactly when it has an example",
                R::ID,
                order.id
            ),
        }
    }
}

/// The options as JSON, once checked to survive the trips the service puts them through.
fn check_options<R: Secrets>(options: &R::Options) -> Value {
    let json = to_json(options);
    let back: Result<R::Options, _> = serde_json::from_value(json.clone());
    assert!(
        back.as_ref().ok() == Some(options),
        "{}: the options {json} do not survive a JSON round trip: {back:?}",
        R::ID
    );
    schemas::check_options::<R>(&json);
    let game = Erased::<R>::default();
    let normal = game
        .normalise_options(&json)
        .unwrap_or_else(|e| panic!("{}: normalise_options refused {json}: {e}", R::ID));
    let back: Result<R::Options, _> = serde_json::from_value(normal.clone());
    assert!(
        back.as_ref().ok() == Some(options),
        "{}: normalise_options turned {json} into {normal}, which reads as {back:?}",
        R::ID
    );
    let seats = game.seats(&json).ok();
    assert!(
        seats.as_ref() == Some(&R::seats(options)),
        "{}: Game::seats({json}) is {seats:?}, Ruleset::seats is {:?}",
        R::ID,
        R::seats(options)
    );
    json
}

fn check_seat_range<R: Ruleset>(
    options: &R::Options,
    options_json: &Value,
    seats: &std::ops::RangeInclusive<usize>,
) {
    assert!(
        !seats.is_empty() && *seats.start() > 0,
        "{}: seats() must allow at least one seat count from 1 up with options {options_json}, \
         not {seats:?}",
        R::ID
    );
    let below = seats.start().checked_sub(1);
    for n in below.into_iter().chain([seats.end() + 1]) {
        assert!(
            R::new_game(options, n).is_err(),
            "{}: new_game accepted {n} seats with options {options_json}, outside seats() = {seats:?}",
            R::ID
        );
    }
}

/// Serialises a value the suite needs as JSON; failing to is a violation.
fn to_json<T: Serialize + fmt::Debug>(value: &T) -> Value {
    serde_json::to_value(value)
        .unwrap_or_else(|e| panic!("{value:?} does not serialise to JSON: {e}"))
}

/// Where two JSON values first differ, as a JSON pointer and both sides, for failure messages.
fn first_difference(a: &Value, b: &Value) -> String {
    fn walk(a: &Value, b: &Value, path: &mut String) -> Option<String> {
        let len = path.len();
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                let keys = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
                for key in keys {
                    path.push('/');
                    path.push_str(key);
                    let found = match (x.get(key), y.get(key)) {
                        (Some(p), Some(q)) => walk(p, q, path),
                        (p, q) => Some(format!("at {path}: {} vs {}", shown(p), shown(q))),
                    };
                    if found.is_some() {
                        return found;
                    }
                    path.truncate(len);
                }
                None
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                for (i, (p, q)) in x.iter().zip(y).enumerate() {
                    path.push('/');
                    path.push_str(&i.to_string());
                    let found = walk(p, q, path);
                    if found.is_some() {
                        return found;
                    }
                    path.truncate(len);
                }
                None
            }
            _ if a == b => None,
            _ => Some(format!(
                "at {}: {} vs {}",
                if path.is_empty() { "/" } else { path },
                shown(Some(a)),
                shown(Some(b))
            )),
        }
    }
    fn shown(v: Option<&Value>) -> String {
        let text = v.map_or_else(|| "(missing)".to_owned(), Value::to_string);
        short(&text)
    }
    walk(a, b, &mut String::new())
        .unwrap_or_else(|| "their JSON is equal: they differ in something serde skips".to_owned())
}

/// The first 300 characters of a text, for failure messages.
fn short(text: &str) -> String {
    match text.char_indices().nth(300) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}
