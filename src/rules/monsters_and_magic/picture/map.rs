//! The 8×8 map: each square a `<rect data-target="d6">` in its terrain's colour with a little
//! texture (grass, trees, peaks, cracks), its structure on a badge (top left), a garrison as a
//! border and a flag in the owner's colour (top right), the figures as tokens side by side
//! (bottom), a fight as a dashed red frame, the moving figure ringed in gold; the players'
//! corners as brackets in their colours outside the map; a–h along the bottom, 1–8 up the side.

use super::super::data::{SIDE, Terrain};
use super::super::state::{Phase, Pos, State};
use super::{BOARD, CELL, INK, LEFT, SOFT_INK, TOP, icons, origin, terrain_colour};
use crate::rules::picture::seat_colour;

pub fn draw(out: &mut String, state: &State, marks: &[char]) {
    squares(out, state);
    out.push_str("<g pointer-events=\"none\">");
    textures(out, state);
    garrison_borders(out, state);
    frame(out);
    for at in Pos::all() {
        let (x, y) = origin(at);
        if let Some(s) = state.structure(at) {
            icons::structure(out, s, x + 6, y + 6);
        }
        if let Some(owner) = state.garrison(at) {
            let mark = marks.get(owner).copied().unwrap_or('?');
            icons::flag(out, x + 42, y + 7, 22, seat_colour(owner), mark);
        }
    }
    fight(out, state);
    figures(out, state);
    corners(out, state);
    labels(out);
    out.push_str("</g>");
}

/// The clickable squares, filled with their terrain's colour.
fn squares(out: &mut String, state: &State) {
    for at in Pos::all() {
        let (x, y) = origin(at);
        out.push_str(&format!(
            "<rect data-target=\"{at}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" \
             fill=\"{}\" stroke=\"#7d6a52\" stroke-width=\"1\"/>",
            terrain_colour(state.terrain(at))
        ));
    }
}

/// Where a square's texture marks go (relative to its corner), in three layouts so that
/// neighbouring squares of one terrain do not look stamped.
const SPOTS: [[(i32, i32); 4]; 3] = [
    [(36, 14), (20, 33), (50, 38), (12, 52)],
    [(33, 9), (13, 38), (52, 27), (36, 52)],
    [(28, 20), (53, 14), (10, 45), (46, 54)],
];

/// A texture per terrain: tufts of grass, pine trees, snowy peaks, cracks in dry earth.
fn textures(out: &mut String, state: &State) {
    for at in Pos::all() {
        let Some(terrain) = state.terrain(at) else {
            continue;
        };
        let (sx, sy) = origin(at);
        let layout = (usize::from(at.0) * 3 + usize::from(at.1) * 5) % SPOTS.len();
        let spots = SPOTS.get(layout).copied().unwrap_or(SPOTS[0]);
        let mut d = String::new();
        let mut light = String::new();
        for (dx, dy) in spots {
            let (x, y) = (sx + dx, sy + dy);
            match terrain {
                Terrain::Plains => d.push_str(&format!(
                    "M{} {}l2-6M{x} {}v-7M{} {}l-2-6",
                    x - 4,
                    y + 3,
                    y + 3,
                    x + 4,
                    y + 3
                )),
                Terrain::Forest => {
                    d.push_str(&format!("M{x} {}l-5 7h10zM{x} {}l-6 8h12z", y - 7, y - 3));
                    light.push_str(&format!("M{x} {}v3", y + 5));
                }
                Terrain::Mountains => {
                    d.push_str(&format!("M{} {}l9-12l9 12z", x - 9, y + 5));
                    light.push_str(&format!("M{x} {}l-3 4l3-1l3 1z", y - 7));
                }
                Terrain::Badlands => d.push_str(&format!(
                    "M{} {y}l4 3l3-4l4 3l3-2M{} {}h2",
                    x - 7,
                    x + 2,
                    y - 5
                )),
            }
        }
        let look = match terrain {
            Terrain::Plains => "fill=\"none\" stroke=\"#93a84f\" stroke-width=\"1.4\" \
                                stroke-linecap=\"round\""
                .to_owned(),
            Terrain::Forest => "fill=\"#3f7a35\" opacity=\"0.55\"".to_owned(),
            Terrain::Mountains => "fill=\"#8a7d70\" opacity=\"0.6\"".to_owned(),
            Terrain::Badlands => "fill=\"none\" stroke=\"#a4602f\" stroke-width=\"1.3\" \
                                  stroke-linecap=\"round\" stroke-linejoin=\"round\" \
                                  opacity=\"0.8\""
                .to_owned(),
        };
        out.push_str(&format!("<path d=\"{d}\" {look}/>"));
        if !light.is_empty() {
            let light_look = match terrain {
                Terrain::Forest => {
                    "fill=\"none\" stroke=\"#5b4030\" stroke-width=\"2\" \
                                    opacity=\"0.6\""
                }
                _ => "fill=\"#fbfaf5\" opacity=\"0.85\"",
            };
            out.push_str(&format!("<path d=\"{light}\" {light_look}/>"));
        }
    }
}

/// A garrison colours the inside edge of its square.
fn garrison_borders(out: &mut String, state: &State) {
    for at in Pos::all() {
        if let Some(owner) = state.garrison(at) {
            let (x, y) = origin(at);
            out.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"none\" \
                 stroke=\"{}\" stroke-width=\"4\"/>",
                x + 3,
                y + 3,
                CELL - 6,
                CELL - 6,
                seat_colour(owner)
            ));
        }
    }
}

/// The map's outline.
fn frame(out: &mut String) {
    out.push_str(&format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{INK}\" \
         stroke-width=\"3\"/>",
        LEFT - 1,
        TOP - 1,
        BOARD + 2,
        BOARD + 2
    ));
}

/// The square of a fight in progress, framed in dashed red.
fn fight(out: &mut String, state: &State) {
    if let Phase::Combat(c) = &state.phase
        && c.at.on_board()
    {
        let (x, y) = origin(c.at);
        out.push_str(&format!(
            "<rect data-fight=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" \
             stroke=\"#d11f1f\" stroke-width=\"3\" stroke-dasharray=\"7 4\"/>",
            c.at,
            x + 1,
            y + 1,
            CELL - 2,
            CELL - 2
        ));
    }
}

/// The figures of each square as tokens side by side along its lower half (in two rows when
/// more than three share it), in the order the state keeps them.
fn figures(out: &mut String, state: &State) {
    for at in Pos::all() {
        let here: Vec<_> = state.figures_at(at).collect();
        if here.is_empty() {
            continue;
        }
        let (sx, sy) = origin(at);
        let n = i32::try_from(here.len()).unwrap_or(1);
        let per_row = if n <= 3 { n } else { ((n + 1) / 2).min(4) };
        let rows = (n + per_row - 1) / per_row;
        let (r, step) = match per_row {
            1 | 2 => (
                if rows == 1 { 11 } else { 9 },
                if rows == 1 { 26 } else { 22 },
            ),
            3 => (9, 20),
            _ => (7, 15),
        };
        for (i, f) in here.iter().enumerate() {
            let i = i32::try_from(i).unwrap_or(0);
            let row = i / per_row;
            let in_row = (n - row * per_row).min(per_row);
            let col = i % per_row;
            let cx = sx + CELL / 2 + col * step - (in_row - 1) * step / 2;
            let cy = if rows == 1 {
                sy + 45
            } else {
                (sy + 53 - (rows - 1 - row) * (2 * r + 1)).max(sy + r)
            };
            if state.moving == Some(f.id) {
                out.push_str(&format!(
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"none\" stroke=\"#ffd23f\" \
                     stroke-width=\"3\"/>",
                    r + 4
                ));
            }
            out.push_str(&format!("<g data-figure=\"{}\" data-at=\"{at}\">", f.id));
            icons::token(
                out,
                cx,
                cy,
                r,
                seat_colour(f.owner),
                icons::kind_letter(f.kind),
            );
            out.push_str("</g>");
        }
    }
}

/// Each player's corner: a thick bracket in their colour around the map's corner there.
fn corners(out: &mut String, state: &State) {
    let length = CELL * 3 / 4;
    for (seat, player) in state.players.iter().enumerate() {
        let Some(corner) = player.corner.filter(|c| c.on_board()) else {
            continue;
        };
        let left = corner.0 == 0;
        let bottom = corner.1 == 0;
        let x = if left { LEFT - 9 } else { LEFT + BOARD + 9 };
        let y = if bottom { TOP + BOARD + 9 } else { TOP - 9 };
        let dx = if left { length } else { -length };
        let dy = if bottom { -length } else { length };
        out.push_str(&format!(
            "<path data-corner=\"{seat}\" d=\"M{x} {}V{y}H{}\" fill=\"none\" stroke=\"{}\" \
             stroke-width=\"6\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
            y + dy,
            x + dx,
            seat_colour(seat)
        ));
    }
}

/// Columns a–h under the map, rows 1–8 to its left (row 8 at the top).
fn labels(out: &mut String) {
    out.push_str(&format!(
        "<g font-size=\"15\" font-weight=\"bold\" fill=\"{SOFT_INK}\" text-anchor=\"middle\">"
    ));
    for i in 0..SIDE {
        let column = char::from(b'a' + i);
        let x = LEFT + i32::from(i) * CELL + CELL / 2;
        out.push_str(&format!(
            "<text x=\"{x}\" y=\"{}\">{column}</text>",
            TOP + BOARD + 30
        ));
        let row = i + 1;
        let (_, y) = origin(Pos(0, i));
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\">{row}</text>",
            LEFT - 24,
            y + CELL / 2 + 5
        ));
    }
    out.push_str("</g>");
}
