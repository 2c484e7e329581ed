//! Logs written by earlier Turnposts must still fold.
//!
//! A game lives for months, so a release meets logs that older releases wrote. The stored
//! snapshot may be refolded from the log (`service::upgrade`), but only if every logged action
//! is still one the rules accept, leading to the same position. `old_logs/<ruleset>.json`
//! holds a few games' logs as a past release wrote them (seeded random play, part of a game
//! each); the test folds each under the current rules and checks who is to act at its end.
//!
//! A rule change that makes one fail would leave such games stuck: keep the old behaviour for
//! games created before it (an option the old games lack, defaulting to the old rule), rather
//! than regenerating the file. New files (a new ruleset, new options) are written by
//! `TURNPOST_WRITE_OLD_LOGS=1 cargo test --lib old_logs -- --ignored`, which only adds
//! games: it never rewrites a log already kept.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::registry::{Game, Waiting};
use super::{Actor, Registry};

#[derive(Debug, Serialize, Deserialize)]
struct OldGame {
    /// The options as the service stored them (normalised).
    options: Value,
    seats: usize,
    log: Vec<(Actor, Value)>,
    /// Who was to act after the last entry: `{"players": [..]}`, `{"chance": n}` or
    /// `{"over": winners}`.
    waiting: Value,
}

fn waiting_json(w: &Waiting) -> Value {
    match w {
        Waiting::Players(seats) => serde_json::json!({ "players": seats }),
        Waiting::Chance(weights) => serde_json::json!({ "chance": weights.len() }),
        Waiting::Over(outcome) => serde_json::json!({ "over": outcome.winners }),
    }
}

fn path(ruleset: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/rules/old_logs")
        .join(format!("{ruleset}.json"))
}

fn read(ruleset: &str) -> Vec<OldGame> {
    match std::fs::read_to_string(path(ruleset)) {
        Ok(text) => serde_json::from_str(&text).unwrap_or_else(|e| panic!("{ruleset}: {e}")),
        Err(_) => Vec::new(),
    }
}

/// A small deterministic generator (splitmix64): the logs need not be secret, only varied.
struct Mix(u64);

impl Mix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        usize::try_from(z % (n.max(1) as u64)).unwrap_or(0)
    }
}

/// Plays up to `steps` entries of a seeded random game.
fn record(game: &dyn Game, options: &Value, seats: usize, seed: u64, steps: usize) -> OldGame {
    let options = game.normalise_options(options).expect("options");
    let mut state = game.new_game(&options, seats).expect("new game");
    let mut mix = Mix(seed);
    let mut log = Vec::new();
    for _ in 0..steps {
        let applied = match state.waiting() {
            Waiting::Over(_) => break,
            Waiting::Chance(weights) => {
                let possible: Vec<usize> = (0..weights.len()).filter(|i| weights[*i] > 0).collect();
                state
                    .apply_chance(possible[mix.below(possible.len())])
                    .expect("chance")
            }
            Waiting::Players(to_act) => {
                let seat = to_act[mix.below(to_act.len())];
                let legal = state.legal_actions(seat);
                let pick = &legal[mix.below(legal.len())];
                state.apply_json(seat, &pick.action).expect("legal action")
            }
        };
        log.push((applied.actor, applied.action));
    }
    OldGame {
        options,
        seats,
        log,
        waiting: waiting_json(&state.waiting()),
    }
}

#[test]
fn every_kept_log_of_an_earlier_release_still_folds_to_the_same_position() {
    let registry = Registry::standard();
    let mut folded = 0;
    for game in registry.all() {
        let kept = read(game.id());
        assert!(
            !kept.is_empty(),
            "no old logs kept for {}: write them (see the module doc)",
            game.id()
        );
        for (n, old) in kept.iter().enumerate() {
            let state = game
                .fold(&old.options, old.seats, &old.log)
                .unwrap_or_else(|e| {
                    panic!(
                        "{} game {n} written by an earlier release no longer folds: {e}; \
                         such games would be stuck (see the module doc)",
                        game.id()
                    )
                });
            assert_eq!(
                waiting_json(&state.waiting()),
                old.waiting,
                "{} game {n}: the log folds to another position",
                game.id()
            );
            folded += 1;
        }
    }
    assert!(folded >= 10, "two games per ruleset at least");
}

/// Writes the logs of rulesets (and seat counts) that have none yet, keeping those there.
#[test]
#[ignore = "writes src/rules/old_logs/; run by hand (module doc)"]
fn write_old_logs() {
    if std::env::var_os("TURNPOST_WRITE_OLD_LOGS").is_none() {
        return;
    }
    let registry = Registry::standard();
    for game in registry.all() {
        let mut kept = read(game.id());
        let seats = game.seats(&Value::Null).expect("seats");
        for (i, seats) in [*seats.start(), *seats.end()].into_iter().enumerate() {
            if kept.iter().any(|g| g.seats == seats) {
                continue;
            }
            kept.push(record(game, &Value::Null, seats, 1000 + i as u64, 300));
        }
        let text = serde_json::to_string(&kept).expect("json");
        std::fs::create_dir_all(path(game.id()).parent().expect("dir")).expect("mkdir");
        std::fs::write(path(game.id()), text + "\n").expect("write");
    }
}
