//! Bag of Fate's standing order (docs/rules/bag-of-fate.md, "Standing orders"): `characters`
//! and a private list of characters, best first. When the seat must choose a character, the
//! order takes the first of the list that is still available (the Wizard only while a gem of
//! the seat's is in the Bag of Fate); when none of the list is, it leaves the choice to the
//! player. It reads only the public table: which characters are taken this round, whose turn
//! it is, and the seat's gems in the bag (public: every token draw is resolved openly).

use super::actions::Action;
use super::data::Character;
use super::flow::may_choose;
use super::state::{Phase, State};
use crate::rules::{OrderDoc, Seat};

/// "Choose my character for me from this list, best first."
pub const CHARACTERS: &str = "characters";

pub fn standing_orders() -> Vec<OrderDoc> {
    vec![OrderDoc {
        id: CHARACTERS,
        description: "Choose my character for me: when I must choose, take the first character \
                      of my list that is still available (the Wizard only while a gem of mine \
                      is in the Bag of Fate); if none of my list is, ask me.",
        argument: Some(
            "the characters you would choose, best first, by name: queen, oracle, trader, \
             apprentice, farmer, hunter, wizard",
        ),
        example: Some("characters wizard apprentice hunter farmer oracle trader queen"),
    }]
}

/// The order as a player wrote it (`characters Oracle, queen`) in the form kept
/// (`characters oracle queen`): names in any case, spaces or commas between, a name given
/// twice kept once (its first place). An unknown name is refused, naming the characters.
pub fn check_order(order: &str) -> Result<String, String> {
    let mut words = order
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty());
    match words.next() {
        Some(id) if id.eq_ignore_ascii_case(CHARACTERS) => {}
        other => {
            return Err(format!(
                "{:?} is not a standing order of Bag of Fate; there is: {CHARACTERS}",
                other.unwrap_or_default()
            ));
        }
    }
    let mut list: Vec<Character> = Vec::new();
    for word in words {
        let character = character(word).ok_or_else(|| {
            let closest: Vec<String> = Character::ALL
                .iter()
                .filter(|c| {
                    let name = c.name().to_lowercase();
                    let word = word.to_lowercase();
                    name.starts_with(word.get(..2).unwrap_or(&word)) || word.contains(&name)
                })
                .map(|c| c.name().to_lowercase())
                .collect();
            let hint = if closest.is_empty() {
                String::new()
            } else {
                format!(" (did you mean {}?)", closest.join(" or "))
            };
            format!(
                "{word:?} is not a character of Bag of Fate{hint}; the characters are: {}",
                names()
            )
        })?;
        if !list.contains(&character) {
            list.push(character);
        }
    }
    if list.is_empty() {
        return Err(format!(
            "{CHARACTERS} needs the characters you would choose after it, best first: {}",
            names()
        ));
    }
    let kept: Vec<String> = list.iter().map(|c| c.name().to_lowercase()).collect();
    Ok(format!("{CHARACTERS} {}", kept.join(" ")))
}

/// The character that `seat`'s order `order` chooses now, if `seat` must choose one and one of
/// its list is available; `None` leaves the decision to the player.
pub fn standing_answer(state: &State, seat: Seat, order: &str) -> Option<Action> {
    let mut words = order.split_whitespace();
    if words.next() != Some(CHARACTERS)
        || !matches!(state.phase, Phase::ChoosingCharacter)
        || state.current_seat() != Some(seat)
    {
        return None;
    }
    words
        .filter_map(character)
        .find(|&c| {
            may_choose(state, seat, c) && (c != Character::Wizard || state.gems_in_bag(seat) > 0)
        })
        .map(Action::ChooseCharacter)
}

/// The character named `word` (any case).
fn character(word: &str) -> Option<Character> {
    Character::ALL
        .into_iter()
        .find(|c| c.name().eq_ignore_ascii_case(word))
}

/// The characters' names, in the Character Row's order.
fn names() -> String {
    let names: Vec<String> = Character::ALL
        .iter()
        .map(|c| c.name().to_lowercase())
        .collect();
    names.join(", ")
}
