//! Built-in players for absent seats and solo tries (DESIGN.md: "pure: state in, action out").
//!
//! [`choose`] picks one of a seat's legal actions by a short look-ahead on copies of the state:
//! each candidate action is applied; where chance follows, the outcomes are averaged by weight
//! (a few of them, drawn by weight, when there are many); where the same seat must decide again
//! (the rulesets split compound choices into atomic steps), its best next step counts, a few
//! steps deep; everywhere else the ruleset's own [`Ruleset::evaluate`] says how well the seat
//! stands. The best candidate wins; ties go to the ruleset's `default_action` (the "done" or
//! "pass"), then to a random one drawn from the seed. The look-ahead starts from a state the
//! seat could believe it is in ([`GameState::imagine`]): the rivals' secrets it has not seen
//! dealt anew from the seed, so chance is weighed as its player would weigh it. Everything is
//! bounded by a count of states tried, never by the clock, so the same state and seed always
//! give the same action.
//! How each ruleset evaluates, and the figures, are in `docs/BOTS.md`.
//!
//! [`Ruleset::evaluate`]: crate::rules::Ruleset::evaluate

use rand::seq::index;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::rules::{Actor, GameState, LegalAction, Seat, Waiting, weighted_index};

mod memory;
pub mod table;
pub use memory::Memory;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod turn_tests;

/// Bot decisions one request makes at most (a submission, a start, a resignation, a round of
/// the deadline worker): a turn's worth. A bot seat that still has to decide after that is
/// continued by the worker, in transactions of its own (`service::robots`), so no request
/// holds a game's lock for longer than this many decisions (`docs/BOTS.md`).
pub const DECISIONS_PER_REQUEST: usize = 40;

/// Candidate actions examined at most; beyond this many, a sample drawn from the seed (with the
/// default action always among them).
const CANDIDATES: usize = 24;
/// States tried (actions and chance outcomes applied to copies) per decision, shared out
/// evenly among the candidates: the bound that keeps a decision quick on every ruleset.
const BUDGET: usize = 480;
/// Chance outcomes averaged at most at one chance step; beyond this many, a sample by weight.
/// (A bag of tokens or a die is averaged whole; a deck of cards is sampled.)
const OUTCOMES: usize = 16;
/// Further decisions of the same seat looked at after a candidate (if the budget allows).
const OWN_STEPS: u32 = 3;
/// What each further decision of the seat costs a line of play, in evaluation units (a
/// millionth of a win): of two lines that reach the same standing, the shorter is worth more,
/// so the bot never dithers (start a spell, take it back, start it again ...).
const STEP_COST: i64 = 1;

/// The action the built-in bot takes for `seat` in `state`: one of `state.legal_actions(seat)`
/// (its JSON), or `None` if the seat has nothing to decide. Deterministic: the same state and
/// `seed` give the same action (the service passes a seed derived from the game's seed and
/// version). Pure and total, and bounded (see `docs/BOTS.md` for the time a decision takes).
/// A caller that lets the bot decide several times in a row uses a [`Memory`] instead, so
/// that it never comes back to a state it decided in.
pub fn choose(state: &dyn GameState, seat: Seat, seed: u64) -> Option<Value> {
    choose_after(state, seat, seed, &[])
}

/// [`choose`], never back to one of the states in `been` (where the seat already decided in
/// this turn) while another choice is left.
fn choose_after(
    state: &dyn GameState,
    seat: Seat,
    seed: u64,
    been: &[Box<dyn GameState>],
) -> Option<Value> {
    let legal = state.legal_actions(seat);
    if legal.len() <= 1 {
        return legal.into_iter().next().map(|a| a.action);
    }
    let Weighed {
        scored,
        default,
        fallback,
        back,
        mut tie_break,
    } = weigh(state, seat, seed, &legal, been);
    let Some(best) = scored.iter().map(|&(_, v)| v).max() else {
        // Every candidate leaves the state as it is: any will do that goes nowhere the seat
        // has been, the default action first.
        let fresh = |i: &usize| !back.get(*i).copied().unwrap_or(false);
        let pick = default
            .filter(fresh)
            .or_else(|| (0..legal.len()).find(fresh));
        return match pick {
            Some(i) => legal.into_iter().nth(i).map(|a| a.action),
            None => fallback.or_else(|| legal.into_iter().next().map(|a| a.action)),
        };
    };
    let tied: Vec<usize> = scored
        .iter()
        .filter(|&&(_, v)| v == best)
        .map(|&(i, _)| i)
        .collect();
    let pick = match default.filter(|d| tied.contains(d)) {
        Some(d) => d,
        None => *tied.get(tie_break.random_range(0..tied.len()))?,
    };
    legal.into_iter().nth(pick).map(|a| a.action).or(fallback)
}

/// The look-ahead's verdict on a decision.
struct Weighed {
    /// The candidates examined, by index into the legal actions, with their values.
    scored: Vec<(usize, i64)>,
    /// The index of the default action among the legal actions, if it is one.
    default: Option<usize>,
    /// The default action.
    fallback: Option<Value>,
    /// For each legal action, whether it leads back to where the seat already was.
    back: Vec<bool>,
    /// What breaks ties between candidates of the same value.
    tie_break: ChaCha8Rng,
}

/// Values the candidates among `legal` (the seat's legal actions in `state`), leaving out
/// those that lead back to a state in `been` while others are left.
fn weigh(
    state: &dyn GameState,
    seat: Seat,
    seed: u64,
    legal: &[LegalAction],
    been: &[Box<dyn GameState>],
) -> Weighed {
    // Compared on the true state: the states in `been` are true ones, and the seat's own step
    // changes nothing it cannot see.
    let back = revisits(state, seat, been);
    // The look-ahead starts from a state the seat could believe it is in, not from the true
    // one: the rivals' secrets it has not seen dealt anew (`Ruleset::imagine`).
    let believed = believed(state, seat, seed);
    // The seat's own choices never depend on what it cannot see (the conformance suite checks
    // it); should they, the true state is looked at, whose choices are the ones that count.
    let state = if believed.legal_actions(seat) == legal {
        believed.as_ref()
    } else {
        state
    };
    let fallback = state.default_action(seat);
    let default = fallback
        .as_ref()
        .and_then(|d| legal.iter().position(|a| &a.action == d));
    let mut tie_break = ChaCha8Rng::seed_from_u64(seed);
    let scored = scores(
        state,
        seat,
        seed,
        legal.len(),
        default,
        &back,
        &mut tie_break,
    );
    Weighed {
        scored,
        default,
        fallback,
        back,
        tie_break,
    }
}

/// For each legal action of `seat` in `state`, whether it leads back to one of the states in
/// `been`. All false without a memory (nothing is tried).
fn revisits(state: &dyn GameState, seat: Seat, been: &[Box<dyn GameState>]) -> Vec<bool> {
    if been.is_empty() {
        return Vec::new();
    }
    state
        .successors(Actor::Seat(seat), None)
        .iter()
        .map(|after| {
            after
                .as_ref()
                .is_some_and(|after| been.iter().any(|b| b.same_state(after.as_ref())))
        })
        .collect()
}

/// The state `seat` could believe it is in ([`GameState::imagine`]), dealt from the decision's
/// seed on a stream of its own.
fn believed(state: &dyn GameState, seat: Seat, seed: u64) -> Box<dyn GameState> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(2);
    let mut pick = |n: usize| if n == 0 { 0 } else { rng.random_range(0..n) };
    state.imagine(seat, &mut pick)
}

/// The candidates examined, by index into the legal actions, with their values; `back`: which
/// actions lead back to where the seat already decided this turn.
fn scores(
    state: &dyn GameState,
    seat: Seat,
    seed: u64,
    count: usize,
    default: Option<usize>,
    back: &[bool],
    tie_break: &mut ChaCha8Rng,
) -> Vec<(usize, i64)> {
    // Never a step back while there is another choice: begun and taken back, a step would be
    // begun again (the look-ahead values the state before it, from which it was chosen, by
    // the ruleset's evaluation alone), round and round. Never back to where the seat already
    // was this turn either, take-back or not, whatever the values say.
    let take_backs = state.take_backs(seat);
    let flagged = |flags: &[bool], i: usize| flags.get(i).copied().unwrap_or(false);
    let mut forward: Vec<usize> = (0..count)
        .filter(|&i| !flagged(&take_backs, i) && !flagged(back, i))
        .collect();
    if forward.is_empty() {
        forward = (0..count).filter(|&i| !flagged(back, i)).collect();
    }
    let picks: Vec<usize> = if forward.is_empty() || forward.len() == count {
        candidates(count, default, tie_break)
    } else {
        let default = default.and_then(|d| forward.iter().position(|&i| i == d));
        candidates(forward.len(), default, tie_break)
            .into_iter()
            .map(|i| forward[i])
            .collect()
    };
    let per_candidate = BUDGET / picks.len().max(1);
    let root = Path { state, up: None };
    let mut scored: Vec<(usize, i64)> = Vec::with_capacity(picks.len());
    for (&pick, child) in picks
        .iter()
        .zip(state.successors(Actor::Seat(seat), Some(&picks)))
    {
        let Some(child) = child.filter(|c| !root.contains(c.as_ref())) else {
            continue;
        };
        // Common random numbers: every candidate meets the same chance samples.
        let mut search = Search {
            seat,
            chance: chance_rng(seed),
        };
        let value = search.value(child.as_ref(), per_candidate, OWN_STEPS, &root);
        scored.push((pick, value));
    }
    scored
}

/// The indices of the legal actions to examine: all of them, or a sample from the seed that
/// keeps the default action.
fn candidates(count: usize, default: Option<usize>, rng: &mut ChaCha8Rng) -> Vec<usize> {
    if count <= CANDIDATES {
        return (0..count).collect();
    }
    let mut picks = index::sample(rng, count, CANDIDATES).into_vec();
    if let Some(d) = default
        && !picks.contains(&d)
    {
        picks.pop();
        picks.push(d);
    }
    picks.sort_unstable();
    picks
}

/// The generator of the chance samples: the decision's seed on a stream of its own.
fn chance_rng(seed: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(1);
    rng
}

/// The states where the seat decided, from the one being looked at back to the real one.
struct Path<'a> {
    state: &'a dyn GameState,
    up: Option<&'a Path<'a>>,
}

impl Path<'_> {
    /// Whether `state` is one of these (coming back to it is going round in circles: start a
    /// spell, take it back, start it again).
    fn contains(&self, state: &dyn GameState) -> bool {
        let mut at = Some(self);
        while let Some(path) = at {
            if path.state.same_state(state) {
                return true;
            }
            at = path.up;
        }
        false
    }
}

/// The look-ahead of one candidate.
struct Search {
    seat: Seat,
    chance: ChaCha8Rng,
}

impl Search {
    /// What `state` is worth to the seat, trying at most `budget` further states and looking
    /// at most `own_steps` further decisions of the seat ahead; `path`: the seat's decisions
    /// that led here.
    fn value(
        &mut self,
        state: &dyn GameState,
        budget: usize,
        own_steps: u32,
        path: &Path<'_>,
    ) -> i64 {
        match state.waiting() {
            Waiting::Players(seats) if own_steps > 0 && seats.contains(&self.seat) => {
                self.decision(state, budget, own_steps, path)
            }
            Waiting::Chance(weights) if budget > 0 => {
                self.chance(state, &weights, budget, own_steps, path)
            }
            _ => state.evaluate(self.seat),
        }
    }

    /// The seat decides again: its best next step, if the budget reaches every one of them.
    /// A step back to a state already on the path does not count.
    fn decision(
        &mut self,
        state: &dyn GameState,
        budget: usize,
        own_steps: u32,
        path: &Path<'_>,
    ) -> i64 {
        let children = state.successors(Actor::Seat(self.seat), None);
        if children.is_empty() || budget < children.len() {
            return state.evaluate(self.seat);
        }
        let rest = (budget - children.len()) / children.len();
        let here = Path {
            state,
            up: Some(path),
        };
        let mut best = None;
        for child in children.iter().flatten() {
            if here.contains(child.as_ref()) {
                continue;
            }
            let value = self
                .value(child.as_ref(), rest, own_steps - 1, &here)
                .saturating_sub(STEP_COST);
            best = best.max(Some(value));
        }
        best.unwrap_or_else(|| state.evaluate(self.seat))
    }

    /// A chance step: the mean over its outcomes by weight, or over a sample drawn by weight
    /// when there are more outcomes than [`OUTCOMES`]. With less budget than that, the
    /// ruleset's evaluation of the state before the draw.
    fn chance(
        &mut self,
        state: &dyn GameState,
        weights: &[u32],
        budget: usize,
        own_steps: u32,
        path: &Path<'_>,
    ) -> i64 {
        let room = weights.len().min(OUTCOMES);
        if budget < room {
            return state.evaluate(self.seat);
        }
        // (outcome index, how much it counts)
        let drawn: Vec<(usize, u64)> = if weights.len() <= OUTCOMES {
            weights
                .iter()
                .enumerate()
                .map(|(i, &w)| (i, u64::from(w)))
                .collect()
        } else {
            self.sample(weights)
        };
        let picks: Vec<usize> = drawn.iter().map(|&(i, _)| i).collect();
        let children = state.successors(Actor::Chance, Some(&picks));
        let rest = (budget - room) / room;
        let (mut sum, mut weight) = (0i128, 0i128);
        for (child, &(_, w)) in children.iter().zip(&drawn) {
            let Some(child) = child else { continue };
            let value = self.value(child.as_ref(), rest, own_steps, path);
            sum += i128::from(value) * i128::from(w);
            weight += i128::from(w);
        }
        if weight == 0 {
            return state.evaluate(self.seat);
        }
        i64::try_from(sum / weight).unwrap_or(0)
    }

    /// [`OUTCOMES`] draws by weight: each outcome drawn once, with how often it was drawn.
    fn sample(&mut self, weights: &[u32]) -> Vec<(usize, u64)> {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        let mut drawn: Vec<(usize, u64)> = Vec::with_capacity(OUTCOMES);
        for _ in 0..OUTCOMES {
            let point = self.chance.random_range(0..total.max(1));
            let Some(i) = weighted_index(weights.iter().copied(), point) else {
                continue;
            };
            match drawn.iter_mut().find(|(j, _)| *j == i) {
                Some((_, n)) => *n += 1,
                None => drawn.push((i, 1)),
            }
        }
        drawn.sort_unstable();
        drawn
    }
}
