//! Whole games played by bots (and by the conformance suite's random player), through the
//! erased interface the service uses.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::choose;
use crate::rules::{Game, GameState, Outcome, Registry, Seat, Waiting, weighted_index};

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    Bot,
    /// The conformance suite's random player: a uniformly random legal action.
    Random,
}

/// A finished game.
struct Played {
    outcome: Outcome,
    /// Every action, chance outcomes included, in order.
    log: Vec<Value>,
    decisions: usize,
}

/// Plays a game of `seats` from `seed` to the end, seat `s` played by `players[s % len]`;
/// chance is drawn as the conformance suite draws it (a point in the total weight from a
/// `ChaCha8Rng` seeded with `seed`). Fails if the game runs past `max_steps` actions or a bot
/// picks an action that is not listed.
fn play(
    game: &dyn Game,
    seats: usize,
    seed: u64,
    players: &[Player],
    max_steps: usize,
) -> Result<Played, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = game
        .new_game(&Value::Null, seats)
        .map_err(|e| e.to_string())?;
    let mut log = Vec::new();
    let mut decisions = 0;
    while log.len() < max_steps {
        match state.waiting() {
            Waiting::Over(outcome) => {
                return Ok(Played {
                    outcome,
                    log,
                    decisions,
                });
            }
            Waiting::Chance(weights) => {
                let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
                let point = rng.random_range(0..total.max(1));
                let index =
                    weighted_index(weights, point).ok_or("a chance step without outcomes")?;
                let applied = state.apply_chance(index).map_err(|e| e.to_string())?;
                log.push(applied.action);
            }
            Waiting::Players(acting) => {
                let seat = acting[rng.random_range(0..acting.len())];
                let legal = state.legal_actions(seat);
                let action = match players[seat % players.len()] {
                    Player::Random => legal[rng.random_range(0..legal.len())].action.clone(),
                    Player::Bot => {
                        decisions += 1;
                        let step = log.len() as u64;
                        let action = choose(state.as_ref(), seat, seed ^ step.rotate_left(32))
                            .ok_or_else(|| format!("the bot found nothing for seat {seat}"))?;
                        if !legal.iter().any(|a| a.action == action) {
                            return Err(format!("the bot chose {action}, which is not listed"));
                        }
                        action
                    }
                };
                state
                    .apply_json(seat, &action)
                    .map_err(|e| format!("{action} failed: {e}"))?;
                log.push(action);
            }
        }
    }
    let tail: Vec<String> = log[log.len().saturating_sub(12)..]
        .iter()
        .map(|a| a.to_string())
        .collect();
    Err(format!(
        "the game did not end within {max_steps} actions; the last: {}",
        tail.join(" ")
    ))
}

fn games() -> Registry {
    Registry::standard()
}

#[test]
#[ignore = "exploration: cargo test --lib bots -- --ignored --nocapture"]
fn explore() {
    let registry = games();
    let only = std::env::var("ONLY").unwrap_or_default();
    let n_games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    for game in registry.all() {
        if !only.is_empty() && game.id() != only {
            continue;
        }
        let seats = game.seats(&Value::Null).unwrap_or(2..=2);
        let n = (*seats.start()).max(2);
        let started = std::time::Instant::now();
        match play(game, n, 1, &[Player::Bot], 50_000) {
            Ok(p) => println!(
                "{}: {n} seats: {} actions, {} decisions, {:?} ({:?} per decision); {}",
                game.id(),
                p.log.len(),
                p.decisions,
                started.elapsed(),
                started.elapsed() / p.decisions.max(1) as u32,
                p.outcome.summary
            ),
            Err(e) => println!("{}: {e}", game.id()),
        }
        let started = std::time::Instant::now();
        let (mut wins, mut losses, mut draws, mut steps) = (0, 0, 0, 0);
        for seed in 0..n_games {
            let bot = (seed % 2) as usize;
            let players = if bot == 0 {
                [Player::Bot, Player::Random]
            } else {
                [Player::Random, Player::Bot]
            };
            match play(game, 2, seed, &players, 50_000) {
                Ok(p) => {
                    steps += p.log.len();
                    let w = &p.outcome.winners;
                    if w.contains(&bot) && w.len() == 1 {
                        wins += 1
                    } else if w.contains(&bot) || w.is_empty() {
                        draws += 1
                    } else {
                        losses += 1
                    }
                }
                Err(e) => println!("  seed {seed}: {e}"),
            }
        }
        println!(
            "  vs random: {wins} wins, {losses} losses, {draws} shared/none; {steps} actions; {:?}",
            started.elapsed()
        );
    }
}

#[test]
#[ignore = "exploration: GAME=<id> SEED=<n> FROM=<step>"]
fn debug_loop() {
    let registry = games();
    let Ok(id) = std::env::var("GAME") else {
        return;
    };
    let Some(game) = registry.get(&id) else {
        return;
    };
    let seed: u64 = std::env::var("SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let from: u64 = std::env::var("FROM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let bot = (seed % 2) as usize;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = game.new_game(&Value::Null, 2).unwrap();
    let mut log: Vec<Value> = Vec::new();
    while (log.len() as u64) < from + 8 {
        match state.waiting() {
            Waiting::Over(_) => return,
            Waiting::Chance(weights) => {
                let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
                let point = rng.random_range(0..total.max(1));
                let index = weighted_index(weights, point).unwrap();
                log.push(state.apply_chance(index).unwrap().action);
            }
            Waiting::Players(acting) => {
                let seat = acting[rng.random_range(0..acting.len())];
                let legal = state.legal_actions(seat);
                let action = if seat != bot {
                    legal[rng.random_range(0..legal.len())].action.clone()
                } else {
                    let step = log.len() as u64;
                    let s = seed ^ step.rotate_left(32);
                    let action = choose(state.as_ref(), seat, s).unwrap();
                    if step >= from {
                        let default = state.default_action(seat);
                        let d = default
                            .as_ref()
                            .and_then(|d| legal.iter().position(|a| &a.action == d));
                        let mut tb = ChaCha8Rng::seed_from_u64(s);
                        println!("at step {step}, eval {}", state.evaluate(seat));
                        for (i, v) in
                            super::scores(state.as_ref(), seat, s, legal.len(), d, &mut tb)
                        {
                            println!("  {} = {v}", legal[i].action);
                        }
                        println!("  chose {action}");
                    }
                    action
                };
                state.apply_json(seat, &action).unwrap();
                log.push(action);
            }
        }
    }
}
