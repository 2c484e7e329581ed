//! The table in words for people (mail and web pages): see `crate::rules::present`.
//! Pure: it shows exactly what `view::typed_view` shows the viewer (a hand only to its owner, what
//! the Oracle saw only to the two players concerned, never the deck's order).
//!
//! - `board`: the diagram, its key, and the words for squares (a1–h8) and units.
//! - `choices`: the numbered choices, grouped.
//! - `sections`: the table's sections (players, ways to win, this turn, cards).

mod board;
mod choices;
mod sections;

use super::actions::Action;
use super::combat::{force, sides};
use super::data::FigureKind;
use super::state::{CombatStep, Defender, Pending, Phase, State};
use crate::rules::present::{name_seats, seat_name};
use crate::rules::{ChoiceGroup, Presented, Seat, Viewer};
use board::{figure_label, sq, unit_label};
use sections::{cards, hands, last_fight, permanents, players, this_turn, victory};

pub fn present(state: &State, viewer: Viewer, names: &[String]) -> Presented {
    let mut sections = vec![players(state, viewer, names), victory(state, names)];
    sections.extend(this_turn(state, viewer, names));
    sections.extend(hands(state, viewer, names));
    sections.push(board::diagram(state, names));
    sections.push(board::key(state, viewer, names));
    sections.extend(permanents(state, viewer, names));
    sections.extend(last_fight(state, names));
    sections.push(cards(state));
    sections.retain(|s| !s.lines.is_empty());
    Presented {
        headline: headline(state, viewer, names),
        sections,
    }
}

pub fn choices(
    state: &State,
    seat: Seat,
    actions: &[Action],
    names: &[String],
) -> Vec<ChoiceGroup> {
    choices::choices(state, seat, actions, names)
}

fn plural_s(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn turn_words(state: &State) -> String {
    format!("turn {} of {}", state.turn, state.last_turn())
}

/// One line for whose decision it is: "Your turn, Ann: …" for them, "Ann …" for the others,
/// with the phase and turn in brackets.
struct Ask<'a> {
    seat: Seat,
    yours: &'a str,
    theirs: &'a str,
    phase: &'a str,
}

impl Ask<'_> {
    fn line(&self, state: &State, viewer: Viewer, names: &[String]) -> String {
        let when = if state.turn > 0 {
            format!(" ({}, {})", self.phase, turn_words(state))
        } else {
            format!(" ({})", self.phase)
        };
        if viewer == Viewer::Seat(self.seat) {
            let lead = if self.seat == state.current || state.turn == 0 {
                "Your turn"
            } else {
                "Your answer"
            };
            format!(
                "{lead}, {}: {}{when}.",
                seat_name(names, self.seat),
                self.yours
            )
        } else {
            format!("{} {}{when}.", seat_name(names, self.seat), self.theirs)
        }
    }
}

fn headline(state: &State, viewer: Viewer, names: &[String]) -> String {
    let cur = state.current;
    let name = |s: Seat| seat_name(names, s);
    let ask = |seat: Seat, yours: &str, theirs: &str, phase: &str| {
        Ask {
            seat,
            yours,
            theirs,
            phase,
        }
        .line(state, viewer, names)
    };
    match &state.phase {
        Phase::Map => "Set-up: the map is being laid out.".to_owned(),
        Phase::Deal => "Set-up: the permanent cards are being dealt.".to_owned(),
        Phase::Corner { seat } => ask(
            *seat,
            "choose your corner",
            "is choosing a corner",
            "set-up",
        ),
        Phase::StartFigure { seat } => ask(
            *seat,
            "choose your starting figure",
            "is choosing a starting figure",
            "set-up",
        ),
        Phase::ExtraFigure { seat } => ask(
            *seat,
            "you may add a figure in the free corner",
            "may add a figure in the free corner",
            "set-up",
        ),
        Phase::FirstPlayer { .. } => "Set-up: everyone rolls 2D6 to see who goes first.".into(),
        Phase::Over(outcome) => {
            let winners: Vec<String> = outcome.winners.iter().map(|&s| name(s)).collect();
            let result = match winners.len() {
                0 => "nobody wins".to_owned(),
                1 => format!("{} wins", winners.join("")),
                _ => format!("{} share the win", winners.join(" and ")),
            };
            format!(
                "Game over: {result}. {}",
                name_seats(&outcome.summary, names)
            )
        }
        _ if state.draws > 0 => format!(
            "{} draws {} ({}).",
            name(cur),
            plural_s(usize::from(state.draws), "card", "cards"),
            turn_words(state)
        ),
        _ if state.pending.is_some() => {
            let phase = match &state.phase {
                Phase::Movement => "Movement phase",
                Phase::RecruitPlace { .. } => "Recruitment phase",
                Phase::Stop(stop) => stop.phase(),
                _ => "End phase",
            };
            match &state.pending {
                Some(Pending::Alchemist { .. }) => ask(
                    cur,
                    "discard cards for the Alchemist, then draw as many",
                    "is discarding cards for the Alchemist",
                    phase,
                ),
                Some(Pending::Illusionist { first }) => ask(
                    cur,
                    &format!(
                        "choose the unit to switch places with your {}",
                        unit_label(state, first)
                    ),
                    "is choosing two units to switch places (Illusionist)",
                    phase,
                ),
                Some(Pending::AlterTerrain { at }) => ask(
                    cur,
                    &format!("choose the new terrain of {} (Alter Terrain)", sq(*at)),
                    &format!("is changing the terrain of {} (Alter Terrain)", sq(*at)),
                    phase,
                ),
                None => String::new(),
            }
        }
        Phase::Movement => {
            let moving = state
                .moving
                .and_then(|id| state.figure(id))
                .filter(|f| !f.done && state.moves_left(f) > 0)
                .map(|f| {
                    format!(
                        "; {} has {} left",
                        figure_label(state, f.id),
                        plural_s(
                            usize::from(state.moves_left(f)),
                            "move point",
                            "move points"
                        )
                    )
                })
                .unwrap_or_default();
            ask(
                cur,
                &format!("move figures, play cards or use powers{moving}"),
                &format!("is moving{moving}"),
                "Movement phase",
            )
        }
        Phase::Combat(c) => {
            let fight = fight_words(state, viewer, names);
            match c.step {
                CombatStep::AttackerCards => ask(
                    cur,
                    &format!("{fight}; play force cards, or done"),
                    &format!("is choosing cards for a fight: {fight}"),
                    "combat",
                ),
                CombatStep::DefenderCards => ask(
                    c.defender_seat,
                    &format!("{fight}; play force cards to defend, or done"),
                    &format!("is choosing cards to defend: {fight}"),
                    "combat",
                ),
                _ => format!(
                    "Fight: {fight}; the dice are rolling ({}).",
                    turn_words(state)
                ),
            }
        }
        Phase::Allies => format!(
            "{} draws allies (Allies phase, {}).",
            name(cur),
            turn_words(state)
        ),
        Phase::Recruit => format!(
            "{} rolls for a recruit (Recruitment phase, {}).",
            name(cur),
            turn_words(state)
        ),
        Phase::RecruitPlace { roll } => {
            let what = match FigureKind::of_recruit_roll(*roll) {
                Some(k) => choices::a_kind(k),
                None => "a figure of your choice".to_owned(),
            };
            let theirs = what.replace("your", "their");
            ask(
                cur,
                &format!("you rolled {roll}; place {what} on one of your Garrisons"),
                &format!("rolled {roll} and places {theirs}"),
                "Recruitment phase",
            )
        }
        Phase::End => {
            let held = state.players.get(cur).map_or(0, |p| p.hand.len());
            let limit = state.hand_limit(cur);
            let (yours, theirs) = if held > limit {
                (
                    format!("discard down to {limit} cards (you hold {held})"),
                    format!("is discarding down to {limit} cards"),
                )
            } else {
                ("end your turn".to_owned(), "is ending the turn".to_owned())
            };
            ask(cur, &yours, &theirs, "End phase")
        }
        Phase::Stop(stop) => ask(
            cur,
            &format!("use a power {} as you asked, or go on", stop.when()),
            &format!("may use a power {}", stop.when()),
            stop.phase(),
        ),
    }
}

/// "Ann's Hero at d6 attacks Bob's Garrison".
fn fight_words(state: &State, viewer: Viewer, names: &[String]) -> String {
    let Phase::Combat(c) = &state.phase else {
        return String::new();
    };
    let attacker = state
        .figure(c.attacker)
        .map_or_else(|| "a figure".to_owned(), |f| f.kind.name().to_owned());
    let defender = match c.defender {
        Defender::Figure(id) => state
            .figure(id)
            .map_or_else(|| "figure".to_owned(), |f| f.kind.name().to_owned()),
        Defender::Garrison => "Garrison".to_owned(),
    };
    let whose = |seat: Seat| {
        if viewer == Viewer::Seat(seat) {
            "your".to_owned()
        } else {
            format!("{}'s", seat_name(names, seat))
        }
    };
    let totals = match (c.attack_roll, c.defence_roll, sides(state, c)) {
        (Some(a), Some(d), Some((att, def))) => format!(
            " (totals now {} against {})",
            i32::from(a) + force(state, &att),
            i32::from(d) + force(state, &def)
        ),
        _ => String::new(),
    };
    format!(
        "{} {attacker} attacks {} {defender} at {}{totals}",
        whose(state.current),
        whose(c.defender_seat),
        sq(c.at)
    )
}

fn signed(n: i32) -> String {
    if n >= 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}
