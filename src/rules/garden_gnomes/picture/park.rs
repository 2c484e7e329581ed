//! The park: the territories on a grid (the stock map as the text diagram lays it out: the ring
//! of homes and food around the four statues; any other map row by row), the passages between
//! them, the gnomes of each clan on each, this movement's moves as arrows and the battle.

use super::super::data::{Colour, Food, Token, neighbours, territories, territory_count};
use super::super::state::{Phase, State};
use super::{
    BOX_H, BOX_W, INK, LEFT, PITCH_X, PITCH_Y, SOFT_INK, TOP, clip, territory_id, token_id,
};
use crate::rules::picture::escape;

/// Grid cells of the stock map's territories (`map.json`), by territory number: (row, column).
/// The same layout as the presenter's diagram (`present/board.rs`).
const LAYOUT: [(usize, usize); 16] = [
    (0, 1), // Red Home
    (0, 2), // North Oak
    (0, 3), // Green Home
    (1, 4), // East Orchard
    (2, 4), // Yellow Home
    (3, 4), // Bramble Patch
    (4, 3), // Black Home
    (4, 2), // South Oak
    (4, 1), // White Home
    (3, 0), // West Orchard
    (2, 0), // Blue Home
    (1, 0), // Hedge Berries
    (1, 2), // Toadstool Statue
    (2, 3), // Frog Statue
    (3, 2), // Flamingo Statue
    (2, 1), // Gnome King Statue
];

/// Columns of a map that is not the stock one.
const COLUMNS: usize = 5;
/// The radius of a gnome token.
const TOKEN_R: i32 = 12;
/// The battle's outline.
const BATTLE: &str = "#c62828";
/// Passages: a gravel path.
const PATH: &str = "#c2ab7c";

/// Each territory's cell (row, column), by territory number.
pub fn cells() -> Vec<(usize, usize)> {
    let count = territory_count();
    if count == LAYOUT.len() {
        LAYOUT.to_vec()
    } else {
        (0..count).map(|i| (i / COLUMNS, i % COLUMNS)).collect()
    }
}

/// A clan's colour on the page, and the ink for a number written on it.
pub fn clan_fill(colour: Colour) -> (&'static str, &'static str) {
    match colour {
        Colour::Red => ("#c0392b", "#fff"),
        Colour::Green => ("#1e8449", "#fff"),
        Colour::Yellow => ("#e8b923", INK),
        Colour::Black => ("#2b2b2b", "#fff"),
        Colour::White => ("#fbfbf7", INK),
        Colour::Blue => ("#2e6fd8", "#fff"),
    }
}

/// What a territory is filled with: by what holding it loots.
pub fn territory_fill(yields: Option<Token>, statue: bool) -> &'static str {
    match yields {
        Some(Token::Acorn) => "#ead9b0",
        Some(Token::Apple) => "#f6d3c4",
        Some(Token::Berry) => "#e2d4ef",
        Some(Token::Gnome(_)) => "#fbf8ef",
        None if statue => "#d9d9d2",
        None => "#eeeeea",
    }
}

/// The fill of a food's swatch in the key.
pub fn food_fill(food: Food) -> &'static str {
    territory_fill(Some(Token::food(food)), false)
}

/// A gnome token: a disc in the clan's colour with a number on it; `target` makes the disc
/// clickable.
pub fn token(
    out: &mut String,
    cx: i32,
    cy: i32,
    r: i32,
    colour: Colour,
    n: u32,
    target: Option<&str>,
) {
    let (fill, ink) = clan_fill(colour);
    let target = target.map_or(String::new(), |t| {
        format!(" data-target=\"{}\" pointer-events=\"all\"", escape(t))
    });
    out.push_str(&format!(
        "<circle cx=\"{cx}\" cy=\"{}\" r=\"{r}\" fill=\"#000\" opacity=\"0.18\" \
         pointer-events=\"none\"/><circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"{fill}\" \
         stroke=\"{INK}\" stroke-width=\"1.2\"{target}/><text x=\"{cx}\" y=\"{}\" \
         font-size=\"{}\" font-weight=\"bold\" fill=\"{ink}\" text-anchor=\"middle\" \
         pointer-events=\"none\">{n}</text>",
        cy + 2,
        cy + r / 2 - 1,
        r + 1
    ));
}

/// The top-left corner of a cell.
fn origin(cell: (usize, usize)) -> (i32, i32) {
    let (row, col) = cell;
    (
        LEFT + i32::try_from(col).unwrap_or(0) * PITCH_X,
        TOP + i32::try_from(row).unwrap_or(0) * PITCH_Y,
    )
}

fn centre(cell: (usize, usize)) -> (i32, i32) {
    let (x, y) = origin(cell);
    (x + BOX_W / 2, y + BOX_H / 2)
}

/// A territory's name on its box: without the loot in brackets and without " Statue" (the
/// line under the name says "statue").
fn box_name(name: &str) -> String {
    let name = match name.find(" (") {
        Some(at) if name.ends_with(')') && at > 0 => name.get(..at).unwrap_or(name),
        _ => name,
    };
    let name = name.strip_suffix(" Statue").unwrap_or(name);
    clip(name, 17)
}

/// What holding a territory loots, in words for its box.
fn loot_line(yields: Option<Token>, statue: bool) -> String {
    match yields {
        Some(Token::Acorn) => "loot: acorn".into(),
        Some(Token::Apple) => "loot: apple".into(),
        Some(Token::Berry) => "loot: berry".into(),
        Some(Token::Gnome(c)) => format!("home · {} token", c.name()),
        None if statue => "statue".into(),
        None => "no loot".into(),
    }
}

/// Draws the park.
pub fn draw(out: &mut String, state: &State, cells: &[(usize, usize)]) {
    let battle = match &state.phase {
        Phase::Combat(combat) => Some(combat.territory),
        _ => None,
    };
    // The lawn under the park.
    let (right, bottom) = cells.iter().fold((0, 0), |(r, b), &c| {
        let (x, y) = origin(c);
        (r.max(x + BOX_W), b.max(y + BOX_H))
    });
    out.push_str(&format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"18\" fill=\"#dbe8c2\" \
         stroke=\"#a9c27f\" pointer-events=\"none\"/>",
        LEFT - 10,
        TOP - 10,
        right - LEFT + 20,
        bottom - TOP + 20
    ));
    // Passages, each once, under the boxes.
    out.push_str("<g pointer-events=\"none\" data-passages=\"\">");
    for (t, &cell) in cells.iter().enumerate() {
        let Ok(from) = u8::try_from(t) else { continue };
        for &to in neighbours(from) {
            if to <= from {
                continue;
            }
            let Some(&other) = cells.get(usize::from(to)) else {
                continue;
            };
            let (x1, y1) = centre(cell);
            let (x2, y2) = centre(other);
            out.push_str(&format!(
                "<path d=\"M{x1} {y1}L{x2} {y2}\" stroke=\"{PATH}\" stroke-width=\"9\" \
                 stroke-linecap=\"round\" data-passage=\"{from}-{to}\"/>"
            ));
        }
    }
    out.push_str("</g>");
    for (t, &cell) in cells.iter().enumerate() {
        let Ok(t) = u8::try_from(t) else { continue };
        territory(out, state, t, cell, battle == Some(t));
    }
    moves(out, state, cells);
}

/// One territory: its box (the target), name, loot, and the gnomes on it.
fn territory(out: &mut String, state: &State, t: u8, cell: (usize, usize), battle: bool) {
    let (x, y) = origin(cell);
    let card = territories().get(usize::from(t));
    let yields = card.and_then(|c| c.yields);
    let statue = card.is_some_and(|c| c.statue);
    let home = card.and_then(|c| c.home_of);
    let (stroke, width) = match home {
        Some(Colour::White) => ("#8c8c86", 4),
        Some(colour) => (clan_fill(colour).0, 4),
        None => ("#8a7a5c", 1),
    };
    out.push_str(&format!(
        "<rect x=\"{x}\" y=\"{y}\" width=\"{BOX_W}\" height=\"{BOX_H}\" rx=\"10\" fill=\"{}\" \
         stroke=\"{stroke}\" stroke-width=\"{width}\" data-target=\"{}\"/>",
        territory_fill(yields, statue),
        territory_id(t)
    ));
    let name = card.map_or_else(|| format!("territory {t}"), |c| box_name(&c.name));
    out.push_str(&format!(
        "<g pointer-events=\"none\"><text x=\"{}\" y=\"{}\" font-size=\"12\" \
         font-weight=\"bold\" fill=\"{INK}\" text-anchor=\"middle\">{}</text>\
         <text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"{SOFT_INK}\" \
         text-anchor=\"middle\">{}</text></g>",
        x + BOX_W / 2,
        y + 16,
        escape(&name),
        x + BOX_W / 2,
        y + 29,
        escape(&loot_line(yields, statue))
    ));
    if battle {
        out.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"13\" fill=\"none\" \
             stroke=\"{BATTLE}\" stroke-width=\"3\" stroke-dasharray=\"7 4\" \
             pointer-events=\"none\" data-battle=\"{}\"/>",
            x - 5,
            y - 5,
            BOX_W + 10,
            BOX_H + 10,
            territory_id(t)
        ));
    }
    // The clans present, in turn order: three to a row.
    let present: Vec<(Colour, u8)> = state
        .occupants(t)
        .into_iter()
        .filter_map(|i| state.clan(i))
        .filter_map(|c| c.colour.map(|colour| (colour, c.gnomes_at(t))))
        .collect();
    out.push_str(&format!("<g data-at=\"{}\">", territory_id(t)));
    for (k, (colour, n)) in present.iter().enumerate() {
        let k = i32::try_from(k).unwrap_or(0);
        let cx = x + 22 + (k % 3) * 32;
        let cy = y + 48 + (k / 3) * 28;
        let target = battle.then(|| token_id(t, *colour));
        token(
            out,
            cx,
            cy,
            TOKEN_R,
            *colour,
            u32::from(*n),
            target.as_deref(),
        );
    }
    out.push_str("</g>");
}

/// This movement's moves: an arrow in the moving clan's colour from each origin to each
/// destination, with "×2" where a move was made more than once.
fn moves(out: &mut String, state: &State, cells: &[(usize, usize)]) {
    let Phase::Movement { moves, .. } = &state.phase else {
        return;
    };
    let Some(colour) = state
        .mover()
        .and_then(|i| state.clan(i))
        .and_then(|c| c.colour)
    else {
        return;
    };
    let fill = match colour {
        Colour::White => "#6d6d68",
        Colour::Yellow => "#b8860b",
        c => clan_fill(c).0,
    };
    let mut distinct: Vec<([u8; 2], u32)> = Vec::new();
    for m in moves {
        if !distinct.iter().any(|(d, _)| d == m) {
            let times = moves.iter().filter(|other| *other == m).count();
            distinct.push((*m, u32::try_from(times).unwrap_or(u32::MAX)));
        }
    }
    if distinct.is_empty() {
        return;
    }
    out.push_str(&format!(
        "<g pointer-events=\"none\" data-moves=\"\"><defs><marker id=\"gg-arrow\" \
         viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"4\" markerHeight=\"4\" \
         orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\" fill=\"{fill}\"/></marker>\
         </defs>"
    ));
    for ([from, to], n) in distinct {
        let (Some(&a), Some(&b)) = (cells.get(usize::from(from)), cells.get(usize::from(to)))
        else {
            continue;
        };
        let (x1, y1) = centre(a);
        let (x2, y2) = centre(b);
        let (dx, dy) = (f64::from(x2 - x1), f64::from(y2 - y1));
        let length = (dx * dx + dy * dy).sqrt().max(1.0);
        // Start and end inside the boxes, clear of the centres.
        let cut = 26.0_f64.min(length / 3.0);
        let (ux, uy) = (dx / length, dy / length);
        let (sx, sy) = (f64::from(x1) + ux * cut, f64::from(y1) + uy * cut);
        let (ex, ey) = (f64::from(x2) - ux * cut, f64::from(y2) - uy * cut);
        out.push_str(&format!(
            "<path d=\"M{} {}L{} {}\" stroke=\"{fill}\" stroke-width=\"5\" opacity=\"0.85\" \
             stroke-linecap=\"round\" marker-end=\"url(#gg-arrow)\" data-move=\"{from}-{to}\"/>",
            sx.round(),
            sy.round(),
            ex.round(),
            ey.round()
        ));
        if n > 1 {
            let (mx, my) = (((sx + ex) / 2.0).round(), ((sy + ey) / 2.0).round());
            out.push_str(&format!(
                "<circle cx=\"{mx}\" cy=\"{my}\" r=\"10\" fill=\"#fff\" stroke=\"{fill}\" \
                 stroke-width=\"2\"/><text x=\"{mx}\" y=\"{}\" font-size=\"11\" \
                 font-weight=\"bold\" fill=\"{INK}\" text-anchor=\"middle\">×{n}</text>",
                my + 4.0
            ));
        }
    }
    out.push_str("</g>");
}
