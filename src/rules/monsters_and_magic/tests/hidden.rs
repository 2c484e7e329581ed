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
