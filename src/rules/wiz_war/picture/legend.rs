//! The panel beside the board: the game's state in a line, the players (colour, letter, name,
//! life, points, hand size, items, treasure carried, stun), the symbols the board uses, and the
//! objects lying on the board. Only public facts: a hand is a count.

use std::fmt::Write as _;

use super::super::board::EdgeKind;
use super::super::cards::Effect;
use super::super::state::{POINTS_TO_WIN, State, tally};
use super::labyrinth::badge_letters;
use super::{GOLD, INK, LEGEND_WIDTH, TOP, clip, playing, status};
use crate::rules::picture::{escape, seat_colour};
use crate::rules::present::seat_name;
use crate::rules::{Seat, Viewer};

/// Characters of a line of 12-pixel text that fit in the panel.
const LINE: usize = 36;
/// Objects listed by name at most.
const OBJECTS_LISTED: usize = 8;

/// Draws the legend with its left edge at `x0`; returns the y of its bottom.
pub(super) fn draw(
    out: &mut String,
    state: &State,
    viewer: Viewer,
    names: &[String],
    marks: &[char],
    x0: i32,
) -> i32 {
    let mut body = String::with_capacity(6_000);
    let top = TOP - 30;
    let tx = x0 + 14;
    let mut y = top + 28;
    let _ = write!(
        body,
        "<text x=\"{tx}\" y=\"{y}\" font-size=\"19\" font-weight=\"bold\" fill=\"{INK}\">\
         Wiz-War</text>"
    );
    y += 20;
    let _ = write!(
        body,
        "<text x=\"{tx}\" y=\"{y}\" font-size=\"12\" fill=\"#5a4a3a\">{}</text>",
        escape(&clip(&capitalised(&status(state, viewer, names)), LINE + 4))
    );
    if let Some(line) = spell_line(state, viewer, names) {
        y += 16;
        small(&mut body, tx, y, &line);
    }
    y += 14;
    rule(&mut body, x0, y);
    y += 22;
    heading(&mut body, tx, y, "Players");
    y += 8;
    for seat in 0..state.seats() {
        y = player(&mut body, state, viewer, names, marks, seat, x0, y);
    }
    rule(&mut body, x0, y);
    y += 22;
    heading(&mut body, tx, y, "Key");
    y += 6;
    y = key(&mut body, state, x0, y);
    y = objects(&mut body, state, x0, y);
    let bottom = y + 6;
    let _ = write!(
        out,
        "<g data-legend=\"\" pointer-events=\"none\"><rect x=\"{x0}\" y=\"{top}\" \
         width=\"{LEGEND_WIDTH}\" height=\"{}\" rx=\"8\" fill=\"#f8f2e4\" stroke=\"#c9b99a\" \
         stroke-width=\"1.5\"/>{body}</g>",
        bottom - top
    );
    bottom
}

/// The spell on the table: the one answered in a reaction window, or the one being aimed.
fn spell_line(state: &State, viewer: Viewer, names: &[String]) -> Option<String> {
    let who = |s: Seat| {
        if viewer == Viewer::Seat(s) {
            "you".to_owned()
        } else {
            seat_name(names, s)
        }
    };
    if let Some(top) = state.stack.last() {
        return Some(format!(
            "{} cast {}",
            capitalised(&who(top.by)),
            top.card.name()
        ));
    }
    let casting = state.casting.as_ref()?;
    Some(format!(
        "{} casting {}",
        if viewer == Viewer::Seat(state.turn.seat) {
            "You are".to_owned()
        } else {
            format!("{} is", seat_name(names, state.turn.seat))
        },
        casting.card.name()
    ))
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn rule(out: &mut String, x0: i32, y: i32) {
    let _ = write!(
        out,
        "<path d=\"M{} {y}h{}\" stroke=\"#d8cbb0\" stroke-width=\"1\"/>",
        x0 + 10,
        LEGEND_WIDTH - 20
    );
}

fn heading(out: &mut String, x: i32, y: i32, text: &str) {
    let _ = write!(
        out,
        "<text x=\"{x}\" y=\"{y}\" font-size=\"13\" font-weight=\"bold\" fill=\"#7a6248\" \
         letter-spacing=\"1\">{}</text>",
        escape(&text.to_uppercase())
    );
}

fn small(out: &mut String, x: i32, y: i32, text: &str) {
    let _ = write!(
        out,
        "<text x=\"{x}\" y=\"{y}\" font-size=\"12\" fill=\"{INK}\">{}</text>",
        escape(&clip(text, LINE))
    );
}

/// One player's block: returns the y below it.
#[allow(clippy::too_many_arguments)]
fn player(
    out: &mut String,
    state: &State,
    viewer: Viewer,
    names: &[String],
    marks: &[char],
    seat: Seat,
    x0: i32,
    y: i32,
) -> i32 {
    let Some(w) = state.wizard(seat) else {
        return y;
    };
    let (cx, cy) = (x0 + 26, y + 17);
    let c = seat_colour(usize::from(state.colour_of(seat)));
    let active = state.turn.seat == seat && playing(state);
    let _ = write!(out, "<g data-player=\"{seat}\">");
    if active {
        let _ = write!(
            out,
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"16\" fill=\"{GOLD}\" fill-opacity=\".35\" \
             stroke=\"{GOLD}\" stroke-width=\"2.5\"/>"
        );
    }
    let _ = write!(
        out,
        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"12\" fill=\"{c}\" stroke=\"#fff\" stroke-width=\"2\" \
         opacity=\"{}\"/><text x=\"{cx}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" \
         fill=\"#fff\" text-anchor=\"middle\">{}</text>",
        if w.alive() || !(playing(state) || state.is_over()) {
            "1"
        } else {
            ".45"
        },
        cy + 5,
        escape(&marks.get(seat).copied().unwrap_or('?').to_string())
    );
    let tx = x0 + 48;
    let you = if viewer == Viewer::Seat(seat) {
        " (you)"
    } else {
        ""
    };
    let _ = write!(
        out,
        "<text x=\"{tx}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" fill=\"{INK}\">{}\
         <tspan font-weight=\"normal\" fill=\"#7a6248\">{you} {}</tspan></text>",
        y + 13,
        escape(&clip(&seat_name(names, seat), 16)),
        state.colour(seat)
    );
    let points = state.points(seat);
    let cards = match w.hand.len() {
        1 => "1 card".to_owned(),
        n => format!("{n} cards"),
    };
    let line = if w.alive() || playing(state) || state.is_over() {
        let life = if w.alive() {
            format!("<tspan fill=\"#c0392b\">♥</tspan> {}", w.life)
        } else {
            "dead".to_owned()
        };
        format!("{life}  <tspan fill=\"#b8860b\">★</tspan> {points} of {POINTS_TO_WIN}  {cards}")
    } else {
        format!("not on the board yet, {cards}")
    };
    let _ = write!(
        out,
        "<text x=\"{tx}\" y=\"{}\" font-size=\"12\" fill=\"{INK}\" xml:space=\"preserve\">{line}\
         </text>",
        y + 29
    );
    let mut y = y + 29;
    let mut extra = Vec::new();
    if !w.items.is_empty() {
        let items: Vec<String> = tally(&w.items)
            .into_iter()
            .map(|(c, n)| {
                if n > 1 {
                    format!("{} x{n}", c.name())
                } else {
                    c.name()
                }
            })
            .collect();
        extra.push(format!("Items: {}", items.join(", ")));
    }
    if let Some(t) = w.treasure.and_then(|i| state.treasures.get(i)) {
        extra.push(format!(
            "Carries {}'s {} treasure",
            seat_name(names, t.owner),
            state.colour(t.owner)
        ));
    }
    if let Some(f) = state.form(seat) {
        // "Golem: move 2, punch 2, -2 damage" fits the legend's line.
        extra.push(format!("{}: {}", f.name, f.short_words()));
    }
    if w.stun > 0 {
        extra.push(match w.stun {
            1 => "Stunned (1 token)".to_owned(),
            n => format!("Stunned ({n} tokens)"),
        });
    }
    for line in extra {
        y += 15;
        small(out, tx, y, &line);
    }
    out.push_str("</g>");
    y + 14
}

/// A line sample of the key, 28 pixels long around the origin: a wide stroke and, if any, a
/// narrow dashed one over it.
fn line_sample(wide: &str, width: u8, narrow: Option<(&str, &str)>) -> String {
    let mut out = format!("<path d=\"M-14 0H14\" stroke=\"{wide}\" stroke-width=\"{width}\"/>");
    if let Some((colour, dash)) = narrow {
        let _ = write!(
            out,
            "<path d=\"M-14 0H14\" stroke=\"{colour}\" stroke-width=\"3\" \
             stroke-dasharray=\"{dash}\"/>"
        );
    }
    out
}

/// The symbols: always the ones every board has, the others when the board shows them. Each
/// sample is drawn around the origin and moved into place.
fn key(out: &mut String, state: &State, x0: i32, y: i32) -> i32 {
    let red = seat_colour(0);
    let board = &state.board;
    let lines: Vec<_> = board.vertical.iter().chain(&board.horizontal).collect();
    let created = |wanted: &dyn Fn(Effect) -> bool| {
        lines
            .iter()
            .any(|e| e.created.is_some_and(|c| wanted(c.card.effect())))
    };
    let has = |effect: Effect| state.objects.iter().any(|o| o.card.effect() == effect);
    let arrow = |colour: &str| {
        format!(
            "<path d=\"M-4 -6L4 0L-4 6\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"3\"/>"
        )
    };
    let form = super::labyrinth::FORM;
    let entries: [(bool, String, &str); 16] = [
        (true, line_sample(INK, 6, None), "wall"),
        (
            true,
            format!(
                "{}<rect x=\"-9\" y=\"-4\" width=\"18\" height=\"9\" rx=\"2\" fill=\"{red}\" \
                 stroke=\"{INK}\" stroke-width=\"1.5\"/>",
                line_sample(INK, 6, None)
            ),
            "door: only its colour passes",
        ),
        (
            true,
            format!(
                "<circle r=\"9\" fill=\"{red}\" fill-opacity=\".16\" stroke=\"{red}\" \
                 stroke-width=\"2\"/><circle r=\"6\" fill=\"none\" stroke=\"{red}\" \
                 stroke-dasharray=\"3 2.5\"/>"
            ),
            "home base (its colour's)",
        ),
        (
            true,
            format!(
                "<path d=\"M0 -7l7 7l-7 7l-7 -7z\" fill=\"{red}\" stroke=\"{GOLD}\" \
                 stroke-width=\"2\"/>"
            ),
            "treasure (its owner's colour)",
        ),
        (
            true,
            format!(
                "<circle r=\"12\" fill=\"{GOLD}\" fill-opacity=\".35\" stroke=\"{GOLD}\" \
                 stroke-width=\"2\"/><circle r=\"8\" fill=\"{red}\" stroke=\"#fff\" \
                 stroke-width=\"1.5\"/>"
            ),
            "wizard; gold ring: to play",
        ),
        (
            state.wizards.iter().any(|w| w.stun > 0),
            format!(
                "<circle r=\"6\" fill=\"{INK}\"/><text y=\"3\" font-size=\"9\" \
                 font-weight=\"bold\" fill=\"#fff\" text-anchor=\"middle\">z</text>"
            ),
            "stunned",
        ),
        (
            state.wizards.iter().any(|w| w.alive() && w.form.is_some()),
            format!(
                "<circle r=\"10\" fill=\"none\" stroke=\"{form}\" stroke-width=\"2.5\" \
                 stroke-dasharray=\"4 2\"/><rect x=\"-8\" y=\"-5\" width=\"16\" \
                 height=\"11\" rx=\"3\" fill=\"{form}\"/>"
            ),
            "transformed (the form's letters)",
        ),
        (
            board.links.iter().any(|l| !l.portal),
            arrow("#8a6d3b"),
            "exit: leads round to the far edge",
        ),
        (
            board.links.iter().any(|l| l.portal),
            arrow("#8e44ad"),
            "portal: leads to the same number",
        ),
        (
            created(&|e| !matches!(e, Effect::WallOfFire | Effect::WallOfEarth)),
            line_sample("#5f3f95", 8, Some(("#c8b4ec", "4 4"))),
            "created wall (Create Wall)",
        ),
        (
            created(&|e| e == Effect::WallOfEarth),
            line_sample("#7a5230", 8, Some(("#b0875a", "3 5"))),
            "Wall of Earth",
        ),
        (
            created(&|e| e == Effect::WallOfFire),
            line_sample("#d9480f", 8, Some(("#ffd43b", "5 4"))),
            "Wall of Fire: passable, burns",
        ),
        (
            lines
                .iter()
                .any(|e| e.destroyed && e.kind != EdgeKind::Open && e.created.is_none()),
            "<path d=\"M-14 0H14\" stroke=\"#9c8a70\" stroke-width=\"2\" \
             stroke-dasharray=\"2 5\"/>"
                .to_owned(),
            "destroyed wall or door: open",
        ),
        (
            has(Effect::StoneBlock),
            "<rect x=\"-10\" y=\"-8\" width=\"20\" height=\"16\" rx=\"2\" fill=\"#8f8a82\" \
             stroke=\"#4f4a44\" stroke-width=\"2\"/>"
                .to_owned(),
            "stone block: fills the square",
        ),
        (
            has(Effect::Fog) || has(Effect::DustCloud),
            "<rect x=\"-12\" y=\"-9\" width=\"24\" height=\"18\" rx=\"6\" fill=\"#e3e8ee\" \
             stroke=\"#9aa6b2\"/>"
                .to_owned(),
            "fog or dust cloud: blocks sight",
        ),
        (
            has(Effect::StoneSpikes),
            "<path d=\"M-10 6l5 -12l5 12zm10 0l5 -12l5 12z\" fill=\"#6e6a64\"/>".to_owned(),
            "stone spikes: hurt who enters",
        ),
    ];
    let mut y = y;
    for (shown, sample, words) in entries {
        if shown {
            y += 22;
            let _ = write!(
                out,
                "<g transform=\"translate({} {y})\">{sample}</g>",
                x0 + 30
            );
            small(out, x0 + 56, y + 4, words);
        }
    }
    y + 16
}

/// The objects lying on the board other than stone blocks, fog and spikes, by badge.
fn objects(out: &mut String, state: &State, x0: i32, y: i32) -> i32 {
    let listed: Vec<_> = state
        .objects
        .iter()
        .filter(|o| !o.fills_square() && o.card.effect() != Effect::StoneSpikes)
        .collect();
    if listed.is_empty() {
        return y;
    }
    let mut y = y;
    rule(out, x0, y);
    y += 22;
    heading(out, x0 + 14, y, "Lying on the board");
    y += 4;
    for o in listed.iter().take(OBJECTS_LISTED) {
        y += 20;
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"21\" height=\"15\" rx=\"3\" fill=\"#8a5a3c\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"9.5\" font-weight=\"bold\" fill=\"#fff\" \
             text-anchor=\"middle\">{}</text>",
            x0 + 20,
            y - 11,
            x0 + 30,
            y,
            escape(&badge_letters(o.card))
        );
        small(out, x0 + 56, y, &format!("{} at {}", o.card.name(), o.at));
    }
    if listed.len() > OBJECTS_LISTED {
        y += 18;
        small(
            out,
            x0 + 56,
            y,
            &format!("and {} more", listed.len() - OBJECTS_LISTED),
        );
    }
    y + 16
}
