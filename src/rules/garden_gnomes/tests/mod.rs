//! Rule tests. Each quotes the rulebook sentence it checks; chance outcomes are scripted.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod audit;
mod combat;
mod conformance;
mod data;
mod fidelity;
mod fresh_review;
mod hidden;
mod json_game;
mod movement;
mod notation;
mod objectives;
mod picture;
mod playout;
mod present;
mod refusals;
mod setup;

use super::data::{Colour, Territory, Token};
use super::state::{Phase, State, add};
use super::{Action, GardenGnomes, Options, Scoring};
use crate::rules::{Actor, Next, RuleError, Ruleset, Seat};

use Colour::{Black, Blue, Green, Red, White, Yellow};

type Game = GardenGnomes;

// Territories of data/map.json.
const RED_HOME: Territory = 0;
const NORTH_OAK: Territory = 1;
const GREEN_HOME: Territory = 2;
const EAST_ORCHARD: Territory = 3;
const YELLOW_HOME: Territory = 4;
const BRAMBLE_PATCH: Territory = 5;
const BLUE_HOME: Territory = 10;
const HEDGE_BERRIES: Territory = 11;
const TOADSTOOL: Territory = 12;
const FROG: Territory = 13;
const FLAMINGO: Territory = 14;
const GNOME_KING: Territory = 15;

/// Applies a chance outcome, which must be one of the current outcomes.
fn chance(state: &mut State, action: Action) {
    let outcomes = outcomes(state);
    assert!(
        outcomes.iter().any(|(a, _)| *a == action),
        "{action:?} is not among the outcomes {outcomes:?}"
    );
    Game::apply(state, Actor::Chance, &action).unwrap();
}

/// Applies a decision of `seat`, which must be legal.
fn decide(state: &mut State, seat: Seat, action: Action) {
    let legal = Game::legal_actions(state, seat);
    assert!(legal.contains(&action), "{action:?} is not in {legal:?}");
    Game::apply(state, Actor::Seat(seat), &action).unwrap();
}

fn outcomes(state: &State) -> Vec<(Action, u32)> {
    match Game::next(state) {
        Next::Chance(chance) => chance.outcomes,
        other => panic!("expected a chance step, got {other:?}"),
    }
}

fn waiting_for(state: &State) -> Vec<Seat> {
    match Game::next(state) {
        Next::Players(seats) => seats,
        other => panic!("expected players to decide, got {other:?}"),
    }
}

fn illegal(state: &State, actor: Actor, action: Action) -> RuleError {
    let mut after = state.clone();
    let err = Game::apply(&mut after, actor, &action).unwrap_err();
    assert_eq!(&after, state, "a refused action changed the state");
    err
}

fn options(scoring: Scoring) -> Options {
    Options {
        scoring,
        ..Options::default()
    }
}

/// A game with these clans in seat order (clockwise) and `first` holding the first player
/// token, dealt the neutral objectives in deck order, waiting for the objective choice.
fn dealt(options: &Options, seats: usize, colours: &[Colour], first: Colour) -> State {
    let mut state = Game::new_game(options, seats).unwrap();
    for &c in colours {
        if matches!(state.phase, Phase::AssigningClans) {
            chance(&mut state, Action::AssignClan(c));
        }
    }
    chance(&mut state, Action::FirstPlayer(first));
    while matches!(state.phase, Phase::DealingObjectives) {
        let next = outcomes(&state)[0].0.clone();
        chance(&mut state, next);
    }
    state
}

/// How the game ended; panics when it goes on.
fn over(state: &State) -> crate::rules::Outcome {
    match Game::next(state) {
        Next::Over(outcome) => outcome,
        other => panic!("the game should be over, not {other:?}"),
    }
}

/// The game is over because nobody can complete their objectives any more (ruling 13),
/// decided by the advanced scores.
fn ended_as_nobody_can_complete(state: &State) {
    let outcome = over(state);
    assert!(
        outcome.summary.starts_with("Nobody can complete"),
        "{}",
        outcome.summary
    );
    assert!(outcome.scores.is_some());
}

/// As `dealt`, then every clan keeps its lowest-numbered objectives: round 1 begins.
fn kept(options: &Options, seats: usize, colours: &[Colour], first: Colour) -> State {
    let mut state = dealt(options, seats, colours, first);
    while matches!(state.phase, Phase::ChoosingObjectives) {
        let seat = waiting_for(&state)[0];
        let keep = Game::legal_actions(&state, seat)[0].clone();
        decide(&mut state, seat, keep);
    }
    state
}

/// As `kept`, and every clan puts all its reinforcements on: round 1, movement.
fn started(options: &Options, seats: usize, colours: &[Colour], first: Colour) -> State {
    let mut state = kept(options, seats, colours, first);
    reinforce_all(&mut state);
    state
}

/// Each clan asked how many reinforcements it puts on says all (the first choice).
fn reinforce_all(state: &mut State) {
    while matches!(state.phase, Phase::Reinforcement { .. }) {
        let seat = waiting_for(state)[0];
        let all = Game::legal_actions(state, seat)[0].clone();
        decide(state, seat, all);
    }
}

/// Four players as in the rulebook: Rachel (seat 0, Red, first), Greg (1, Green), Brian (2,
/// Blue), Yasmin (3, Yellow), at the start of round 1 with an empty board.
fn rulebook_table() -> State {
    let mut state = started(&Options::default(), 4, &[Red, Green, Blue, Yellow], Red);
    clear_board(&mut state);
    state
}

fn clan_index(state: &State, colour: Colour) -> usize {
    state.index_of(colour).unwrap()
}

fn clear_board(state: &mut State) {
    for clan in &mut state.clans {
        clan.gnomes.iter_mut().for_each(|g| *g = 0);
    }
}

fn place(state: &mut State, colour: Colour, t: Territory, n: u8) {
    let i = clan_index(state, colour);
    state.clans[i].gnomes[usize::from(t)] = n;
}

fn gnomes(state: &State, colour: Colour, t: Territory) -> u8 {
    state.clans[clan_index(state, colour)].gnomes_at(t)
}

fn give(state: &mut State, colour: Colour, token: Token, n: u8) {
    let i = clan_index(state, colour);
    add(&mut state.clans[i].tokens, token, n);
}

fn tokens(state: &State, colour: Colour, token: Token) -> u8 {
    state.clans[clan_index(state, colour)].count(token)
}

fn set_kept(state: &mut State, colour: Colour, ids: &[u16]) {
    let i = clan_index(state, colour);
    state.clans[i].kept = ids.to_vec();
}

fn seat_of(state: &State, colour: Colour) -> Seat {
    state.clans[clan_index(state, colour)].seat
}

/// Ends the movement of every clan still to move this round.
fn end_movements(state: &mut State) {
    let round = state.round;
    while let Some(i) = state.mover().filter(|_| state.round == round) {
        let seat = state.clans[i].seat;
        decide(state, seat, Action::EndMovement);
    }
    reinforce_all(state);
}

fn roll(state: &mut State, values: &[u8]) {
    for &v in values {
        chance(state, Action::Roll(v));
    }
}

fn attack(state: &mut State, colour: Colour, target: Colour, dice: u8) {
    let seat = seat_of(state, colour);
    assert_eq!(
        state.declarer().and_then(|i| state.clans[i].colour),
        Some(colour)
    );
    decide(state, seat, Action::Attack { target, dice });
}
