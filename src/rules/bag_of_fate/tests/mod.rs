//! Rule tests. Each quotes the rulebook sentence it checks; chance outcomes are scripted.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod audit;
mod characters;
mod conformance;
mod fresh_review;
mod hidden;
mod labels;
mod notation;
mod orders;
mod pace;
mod picture;
mod playout;
mod present;
mod reference;
mod refusals;
mod sets;
mod setup;

use super::data::{Card, Character, Element, Token};
use super::state::{Item, Phase, State, put, take};
use super::{Action, BagOfFate, Options};
use crate::rules::{Actor, Next, RuleError, Ruleset, Seat};

use Element::{Crystals, Flowers, Mushrooms, Potions, Snails};

type Game = BagOfFate;

fn card(element: Element, icons: u8) -> Card {
    Card::new(element, icons)
}

/// Applies a chance outcome, which must be one of the current outcomes.
fn chance(state: &mut State, action: Action) {
    let outcomes = outcomes(state);
    assert!(
        outcomes.iter().any(|(a, _)| *a == action),
        "{action:?} is not among the outcomes {outcomes:?}"
    );
    Game::apply(state, Actor::Chance, &action).unwrap();
}

/// Plays the card at `index` of `seat`'s sorted hand (the action names the card).
fn play(state: &mut State, seat: Seat, index: usize) {
    let card = state.players[seat].hand[index];
    decide(state, seat, Action::Play(card));
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

fn is_chance(state: &State) -> bool {
    matches!(Game::next(state), Next::Chance(_))
}

fn illegal(state: &State, actor: Actor, action: Action) -> RuleError {
    let mut after = state.clone();
    let err = Game::apply(&mut after, actor, &action).unwrap_err();
    assert_eq!(&after, state, "a refused action changed the state");
    err
}

fn draw_card(state: &mut State, c: Card) {
    chance(state, Action::DrawCard(c));
}

fn draw_token(state: &mut State, t: Token) {
    chance(state, Action::DrawToken(t));
}

/// A game of the current edition (as new games are created) dealt `hands` (by seat) with the
/// turn order `order`, by scripted chance steps.
fn start_with(hands: &[[Card; 3]], order: &[Seat]) -> State {
    start_of_edition(super::EDITION, hands, order)
}

/// As [`start_with`], in a game created under `edition` (for the tests of an old edition's
/// rules, which old games keep).
fn start_of_edition(edition: u32, hands: &[[Card; 3]], order: &[Seat]) -> State {
    let mut state = Game::new_game(&Options { edition }, hands.len()).unwrap();
    // Dealing is round-robin by seat.
    for round in 0..3 {
        for hand in hands {
            draw_card(&mut state, hand[round]);
        }
    }
    // The last marker is placed without a draw.
    for &seat in &order[..order.len() - 1] {
        chance(&mut state, Action::PlaceTurnMarker(seat));
    }
    state
}

/// A game of `seats` players, each dealt Potions 1, Flowers 1, Snails 1, in seat order.
fn start(seats: usize) -> State {
    start_in(super::EDITION, seats)
}

/// As [`start`], in a game created under `edition`.
fn start_in(edition: u32, seats: usize) -> State {
    let hand = [card(Potions, 1), card(Flowers, 1), card(Snails, 1)];
    let order: Vec<Seat> = (0..seats).collect();
    start_of_edition(edition, &vec![hand; seats], &order)
}

/// Moves `cards` from the deck to `seat`'s face-up cards (the 60 cards stay 60).
fn lay_out(state: &mut State, seat: Seat, cards: &[Card]) {
    for c in cards {
        assert!(take(&mut state.deck, c), "{c:?} is not in the deck");
        put(&mut state.players[seat].face_up, *c);
    }
}

/// Moves element tokens from the bag to `seat`'s kept tokens.
fn keep_tokens(state: &mut State, seat: Seat, elements: &[Element]) {
    for e in elements {
        assert!(take(&mut state.bag, &Token::Element(*e)));
        put(&mut state.players[seat].tokens, *e);
    }
}

/// Moves `n` of `seat`'s gems from the supply into the bag.
fn add_gems(state: &mut State, seat: Seat, n: u8) {
    for _ in 0..n {
        state.players[seat].gems -= 1;
        put(&mut state.bag, Token::Gem(seat));
    }
}

/// Every card of the game is somewhere, once.
fn card_count(state: &State) -> usize {
    let set: usize = match &state.phase {
        Phase::BuildingSet { cards, .. } => cards.len(),
        _ => 0,
    };
    state.deck.len()
        + state.discards.len()
        + state.looked_at.len()
        + set
        + state
            .players
            .iter()
            .map(|p| p.hand.len() + p.face_up.len())
            .sum::<usize>()
}

/// Every token of the game (31 plus 8 gems a player) is somewhere, once.
fn token_count(state: &State) -> usize {
    let set = match &state.phase {
        Phase::BuildingSet { tokens, .. } => usize::from(*tokens),
        _ => 0,
    };
    state.bag.len()
        + state.drawn.len()
        + state.used_tokens.len()
        + set
        + state
            .players
            .iter()
            .map(|p| p.tokens.len() + usize::from(p.gems))
            .sum::<usize>()
}

fn choose(state: &mut State, seat: Seat, character: Character) {
    decide(state, seat, Action::ChooseCharacter(character));
}
