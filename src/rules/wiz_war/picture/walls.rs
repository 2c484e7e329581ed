//! The border lines: walls, doors, created walls and destroyed lines, each with
//! `data-line="c4-east"` (the line's canonical name: a square and its east or south side, or
//! the side on the board's rim) and `data-kind`: `wall`, `outer`, `door`, `created` (Create
//! Wall, Wall of Earth), `fire` (Wall of Fire) or `destroyed` (open rubble); and the exits on
//! the board's rim (wraparound and portals).

use std::fmt::Write as _;

use super::super::board::{Dir, Edge, EdgeKind, Pos};
use super::super::cards::Effect;
use super::super::state::State;
use super::{CELL, GOLD, INK, corner};
use crate::rules::picture::{escape, seat_colour};

/// The two ends of side `d` of `p`.
fn ends(p: Pos, d: Dir) -> (i32, i32, i32, i32) {
    let (x, y) = corner(p);
    match d {
        Dir::North => (x, y, x + CELL, y),
        Dir::South => (x, y + CELL, x + CELL, y + CELL),
        Dir::West => (x, y, x, y + CELL),
        Dir::East => (x + CELL, y, x + CELL, y + CELL),
    }
}

/// Every border line with something on it, each once.
pub(super) fn lines(out: &mut String, state: &State) {
    let b = &state.board;
    let mut plain = String::new();
    let mut rim = String::new();
    let mut rest = String::new();
    for p in b.squares() {
        for d in Dir::ALL {
            let own = matches!(d, Dir::East | Dir::South) || !b.exists(p.step(d));
            let Some(e) = b.edge(p, d).filter(|_| own) else {
                continue;
            };
            // A slot whose sector is not placed yet has no lines of its own.
            let placed = |q: Pos| {
                b.slot_of(q)
                    .and_then(|i| b.slots.get(i))
                    .is_some_and(|s| s.sector.is_some())
            };
            if e.created.is_none() && !e.destroyed && e.kind == EdgeKind::Open
                || !placed(p) && !placed(p.step(d))
            {
                continue;
            }
            let id = format!("{p}-{}", d.name());
            let (x1, y1, x2, y2) = ends(p, d);
            let seg = format!("M{x1} {y1}L{x2} {y2}");
            if let Some(c) = e.created {
                // A created door: a door panel of its caster's colour (Create Door).
                if c.card.effect() == Effect::CreateDoor
                    && let Some(caster) = state.caster_of(c.spell)
                {
                    door(
                        &mut rest,
                        &id,
                        state.colour_of(caster),
                        (false, false),
                        (x1, y1, x2, y2),
                    );
                    crack(&mut rest, e, c.cracks, (x1, y1, x2, y2));
                    continue;
                }
                let (kind, wide, narrow, dash) = match c.card.effect() {
                    Effect::WallOfFire => ("fire", "#d9480f", "#ffd43b", "5 4"),
                    Effect::WallOfEarth => ("created", "#7a5230", "#b0875a", "3 5"),
                    _ => ("created", "#5f3f95", "#c8b4ec", "4 4"),
                };
                let _ = write!(
                    rest,
                    "<g data-line=\"{id}\" data-kind=\"{kind}\"><title>{}</title><path d=\"{seg}\" \
                     stroke=\"{wide}\" stroke-width=\"8\" stroke-linecap=\"round\"/><path \
                     d=\"{seg}\" stroke=\"{narrow}\" stroke-width=\"3\" stroke-dasharray=\"{dash}\"/>\
                     </g>",
                    escape(&c.card.name())
                );
                crack(&mut rest, e, c.cracks, (x1, y1, x2, y2));
                continue;
            }
            if e.destroyed {
                let _ = write!(
                    rest,
                    "<path data-line=\"{id}\" data-kind=\"destroyed\" d=\"{seg}\" \
                     stroke=\"#9c8a70\" stroke-width=\"2\" stroke-dasharray=\"2 5\"/>"
                );
                continue;
            }
            match e.kind {
                EdgeKind::Open => {}
                EdgeKind::Wall => {
                    let _ = write!(
                        plain,
                        "<path data-line=\"{id}\" data-kind=\"wall\" d=\"{seg}\"/>"
                    );
                    crack(&mut rest, e, e.cracks, (x1, y1, x2, y2));
                }
                EdgeKind::Outer => {
                    let _ = write!(
                        rim,
                        "<path data-line=\"{id}\" data-kind=\"outer\" d=\"{seg}\"/>"
                    );
                }
                EdgeKind::Door(seat) => {
                    let picked = state.turn.picked.contains(&b.canonical(p, d));
                    let sealed = state.sealed(p, d);
                    door(
                        &mut rest,
                        &id,
                        state.colour_of(seat),
                        (picked && !sealed, sealed),
                        (x1, y1, x2, y2),
                    );
                    crack(&mut rest, e, e.cracks, (x1, y1, x2, y2));
                }
            }
        }
    }
    let _ = write!(
        out,
        "<g stroke=\"{INK}\" stroke-width=\"8\" stroke-linecap=\"square\">{rim}</g>\
         <g stroke=\"{INK}\" stroke-width=\"6\" stroke-linecap=\"square\">{plain}</g>{rest}"
    );
}

/// A door: wall stubs at both ends and a panel of its seat's colour between them; a door
/// unlocked this turn (Pick Lock) stands swung open; a sealed one (Seal Door) is crossed out
/// in dark ink (`data-sealed`).
fn door(
    out: &mut String,
    id: &str,
    colour: u8,
    (open, sealed): (bool, bool),
    (x1, y1, x2, y2): (i32, i32, i32, i32),
) {
    let stub = CELL / 5;
    let c = seat_colour(usize::from(colour));
    let horizontal = y1 == y2;
    let (sx, sy) = if horizontal { (stub, 0) } else { (0, stub) };
    let _ = write!(
        out,
        "<g data-line=\"{id}\" data-kind=\"door\" data-open=\"{open}\"{}><title>{} door{}</title>\
         <path d=\"M{x1} {y1}l{sx} {sy}M{x2} {y2}l{} {}\" stroke=\"{INK}\" stroke-width=\"6\" \
         stroke-linecap=\"square\"/>",
        if sealed { " data-sealed=\"true\"" } else { "" },
        super::super::state::colour_name(colour),
        if sealed {
            ", sealed (nobody passes it)"
        } else if open {
            ", unlocked this turn"
        } else {
            ""
        },
        -sx,
        -sy
    );
    let len = CELL - 2 * stub;
    let thick = 9;
    // The panel: along the line when shut, across it from the hinge when open.
    let (x, y, w, h) = match (horizontal, open) {
        (true, false) => (x1 + stub, y1 - thick / 2, len, thick),
        (false, false) => (x1 - thick / 2, y1 + stub, thick, len),
        (true, true) => (x1 + stub - thick / 2, y1 - len, thick, len),
        (false, true) => (x1 - len, y1 + stub - thick / 2, len, thick),
    };
    let _ = write!(
        out,
        "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"2\" fill=\"{c}\" \
         stroke=\"{INK}\" stroke-width=\"1.5\"/>"
    );
    if !open {
        // A keyhole dot in the middle of the panel.
        let _ = write!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"1.8\" fill=\"{GOLD}\"/>",
            x + w / 2,
            y + h / 2
        );
    }
    if sealed {
        // The seal: a dark cross over the panel.
        let _ = write!(
            out,
            "<path d=\"M{x} {y}l{w} {h}M{} {y}l{} {h}\" stroke=\"{INK}\" stroke-width=\"2\"/>",
            x + w,
            -w
        );
    }
    out.push_str("</g>");
}

/// Cracks on a damaged wall, door or created wall: a light zigzag across its middle.
fn crack(out: &mut String, e: &Edge, cracks: u8, (x1, y1, x2, y2): (i32, i32, i32, i32)) {
    if cracks == 0 || e.destroyed {
        return;
    }
    let (mx, my) = ((x1 + x2) / 2, (y1 + y2) / 2);
    let d = if y1 == y2 {
        format!("M{} {}l3 6l3 -6l3 6", mx - 4, my - 3)
    } else {
        format!("M{} {}l6 3l-6 3l6 3", mx - 3, my - 4)
    };
    let _ = write!(
        out,
        "<path data-cracks=\"{cracks}\" d=\"{d}\" fill=\"none\" stroke=\"#f7f0e0\" \
         stroke-width=\"1.5\"/>"
    );
}

/// The exits on the rim: an arrow out of the board where a line leads round to the far edge,
/// a numbered violet one where it leads through a portal.
pub(super) fn exits(out: &mut String, state: &State) {
    let mut portals: Vec<(Pos, Dir)> = Vec::new();
    out.push_str("<g pointer-events=\"none\">");
    for l in &state.board.links {
        let (x1, y1, x2, y2) = ends(l.from, l.dir);
        let (mx, my) = ((x1 + x2) / 2, (y1 + y2) / 2);
        let (dx, dy) = l.dir.delta();
        let (dx, dy) = (i32::from(dx), i32::from(dy));
        let (tipx, tipy) = (mx + dx * 14, my + dy * 14);
        let (bx, by) = (mx + dx * 6, my + dy * 6);
        let (px, py) = (dy * 6, dx * 6);
        let d = format!(
            "M{} {}L{tipx} {tipy}L{} {}",
            bx + px,
            by + py,
            bx - px,
            by - py
        );
        if l.portal {
            // Number the pairs as they come: the way back is the other end of the same pair.
            let back = (l.to, l.heading.opposite());
            let pair = match portals
                .iter()
                .position(|&e| e == back || e == (l.from, l.dir))
            {
                Some(i) => i / 2 + 1,
                None => {
                    portals.push((l.from, l.dir));
                    portals.push(back);
                    portals.len() / 2
                }
            };
            let (lx, ly) = (mx + dx * 14 + dy * 12, my + dy * 14 + dx * 12);
            let _ = write!(
                out,
                "<g data-exit=\"{}-{}\"><title>portal {pair} to {}</title><path d=\"{d}\" \
                 fill=\"none\" stroke=\"#8e44ad\" stroke-width=\"3\" stroke-linejoin=\"round\"/>\
                 <text x=\"{lx}\" y=\"{}\" font-size=\"11\" font-weight=\"bold\" fill=\"#8e44ad\" \
                 text-anchor=\"middle\">{pair}</text></g>",
                l.from,
                l.dir.name(),
                l.to,
                ly + 4
            );
        } else {
            let _ = write!(
                out,
                "<path data-exit=\"{}-{}\" d=\"{d}\" fill=\"none\" stroke=\"#8a6d3b\" \
                 stroke-width=\"3\" stroke-linejoin=\"round\"><title>wraps round to {}</title>\
                 </path>",
                l.from,
                l.dir.name(),
                l.to
            );
        }
    }
    out.push_str("</g>");
}
