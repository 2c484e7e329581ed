//! Rule tests. Each quotes the rulebook sentence it checks; chance outcomes are scripted.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod audit;
mod cards;
mod combat;
mod conformance;
mod fresh_review;
mod hidden;
mod movement;
mod notation;
mod phases;
mod picture;
mod playout;
mod powers;
mod present;
mod refusals;
mod review;
mod setup;
mod stops;
mod victory;

use super::data::{CardId, card_id};
use super::state::{Figure, Phase, Pos, State, put, take};
use super::{Action, FigureKind, MonstersAndMagic, Options, Structure, Terrain};
use crate::rules::{Actor, Next, RuleError, Ruleset, Seat};

type Game = MonstersAndMagic;

/// Applies a chance outcome, which must be one of the current outcomes.
fn chance(state: &mut State, action: Action) {
    let outcomes = outcomes(state);
    assert!(
        outcomes.iter().any(|(a, _)| *a == action),
        "{action:?} is not among the outcomes {outcomes:?}"
    );
    Game::apply(state, Actor::Chance, &action).unwrap();
}

fn outcomes(state: &State) -> Vec<(Action, u32)> {
    match Game::next(state) {
        Next::Chance(chance) => chance.outcomes,
        other => panic!("expected a chance step, got {other:?}"),
    }
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

fn is_chance(state: &State) -> bool {
    matches!(Game::next(state), Next::Chance(_))
}

fn illegal(state: &State, seat: Seat, action: Action) -> RuleError {
    let mut after = state.clone();
    let err = Game::apply(&mut after, Actor::Seat(seat), &action).unwrap_err();
    assert_eq!(&after, state, "a refused action changed the state");
    err
}

fn id(name: &str) -> CardId {
    card_id(name).unwrap_or_else(|| panic!("no card {name}"))
}

/// Lays the map out in a fixed pattern: terrain by column (Plains, Forest, Mountains,
/// Badlands, repeated), structures by (x + y) mod 8 in `Structure::ALL` order.
fn lay_map(state: &mut State) {
    for i in 0..64usize {
        let at = Pos::of_index(i);
        chance(
            state,
            Action::PlaceTile(Terrain::ALL[usize::from(at.0) % 4]),
        );
    }
    for i in 0..64usize {
        let at = Pos::of_index(i);
        let s = (usize::from(at.0) + usize::from(at.1)) % 8;
        chance(state, Action::PlaceChit(Structure::ALL[s]));
    }
}

/// A game with the given options set up: each seat starts with a Hero, seat 0 goes first.
fn game_with(options: Options, seats: usize) -> State {
    let mut state = Game::new_game(&options, seats).unwrap();
    lay_map(&mut state);
    while matches!(state.phase, Phase::Deal) {
        let (first, _) = outcomes(&state)[0].clone();
        chance(&mut state, first);
    }
    pick_corners(&mut state, seats);
    for seat in 0..seats {
        decide(&mut state, seat, Action::StartFigure(FigureKind::Hero));
    }
    if seats == 3 {
        decide(&mut state, 1, Action::DeclineExtraFigure);
    }
    chance(&mut state, Action::Roll2d6(12));
    for _ in 1..seats {
        chance(&mut state, Action::Roll2d6(2));
    }
    assert!(matches!(state.phase, Phase::Movement));
    state
}

/// Seats take the corners clockwise from [0,0]; with 2 players seat 1 gets [7,7].
fn pick_corners(state: &mut State, seats: usize) {
    for seat in 0..seats {
        let corner = legal(state, seat)
            .into_iter()
            .find(|a| matches!(a, Action::ChooseCorner(_)))
            .unwrap();
        decide(state, seat, corner);
    }
}

/// A game without permanent cards, seat 0 to move in turn 1.
fn game(seats: usize) -> State {
    game_with(
        Options {
            permanent_cards: 0,
            ..Options::default()
        },
        seats,
    )
}

/// A new game (current edition) without permanent cards, seat 0 to move in turn 1.
fn new_game(seats: usize) -> State {
    game_with(
        Game::for_new_game(Options {
            permanent_cards: 0,
            ..Options::default()
        }),
        seats,
    )
}

/// Sets a space's terrain and structure.
fn set_space(state: &mut State, at: Pos, terrain: Terrain, structure: Structure) {
    let space = state.space_mut(at).unwrap();
    space.terrain = Some(terrain);
    space.structure = Some(structure);
}

/// Puts a figure on the map, ready to move this turn; returns its id.
fn put_figure(state: &mut State, owner: Seat, kind: FigureKind, at: Pos) -> u16 {
    let id = state.next_figure;
    state.next_figure += 1;
    state.figures.push(Figure {
        id,
        owner,
        kind,
        at,
        spent: 0,
        done: false,
        entered: Vec::new(),
        hasted: 0,
        boosted: 0,
        passed: Vec::new(),
    });
    id
}

fn put_garrison(state: &mut State, owner: Seat, at: Pos) {
    state.space_mut(at).unwrap().garrison = Some(owner);
}

/// Moves a card from the deck into `seat`'s hand.
fn give(state: &mut State, seat: Seat, card: CardId) {
    assert!(
        take(&mut state.deck, card),
        "card {card} is not in the deck"
    );
    put(&mut state.players[seat].hand, card);
}

/// Moves a card from the deck to `seat`'s permanent cards.
fn give_permanent(state: &mut State, seat: Seat, card: CardId) {
    assert!(
        take(&mut state.deck, card),
        "card {card} is not in the deck"
    );
    state.players[seat].permanent.push(card);
}

fn figure_at(state: &State, at: Pos) -> Option<&Figure> {
    state.figures.iter().find(|f| f.at == at)
}

/// Seat `seat` moves `figure` one space to `to`.
fn move_to(state: &mut State, seat: Seat, figure: u16, to: Pos) {
    decide(state, seat, Action::Move { figure, to });
}

/// Settles a fight with the given 2D6 sums ("Attacker and Defender both roll 2D6 each"),
/// then passes on the card windows.
fn fight(state: &mut State, attack: u8, defence: u8) {
    chance(state, Action::Roll2d6(attack));
    chance(state, Action::Roll2d6(defence));
    pass_cards(state);
}

/// Both sides pass on their card windows until the fight is settled.
fn pass_cards(state: &mut State) {
    while let (Phase::Combat(_), Next::Players(seats)) = (&state.phase, Game::next(state)) {
        decide(state, seats[0], Action::DoneCards);
    }
}

/// Ends seat `current`'s turn: movement, the draw, a recruit roll of 1 (a card), end.
fn finish_turn(state: &mut State, draw: CardId, recruit_card: CardId) {
    let seat = state.current;
    decide(state, seat, Action::EndMovement);
    chance(state, Action::DrawCard(draw));
    chance(state, Action::RollDie(1));
    chance(state, Action::DrawCard(recruit_card));
    while legal(state, seat)
        .iter()
        .any(|a| matches!(a, Action::Discard(_)))
    {
        let d = legal(state, seat)
            .into_iter()
            .find(|a| matches!(a, Action::Discard(_)))
            .unwrap();
        decide(state, seat, d);
    }
    decide(state, seat, Action::EndTurn);
}

/// The first two cards of the deck not in `except`.
fn spare_cards(state: &State, n: usize, except: &[CardId]) -> Vec<CardId> {
    state
        .deck
        .iter()
        .copied()
        .filter(|c| !except.contains(c))
        .take(n)
        .collect()
}
