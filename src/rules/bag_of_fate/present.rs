//! The table in words for people (mail and web pages): see `crate::rules::present`.
//! Pure: it shows exactly what `view::typed_view` shows the viewer. Secret: each hand (its owner
//! only) and the cards the Oracle looks at (the Oracle only); everything else is public.
//!
//! The round number (the view's `round`) titles the players' section, so people keep count.
//! It is the only unbounded number printed: the conformance suite's planted card shows 237
//! icons, and a round reaches 237 in no real game (ruling 19).
//!
//! - `headline`: whose turn it is and what they are doing.
//! - `choices`: the numbered choices, grouped by kind.
//! - `words`: names and texts of cards, items, rewards and characters; the Wizard's odds.

mod choices;
mod headline;
mod words;

use super::data::{Character, Element, LEVEL_CAP, Token};
use super::state::{Phase, Player, State, tally};
use crate::rules::present::{seat_name, you};
use crate::rules::{Presented, Seat, Section, Viewer};
use headline::headline;
use words::{
    card_line, card_name, character_label, character_text, counted, item_name, plural, reward_text,
    set_icons, with_role, wizard_clause,
};

pub use choices::choices;

pub fn present(state: &State, viewer: Viewer, names: &[String]) -> Presented {
    let mut sections = vec![players_section(state, viewer, names)];
    if let Some(section) = set_in_progress(state, names) {
        sections.push(section);
    }
    if let Some(section) = trade_in_progress(state, names) {
        sections.push(section);
    }
    sections.extend(secret_sections(state, viewer, names));
    sections.push(face_up_section(state, viewer, names));
    sections.push(bag_section(state, viewer, names));
    sections.push(cards_section(state, viewer, names));
    sections.push(characters_section(state, names));
    sections.push(sets_section());
    Presented {
        headline: headline(state, viewer, names),
        sections,
    }
}

fn players_section(state: &State, viewer: Viewer, names: &[String]) -> Section {
    let order = state.turn_order();
    let in_round = order.len() == state.seats() && !matches!(state.phase, Phase::PlacingMarkers);
    let seats: Vec<Seat> = if in_round {
        order.clone()
    } else {
        (0..state.seats()).collect()
    };
    let lines = seats
        .iter()
        .enumerate()
        .filter_map(|(place, &seat)| {
            let player = state.player(seat)?;
            let in_bag = state.gems_in_bag(seat);
            let mut line = format!(
                "{}: level {}, {} in supply and {} in the Bag of Fate, {} in hand",
                you(names, viewer, seat),
                player.level,
                plural(player.gems.into(), "gem", "gems"),
                in_bag,
                plural(player.hand.len(), "card", "cards"),
            );
            if in_round {
                line = format!("{}. {line}", place + 1);
                let status = round_status(state, place, player);
                line.push_str(&format!(" — {status}"));
            }
            Some(line)
        })
        .collect();
    let title = if in_round {
        format!("Players, in the turn order of round {}", state.round)
    } else {
        "Players".to_string()
    };
    Section::new(title, lines)
}

/// Where a player stands in the round: "done as the Queen (1)", "playing now as the Hunter".
fn round_status(state: &State, place: usize, player: &Player) -> String {
    let character = player.character.map(character_label);
    if let Phase::Over { .. } = state.phase {
        return match character {
            Some(c) if place == state.turn => format!("won as the {c}"),
            Some(c) => format!("was the {c} in the last round"),
            None => "had no character in the last round".into(),
        };
    }
    match (place.cmp(&state.turn), character) {
        (std::cmp::Ordering::Less, Some(c)) => format!("done as the {c}"),
        (std::cmp::Ordering::Less, None) => "done".into(),
        (std::cmp::Ordering::Equal, Some(c)) => format!("playing now as the {c}"),
        (std::cmp::Ordering::Equal, None) => "choosing a character now".into(),
        (std::cmp::Ordering::Greater, _) => "still to play".into(),
    }
}

fn set_in_progress(state: &State, names: &[String]) -> Option<Section> {
    let Phase::BuildingSet {
        element,
        cards,
        tokens,
    } = &state.phase
    else {
        return None;
    };
    let seat = state.current_seat()?;
    let mut parts: Vec<String> = tally(cards)
        .into_iter()
        .map(|(c, n)| {
            if n == 1 {
                card_name(c)
            } else {
                format!("{} ×{n}", card_name(c))
            }
        })
        .collect();
    if *tokens > 0 {
        parts.push(plural(
            usize::from(*tokens),
            &format!("{} token", element.name()),
            &format!("{} tokens", element.name()),
        ));
    }
    let inside = if parts.is_empty() {
        "nothing yet".to_string()
    } else {
        parts.join(", ")
    };
    Some(Section::new(
        "Set being turned in",
        vec![
            format!(
                "{} is turning in a set of {}: {} of {} icons so far.",
                seat_name(names, seat),
                element.name(),
                set_icons(cards, *tokens),
                element.set_size()
            ),
            format!("In the set: {inside}."),
            format!(
                "When it is complete: {}. Its cards go to the discard pile, its tokens leave \
                 the game.",
                reward_text(*element)
            ),
        ],
    ))
}

fn trade_in_progress(state: &State, names: &[String]) -> Option<Section> {
    let Phase::Trading { partner, take, .. } = &state.phase else {
        return None;
    };
    let seat = state.current_seat()?;
    let mut lines = vec![format!(
        "{} may swap one of their face-up cards or tokens for one of another player's.",
        with_role(state, seat, names)
    )];
    match (partner, take) {
        (None, _) => lines.push("No partner chosen yet.".into()),
        (Some(p), None) => lines.push(format!(
            "Trading with {}: choosing what to take.",
            seat_name(names, *p)
        )),
        (Some(p), Some(item)) => lines.push(format!(
            "Trading with {}: taking their {}, choosing what to give in return.",
            seat_name(names, *p),
            item_name(*item)
        )),
    }
    Some(Section::new("Trade in progress", lines))
}

/// The viewer's own hand, the cards the Oracle looks at (for the Oracle), and for `Everyone`
/// every hand.
fn secret_sections(state: &State, viewer: Viewer, names: &[String]) -> Vec<Section> {
    let mut sections = Vec::new();
    match viewer {
        Viewer::Seat(seat) => {
            if let Some(player) = state.player(seat) {
                sections.push(hand_section(player));
            }
        }
        Viewer::Everyone => {
            let lines = state
                .players
                .iter()
                .enumerate()
                .map(|(seat, p)| {
                    format!(
                        "{}: {}",
                        seat_name(names, seat),
                        counted(&p.hand, card_name)
                    )
                })
                .collect();
            sections.push(Section::new("Hands", lines));
        }
        Viewer::Spectator => {}
    }
    if let Some(seat) = state.current_seat()
        && viewer.sees_secrets_of(seat)
        && !state.looked_at.is_empty()
    {
        let title = if viewer == Viewer::Seat(seat) {
            "The cards you are looking at (only you see them)".to_string()
        } else {
            format!("The cards {} is looking at", seat_name(names, seat))
        };
        let lines = state
            .looked_at
            .iter()
            .map(|&c| card_line(c, None))
            .collect();
        sections.push(Section::new(title, lines));
    }
    sections
}

fn hand_section(player: &Player) -> Section {
    let mut lines: Vec<String> = tally(&player.hand)
        .into_iter()
        .map(|(card, n)| card_line(card, Some(n)))
        .collect();
    if lines.is_empty() {
        lines.push("No cards.".into());
    } else {
        lines.push("Cards count toward sets only once they are played face up.".into());
    }
    Section::new(
        format!(
            "Your hand ({}, only you see them)",
            plural(player.hand.len(), "card", "cards")
        ),
        lines,
    )
}

fn face_up_section(state: &State, viewer: Viewer, names: &[String]) -> Section {
    let lines = (0..state.seats())
        .filter_map(|seat| {
            let player = state.player(seat)?;
            Some(format!(
                "{}: {}",
                you(names, viewer, seat),
                face_up_text(player)
            ))
        })
        .collect();
    Section::new(
        "Face up in front of each player (these count toward sets)",
        lines,
    )
}

/// "Potions: 2-icon card, 1-icon card = 3 of 3, ready. Snails: 2 tokens = 2 of 5."
fn face_up_text(player: &Player) -> String {
    let parts: Vec<String> = Element::ALL
        .into_iter()
        .filter_map(|element| {
            let mut bits: Vec<String> = tally(&player.face_up)
                .into_iter()
                .filter(|(c, _)| c.element == element)
                .map(|(c, n)| {
                    let one = format!("{}-icon card", c.icons);
                    if n == 1 { one } else { format!("{one} ×{n}") }
                })
                .collect();
            let tokens = player.tokens.iter().filter(|&&e| e == element).count();
            if tokens > 0 {
                bits.push(plural(tokens, "token", "tokens"));
            }
            if bits.is_empty() {
                return None;
            }
            let have = player.icons(element);
            let need = element.set_size();
            let ready = if have >= need { ", set ready" } else { "" };
            Some(format!(
                "{} {} = {have} of {need}{ready}",
                element.name(),
                bits.join(" + ")
            ))
        })
        .collect();
    if parts.is_empty() {
        "nothing yet".into()
    } else {
        parts.join("; ")
    }
}

fn bag_section(state: &State, viewer: Viewer, names: &[String]) -> Section {
    let count = |token: Token| state.bag.iter().filter(|&&t| t == token).count();
    let elements: Vec<String> = Element::ALL
        .into_iter()
        .map(|e| format!("{} {}", e.name(), count(Token::Element(e))))
        .collect();
    let gems: Vec<String> = (0..state.seats())
        .map(|seat| format!("{} {}", seat_name(names, seat), count(Token::Gem(seat))))
        .collect();
    let mut lines = vec![
        format!("Element tokens (1 icon each): {}.", elements.join(", ")),
        format!(
            "Add-a-Gem {}, Level-Up {}.",
            count(Token::AddAGem),
            count(Token::LevelUp)
        ),
        format!("Gems: {}.", gems.join(", ")),
    ];
    if !state.drawn.is_empty() {
        let drawn: Vec<String> = state.drawn.iter().map(|&t| token_name(t, names)).collect();
        lines.push(format!(
            "Drawn this turn, out of the bag for now: {}.",
            drawn.join(", ")
        ));
    }
    if let Viewer::Seat(seat) = viewer
        && seat < state.seats()
        && !matches!(state.phase, Phase::Over { .. })
    {
        lines.push(format!(
            "Your chance as the Wizard: {}.",
            wizard_clause(state, seat)
        ));
    }
    lines.push(format!(
        "Token effects for the Apprentice, Farmer and Hunter: Add-a-Gem puts one of your gems \
         into the bag; Level-Up raises your level by 1 (up to {LEVEL_CAP}); an element token is \
         kept in front of you; a gem does nothing. All but the kept element tokens go back."
    ));
    lines.push(
        "For the Wizard only your own gem counts: drawing it wins the game. All tokens go back."
            .into(),
    );
    Section::new(
        format!(
            "The Bag of Fate ({})",
            plural(state.bag.len(), "token", "tokens")
        ),
        lines,
    )
}

fn token_name(token: Token, names: &[String]) -> String {
    match token {
        Token::Element(element) => format!("{} token", element.name()),
        Token::AddAGem => "Add-a-Gem".into(),
        Token::LevelUp => "Level-Up".into(),
        Token::Gem(owner) => format!("a gem of {}", seat_name(names, owner)),
    }
}

fn cards_section(state: &State, viewer: Viewer, names: &[String]) -> Section {
    let mut lines = vec![format!(
        "Deck: {}, face down.",
        plural(state.deck.len(), "card", "cards")
    )];
    // Ruling 6: a deck that ran out with nothing to shuffle is rebuilt when a card is wanted.
    if state.deck.is_empty() && !state.discards.is_empty() {
        lines.push(
            "The deck has run out: the discard pile is shuffled into a new deck when a card is \
             next drawn or looked at."
                .to_string(),
        );
    }
    lines.push(format!(
        "Discard pile ({}, face up): {}.",
        plural(state.discards.len(), "card", "cards"),
        counted(&state.discards, card_name)
    ));
    if !state.used_tokens.is_empty() {
        lines.push(format!(
            "Element tokens used in sets (out of the game): {}.",
            state.used_tokens.len()
        ));
    }
    if let Some(seat) = state.current_seat()
        && !state.looked_at.is_empty()
        && !viewer.sees_secrets_of(seat)
    {
        lines.push(format!(
            "{} is looking at {} from the deck.",
            with_role(state, seat, names),
            plural(state.looked_at.len(), "card", "cards")
        ));
    }
    Section::new("Cards", lines)
}

fn characters_section(state: &State, names: &[String]) -> Section {
    let lines = Character::ALL
        .into_iter()
        .map(|c| {
            let holder = match state.character_holder(c) {
                Some(seat) => format!("Taken by {}", seat_name(names, seat)),
                None => "Available".into(),
            };
            format!("{}: {}. {holder}.", character_label(c), character_text(c))
        })
        .collect();
    Section::new(
        "Characters (the number is your place in next round's turn order)",
        lines,
    )
}

fn sets_section() -> Section {
    let mut lines = vec![
        "After your character's actions, turn in face-up cards and kept tokens of one element \
         that show enough icons:"
            .to_string(),
    ];
    lines.extend(
        Element::ALL
            .into_iter()
            .map(|e| format!("{}: {} icons, {}.", e.name(), e.set_size(), reward_text(e))),
    );
    Section::new("Element sets", lines)
}
