//! Set-up, turn order, choosing characters, the clean-up.

use super::*;

// "Ages 10+ 2~5 Players"
#[test]
fn two_to_five_players() {
    for seats in 2..=5 {
        assert!(Game::new_game(&Options::default(), seats).is_ok());
    }
    for seats in [0, 1, 6] {
        assert!(Game::new_game(&Options::default(), seats).is_err());
    }
}

// "Set the Level on each Level Dial to 1." / "Each player takes their 8 Gems" /
// "Put the other Tokens (25 Element Tokens, 3 Add-a-Gem Tokens, and 3 Level-Up Tokens) in the
// Bag of Fate"
#[test]
fn players_start_at_level_1_with_8_gems_and_the_bag_holds_31_tokens() {
    let state = Game::new_game(&Options::default(), 3).unwrap();
    for p in &state.players {
        assert_eq!((p.level, p.gems), (1, 8));
    }
    assert_eq!(state.bag.len(), 31);
    assert_eq!(state.deck.len(), 60);
    assert_eq!(token_count(&state), 31 + 3 * 8);
}

// "Shuffle the Element Cards and deal a hand of three cards to each player."
#[test]
fn dealing_is_one_chance_step_per_card_weighted_by_the_deck() {
    let mut state = Game::new_game(&Options::default(), 2).unwrap();
    let first = outcomes(&state);
    // 15 kinds: 5 elements x (6 one-icon, 4 two-icon, 2 three-icon) cards.
    assert_eq!(first.len(), 15);
    assert_eq!(first.iter().map(|(_, w)| w).sum::<u32>(), 60);
    assert!(first.contains(&(Action::DrawCard(card(Snails, 1)), 6)));
    assert!(first.contains(&(Action::DrawCard(card(Snails, 3)), 2)));
    // Round-robin: seat 0, seat 1, seat 0, ...
    draw_card(&mut state, card(Snails, 3));
    draw_card(&mut state, card(Snails, 3));
    assert_eq!(state.players[0].hand, vec![card(Snails, 3)]);
    assert_eq!(state.players[1].hand, vec![card(Snails, 3)]);
    // Without replacement: both three-icon Snails cards are gone.
    assert!(
        !outcomes(&state)
            .iter()
            .any(|(a, _)| *a == Action::DrawCard(card(Snails, 3)))
    );
    for _ in 0..4 {
        draw_card(&mut state, card(Potions, 1));
    }
    assert!(state.players.iter().all(|p| p.hand.len() == 3));
    assert_eq!(state.deck.len(), 54);
}

// "Randomly choose one Turn Marker and place it on the 1 space on the Turn Order Track on the
// Game Board. Choose the next Turn Marker and place it on the 2 space, and so on"
#[test]
fn first_turn_order_comes_from_one_chance_step_per_space() {
    let hand = [card(Potions, 1), card(Flowers, 1), card(Snails, 1)];
    let mut state = Game::new_game(&Options::default(), 4).unwrap();
    for i in 0..12 {
        draw_card(&mut state, hand[i / 4]);
    }
    let markers = outcomes(&state);
    assert_eq!(
        markers,
        (0..4)
            .map(|s| (Action::PlaceTurnMarker(s), 1))
            .collect::<Vec<_>>()
    );
    chance(&mut state, Action::PlaceTurnMarker(2));
    assert_eq!(outcomes(&state).len(), 3);
    chance(&mut state, Action::PlaceTurnMarker(0));
    chance(&mut state, Action::PlaceTurnMarker(3));
    // The last marker has one place left: no draw for it.
    assert_eq!(state.turn_order(), vec![2, 0, 3, 1]);
    assert_eq!(state.players[1].turn_marker, Some(4));
    assert_eq!(waiting_for(&state), vec![2]);
}

// "The player whose Turn Marker is on the space with the LOWEST number will go first,
// followed by the player on the next lowest number, and so on"
#[test]
fn players_take_turns_in_turn_order() {
    let mut state = start_with(
        &[[card(Potions, 1), card(Flowers, 1), card(Snails, 1)]; 3],
        &[1, 2, 0],
    );
    assert_eq!(waiting_for(&state), vec![1]);
    assert!(Game::legal_actions(&state, 0).is_empty());
    assert_eq!(
        illegal(
            &state,
            Actor::Seat(0),
            Action::ChooseCharacter(Character::Queen)
        ),
        RuleError::NotYourDecision
    );
    choose(&mut state, 1, Character::Apprentice);
    draw_token(&mut state, Token::LevelUp);
    assert_eq!(waiting_for(&state), vec![2]);
}

// "Each Character may only be used by one player in each round."
#[test]
fn each_character_once_per_round() {
    let mut state = start(3);
    choose(&mut state, 0, Character::Apprentice);
    draw_token(&mut state, Token::AddAGem);
    assert!(
        !Game::legal_actions(&state, 1).contains(&Action::ChooseCharacter(Character::Apprentice))
    );
    let err = illegal(
        &state,
        Actor::Seat(1),
        Action::ChooseCharacter(Character::Apprentice),
    );
    assert_eq!(
        err,
        RuleError::illegal("the Apprentice was already chosen this round by Seat 0")
    );
}

// "The first player will have all seven Characters to choose from."
#[test]
fn first_player_may_choose_any_of_the_seven() {
    let state = start(2);
    assert_eq!(state.gems_in_bag(0), 0, "nobody has a gem in the bag yet");
    let legal = Game::legal_actions(&state, 0);
    assert_eq!(
        legal,
        Character::ALL
            .into_iter()
            .map(Action::ChooseCharacter)
            .collect::<Vec<_>>()
    );
}

// "Come to me when you're ready to WIN! That can be any time, as long as you have put at
// least one Gem into the Bag of Fate." — advice, not a restriction: with no gem of your own in
// the bag the Wizard's draw cannot win, and every token goes back.
#[test]
fn a_wizard_with_no_gem_in_the_bag_draws_but_cannot_win() {
    let mut state = start(2);
    add_gems(&mut state, 1, 1);
    let bag_before = state.bag.clone();
    choose(&mut state, 0, Character::Wizard);
    draw_token(&mut state, Token::Gem(1));
    assert!(!matches!(Game::next(&state), Next::Over(_)));
    assert_eq!(state.bag, bag_before, "all tokens return to the bag");
    assert!(
        Game::legal_actions(&state, 1)
            .iter()
            .all(|a| *a != Action::ChooseCharacter(Character::Wizard)),
        "the Wizard is taken for the round"
    );
}

// "Now, each player looks at the number shown on their Character Tile (Queen is 1, Oracle is
// 2, and so on) and places their Turn Marker on that number on the Turn Order Track. ...
// Return all Character Tiles to the Character Row"
#[test]
fn next_round_turn_order_follows_character_numbers() {
    let mut state = start(3);
    add_gems(&mut state, 1, 1);
    // Seat 0: Apprentice (4).
    choose(&mut state, 0, Character::Apprentice);
    draw_token(&mut state, Token::LevelUp);
    // Seat 1: Wizard (7).
    choose(&mut state, 1, Character::Wizard);
    draw_token(&mut state, Token::LevelUp);
    // Seat 2: Queen (1).
    choose(&mut state, 2, Character::Queen);
    draw_card(&mut state, card(Crystals, 2));
    play(&mut state, 2, 0);
    assert_eq!(state.round, 2);
    assert_eq!(state.turn_order(), vec![2, 0, 1]);
    assert_eq!(
        state
            .players
            .iter()
            .map(|p| p.turn_marker)
            .collect::<Vec<_>>(),
        vec![Some(4), Some(7), Some(1)]
    );
    assert!(state.players.iter().all(|p| p.character.is_none()));
    assert_eq!(waiting_for(&state), vec![2]);
    assert_eq!(
        Game::legal_actions(&state, 2).len(),
        7,
        "every tile is back in the Character Row"
    );
}
