//! The standing order `characters` (docs/rules/bag-of-fate.md, "Standing orders").

use super::*;
use crate::rules::Registry;

fn answer(state: &State, seat: Seat, order: &str) -> Option<Action> {
    Game::standing_answer(state, seat, order)
}

/// Seat 0 takes the Queen and plays its turn through (draw a card, play it): seat 1 chooses.
fn after_a_queen(seats: usize) -> State {
    let mut state = start(seats);
    choose(&mut state, 0, Character::Queen);
    draw_card(&mut state, card(Crystals, 2));
    decide(&mut state, 0, Action::Play(card(Crystals, 2)));
    assert_eq!(waiting_for(&state), vec![1]);
    state
}

// "Choose ONE of the available Character Tiles and place it in front of you." / "Each
// Character may only be used by one player in each round. The first player will have all seven
// Characters to choose from. Each Character taken becomes unavailable until the next round."
#[test]
fn the_order_takes_the_first_character_of_the_list_still_available() {
    let state = start(3);
    // The first player has all seven to choose from: the list's first.
    assert_eq!(
        answer(&state, 0, "characters queen oracle"),
        Some(Action::ChooseCharacter(Character::Queen))
    );
    // Not seat 1's turn to choose: no answer.
    assert_eq!(answer(&state, 1, "characters queen oracle"), None);
    let state = after_a_queen(3);
    // The Queen is taken this round: the next of the list.
    assert_eq!(
        answer(&state, 1, "characters queen oracle"),
        Some(Action::ChooseCharacter(Character::Oracle))
    );
    // Every answer is one of the seat's legal actions.
    let legal = Game::legal_actions(&state, 1);
    assert!(legal.contains(&Action::ChooseCharacter(Character::Oracle)));
    // The order answers no other decision: seat 1's card play after it is the player's.
    let mut state = state;
    choose(&mut state, 1, Character::Oracle);
    assert_eq!(answer(&state, 1, "characters queen oracle"), None);
}

#[test]
fn a_list_with_no_character_available_leaves_the_choice_to_the_player() {
    let state = after_a_queen(3);
    assert_eq!(answer(&state, 1, "characters queen"), None);
    // An order that is not this ruleset's, or not in the form kept, answers nothing.
    assert_eq!(answer(&state, 1, "pass-unless-targeted"), None);
    assert_eq!(answer(&state, 1, "characters"), None);
}

#[test]
fn the_wizard_is_taken_only_while_a_gem_of_the_seat_is_in_the_bag() {
    let mut state = start(2);
    assert_eq!(
        answer(&state, 0, "characters wizard oracle"),
        Some(Action::ChooseCharacter(Character::Oracle))
    );
    // A gem of another seat's does not count.
    add_gems(&mut state, 1, 1);
    assert_eq!(
        answer(&state, 0, "characters wizard oracle"),
        Some(Action::ChooseCharacter(Character::Oracle))
    );
    add_gems(&mut state, 0, 1);
    assert_eq!(
        answer(&state, 0, "characters wizard oracle"),
        Some(Action::ChooseCharacter(Character::Wizard))
    );
}

/// The order decides on the public table only: every state the seat could believe it is in
/// (the others' hands and the deck dealt anew: `Ruleset::imagine`) gets the same answer, and so
/// does a state whose hidden cards are changed by hand.
#[test]
fn the_order_never_decides_on_hidden_information() {
    let order = "characters wizard apprentice hunter farmer oracle trader queen";
    for state in [start(3), after_a_queen(3)] {
        let seat = state.current_seat().unwrap();
        let answer_now = answer(&state, seat, order);
        assert!(answer_now.is_some());
        for n in 0..20_usize {
            let mut k = n;
            let mut pick = |len: usize| {
                k = k.wrapping_mul(31).wrapping_add(7);
                k % len.max(1)
            };
            let believed = Game::imagine(&state, seat, &mut pick);
            assert_eq!(answer(&believed, seat, order), answer_now);
        }
        let mut other = state.clone();
        other.deck.reverse();
        for p in &mut other.players {
            p.hand = vec![card(Snails, 3); p.hand.len()];
        }
        assert_eq!(answer(&other, seat, order), answer_now);
    }
}

#[test]
fn the_order_is_kept_lower_case_with_names_checked() {
    assert_eq!(
        Game::check_order("Characters Oracle, QUEEN oracle"),
        Ok("characters oracle queen".to_owned())
    );
    let unknown = Game::check_order("characters oracle thief").unwrap_err();
    assert!(
        unknown.contains("\"thief\"")
            && unknown.contains("queen, oracle, trader, apprentice, farmer, hunter, wizard"),
        "{unknown}"
    );
    let close = Game::check_order("characters wizzard").unwrap_err();
    assert!(close.contains("did you mean wizard"), "{close}");
    assert!(Game::check_order("characters").is_err());
    // Through the registry, as the service checks it: the id in any case, an argument exactly
    // where the order takes one.
    let registry = Registry::standard();
    let rules = registry.get("bag-of-fate").unwrap();
    assert_eq!(
        rules.check_order("CHARACTERS hunter  farmer"),
        Ok("characters hunter farmer".to_owned())
    );
    assert_eq!(
        rules.check_order("play-lone-choices"),
        Ok("play-lone-choices".to_owned())
    );
    assert!(rules.check_order("play-lone-choices oracle").is_err());
    let bare = rules.check_order("characters").unwrap_err();
    assert!(bare.contains("needs"), "{bare}");
    let none = rules.check_order("pass-always").unwrap_err();
    assert!(
        none.contains("characters") && none.contains("play-lone-choices"),
        "{none}"
    );
    let doc = rules
        .standing_orders()
        .into_iter()
        .find(|o| o.id == "characters")
        .unwrap();
    assert!(doc.argument.is_some());
    let example = doc.example.unwrap();
    assert_eq!(rules.check_order(example), Ok(example.to_owned()));
}

/// Through the erased game state, as the service plays it: the order's answer as the
/// action's JSON, with the order that gave it.
#[test]
fn the_service_side_plays_the_orders_answer() {
    let registry = Registry::standard();
    let rules = registry.get("bag-of-fate").unwrap();
    let state = after_a_queen(3);
    let loaded = rules.load(&serde_json::to_value(&state).unwrap()).unwrap();
    let orders = vec![
        "play-lone-choices".to_owned(),
        "characters queen farmer".to_owned(),
    ];
    let (order, action) = loaded.standing_answer(1, &orders).unwrap();
    assert_eq!(order, "characters queen farmer");
    assert_eq!(
        action,
        serde_json::to_value(Action::ChooseCharacter(Character::Farmer)).unwrap()
    );
    assert_eq!(loaded.standing_answer(2, &orders), None);
}
