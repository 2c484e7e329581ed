//! The sections of the table: players, the ways to win, this turn, hands, permanent cards,
//! the last fight, the ally deck and discard pile.

use super::super::combat::{force, sides};
use super::super::data::{FigureKind, GARRISONS_PER_SET, Structure, card_name};
use super::super::state::{CombatStep, Pending, Phase, State};
use super::board::{self, figure_label, plural, sq, unit_label};
use super::choices::card_line;
use super::{plural_s, signed};
use crate::rules::present::{seat_name, you};
use crate::rules::{Seat, Section, Viewer};

fn declared_words(s: Structure) -> &'static str {
    match s {
        Structure::Village => "Villages (+1 recruit roll)",
        Structure::City => "Cities (+1 ally card)",
        Structure::Ruins => "Ruins (Monsters +2F)",
        Structure::Mine => "Mines (Heroes and Armies +1F)",
        Structure::Tower => "Towers (Mages +2F)",
        Structure::Town => "Towns",
        Structure::Castle => "Castles",
        Structure::Temple => "Temples",
    }
}

pub fn players(state: &State, viewer: Viewer, names: &[String]) -> Section {
    let marks = board::marks(state.seats(), names);
    let lines = state
        .players
        .iter()
        .enumerate()
        .map(|(seat, p)| {
            let mut parts: Vec<String> = Vec::new();
            if let Some(c) = p.corner {
                parts.push(format!("corner {}", sq(c)));
            }
            let figures: Vec<String> = FigureKind::ALL
                .into_iter()
                .filter_map(|k| match state.figure_count(seat, k) {
                    0 => None,
                    1 => Some(format!("1 {}", k.name())),
                    n => Some(format!("{n} {}", plural(k))),
                })
                .collect();
            if !figures.is_empty() {
                parts.push(figures.join(", "));
            }
            parts.push(format!(
                "{} on the map",
                plural_s(state.garrisons_on_map(seat), "Garrison", "Garrisons")
            ));
            parts.push(format!(
                "hand {} (limit {})",
                plural_s(p.hand.len(), "card", "cards"),
                state.hand_limit(seat)
            ));
            if !p.declared.is_empty() {
                let d: Vec<&str> = p.declared.iter().map(|&s| declared_words(s)).collect();
                parts.push(format!("declared {}", d.join(", ")));
            }
            let out = state.turn > 0 && !state.has_units(seat);
            let status = if out {
                ", out of the game"
            } else if state.turn > 0 && seat == state.current && !state.is_over() {
                ", to play"
            } else {
                ""
            };
            format!(
                "{} {}{status}: {}",
                marks.get(seat).copied().unwrap_or('?'),
                you(names, viewer, seat),
                parts.join("; ")
            )
        })
        .collect();
    Section::new("Players", lines)
}

/// The four ways to win, with every player's progress on each.
pub fn victory(state: &State, names: &[String]) -> Section {
    if state.turn == 0 && !state.is_over() {
        return Section::new("Ways to win", vec![]);
    }
    let each = |f: &dyn Fn(Seat) -> String| -> String {
        (0..state.seats())
            .map(|s| format!("{} {}", seat_name(names, s), f(s)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let units = each(&|s| {
        let figures = state.figures.iter().filter(|f| f.owner == s).count();
        format!(
            "{} + {}",
            plural_s(figures, "figure", "figures"),
            plural_s(state.garrisons_on_map(s), "garrison", "garrisons")
        )
    });
    let temples = each(&|s| format!("{}/5", state.structures_occupied(s, Structure::Temple)));
    let garrisons = each(&|s| format!("{}/{GARRISONS_PER_SET}", state.garrisons_on_map(s)));
    let spaces = each(&|s| state.spaces_controlled(s).to_string());
    Section::new(
        "Ways to win",
        vec![
            format!("1. Destroy all your opponents' units. Units left: {units}."),
            format!("2. Occupy 5 Temples at the start of your turn. Temples: {temples}."),
            format!(
                "3. Have Garrisons in 33 spaces at the start of your turn. Garrisons: {garrisons}."
            ),
            format!(
                "4. Control the most spaces after turn {} (ties: most Garrisons). Spaces: {spaces}.",
                state.last_turn()
            ),
        ],
    )
}

/// The turn so far: the fight on, a power half used, the figures' move points, cards played,
/// powers used, the Oracle's looks (what it saw only for the two players concerned).
pub fn this_turn(state: &State, viewer: Viewer, names: &[String]) -> Option<Section> {
    if state.turn == 0 || state.is_over() {
        return None;
    }
    let cur = state.current;
    let mut lines = Vec::new();
    if let Phase::Combat(c) = &state.phase
        && let Some((a, d)) = sides(state, c)
    {
        let space = board::square_words(state, c.at, names);
        lines.push(format!("Fight at {} ({space}).", sq(c.at)));
        lines.push(format!(
            "Attacker: {}'s {} with force {}. Defender: {}'s {} with force {}.",
            seat_name(names, a.seat),
            a.unit.name(),
            signed(force(state, &a)),
            seat_name(names, d.seat),
            d.unit.name(),
            signed(force(state, &d)),
        ));
        let roll = |seat: Seat, r: Option<u8>| match r {
            Some(r) => format!("{} rolled {r}", seat_name(names, seat)),
            None => format!("{} has not rolled yet", seat_name(names, seat)),
        };
        let rolls = format!(
            "{}; {}.",
            roll(a.seat, c.attack_roll),
            roll(d.seat, c.defence_roll)
        );
        let totals = match (c.attack_roll, c.defence_roll) {
            (Some(ar), Some(dr)) => format!(
                " Totals now: {} against {}.",
                i32::from(ar) + force(state, &a),
                i32::from(dr) + force(state, &d)
            ),
            _ => String::new(),
        };
        let step = match c.step {
            CombatStep::AttackerCards => format!(
                "{} may play force cards (then {} may answer).",
                seat_name(names, a.seat),
                seat_name(names, d.seat)
            ),
            CombatStep::DefenderCards => format!(
                "{} may answer with force cards (then {} again).",
                seat_name(names, d.seat),
                seat_name(names, a.seat)
            ),
            _ => "The dice roll first.".to_owned(),
        };
        lines.push(format!("{rolls}{totals} {step}"));
        lines.push(
            "Each side rolls 2D6, permanent cards count, then the sides take turns playing \
             force cards until both pass; the higher total of roll + force wins, a tie \
             destroys both."
                .to_owned(),
        );
    }
    match &state.pending {
        Some(Pending::Alchemist { discarded }) => lines.push(format!(
            "Alchemist: {} discarded so far; as many are drawn when done.",
            plural_s(usize::from(*discarded), "card", "cards")
        )),
        Some(Pending::Illusionist { first }) => lines.push(format!(
            "Illusionist: {} is to switch places with another of {}'s units.",
            unit_label(state, first),
            seat_name(names, cur)
        )),
        Some(Pending::AlterTerrain { at }) => lines.push(format!(
            "Alter Terrain: {} ({}) is to get a new terrain type.",
            sq(*at),
            state.terrain(*at).map_or("no terrain", |t| t.name())
        )),
        None => {}
    }
    if matches!(state.phase, Phase::Movement) {
        let figures: Vec<String> = state
            .figures
            .iter()
            .filter(|f| f.owner == cur)
            .map(|f| {
                let left = if f.done {
                    "done".to_owned()
                } else if state.moves_left(f) == 0 {
                    "no move points left".to_owned()
                } else {
                    plural_s(
                        usize::from(state.moves_left(f)),
                        "move point left",
                        "move points left",
                    )
                };
                format!("{} ({left})", figure_label(state, f.id))
            })
            .collect();
        if !figures.is_empty() {
            lines.push(format!(
                "{}'s figures: {}.",
                seat_name(names, cur),
                figures.join(", ")
            ));
        }
        if let Some(f) = state.moving.and_then(|id| state.figure(id))
            && !f.done
        {
            lines.push(format!(
                "{} is moving: moving another figure ends its move for this turn.",
                figure_label(state, f.id)
            ));
        }
    }
    for (seat, p) in state.players.iter().enumerate() {
        if !p.played.is_empty() {
            let played: Vec<String> = p.played.iter().map(|&c| card_line(c)).collect();
            lines.push(format!(
                "{} played this turn: {}.",
                seat_name(names, seat),
                played.join(", ")
            ));
        }
        if !p.used.is_empty() {
            let used: Vec<String> = p.used.iter().map(|&c| card_name(c)).collect();
            lines.push(format!(
                "{} used permanent powers: {}.",
                seat_name(names, seat),
                used.join(", ")
            ));
        }
    }
    for peek in &state.peeks {
        let who = format!(
            "{} looked at {}'s hand with the Oracle",
            seat_name(names, peek.by),
            seat_name(names, peek.of)
        );
        if viewer.sees_secrets_of(peek.by) || viewer.sees_secrets_of(peek.of) {
            let seen: Vec<String> = peek.cards.iter().map(|&c| card_line(c)).collect();
            let seen = if seen.is_empty() {
                "no cards".to_owned()
            } else {
                seen.join(", ")
            };
            lines.push(format!("{who}: {seen}."));
        } else {
            lines.push(format!("{who}."));
        }
    }
    Some(Section::new("This turn", lines))
}

/// The hands this viewer may see: a seat its own; everyone all of them (a finished game).
pub fn hands(state: &State, viewer: Viewer, names: &[String]) -> Vec<Section> {
    state
        .players
        .iter()
        .enumerate()
        .filter(|(seat, _)| viewer.sees_secrets_of(*seat))
        .map(|(seat, p)| {
            let title = if viewer == Viewer::Seat(seat) {
                format!(
                    "Your hand ({} of at most {} at the end of your turn)",
                    p.hand.len(),
                    state.hand_limit(seat)
                )
            } else {
                format!("{}'s hand", seat_name(names, seat))
            };
            let mut lines: Vec<String> = p.hand.iter().map(|&c| card_line(c)).collect();
            if lines.is_empty() {
                lines.push("No cards.".to_owned());
            } else {
                lines.push(
                    "(PC = as a permanent card, HC = played from the hand; a played card lasts \
                     to the end of the turn. F = force, MP = move points, OT = once on your \
                     turn, adj = adjacent.)"
                        .to_owned(),
                );
            }
            Section::new(title, lines)
        })
        .collect()
}

/// Every player's face-up permanent cards with their text.
pub fn permanents(state: &State, viewer: Viewer, names: &[String]) -> Vec<Section> {
    state
        .players
        .iter()
        .enumerate()
        .map(|(seat, p)| {
            let title = if viewer == Viewer::Seat(seat) {
                "Your permanent cards".to_owned()
            } else {
                format!("{}'s permanent cards", seat_name(names, seat))
            };
            let lines = p
                .permanent
                .iter()
                .map(|&c| {
                    let used = if p.used.contains(&c) {
                        " (used this turn)"
                    } else {
                        ""
                    };
                    format!("{}{used}", card_line(c))
                })
                .collect();
            Section::new(title, lines)
        })
        .collect()
}

pub fn last_fight(state: &State, names: &[String]) -> Option<Section> {
    let r = state.last_combat.as_ref()?;
    let total = |roll: u8, f: i32| i32::from(roll) + f;
    Some(Section::new(
        "Last fight",
        vec![format!(
            "At {}: {}'s {} rolled {}, force {}, total {}; {}'s {} rolled {}, force {}, \
             total {}: {}.",
            sq(r.at),
            seat_name(names, r.attacker_seat),
            r.attacker.name(),
            r.attack_roll,
            signed(r.attack_force),
            total(r.attack_roll, r.attack_force),
            seat_name(names, r.defender_seat),
            r.defender.name(),
            r.defence_roll,
            signed(r.defence_force),
            total(r.defence_roll, r.defence_force),
            r.result
        )],
    ))
}

/// The deck's size and the face-up discard pile, newest first.
pub fn cards(state: &State) -> Section {
    let mut lines = vec![format!(
        "Ally deck: {} left (the discard pile is reshuffled when it runs out).",
        plural_s(state.deck.len(), "card", "cards")
    )];
    if state.turn > 0 {
        lines.push(if state.discard.is_empty() {
            "Discard pile: empty.".to_owned()
        } else {
            let names: Vec<String> = state.discard.iter().rev().map(|&c| card_name(c)).collect();
            format!(
                "Discard pile ({}, newest first): {}.",
                state.discard.len(),
                names.join(", ")
            )
        });
        // Names only: no choice takes a card from the pile, and the texts of up to 60 cards
        // were the largest part of a late turn mail (the review's "full text of every
        // discarded card"). Cards a choice names, hands and permanent cards keep their text.
    }
    Section::new("Ally cards", lines)
}
