//! States along a seeded random playout, for tests that compare two renderings of the same
//! state (e.g. a typed view against the `json!` one it replaced).

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::rules::{Actor, Next, Ruleset, Viewer};

/// Every state of a random playout from `seed` (at most `steps` actions), the first included:
/// the acting seat, its action and each chance outcome drawn at random among those listed.
pub fn sample_states<R: Ruleset>(
    options: &R::Options,
    seats: usize,
    seed: u64,
    steps: usize,
) -> Vec<R::State> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let Ok(mut state) = R::new_game(options, seats) else {
        panic!("{}: no game of {seats} seats with {options:?}", R::ID);
    };
    let mut states = vec![state.clone()];
    for _ in 0..steps {
        let (actor, action) = match R::next(&state) {
            Next::Over(_) => break,
            Next::Chance(chance) => {
                let Some((action, _)) = chance.outcomes.choose(&mut rng) else {
                    break;
                };
                (Actor::Chance, action.clone())
            }
            Next::Players(acting) => {
                let Some(&seat) = acting.choose(&mut rng) else {
                    break;
                };
                let legal = R::legal_actions(&state, seat);
                if legal.is_empty() {
                    break;
                }
                let pick = rng.random_range(0..legal.len());
                (Actor::Seat(seat), legal[pick].clone())
            }
        };
        if let Err(e) = R::apply(&mut state, actor, &action) {
            panic!("{}: a listed action {action:?} failed: {e}", R::ID);
        }
        states.push(state.clone());
    }
    states
}

/// Every viewer of a table of `seats`: each seat, a spectator, and everyone.
pub fn all_viewers(seats: usize) -> Vec<Viewer> {
    (0..seats)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator, Viewer::Everyone])
        .collect()
}

/// Checks that `R::view` writes exactly the JSON `old` wrote (the same text) for every viewer,
/// at every `every`-th state and the last of two seeded playouts per seat count and option
/// set. Returns how many views were compared, and how many of the states were finished games.
pub fn same_views<R: Ruleset>(
    old: fn(&R::State, Viewer) -> serde_json::Value,
    steps: usize,
    every: usize,
) -> (usize, usize) {
    let mut compared = 0;
    let mut ended = 0;
    for options in R::option_sets() {
        for seats in R::seats(&options) {
            for seed in 0..2 {
                let states = sample_states::<R>(&options, seats, seed, steps);
                let every = every.max(1);
                // Every `every`-th state, and the last (the end, when the game ended).
                let last = states.len().saturating_sub(1);
                let chosen = states
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i % every == 0 || *i == last);
                for (_, state) in chosen {
                    if matches!(R::next(state), Next::Over(_)) {
                        ended += 1;
                    }
                    for viewer in all_viewers(seats) {
                        let new = R::view(state, viewer).to_string();
                        let was = old(state, viewer).to_string();
                        assert_eq!(
                            new,
                            was,
                            "{}: {seats} seats, seed {seed}, {viewer:?}: the view changed",
                            R::ID
                        );
                        compared += 1;
                    }
                }
            }
        }
    }
    (compared, ended)
}
