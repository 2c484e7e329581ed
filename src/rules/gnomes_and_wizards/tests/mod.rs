//! Rule tests. Each quotes the rulebook sentence it checks; chance outcomes are scripted.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod abilities;
mod audit;
mod basics;
mod belief;
mod calls;
mod conformance;
mod docs;
mod fidelity;
mod fresh_review;
mod notation;
mod picture;
mod playout;
mod present;
mod review;
mod solo;
mod timing;
mod variants;

use super::board::TileId;
use super::data::{Face, Tribe};
use super::state::{Cast, Phase, Source, State, Status, Step, Target, UnitRef};
use super::{Action, GnomesAndWizards, Options, Variant};
use crate::rules::{Actor, Next, RuleError, Ruleset, Seat};

type Game = GnomesAndWizards;

fn options(variants: &[Variant]) -> Options {
    Options {
        variants: variants.to_vec(),
        ..Options::default()
    }
}

/// Applies a chance outcome, which must be one of the current outcomes.
fn chance(state: &mut State, action: Action) {
    match Game::next(state) {
        Next::Chance(c) => assert!(
            c.outcomes.iter().any(|(a, _)| *a == action),
            "{action:?} is not among {:?}",
            c.outcomes
        ),
        other => panic!("expected a chance step, got {other:?}"),
    }
    Game::apply(state, Actor::Chance, &action).unwrap();
}

/// Applies a decision of `seat`, which must be legal.
fn decide(state: &mut State, seat: Seat, action: Action) {
    let legal = Game::legal_actions(state, seat);
    assert!(legal.contains(&action), "{action:?} is not in {legal:?}");
    Game::apply(state, Actor::Seat(seat), &action).unwrap();
}

fn legal(state: &State, seat: Seat) -> Vec<Action> {
    Game::legal_actions(state, seat)
}

fn waiting_for(state: &State) -> Vec<Seat> {
    match Game::next(state) {
        Next::Players(seats) => seats,
        other => panic!("expected players to decide, got {other:?}"),
    }
}

fn illegal(state: &State, seat: Seat, action: Action) -> RuleError {
    let mut after = state.clone();
    let err = Game::apply(&mut after, Actor::Seat(seat), &action).unwrap_err();
    assert_eq!(&after, state, "a refused action changed the state");
    err
}

/// A game set up with the first outcome of every set-up chance step, seat 0 first, each
/// Leader on the first free start; it stops when seat 0 is about to roll.
fn start_with(options: &Options, seats: usize) -> State {
    let mut options = options.clone();
    if options.tribes.is_empty() {
        options.tribes = match seats {
            1 | 2 => vec![Tribe::Turquefoss, Tribe::Imblasham],
            3 => vec![Tribe::Turquefoss, Tribe::Imblasham, Tribe::Achrinnolder],
            _ => vec![
                Tribe::Turquefoss,
                Tribe::Imblasham,
                Tribe::Achrinnolder,
                Tribe::Betrumour,
            ],
        };
    }
    let mut state = Game::new_game(&options, seats).unwrap();
    for _ in 0..500 {
        if matches!(state.phase, Phase::Turn { .. }) {
            break;
        }
        match Game::next(&state) {
            Next::Chance(c) => {
                let a = if matches!(state.phase, Phase::FirstPlayer) {
                    Action::FirstPlayer(0)
                } else {
                    c.outcomes[0].0.clone()
                };
                Game::apply(&mut state, Actor::Chance, &a).unwrap();
            }
            Next::Players(seats) => {
                let a = legal(&state, seats[0])[0].clone();
                Game::apply(&mut state, Actor::Seat(seats[0]), &a).unwrap();
            }
            Next::Over(_) => panic!("over during set-up"),
        }
    }
    state
}

/// A game as new games are created now (the current edition).
fn new_game(variants: &[Variant], seats: usize) -> State {
    start_with(&Game::for_new_game(options(variants)), seats)
}

fn cast(source: Source, target: Target) -> Action {
    Action::Cast(Cast { source, target })
}

/// Every seat asked passes until the open reaction window closes.
fn pass_window(state: &mut State) {
    while state.window.is_some() {
        let seat = waiting_for(state)[0];
        decide(state, seat, Action::Pass);
    }
}

fn start(seats: usize) -> State {
    start_with(&Options::default(), seats)
}

fn unit(owner: usize, slot: u8) -> UnitRef {
    UnitRef { owner, slot }
}

/// Puts a unit on the board at `t` (activating a Clan).
fn put(state: &mut State, u: UnitRef, t: TileId) {
    let x = state.unit_mut(u).unwrap();
    x.status = Status::Active;
    x.tile = Some(t);
}

/// Rolls the current dice with these faces (in order) and keeps them.
fn roll(state: &mut State, faces: &[Face]) {
    for &f in faces {
        chance(state, Action::RollDie(f));
    }
}

fn roll_and_keep(state: &mut State, seat: Seat, faces: &[Face]) {
    roll(state, faces);
    decide(state, seat, Action::KeepDice);
}

/// A face-up tile that is not a mine and not on the edge, with a face-up non-mine neighbour.
fn inner_tile(state: &State) -> (TileId, TileId) {
    let g = state.geometry();
    for t in g.ids() {
        if state.is_mine(t) || state.flipped(t) {
            continue;
        }
        for &n in g.adjacent(t) {
            if !state.is_mine(n) && !state.flipped(n) {
                return (t, n);
            }
        }
    }
    panic!("no pair of tiles");
}

/// The face-up tile that is not a mine holding `tribe`'s Clan card number `clan`.
fn clan_tile(state: &State, tribe: Tribe, clan: u8) -> TileId {
    state
        .geometry()
        .ids()
        .find(|&t| {
            !state.is_mine(t)
                && !state.flipped(t)
                && state
                    .tile(t)
                    .unwrap()
                    .card
                    .is_some_and(|c| c.tribe == tribe && c.clan == clan)
        })
        .unwrap()
}

/// Five dice to roll this turn (a Leader and one active Clan), none rolled or assigned yet.
fn five_dice(state: &mut State) {
    state.dice = vec![None; 5];
    state.assigned = vec![false; 5];
    state.to_roll = (0..5).collect();
}

/// A tile that is not a mine, next to a crystal mine: `(tile, mine)`.
fn next_to_a_mine(state: &State) -> (TileId, TileId) {
    let g = state.geometry();
    g.ids()
        .filter(|&t| !state.is_mine(t))
        .find_map(|t| {
            g.adjacent(t)
                .iter()
                .find(|&&n| state.is_mine(n))
                .map(|&n| (t, n))
        })
        .unwrap()
}

fn step_of(state: &State) -> Step {
    state.step().cloned().unwrap()
}
