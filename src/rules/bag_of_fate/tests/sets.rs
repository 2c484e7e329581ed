//! Turning in element sets.

use super::*;
use crate::rules::Viewer;

/// Seat `seat` takes the Apprentice at level 1 and draws a Level-Up token (so is at level 2),
/// reaching the turn-in step.
fn apprentice_turn(state: &mut State, seat: Seat) {
    choose(state, seat, Character::Apprentice);
    draw_token(state, Token::LevelUp);
}

// "You may turn in more Elements than necessary for a set, but you will not get "change." For
// example, you could turn in two cards with three Snails each, but even though only five
// Snails are needed, you will not get a Snail back."
#[test]
fn overshooting_a_set_gives_no_change() {
    let mut state = start(2);
    lay_out(&mut state, 0, &[card(Snails, 3), card(Snails, 3)]);
    apprentice_turn(&mut state, 0);
    assert_eq!(
        Game::legal_actions(&state, 0),
        vec![Action::TurnIn(Snails), Action::EndTurn]
    );
    decide(&mut state, 0, Action::TurnIn(Snails));
    assert_eq!(
        Game::legal_actions(&state, 0),
        vec![Action::AddCard(card(Snails, 3)), Action::CancelSet]
    );
    decide(&mut state, 0, Action::AddCard(card(Snails, 3)));
    assert_eq!(
        Game::describe(
            &state,
            Actor::Seat(0),
            &Action::AddCard(card(Snails, 3)),
            Viewer::Spectator
        ),
        "Seat 0 puts a Snails card (3 icons) into the set, completing it: +2 Gems into the Bag \
         of Fate"
    );
    decide(&mut state, 0, Action::AddCard(card(Snails, 3)));
    assert!(state.players[0].face_up.is_empty(), "no Snail back");
    assert_eq!(state.discards, vec![card(Snails, 3), card(Snails, 3)]);
    // Snails: 5 -> +2 gems.
    assert_eq!(state.players[0].gems, 6);
    assert_eq!(state.gems_in_bag(0), 2);
    assert_eq!(waiting_for(&state), vec![1]);
    assert_eq!(card_count(&state), 60);
}

// "You do not have to turn in all of an Element type if you do not need to. For example, if
// you have two cards that show two Flowers each, and a token that shows one Flower, you only
// need to turn in the two cards to complete the set. You may keep the token to complete
// another set later."
#[test]
fn part_of_an_element_may_be_kept_for_later() {
    let mut state = start(2);
    lay_out(&mut state, 0, &[card(Flowers, 2), card(Flowers, 2)]);
    keep_tokens(&mut state, 0, &[Flowers]);
    apprentice_turn(&mut state, 0);
    decide(&mut state, 0, Action::TurnIn(Flowers));
    assert_eq!(
        Game::legal_actions(&state, 0),
        vec![
            Action::AddCard(card(Flowers, 2)),
            Action::AddToken,
            Action::CancelSet
        ]
    );
    decide(&mut state, 0, Action::AddCard(card(Flowers, 2)));
    decide(&mut state, 0, Action::AddCard(card(Flowers, 2)));
    assert_eq!(state.players[0].tokens, vec![Flowers]);
    assert_eq!(state.players[0].level, 3);
    assert_eq!(waiting_for(&state), vec![1]);
}

// "You may wait until you play two more Flowers (either one card or two tokens), which would
// give you eight total Flowers. Then you could turn them all in for two complete sets, which
// would get you two rewards!"
#[test]
fn two_sets_in_one_turn_give_two_rewards() {
    let mut state = start(2);
    lay_out(&mut state, 0, &[card(Flowers, 3), card(Flowers, 3)]);
    keep_tokens(&mut state, 0, &[Flowers, Flowers]);
    apprentice_turn(&mut state, 0);
    for _ in 0..2 {
        decide(&mut state, 0, Action::TurnIn(Flowers));
        decide(&mut state, 0, Action::AddCard(card(Flowers, 3)));
        decide(&mut state, 0, Action::AddToken);
    }
    assert_eq!(state.players[0].level, 4);
    assert!(state.players[0].face_up.is_empty());
    assert_eq!(state.used_tokens, vec![Flowers, Flowers]);
    assert_eq!(waiting_for(&state), vec![1]);
}

// "You do not have to turn in a set if you do not wish to."
#[test]
fn turning_in_is_optional() {
    let mut state = start(2);
    lay_out(&mut state, 0, &[card(Potions, 3)]);
    apprentice_turn(&mut state, 0);
    decide(&mut state, 0, Action::EndTurn);
    assert_eq!(state.players[0].face_up, vec![card(Potions, 3)]);
    assert_eq!(waiting_for(&state), vec![1]);
}

// "Cards in your hand do not count toward completing sets."
#[test]
fn cards_in_hand_do_not_count() {
    let hand = [card(Potions, 1), card(Potions, 2), card(Potions, 3)];
    let mut state = start_with(&[hand, hand], &[0, 1]);
    apprentice_turn(&mut state, 0);
    // Six Potions in hand, none face up: no turn-in step at all.
    assert_eq!(waiting_for(&state), vec![1]);
    let mut state = start_with(&[hand, hand], &[0, 1]);
    lay_out(&mut state, 0, &[card(Potions, 1)]);
    apprentice_turn(&mut state, 0);
    assert_eq!(waiting_for(&state), vec![1]);
    assert_eq!(
        illegal(&state, Actor::Seat(1), Action::TurnIn(Potions)),
        RuleError::illegal("that is not possible now: you must choose a character")
    );
}

// Set sizes and rewards (CONTENT.md): "Potions 3 → +1 gem, Flowers 4 → +1 level, Snails 5 →
// +2 gems, Mushrooms 6 → +1 level and +1 gem, Crystals 7 → +3 gems"
#[test]
fn each_element_has_its_set_size_and_reward() {
    let cases = [
        (Potions, vec![card(Potions, 3)], 1, 0),
        (Flowers, vec![card(Flowers, 3), card(Flowers, 1)], 0, 1),
        (Snails, vec![card(Snails, 3), card(Snails, 2)], 2, 0),
        (
            Mushrooms,
            vec![card(Mushrooms, 3), card(Mushrooms, 3)],
            1,
            1,
        ),
        (
            Crystals,
            vec![card(Crystals, 3), card(Crystals, 3), card(Crystals, 1)],
            3,
            0,
        ),
    ];
    for (element, cards, gems, levels) in cases {
        let mut state = start(2);
        lay_out(&mut state, 0, &cards);
        // One icon short: no set.
        let mut short = state.clone();
        assert!(take(&mut short.players[0].face_up, &cards[cards.len() - 1]));
        apprentice_turn(&mut short, 0);
        assert!(!Game::legal_actions(&short, 0).contains(&Action::TurnIn(element)));

        apprentice_turn(&mut state, 0);
        decide(&mut state, 0, Action::TurnIn(element));
        for c in &cards {
            if state.phase != Phase::TurningIn {
                decide(&mut state, 0, Action::AddCard(*c));
            }
        }
        assert_eq!(state.gems_in_bag(0), gems, "{element:?}");
        assert_eq!(state.players[0].level, 2 + levels, "{element:?}");
    }
}

// Ruling (CONTENT.md): "a gem reward with no gems left does nothing"; level cap 6.
#[test]
fn rewards_stop_at_an_empty_supply_and_level_six() {
    let mut state = start(2);
    add_gems(&mut state, 0, 7);
    state.players[0].level = 6;
    lay_out(
        &mut state,
        0,
        &[
            card(Mushrooms, 3),
            card(Mushrooms, 3),
            card(Crystals, 3),
            card(Crystals, 3),
        ],
    );
    keep_tokens(&mut state, 0, &[Crystals]);
    // The Apprentice at level 6 draws six tokens.
    choose(&mut state, 0, Character::Apprentice);
    for _ in 0..3 {
        draw_token(&mut state, Token::LevelUp);
        draw_token(&mut state, Token::Element(Snails));
    }
    decide(&mut state, 0, Action::TurnIn(Mushrooms));
    decide(&mut state, 0, Action::AddCard(card(Mushrooms, 3)));
    decide(&mut state, 0, Action::AddCard(card(Mushrooms, 3)));
    assert_eq!((state.players[0].level, state.players[0].gems), (6, 0));
    assert_eq!(state.gems_in_bag(0), 8);
    decide(&mut state, 0, Action::TurnIn(Crystals));
    decide(&mut state, 0, Action::AddCard(card(Crystals, 3)));
    decide(&mut state, 0, Action::AddCard(card(Crystals, 3)));
    decide(&mut state, 0, Action::AddToken);
    assert_eq!(state.gems_in_bag(0), 8);
    assert_eq!(token_count(&state), 31 + 16);
}

// "After turning in a set, discard all of the cards and tokens that were used. ... The
// discarded tokens will not be used again."
#[test]
fn used_tokens_leave_the_game() {
    let mut state = start(2);
    keep_tokens(&mut state, 0, &[Potions, Potions, Potions]);
    let bag = state.bag.len();
    apprentice_turn(&mut state, 0);
    decide(&mut state, 0, Action::TurnIn(Potions));
    for _ in 0..3 {
        decide(&mut state, 0, Action::AddToken);
    }
    assert_eq!(state.used_tokens, vec![Potions; 3]);
    // The bag gained the Potions reward gem; the Potions tokens did not come back.
    assert_eq!(state.bag.len(), bag + 1);
    assert_eq!(
        state
            .bag
            .iter()
            .filter(|&&t| t == Token::Element(Potions))
            .count(),
        2
    );
}

// Ruling: a set being gathered can be given up; everything goes back in front of the player.
#[test]
fn cancelling_a_set_returns_its_cards_and_tokens() {
    let mut state = start(2);
    lay_out(&mut state, 0, &[card(Snails, 3), card(Snails, 1)]);
    keep_tokens(&mut state, 0, &[Snails]);
    apprentice_turn(&mut state, 0);
    let before = state.players[0].clone();
    decide(&mut state, 0, Action::TurnIn(Snails));
    decide(&mut state, 0, Action::AddCard(card(Snails, 3)));
    decide(&mut state, 0, Action::AddToken);
    decide(&mut state, 0, Action::CancelSet);
    assert_eq!(state.players[0], before);
    assert_eq!(
        Game::legal_actions(&state, 0),
        vec![Action::TurnIn(Snails), Action::EndTurn]
    );
}

// "Sets are completed with Element Tokens and Element Cards that have been played face up in
// front of you."
#[test]
fn a_set_takes_only_its_own_element() {
    let mut state = start(2);
    lay_out(&mut state, 0, &[card(Potions, 3), card(Snails, 3)]);
    apprentice_turn(&mut state, 0);
    decide(&mut state, 0, Action::TurnIn(Potions));
    let err = illegal(&state, Actor::Seat(0), Action::AddCard(card(Snails, 3)));
    assert_eq!(
        err,
        RuleError::illegal("this set is of Potions, not Snails")
    );
    let err = illegal(&state, Actor::Seat(0), Action::AddToken);
    assert!(matches!(err, RuleError::Illegal(_)));
    let err = illegal(&state, Actor::Seat(0), Action::AddCard(card(Potions, 2)));
    assert_eq!(err, RuleError::illegal("you have no such face-up card"));
}
