//! The table in words for people (mail and web pages): see `crate::rules::present`.
//! Pure: it shows exactly what `view::typed_view` shows the viewer (each seat sees the objectives of
//! its own clans and its own advanced score; nobody sees the undealt neutral cards).
//!
//! Sections (`sections`): the players (one line per clan), the viewer's objectives with
//! progress (`objectives`), the park (`board`), the round (turn order, the moves so far or the
//! battle), the clan cards, and the supply. Choices (`groups`) are grouped by clan
//! (objectives), by the territory a gnome leaves (moves) and by the clan attacked (combat).
//! This file holds the headline and the words the others share.

mod board;
mod groups;
mod objectives;
mod sections;

use super::actions::{Focus, focus};
use super::data::{
    Colour, Food, Territory, Token, describe_needs, describe_objective, objective, territory_name,
};
use super::state::{Clan, Phase, State};
use crate::rules::present::{seat_name, with_names};
use crate::rules::{Presented, Section, Viewer};
use objectives::objectives;
use sections::{battle, clan_cards, key, players, round, supply};

pub fn present(state: &State, viewer: Viewer, names: &[String]) -> Presented {
    let mut sections = vec![players(state, viewer, names)];
    for (i, clan) in state.clans.iter().enumerate() {
        if viewer.sees_secrets_of(clan.seat) && !clan_secrets(clan).is_empty() {
            sections.push(objectives(state, i, viewer, names));
        }
    }
    if state.clans.iter().any(|c| c.colour.is_some()) {
        let battle = match &state.phase {
            Phase::Combat(combat) => Some(combat.territory),
            _ => None,
        };
        let mut lines = board::diagram(state, battle);
        lines.extend(key(state, names));
        sections.push(Section::diagram("The park", lines));
    }
    sections.push(round(state, names));
    if let Phase::Combat(combat) = &state.phase {
        sections.push(battle(state, combat, names));
    }
    sections.push(clan_cards(state, names));
    sections.push(supply(state));
    with_names(
        Presented {
            headline: headline(state, viewer, names),
            sections,
        },
        names,
    )
}

pub use groups::choices;

// ---- Words shared by the sections and the choices ----

/// A clan's letter on the park diagram: Red R, Green G, Yellow Y, Black K, White W, Blue B.
pub(super) fn letter(colour: Colour) -> char {
    match colour {
        Colour::Red => 'R',
        Colour::Green => 'G',
        Colour::Yellow => 'Y',
        Colour::Black => 'K',
        Colour::White => 'W',
        Colour::Blue => 'B',
    }
}

/// A territory's name without its loot in brackets: "North Oak", "Frog Statue".
pub(super) fn short_name(t: Territory) -> String {
    let name = territory_name(t);
    match name.find(" (") {
        Some(at) if name.ends_with(')') && at > 0 => name.get(..at).unwrap_or(&name).to_string(),
        _ => name,
    }
}

/// Who is on `t`, in words: "3 Red, 1 Green" or "empty".
pub(super) fn occupants_text(state: &State, t: Territory) -> String {
    let parts: Vec<String> = state
        .occupants(t)
        .into_iter()
        .filter_map(|i| state.clan(i))
        .filter_map(|c| {
            c.colour
                .map(|col| format!("{} {}", c.gnomes_at(t), col.name()))
        })
        .collect();
    if parts.is_empty() {
        "empty".into()
    } else {
        parts.join(", ")
    }
}

fn colour_name(clan: &Clan) -> &'static str {
    clan.colour.map_or("undrawn", Colour::name)
}

/// "Red (Ann)"; a clan without a colour yet is its player's.
fn who(state: &State, i: usize, names: &[String]) -> String {
    match state.clan(i) {
        Some(c) => match c.colour {
            Some(colour) => format!("{} ({})", colour.name(), seat_name(names, c.seat)),
            None => format!("{}'s clan", seat_name(names, c.seat)),
        },
        None => String::new(),
    }
}

fn plural(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

fn food_text(clan: &Clan) -> String {
    Food::ALL
        .into_iter()
        .map(|f| plural(clan.count(Token::food(f)), f.name(), f.plural()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A clan's gnome tokens: "5 Red, captured 1 Blue and 1 Black".
fn gnome_tokens_text(clan: &Clan) -> String {
    let own = clan.colour.map_or(0, |c| clan.count(Token::Gnome(c)));
    let captured: Vec<String> = clan
        .tokens
        .iter()
        .filter_map(|(t, n)| match t {
            Token::Gnome(c) if Some(*c) != clan.colour => Some(format!("{n} {}", c.name())),
            _ => None,
        })
        .collect();
    let mut text = format!("{own} {}", colour_name(clan));
    if !captured.is_empty() {
        text.push_str(&format!(", captured {}", and_list(&captured)));
    }
    text
}

/// Gnome tokens in the supply: "5 Black, 5 White" or "none".
fn supply_gnomes_text(tally: &[(Token, u8)]) -> String {
    let parts: Vec<String> = tally
        .iter()
        .filter_map(|(t, n)| match t {
            Token::Gnome(c) => Some(format!("{n} {}", c.name())),
            _ => None,
        })
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// The objectives of a clan its player sees (dealt, kept, set aside).
fn clan_secrets(clan: &Clan) -> Vec<u16> {
    let mut ids = clan.offered.clone();
    ids.extend(&clan.kept);
    ids.extend(&clan.discarded);
    ids
}

/// "objective 7 (Green's own): 2 acorns, 2 berries"; an unknown card is its number.
fn objective_line(clan: Option<&Clan>, id: u16) -> String {
    match objective(id) {
        Some(card) => {
            let whose = match card.clan {
                Some(c) if clan.and_then(|k| k.colour) == Some(c) => "your clan's own".to_string(),
                Some(c) => format!("{}'s own", c.name()),
                None => "neutral".to_string(),
            };
            format!("objective {id} ({whose}): {}", describe_needs(&card.needs))
        }
        None => describe_objective(id),
    }
}

// ---- The headline ----

fn headline(state: &State, viewer: Viewer, names: &[String]) -> String {
    let round = state.round;
    match &state.phase {
        Phase::AssigningClans => "Setting up: each player's clan is drawn at random.".into(),
        Phase::ChoosingFirstPlayer => "Setting up: the first player is drawn at random.".into(),
        Phase::DealingObjectives => {
            "Setting up: each clan is dealt 3 neutral objectives to go with its own 5.".into()
        }
        Phase::ChoosingObjectives => {
            let seats = state.choosing_seats();
            let others: Vec<String> = seats
                .iter()
                .filter(|&&s| Viewer::Seat(s) != viewer)
                .map(|&s| seat_name(names, s))
                .collect();
            match viewer {
                Viewer::Seat(s) if seats.contains(&s) => {
                    let todo: Vec<String> = state
                        .clans
                        .iter()
                        .filter(|c| c.seat == s && c.choosing(state.keep))
                        .map(|c| {
                            let left = usize::from(state.keep).saturating_sub(c.kept.len());
                            format!("{left} more for {}", colour_name(c))
                        })
                        .collect();
                    let also = if others.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " {} {} choosing too.",
                            and_list(&others),
                            is_are(others.len())
                        )
                    };
                    format!(
                        "Your turn, {}: secretly keep your objectives ({}).{also}",
                        seat_name(names, s),
                        todo.join(", ")
                    )
                }
                _ => format!(
                    "{} {} secretly choosing objectives to keep.",
                    and_list(&others),
                    is_are(others.len())
                ),
            }
        }
        Phase::Reinforcement { .. } => {
            let Some(i) = state.reinforcing() else {
                return format!("Round {round}: reinforcements.");
            };
            let due = state.reinforcements_due(i);
            match state.clan(i) {
                Some(c) if viewer == Viewer::Seat(c.seat) => format!(
                    "Your turn, {}: how many {} gnomes (0 to {due}) go onto your home (round \
                     {round})?",
                    seat_name(names, c.seat),
                    colour_name(c)
                ),
                _ => format!(
                    "Round {round}: {} is deciding its reinforcements.",
                    who(state, i, names)
                ),
            }
        }
        Phase::Movement { moves, .. } => {
            let Some(i) = state.mover() else {
                return format!("Round {round}: movement.");
            };
            let focus = focus_text(moves);
            let focus = if focus.is_empty() {
                String::new()
            } else {
                format!(", {focus}")
            };
            match state.clan(i) {
                Some(c) if viewer == Viewer::Seat(c.seat) => format!(
                    "Your turn, {}: move your {} gnomes{focus} (round {round}).",
                    seat_name(names, c.seat),
                    colour_name(c)
                ),
                _ => format!("Round {round}: {} is moving{focus}.", who(state, i, names)),
            }
        }
        Phase::Combat(combat) => {
            let place = short_name(combat.territory);
            match state.declarer() {
                Some(i) => {
                    let dice = plural(state.undeclared_dice(combat, i), "die", "dice");
                    match state.clan(i) {
                        Some(c) if viewer == Viewer::Seat(c.seat) => format!(
                            "Your turn, {}: choose whom your {dice} attack at {place} \
                             (round {round}, {} clan).",
                            seat_name(names, c.seat),
                            colour_name(c)
                        ),
                        _ => format!(
                            "Round {round}, battle at {place}: {} is choosing whom {dice} attack.",
                            who(state, i, names)
                        ),
                    }
                }
                None => format!(
                    "Round {round}, battle at {place}: rolling die {} of {}.",
                    combat.rolls.len() + 1,
                    combat.dice.len()
                ),
            }
        }
        Phase::Over(ending) => format!("Game over: {}", ending.summary),
    }
}

fn and_list(items: &[String]) -> String {
    match items {
        [] => "Nobody".into(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn is_are(n: usize) -> &'static str {
    if n == 1 { "is" } else { "are" }
}

/// The movement rule in force after `moves`, in words ("" before the first move).
fn focus_text(moves: &[[Territory; 2]]) -> String {
    match focus(moves) {
        Focus::Free => String::new(),
        Focus::Either { from, to } => format!(
            "every further move must start at {} or end at {}",
            short_name(from),
            short_name(to)
        ),
        Focus::Origin(from) => format!("spreading out from {}", short_name(from)),
        Focus::Destination(to) => format!("gathering onto {}", short_name(to)),
    }
}
