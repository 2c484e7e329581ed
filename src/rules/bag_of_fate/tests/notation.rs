//! Notation (issue 36).

use super::*;
use crate::rules::notation;

// "Each ruleset defines a short, unique, stable text for each of its legal actions": a card
// by its icons and element, a player as the texts name them.
#[test]
fn cards_read_as_icons_and_element() {
    let state = start(3);
    let text = |a: Action| Game::notation(&state, 0, &a);
    assert_eq!(text(Action::Play(card(Potions, 2))), "play 2-potions");
    assert_eq!(
        text(Action::ChooseCharacter(Character::Oracle)),
        "choose oracle"
    );
    assert_eq!(text(Action::TradeWith(2)), "trade seat-2");
    assert_eq!(
        text(Action::TradeTake(Item::Token(Flowers))),
        "take flowers-token"
    );
    assert_eq!(text(Action::TurnIn(Mushrooms)), "turn-in mushrooms");
    assert_eq!(text(Action::EndTurn), "end");
}

// The Oracle "looks at" cards and keeps one: two alike are told apart by their place.
#[test]
fn the_oracle_keeps_a_card_by_what_it_is() {
    let mut state = start(2);
    state.looked_at = vec![card(Snails, 3), card(Crystals, 1), card(Snails, 3)];
    let texts: Vec<String> = (0..3)
        .map(|i| Game::notation(&state, 0, &Action::KeepCard(i)))
        .collect();
    assert_eq!(
        texts,
        vec!["keep 3-snails", "keep 1-crystals", "keep 3-snails 2"]
    );
    assert_eq!(notation::find("Keep 3 snails 2", &texts), Ok(2));
}
