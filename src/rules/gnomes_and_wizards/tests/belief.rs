//! The built-in bot's belief (`Ruleset::imagine`) holds no card a rival placed in secret.

use super::*;
use crate::rules::gnomes_and_wizards::belief;

// "That player secretly looks at the cards drawn and chooses one of them to keep, returning
// the other card to the bottom of it's respective deck." Another seat cannot tell the kept
// card from the returned one, so its belief deals the bottom of the deck anew (issue 38; the
// review of 2026-11-28 found the true card kept there).
#[test]
fn a_rival_cannot_tell_the_card_put_back_from_the_card_kept() {
    let mut kept_first = start(2);
    let secret: Vec<u16> = kept_first
        .unseen
        .iter()
        .copied()
        .filter(|c| !belief::learned(c))
        .take(2)
        .collect();
    let [one, other] = secret[..] else {
        panic!("two Secret cards unseen")
    };
    kept_first.unseen.retain(|c| !secret.contains(c));
    let mut kept_second = kept_first.clone();
    // Seat 0 drew both: kept `one` and put `other` back, or the other way round.
    kept_first.players[0].hand.push(one);
    kept_first.bottom_secret.push(other);
    kept_second.players[0].hand.push(other);
    kept_second.bottom_secret.push(one);
    for draws in 0..20u64 {
        let picks = |draws: u64| {
            let mut n = draws;
            move |below: usize| {
                n = n.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                usize::try_from(n >> 33).unwrap_or(0) % below.max(1)
            }
        };
        let a = belief::imagine(&kept_first, 1, &mut picks(draws));
        let b = belief::imagine(&kept_second, 1, &mut picks(draws));
        assert_eq!(a.bottom_secret, b.bottom_secret, "draws {draws}");
        assert_eq!(a.players[0].hand, b.players[0].hand, "draws {draws}");
        assert_eq!(a.bottom_secret.len(), 1);
    }
    // The seat that put the card back is not fooled about its own hand.
    let own = belief::imagine(&kept_first, 0, &mut |_| 0);
    assert!(own.players[0].hand.contains(&one));
}
