//! What each viewer sees: the state view, the log's visibility and redaction, and the one-line
//! descriptions. Secret: the objectives dealt, kept and discarded (each player sees their own;
//! others see how many) and the undealt neutral objectives. Public: everything else.

use serde_json::{Map, Value, json};

use super::actions::{Action, Focus, apply_noting, focus, legal_moves};
use super::data::{
    Colour, Food, Token, describe_needs, describe_objective, neighbours, objective, territories,
    territory_name,
};
use super::flow::{Happening, advanced_score, satisfies};
use super::state::{Clan, Phase, State};
use crate::rules::{Actor, Seat, Viewer, Visibility};

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
            json!(super::state::count(tally, Token::food(f))),
        );
    }
    let mut gnomes = Map::new();
    for c in Colour::ALL {
        gnomes.insert(
            c.name().to_lowercase(),
            json!(super::state::count(tally, Token::Gnome(c))),
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

fn label(state: &State, i: usize) -> String {
    state.clan(i).map_or_else(String::new, clan_label)
}

fn clan_label(clan: &Clan) -> String {
    match clan.colour {
        Some(c) => format!("{} (Seat {})", c.name(), clan.seat),
        None => format!("Seat {}", clan.seat),
    }
}

/// What the game waits for, in words.
fn prompt(state: &State) -> String {
    match &state.phase {
        Phase::AssigningClans => "Drawing the clans at random".to_string(),
        Phase::ChoosingFirstPlayer => "Drawing the first player at random".to_string(),
        Phase::DealingObjectives => "Dealing 3 neutral objectives to each clan".to_string(),
        Phase::ChoosingObjectives => format!(
            "Every player secretly keeps {} objectives for each of their clans, one at a time",
            state.keep
        ),
        Phase::Reinforcement { .. } => {
            let who = state.reinforcing();
            format!(
                "{} decides how many gnomes (0 to {}) to put onto its home",
                who.map(|i| label(state, i)).unwrap_or_default(),
                who.map_or(0, |i| state.reinforcements_due(i))
            )
        }
        Phase::Movement { moves, .. } => {
            let who = state.mover().map(|i| label(state, i)).unwrap_or_default();
            let focus = match focus(moves) {
                Focus::Free => String::new(),
                Focus::Either { from, to } => format!(
                    " (all moves must now start in {} or end in {})",
                    territory_name(from),
                    territory_name(to)
                ),
                Focus::Origin(from) => format!(" (spreading from {})", territory_name(from)),
                Focus::Destination(to) => format!(" (gathering onto {})", territory_name(to)),
            };
            format!("{who} moves gnomes one at a time, then ends movement{focus}")
        }
        Phase::Combat(combat) => {
            let place = territory_name(combat.territory);
            match state.declarer() {
                Some(i) => format!(
                    "Battle in {place}: {} declares targets for {} more dice",
                    label(state, i),
                    state.undeclared_dice(combat, i)
                ),
                None => format!(
                    "Battle in {place}: rolling die {} of {}",
                    combat.rolls.len() + 1,
                    combat.dice.len()
                ),
            }
        }
        Phase::Over(ending) => ending.summary.clone(),
    }
}

/// The seat that receives the next dealt objective.
fn deal_seat(state: &State) -> Option<Seat> {
    state
        .deal_recipient()
        .and_then(|i| state.clan(i))
        .map(|c| c.seat)
}

pub fn visibility(state: &State, actor: Actor, action: &Action) -> Visibility {
    match (action, actor) {
        (Action::DealObjective(_), _) => Visibility::Seats(deal_seat(state).into_iter().collect()),
        (Action::KeepObjective(_), actor) => {
            Visibility::Seats(actor_seat(actor).into_iter().collect())
        }
        _ => Visibility::Public,
    }
}

/// The hidden payloads become `"hidden"`; everything else is logged as it is.
pub fn redact(_state: &State, _actor: Actor, action: &Action) -> Value {
    match action {
        Action::DealObjective(_) => json!({ "deal_objective": "hidden" }),
        Action::KeepObjective(_) => json!({ "keep_objective": "hidden" }),
        _ => serde_json::to_value(action).unwrap_or(Value::Null),
    }
}

/// The action in words, then what the rules did on their own after it (combat results,
/// battles won, loot, the first player token, a new round, reinforcements): those steps have no
/// log entry of their own.
pub fn describe(state: &State, actor: Actor, action: &Action, viewer: Viewer) -> String {
    let mut line = describe_action(state, actor, action, viewer);
    let mut after = state.clone();
    if let Ok(notes) = apply_noting(&mut after, actor, action) {
        for note in notes {
            line.push_str(". ");
            line.push_str(&happening(state, &note));
        }
    }
    line
}

fn happening(state: &State, note: &Happening) -> String {
    let clan = |c: Colour| {
        state
            .index_of(c)
            .map_or_else(|| c.name().to_string(), |i| label(state, i))
    };
    match note {
        Happening::Casualties {
            territory,
            round,
            losses,
            saved,
        } => {
            let losses: Vec<String> = losses
                .iter()
                .map(|&(c, n)| format!("{} loses {}", c.name(), gnomes(n)))
                .collect();
            let mut text = format!(
                "Combat round {round} at {}: {}",
                territory_name(*territory),
                losses.join(", ")
            );
            for &(c, n) in saved {
                text.push_str(&format!(" ({}'s 6s saved {})", c.name(), gnomes(n)));
            }
            text
        }
        Happening::BattleOver { territory, holder } => match holder {
            Some(c) => format!(
                "The battle at {} is over: {} holds it",
                territory_name(*territory),
                c.name()
            ),
            None => format!(
                "The battle at {} is over: no gnome is left there",
                territory_name(*territory)
            ),
        },
        Happening::Looted { clan: c, tokens } => {
            let tokens: Vec<String> = tokens.iter().map(|t| format!("1 {}", t.name())).collect();
            format!("Loot: {} takes {}", clan(*c), tokens.join(", "))
        }
        Happening::FirstPlayer(c) => format!("{} takes the first player token", clan(*c)),
        Happening::RoundBegins(n) => format!("Round {n} begins"),
        Happening::Reinforced { clan: c, gnomes: n } => format!(
            "{} puts {} onto {}",
            clan(*c),
            gnomes(*n),
            c.home().map_or_else(String::new, territory_name)
        ),
    }
}

fn gnomes(n: u8) -> String {
    match n {
        0 => "none".to_string(),
        1 => "1 gnome".to_string(),
        n => format!("{n} gnomes"),
    }
}

fn describe_action(state: &State, actor: Actor, action: &Action, viewer: Viewer) -> String {
    let full = visibility(state, actor, action).allows(viewer);
    let seat = match actor {
        Actor::Seat(s) => format!("Seat {s}"),
        Actor::Chance => "Chance".to_string(),
    };
    match action {
        Action::AssignClan(colour) => {
            let to = state.clans.iter().find(|c| c.colour.is_none());
            match to {
                Some(c) => format!("Seat {} plays the {} clan", c.seat, colour.name()),
                None => format!("The {} clan is drawn", colour.name()),
            }
        }
        Action::FirstPlayer(colour) => {
            let who = state.index_of(*colour).map(|i| label(state, i));
            format!(
                "{} takes the first player token",
                who.unwrap_or_else(|| colour.name().to_string())
            )
        }
        Action::DealObjective(id) => {
            let who = state
                .deal_recipient()
                .map(|i| label(state, i))
                .unwrap_or_default();
            if full {
                format!("{who} was dealt neutral {}", describe_objective(*id))
            } else {
                format!("{who} was dealt a neutral objective")
            }
        }
        Action::KeepObjective(id) => {
            let clan = state
                .clans
                .iter()
                .find(|c| Some(c.seat) == actor_seat(actor) && c.offered.contains(id));
            let who = clan.map_or(seat, clan_label);
            if full {
                format!("{who} kept {}", describe_objective(*id))
            } else {
                format!("{who} kept an objective")
            }
        }
        Action::Move { from, to } => {
            let who = state.mover().map(|i| label(state, i)).unwrap_or(seat);
            format!(
                "{who} moved a gnome from {} to {}",
                territory_name(*from),
                territory_name(*to)
            )
        }
        Action::Reinforce(n) => {
            let who = state.reinforcing().map(|i| label(state, i)).unwrap_or(seat);
            format!("{who} put {} onto its home", gnomes(*n))
        }
        Action::EndMovement => {
            let who = state.mover().map(|i| label(state, i)).unwrap_or(seat);
            format!("{who} ended their movement")
        }
        Action::Attack { target, dice } => {
            let who = state.declarer().map(|i| label(state, i)).unwrap_or(seat);
            let s = if *dice == 1 { "die" } else { "dice" };
            format!("{who} attacks the {} clan with {dice} {s}", target.name())
        }
        Action::Roll(value) => match &state.phase {
            Phase::Combat(combat) => match combat.dice.get(combat.rolls.len()) {
                Some(die) => format!(
                    "The {} clan rolled {value} against the {} clan",
                    die.attacker.name(),
                    die.target.name()
                ),
                None => format!("A die rolled {value}"),
            },
            _ => format!("A die rolled {value}"),
        },
    }
}

fn actor_seat(actor: Actor) -> Option<Seat> {
    match actor {
        Actor::Seat(s) => Some(s),
        Actor::Chance => None,
    }
}
