//! Seeded random games: gnomes and tokens are conserved, and games end both ways.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::conformance::MAX_ACTIONS;
use super::*;
use crate::rules::garden_gnomes::state::count;
use crate::rules::{Chance, Outcome};

fn pick(rng: &mut ChaCha8Rng, chance: &Chance<Action>) -> Action {
    let point = rng.random_range(0..chance.total_weight());
    chance.pick(point).cloned().unwrap()
}

/// Every token is somewhere: the supply or a clan (120 in all); no clan has more gnomes on
/// the board than its card allows.
fn check(state: &State) {
    if state.clans.iter().any(|c| c.colour.is_none()) || state.round == 0 {
        return;
    }
    let tokens: u32 = state
        .supply
        .iter()
        .chain(state.clans.iter().flat_map(|c| c.tokens.iter()))
        .map(|&(_, n)| u32::from(n))
        .sum();
    assert_eq!(tokens, 120);
    for clan in &state.clans {
        assert!(clan.on_board() <= u32::from(clan.colour.unwrap().card().gnomes));
    }
    assert!(count(&state.supply, Token::Acorn) <= 30);
}

fn playout(options: &Options, seats: usize, seed: u64) -> (usize, State, Outcome) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = Game::new_game(options, seats).unwrap();
    for step in 0..MAX_ACTIONS {
        check(&state);
        let (actor, action) = match Game::next(&state) {
            Next::Over(outcome) => return (step, state, outcome),
            Next::Chance(chance) => (Actor::Chance, pick(&mut rng, &chance)),
            Next::Players(players) => {
                let seat = players[rng.random_range(0..players.len())];
                let legal = Game::legal_actions(&state, seat);
                (
                    Actor::Seat(seat),
                    legal[rng.random_range(0..legal.len())].clone(),
                )
            }
        };
        Game::apply(&mut state, actor, &action).unwrap();
    }
    panic!("seed {seed} with {seats} seats did not end within {MAX_ACTIONS} actions");
}

// "When at least one player have completed all of his/her Objectives the game ends." Random
// play completes objectives in some games and reaches the round limit (an option) in others.
#[test]
fn random_games_end_by_objectives_or_by_the_round_limit() {
    let (mut by_objectives, mut by_limit) = (0, 0);
    // As new games get them (the current edition; review 2026-11-28, GG-3).
    let options = Game::for_new_game(Options {
        round_limit: Some(20),
        ..Options::default()
    });
    for seats in 2..=6 {
        for seed in 0..20 {
            let (_, state, outcome) = playout(&options, seats, seed);
            assert!(!outcome.winners.is_empty());
            if let Phase::Over(ending) = &state.phase {
                if ending.finished.is_empty() && state.round == 20 {
                    by_limit += 1;
                } else if ending.finished.is_empty() {
                    // Ruling 13: nobody could complete their objectives any more.
                    assert!(ending.summary.starts_with("Nobody can complete"));
                } else {
                    by_objectives += 1;
                }
            }
        }
    }
    assert!(
        by_objectives > 0 && by_limit > 0,
        "{by_objectives} {by_limit}"
    );
}
