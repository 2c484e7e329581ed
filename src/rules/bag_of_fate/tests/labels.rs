//! Issue 18 (review, cosmetic): the legal actions were labelled with the log's past tense
//! ("Seat 0 chose the Oracle (2)", "Seat 0 played a …"). A choice says what the player may do;
//! the log keeps saying what was done.

use super::*;
use crate::rules::Viewer;
use crate::rules::registry::{Erased, Game as _};

/// The legal actions of `seat` as the API lists them: (action, description).
fn listed(state: &State, seat: Seat) -> Vec<String> {
    let erased = Erased::<BagOfFate>::default();
    let loaded = erased.load(&serde_json::to_value(state).unwrap()).unwrap();
    loaded
        .legal_actions(seat)
        .into_iter()
        .map(|a| a.description)
        .collect()
}

// "1. CHOOSE A CHARACTER. Choose ONE of the available Character Tiles and place it in front of
// you." (l.97-99) and "Play a Card: Choose an Element Card from your hand and turn it face up
// in front of you." (l.147): the choices are worded as the rulebook's imperatives.
#[test]
fn legal_actions_say_what_the_player_may_do() {
    let mut state = start(2);
    // A set of Potions (3 icons) lies ready, so the turn-in step asks.
    lay_out(&mut state, 0, &[card(Potions, 3)]);
    let labels = listed(&state, 0);
    assert_eq!(labels.len(), 7);
    assert_eq!(labels[0], "Choose the Queen (1)");
    assert!(
        labels.contains(&"Choose the Oracle (2)".to_string()),
        "{labels:?}"
    );
    // The log still tells what was done, in the past tense.
    assert_eq!(
        Game::describe(
            &state,
            Actor::Seat(0),
            &Action::ChooseCharacter(Character::Oracle),
            Viewer::Spectator
        ),
        "Seat 0 chose the Oracle (2)"
    );
    choose(&mut state, 0, Character::Queen);
    draw_card(&mut state, card(Crystals, 2));
    let labels = listed(&state, 0);
    assert!(
        labels.contains(&"Play a Crystals card (2 icons) face up".to_string()),
        "{labels:?}"
    );
    for label in &labels {
        assert!(
            !label.contains("played") && !label.starts_with("Seat "),
            "{label}"
        );
    }
    assert_eq!(
        Game::describe(
            &state,
            Actor::Seat(0),
            &Action::Play(card(Crystals, 2)),
            Viewer::Spectator
        ),
        "Seat 0 played a Crystals card (2 icons)"
    );
    play(&mut state, 0, 0);
    assert_eq!(
        listed(&state, 0),
        vec![
            "Turn in a set of Potions (3 needed)".to_string(),
            "End your turn".to_string()
        ]
    );
}

/// Whether `text` still names a seat by number ("Seat 2", "seat 2").
fn names_a_seat_number(text: &str) -> bool {
    let lower = text.to_lowercase();
    lower.match_indices("seat ").any(|(at, _)| {
        lower
            .get(at + 5..)
            .and_then(|rest| rest.chars().next())
            .is_some_and(|c| c.is_ascii_digit())
    })
}

// Review: "the log says 'a Gem of Seat 0'". Seats are "Seat n" in descriptions, labels,
// refusals and the outcome, as in the other rulesets, so that everything a person reads gets
// their names (`name_seats`): over whole games, nothing keeps a seat number.
#[test]
fn no_seat_number_reaches_a_person() {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::rules::present::name_seats;

    let names: Vec<String> = ["Ann", "Bob", "Cat", "Dan", "Eve"]
        .iter()
        .map(|n| (*n).to_owned())
        .collect();
    let person = |text: &str| {
        let named = name_seats(text, &names);
        assert!(!names_a_seat_number(&named), "{text} → {named}");
    };
    for seats in 2..=5 {
        for seed in 0..3u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed * 31 + seats as u64);
            let mut state = Game::new_game(&Options::default(), seats).unwrap();
            for _ in 0..5_000 {
                let (actor, action) = match Game::next(&state) {
                    Next::Over(outcome) => {
                        person(&outcome.summary);
                        break;
                    }
                    Next::Chance(chance) => {
                        let point = rng.random_range(0..chance.total_weight());
                        (Actor::Chance, chance.pick(point).cloned().unwrap())
                    }
                    Next::Players(players) => {
                        let seat = players[rng.random_range(0..players.len())];
                        let legal = Game::legal_actions(&state, seat);
                        for a in &legal {
                            person(&Game::label(&state, seat, a));
                        }
                        // A refusal is read by a person too (a mailed move answered).
                        for other in [Action::TradeWith((seat + 1) % seats), Action::EndTurn] {
                            if !legal.contains(&other)
                                && let Err(RuleError::Illegal(why)) =
                                    Game::apply(&mut state.clone(), Actor::Seat(seat), &other)
                            {
                                person(&why);
                            }
                        }
                        (
                            Actor::Seat(seat),
                            legal[rng.random_range(0..legal.len())].clone(),
                        )
                    }
                };
                for viewer in [Viewer::Everyone, Viewer::Spectator, Viewer::Seat(0)] {
                    person(&Game::describe(&state, actor, &action, viewer));
                }
                Game::apply(&mut state, actor, &action).unwrap();
            }
        }
    }
}
