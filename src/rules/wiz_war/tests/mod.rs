//! Rule tests. Each quotes the rulebook sentence it checks; chance outcomes are scripted.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod audit;
mod board;
mod cards;
mod conformance;
mod conjuring;
mod docs;
mod erased;
mod examples;
mod fidelity;
mod mutation;
mod notation;
mod pace;
mod picture;
mod present;
mod thaumaturgy;
mod turn;
mod windows;

use super::actions::Action;
use super::board::{Dir, Pos};
use super::cards::CardId;
use super::state::{State, Target};
use super::{Options, WizWar};
use crate::rules::{Actor, Next, RuleError, Ruleset, Seat};

type Game = WizWar;

pub fn card(key: &str) -> CardId {
    CardId::by_key(key).unwrap_or_else(|| panic!("no card {key}"))
}

/// Applies a chance outcome, which must be one of the current outcomes.
pub fn chance(state: &mut State, action: Action) {
    match Game::next(state) {
        Next::Chance(c) => assert!(
            c.outcomes.iter().any(|(a, _)| *a == action),
            "{action:?} is not among {:?}",
            c.outcomes
        ),
        other => panic!("expected a chance step for {action:?}, got {other:?}"),
    }
    Game::apply(state, Actor::Chance, &action).unwrap();
}

/// Applies a decision of `seat`, which must be legal. A cast whose energy step then offers
/// no Energy card to boost with (a hand without any, asked all the same so as not to show
/// that; perhaps other cards showing an energy value, l.290) is answered `no_boost`: the
/// tests' casts mean the plain spell unless the hand holds an Energy card.
pub fn decide(state: &mut State, seat: Seat, action: Action) {
    let legal = Game::legal_actions(state, seat);
    assert!(legal.contains(&action), "{action:?} is not in {legal:?}");
    Game::apply(state, Actor::Seat(seat), &action).unwrap();
    if action != Action::NoBoost && energy_step_without_energy_cards(state, seat) {
        Game::apply(state, Actor::Seat(seat), &Action::NoBoost).unwrap();
    }
}

fn energy_step_without_energy_cards(state: &State, seat: Seat) -> bool {
    use super::cards::Kind;
    let legal = Game::legal_actions(state, seat);
    legal.contains(&Action::NoBoost)
        && legal.iter().all(|a| match a {
            Action::Boost(c) => c.kind() != Some(Kind::Energy),
            Action::BoostAdd(a, b) => {
                a.kind() != Some(Kind::Energy) && b.kind() != Some(Kind::Energy)
            }
            Action::NoBoost | Action::CancelCast => true,
            _ => false,
        })
}

pub fn illegal(state: &State, seat: Seat, action: Action) -> RuleError {
    let mut after = state.clone();
    let err = Game::apply(&mut after, Actor::Seat(seat), &action).unwrap_err();
    assert_eq!(&after, state, "a refused action changed the state");
    err
}

pub fn waiting_for(state: &State) -> Vec<Seat> {
    match Game::next(state) {
        Next::Players(seats) => seats,
        other => panic!("expected players to decide, got {other:?}"),
    }
}

/// The options most rule tests were written with: windows ask only wizards holding a counter
/// that can answer (so a spell nobody can answer resolves at once), and a 30-round limit; the
/// current edition, as new games get it.
pub fn quiet() -> Options {
    Options {
        ask_every_affected_wizard: false,
        round_limit: Some(30),
        edition: super::EDITION,
        ..Options::default()
    }
}

/// A game of `seats` with colours and sectors in seat order (seat 0 red, …), unturned, hands
/// dealt from the deck, and seat 0 to play first.
pub fn start(seats: usize, options: &Options) -> State {
    let mut state = Game::new_game(options, seats).unwrap();
    for s in 0..seats {
        chance(&mut state, Action::Colour(s as u8));
    }
    for s in 0..seats {
        chance(&mut state, Action::PlaceSector(s as u8));
        chance(&mut state, Action::TurnSector(0));
    }
    for _ in 0..seats * 5 {
        let Next::Chance(c) = Game::next(&state) else {
            panic!("dealing expected")
        };
        let first = c.outcomes[0].0.clone();
        chance(&mut state, first);
    }
    chance(&mut state, Action::FirstPlayer(0));
    state
}

/// Replaces `seat`'s hand (the old cards go back to the deck).
pub fn give(state: &mut State, seat: Seat, keys: &[&str]) {
    let old = std::mem::take(&mut state.wizards[seat].hand);
    state.deck.extend(old);
    for k in keys {
        let c = card(k);
        if let Some(i) = state.deck.iter().position(|&d| d == c) {
            state.deck.remove(i);
        }
        state.wizards[seat].hand.push(c);
    }
    state.deck.sort();
    state.wizards[seat].hand.sort();
}

pub fn place(state: &mut State, seat: Seat, p: Pos) {
    state.wizards[seat].at = Some(p);
}

pub fn target_wizard(s: Seat) -> Action {
    Action::Target(Target::Wizard(s))
}

/// Opens every wall and door that is not an outer wall and closes the exits: an empty room
/// to build examples in (no sight lines round the board's edge).
pub fn open_room(state: &mut State) {
    open_inside(state);
    for p in state.board.squares() {
        for d in Dir::ALL {
            if !state.board.exists(p.step(d)) {
                state.board.edge_mut(p, d).unwrap().kind = super::board::EdgeKind::Outer;
            }
        }
    }
    state.board.links.clear();
}

/// Opens every wall and door that is not an outer wall; the exits stay.
pub fn open_inside(state: &mut State) {
    use super::board::EdgeKind;
    for e in state
        .board
        .vertical
        .iter_mut()
        .chain(state.board.horizontal.iter_mut())
    {
        if matches!(e.kind, EdgeKind::Wall | EdgeKind::Door(_)) {
            e.kind = EdgeKind::Open;
        }
    }
    state.treasures.clear();
}

/// Puts a stone wall on side `d` of `p`.
pub fn wall(state: &mut State, p: Pos, d: Dir) {
    let e = state.board.edge_mut(p, d).unwrap();
    e.kind = super::board::EdgeKind::Wall;
    e.destroyed = false;
}

/// Seat 0's turn in an open 2-player room, past its first turn, with the given hands.
pub fn duel(hand0: &[&str], hand1: &[&str]) -> State {
    let mut state = start(2, &quiet());
    open_room(&mut state);
    give(&mut state, 0, hand0);
    give(&mut state, 1, hand1);
    state.turn.first = false;
    state
}

pub fn life(state: &State, seat: Seat) -> i16 {
    state.wizards[seat].life
}

/// Seat 0 at (0,2) and seat 1 at (3,2) in an open room, seat 0 to act (3 movement points).
pub fn facing(hand0: &[&str], hand1: &[&str]) -> State {
    let mut state = duel(hand0, hand1);
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    state.turn.movement = 3;
    state
}

/// Hands the turn to `seat` (past its first turn), as if play had come round to it.
pub fn turn_of(state: &mut State, seat: Seat) {
    state.turn.seat = seat;
    state.turn.first = false;
    state.turn.attacked = false;
    state.turn.movement = state.form_movement(seat);
}
