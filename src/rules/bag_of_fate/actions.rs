//! Actions, what the game waits for, which actions are legal, and applying them.

use serde::{Deserialize, Serialize};

use super::data::{Card, Character, CharacterAction, Element, LEVEL_CAP, Token};
use super::flow::{
    advance, end_turn, keep_looked_at, may_choose, next_action, place_marker, reshuffle_if_run_out,
};
use super::state::{Item, Phase, State, put, take, tally};
use crate::rules::{Actor, Chance, Next, Outcome, RuleError, Seat};

/// An action of a player or an outcome of chance. JSON: externally tagged, snake_case, e.g.
/// `{"choose_character":"wizard"}`, `{"play":{"element":"fire","icons":2}}`, `"end_turn"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    // Chance outcomes.
    /// This seat's turn marker goes on the next free turn-order space.
    PlaceTurnMarker(Seat),
    /// The top card of the deck turns out to be this card.
    DrawCard(Card),
    /// This token comes out of the Bag of Fate.
    DrawToken(Token),
    /// The card [`Action::PlayAtRandom`] drew from the player's hand: it is played face up.
    RandomPlay(Card),

    // Player decisions.
    ChooseCharacter(Character),
    /// Turn a card of this kind from your hand face up. The card, not its place in the hand:
    /// it is played face up, so everyone may see it, but its place would tell how many cards
    /// of the hand sort before and after it (docs/rules/bag-of-fate.md, ruling 4).
    Play(Card),
    /// Play a card drawn at random from your hand (a chance step draws it, every card of the
    /// hand alike): what a deadline plays, so that the card tells nothing of the rest of the
    /// hand (ruling 20).
    PlayAtRandom,
    /// The old form of [`Action::Play`], by index into the sorted hand: never offered, still
    /// applied in games created before edition 1 so that their logs fold (refused in the
    /// others: ruling 21); logged for others as the card played (see `view::visibility`).
    PlayCard(usize),
    /// The Oracle keeps the looked-at card at this index; the others are discarded.
    KeepCard(usize),
    /// The Trader picks the player to trade with.
    TradeWith(Seat),
    /// The Trader picks what to take from the partner.
    TradeTake(Item),
    /// The Trader picks what to give in return; this makes the swap.
    TradeGive(Item),
    SkipTrade,
    CancelTrade,
    /// Start turning in a set of this element.
    TurnIn(Element),
    /// Put one of your face-up cards into the set being turned in.
    AddCard(Card),
    /// Put one of your element tokens into the set being turned in.
    AddToken,
    CancelSet,
    EndTurn,
}

impl Action {
    pub fn is_chance(&self) -> bool {
        matches!(
            self,
            Action::PlaceTurnMarker(_)
                | Action::DrawCard(_)
                | Action::DrawToken(_)
                | Action::RandomPlay(_)
        )
    }
}

pub fn next(state: &State) -> Next<Action> {
    let cards = || chance(tally(&state.deck), Action::DrawCard);
    let tokens = || chance(tally(&state.bag), Action::DrawToken);
    match &state.phase {
        Phase::Over { winner } => Next::Over(Outcome {
            winners: vec![*winner],
            scores: None,
            summary: format!("Seat {winner} drew their own Gem as the Wizard and won."),
        }),
        Phase::Dealing => cards(),
        Phase::PlacingMarkers => Next::Chance(Chance {
            outcomes: state
                .unplaced_markers()
                .into_iter()
                .map(|s| (Action::PlaceTurnMarker(s), 1))
                .collect(),
        }),
        Phase::Acting { .. } => match state.current_action() {
            Some(CharacterAction::PlayCards(_)) if state.playing_at_random => {
                let hand = state.current_seat().and_then(|s| state.player(s));
                chance(tally(hand.map_or(&[], |p| &p.hand)), Action::RandomPlay)
            }
            Some(CharacterAction::DrawCards(_) | CharacterAction::LookAtCards(_)) => cards(),
            Some(CharacterAction::DrawTokens(_) | CharacterAction::WizardDraw) => tokens(),
            _ => players(state),
        },
        Phase::ChoosingCharacter
        | Phase::Trading { .. }
        | Phase::TurningIn
        | Phase::BuildingSet { .. } => players(state),
    }
}

fn players(state: &State) -> Next<Action> {
    Next::Players(state.current_seat().into_iter().collect())
}

fn chance<T>(tally: Vec<(T, u32)>, action: fn(T) -> Action) -> Next<Action> {
    Next::Chance(Chance {
        outcomes: tally.into_iter().map(|(t, n)| (action(t), n)).collect(),
    })
}

pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if state.current_seat() != Some(seat) || !matches!(next(state), Next::Players(_)) {
        return Vec::new();
    }
    let Some(player) = state.player(seat) else {
        return Vec::new();
    };
    match &state.phase {
        Phase::ChoosingCharacter => Character::ALL
            .into_iter()
            .filter(|&c| may_choose(state, seat, c))
            .map(Action::ChooseCharacter)
            .collect(),
        Phase::Acting { .. } => match state.current_action() {
            Some(CharacterAction::PlayCards(_)) => tally(&player.hand)
                .into_iter()
                .map(|(card, _)| Action::Play(card))
                .chain((!player.hand.is_empty()).then_some(Action::PlayAtRandom))
                .collect(),
            Some(CharacterAction::KeepOneLookedAt) => {
                (0..state.looked_at.len()).map(Action::KeepCard).collect()
            }
            _ => Vec::new(),
        },
        Phase::Trading { partner, take, .. } => {
            let mut actions: Vec<Action> = match (partner, take) {
                (None, _) => (0..state.seats())
                    .filter(|&s| s != seat && state.player(s).is_some_and(|p| p.has_items()))
                    .map(Action::TradeWith)
                    .collect(),
                (Some(p), None) => state
                    .player(*p)
                    .map(|p| p.items().into_iter().map(Action::TradeTake).collect())
                    .unwrap_or_default(),
                (Some(_), Some(_)) => player.items().into_iter().map(Action::TradeGive).collect(),
            };
            // The trade is one of the tile's actions: it is made, not offered (ruling 13).
            if partner.is_some() {
                actions.push(Action::CancelTrade);
            }
            actions
        }
        Phase::TurningIn => {
            let mut actions: Vec<Action> = player
                .completable()
                .into_iter()
                .map(Action::TurnIn)
                .collect();
            actions.push(Action::EndTurn);
            actions
        }
        Phase::BuildingSet { element, .. } => {
            let mut actions: Vec<Action> = tally(&player.face_up)
                .into_iter()
                .filter(|(c, _)| c.element == *element)
                .map(|(c, _)| Action::AddCard(c))
                .collect();
            if player.tokens.contains(element) {
                actions.push(Action::AddToken);
            }
            actions.push(Action::CancelSet);
            actions
        }
        Phase::Dealing | Phase::PlacingMarkers | Phase::Over { .. } => Vec::new(),
    }
}

/// Applies `action` by `actor`; on error the state is unchanged.
pub fn apply(state: &mut State, actor: Actor, action: &Action) -> Result<(), RuleError> {
    let mut after = state.clone();
    match (next(state), actor) {
        (Next::Over(_), _) => return Err(RuleError::GameOver),
        (Next::Chance(chance), Actor::Chance) => {
            if !action.is_chance() {
                return Err(RuleError::NotYourDecision);
            }
            if !chance.outcomes.iter().any(|(a, _)| a == action) {
                return Err(RuleError::illegal(
                    "that is not a possible outcome of this draw",
                ));
            }
            apply_chance(&mut after, action)?;
        }
        (Next::Players(seats), Actor::Seat(seat)) if seats.contains(&seat) => {
            decide(&mut after, seat, action)?;
        }
        _ => return Err(RuleError::NotYourDecision),
    }
    advance(&mut after);
    *state = after;
    Ok(())
}

fn apply_chance(state: &mut State, action: &Action) -> Result<(), RuleError> {
    match *action {
        Action::PlaceTurnMarker(seat) => place_marker(state, seat),
        Action::DrawCard(card) => {
            let drawer = state.card_drawer().ok_or_else(no_draw)?;
            if !take(&mut state.deck, &card) {
                return Err(no_draw());
            }
            if matches!(
                state.current_action(),
                Some(CharacterAction::LookAtCards(_))
            ) {
                state.looked_at.push(card);
            } else if let Some(player) = state.players.get_mut(drawer) {
                put(&mut player.hand, card);
            }
            count_done(state);
            reshuffle_if_run_out(state);
        }
        Action::RandomPlay(card) => {
            let seat = state.current_seat().ok_or_else(no_draw)?;
            play_from_hand(state, seat, card)?;
            state.playing_at_random = false;
        }
        Action::DrawToken(token) => {
            if !take(&mut state.bag, &token) {
                return Err(no_draw());
            }
            state.drawn.push(token);
            count_done(state);
            let wizard_draw = state.current_action() == Some(CharacterAction::WizardDraw);
            if let Some(seat) = state.current_seat()
                && wizard_draw
                && token == Token::Gem(seat)
            {
                state.phase = Phase::Over { winner: seat };
            }
        }
        _ => return Err(RuleError::NotYourDecision),
    }
    Ok(())
}

/// Turns `card` from `seat`'s hand face up: "Choose an Element Card from your hand and turn it
/// face up in front of you." (rulebook l.147)
fn play_from_hand(state: &mut State, seat: Seat, card: Card) -> Result<(), RuleError> {
    let player = state
        .players
        .get_mut(seat)
        .ok_or_else(|| RuleError::illegal("there is no such seat"))?;
    if !take(&mut player.hand, &card) {
        return Err(RuleError::illegal(format!(
            "you hold no {} card with {} icons",
            card.element.name(),
            card.icons
        )));
    }
    put(&mut player.face_up, card);
    count_done(state);
    Ok(())
}

fn no_draw() -> RuleError {
    RuleError::illegal("nothing can be drawn now")
}

/// Counts one more card or token drawn, or card played, for the current action.
fn count_done(state: &mut State) {
    if let Phase::Acting { done, .. } = &mut state.phase {
        *done = done.saturating_add(1);
    }
}

fn decide(state: &mut State, seat: Seat, action: &Action) -> Result<(), RuleError> {
    let phase = state.phase.clone();
    let current = state.current_action();
    let player = state
        .players
        .get_mut(seat)
        .ok_or_else(|| RuleError::illegal("there is no such seat"))?;
    match (action, phase) {
        (&Action::ChooseCharacter(character), Phase::ChoosingCharacter) => {
            if let Some(holder) = state.character_holder(character) {
                return Err(RuleError::illegal(format!(
                    "the {} was already chosen this round by Seat {holder}",
                    character.name()
                )));
            }
            if let Some(player) = state.players.get_mut(seat) {
                player.character = Some(character);
            }
            state.phase = Phase::Acting { action: 0, done: 0 };
        }
        (&Action::PlayCard(index), Phase::Acting { .. })
            if matches!(current, Some(CharacterAction::PlayCards(_))) =>
        {
            if state.edition >= 1 {
                return Err(RuleError::illegal(
                    "play a card by naming it ({\"play\": card}), not by its place in your hand",
                ));
            }
            if index >= player.hand.len() {
                return Err(RuleError::illegal(format!(
                    "there is no card {index} in your hand (you hold {}, numbered from 0)",
                    player.hand.len()
                )));
            }
            let card = player.hand.remove(index);
            put(&mut player.face_up, card);
            count_done(state);
        }
        (&Action::Play(card), Phase::Acting { .. })
            if matches!(current, Some(CharacterAction::PlayCards(_))) =>
        {
            play_from_hand(state, seat, card)?;
        }
        (Action::PlayAtRandom, Phase::Acting { .. })
            if matches!(current, Some(CharacterAction::PlayCards(_))) =>
        {
            if player.hand.is_empty() {
                return Err(RuleError::illegal("you hold no card to play"));
            }
            state.playing_at_random = true;
        }
        (&Action::KeepCard(index), Phase::Acting { action, .. })
            if current == Some(CharacterAction::KeepOneLookedAt) =>
        {
            if index >= state.looked_at.len() {
                return Err(RuleError::illegal(format!(
                    "there is no card {index} among the {} you looked at (numbered from 0)",
                    state.looked_at.len()
                )));
            }
            keep_looked_at(state, seat, index);
            next_action(state, action);
        }
        (
            &Action::TradeWith(partner),
            Phase::Trading {
                action,
                partner: None,
                ..
            },
        ) => {
            if partner == seat {
                return Err(RuleError::illegal("you cannot trade with yourself"));
            }
            if !state.player(partner).is_some_and(|p| p.has_items()) {
                return Err(RuleError::illegal(format!(
                    "Seat {partner} has no face-up card or token to trade"
                )));
            }
            state.phase = Phase::Trading {
                action,
                partner: Some(partner),
                take: None,
            };
        }
        (
            &Action::TradeTake(item),
            Phase::Trading {
                action,
                partner: Some(partner),
                take: None,
            },
        ) => {
            if !state
                .player(partner)
                .is_some_and(|p| p.items().contains(&item))
            {
                return Err(RuleError::illegal(format!(
                    "Seat {partner} has no such face-up card or token"
                )));
            }
            state.phase = Phase::Trading {
                action,
                partner: Some(partner),
                take: Some(item),
            };
        }
        (
            &Action::TradeGive(give),
            Phase::Trading {
                action,
                partner: Some(partner),
                take: Some(taken),
            },
        ) => {
            if !player.remove_item(give) {
                return Err(RuleError::illegal(
                    "you have no such face-up card or token to give",
                ));
            }
            player.add_item(taken);
            let other = state
                .players
                .get_mut(partner)
                .ok_or_else(|| RuleError::illegal("there is no such seat"))?;
            if !other.remove_item(taken) {
                return Err(RuleError::illegal(format!(
                    "Seat {partner} no longer has that card or token"
                )));
            }
            other.add_item(give);
            next_action(state, action);
        }
        (Action::SkipTrade, Phase::Trading { .. }) => {
            return Err(RuleError::illegal(
                "the trade is one of the Trader's actions, performed like the others: choose a \
                 player to trade with (it is skipped only when nobody can trade)",
            ));
        }
        (
            Action::CancelTrade,
            Phase::Trading {
                action,
                partner: Some(_),
                ..
            },
        ) => {
            state.phase = Phase::Trading {
                action,
                partner: None,
                take: None,
            };
        }
        (&Action::TurnIn(element), Phase::TurningIn) => {
            if !player.completable().contains(&element) {
                return Err(RuleError::illegal(format!(
                    "you need {} {} showing on face-up cards and tokens for a set, and have {}",
                    element.set_size(),
                    element.name(),
                    player.icons(element)
                )));
            }
            state.phase = Phase::BuildingSet {
                element,
                cards: Vec::new(),
                tokens: 0,
            };
        }
        (
            &Action::AddCard(card),
            Phase::BuildingSet {
                element,
                mut cards,
                tokens,
            },
        ) => {
            if card.element != element {
                return Err(RuleError::illegal(format!(
                    "this set is of {}, not {}",
                    element.name(),
                    card.element.name()
                )));
            }
            if !take(&mut player.face_up, &card) {
                return Err(RuleError::illegal("you have no such face-up card"));
            }
            put(&mut cards, card);
            add_to_set(state, seat, element, cards, tokens);
        }
        (
            Action::AddToken,
            Phase::BuildingSet {
                element,
                cards,
                tokens,
            },
        ) => {
            if !take(&mut player.tokens, &element) {
                return Err(RuleError::illegal(format!(
                    "you have no {} token left",
                    element.name()
                )));
            }
            add_to_set(state, seat, element, cards, tokens.saturating_add(1));
        }
        (
            Action::CancelSet,
            Phase::BuildingSet {
                element,
                cards,
                tokens,
            },
        ) => {
            for card in cards {
                put(&mut player.face_up, card);
            }
            for _ in 0..tokens {
                put(&mut player.tokens, element);
            }
            state.phase = Phase::TurningIn;
        }
        (Action::EndTurn, Phase::TurningIn) => end_turn(state),
        (action, _) if action.is_chance() => {
            return Err(RuleError::illegal(
                "draws are made by chance, not by a player",
            ));
        }
        _ => return Err(RuleError::illegal(wrong_step(state))),
    }
    Ok(())
}

/// Records what a set holds so far and, once it shows enough icons, turns it in: the cards
/// go to the discards, the tokens leave the game, and the reward is paid at once.
fn add_to_set(state: &mut State, seat: Seat, element: Element, cards: Vec<Card>, tokens: u8) {
    let icons: u32 = cards.iter().map(|c| u32::from(c.icons)).sum::<u32>() + u32::from(tokens);
    if icons < element.set_size() {
        state.phase = Phase::BuildingSet {
            element,
            cards,
            tokens,
        };
        return;
    }
    for card in cards {
        put(&mut state.discards, card);
    }
    for _ in 0..tokens {
        put(&mut state.used_tokens, element);
    }
    let reward = element.reward();
    if let Some(player) = state.players.get_mut(seat) {
        player.level = player.level.saturating_add(reward.levels).min(LEVEL_CAP);
        // "A gem reward with no gems left does nothing."
        let gems = reward.gems.min(player.gems);
        player.gems -= gems;
        for _ in 0..gems {
            put(&mut state.bag, Token::Gem(seat));
        }
    }
    state.phase = Phase::TurningIn;
}

/// Why a decision does not fit the current step, in the game's words.
fn wrong_step(state: &State) -> String {
    let now = match &state.phase {
        Phase::ChoosingCharacter => "choose a character",
        Phase::Acting { .. } => match state.current_action() {
            Some(CharacterAction::PlayCards(_)) => "play a card from your hand",
            Some(CharacterAction::KeepOneLookedAt) => "keep one of the cards you looked at",
            _ => "wait for a draw",
        },
        Phase::Trading { partner: None, .. } => "choose a player to trade with",
        Phase::Trading { take: None, .. } => "choose what to take in the trade, or cancel it",
        Phase::Trading { .. } => "choose what to give in the trade, or cancel it",
        Phase::TurningIn => "turn in a set or end your turn",
        Phase::BuildingSet { .. } => "add a card or token to the set, or cancel it",
        Phase::Dealing | Phase::PlacingMarkers => "wait for the set-up",
        Phase::Over { .. } => "stop: the game is over",
    };
    format!("that is not possible now: you must {now}")
}
