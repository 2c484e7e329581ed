//! The `json!` view that the typed one replaced, kept to check they agree (test-only).

use serde_json::{Map, Value, json};

use super::super::actions::legal_moves;
use super::super::data::{
    Colour, Food, Token, describe_needs, describe_objective, neighbours, objective, territories,
    territory_name,
};
use super::super::flow::{advanced_score, satisfies};
use super::super::state::{Clan, Phase, State};
use super::prompt;
use crate::rules::Viewer;

pub fn view(state: &State, viewer: Viewer) -> Value {
    let acting = state.acting_clan().and_then(|i| state.clan(i));
    json!({
        "you": match viewer { Viewer::Seat(seat) => json!(seat), _ => Value::Null },
        "step": step_kind(state),
        "prompt": prompt(state),
        "round": state.round,
        "round_limit": state.round_limit,
        "scoring": state.scoring,
        "objectives_to_keep": state.keep,
        "first_player": state.clan(state.first).and_then(|c| c.colour),
        "acting_clan": acting.and_then(|c| c.colour),
        "acting_seat": acting.map(|c| c.seat),
        "clans": state.clans.iter().enumerate()
            .map(|(i, c)| clan_view(state, i, c, viewer))
            .collect::<Vec<_>>(),
        "territories": territories_view(state),
        "supply": tokens_view(&state.supply),
        "neutral_objectives_undealt": state.neutral_deck.len(),
        "movement": match &state.phase {
            Phase::Movement { moves, .. } => json!({
                "moves": moves,
                "possible_moves": legal_moves(state),
            }),
            _ => Value::Null,
        },
        "combat": combat_view(state),
        "outcome": match &state.phase {
            Phase::Over(ending) => json!(ending),
            _ => Value::Null,
        },
    })
}

fn clan_view(state: &State, i: usize, clan: &Clan, viewer: Viewer) -> Value {
    let card = clan.colour.map(Colour::card);
    let secret = viewer.sees_secrets_of(clan.seat);
    let cards = |ids: &[u16]| -> Value {
        if secret {
            json!(
                ids.iter()
                    .map(|&id| objective_view(state, i, id))
                    .collect::<Vec<_>>()
            )
        } else {
            Value::Null
        }
    };
    let score = advanced_score(state, i);
    json!({
        "seat": clan.seat,
        "colour": clan.colour,
        "card": card,
        "card_text": card.map(|c| c.text()),
        "home": clan.colour.and_then(Colour::home),
        "on_board": clan.on_board(),
        "reserve": clan.reserve(),
        "tokens": tokens_view(&clan.tokens),
        "hostages": clan.hostages(),
        "objectives_dealt_count": clan.offered.len(),
        "objectives_kept_count": clan.kept.len(),
        "choosing_objectives": matches!(state.phase, Phase::ChoosingObjectives)
            && clan.choosing(state.keep),
        "objectives_dealt": cards(&clan.offered),
        "objectives_kept": cards(&clan.kept),
        "objectives_discarded": cards(&clan.discarded),
        "advanced_score": if secret { json!(score.1) } else { Value::Null },
    })
}

fn objective_view(state: &State, clan: usize, id: u16) -> Value {
    match objective(id) {
        Some(card) => json!({
            "id": id,
            "clan": card.clan,
            "needs": card.needs,
            "text": describe_needs(&card.needs),
            "met_now": satisfies(state, clan, &[id]),
        }),
        None => json!({ "id": id, "text": describe_objective(id) }),
    }
}

fn tokens_view(tally: &[(Token, u8)]) -> Value {
    let mut food = Map::new();
    for f in Food::ALL {
        food.insert(
            f.name().to_string(),
            json!(super::super::state::count(tally, Token::food(f))),
        );
    }
    let mut gnomes = Map::new();
    for c in Colour::ALL {
        gnomes.insert(
            c.name().to_lowercase(),
            json!(super::super::state::count(tally, Token::Gnome(c))),
        );
    }
    json!({ "food": food, "gnome": gnomes })
}

fn territories_view(state: &State) -> Value {
    let list: Vec<Value> = territories()
        .iter()
        .enumerate()
        .map(|(t, card)| {
            let id = u8::try_from(t).unwrap_or(u8::MAX);
            let mut gnomes = Map::new();
            for c in &state.clans {
                let n = c.gnomes_at(id);
                if let (Some(colour), true) = (c.colour, n > 0) {
                    gnomes.insert(colour.name().to_lowercase(), json!(n));
                }
            }
            json!({
                "id": id,
                "name": card.name,
                "yields": card.yields,
                "home_of": card.home_of,
                "statue": card.statue,
                "text": card.text(),
                "neighbours": neighbours(id),
                "gnomes": gnomes,
            })
        })
        .collect();
    json!(list)
}

fn combat_view(state: &State) -> Value {
    let Phase::Combat(combat) = &state.phase else {
        return Value::Null;
    };
    json!({
        "territory": combat.territory,
        "territory_name": territory_name(combat.territory),
        "combat_round": combat.round,
        "clans": state.occupants(combat.territory).iter()
            .filter_map(|&i| state.clan(i).and_then(|c| c.colour))
            .collect::<Vec<_>>(),
        "declaring": state.declarer().and_then(|i| state.clan(i)).and_then(|c| c.colour),
        "dice": combat.dice,
        "rolls": combat.rolls,
    })
}

/// A stable name for the current step, for clients.
fn step_kind(state: &State) -> &'static str {
    match &state.phase {
        Phase::AssigningClans => "assigning_clans",
        Phase::ChoosingFirstPlayer => "choosing_first_player",
        Phase::DealingObjectives => "dealing_objectives",
        Phase::ChoosingObjectives => "choose_objectives",
        Phase::Reinforcement { .. } => "reinforcement",
        Phase::Movement { .. } => "movement",
        Phase::Combat(_) => {
            if state.declarer().is_some() {
                "declare_targets"
            } else {
                "rolling"
            }
        }
        Phase::Over(_) => "game_over",
    }
}

#[test]
fn the_typed_view_writes_what_the_json_view_wrote() {
    let (compared, ended) = crate::rules::conformance::same_views::<
        crate::rules::garden_gnomes::GardenGnomes,
    >(view, 600, 13);
    assert!(compared > 100, "only {compared} views compared");
    assert!(ended > 0, "no finished game compared");
}
