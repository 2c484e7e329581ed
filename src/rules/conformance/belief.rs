//! The belief check: the built-in bot's look-ahead starts from [`Ruleset::imagine`], a state
//! its seat could believe it is in. That state must hide from the bot what its seat cannot
//! see, and must not hide what it can.
//!
//! - **Nothing hidden shows through:** for a twin that differs only in another seat's secrets
//!   ([`Secrets::perturb`]), every other seat's imagined state is the same as the state's, for
//!   the same random numbers. Otherwise the bot plays on what its player could not know (a
//!   draw weighed by the true deck, which leaves out the rivals' hands).
//! - **Nothing seen is forgotten:** the seat sees its imagined state as it sees the true one:
//!   the same view, the same seats asked (but where who is asked depends on secrets by a
//!   documented choice: [`Secrets::asking_discloses`]), the same legal actions with the same
//!   labels.
//!
//! [`Ruleset::imagine`]: crate::rules::Ruleset::imagine

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::viewers::asked;
use super::{Secrets, Stats, first_difference, to_json};
use crate::rules::{Seat, Viewer};

/// `R::imagine` with random numbers from `seed`.
fn imagined<R: Secrets>(state: &R::State, seat: Seat, seed: u64) -> R::State {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pick = |n: usize| if n == 0 { 0 } else { rng.random_range(0..n) };
    R::imagine(state, seat, &mut pick)
}

/// Every seat but `perturbed` imagines the same state from `state` and from `twin` (which
/// differ only in `perturbed`'s secrets), for the same `seed`. Panics naming the seat.
pub(super) fn same_beliefs<R: Secrets>(
    state: &R::State,
    twin: &R::State,
    seats: usize,
    perturbed: Seat,
    seed: u64,
) {
    for seat in (0..seats).filter(|&s| s != perturbed) {
        let (a, b) = (
            imagined::<R>(state, seat, seed),
            imagined::<R>(twin, seat, seed),
        );
        if a != b {
            panic!(
                "what seat {seat} imagines (Ruleset::imagine, the bot's look-ahead) depends on \
                 seat {perturbed}'s secrets (Secrets::perturb gave a twin): {}",
                first_difference(&to_json(&a), &to_json(&b))
            );
        }
    }
}

/// `seat` sees what it imagines from `state` as it sees `state`: the same view, the same
/// seats asked, the same legal actions with the same labels. Panics naming what differs.
pub(super) fn nothing_forgotten<R: Secrets>(
    state: &R::State,
    seat: Seat,
    seed: u64,
    stats: &mut Stats,
) {
    let believed = imagined::<R>(state, seat, seed);
    if believed == *state {
        return;
    }
    stats.imagined += 1;
    let viewer = Viewer::Seat(seat);
    let (view, believed_view) = (R::view(state, viewer), R::view(&believed, viewer));
    if view != believed_view {
        panic!(
            "seat {seat} sees what it imagines (Ruleset::imagine) otherwise than the true \
             state: {}",
            first_difference(&view, &believed_view)
        );
    }
    let (asked, believed_asked) = (asked::<R>(state), asked::<R>(&believed));
    assert!(
        asked == believed_asked || R::asking_discloses(state) || R::asking_discloses(&believed),
        "in what seat {seat} imagines (Ruleset::imagine), {believed_asked}, but {asked} in the \
         true state"
    );
    let labelled = |s: &R::State| -> Vec<(R::Action, String)> {
        R::legal_actions(s, seat)
            .into_iter()
            .map(|a| {
                let label = R::label(s, seat, &a);
                (a, label)
            })
            .collect()
    };
    let (legal, believed_legal) = (labelled(state), labelled(&believed));
    assert!(
        legal == believed_legal,
        "seat {seat}'s legal actions or their labels differ in what it imagines \
         (Ruleset::imagine) from the true state's: {believed_legal:?} vs {legal:?}"
    );
    // A standing order decides only on what its seat may see: the same in every state the
    // seat could believe it is in. So are the notations the seat reads its choices by.
    // An order that takes an argument is played as its example (`OrderDoc::example`).
    for order in R::standing_orders() {
        let text = order.example.unwrap_or(order.id);
        let (answer, believed_answer) = (
            R::standing_answer(state, seat, text),
            R::standing_answer(&believed, seat, text),
        );
        assert!(
            answer == believed_answer,
            "the standing order {:?} of seat {seat} answers {answer:?}, but {believed_answer:?} \
             in what the seat imagines (Ruleset::imagine): it decides on what the seat cannot see",
            text
        );
    }
    let notations = |s: &R::State| -> Vec<String> {
        R::legal_actions(s, seat)
            .iter()
            .map(|a| R::notation(s, seat, a))
            .collect()
    };
    assert!(
        notations(state) == notations(&believed),
        "seat {seat}'s notations differ in what it imagines (Ruleset::imagine): they depend on \
         what it cannot see"
    );
}
