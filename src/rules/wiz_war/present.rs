//! The table in words for people (mail and web pages): see `crate::rules::present`.
//! Pure: it shows exactly what `view::typed_view` shows the viewer (every hand but the viewer's own
//! is a count; the deck is a count), and nothing the view leaves out.
//!
//! Squares are written like a spreadsheet's cells: a column letter from the west (`a` is
//! x = 0) and a row number from the north (`1` is y = 0), so `c4` is the square (2, 3). The
//! board diagram, its key and the choices all use these words.
//!
//! - `present/turn.rs`: the headline, this turn, the cast being built, the reaction window;
//! - `present/cards.rs`: hands and card texts, items, spells in play, deck and discard;
//! - `present/board.rs`: the board diagram, its key, the things on the board in words;
//! - `present/choices.rs`: the legal actions grouped into numbered choices.

mod board;
mod cards;
mod choices;
mod turn;

use super::board::{Dir, Pos};
use super::state::{POINTS_TO_WIN, Phase, State, Target, tally};
use crate::rules::present::{Section, seat_name, with_names, you};
use crate::rules::{Presented, Seat, Viewer};
use cards::{counted, hand, items, piles, spells};
use turn::{casting, headline, this_turn, window};

pub use choices::choices;

pub fn present(state: &State, viewer: Viewer, names: &[String]) -> Presented {
    let mut sections = vec![players(state, viewer, names)];
    if let Some(s) = this_turn(state, names) {
        sections.push(s);
    }
    if let Some(s) = casting(state, names) {
        sections.push(s);
    }
    if let Some(s) = window(state, names) {
        sections.push(s);
    }
    for seat in 0..state.seats() {
        if viewer.sees_secrets_of(seat) {
            sections.push(hand(state, viewer, seat, names));
        }
    }
    if let Some(s) = items(state, names) {
        sections.push(s);
    }
    if !matches!(state.phase, Phase::Building { .. }) {
        sections.push(board::diagram(state, names));
        sections.push(board::key(state, viewer, names));
        if let Some(s) = board::on_the_board(state, names) {
            sections.push(s);
        }
    }
    if let Some(s) = spells(state, names) {
        sections.push(s);
    }
    sections.push(piles(state));
    if !state.events.is_empty() {
        sections.push(Section::new("Recent events", state.events.clone()));
    }
    with_names(
        Presented {
            headline: headline(state, viewer, names),
            sections,
        },
        names,
    )
}

/// A square in the words every part of the presentation (and the log) uses: `c4`.
fn sq(p: Pos) -> String {
    p.to_string()
}

/// The column letter of x (the diagram's top edge).
fn column(x: i8) -> String {
    match u8::try_from(x) {
        Ok(x) if x < 26 => char::from(b'a' + x).to_string(),
        _ => "?".to_owned(),
    }
}

/// "the line between c3 and d3", or "the north edge of c1" on the board's rim.
fn line_words(state: &State, p: Pos, d: Dir) -> String {
    let (p, d) = state.board.canonical(p, d);
    let q = p.step(d);
    if state.board.exists(q) {
        format!("the line between {} and {}", sq(p), sq(q))
    } else {
        format!("the {} edge of {}", d.name(), sq(p))
    }
}

/// "Ann" or "you".
fn who(names: &[String], viewer: Viewer, seat: Seat) -> String {
    if viewer == Viewer::Seat(seat) {
        "you".to_owned()
    } else {
        seat_name(names, seat)
    }
}

fn round(state: &State) -> u32 {
    state.round()
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn players(state: &State, viewer: Viewer, names: &[String]) -> Section {
    let marks = board::initials(state, names);
    let mut lines = Vec::new();
    for seat in 0..state.seats() {
        let Some(w) = state.wizard(seat) else {
            continue;
        };
        let mark = marks.get(seat).copied().unwrap_or('?');
        let mut parts = Vec::new();
        match w.at {
            Some(p) => parts.push(format!("{} wizard {mark} at {}", state.colour(seat), sq(p))),
            None => parts.push(format!("{} wizard, dead", state.colour(seat))),
        }
        if w.at.is_some() {
            parts.push(format!("life {}", w.life));
        }
        let points = state.points(seat);
        let stolen = points.saturating_sub(w.kills);
        let mut why = Vec::new();
        if w.kills > 0 {
            why.push(plural(w.kills as usize, "kill", "kills"));
        }
        if stolen > 0 {
            why.push(plural(
                stolen as usize,
                "stolen treasure",
                "stolen treasures",
            ));
        }
        let why = if why.is_empty() {
            String::new()
        } else {
            format!(" ({})", why.join(", "))
        };
        parts.push(format!("{points} of {POINTS_TO_WIN} points{why}"));
        let maintained = state.spells.iter().filter(|s| s.caster == seat).count();
        let mut held = vec![plural(w.hand.len(), "card in hand", "cards in hand")];
        if !w.items.is_empty() {
            held.push(format!(
                "{} carried",
                plural(w.items.len(), "item", "items")
            ));
        }
        if maintained > 0 {
            held.push(format!(
                "{} maintained",
                plural(maintained, "spell", "spells")
            ));
        }
        let (total, limit) = (state.hand_total(seat), state.hand_limit(seat));
        let limit = if held.len() > 1 || total > limit {
            format!(" ({total} of the hand limit of {limit})")
        } else if total == limit {
            " (at the hand limit)".to_owned()
        } else {
            String::new()
        };
        parts.push(format!("{}{limit}", held.join(" + ")));
        if w.stun > 0 {
            parts.push(plural(usize::from(w.stun), "stun token", "stun tokens"));
        }
        if let Some(t) = w.treasure.and_then(|i| state.treasures.get(i)) {
            parts.push(format!(
                "carries {}'s {} treasure",
                seat_name(names, t.owner),
                state.colour(t.owner)
            ));
        }
        if let Some(form) = state.form(seat) {
            parts.push(format!("in {} form ({})", form.name, form.words()));
        }
        if w.alive() && state.invisible(seat) {
            parts.push("invisible (no spell needing sight can be cast at it)".to_owned());
        }
        let mut line = format!("{}: {}", you(names, viewer, seat), parts.join("; "));
        if !w.items.is_empty() {
            let items: Vec<String> = tally(&w.items)
                .into_iter()
                .map(|(c, n)| counted(c, n))
                .collect();
            line.push_str(&format!(". Carries {}", items.join(", ")));
        }
        line.push('.');
        if state.turn.seat == seat
            && matches!(state.phase, Phase::MoveAndCast | Phase::DiscardAndDraw)
        {
            line.push_str(" Taking a turn now.");
        }
        lines.push(line);
    }
    Section::new("Players", lines)
}

/// A target in words ("Bob at c4", "the line between c3 and d3").
fn target_words(state: &State, names: &[String], viewer: Viewer, t: &Target) -> String {
    let wizard = |s: Seat| match state.pos(s) {
        Some(p) => format!("{} at {}", who(names, viewer, s), sq(p)),
        None => who(names, viewer, s),
    };
    match *t {
        Target::None => "no target".to_owned(),
        Target::Wizard(s) => wizard(s),
        Target::WizardToward(s, d) => format!("{}, knocked {}", wizard(s), d.name()),
        Target::Square(p) => sq(p),
        Target::Side(p, d) => line_words(state, p, d),
        Target::Direction(d) => d.name().to_owned(),
        Target::Rotate(slot, q) => format!(
            "{}, turned {} degrees clockwise",
            board::sector_words(state, names, slot),
            u32::from(q) * 90
        ),
        Target::Spell(id) => spell_words(state, names, viewer, id),
        Target::Object(id) => match state.objects.iter().find(|o| o.id == id) {
            Some(o) => format!("{} at {} (object #{id})", o.card.name(), sq(o.at)),
            None => format!("object #{id}"),
        },
        Target::Treasure(i) => match state.treasures.get(i) {
            Some(tr) => {
                let at = tr.at.map(|p| format!(" at {}", sq(p))).unwrap_or_default();
                format!(
                    "{}'s {} treasure{at}",
                    seat_name(names, tr.owner),
                    state.colour(tr.owner)
                )
            }
            None => format!("treasure #{i}"),
        },
        Target::Item(s, c) => format!("{}'s {}", who(names, viewer, s), c.name()),
    }
}

fn spell_words(state: &State, names: &[String], viewer: Viewer, id: u32) -> String {
    match state.spells.iter().find(|s| s.id == id) {
        Some(s) => format!(
            "{}'s {} (spell #{id}{})",
            who(names, viewer, s.caster),
            s.card.name(),
            match s.target {
                Target::None => String::new(),
                t => format!(", on {}", target_words(state, names, viewer, &t)),
            }
        ),
        None => format!("spell #{id}"),
    }
}
