//! The rejection probes of a playout: actions that are not listed now must be refused, and
//! leave the state as it was.

use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::{Listed, Playout, apply_erased, diverged, state_difference};
use crate::rules::Actor;
use crate::rules::conformance::{Secrets, first_difference, probe, to_json};
use crate::rules::registry::{Erased, Game};

/// Why a probe had to be refused, for the failure message.
#[derive(Clone, Copy)]
enum Probe {
    OutOfTurn,
    PlayerAsChance,
    OutcomeBySeat,
    SeatBeyondTable,
    NoLongerListed,
    AfterTheEnd,
}

impl Probe {
    fn what(self) -> &'static str {
        match self {
            Probe::OutOfTurn => "an action listed for another seat (out of turn)",
            Probe::PlayerAsChance => "a player's action applied as Actor::Chance",
            Probe::OutcomeBySeat => "a chance outcome applied by a seat",
            Probe::SeatBeyondTable => "an action by the seat one past the table",
            Probe::NoLongerListed => "an earlier action that is not listed now",
            Probe::AfterTheEnd => "an action after the game is over",
        }
    }
}

impl<R: Secrets> Playout<'_, R> {
    /// Tries actions that are not listed now, typed and as JSON; each must be refused.
    pub(super) fn refuse_unlisted(&mut self, listed: &Listed<R::Action>, full: bool) {
        let tries = self.typed_probes(listed, full);
        self.expect_refused(listed, tries);
        self.json_probes(listed);
    }

    /// Actions that must be refused: (actor, action, why).
    fn typed_probes(
        &mut self,
        listed: &Listed<R::Action>,
        full: bool,
    ) -> Vec<(Actor, R::Action, Probe)> {
        let n = self.seats;
        let rng = &mut self.probe;
        let mut tries = Vec::new();
        match listed {
            Listed::Players(legal) => {
                for s in 0..n {
                    let others: Vec<&R::Action> =
                        (0..n).filter(|&t| t != s).flat_map(|t| &legal[t]).collect();
                    if let Some(&a) = others.choose(rng) {
                        tries.push((Actor::Seat(s), a.clone(), Probe::OutOfTurn));
                    }
                }
                if let Some(&a) = listed.all().choose(rng) {
                    tries.push((Actor::Chance, a.clone(), Probe::PlayerAsChance));
                    tries.push((Actor::Seat(n), a.clone(), Probe::SeatBeyondTable));
                }
            }
            Listed::Chance(outcomes) => {
                if let Some((o, _)) = outcomes.choose(rng) {
                    let s = rng.random_range(0..n);
                    tries.push((Actor::Seat(s), o.clone(), Probe::OutcomeBySeat));
                    tries.push((Actor::Seat(n), o.clone(), Probe::SeatBeyondTable));
                }
            }
            Listed::Over => {
                for a in self.pool.iter().chain(self.log.last().map(|(_, a)| a)) {
                    let actors = (0..n).map(Actor::Seat).chain([Actor::Chance]);
                    tries.extend(actors.map(|actor| (actor, a.clone(), Probe::AfterTheEnd)));
                }
                return tries;
            }
        }
        // The actors that may act now, each tried with earlier actions (all of them in full
        // checks), and one earlier action tried by anyone.
        let mut actors: Vec<Actor> = listed.acting().into_iter().map(Actor::Seat).collect();
        if let Listed::Chance(_) = listed {
            actors.push(Actor::Chance);
        }
        for actor in actors {
            if full {
                tries.extend(
                    self.pool
                        .iter()
                        .map(|a| (actor, a.clone(), Probe::NoLongerListed)),
                );
            } else if let Some(a) = self.pool.choose(rng) {
                tries.push((actor, a.clone(), Probe::NoLongerListed));
            }
        }
        if let Some(a) = self.pool.choose(rng) {
            let actor = random_actor(rng, n);
            tries.push((actor, a.clone(), Probe::NoLongerListed));
        }
        tries
    }

    fn expect_refused(
        &mut self,
        listed: &Listed<R::Action>,
        tries: Vec<(Actor, R::Action, Probe)>,
    ) {
        let before = self.state.clone();
        for (actor, action, why) in tries {
            if listed.allows(actor, &action) {
                continue;
            }
            self.stats.rejections += 1;
            match R::apply(&mut self.state, actor, &action) {
                Ok(()) => panic!(
                    "{}: {actor:?} applied {action:?}, which is not listed for it, and apply accepted it",
                    why.what()
                ),
                Err(e) if self.state != before => panic!(
                    "{}: {actor:?} applied {action:?}, apply refused it ({e}) but changed the state: {}",
                    why.what(),
                    state_difference::<R>(&before, &self.state)
                ),
                Err(_) => {}
            }
        }
    }

    /// Random JSON through the erased interface: refused unless it reads as a listed action.
    fn json_probes(&mut self, listed: &Listed<R::Action>) {
        let game = Erased::<R>::default();
        let before = to_json(&self.state);
        let mut refused = Vec::new();
        for _ in 0..self.config.json_probes {
            let value = self.random_json(listed);
            let actor = match listed {
                Listed::Players(_) if self.probe.random_bool(0.5) => {
                    let acting = listed.acting();
                    Actor::Seat(acting[self.probe.random_range(0..acting.len())])
                }
                Listed::Chance(_) if self.probe.random_bool(0.5) => Actor::Chance,
                _ => random_actor(&mut self.probe, self.seats),
            };
            let parsed = serde_json::from_value::<R::Action>(value.clone()).ok();
            self.stats.json_parsed += u64::from(parsed.is_some());
            if let Some(action) = parsed.filter(|a| listed.allows(actor, a)) {
                self.stats.json_listed += 1;
                // A listed action in another spelling (an unknown field added, …): it must apply.
                let mut copy = game
                    .load(&before)
                    .unwrap_or_else(|e| panic!("Game::load refused a snapshot: {e}"));
                if let Err(e) = apply_erased(copy.as_mut(), actor, &value) {
                    panic!(
                        "{value} reads as {action:?}, listed for {actor:?}, but was refused: {e}"
                    );
                }
                continue;
            }
            self.stats.rejections += 1;
            if let Ok(applied) = apply_erased(self.erased.as_mut(), actor, &value) {
                panic!(
                    "the JSON action {value} by {actor:?} is not listed, but the erased interface \
                     applied it as {}",
                    applied.action
                );
            }
            refused.push((actor, value));
        }
        let after = self.erased.to_json();
        if after != before {
            panic!("{}", Self::explain_divergence(&before, &after, &refused));
        }
    }

    /// Why the erased state no longer matches the typed one: the refused JSON action that
    /// changed it, if one does so again, else apply is not deterministic.
    fn explain_divergence(before: &Value, after: &Value, refused: &[(Actor, Value)]) -> String {
        let game = Erased::<R>::default();
        for (actor, value) in refused {
            let Ok(mut copy) = game.load(before) else {
                break;
            };
            let outcome = apply_erased(copy.as_mut(), *actor, value);
            let changed = copy.to_json();
            if let (Err(e), true) = (outcome, &changed != before) {
                return format!(
                    "the JSON action {value} by {actor:?} was refused ({e}) but changed the state: {}",
                    first_difference(before, &changed)
                );
            }
        }
        diverged(before, after)
    }

    fn random_json(&mut self, listed: &Listed<R::Action>) -> Value {
        let source = if self.probe.random_ratio(2, 3) {
            listed.all().choose(&mut self.probe).map(|a| (*a).clone())
        } else {
            self.pool.choose(&mut self.probe).cloned()
        };
        match source {
            Some(action) if self.probe.random_ratio(3, 4) => {
                probe::mutate(&mut self.probe, &to_json(&action), &self.words)
            }
            _ => probe::arbitrary(&mut self.probe, &self.words, 3),
        }
    }
}

/// Any seat of the table, or chance.
fn random_actor(rng: &mut ChaCha8Rng, seats: usize) -> Actor {
    match rng.random_range(0..=seats) {
        s if s == seats => Actor::Chance,
        s => Actor::Seat(s),
    }
}
