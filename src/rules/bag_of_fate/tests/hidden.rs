//! Hidden information: views, log visibility, redaction, descriptions, planted secrets.

use serde_json::{Value, json};

use super::*;
use crate::rules::bag_of_fate::{SECRET_MARKER, plant_action_marker, plant_secret_markers};
use crate::rules::{Viewer, Visibility};

fn hand_in_view(view: &Value, seat: Seat) -> &Value {
    &view["players"][seat]["hand"]
}

// "You may look at your own cards, but keep them secret from the other players."
#[test]
fn each_hand_is_seen_only_by_its_owner() {
    let state = start(3);
    let own = Game::view(&state, Viewer::Seat(1));
    assert_eq!(
        hand_in_view(&own, 1),
        &json!([
            {"element": "potions", "icons": 1},
            {"element": "flowers", "icons": 1},
            {"element": "snails", "icons": 1}
        ])
    );
    assert_eq!(hand_in_view(&own, 0), &Value::Null);
    assert_eq!(own["players"][0]["hand_size"], json!(3));
    let spectator = Game::view(&state, Viewer::Spectator);
    for seat in 0..3 {
        assert_eq!(hand_in_view(&spectator, seat), &Value::Null);
        assert_eq!(spectator["players"][seat]["hand_size"], json!(3));
    }
    let everyone = Game::view(&state, Viewer::Everyone);
    for seat in 0..3 {
        assert_eq!(
            hand_in_view(&everyone, seat).as_array().map(Vec::len),
            Some(3)
        );
    }
    // An unknown seat sees what a spectator sees, and is told it is seat 9.
    let stranger = Game::view(&state, Viewer::Seat(9));
    assert_eq!(stranger["players"], spectator["players"]);
}

// "Put the remaining cards face down in a draw deck": a card drawn is seen by its drawer only.
#[test]
fn card_draws_are_logged_for_the_drawer_only() {
    let mut state = Game::new_game(&Options::default(), 2).unwrap();
    let deal = Action::DrawCard(card(Snails, 2));
    assert_eq!(
        Game::visibility(&state, Actor::Chance, &deal),
        Visibility::Seats(vec![0])
    );
    assert_eq!(
        Game::redact(&state, Actor::Chance, &deal),
        json!({"draw_card": "hidden"})
    );
    assert_eq!(
        Game::describe(&state, Actor::Chance, &deal, Viewer::Seat(0)),
        "Seat 0 was dealt a Snails card (2 icons)"
    );
    assert_eq!(
        Game::describe(&state, Actor::Chance, &deal, Viewer::Seat(1)),
        "Seat 0 was dealt a card"
    );
    draw_card(&mut state, card(Snails, 2));
    assert_eq!(
        Game::visibility(&state, Actor::Chance, &deal),
        Visibility::Seats(vec![1])
    );

    let mut state = start(2);
    choose(&mut state, 0, Character::Queen);
    let draw = Action::DrawCard(card(Crystals, 3));
    assert_eq!(
        Game::describe(&state, Actor::Chance, &draw, Viewer::Spectator),
        "Seat 0 drew a card"
    );
    assert_eq!(
        Game::describe(&state, Actor::Chance, &draw, Viewer::Everyone),
        "Seat 0 drew a Crystals card (3 icons)"
    );
    assert_eq!(
        Game::redact(&state, Actor::Chance, &draw),
        json!({"draw_card": "hidden"})
    );
}

// Oracle: "look at the top 3 cards, keep 1, discard the others" — the looked-at cards are the
// Oracle's secret until discarded (ruling: discarded face up).
#[test]
fn oracle_cards_are_secret_until_discarded() {
    let mut state = start(2);
    choose(&mut state, 0, Character::Oracle);
    draw_card(&mut state, card(Crystals, 3));
    assert_eq!(
        Game::describe(
            &state,
            Actor::Chance,
            &Action::DrawCard(card(Snails, 1)),
            Viewer::Seat(1)
        ),
        "Seat 0 looked at the top card of the deck"
    );
    draw_card(&mut state, card(Snails, 1));
    draw_card(&mut state, card(Potions, 2));
    let oracle = Game::view(&state, Viewer::Seat(0));
    assert_eq!(oracle["looked_at"].as_array().map(Vec::len), Some(3));
    let other = Game::view(&state, Viewer::Seat(1));
    assert_eq!(other["looked_at"], Value::Null);
    assert_eq!(other["looked_at_count"], json!(3));

    let keep = Action::KeepCard(0);
    assert_eq!(
        Game::visibility(&state, Actor::Seat(0), &keep),
        Visibility::Seats(vec![0])
    );
    assert_eq!(
        Game::redact(&state, Actor::Seat(0), &keep),
        json!({"keep_card": "hidden"})
    );
    assert_eq!(
        Game::describe(&state, Actor::Seat(0), &keep, Viewer::Seat(0)),
        "Seat 0 kept a Crystals card (3 icons) and discarded a Snails card (1 icon) and a \
         Potions card (2 icons)"
    );
    assert_eq!(
        Game::describe(&state, Actor::Seat(0), &keep, Viewer::Seat(1)),
        "Seat 0 kept one of the cards they looked at and discarded the others"
    );
    decide(&mut state, 0, keep);
    let other = Game::view(&state, Viewer::Seat(1));
    assert_eq!(
        other["discards"],
        json!([{"element": "potions", "icons": 2}, {"element": "snails", "icons": 1}])
    );
}

// Ruling: token draws are resolved openly, so they and the bag's contents are public.
#[test]
fn token_draws_and_the_bag_are_public() {
    let mut state = start(2);
    choose(&mut state, 0, Character::Apprentice);
    let draw = Action::DrawToken(Token::AddAGem);
    assert_eq!(
        Game::visibility(&state, Actor::Chance, &draw),
        Visibility::Public
    );
    assert_eq!(
        Game::describe(&state, Actor::Chance, &draw, Viewer::Spectator),
        "Seat 0 drew an Add-a-Gem token from the Bag of Fate"
    );
    draw_token(&mut state, Token::AddAGem);
    let view = Game::view(&state, Viewer::Spectator);
    assert_eq!(
        view["bag"],
        json!({
            "total": 32,
            "element_tokens": {"potions": 5, "flowers": 5, "snails": 5, "mushrooms": 5, "crystals": 5},
            "add_a_gem": 3,
            "level_up": 3,
            "gems": [1, 0],
        })
    );
    assert_eq!(view["players"][0]["gems_in_bag"], json!(1));
    assert_eq!(view["players"][0]["gems_in_supply"], json!(7));
}

// The view tells a client whose turn it is, the step, and what is available.
#[test]
fn the_view_shows_the_table() {
    let mut state = start(3);
    choose(&mut state, 0, Character::Queen);
    draw_card(&mut state, card(Mushrooms, 2));
    let view = Game::view(&state, Viewer::Seat(2));
    assert_eq!(view["you"], json!(2));
    assert_eq!(view["current_seat"], json!(0));
    assert_eq!(view["current_character"], json!("queen"));
    assert_eq!(view["step"], json!("play_cards"));
    assert_eq!(
        view["prompt"],
        json!("Seat 0 (the Queen) plays a card from their hand")
    );
    assert_eq!(view["turn_order"], json!([0, 1, 2]));
    assert_eq!(view["characters"][0]["taken_by"], json!(0));
    assert_eq!(view["characters"][1]["available"], json!(true));
    assert_eq!(view["deck_count"], json!(60 - 9 - 1));
    assert_eq!(view["players"][0]["hand_size"], json!(4));
    assert_eq!(view["players"][2]["level"], json!(1));
    assert_eq!(view["winner"], Value::Null);
}

/// Every place a marker must not show, for secrets of `seat`.
fn assert_hidden_from_others(state: &State, seat: Seat) {
    let viewers = (0..state.seats())
        .filter(|&s| s != seat)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator]);
    for viewer in viewers {
        let view = Game::view(state, viewer).to_string();
        assert!(
            !view.contains(SECRET_MARKER),
            "seat {seat}'s secret shows to {viewer:?}: {view}"
        );
    }
}

// Support for the conformance suite: planted secrets show to their owner and nobody else.
#[test]
fn planted_secrets_show_only_to_their_owner() {
    let mut state = start(3);
    choose(&mut state, 0, Character::Oracle);
    draw_card(&mut state, card(Crystals, 3));
    draw_card(&mut state, card(Snails, 1));
    for seat in 0..3 {
        let mut planted = state.clone();
        plant_secret_markers(&mut planted, seat);
        assert_hidden_from_others(&planted, seat);
        assert!(
            Game::view(&planted, Viewer::Seat(seat))
                .to_string()
                .contains(SECRET_MARKER)
        );
        assert!(
            Game::view(&planted, Viewer::Everyone)
                .to_string()
                .contains(SECRET_MARKER)
        );
    }
    let draw = plant_action_marker(&Action::DrawCard(card(Potions, 1))).unwrap();
    assert!(
        serde_json::to_string(&draw)
            .unwrap()
            .contains(SECRET_MARKER)
    );
    let keep = plant_action_marker(&Action::KeepCard(0)).unwrap();
    for action in [draw, keep] {
        let Visibility::Seats(seats) = Game::visibility(&state, Actor::Chance, &action) else {
            panic!("{action:?} should be private");
        };
        assert_eq!(seats, vec![0]);
        assert!(
            !Game::redact(&state, Actor::Chance, &action)
                .to_string()
                .contains(SECRET_MARKER)
        );
        for viewer in [Viewer::Seat(1), Viewer::Spectator] {
            let line = Game::describe(&state, Actor::Chance, &action, viewer);
            assert!(!line.contains(SECRET_MARKER), "{line}");
        }
    }
    assert_eq!(plant_action_marker(&Action::Play(card(Snails, 1))), None);
    assert_eq!(
        plant_action_marker(&Action::DrawToken(Token::AddAGem)),
        None
    );
}

// The action JSON forms documented in docs/rules/bag-of-fate.md.
#[test]
fn action_json_forms() {
    let cases = [
        (
            Action::ChooseCharacter(Character::Wizard),
            json!({"choose_character": "wizard"}),
        ),
        (
            Action::Play(card(Crystals, 2)),
            json!({"play": {"element": "crystals", "icons": 2}}),
        ),
        (Action::PlayCard(2), json!({"play_card": 2})),
        (Action::PlayAtRandom, json!("play_at_random")),
        (
            Action::RandomPlay(card(Snails, 1)),
            json!({"random_play": {"element": "snails", "icons": 1}}),
        ),
        (Action::KeepCard(0), json!({"keep_card": 0})),
        (Action::EndTurn, json!("end_turn")),
        (
            Action::DrawCard(card(Snails, 2)),
            json!({"draw_card": {"element": "snails", "icons": 2}}),
        ),
        (
            Action::DrawToken(Token::LevelUp),
            json!({"draw_token": "level_up"}),
        ),
        (
            Action::DrawToken(Token::AddAGem),
            json!({"draw_token": "add_a_gem"}),
        ),
        (
            Action::DrawToken(Token::Element(Crystals)),
            json!({"draw_token": {"element": "crystals"}}),
        ),
        (
            Action::DrawToken(Token::Gem(3)),
            json!({"draw_token": {"gem": 3}}),
        ),
        (Action::PlaceTurnMarker(3), json!({"place_turn_marker": 3})),
        (Action::TradeWith(1), json!({"trade_with": 1})),
        (
            Action::TradeTake(Item::Card(card(Potions, 1))),
            json!({"trade_take": {"card": {"element": "potions", "icons": 1}}}),
        ),
        (
            Action::TradeGive(Item::Token(Flowers)),
            json!({"trade_give": {"token": "flowers"}}),
        ),
        (Action::SkipTrade, json!("skip_trade")),
        (Action::CancelTrade, json!("cancel_trade")),
        (Action::TurnIn(Mushrooms), json!({"turn_in": "mushrooms"})),
        (
            Action::AddCard(card(Mushrooms, 3)),
            json!({"add_card": {"element": "mushrooms", "icons": 3}}),
        ),
        (Action::AddToken, json!("add_token")),
        (Action::CancelSet, json!("cancel_set")),
    ];
    for (action, form) in cases {
        assert_eq!(serde_json::to_value(&action).unwrap(), form);
        assert_eq!(serde_json::from_value::<Action>(form).unwrap(), action);
    }
    assert!(serde_json::from_value::<Options>(json!({})).is_ok());
    assert!(serde_json::from_value::<Options>(json!({"variants": []})).is_err());
    assert!(Game::option_docs().is_empty());
}

/// What `viewer` is shown of `seat`'s action in the log, as the service shows it: the action
/// and its full description where the visibility allows, else the redacted form and its line.
fn entry_seen(state: &State, seat: Seat, action: &Action, viewer: Viewer) -> (Value, String) {
    let actor = Actor::Seat(seat);
    if Game::visibility(state, actor, action).allows(viewer) {
        (
            serde_json::to_value(action).unwrap(),
            Game::describe(state, actor, action, Viewer::Everyone),
        )
    } else {
        (
            Game::redact(state, actor, action),
            Game::describe(state, actor, action, Viewer::Spectator),
        )
    }
}

// "You may look at your own cards, but keep them secret from the other players." (l.65) and
// "Play a Card: Choose an Element Card from your hand and turn it face up" (l.147). Ruling 4
// (review B1): playing the same card shows the others the same log entry whatever else the
// hand holds; a place in the sorted hand would tell how many cards sort before it.
#[test]
fn playing_a_card_shows_the_others_the_card_and_nothing_of_the_rest_of_the_hand() {
    let hands = [
        [card(Potions, 1), card(Potions, 2), card(Potions, 3)],
        [card(Mushrooms, 1), card(Crystals, 1), card(Crystals, 3)],
    ];
    let mut seen = Vec::new();
    for hand in hands {
        let mut state = start_with(&[hand, [card(Snails, 1); 3]], &[0, 1]);
        choose(&mut state, 0, Character::Queen);
        draw_card(&mut state, card(Crystals, 2));
        let crystals_2 = Game::legal_actions(&state, 0)
            .into_iter()
            .find(|a| {
                Game::describe(&state, Actor::Seat(0), a, Viewer::Seat(0))
                    .contains("Crystals card (2 icons)")
            })
            .expect("playing Crystals 2 is a choice");
        let entries: Vec<(Value, String)> = [Viewer::Seat(1), Viewer::Spectator]
            .into_iter()
            .map(|v| entry_seen(&state, 0, &crystals_2, v))
            .collect();
        assert!(
            entries
                .iter()
                .all(|(_, line)| line.contains("Crystals card (2 icons)"))
        );
        seen.push(entries);
    }
    assert_eq!(seen[0], seen[1]);
}

// Logs written before ruling 4 changed hold `{"play_card": <index>}`: it still applies (games
// replay their logs), and is logged for the others as the card, never as the index.
#[test]
fn the_old_play_card_by_index_still_folds_and_shows_others_only_the_card() {
    use crate::rules::registry::{Erased, Game as _};
    // A game created before edition 1, which applies it (ruling 21).
    let mut state = start_in(0, 2);
    choose(&mut state, 0, Character::Queen);
    draw_card(&mut state, card(Crystals, 2));
    let snapshot = serde_json::to_value(&state).unwrap();
    let mut game = Erased::<BagOfFate>::default().load(&snapshot).unwrap();
    // The hand is sorted: Potions 1, Flowers 1, Snails 1, Crystals 2.
    let applied = game.apply_json(0, &json!({"play_card": 3})).unwrap();
    assert_eq!(applied.visibility, Visibility::Seats(vec![0]));
    assert_eq!(
        applied.redacted,
        json!({"play": {"element": "crystals", "icons": 2}})
    );
    assert_eq!(
        applied.redacted_description,
        "Seat 0 played a Crystals card (2 icons)"
    );
    assert!(!Game::legal_actions(&state, 0).contains(&Action::PlayCard(3)));
    Game::apply(&mut state, Actor::Seat(0), &Action::PlayCard(3)).unwrap();
    assert_eq!(state.players[0].face_up, vec![card(Crystals, 2)]);
    assert_eq!(serde_json::to_value(&state).unwrap(), game.to_json());
}

// "You may look at your own cards, but keep them secret from the other players." (l.65)
// Ruling 20: at a deadline the card played is drawn at random from the hand ("Play a Card:
// Choose an Element Card from your hand and turn it face up", l.147, applies to the card
// drawn). The old default played the first card of the sorted hand, which told everyone that
// no card of the hand sorts before it: these two hands gave different log entries.
#[test]
fn a_deadline_plays_a_card_drawn_at_random_and_tells_the_others_nothing_of_the_hand() {
    let hands = [
        [card(Potions, 1), card(Potions, 2), card(Potions, 3)],
        [card(Mushrooms, 1), card(Crystals, 1), card(Crystals, 3)],
    ];
    let mut seen = Vec::new();
    for hand in hands {
        let mut state = start_with(&[hand, [card(Snails, 1); 3]], &[0, 1]);
        choose(&mut state, 0, Character::Queen);
        draw_card(&mut state, card(Crystals, 2));
        let default = Game::default_action(&state, 0).unwrap();
        assert_eq!(default, Action::PlayAtRandom);
        assert!(Game::legal_actions(&state, 0).contains(&default));
        let entries: Vec<(Value, String)> = [Viewer::Seat(1), Viewer::Spectator]
            .into_iter()
            .map(|v| entry_seen(&state, 0, &default, v))
            .collect();
        decide(&mut state, 0, default);
        // Chance draws the card: each card of the hand alike, copies counted.
        let held = state.players[0].hand.clone();
        let outcomes = outcomes(&state);
        assert_eq!(outcomes.iter().map(|(_, w)| w).sum::<u32>(), 4);
        for (action, weight) in &outcomes {
            let Action::RandomPlay(c) = action else {
                panic!("{action:?} is not a card drawn from the hand");
            };
            assert_eq!(*weight as usize, held.iter().filter(|h| *h == c).count());
        }
        assert_eq!(Game::legal_actions(&state, 0), vec![]);
        seen.push((entries, waiting_for_chance(&state)));
        // The card drawn is played face up, as a chosen card is, for everyone to see.
        let drawn = Action::RandomPlay(card(Crystals, 2));
        assert_eq!(
            Game::visibility(&state, Actor::Chance, &drawn),
            Visibility::Public
        );
        assert_eq!(
            Game::describe(&state, Actor::Chance, &drawn, Viewer::Spectator),
            "Seat 0 played a Crystals card (2 icons), drawn at random from their hand"
        );
        chance(&mut state, drawn);
        assert_eq!(state.players[0].face_up, vec![card(Crystals, 2)]);
        assert_eq!(state.players[0].hand.len(), 3);
        assert!(!state.playing_at_random);
    }
    assert_eq!(seen[0], seen[1]);
}

fn waiting_for_chance(state: &State) -> bool {
    matches!(Game::next(state), Next::Chance(_))
}

// DESIGN.md, the contract: "an action not listed is rejected". Ruling 21: a game created now
// (edition 1, set by `for_new_game` when the service normalises the options) refuses the old
// `{"play_card": n}`, which no list offers and which told the card's place in the sorted hand;
// games created before (stored options without an edition) still accept it, so that their
// logs fold (the test above).
#[test]
fn a_new_game_refuses_the_unlisted_play_card_by_index() {
    use crate::rules::registry::{Erased, Game as _};
    let erased = Erased::<BagOfFate>::default();
    // Edition 2 (tests/fresh_review.rs) keeps this refusal.
    assert_eq!(
        erased.normalise_options(&json!({})).unwrap(),
        json!({"edition": super::super::EDITION})
    );
    assert_eq!(
        erased.normalise_options(&Value::Null).unwrap(),
        json!({"edition": super::super::EDITION})
    );
    let old: Options = serde_json::from_value(json!({})).unwrap();
    assert_eq!(old.edition, 0);
    let options = Game::for_new_game(Options::default());
    let mut state = Game::new_game(&options, 2).unwrap();
    for c in [card(Potions, 1), card(Flowers, 1), card(Snails, 1)] {
        draw_card(&mut state, c);
        draw_card(&mut state, c);
    }
    chance(&mut state, Action::PlaceTurnMarker(0));
    choose(&mut state, 0, Character::Queen);
    draw_card(&mut state, card(Crystals, 2));
    assert!(!Game::legal_actions(&state, 0).contains(&Action::PlayCard(0)));
    let before = state.clone();
    let err = Game::apply(&mut state, Actor::Seat(0), &Action::PlayCard(0)).unwrap_err();
    assert!(err.to_string().contains("not by its place"), "{err}");
    assert_eq!(state, before);
    // The listed form still plays.
    decide(&mut state, 0, Action::Play(card(Crystals, 2)));
    assert_eq!(state.players[0].face_up, vec![card(Crystals, 2)]);
}
