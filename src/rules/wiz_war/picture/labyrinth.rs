//! The board: floor squares (the clickable shapes), walls and doors, home bases, objects,
//! treasures, wizards, coordinate labels and the exits on the rim.
//!
//! Each square is a `<rect data-target="c4">`; everything drawn over the squares ignores the
//! pointer, so a click anywhere in a square reaches its rect. The lines and exits are drawn by
//! `walls.rs`.

use std::fmt::Write as _;

use super::super::board::{Pos, SECTOR};
use super::super::cards::{CardId, Effect, Trait};
use super::super::state::{State, leaded};
use super::{CELL, GOLD, INK, LEFT, TOP, corner, walls};

/// The colour of a transformation's ring and badge.
pub(super) const FORM: &str = "#7d3c98";
use crate::rules::picture::{escape, seat_colour};
use crate::rules::present::seat_name;
use crate::rules::{Seat, Viewer};

/// The floor of each seat's sector: a pale tint of its colour.
const FLOOR: [&str; 4] = ["#f4e2da", "#dfe7f3", "#dcebdc", "#f3ebcf"];
/// A slot whose sector is not placed yet.
const UNPLACED: &str = "#cfc7b6";
const GRID: &str = "#c9b99a";

pub(super) fn draw(
    out: &mut String,
    state: &State,
    viewer: Viewer,
    names: &[String],
    marks: &[char],
) {
    let board = &state.board;
    // A soft shadow under each sector, then the floor.
    for slot in &board.slots {
        let (x, y) = corner(slot.origin);
        let side = i32::from(SECTOR) * CELL;
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{side}\" height=\"{side}\" rx=\"3\" \
             fill=\"#000\" fill-opacity=\".18\"/>",
            x + 4,
            y + 4
        );
    }
    let _ = write!(out, "<g stroke=\"{GRID}\" stroke-width=\"1\">");
    for p in board.squares() {
        let sector = board
            .slot_of(p)
            .and_then(|i| board.slots.get(i))
            .and_then(|s| s.sector);
        let fill = sector
            .and_then(|c| FLOOR.get(usize::from(c)))
            .copied()
            .unwrap_or(UNPLACED);
        let (x, y) = corner(p);
        let _ = write!(
            out,
            "<rect data-target=\"{p}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" \
             fill=\"{fill}\"/>"
        );
    }
    out.push_str("</g>");
    // Everything else is drawn over the squares and lets clicks through to them.
    out.push_str("<g pointer-events=\"none\">");
    for slot in &board.slots {
        if slot.sector.is_none() {
            let (x, y) = corner(slot.origin);
            let mid = i32::from(SECTOR) * CELL / 2;
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"15\" \
                 fill=\"#8a7f6c\">sector not placed yet</text>",
                x + mid,
                y + mid + 5
            );
        }
    }
    for seat in 0..state.seats() {
        if let Some(home) = board.home(seat) {
            home_base(out, home, seat, state.colour_of(seat));
        }
    }
    for o in state.objects.iter().filter(|o| o.fills_square()) {
        filling(out, o.card, o.at);
    }
    if let Some(p) = state.casting.as_ref().and_then(|c| c.square) {
        let (x, y) = corner(p);
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#e67700\" \
             stroke-width=\"3\" stroke-dasharray=\"6 4\"/>",
            x + 3,
            y + 3,
            CELL - 6,
            CELL - 6
        );
    }
    walls::lines(out, state);
    small_objects(out, state);
    wizards(out, state, viewer, names, marks);
    treasures(out, state, names);
    out.push_str("</g>");
    // Coordinates along the north and west edges, as the presenter's diagram has them.
    let _ = write!(
        out,
        "<g pointer-events=\"none\" font-size=\"13\" fill=\"#6d5a43\" text-anchor=\"middle\">"
    );
    for x in 0..board.width {
        let letter = Pos(x, 0).to_string();
        let letter = letter.trim_end_matches(|c: char| c.is_ascii_digit());
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\">{letter}</text>",
            LEFT + i32::from(x) * CELL + CELL / 2,
            TOP - 18
        );
    }
    for y in 0..board.height {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            LEFT - 24,
            TOP + i32::from(y) * CELL + CELL / 2 + 5,
            i32::from(y) + 1
        );
    }
    out.push_str("</g>");
    walls::exits(out, state);
}

/// A home base: a rune circle in its seat's colour.
fn home_base(out: &mut String, p: Pos, seat: Seat, colour: u8) {
    let (x, y) = corner(p);
    let (cx, cy) = (x + CELL / 2, y + CELL / 2);
    let c = seat_colour(usize::from(colour));
    let _ = write!(
        out,
        "<g data-home=\"{seat}\"><circle cx=\"{cx}\" cy=\"{cy}\" r=\"21\" fill=\"{c}\" \
         fill-opacity=\".16\" stroke=\"{c}\" stroke-width=\"2\"/><circle cx=\"{cx}\" cy=\"{cy}\" \
         r=\"16\" fill=\"none\" stroke=\"{c}\" stroke-width=\"1.2\" stroke-dasharray=\"3 2.5\"/>\
         </g>"
    );
}

/// An object that fills its square: a stone block, fog or a dust cloud.
fn filling(out: &mut String, card: CardId, p: Pos) {
    let (x, y) = corner(p);
    let name = escape(&card.name());
    match card.effect() {
        Effect::Fog | Effect::DustCloud => {
            let _ = write!(
                out,
                "<g data-object=\"{p}\"><title>{name}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" \
                 height=\"{}\" rx=\"12\" fill=\"#e3e8ee\" fill-opacity=\".85\"/><path d=\"M{} {}q6 \
                 -5 12 0t12 0t12 0M{} {}q6 -5 12 0t12 0t12 0\" fill=\"none\" stroke=\"#9aa6b2\" \
                 stroke-width=\"2\"/></g>",
                x + 2,
                y + 2,
                CELL - 4,
                CELL - 4,
                x + 7,
                y + 17,
                x + 7,
                y + 35
            );
        }
        _ => {
            let _ = write!(
                out,
                "<g data-object=\"{p}\"><title>{name}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" \
                 height=\"{}\" rx=\"3\" fill=\"#8f8a82\" stroke=\"#4f4a44\" stroke-width=\"2\"/>\
                 <path d=\"M{} {}h{}M{} {}v{}M{} {}v{}\" stroke=\"#5f5a53\" stroke-width=\"1.5\"/>\
                 </g>",
                x + 5,
                y + 5,
                CELL - 10,
                CELL - 10,
                x + 5,
                y + CELL / 2,
                CELL - 10,
                x + CELL / 2,
                y + 5,
                CELL / 2 - 5,
                x + CELL / 3,
                y + CELL / 2,
                CELL / 2 - 5
            );
        }
    }
}

/// Two letters for an object's badge: the initials of a name of several words, or the first
/// two letters of one word.
pub(super) fn badge_letters(card: CardId) -> String {
    let name = card.name();
    let words: Vec<&str> = name.split_whitespace().collect();
    let letters: String = if words.len() > 1 {
        words
            .iter()
            .filter_map(|w| w.chars().next())
            .take(2)
            .collect()
    } else {
        name.chars().take(2).collect()
    };
    letters
}

/// Objects that do not fill their square: stone spikes, and items and creatures lying there.
fn small_objects(out: &mut String, state: &State) {
    let mut badges: Vec<(Pos, usize)> = Vec::new();
    for o in state.objects.iter().filter(|o| !o.fills_square()) {
        let (x, y) = corner(o.at);
        let name = escape(&o.card.name());
        if o.card.effect() == Effect::StoneSpikes {
            let base = y + CELL - 4;
            let mut d = String::new();
            for i in 0..4 {
                let left = x + 5 + i * 10;
                let _ = write!(d, "M{left} {base}l5 -12l5 12z");
            }
            let _ = write!(
                out,
                "<path data-object=\"{}\" d=\"{d}\" fill=\"#6e6a64\" stroke=\"#3f3b36\" \
                 stroke-width=\"1\"><title>{name}</title></path>",
                o.at
            );
            continue;
        }
        let n = match badges.iter_mut().find(|(p, _)| *p == o.at) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                badges.push((o.at, 0));
                0
            }
        };
        // Two badges fit in a square; the second says "+n" when there are more.
        let here = state
            .objects
            .iter()
            .filter(|q| q.at == o.at && !q.fills_square() && q.card.effect() != Effect::StoneSpikes)
            .count();
        let Ok(n) = i32::try_from(n) else { continue };
        if n > 1 {
            continue;
        }
        let more = (n == 1 && here > 2).then(|| format!("+{}", here - 1));
        let (bx, by) = (x + 3 + n * 23, y + 3);
        let creature = o.card.has_trait(Trait::Creature);
        let (fill, stroke) = if creature {
            ("#7b3f8c", "#3e1f47")
        } else {
            ("#8a5a3c", "#4a2e1d")
        };
        let letters = more.unwrap_or_else(|| escape(&badge_letters(o.card)));
        let _ = write!(
            out,
            "<g data-object=\"{}\"><title>{name}</title><rect x=\"{bx}\" y=\"{by}\" width=\"22\" \
             height=\"15\" rx=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\"/><text x=\"{}\" y=\"{}\" \
             font-size=\"9.5\" font-weight=\"bold\" fill=\"#fff\" text-anchor=\"middle\">{letters}\
             </text></g>",
            o.at,
            if creature { 7 } else { 3 },
            bx + 11,
            by + 11
        );
    }
}

/// A gem of `fill` with its centre at (cx, cy).
fn gem(out: &mut String, cx: i32, cy: i32, size: i32, fill: &str, title: &str) {
    let _ = write!(
        out,
        "<path d=\"M{cx} {}l{size} {size}l-{size} {size}l-{size} -{size}z\" fill=\"{fill}\" \
         stroke=\"{GOLD}\" stroke-width=\"2\" stroke-linejoin=\"round\"><title>{title}</title>\
         </path>",
        cy - size
    );
}

/// Treasures lying on the board (a carried one is drawn on its carrier).
fn treasures(out: &mut String, state: &State, names: &[String]) {
    let mut seen: Vec<Pos> = Vec::new();
    for (i, t) in state.treasures.iter().enumerate() {
        let Some(p) = t.at else { continue };
        let n = seen.iter().filter(|&&q| q == p).count();
        seen.push(p);
        let Ok(n) = i32::try_from(n) else { continue };
        let (x, y) = corner(p);
        let lead = leaded(state, i);
        let fill = if lead {
            "#7d7f82"
        } else {
            seat_colour(usize::from(state.colour_of(t.owner)))
        };
        let title = format!(
            "{}'s {} treasure{}",
            seat_name(names, t.owner),
            state.colour(t.owner),
            if lead { " (lead: Fool's Gold)" } else { "" }
        );
        let _ = write!(out, "<g data-treasure=\"{i}\">");
        gem(
            out,
            x + CELL - 11 - n * 13,
            y + CELL - 11,
            6,
            fill,
            &escape(&title),
        );
        out.push_str("</g>");
    }
}

fn wizards(out: &mut String, state: &State, viewer: Viewer, names: &[String], marks: &[char]) {
    for p in state.board.squares() {
        let here = state.wizards_at(p);
        if here.is_empty() {
            continue;
        }
        let (x, y) = corner(p);
        // Room at the top for the badges of objects lying there.
        let badges = state
            .objects
            .iter()
            .any(|o| o.at == p && !o.fills_square() && o.card.effect() != Effect::StoneSpikes);
        let (cx, cy) = (x + CELL / 2, y + CELL / 2 + if badges { 5 } else { 0 });
        let count = here.len();
        let r = match (count, badges) {
            (1, false) => 15,
            (1, true) => 13,
            (2, _) => 11,
            _ => 10,
        };
        for (i, &seat) in here.iter().enumerate() {
            let (dx, dy) = match (count, i) {
                (1, _) => (0, 0),
                (2, 0) => (-11, 0),
                (2, _) => (11, 0),
                (_, 0) => (-11, -10),
                (_, 1) => (11, -10),
                (_, 2) => (-11, 11),
                _ => (11, 11),
            };
            wizard(
                out,
                state,
                viewer,
                names,
                marks,
                seat,
                (cx + dx, cy + dy, r),
            );
        }
    }
}

fn wizard(
    out: &mut String,
    state: &State,
    viewer: Viewer,
    names: &[String],
    marks: &[char],
    seat: Seat,
    (cx, cy, r): (i32, i32, i32),
) {
    let Some(w) = state.wizard(seat) else { return };
    let c = seat_colour(usize::from(state.colour_of(seat)));
    let mark = marks.get(seat).copied().unwrap_or('?');
    let mut title = format!(
        "{} ({}{}), life {}",
        seat_name(names, seat),
        if viewer == Viewer::Seat(seat) {
            "you, "
        } else {
            ""
        },
        state.colour(seat),
        w.life
    );
    if let Some(t) = w.treasure.and_then(|i| state.treasures.get(i)) {
        title.push_str(&format!(
            ", carrying the {} treasure",
            state.colour(t.owner)
        ));
    }
    let form = state.form(seat);
    if let Some(f) = form {
        title.push_str(&format!(", transformed: {} ({})", f.name, f.words()));
    }
    // Invisible: drawn faint with a dashed rim (its square stays known, ruling 30).
    let invisible = state.invisible(seat);
    if invisible {
        title.push_str(", invisible (no spell needing sight can be cast at it)");
    }
    let _ = write!(
        out,
        "<g data-wizard=\"{seat}\"><title>{}</title>",
        escape(&title)
    );
    let active = state.turn.seat == seat && super::playing(state);
    if active {
        let _ = write!(
            out,
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"{GOLD}\" fill-opacity=\".35\" \
             stroke=\"{GOLD}\" stroke-width=\"2.5\"/>",
            r + 5
        );
    }
    let _ = write!(
        out,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{r}\" fill=\"#000\" fill-opacity=\".3\"/>\
         <circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"{c}\" stroke=\"#fff\" \
         stroke-width=\"2.5\"{}/><text x=\"{cx}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" \
         fill=\"#fff\" text-anchor=\"middle\">{}</text>",
        cx + 1,
        cy + 2,
        if invisible {
            " fill-opacity=\".4\" stroke-dasharray=\"3 2\" data-invisible=\"true\""
        } else {
            ""
        },
        cy + r * 2 / 5 + 1,
        r + 1,
        escape(&mark.to_string())
    );
    if let Some(t) = w.treasure.and_then(|i| state.treasures.get(i)) {
        gem(
            out,
            cx + r - 2,
            cy - r + 2,
            5,
            seat_colour(usize::from(state.colour_of(t.owner))),
            "treasure carried",
        );
    }
    if let Some(f) = form {
        // Transformed: a violet ring round the circle and the form's two letters on its
        // lower right.
        let (fx, fy) = (cx + r - 1, cy + r - 2);
        let _ = write!(
            out,
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"none\" stroke=\"{FORM}\" \
             stroke-width=\"2.5\" stroke-dasharray=\"4 2\"/><rect data-form=\"{}\" x=\"{}\" \
             y=\"{}\" width=\"16\" height=\"11\" rx=\"3\" fill=\"{FORM}\" stroke=\"#fff\"/>\
             <text x=\"{fx}\" y=\"{}\" font-size=\"8\" font-weight=\"bold\" fill=\"#fff\" \
             text-anchor=\"middle\">{}</text>",
            r + 3,
            escape(f.name),
            fx - 8,
            fy - 6,
            fy + 3,
            escape(&f.badge())
        );
    }
    if w.stun > 0 {
        // Stunned: a small dark badge with "z" on the circle's lower left.
        let (zx, zy) = (cx - r + 1, cy + r - 2);
        let _ = write!(
            out,
            "<circle cx=\"{zx}\" cy=\"{zy}\" r=\"6\" fill=\"{INK}\" stroke=\"#fff\"/>\
             <text x=\"{zx}\" y=\"{}\" font-size=\"9\" font-weight=\"bold\" fill=\"#fff\" \
             text-anchor=\"middle\">z</text>",
            zy + 3
        );
    }
    out.push_str("</g>");
}
