//! One game played out on the engine alone, without the service: whoever sits at the table
//! ([`Table`]) resolves the chance steps and the seats' decisions. The all-bot games of
//! `bots::turn_tests` and the duels of `service::duel` are both played by [`play_out`].

use serde_json::Value;

use crate::rules::{GameState, Outcome, Seat, Waiting};

/// Who resolves what a game waits for.
pub trait Table {
    /// The outcome (an index into `weights`) of the chance step that is the game's `step`-th
    /// action (from 1).
    fn chance(&mut self, step: u64, weights: &[u32]) -> Option<usize>;
    /// Which of the `acting` seats acts as the game's `step`-th action, and how.
    fn decide(
        &mut self,
        state: &dyn GameState,
        acting: &[Seat],
        step: u64,
    ) -> Result<(Seat, Value), String>;
}

/// How far a game got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedOut {
    /// The result, if the game ended within the bound.
    pub outcome: Option<Outcome>,
    /// The seats' decisions (every action a seat took).
    pub decisions: usize,
    /// Every action of the game, chance steps included.
    pub actions: usize,
}

/// Where a game that has not ended is stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Once the seats have decided more than this many times.
    Decisions(usize),
    /// Once this many actions (chance steps included) are played.
    Actions(usize),
}

/// Chance steps in a row beyond which a game is taken not to go on (no ruleset comes near).
const CHANCE_RUN: usize = 10_000;

/// Plays `state` on until it is over or past `bound` (then `outcome` is `None`: unfinished).
/// An error: a chance step without outcomes, an action the rules refuse, or a table that
/// found no decision.
pub fn play_out(
    state: &mut dyn GameState,
    table: &mut dyn Table,
    bound: Bound,
) -> Result<PlayedOut, String> {
    let mut played = PlayedOut {
        outcome: None,
        decisions: 0,
        actions: 0,
    };
    let mut chance_run = 0usize;
    let within = |played: &PlayedOut| match bound {
        Bound::Decisions(n) => played.decisions <= n,
        Bound::Actions(n) => played.actions < n,
    };
    while within(&played) && chance_run <= CHANCE_RUN {
        let step = played.actions as u64 + 1;
        match state.waiting() {
            Waiting::Over(outcome) => {
                played.outcome = Some(outcome);
                return Ok(played);
            }
            Waiting::Chance(weights) => {
                chance_run += 1;
                let index = table
                    .chance(step, &weights)
                    .ok_or("a chance step without outcomes")?;
                state
                    .apply_chance(index)
                    .map_err(|e| format!("a listed chance outcome failed: {e}"))?;
            }
            Waiting::Players(acting) => {
                chance_run = 0;
                played.decisions += 1;
                let (seat, action) = table.decide(state, &acting, step)?;
                state
                    .apply_json(seat, &action)
                    .map_err(|e| format!("seat {seat}: {action}: {e}"))?;
            }
        }
        played.actions += 1;
    }
    Ok(played)
}

/// Decisions within which a game of bots ends, per ruleset, at every seat count with the
/// default options (the bound `docs/BOTS.md` documents): about ten times the longest game
/// seen. The duels of `service::duel` stop a game there too.
pub fn decision_bound(id: &str) -> usize {
    match id {
        "bag-of-fate" | "garden-gnomes" => 2_000,
        "wiz-war" => 3_000,
        "monsters-and-magic" => 6_000,
        _ => 12_000,
    }
}
