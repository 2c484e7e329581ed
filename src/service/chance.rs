//! The game's secret RNG. The chance step at log position `seq` draws from a ChaCha20 stream
//! keyed by SHA-256("turnpost-chance-v1" ‖ seed ‖ seq), so the seed alone reproduces every
//! chance outcome, in any order, and an engine upgrade cannot change past rolls.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};

use crate::rules::weighted_index;

pub const SEED_LEN: usize = 32;

/// A fresh secret seed for a new game.
pub fn new_seed() -> [u8; SEED_LEN] {
    rand::random()
}

/// The published commitment to a seed: SHA-256, hex.
pub fn seed_sha256(seed: &[u8]) -> String {
    hex::encode(Sha256::digest(seed))
}

fn rng_at(seed: &[u8], seq: i64) -> ChaCha20Rng {
    let mut h = Sha256::new();
    h.update(b"turnpost-chance-v1");
    h.update(seed);
    h.update(seq.to_be_bytes());
    ChaCha20Rng::from_seed(h.finalize().into())
}

/// The seed of the built-in bot's decision logged at `seq`: derived from the game's secret
/// seed (so a bot's choices are reproducible from the revealed seed), never equal to a chance
/// step's stream.
pub fn bot_seed(seed: &[u8], seq: i64) -> u64 {
    let mut h = Sha256::new();
    h.update(b"turnpost-bot-v1");
    h.update(seed);
    h.update(seq.to_be_bytes());
    let digest = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

/// The outcome index for the chance step logged at `seq`, given its weights.
pub fn pick(seed: &[u8], seq: i64, weights: &[u32]) -> Option<usize> {
    let total: u64 = weights.iter().map(|w| u64::from(*w)).sum();
    if total == 0 {
        return None;
    }
    let point = rng_at(seed, seq).random_range(0..total);
    weighted_index(weights.iter().copied(), point)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_are_reproducible_from_seed_and_position() {
        let seed = [7u8; SEED_LEN];
        let weights = [3, 1, 5, 1];
        let a: Vec<_> = (1..200).map(|seq| pick(&seed, seq, &weights)).collect();
        let b: Vec<_> = (1..200).map(|seq| pick(&seed, seq, &weights)).collect();
        assert_eq!(a, b);
        let other: Vec<_> = (1..200)
            .map(|seq| pick(&[8u8; SEED_LEN], seq, &weights))
            .collect();
        assert_ne!(a, other, "another seed gives other outcomes");
        // Every outcome is reachable and weights matter: index 2 (weight 5) is most common.
        let count = |i| a.iter().filter(|p| **p == Some(i)).count();
        assert!((0..4).all(|i| count(i) > 0));
        assert!(count(2) > count(1) && count(2) > count(3));
        assert_eq!(pick(&seed, 1, &[]), None);
    }

    #[test]
    fn published_hash_is_sha256_of_the_seed() {
        assert_eq!(
            seed_sha256(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
