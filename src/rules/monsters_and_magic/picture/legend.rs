//! The panel beside the map: the game and its state in a line, the players (their colour,
//! letter and name, corner, figures and garrisons, whose turn), then what the colours and
//! symbols mean.

use super::super::data::{FigureKind, Structure, Terrain};
use super::super::state::{Phase, State};
use super::{INK, LEGEND_WIDTH, SOFT_INK, TOP, clip, icons, status, terrain_colour};
use crate::rules::picture::{escape, seat_colour};
use crate::rules::present::seat_name;
use crate::rules::{Seat, Viewer};

/// A neutral token colour for the legend's figure letters.
const NEUTRAL: &str = "#7a6a58";

/// Draws the legend with its left edge at `x0`; returns its bottom edge.
pub fn draw(
    out: &mut String,
    state: &State,
    viewer: Viewer,
    names: &[String],
    marks: &[char],
    x0: i32,
) -> i32 {
    let mut body = String::with_capacity(8_000);
    let x = x0 + 14;
    let half = LEGEND_WIDTH / 2;
    let mut y = TOP + 24;
    body.push_str(&format!(
        "<text x=\"{x}\" y=\"{y}\" font-size=\"17\" font-weight=\"bold\" fill=\"{INK}\">\
         Monsters and Magic</text>"
    ));
    y += 19;
    body.push_str(&format!(
        "<text x=\"{x}\" y=\"{y}\" font-size=\"12\" fill=\"{SOFT_INK}\">{}</text>",
        escape(&clip(&status(state, viewer, names), 37))
    ));

    y += 12;
    heading(&mut body, x, &mut y, "Players");
    for seat in 0..state.seats() {
        player(&mut body, state, viewer, names, marks, seat, x, y);
        y += 38;
    }

    y -= 6;
    heading(&mut body, x, &mut y, "Terrain");
    let terrains: Vec<(Option<Terrain>, &str)> = Terrain::ALL
        .iter()
        .map(|&t| (Some(t), t.name()))
        .chain(std::iter::once((None, "Not laid yet")))
        .collect();
    for (i, (terrain, name)) in terrains.iter().enumerate() {
        let i = i32::try_from(i).unwrap_or(0);
        let (cx, cy) = (x + (i % 2) * half, y + (i / 2) * 24);
        body.push_str(&format!(
            "<rect x=\"{cx}\" y=\"{}\" width=\"18\" height=\"18\" rx=\"3\" fill=\"{}\" \
             stroke=\"#7d6a52\"/>{}",
            cy - 9,
            terrain_colour(*terrain),
            label(cx + 26, cy + 4, name)
        ));
    }
    y += 24 * 3 - 6;

    heading(&mut body, x, &mut y, "Structures");
    for (i, s) in Structure::ALL.iter().enumerate() {
        let i = i32::try_from(i).unwrap_or(0);
        let (cx, cy) = (x + (i % 2) * half, y + (i / 2) * 28);
        icons::structure(&mut body, *s, cx - 2, cy - 11);
        body.push_str(&label(cx + 26, cy + 4, s.name()));
    }
    y += 28 * 4 - 8;

    heading(&mut body, x, &mut y, "Units");
    for (i, k) in FigureKind::ALL.iter().enumerate() {
        let i = i32::try_from(i).unwrap_or(0);
        let (cx, cy) = (x + (i % 2) * half, y + (i / 2) * 28);
        icons::token(&mut body, cx + 9, cy, 10, NEUTRAL, icons::kind_letter(*k));
        body.push_str(&label(cx + 26, cy + 4, k.name()));
    }
    y += 28 * 2;
    // A garrison: the border and flag of its square.
    body.push_str(&format!(
        "<rect x=\"{x}\" y=\"{}\" width=\"20\" height=\"20\" rx=\"3\" fill=\"none\" \
         stroke=\"{NEUTRAL}\" stroke-width=\"3\"/>",
        y - 10
    ));
    icons::flag(&mut body, x + 4, y - 8, 16, NEUTRAL, '#');
    body.push_str(&label(x + 26, y + 4, "Garrison"));
    // A corner: the bracket outside the map.
    body.push_str(&format!(
        "<path d=\"M{} {}V{}H{}\" fill=\"none\" stroke=\"{NEUTRAL}\" stroke-width=\"5\" \
         stroke-linecap=\"round\" stroke-linejoin=\"round\"/>{}",
        x + half + 2,
        y - 9,
        y + 9,
        x + half + 20,
        label(x + half + 26, y + 4, "Start corner")
    ));
    // What only shows now: the figure moving, a fight.
    let extras: Vec<&str> = [
        state.moving.is_some().then_some("Moving now"),
        matches!(state.phase, Phase::Combat(_)).then_some("Fight"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !extras.is_empty() {
        y += 28;
    }
    for (i, text) in extras.iter().enumerate() {
        let cx = x + i32::try_from(i).unwrap_or(0) * half;
        if *text == "Fight" {
            body.push_str(&format!(
                "<rect x=\"{cx}\" y=\"{}\" width=\"20\" height=\"20\" fill=\"none\" \
                 stroke=\"#d11f1f\" stroke-width=\"3\" stroke-dasharray=\"5 3\"/>",
                y - 10
            ));
        } else {
            body.push_str(&format!(
                "<circle cx=\"{}\" cy=\"{y}\" r=\"10\" fill=\"none\" stroke=\"#ffd23f\" \
                 stroke-width=\"3\"/>",
                cx + 10
            ));
        }
        body.push_str(&label(cx + 26, y + 4, text));
    }
    y += 22;

    out.push_str(&format!(
        "<g data-legend=\"\" pointer-events=\"none\"><rect x=\"{x0}\" y=\"{}\" width=\"{}\" \
         height=\"{}\" rx=\"10\" fill=\"#fbf6ea\" stroke=\"#c9b99a\" stroke-width=\"1.5\"/>",
        TOP - 2,
        LEGEND_WIDTH,
        y - TOP + 2
    ));
    out.push_str(&body);
    out.push_str("</g>");
    y
}

/// A section's title with a rule under it; moves `y` to its first row.
fn heading(out: &mut String, x: i32, y: &mut i32, title: &str) {
    *y += 24;
    out.push_str(&format!(
        "<text x=\"{x}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" fill=\"{INK}\" \
         letter-spacing=\"0.5\">{}</text><path d=\"M{x} {}h{}\" stroke=\"#c9b99a\"/>",
        *y,
        escape(title),
        *y + 5,
        LEGEND_WIDTH - 28
    ));
    *y += 22;
}

fn label(x: i32, y: i32, text: &str) -> String {
    format!(
        "<text x=\"{x}\" y=\"{y}\" font-size=\"12\" fill=\"{INK}\">{}</text>",
        escape(text)
    )
}

/// One player: a token in their colour with their letter, the name, "to play", and a line of
/// public counts (corner, figures, garrisons) or "out of the game".
#[allow(clippy::too_many_arguments)]
fn player(
    out: &mut String,
    state: &State,
    viewer: Viewer,
    names: &[String],
    marks: &[char],
    seat: Seat,
    x: i32,
    y: i32,
) {
    let mark = marks.get(seat).copied().unwrap_or('?');
    icons::token(out, x + 11, y + 2, 11, seat_colour(seat), mark);
    let playing = match &state.phase {
        Phase::Corner { seat: s }
        | Phase::StartFigure { seat: s }
        | Phase::ExtraFigure { seat: s } => *s == seat,
        Phase::Over(o) => o.winners.contains(&seat),
        _ => state.turn > 0 && state.current == seat,
    };
    // What fits on the line (bold 13 px), beside "to play" or "winner" when it is there.
    let mut room: usize = if playing { 18 } else { 24 };
    let you = viewer == Viewer::Seat(seat);
    if you {
        room -= 6;
    }
    let mut name = clip(&seat_name(names, seat), room);
    if you {
        name.push_str(" (you)");
    }
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" fill=\"{INK}\">{}</text>",
        x + 30,
        y,
        escape(&name)
    ));
    if playing {
        let word = if matches!(state.phase, Phase::Over(_)) {
            "winner"
        } else {
            "to play"
        };
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{y}\" font-size=\"11\" font-weight=\"bold\" fill=\"{}\" \
             text-anchor=\"end\">{word}</text>",
            x + LEGEND_WIDTH - 28,
            seat_colour(seat)
        ));
    }
    let mut facts: Vec<String> = Vec::new();
    let player = state.players.get(seat);
    if let Some(corner) = player.and_then(|p| p.corner) {
        facts.push(format!("corner {corner}"));
    }
    let figures = state.figures.iter().filter(|f| f.owner == seat).count();
    let garrisons = state.garrisons_on_map(seat);
    if state.turn > 0 && !state.has_units(seat) {
        facts.push("out of the game".to_owned());
    } else if figures > 0 || garrisons > 0 {
        facts.push(plural(figures, "figure", "figures"));
        facts.push(plural(garrisons, "garrison", "garrisons"));
    }
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{SOFT_INK}\">{}</text>",
        x + 30,
        y + 15,
        escape(&facts.join(" · "))
    ));
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}
