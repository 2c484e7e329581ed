//! Whole games with seeded pseudo-random players: every game ends, within the bound used by
//! the conformance test, and they end by Temples, by 33 garrisons and by the turn limit. Two policies: uniformly random,
//! and a "patient" one that ends its movement half the time (so games reach the turn limit).

use super::*;

/// A small deterministic generator (xorshift), so the test needs no RNG crate.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn play(seats: usize, seed: u64, patient: bool) -> (usize, crate::rules::Outcome) {
    let mut dice = Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut state = Game::new_game(&Options::default(), seats).unwrap();
    let mut steps = 0;
    loop {
        match Game::next(&state) {
            Next::Over(outcome) => return (steps, outcome),
            Next::Chance(c) => {
                let total: u32 = c.outcomes.iter().map(|(_, w)| *w).sum();
                let mut point = dice.below(total as usize) as u32;
                let mut pick = c.outcomes[0].0.clone();
                for (a, w) in &c.outcomes {
                    if point < *w {
                        pick = a.clone();
                        break;
                    }
                    point -= w;
                }
                Game::apply(&mut state, Actor::Chance, &pick).unwrap();
            }
            Next::Players(seats) => {
                let seat = seats[dice.below(seats.len())];
                let actions = Game::legal_actions(&state, seat);
                let action =
                    if patient && actions.contains(&Action::EndMovement) && dice.below(2) == 0 {
                        Action::EndMovement
                    } else {
                        actions[dice.below(actions.len())].clone()
                    };
                Game::apply(&mut state, Actor::Seat(seat), &action).unwrap();
            }
        }
        steps += 1;
        assert!(steps < 20_000, "seed {seed}: the game did not end");
    }
}

#[test]
fn random_games_end_in_every_way() {
    let mut longest = 0;
    let mut ends = [0usize; 4];
    for seats in 2..=4 {
        for seed in 0..40 {
            for patient in [false, true] {
                let (steps, outcome) = play(seats, seed, patient);
                longest = longest.max(steps);
                let kind = if outcome.summary.contains("eliminated")
                    || outcome.summary.contains("nobody")
                {
                    0
                } else if outcome.summary.contains("Temples") {
                    1
                } else if outcome.summary.contains("33") {
                    2
                } else {
                    3
                };
                ends[kind] += 1;
            }
        }
    }
    println!(
        "240 games: longest {longest} actions; elimination {}, temples {}, 33 garrisons {}, \
         turn limit {}",
        ends[0], ends[1], ends[2], ends[3]
    );
    assert!(longest < 20_000);
    // Random players rarely wipe each other out; elimination is checked in `victory.rs`.
    assert!(ends[1] > 0 && ends[2] > 0 && ends[3] > 0);
}
