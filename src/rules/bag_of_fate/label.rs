//! Each legal action as one of the player's choices: what they may do now, in the imperative
//! ("Choose the Oracle (2)", "Play a Snails card (2 icons) face up"). The log says what was
//! done (`view::describe`, in the past tense); the API's legal actions and any choice the
//! presenter does not group use these words. Seats are written `Seat n`, as in descriptions,
//! so that people's pages and mail show names (`crate::rules::present::name_seats`).

use super::actions::Action;
use super::state::{Phase, State};
use super::view::{card_text, completion, describe, item_name, item_text};
use crate::rules::{Actor, Seat, Viewer};

pub fn label(state: &State, seat: Seat, action: &Action) -> String {
    let partner = match state.phase {
        Phase::Trading {
            partner: Some(p), ..
        } => Some(p),
        _ => None,
    };
    match action {
        Action::ChooseCharacter(c) => format!("Choose the {} ({})", c.name(), c.number()),
        Action::Play(card) => format!("Play {} face up", card_text(*card)),
        Action::PlayAtRandom => "Play a card at random from your hand, face up".to_string(),
        Action::KeepCard(index) => match state.looked_at.get(*index) {
            Some(card) => {
                let mut others = state.looked_at.clone();
                others.remove(*index);
                let others: Vec<String> = others.into_iter().map(card_text).collect();
                if others.is_empty() {
                    format!("Keep {}", card_text(*card))
                } else {
                    format!(
                        "Keep {} and discard {}",
                        card_text(*card),
                        others.join(" and ")
                    )
                }
            }
            None => "Keep one of the cards you looked at".to_string(),
        },
        Action::TradeWith(p) => format!("Trade with Seat {p}"),
        Action::TradeTake(item) => match partner {
            Some(p) => format!("Take Seat {p}'s {}", item_name(*item)),
            None => format!("Take {}", item_text(*item)),
        },
        Action::TradeGive(give) => match &state.phase {
            Phase::Trading {
                partner: Some(p),
                take: Some(take),
                ..
            } => format!(
                "Give Seat {p} {} for their {}",
                item_text(*give),
                item_name(*take)
            ),
            _ => format!("Give {}", item_text(*give)),
        },
        // Never listed nor logged (the trade is made, ruling 13); the variant stays so that a
        // client sending `skip_trade` is told why it is refused.
        Action::SkipTrade => "Do not trade".to_string(),
        Action::CancelTrade => "Start the trade over".to_string(),
        Action::TurnIn(element) => format!(
            "Turn in a set of {} ({} needed)",
            element.name(),
            element.set_size()
        ),
        Action::AddCard(card) => format!(
            "Put {} into the set{}",
            card_text(*card),
            completion(state, u32::from(card.icons))
        ),
        Action::AddToken => {
            let element = match state.phase {
                Phase::BuildingSet { element, .. } => element.name(),
                _ => "an element",
            };
            format!("Put a {element} token into the set{}", completion(state, 1))
        }
        Action::CancelSet => "Stop turning in the set".to_string(),
        Action::EndTurn => "End your turn".to_string(),
        // Never a seat's choice (chance, or the old form of a play kept for old logs).
        Action::PlaceTurnMarker(_)
        | Action::DrawCard(_)
        | Action::DrawToken(_)
        | Action::RandomPlay(_)
        | Action::PlayCard(_) => describe(state, Actor::Seat(seat), action, Viewer::Seat(seat)),
    }
}
