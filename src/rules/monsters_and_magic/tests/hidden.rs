//! Hidden information: hands, the deck, the Oracle's look.

use super::*;
use crate::rules::{Viewer, Visibility};

// "These cards are kept hidden from your opponents."
#[test]
fn others_see_only_the_size_of_a_hand() {
    let mut state = game(2);
    give(&mut state, 0, id("Paladin"));
    let own = Game::view(&state, Viewer::Seat(0));
    let other = Game::view(&state, Viewer::Seat(1));
    let spectator = Game::view(&state, Viewer::Spectator);
    assert_eq!(own["players"][0]["hand"][0]["name"], "Paladin");
    assert!(other["players"][0]["hand"].is_null());
    assert_eq!(other["players"][0]["hand_count"], 1);
    assert!(spectator["players"][0]["hand"].is_null());
    assert_eq!(own["deck_count"], state.deck.len());
    assert!(!other.to_string().contains("Paladin"));
}

// "Hand cards are drawn from the Ally deck in Allies Phase." — the drawer alone sees which.
#[test]
fn a_drawn_card_is_seen_by_its_drawer_only() {
    let mut state = game(2);
    decide(&mut state, 0, Action::EndMovement);
    let draw = Action::DrawCard(id("Paladin"));
    assert_eq!(
        Game::visibility(&state, Actor::Chance, &draw),
        Visibility::Seats(vec![0])
    );
    assert_eq!(
        Game::redact(&state, Actor::Chance, &draw),
        serde_json::json!("draw_card")
    );
    let told = Game::describe(&state, Actor::Chance, &draw, Viewer::Seat(1));
    assert!(!told.contains("Paladin"), "{told}");
    assert!(Game::describe(&state, Actor::Chance, &draw, Viewer::Seat(0)).contains("Paladin"));
}

// "PERMANENT CARDS … These are displayed face up in front of the player."
#[test]
fn permanent_cards_are_public() {
    let state = game_with(Options::default(), 2);
    let other = Game::view(&state, Viewer::Seat(1));
    assert_eq!(
        other["players"][0]["permanent"].as_array().unwrap().len(),
        5
    );
    let deal = Action::DealPermanent(3);
    assert_eq!(
        Game::visibility(&state, Actor::Chance, &deal),
        Visibility::Public
    );
}

// "Oracle OT look at one opponents hand": a private look, for the two players concerned.
#[test]
fn the_oracles_look_is_shown_to_its_user_only() {
    let mut state = game(3);
    give(&mut state, 0, id("Oracle"));
    give(&mut state, 2, id("Demons"));
    decide(&mut state, 0, Action::Oracle { seat: 2 });
    let user = Game::view(&state, Viewer::Seat(0));
    assert_eq!(user["oracle_seen"][0]["cards"][0]["name"], "Demons");
    let looked_at = Game::view(&state, Viewer::Seat(2));
    assert_eq!(looked_at["oracle_looks"][0]["by"], 0);
    assert_eq!(looked_at["oracle_seen"][0]["cards"][0]["name"], "Demons");
    let third = Game::view(&state, Viewer::Seat(1));
    assert!(third["oracle_seen"].as_array().unwrap().is_empty());
    assert!(!third.to_string().contains("Demons"));
    assert!(
        !Game::view(&state, Viewer::Spectator)
            .to_string()
            .contains("Demons")
    );
}

/// What `viewer` is shown of `seat`'s action in the log, as the service shows it.
fn entry_seen(state: &State, seat: Seat, action: &Action, viewer: Viewer) -> String {
    let actor = Actor::Seat(seat);
    if Game::visibility(state, actor, action).allows(viewer) {
        format!(
            "{} {}",
            serde_json::json!(action),
            Game::describe(state, actor, action, Viewer::Everyone)
        )
    } else {
        format!(
            "{} {}",
            Game::redact(state, actor, action),
            Game::describe(state, actor, action, Viewer::Spectator)
        )
    }
}

// "These cards are kept hidden from your opponents." and "END PHASE Max hand size is 5 cards.
// Discard excess cards." Ruling 43: at a deadline the card discarded is drawn at random from
// the hand. The old default discarded the first card of the sorted hand, which told everyone
// that no card of the hand sorts before it: these two hands gave different log entries.
#[test]
fn a_deadline_discards_a_card_drawn_at_random_and_tells_the_others_nothing_of_the_hand() {
    let mut seen = Vec::new();
    for skip in [0, 6] {
        let mut state = game(2);
        let cards = spare_cards(&state, 14, &[]);
        for &c in &cards[skip..skip + 6] {
            give(&mut state, 0, c);
        }
        decide(&mut state, 0, Action::EndMovement);
        let more = spare_cards(&state, 2, &cards[..12]);
        chance(&mut state, Action::DrawCard(more[0]));
        chance(&mut state, Action::RollDie(1));
        chance(&mut state, Action::DrawCard(more[1]));
        assert_eq!(state.players[0].hand.len(), 8);
        let default = Game::default_action(&state, 0).unwrap();
        assert_eq!(default, Action::DiscardAtRandom);
        assert!(legal(&state, 0).contains(&default));
        let entries: Vec<String> = [Viewer::Seat(1), Viewer::Spectator]
            .into_iter()
            .map(|v| entry_seen(&state, 0, &default, v))
            .collect();
        decide(&mut state, 0, default);
        // Chance draws the card: each card of the hand alike, copies counted.
        let held = state.players[0].hand.clone();
        let outcomes = outcomes(&state);
        assert_eq!(outcomes.iter().map(|(_, w)| w).sum::<u32>(), 8);
        for (action, weight) in &outcomes {
            let Action::RandomDiscard(c) = action else {
                panic!("{action:?} is not a card drawn from the hand");
            };
            assert_eq!(*weight as usize, held.iter().filter(|h| *h == c).count());
        }
        assert!(legal(&state, 0).is_empty());
        seen.push((entries, is_chance(&state)));
        // The card drawn goes to the face-up discard pile, for everyone to see (ruling 38).
        let drawn = outcomes[outcomes.len() - 1].0.clone();
        let Action::RandomDiscard(c) = drawn else {
            unreachable!()
        };
        assert_eq!(
            Game::visibility(&state, Actor::Chance, &drawn),
            Visibility::Public
        );
        let told = Game::describe(&state, Actor::Chance, &drawn, Viewer::Spectator);
        assert!(told.contains("drawn at random from their hand"), "{told}");
        chance(&mut state, drawn);
        assert_eq!(state.players[0].hand.len(), 7);
        assert_eq!(state.discard.last(), Some(&c));
        assert!(!state.discarding_at_random);
        assert_eq!(waiting_for(&state), vec![0]);
    }
    assert_eq!(seen[0], seen[1]);
}
