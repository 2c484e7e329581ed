//! The findings of the fresh review (docs/reviews/2026-11-28-bag-of-fate.md): each test quotes
//! the rulebook and fails on the code before the fix.

use serde_json::{Value, json};

use super::*;
use crate::rules::Viewer;
use crate::rules::bag_of_fate::EDITION;

/// Seat 0 (the Queen) draws the deck's last card with nothing in the discard pile, plays a
/// card and turns in a Potions set: its card is the first discard after the deck ran out.
/// Seat 1 holds every other card, so the 60 cards stay 60.
fn deck_runs_out_with_no_discards(edition: u32) -> State {
    let mut state = start(2);
    state.edition = edition;
    lay_out(
        &mut state,
        0,
        &[card(Potions, 3), card(Flowers, 3), card(Flowers, 1)],
    );
    let mut rest = std::mem::take(&mut state.deck);
    assert!(take(&mut rest, &card(Crystals, 3)));
    state.deck = vec![card(Crystals, 3)];
    for c in rest {
        put(&mut state.players[1].hand, c);
    }
    assert!(state.discards.is_empty());
    choose(&mut state, 0, Character::Queen);
    draw_card(&mut state, card(Crystals, 3));
    // The deck has run out and there is nothing to shuffle.
    assert!(state.deck.is_empty() && state.discards.is_empty());
    decide(&mut state, 0, Action::Play(card(Snails, 1)));
    decide(&mut state, 0, Action::TurnIn(Potions));
    decide(&mut state, 0, Action::AddCard(card(Potions, 3)));
    assert_eq!(card_count(&state), 60);
    state
}

/// Seat 0 turns in its Flowers set too (two more discards), and the turn passes to seat 1,
/// who takes the Hunter and is to draw a card.
fn second_set_then_the_next_draw(state: &mut State) {
    decide(state, 0, Action::TurnIn(Flowers));
    decide(state, 0, Action::AddCard(card(Flowers, 3)));
    decide(state, 0, Action::AddCard(card(Flowers, 1)));
    assert_eq!(waiting_for(state), vec![1]);
    choose(state, 1, Character::Hunter);
    assert_eq!(card_count(state), 60);
}

// R1. "After turning in a set, discard all of the cards and tokens that were used. If the card
// deck runs out, shuffle the discards to create a new draw deck." (l.196) The deck ran out
// with an empty discard pile; the cards discarded after that wait in the pile until a card is
// wanted, and then all of them are shuffled into the new deck. Before edition 2 the first
// card discarded became the whole deck at once, and the next draw could only be that card.
#[test]
fn the_discards_made_after_the_deck_ran_out_become_the_deck_together() {
    let mut state = deck_runs_out_with_no_discards(EDITION);
    // No card is wanted yet: the Potions card lies on the discard pile, face up.
    assert!(state.deck.is_empty(), "{:?}", state.deck);
    assert_eq!(state.discards, vec![card(Potions, 3)]);
    let view = Game::view(&state, Viewer::Seat(1));
    assert_eq!(view["deck_count"], json!(0));
    assert_eq!(
        view["discards"],
        json!([{"element": "potions", "icons": 3}])
    );
    let names: Vec<String> = vec!["Ann".into(), "Bob".into()];
    let cards = Game::present(&state, Viewer::Seat(1), &names)
        .sections
        .into_iter()
        .find(|s| s.title == "Cards")
        .unwrap();
    assert_eq!(
        cards.lines[..2],
        [
            "Deck: 0 cards, face down.",
            "The deck has run out: the discard pile is shuffled into a new deck when a card is \
             next drawn or looked at."
        ]
    );
    second_set_then_the_next_draw(&mut state);
    assert!(state.discards.is_empty());
    assert_eq!(
        outcomes(&state),
        vec![
            (Action::DrawCard(card(Potions, 3)), 1),
            (Action::DrawCard(card(Flowers, 1)), 1),
            (Action::DrawCard(card(Flowers, 3)), 1),
        ]
    );
    draw_card(&mut state, card(Flowers, 3));
    assert_eq!(state.deck, vec![card(Potions, 3), card(Flowers, 1)]);
}

// R1. "If the card deck runs out, shuffle the discards to create a new draw deck." (l.196) The
// moment the last card is drawn, the discards there are become the deck (as before edition 2).
#[test]
fn the_moment_the_deck_runs_out_the_discards_become_the_deck() {
    let mut state = start(2);
    state.edition = EDITION;
    let mut rest = std::mem::take(&mut state.deck);
    assert!(take(&mut rest, &card(Crystals, 3)));
    state.deck = vec![card(Crystals, 3)];
    state.discards = rest;
    // The Farmer draws 2 cards: the second comes from the new deck.
    choose(&mut state, 0, Character::Farmer);
    draw_card(&mut state, card(Crystals, 3));
    assert!(state.discards.is_empty());
    assert_eq!(state.deck.len(), 53);
    assert_eq!(outcomes(&state).iter().map(|(_, w)| w).sum::<u32>(), 53);
    draw_card(&mut state, card(Snails, 2));
    assert_eq!(card_count(&state), 60);
}

// R1, for games created before edition 2 (their logs must fold unchanged): the first discard
// after the deck ran out became the deck at once.
#[test]
fn games_created_before_edition_2_make_the_first_discards_the_deck() {
    for edition in [0, 1] {
        let mut state = deck_runs_out_with_no_discards(edition);
        assert_eq!(state.deck, vec![card(Potions, 3)]);
        assert!(state.discards.is_empty());
        second_set_then_the_next_draw(&mut state);
        assert_eq!(state.discards, vec![card(Flowers, 1), card(Flowers, 3)]);
        assert_eq!(
            outcomes(&state),
            vec![(Action::DrawCard(card(Potions, 3)), 1)]
        );
    }
}

// R1: games created now get the edition with the fix; the edition cannot be chosen.
#[test]
fn new_games_are_created_under_edition_2() {
    use crate::rules::registry::{Erased, Game as _};
    assert_eq!(EDITION, 2);
    let erased = Erased::<BagOfFate>::default();
    for options in [json!({}), Value::Null, json!({"edition": 1})] {
        assert_eq!(
            erased.normalise_options(&options).unwrap(),
            json!({"edition": 2})
        );
    }
    let state = Game::new_game(&Game::for_new_game(Options::default()), 3).unwrap();
    assert_eq!(state.edition, 2);
}

/// How often R1 matters: in seeded random games under the edition-1 rules, the games in which
/// the deck ran out with nothing in the discard pile while play went on (from then on the
/// first discard became the whole deck). `cargo test -j1 --lib
/// bag_of_fate::tests::fresh_review::measure_decks_run_out_with_no_discards -- --ignored
/// --nocapture`.
#[test]
#[ignore]
fn measure_decks_run_out_with_no_discards() {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use crate::rules::conformance::random_step;
    const GAMES: u64 = 2_000;
    for seats in 2..=5 {
        let mut hit = 0;
        for seed in 0..GAMES {
            let mut rng = ChaCha8Rng::seed_from_u64(1_000_000 + seed);
            let mut state = Game::new_game(&Options { edition: 1 }, seats).unwrap();
            let mut ran_out = false;
            for _ in 0..5_000 {
                if state.round > 0 && state.deck.is_empty() && state.discards.is_empty() {
                    ran_out = true;
                }
                let Some((actor, action)) = random_step::<Game>(&state, &mut rng) else {
                    break;
                };
                Game::apply(&mut state, actor, &action).unwrap();
            }
            if ran_out {
                hit += 1;
            }
        }
        println!("{seats} seats: {hit} of {GAMES} random games ran the deck out with no discards");
    }
}
