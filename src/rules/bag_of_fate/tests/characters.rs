//! Each character's actions, in order, and the token effects.

use super::*;
use crate::rules::Visibility;

// "Draw a Card: Take the top Element Card from the deck and add it to your hand." /
// "Play a Card: Choose an Element Card from your hand and turn it face up in front of you."
// (Queen: draw 1 card, play 1 card.)
#[test]
fn queen_draws_one_card_then_plays_one() {
    let mut state = start(2);
    choose(&mut state, 0, Character::Queen);
    assert!(is_chance(&state));
    assert_eq!(
        Game::visibility(&state, Actor::Chance, &Action::DrawCard(card(Crystals, 2))),
        Visibility::Seats(vec![0])
    );
    draw_card(&mut state, card(Crystals, 2));
    assert_eq!(state.players[0].hand.len(), 4);
    // One choice per kind of card, named by the card, and a card at random (ruling 20).
    let mut plays: Vec<Action> = [
        card(Potions, 1),
        card(Flowers, 1),
        card(Snails, 1),
        card(Crystals, 2),
    ]
    .map(Action::Play)
    .to_vec();
    plays.push(Action::PlayAtRandom);
    assert_eq!(Game::legal_actions(&state, 0), plays);
    decide(&mut state, 0, Action::Play(card(Crystals, 2)));
    assert_eq!(state.players[0].face_up, vec![card(Crystals, 2)]);
    assert_eq!(state.players[0].hand.len(), 3);
    // No set to turn in: the turn is over.
    assert_eq!(waiting_for(&state), vec![1]);
}

// Oracle: "look at the top 3 cards, keep 1, discard the others, play 1 card" (CONTENT.md).
#[test]
fn oracle_looks_at_three_keeps_one_discards_two_and_plays_one() {
    let mut state = start(2);
    choose(&mut state, 0, Character::Oracle);
    draw_card(&mut state, card(Snails, 3));
    draw_card(&mut state, card(Crystals, 1));
    draw_card(&mut state, card(Snails, 3));
    assert_eq!(
        state.players[0].hand.len(),
        3,
        "looked-at cards are not in hand"
    );
    assert_eq!(
        Game::legal_actions(&state, 0),
        (0..3).map(Action::KeepCard).collect::<Vec<_>>()
    );
    decide(&mut state, 0, Action::KeepCard(1));
    assert!(state.looked_at.is_empty());
    assert!(state.players[0].hand.contains(&card(Crystals, 1)));
    assert_eq!(state.discards, vec![card(Snails, 3), card(Snails, 3)]);
    // Then play one card (four kinds, or one at random).
    assert_eq!(Game::legal_actions(&state, 0).len(), 5);
    play(&mut state, 0, 3);
    assert_eq!(state.players[0].face_up, vec![card(Crystals, 1)]);
    assert_eq!(waiting_for(&state), vec![1]);
    assert_eq!(card_count(&state), 60);
}

// "You may look at your own cards, but keep them secret from the other players." (l.65)
// Ruling 15 (review B3): the Oracle is asked which card to keep even when the cards looked at
// are all alike; keeping one at once would show everyone, through the two alike discards,
// which card went into the hand. Only a single card looked at is kept without asking.
#[test]
fn oracle_is_asked_to_keep_even_when_all_three_cards_are_alike() {
    let mut state = start(2);
    choose(&mut state, 0, Character::Oracle);
    for _ in 0..3 {
        draw_card(&mut state, card(Mushrooms, 1));
    }
    assert_eq!(waiting_for(&state), vec![0]);
    assert!(state.discards.is_empty());
    assert_eq!(
        Game::legal_actions(&state, 0),
        (0..3).map(Action::KeepCard).collect::<Vec<_>>()
    );
    decide(&mut state, 0, Action::KeepCard(0));
    assert!(state.players[0].hand.contains(&card(Mushrooms, 1)));
    assert_eq!(state.discards.len(), 2);
}

// Ruling 15: one card looked at (the deck ran dry) is kept without asking: how many were
// looked at is public, so nothing is given away.
#[test]
fn oracle_keeps_a_single_card_looked_at_without_asking() {
    let mut state = start(2);
    let last = state.deck.pop().unwrap();
    let rest = std::mem::take(&mut state.deck);
    state.players[1].face_up.extend(rest);
    state.players[1].face_up.sort();
    state.deck = vec![last];
    choose(&mut state, 0, Character::Oracle);
    draw_card(&mut state, last);
    assert!(state.looked_at.is_empty());
    assert!(state.players[0].hand.contains(&last));
    assert_eq!(state.players[0].hand.len(), 4);
}

// Trader: "draw 1 card, play 1 card, trade 1 face-up card or token with another player";
// "the Trader swaps one of their face-up cards or kept tokens for one of a chosen opponent's"
#[test]
fn trader_draws_plays_then_swaps_with_a_chosen_player() {
    let mut state = start(3);
    lay_out(&mut state, 2, &[card(Mushrooms, 2)]);
    keep_tokens(&mut state, 2, &[Flowers]);
    choose(&mut state, 0, Character::Trader);
    draw_card(&mut state, card(Crystals, 3));
    play(&mut state, 0, 3);
    // Seat 1 has nothing face up, so only seat 2 can be a partner.
    assert_eq!(Game::legal_actions(&state, 0), vec![Action::TradeWith(2)]);
    decide(&mut state, 0, Action::TradeWith(2));
    assert_eq!(
        Game::legal_actions(&state, 0),
        vec![
            Action::TradeTake(Item::Card(card(Mushrooms, 2))),
            Action::TradeTake(Item::Token(Flowers)),
            Action::CancelTrade
        ]
    );
    decide(
        &mut state,
        0,
        Action::TradeTake(Item::Card(card(Mushrooms, 2))),
    );
    assert_eq!(
        Game::legal_actions(&state, 0),
        vec![
            Action::TradeGive(Item::Card(card(Crystals, 3))),
            Action::CancelTrade
        ]
    );
    decide(
        &mut state,
        0,
        Action::TradeGive(Item::Card(card(Crystals, 3))),
    );
    assert_eq!(state.players[0].face_up, vec![card(Mushrooms, 2)]);
    assert_eq!(state.players[2].face_up, vec![card(Crystals, 3)]);
    assert_eq!(state.players[2].tokens, vec![Flowers]);
    assert_eq!(waiting_for(&state), vec![1]);
}

// "After choosing your Character, immediately perform the actions shown on the Character
// Tile" (l.121), and the Trader's tile shows "trade 1 face-up card or token with another
// player" (CONTENT.md): the trade is made, like the draw and the play (ruling 13). It may be
// started over before it is made, but not skipped.
#[test]
fn trader_must_trade_but_may_start_the_trade_over() {
    let mut state = start(2);
    keep_tokens(&mut state, 1, &[Potions]);
    choose(&mut state, 0, Character::Trader);
    draw_card(&mut state, card(Crystals, 3));
    play(&mut state, 0, 3);
    assert_eq!(Game::legal_actions(&state, 0), vec![Action::TradeWith(1)]);
    let err = illegal(&state, Actor::Seat(0), Action::SkipTrade);
    assert!(
        err.to_string()
            .contains("trade is one of the Trader's actions"),
        "{err}"
    );
    decide(&mut state, 0, Action::TradeWith(1));
    decide(&mut state, 0, Action::TradeTake(Item::Token(Potions)));
    decide(&mut state, 0, Action::CancelTrade);
    assert_eq!(Game::legal_actions(&state, 0), vec![Action::TradeWith(1)]);
    decide(&mut state, 0, Action::TradeWith(1));
    decide(&mut state, 0, Action::TradeTake(Item::Token(Potions)));
    decide(
        &mut state,
        0,
        Action::TradeGive(Item::Card(card(Crystals, 3))),
    );
    assert_eq!(state.players[0].tokens, vec![Potions]);
    assert_eq!(state.players[1].face_up, vec![card(Crystals, 3)]);
    assert_eq!(waiting_for(&state), vec![1]);
}

// Ruling: with nobody to trade with, the trade is skipped.
#[test]
fn trader_without_a_partner_skips_the_trade() {
    let mut state = start(2);
    choose(&mut state, 0, Character::Trader);
    draw_card(&mut state, card(Crystals, 3));
    play(&mut state, 0, 3);
    assert_eq!(waiting_for(&state), vec![1]);
}

// "Draw Tokens Equal to Your Level: ... blindly pull that many tokens out of the Bag of Fate.
// Pull the tokens out first, then resolve each effect." (Apprentice)
#[test]
fn apprentice_draws_tokens_equal_to_level_all_first_then_resolves() {
    let mut state = start(2);
    state.players[0].level = 2;
    choose(&mut state, 0, Character::Apprentice);
    draw_token(&mut state, Token::LevelUp);
    // Not resolved yet: the level is still 2, so two draws in all.
    assert_eq!(state.players[0].level, 2);
    assert_eq!(state.drawn, vec![Token::LevelUp]);
    // Without replacement: two Level-Up tokens are left in the bag.
    assert!(outcomes(&state).contains(&(Action::DrawToken(Token::LevelUp), 2)));
    draw_token(&mut state, Token::AddAGem);
    assert_eq!(state.players[0].level, 3);
    assert_eq!(state.players[0].gems, 7);
    assert_eq!(state.gems_in_bag(0), 1);
    assert!(state.drawn.is_empty());
    // "Return ALL other tokens to the Bag of Fate."
    assert_eq!(state.bag.len(), 31 + 1);
    assert_eq!(waiting_for(&state), vec![1]);
}

// Token chart, Apprentice, Farmer or Hunter: an element token — "Keep the token in front of
// you to complete sets."; a gem — "No effect."; "Keep Element Tokens. Return ALL other tokens
// to the Bag of Fate."
#[test]
fn element_tokens_are_kept_and_gems_go_back() {
    let mut state = start(2);
    add_gems(&mut state, 1, 1);
    state.players[0].level = 3;
    choose(&mut state, 0, Character::Apprentice);
    draw_token(&mut state, Token::Element(Snails));
    draw_token(&mut state, Token::Gem(1));
    draw_token(&mut state, Token::Element(Snails));
    assert_eq!(state.players[0].tokens, vec![Snails, Snails]);
    assert_eq!(state.gems_in_bag(1), 1);
    assert_eq!(state.bag.len(), 31 + 1 - 2);
    assert_eq!(state.players[0].level, 3);
    assert_eq!(token_count(&state), 31 + 16);
}

// Token chart: Add-a-Gem — "Add 1 of your Gems to the Bag of Fate." Ruling: with no gems
// left in the supply it does nothing.
#[test]
fn add_a_gem_with_an_empty_supply_does_nothing() {
    let mut state = start(2);
    add_gems(&mut state, 0, 8);
    choose(&mut state, 0, Character::Apprentice);
    draw_token(&mut state, Token::AddAGem);
    assert_eq!(state.gems_in_bag(0), 8);
    assert_eq!(state.players[0].gems, 0);
    assert_eq!(token_count(&state), 31 + 16);
}

// Token chart: Level-Up — "Turn your Level Dial up 1 Level." (CONTENT.md: level cap 6)
#[test]
fn level_up_stops_at_six() {
    let mut state = start(2);
    state.players[0].level = 6;
    choose(&mut state, 0, Character::Apprentice);
    for _ in 0..3 {
        draw_token(&mut state, Token::LevelUp);
    }
    // Six draws at level 6: the bag still holds enough.
    for _ in 0..3 {
        draw_token(&mut state, Token::Element(Potions));
    }
    assert_eq!(state.players[0].level, 6);
    assert_eq!(state.players[0].tokens.len(), 3);
}

// Farmer: "draw 2 cards and 1 token, play 1 card" (CONTENT.md).
#[test]
fn farmer_draws_two_cards_and_a_token_then_plays_one() {
    let mut state = start(2);
    choose(&mut state, 0, Character::Farmer);
    draw_card(&mut state, card(Mushrooms, 3));
    assert!(is_chance(&state));
    draw_card(&mut state, card(Mushrooms, 1));
    // Now the token.
    assert!(
        outcomes(&state)
            .iter()
            .all(|(a, _)| matches!(a, Action::DrawToken(_)))
    );
    draw_token(&mut state, Token::Element(Crystals));
    assert_eq!(state.players[0].tokens, vec![Crystals]);
    // Two Mushrooms cards of different icons are two choices (and one at random).
    assert_eq!(Game::legal_actions(&state, 0).len(), 6);
    play(&mut state, 0, 4);
    assert_eq!(state.players[0].face_up, vec![card(Mushrooms, 3)]);
    assert_eq!(state.players[0].hand.len(), 4);
    assert_eq!(waiting_for(&state), vec![1]);
}

// Hunter: "draw 1 card and 1 token, play 2 cards" (CONTENT.md).
#[test]
fn hunter_draws_a_card_and_a_token_then_plays_two() {
    let mut state = start(2);
    choose(&mut state, 0, Character::Hunter);
    draw_card(&mut state, card(Potions, 2));
    draw_token(&mut state, Token::LevelUp);
    assert_eq!(state.players[0].level, 2);
    // Hand: Potions 1, Potions 2, Flowers 1, Snails 1.
    play(&mut state, 0, 2);
    assert_eq!(waiting_for(&state), vec![0], "a second card to play");
    play(&mut state, 0, 2);
    assert_eq!(
        state.players[0].face_up,
        vec![card(Flowers, 1), card(Snails, 1)]
    );
    assert_eq!(state.players[0].hand.len(), 2);
    assert_eq!(waiting_for(&state), vec![1]);
}

// "If you are using the Wizard, and you draw your own colored Gem out of the Bag of Fate, you
// win the game!"
#[test]
fn wizard_drawing_own_gem_wins() {
    let mut state = start(3);
    add_gems(&mut state, 0, 1);
    state.players[0].level = 2;
    choose(&mut state, 0, Character::Wizard);
    assert_eq!(
        Game::describe(
            &state,
            Actor::Chance,
            &Action::DrawToken(Token::Gem(0)),
            crate::rules::Viewer::Spectator
        ),
        "Seat 0 drew their own Gem as the Wizard and wins the game!"
    );
    draw_token(&mut state, Token::Gem(0));
    match Game::next(&state) {
        Next::Over(outcome) => {
            assert_eq!(outcome.winners, vec![0]);
            assert_eq!(outcome.scores, None);
        }
        other => panic!("expected the game to be over, got {other:?}"),
    }
    assert_eq!(
        illegal(&state, Actor::Chance, Action::DrawToken(Token::LevelUp)),
        RuleError::GameOver
    );
    assert!(Game::legal_actions(&state, 1).is_empty());
}

// "All other tokens mean nothing to the Wizard and have no effect. After drawing tokens, if
// the game is not over, return ALL of the tokens back to the Bag of Fate. Your turn is over."
#[test]
fn wizard_returns_all_tokens_and_the_turn_ends() {
    let mut state = start(2);
    add_gems(&mut state, 0, 1);
    add_gems(&mut state, 1, 1);
    state.players[0].level = 3;
    // A complete set lies ready; the Wizard's turn ends without turning it in (ruling).
    lay_out(&mut state, 0, &[card(Potions, 3)]);
    let bag = state.bag.clone();
    choose(&mut state, 0, Character::Wizard);
    draw_token(&mut state, Token::AddAGem);
    draw_token(&mut state, Token::Gem(1));
    draw_token(&mut state, Token::Element(Crystals));
    assert_eq!(state.bag, bag);
    assert_eq!(state.players[0].gems, 7);
    assert!(state.players[0].tokens.is_empty());
    assert_eq!(state.players[0].face_up, vec![card(Potions, 3)]);
    assert_eq!(waiting_for(&state), vec![1]);
}

// Ruling 9. The turn is "1. Choose a Character. 2. Perform the Character's Actions. 3. Turn in
// Element Sets (optional)." (l.93-95), but the Wizard's own text ends it after the draw: "After
// drawing tokens, if the game is not over, return ALL of the tokens back to the Bag of Fate.
// Your turn is over." (l.163). The same ready set is offered for turning in after the Queen's
// actions and not after the Wizard's draw: that is where the two readings differ.
#[test]
fn a_ready_set_is_offered_after_the_queen_but_the_wizards_turn_is_over_after_the_draw() {
    let table = || {
        let mut state = start(2);
        add_gems(&mut state, 0, 1);
        add_gems(&mut state, 1, 1);
        // "Potions: 3" — a complete set lies face up before the turn.
        lay_out(&mut state, 0, &[card(Potions, 3)]);
        state
    };
    let mut queen = table();
    choose(&mut queen, 0, Character::Queen);
    draw_card(&mut queen, card(Crystals, 1));
    play(&mut queen, 0, 0);
    assert_eq!(waiting_for(&queen), vec![0]);
    assert!(
        Game::legal_actions(&queen, 0).contains(&Action::TurnIn(Potions)),
        "{:?}",
        Game::legal_actions(&queen, 0)
    );

    let mut wizard = table();
    choose(&mut wizard, 0, Character::Wizard);
    assert_eq!(wizard.players[0].level, 1);
    draw_token(&mut wizard, Token::Gem(1));
    // "Your turn is over.": no step 3; the set stays face up for a later turn (l.204).
    assert!(Game::legal_actions(&wizard, 0).is_empty());
    assert_eq!(
        illegal(&wizard, Actor::Seat(0), Action::TurnIn(Potions)),
        RuleError::NotYourDecision
    );
    assert_eq!(waiting_for(&wizard), vec![1]);
    assert_eq!(wizard.players[0].face_up, vec![card(Potions, 3)]);
}

// "Play a Card: Choose an Element Card from your hand and turn it face up in front of you."
// (l.147) and "keep them secret from the other players" (l.65). Ruling 15 (review B2): the
// player is asked even when the hand is all one kind of card (one choice): a card played
// without asking would tell everyone that the rest of the hand is copies of it.
#[test]
fn a_hand_of_one_kind_of_card_is_still_asked_to_play() {
    let other = [card(Potions, 1), card(Flowers, 1), card(Snails, 1)];
    let mut state = start_with(&[[card(Mushrooms, 1); 3], other], &[0, 1]);
    choose(&mut state, 0, Character::Queen);
    draw_card(&mut state, card(Mushrooms, 1));
    assert!(state.players[0].face_up.is_empty());
    assert_eq!(waiting_for(&state), vec![0]);
    assert_eq!(
        Game::legal_actions(&state, 0),
        vec![Action::Play(card(Mushrooms, 1)), Action::PlayAtRandom]
    );
    decide(&mut state, 0, Action::Play(card(Mushrooms, 1)));
    assert_eq!(state.players[0].face_up, vec![card(Mushrooms, 1)]);
    assert_eq!(state.players[0].hand, vec![card(Mushrooms, 1); 3]);
    assert_eq!(waiting_for(&state), vec![1]);
}

// Ruling 15: a hand of a single card is asked too, so that what the table sees of a play
// (a decision asked, then a card face up) is the same whatever the hand holds.
#[test]
fn a_single_card_in_hand_is_asked_to_play() {
    let other = [card(Potions, 1), card(Flowers, 1), card(Snails, 1)];
    let mut state = start_with(&[[card(Mushrooms, 1); 3], other], &[0, 1]);
    state.players[0].hand.clear();
    choose(&mut state, 0, Character::Queen);
    draw_card(&mut state, card(Crystals, 2));
    assert_eq!(waiting_for(&state), vec![0]);
    assert_eq!(
        Game::legal_actions(&state, 0),
        vec![Action::Play(card(Crystals, 2)), Action::PlayAtRandom]
    );
}

// Ruling: "play a card" with an empty hand and "draw a card" with no deck and no discards are
// skipped.
#[test]
fn draws_and_plays_that_cannot_happen_are_skipped() {
    let mut state = start(2);
    let rest = std::mem::take(&mut state.deck);
    state.players[1].face_up.extend(rest);
    state.players[1].face_up.sort();
    let hand = std::mem::take(&mut state.players[0].hand);
    state.players[1].face_up.extend(hand);
    state.players[1].face_up.sort();
    choose(&mut state, 0, Character::Hunter);
    // No card to draw: straight to the token.
    draw_token(&mut state, Token::Element(Potions));
    // No card to play: the turn goes on to turning in sets, where there is nothing.
    assert_eq!(waiting_for(&state), vec![1]);
    assert_eq!(card_count(&state), 60);
}

// "If the card deck runs out, shuffle the discards to create a new draw deck."
#[test]
fn discards_become_the_deck_when_it_runs_out() {
    let mut state = start(2);
    let mut rest = std::mem::take(&mut state.deck);
    assert!(take(&mut rest, &card(Crystals, 3)));
    state.deck = vec![card(Crystals, 3)];
    state.discards = rest;
    choose(&mut state, 0, Character::Farmer);
    assert_eq!(
        outcomes(&state),
        vec![(Action::DrawCard(card(Crystals, 3)), 1)]
    );
    draw_card(&mut state, card(Crystals, 3));
    assert!(state.discards.is_empty());
    assert_eq!(state.deck.len(), 53);
    assert_eq!(outcomes(&state).iter().map(|(_, w)| w).sum::<u32>(), 53);
    draw_card(&mut state, card(Snails, 2));
    assert_eq!(card_count(&state), 60);
}
