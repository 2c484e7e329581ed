//! The headline: whose turn it is and what they are doing, or how the game ended.

use super::super::data::CharacterAction;
use super::super::state::{Phase, Player, State};
use super::words::{item_name, plural, set_icons, token_draws};
use crate::rules::Viewer;
use crate::rules::present::seat_name;

pub(super) fn headline(state: &State, viewer: Viewer, names: &[String]) -> String {
    if let Phase::Over { winner } = state.phase {
        return if viewer == Viewer::Seat(winner) {
            format!(
                "Game over: you won, {}! You drew your own gem as the Wizard.",
                seat_name(names, winner)
            )
        } else {
            format!(
                "Game over: {} drew their own gem as the Wizard and won.",
                seat_name(names, winner)
            )
        };
    }
    match state.phase {
        Phase::Dealing => {
            return "Setting up: dealing 3 cards to each player.".into();
        }
        Phase::PlacingMarkers => {
            return format!(
                "Setting up: drawing turn markers for the turn order (space {} next).",
                state.next_marker_space()
            );
        }
        _ => {}
    }
    let Some(seat) = state.current_seat() else {
        return "Waiting for the game to go on.".into();
    };
    let player = state.player(seat);
    let mine = viewer == Viewer::Seat(seat);
    let (yours, theirs) = doing(state, player, names);
    let role = player
        .and_then(|p| p.character)
        .map(|c| format!(" (the {})", c.name()))
        .unwrap_or_default();
    if mine {
        format!("Your turn, {}{role}: {yours}.", seat_name(names, seat))
    } else {
        format!("{}{role} {theirs}.", seat_name(names, seat))
    }
}

/// What the current player is doing: (addressed to them, said of them).
fn doing(state: &State, player: Option<&Player>, names: &[String]) -> (String, String) {
    let both = |s: String| (s.clone(), format!("is {s}"));
    match &state.phase {
        Phase::ChoosingCharacter => (
            "choose a character".into(),
            "is choosing a character".into(),
        ),
        Phase::Acting { done, .. } => match state.current_action() {
            Some(CharacterAction::DrawCards(n)) => both(format!(
                "drawing {} from the deck",
                plural(n.saturating_sub(*done).into(), "card", "cards")
            )),
            Some(CharacterAction::LookAtCards(n)) => {
                both(format!("looking at the top {n} cards of the deck"))
            }
            Some(CharacterAction::KeepOneLookedAt) => (
                format!(
                    "keep one of the {} cards you looked at (the others are discarded)",
                    state.looked_at.len()
                ),
                "is keeping one of the cards they looked at".into(),
            ),
            Some(CharacterAction::PlayCards(n)) => {
                let left = n.saturating_sub(*done);
                (
                    format!(
                        "play a card from your hand, face up ({} to play)",
                        left.max(1)
                    ),
                    "is playing a card from their hand".into(),
                )
            }
            Some(CharacterAction::DrawTokens(_)) => {
                let (all, done) = token_draws(state, player).unwrap_or((0, 0));
                both(format!(
                    "drawing {} from the Bag of Fate ({done} drawn so far)",
                    plural(all.into(), "token", "tokens")
                ))
            }
            Some(CharacterAction::WizardDraw) => {
                let (all, done) = token_draws(state, player).unwrap_or((0, 0));
                both(format!(
                    "drawing {} from the Bag of Fate, seeking their own gem ({done} drawn so far)",
                    plural(all.into(), "token", "tokens")
                ))
            }
            Some(CharacterAction::Trade) | None => both("acting".into()),
        },
        Phase::Trading { partner: None, .. } => (
            "choose a player to trade with".into(),
            "is choosing a player to trade with".into(),
        ),
        Phase::Trading {
            partner: Some(p),
            take: None,
            ..
        } => (
            format!("choose what to take from {}", seat_name(names, *p)),
            format!(
                "is trading with {}: choosing what to take",
                seat_name(names, *p)
            ),
        ),
        Phase::Trading {
            partner: Some(p),
            take: Some(item),
            ..
        } => (
            format!(
                "choose what to give {} for their {}",
                seat_name(names, *p),
                item_name(*item)
            ),
            format!(
                "is trading with {}: taking their {}, choosing what to give",
                seat_name(names, *p),
                item_name(*item)
            ),
        ),
        Phase::TurningIn => (
            "turn in an element set, or end your turn".into(),
            "is turning in element sets".into(),
        ),
        Phase::BuildingSet {
            element,
            cards,
            tokens,
        } => {
            let so_far = format!(
                "a set of {} ({} of {} icons so far)",
                element.name(),
                set_icons(cards, *tokens),
                element.set_size()
            );
            (
                format!("add to {so_far}"),
                format!("is turning in {so_far}"),
            )
        }
        Phase::Dealing | Phase::PlacingMarkers | Phase::Over { .. } => both("waiting".into()),
    }
}
