//! The twin check: what the other viewers see must not depend on one seat's secrets.
//!
//! Planted markers catch a secret that is *shown*. They cannot catch one that is *given away*:
//! a hand index that tells how many cards sort before the card played, a move the engine makes
//! without asking because the hand leaves only one, a card named where only its deck should be.
//! Those show as a difference between the game and a twin that differs only in one seat's
//! secrets (its hidden cards re-dealt from what nobody sees: [`Secrets::perturb`]). To every
//! other viewer the two must look the same now; and after any action both allow they must get
//! the same log entry (in the form that viewer is shown, with its description) and see the same
//! seats asked to decide next (whether a decision was asked is visible: a move made for the
//! player shows that its hand left no choice). The views after it are not compared: a move the
//! rules make on their own may rightly show a card (the last card of a hand, played face up).
//!
//! The same holds for the move a deadline makes (`default_action`, played by the service when a
//! clock runs out): if the seat whose secrets differ is to act, its default action in each twin
//! must give every other viewer the same log entry and the same seats asked next. A default
//! that plays "the first card" of a sorted hand tells everyone that no card of the hand sorts
//! before it; one that must give up a hidden card has to leave the pick to chance.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::viewers::{asked, viewers};
use super::{Secrets, Stats, belief, first_difference, short, to_json};
use crate::rules::{Actor, Next, Seat, Viewer};

/// Actions tried on both twins at one state (chosen at random among those both allow).
const ACTIONS_PER_TWIN: usize = 8;

/// Twins made at one state to see whether a hidden default is the same whatever the secrets.
const DEFAULT_TWINS: usize = 8;

/// Compares `state` with a twin in which `seat`'s secrets differ (if [`Secrets::perturb`] makes
/// one), for every viewer but `seat`. Panics naming what differs.
pub(super) fn check<R: Secrets>(
    state: &R::State,
    seats: usize,
    seat: Seat,
    rng: &mut ChaCha8Rng,
    stats: &mut Stats,
) {
    let mut pick = |n: usize| if n == 0 { 0 } else { rng.random_range(0..n) };
    let Some(twin) = R::perturb(state, seat, &mut pick) else {
        return;
    };
    if twin == *state {
        return;
    }
    stats.twins += 1;
    belief::same_beliefs::<R>(state, &twin, seats, seat, seat as u64);
    let others: Vec<Viewer> = viewers(seats)
        .into_iter()
        .filter(|&v| v != Viewer::Seat(seat))
        .collect();
    let what = || format!("seat {seat}'s secrets (Secrets::perturb gave a twin)");
    same_views::<R>(state, &twin, &others, &what);
    let (asked, twin_asked) = (asked::<R>(state), asked::<R>(&twin));
    assert!(
        asked == twin_asked || R::asking_discloses(state) || R::asking_discloses(&twin),
        "whether a decision is asked depends on {}: {asked} vs {twin_asked}",
        what()
    );
    // The service plays a lone choice without asking (`Ruleset::keeps_asking`): whether it does
    // is seen by all, so it must not depend on the seat's secrets.
    let forced = |s: &R::State| R::legal_actions(s, seat).len() == 1 && !R::keeps_asking(s, seat);
    let (lone, twin_lone) = (forced(state), forced(&twin));
    assert!(
        lone == twin_lone,
        "whether seat {seat}'s choice is forced (its only legal action, played without asking: \
         Ruleset::keeps_asking) depends on {}: {lone} vs {twin_lone}; legal actions {:?} vs {:?}",
        what(),
        R::legal_actions(state, seat),
        R::legal_actions(&twin, seat)
    );
    if lone {
        stats.forced_twins += 1;
    }
    same_default::<R>(state, &twin, seat, &others, &what);
    unguessable_default::<R>(state, seat, &mut pick);
    let mut both = allowed_in_both::<R>(state, &twin, seats);
    for _ in 0..ACTIONS_PER_TWIN.min(both.len()) {
        let (actor, action) = both.swap_remove(pick(both.len()));
        stats.twin_actions += 1;
        after_action::<R>((state, &action), (&twin, &action), actor, &others, &what);
    }
}

/// If `seat` is to act: its default action (what the service plays when its clock runs out) in
/// each twin gives every other viewer the same log entry and asks the same seats next, as if
/// both twins had played the one action (the "same_default" property).
fn same_default<R: Secrets>(
    state: &R::State,
    twin: &R::State,
    seat: Seat,
    others: &[Viewer],
    what: &dyn Fn() -> String,
) {
    let acting = |s: &R::State| matches!(R::next(s), Next::Players(seats) if seats.contains(&seat));
    if !acting(state) || !acting(twin) {
        return;
    }
    match (
        R::default_action(state, seat),
        R::default_action(twin, seat),
    ) {
        (None, None) => {}
        (Some(default), Some(twin_default)) => after_action::<R>(
            (state, &default),
            (twin, &twin_default),
            Actor::Seat(seat),
            others,
            &|| format!("{} (the default action at a deadline)", what()),
        ),
        (default, twin_default) => panic!(
            "whether seat {seat} has a default action at a deadline depends on {}: {default:?} vs \
             {twin_default:?}",
            what()
        ),
    }
}

/// A default that makes a hidden choice (its log entry is not public) must not make the same
/// choice whatever the seat's secrets: the others could then work it out. Where `seat` is to
/// act with two or more choices, its default's change to its own view (what left and what came,
/// path by path) is compared between the state and up to [`DEFAULT_TWINS`] twins; the same
/// change in all of them fails. (Garden-gnomes' deadline once kept the first objective offered,
/// the clan's lowest own card, known to all, whatever neutral cards it was dealt: review of
/// 2026-11-28, L1.) A public default, or one that leaves the pick to chance, is not compared.
fn unguessable_default<R: Secrets>(
    state: &R::State,
    seat: Seat,
    pick: &mut dyn FnMut(usize) -> usize,
) {
    let acting = |s: &R::State| matches!(R::next(s), Next::Players(seats) if seats.contains(&seat));
    if !acting(state) || R::legal_actions(state, seat).len() < 2 {
        return;
    }
    let hidden = |s: &R::State| {
        let default = R::default_action(s, seat)?;
        let visibility = R::visibility(s, Actor::Seat(seat), &default);
        (!matches!(visibility, crate::rules::Visibility::Public))
            .then(|| own_change::<R>(s, seat, &default))
            .flatten()
    };
    let Some(change) = hidden(state) else {
        return;
    };
    let mut alike = 0;
    for _ in 0..DEFAULT_TWINS {
        let Some(twin) = R::perturb(state, seat, pick) else {
            return;
        };
        if twin == *state {
            continue;
        }
        if !acting(&twin) || hidden(&twin).as_ref() != Some(&change) {
            return;
        }
        alike += 1;
    }
    assert!(
        alike == 0,
        "seat {seat}'s default at a deadline makes the same hidden choice whatever its secrets \
         ({alike} twins with seat {seat}'s secrets re-dealt by Secrets::perturb), so the others \
         can work it out: {:?} changes seat {seat}'s view by {}",
        R::default_action(state, seat),
        change.join("; ")
    );
}

/// What `action` by `seat` changes in `seat`'s own view: per path, the values that left and
/// came (an array as a multiset), sorted.
fn own_change<R: Secrets>(state: &R::State, seat: Seat, action: &R::Action) -> Option<Vec<String>> {
    let before = R::view(state, Viewer::Seat(seat));
    let mut after = state.clone();
    R::apply(&mut after, Actor::Seat(seat), action).ok()?;
    let mut out = Vec::new();
    changes("", &before, &R::view(&after, Viewer::Seat(seat)), &mut out);
    out.sort();
    Some(out)
}

fn changes(path: &str, before: &Value, after: &Value, out: &mut Vec<String>) {
    if before == after {
        return;
    }
    match (before, after) {
        (Value::Object(a), Value::Object(b)) => {
            for key in a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))) {
                let (x, y) = (
                    a.get(key).unwrap_or(&Value::Null),
                    b.get(key).unwrap_or(&Value::Null),
                );
                changes(&format!("{path}/{key}"), x, y, out);
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            let mut left: Vec<&Value> = a.iter().collect();
            let mut came = Vec::new();
            for v in b {
                match left.iter().position(|l| *l == v) {
                    Some(i) => {
                        left.swap_remove(i);
                    }
                    None => came.push(v),
                }
            }
            out.extend(left.iter().map(|v| format!("{path} lost {v}")));
            out.extend(came.iter().map(|v| format!("{path} gained {v}")));
        }
        _ => out.push(format!("{path}: {before} to {after}")),
    }
}

/// The actions (by seat, or chance outcomes) listed now in both states.
fn allowed_in_both<R: Secrets>(
    state: &R::State,
    twin: &R::State,
    seats: usize,
) -> Vec<(Actor, R::Action)> {
    match (R::next(state), R::next(twin)) {
        (Next::Players(acting), Next::Players(_)) => acting
            .into_iter()
            .filter(|&s| s < seats)
            .flat_map(|s| {
                let theirs = R::legal_actions(twin, s);
                R::legal_actions(state, s)
                    .into_iter()
                    .filter(move |a| theirs.contains(a))
                    .map(move |a| (Actor::Seat(s), a))
            })
            .collect(),
        (Next::Chance(chance), Next::Chance(theirs)) => chance
            .outcomes
            .into_iter()
            .filter(|(a, _)| theirs.outcomes.iter().any(|(b, _)| a == b))
            .map(|(a, _)| (Actor::Chance, a))
            .collect(),
        _ => Vec::new(),
    }
}

/// After `action` in the state and `twin_action` in the twin (the same action, or each twin's
/// default action): the same log entry for each of `others`, and the same seats asked. (Not
/// the same views: a move the rules make on their own may show a card, as the last card of a
/// hand played without asking does, and that twin shows another.)
fn after_action<R: Secrets>(
    (state, action): (&R::State, &R::Action),
    (twin, twin_action): (&R::State, &R::Action),
    actor: Actor,
    others: &[Viewer],
    what: &dyn Fn() -> String,
) {
    let (mut after, mut twin_after) = (state.clone(), twin.clone());
    if let Err(e) = R::apply(&mut after, actor, action) {
        panic!("{action:?} is listed for {actor:?} but apply refused it: {e}");
    }
    if let Err(e) = R::apply(&mut twin_after, actor, twin_action) {
        panic!(
            "{twin_action:?} is listed for {actor:?} in the twin ({}), but apply refused it: {e}",
            what()
        );
    }
    // The end of the game shows everything (a game won on a secret objective ends in one twin
    // only): there is nothing left to keep, and the entry of the action that ended it may say
    // so (or say what would have come next in the other twin).
    let over = |s: &R::State| matches!(R::next(s), Next::Over(_));
    if over(&after) || over(&twin_after) {
        return;
    }
    for &viewer in others {
        let (entry, twin_entry) = (
            entry::<R>(state, actor, action, viewer),
            entry::<R>(twin, actor, twin_action, viewer),
        );
        assert!(
            entry == twin_entry,
            "the log entry of {action:?} by {actor:?}, as {viewer:?} is shown it, depends on {}: \
             {} vs {}",
            what(),
            short(&entry),
            short(&twin_entry)
        );
    }
    let (asked, twin_asked) = (asked::<R>(&after), asked::<R>(&twin_after));
    let disclosed = R::asking_discloses(&after) || R::asking_discloses(&twin_after);
    assert!(
        asked == twin_asked || disclosed,
        "after {action:?} by {actor:?}, whether a decision is asked depends on {}: {asked} vs \
         {twin_asked} (a move made without asking shows what the hand allowed)",
        what()
    );
}

fn same_views<R: Secrets>(
    state: &R::State,
    twin: &R::State,
    others: &[Viewer],
    what: &dyn Fn() -> String,
) {
    for &viewer in others {
        let (view, twin_view) = (R::view(state, viewer), R::view(twin, viewer));
        if view != twin_view {
            panic!(
                "{viewer:?}'s view depends on {} (or perturb changed more than them): {}",
                what(),
                first_difference(&view, &twin_view)
            );
        }
    }
}

/// What `viewer` is shown of the logged action, as the service shows it: the action and its
/// full description where the visibility allows, else the redacted form and its description.
pub fn entry<R: Secrets>(
    state: &R::State,
    actor: Actor,
    action: &R::Action,
    viewer: Viewer,
) -> String {
    let visibility = R::visibility(state, actor, action);
    let (json, text): (Value, String) = if visibility.allows(viewer) {
        (
            to_json(action),
            R::describe(state, actor, action, Viewer::Everyone),
        )
    } else {
        (
            R::redact(state, actor, action),
            R::describe(state, actor, action, Viewer::Spectator),
        )
    };
    format!("{visibility:?} {json} {text:?}")
}

/// Re-deals `secret` (a seat's hidden cards) from `pool` (cards nobody sees, of the same
/// kind), swapping cards between them; `pick(n)` is a random number below `n`. Half the time
/// each card is swapped at random; otherwise the secret is made as alike as the pool allows
/// (copies of one card), the hands that engines are most tempted to play for the player.
/// Returns whether anything changed; the caller restores any order its state keeps.
pub fn redeal<T: Clone + PartialEq>(
    secret: &mut [T],
    pool: &mut [T],
    pick: &mut dyn FnMut(usize) -> usize,
) -> bool {
    if secret.is_empty() || pool.is_empty() {
        return false;
    }
    let mut changed = false;
    if pick(2) == 0 {
        for card in secret.iter_mut() {
            let i = pick(pool.len() + 1);
            if let Some(other) = pool.get_mut(i)
                && other != card
            {
                std::mem::swap(card, other);
                changed = true;
            }
        }
        return changed;
    }
    let like = match pick(2) {
        0 => secret[pick(secret.len())].clone(),
        _ => pool[pick(pool.len())].clone(),
    };
    for card in secret.iter_mut().filter(|c| **c != like) {
        if let Some(other) = pool.iter_mut().find(|c| **c == like) {
            std::mem::swap(card, other);
            changed = true;
        }
    }
    changed
}
