//! Refused actions, deadlines and the one-line descriptions.

use serde_json::json;

use super::*;
use crate::rules::Viewer;
use crate::rules::registry::{Erased, Game as _, Waiting};

// Contract: "apply never panics; on Err the state is exactly as before."
#[test]
fn wrong_actors_are_refused_and_change_nothing() {
    let mut state = start(3);
    // Chance may not decide for a player.
    assert_eq!(
        illegal(
            &state,
            Actor::Chance,
            Action::ChooseCharacter(Character::Queen)
        ),
        RuleError::NotYourDecision
    );
    // Chance may not draw while a player must decide.
    assert_eq!(
        illegal(&state, Actor::Chance, Action::DrawCard(card(Potions, 1))),
        RuleError::NotYourDecision
    );
    // A seat out of turn, or no seat at all.
    assert_eq!(
        illegal(
            &state,
            Actor::Seat(2),
            Action::ChooseCharacter(Character::Queen)
        ),
        RuleError::NotYourDecision
    );
    assert_eq!(
        illegal(&state, Actor::Seat(7), Action::EndTurn),
        RuleError::NotYourDecision
    );
    choose(&mut state, 0, Character::Queen);
    // A seat may not act for a chance step, not even its own draw.
    assert_eq!(
        illegal(&state, Actor::Seat(0), Action::DrawCard(card(Potions, 1))),
        RuleError::NotYourDecision
    );
    // Chance may not make a player's decision during a chance step either.
    assert_eq!(
        illegal(&state, Actor::Chance, Action::EndTurn),
        RuleError::NotYourDecision
    );
    // Not a possible outcome: no such card, or none left in the deck.
    assert_eq!(
        illegal(&state, Actor::Chance, Action::DrawCard(card(Potions, 237))),
        RuleError::illegal("that is not a possible outcome of this draw")
    );
    assert!(matches!(
        illegal(&state, Actor::Chance, Action::DrawToken(Token::LevelUp)),
        RuleError::Illegal(_)
    ));
}

// "Play a Card: Choose an Element Card from your hand" — only cards you hold.
#[test]
fn illegal_decisions_say_why_and_change_nothing() {
    // Games created before edition 1 still apply the old `play_card` by index (ruling 21): out
    // of range, it says why.
    let mut old = start_in(0, 2);
    choose(&mut old, 0, Character::Queen);
    draw_card(&mut old, card(Crystals, 2));
    assert_eq!(
        illegal(&old, Actor::Seat(0), Action::PlayCard(4)),
        RuleError::illegal("there is no card 4 in your hand (you hold 4, numbered from 0)")
    );
    assert_eq!(
        illegal(&old, Actor::Seat(0), Action::PlayCard(usize::MAX)),
        RuleError::illegal(format!(
            "there is no card {} in your hand (you hold 4, numbered from 0)",
            usize::MAX
        ))
    );
    let mut state = start(2);
    choose(&mut state, 0, Character::Queen);
    draw_card(&mut state, card(Crystals, 2));
    assert_eq!(
        illegal(&state, Actor::Seat(0), Action::PlayCard(0)),
        RuleError::illegal(
            "play a card by naming it ({\"play\": card}), not by its place in your hand"
        )
    );
    assert_eq!(
        illegal(&state, Actor::Seat(0), Action::EndTurn),
        RuleError::illegal("that is not possible now: you must play a card from your hand")
    );
    assert_eq!(
        illegal(&state, Actor::Seat(0), Action::DrawToken(Token::AddAGem)),
        RuleError::illegal("draws are made by chance, not by a player")
    );
    assert_eq!(
        illegal(&state, Actor::Seat(0), Action::KeepCard(0)),
        RuleError::illegal("that is not possible now: you must play a card from your hand")
    );
    // Malformed JSON through the registry is refused too.
    let erased = Erased::<BagOfFate>::default();
    let mut game = erased.load(&serde_json::to_value(&state).unwrap()).unwrap();
    assert!(game.apply_json(0, &json!({"play_card": "two"})).is_err());
    assert!(game.apply_json(0, &json!("fly_away")).is_err());
    assert_eq!(game.to_json(), serde_json::to_value(&state).unwrap());
}

// The service applies chance outcomes by index and logs each action in all its forms.
#[test]
fn the_registry_applies_chance_by_index_and_redacts_draws() {
    let erased = Erased::<BagOfFate>::default();
    let mut game = erased.new_game(&json!({}), 2).unwrap();
    let Waiting::Chance(weights) = game.waiting() else {
        panic!("set-up starts with the deal");
    };
    assert_eq!(weights, vec![6, 4, 2, 6, 4, 2, 6, 4, 2, 6, 4, 2, 6, 4, 2]);
    let applied = game.apply_chance(2).unwrap();
    assert_eq!(
        applied.action,
        json!({"draw_card": {"element": "potions", "icons": 3}})
    );
    assert_eq!(applied.redacted, json!({"draw_card": "hidden"}));
    assert_eq!(
        applied.description,
        "Seat 0 was dealt a Potions card (3 icons)"
    );
    assert_eq!(applied.redacted_description, "Seat 0 was dealt a card");
    assert!(game.apply_chance(15).is_err());
    assert!(erased.new_game(&json!({"variant": 1}), 2).is_err());
    assert!(erased.new_game(&json!(null), 6).is_err());
}

// Deadlines: "default_action returns a sensible choice".
#[test]
fn default_actions_end_turns_make_trades_and_give_up_sets() {
    let mut state = start(2);
    assert_eq!(
        Game::default_action(&state, 0),
        Some(Action::ChooseCharacter(Character::Queen))
    );
    assert_eq!(Game::default_action(&state, 1), None);
    // Two Potions sets face up: the trade gives one away (the first item), one is left.
    lay_out(&mut state, 0, &[card(Potions, 3), card(Potions, 3)]);
    lay_out(&mut state, 1, &[card(Snails, 1)]);
    choose(&mut state, 0, Character::Trader);
    draw_card(&mut state, card(Crystals, 1));
    assert_eq!(Game::default_action(&state, 0), Some(Action::PlayAtRandom));
    play(&mut state, 0, 3);
    // The trade must be made: at a deadline, with the first partner, their first item, for
    // the Trader's first item.
    assert_eq!(Game::default_action(&state, 0), Some(Action::TradeWith(1)));
    decide(&mut state, 0, Action::TradeWith(1));
    let take = Action::TradeTake(Item::Card(card(Snails, 1)));
    assert_eq!(Game::default_action(&state, 0), Some(take.clone()));
    decide(&mut state, 0, take);
    let give = Game::default_action(&state, 0).unwrap();
    assert!(matches!(give, Action::TradeGive(_)), "{give:?}");
    decide(&mut state, 0, give);
    assert_eq!(Game::default_action(&state, 0), Some(Action::EndTurn));
    decide(&mut state, 0, Action::TurnIn(Potions));
    assert_eq!(Game::default_action(&state, 0), Some(Action::CancelSet));
}

// Contract: describe gives "One human line for the action as `viewer` may see it".
#[test]
fn descriptions_are_one_human_line() {
    let mut state = start(2);
    add_gems(&mut state, 0, 1);
    let line = |state: &State, actor, action: Action| {
        Game::describe(state, actor, &action, Viewer::Spectator)
    };
    assert_eq!(
        line(
            &state,
            Actor::Seat(0),
            Action::ChooseCharacter(Character::Wizard)
        ),
        "Seat 0 chose the Wizard (7)"
    );
    choose(&mut state, 0, Character::Hunter);
    draw_card(&mut state, card(Potions, 2));
    assert_eq!(
        line(&state, Actor::Chance, Action::DrawToken(Token::Gem(1))),
        "Seat 0 drew a Gem of Seat 1 from the Bag of Fate"
    );
    assert_eq!(
        line(&state, Actor::Chance, Action::DrawToken(Token::Gem(0))),
        "Seat 0 drew their own Gem from the Bag of Fate"
    );
    draw_token(&mut state, Token::Element(Snails));
    assert_eq!(
        line(&state, Actor::Seat(0), Action::PlayCard(1)),
        "Seat 0 played a Potions card (2 icons)"
    );
    assert_eq!(
        line(&state, Actor::Seat(0), Action::EndTurn),
        "Seat 0 ends their turn"
    );
}
