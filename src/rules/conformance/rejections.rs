//! The rejection probes of a playout: actions that are not listed now must be refused, and
//! leave the state as it was.

use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::{Listed, Playout, apply_erased, state_difference};
use crate::rules::Actor;
use crate::rules::conformance::{Secrets, probe, to_json};
use crate::rules::registry::{Erased, Game};

/// Why a probe had to be refused, for the failure message.
enum Probe {
    OutOfTurn,
    PlayerAsChance,
    OutcomeBySeat,
    SeatBeyondTable,
    NoLongerListed,
    AfterTheEnd,
    Json(Value),
}

impl Probe {
    fn what(&self) -> String {
        match self {
            Probe::OutOfTurn => "an action listed for another seat (out of turn)".to_owned(),
            Probe::PlayerAsChance => "a player's action applied as Actor::Chance".to_owned(),
            Probe::OutcomeBySeat => "a chance outcome applied by a seat".to_owned(),
            Probe::SeatBeyondTable => "an action by the seat one past the table".to_owned(),
            Probe::NoLongerListed => "an earlier action that is not listed now".to_owned(),
            Probe::AfterTheEnd => "an action after the game is over".to_owned(),
            Probe::Json(value) => format!("the random JSON action {value}"),
        }
    }
}

impl<R: Secrets> Playout<'_, R> {
    /// Tries actions that are not listed now, typed and as JSON; each must be refused and leave
    /// the state as it was.
    pub(super) fn refuse_unlisted(&mut self, listed: &Listed<R::Action>, full: bool) {
        let before = self.state.clone();
        for (actor, action, why) in self.typed_probes(listed, full) {
            if !listed.allows(actor, &action) {
                self.refuse(&before, actor, &action, &why);
            }
        }
        self.json_probes(listed, &before, full);
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

    fn refuse(&mut self, before: &R::State, actor: Actor, action: &R::Action, why: &Probe) {
        self.stats.rejections += 1;
        match R::apply(&mut self.state, actor, action) {
            Ok(()) => panic!(
                "{}: {actor:?} applied {action:?}, which is not listed for it, and apply accepted it",
                why.what()
            ),
            Err(e) if self.state != *before => panic!(
                "{}: {actor:?} applied {action:?}, apply refused it ({e}) but changed the state: {}",
                why.what(),
                state_difference::<R>(before, &self.state)
            ),
            Err(_) => {}
        }
    }

    /// Random JSON, which must be refused unless it reads as a listed action. Through the
    /// erased interface (the service's path), and, when it reads as an action, through the typed
    /// `apply` too, to see that the refusal leaves the state as it was.
    fn json_probes(&mut self, listed: &Listed<R::Action>, before: &R::State, full: bool) {
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
            match parsed {
                Some(action) if listed.allows(actor, &action) => {
                    // A seat's listed action in another spelling (an unknown field added, a
                    // null argument, …) is refused: actions are matched as listed (issue 43).
                    if to_json(&action) != value && matches!(actor, Actor::Seat(_)) {
                        if let Ok(applied) = apply_erased(self.erased.as_mut(), actor, &value) {
                            panic!(
                                "{value} is {action:?} in another spelling than listed, but the \
                                 erased interface applied it as {}",
                                applied.action
                            );
                        }
                        self.stats.rejections += 1;
                        continue;
                    }
                    // As listed: it must apply. Checked on a copy loaded from a snapshot, so at
                    // full checks only.
                    if full {
                        self.stats.json_listed += 1;
                        self.must_apply_json(actor, &action, &value);
                    }
                    continue;
                }
                Some(action) => self.refuse(before, actor, &action, &Probe::Json(value.clone())),
                None => self.stats.rejections += 1,
            }
            if let Ok(applied) = apply_erased(self.erased.as_mut(), actor, &value) {
                panic!(
                    "the JSON action {value} by {actor:?} is not listed, but the erased interface \
                     applied it as {}",
                    applied.action
                );
            }
        }
    }

    fn must_apply_json(&self, actor: Actor, action: &R::Action, value: &Value) {
        let mut copy = Erased::<R>::default()
            .load(&to_json(&self.state))
            .unwrap_or_else(|e| panic!("Game::load refused a snapshot: {e}"));
        if let Err(e) = apply_erased(copy.as_mut(), actor, value) {
            panic!("{value} reads as {action:?}, listed for {actor:?}, but was refused: {e}");
        }
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
