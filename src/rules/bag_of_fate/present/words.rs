//! Words for the game's things: cards, items, rewards, characters, the Wizard's odds.

use super::super::data::{Card, Character, CharacterAction, Element, TokenCount};
use super::super::state::{Item, Phase, Player, State, tally};
use crate::rules::Seat;
use crate::rules::present::seat_name;

pub(super) fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// "Snails card (2 icons)"; a card of any icon count (the suite's markers) reads the same way.
pub(super) fn card_name(card: Card) -> String {
    let icons = if card.icons == 1 { "icon" } else { "icons" };
    format!("{} card ({} {icons})", card.element.name(), card.icons)
}

pub(super) fn item_name(item: Item) -> String {
    match item {
        Item::Card(card) => card_name(card),
        Item::Token(element) => format!("{} token", element.name()),
    }
}

/// Icons of `element` an item shows.
pub(super) fn item_icons(item: Item, element: Element) -> u32 {
    match item {
        Item::Card(card) if card.element == element => u32::from(card.icons),
        Item::Token(e) if e == element => 1,
        _ => 0,
    }
}

pub(super) fn item_element(item: Item) -> Element {
    match item {
        Item::Card(card) => card.element,
        Item::Token(element) => element,
    }
}

/// "Snails card (2 icons) ×2, Flowers token": a multiset, each kind once with its count.
pub(super) fn counted<T: Ord + Copy>(items: &[T], name: impl Fn(T) -> String) -> String {
    let parts: Vec<String> = tally(items)
        .into_iter()
        .map(|(item, n)| {
            if n == 1 {
                name(item)
            } else {
                format!("{} ×{n}", name(item))
            }
        })
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// "+1 gem into the Bag of Fate", "+1 level", "+1 level and +1 gem into the Bag of Fate".
pub(super) fn reward_text(element: Element) -> String {
    element.reward_text()
}

/// What a character's tile says, from its actions: "draw 1 card, play 1 card".
pub(super) fn character_text(character: Character) -> String {
    character.text()
}

pub(super) fn character_label(character: Character) -> String {
    format!("{} ({})", character.name(), character.number())
}

/// "Ann (the Hunter)" or "Ann".
pub(super) fn with_role(state: &State, seat: Seat, names: &[String]) -> String {
    match state.player(seat).and_then(|p| p.character) {
        Some(c) => format!("{} (the {})", seat_name(names, seat), c.name()),
        None => seat_name(names, seat),
    }
}

/// Tokens a drawing action takes in all, and how many are drawn so far.
pub(super) fn token_draws(state: &State, player: Option<&Player>) -> Option<(u8, u8)> {
    let done = match state.phase {
        Phase::Acting { done, .. } => done,
        _ => 0,
    };
    let level = player.map_or(0, |p| p.level);
    match state.current_action()? {
        CharacterAction::DrawTokens(TokenCount::Fixed(n)) => Some((n, done)),
        CharacterAction::DrawTokens(TokenCount::Level) | CharacterAction::WizardDraw => {
            Some((level, done))
        }
        _ => None,
    }
}

/// The chance that `draws` tokens drawn from `total` include at least one of `mine`, in whole
/// percent ("about 19%", "under 1%"); bounded words, never an unbounded number.
pub(super) fn wizard_odds(mine: usize, total: usize, draws: usize) -> String {
    if mine == 0 {
        return "none".into();
    }
    if draws >= total || total <= mine {
        return "certain".into();
    }
    let mut miss = 1.0_f64;
    let others = total - mine;
    for i in 0..draws {
        let left = (total - i) as f64;
        let bad = others.saturating_sub(i) as f64;
        miss *= bad / left;
    }
    let percent = ((1.0 - miss) * 100.0).round();
    if percent < 1.0 {
        "under 1%".into()
    } else if percent >= 100.0 {
        "nearly certain".into()
    } else {
        format!("about {percent:.0}%")
    }
}

/// The Wizard's odds for `seat` now: "3 of your gems among 31 tokens, 2 draws at level 2:
/// about 19%".
pub(super) fn wizard_clause(state: &State, seat: Seat) -> String {
    let mine = state.gems_in_bag(seat);
    let total = state.bag.len() + state.drawn.len();
    let level = state.player(seat).map_or(0, |p| p.level);
    if mine == 0 {
        return "none (you have no gem in the Bag of Fate yet)".into();
    }
    format!(
        "{mine} of your gems among {total} tokens, {} at level {level}: {}",
        plural(level.into(), "draw", "draws"),
        wizard_odds(mine, total, level.into())
    )
}

pub(super) fn set_icons(cards: &[Card], tokens: u8) -> u32 {
    cards.iter().map(|c| u32::from(c.icons)).sum::<u32>() + u32::from(tokens)
}

/// Every face-up card and kept token of a player, with repeats.
pub(super) fn all_items(player: &Player) -> Vec<Item> {
    let mut items: Vec<Item> = player.face_up.iter().map(|&c| Item::Card(c)).collect();
    items.extend(player.tokens.iter().map(|&e| Item::Token(e)));
    items
}

/// A card with what it does: "Snails card (2 icons) ×2: 2 Snails toward a set of 5 (+2 gems
/// into the Bag of Fate)".
pub(super) fn card_line(card: Card, copies: Option<u32>) -> String {
    let copies = match copies {
        Some(n) if n > 1 => format!(" ×{n}"),
        _ => String::new(),
    };
    format!(
        "{}{copies}: {} toward a {} set of {} ({})",
        card_name(card),
        card.icons,
        card.element.name(),
        card.element.set_size(),
        reward_text(card.element)
    )
}
