//! The board: each tile a `<polygon data-target="tile-7">` as the tiles lie on the table,
//! face-up tiles tinted with the colour of the player whose tribe they belong to and carrying
//! the Clan's number in a ring (near the horizontal edge, as the text diagram writes it),
//! crystal mines with a violet border and a gem, flipped tiles dark and hatched, blockades as a
//! dashed frame in the blocker's colour, the tile numbers near the tips; the Leader starts
//! while Leaders are placed, the crumbling earth's tied tiles, a declared attack; then the
//! units on each tile as tokens in their owner's colour (a cone for a Leader, a disc for a
//! Clan, labelled like the text diagram, "AL", "A3"), the moving unit ringed in gold, the
//! unit attacked in red, a falling unit dashed, counters as small badges.

use super::super::board::Position;
use super::super::data::Token;
use super::super::state::{Phase, State, UnitRef};
use super::{ALARM, CRYSTAL, Frame, GOLD, INK, SOFT_INK, icons, n, tile_target, unit_target};
use crate::rules::picture::{escape, seat_colour};

/// The outline of tiles and the fill of face-up tiles of no player.
const EDGE: &str = "#7d6a52";
const PLAIN: &str = "#e4ddcd";
/// What a flipped tile's hatching is drawn on.
const CHASM: &str = "#4a3d33";

/// The hatching of flipped tiles.
pub fn defs(out: &mut String) {
    out.push_str(&format!(
        "<defs><pattern id=\"gw-flipped\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" \
         patternTransform=\"rotate(45)\"><rect width=\"8\" height=\"8\" fill=\"{CHASM}\"/>\
         <path d=\"M0 0V8\" stroke=\"#6d5c4d\" stroke-width=\"3\"/></pattern></defs>"
    ));
}

pub fn draw(out: &mut String, state: &State, frame: &Frame, letters: &[char]) {
    let g = state.geometry();
    for t in g.ids() {
        let Some(p) = g.tile(t) else { continue };
        out.push_str(&format!(
            "<polygon data-target=\"{}\" points=\"{}\" fill=\"{}\" stroke=\"{EDGE}\" \
             stroke-width=\"1.2\" stroke-linejoin=\"round\"/>",
            tile_target(t),
            points(&frame.corners(p)),
            tile_fill(state, t)
        ));
    }
    out.push_str("<g pointer-events=\"none\">");
    for t in g.ids() {
        if let Some(p) = g.tile(t) {
            face(out, state, frame, t, p);
        }
    }
    marks(out, state, frame);
    for t in g.ids() {
        if let Some(p) = g.tile(t) {
            units(out, state, frame, t, p, letters);
        }
    }
    out.push_str("</g>");
}

fn points(corners: &[(f64, f64)]) -> String {
    corners
        .iter()
        .map(|&(x, y)| format!("{},{}", n(x), n(y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The corners of the tile pulled towards its centre (`k` = 1 is the tile itself).
fn inset(frame: &Frame, p: &Position, k: f64) -> [(f64, f64); 3] {
    let c = frame.corners(p);
    let (cx, cy) = c
        .iter()
        .fold((0.0, 0.0), |(x, y), (a, b)| (x + a / 3.0, y + b / 3.0));
    c.map(|(x, y)| (cx + (x - cx) * k, cy + (y - cy) * k))
}

/// The player whose tribe a tile belongs to.
fn tile_owner(state: &State, t: u8) -> Option<usize> {
    let card = state.tile(t)?.card?;
    state
        .players
        .iter()
        .position(|p| p.tribe == Some(card.tribe))
}

fn tile_fill(state: &State, t: u8) -> String {
    if state.flipped(t) {
        return "url(#gw-flipped)".to_owned();
    }
    tile_owner(state, t).map_or_else(|| PLAIN.to_owned(), |o| tint(seat_colour(o), 0.3))
}

/// `colour` ("#rrggbb") mixed with `amount` of it over a light paper.
pub fn tint(colour: &str, amount: f64) -> String {
    let paper = [0xfb_u8, 0xf7, 0xee];
    let channel = |i: usize| {
        let own = colour
            .get(1 + 2 * i..3 + 2 * i)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or(0x88);
        let base = f64::from(paper.get(i).copied().unwrap_or(0xff));
        (base + (f64::from(own) - base) * amount).round() as u8
    };
    format!("#{:02x}{:02x}{:02x}", channel(0), channel(1), channel(2))
}

/// A tile's number, its Clan ring, the crystal mine's border and gem, a blockade.
fn face(out: &mut String, state: &State, frame: &Frame, t: u8, p: &Position) {
    let s = frame.side;
    let flipped = state.flipped(t);
    if p.mine {
        out.push_str(&format!(
            "<polygon points=\"{}\" fill=\"none\" stroke=\"{CRYSTAL}\" stroke-width=\"{}\" \
             stroke-linejoin=\"round\" opacity=\"0.75\"/>",
            points(&inset(frame, p, 0.86)),
            n((s * 0.04).max(2.5))
        ));
        icons::crystal(out, frame.along(p, 0.83, s * 0.27), s * 0.15);
    }
    if !flipped && let Some(card) = state.tile(t).and_then(|x| x.card) {
        let colour = tile_owner(state, t).map_or(SOFT_INK, seat_colour);
        let (x, y) = frame.along(p, 0.83, -s * 0.27);
        let r = (s * 0.085).max(6.5);
        out.push_str(&format!(
            "<circle data-clan=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#fffdf7\" \
             stroke=\"{colour}\" stroke-width=\"2\"/><text x=\"{}\" y=\"{}\" font-size=\"{}\" \
             font-weight=\"bold\" fill=\"{colour}\" text-anchor=\"middle\">{}</text>",
            card.clan,
            n(x),
            n(y),
            n(r),
            n(x),
            n(y + r * 0.45),
            n(r * 1.3),
            card.clan
        ));
    }
    if let Some(by) = state.tile(t).and_then(|x| x.blockade) {
        out.push_str(&format!(
            "<polygon data-blockade=\"{by}\" points=\"{}\" fill=\"none\" stroke=\"{}\" \
             stroke-width=\"4\" stroke-dasharray=\"9 4\" stroke-linejoin=\"round\"/>",
            points(&inset(frame, p, 0.72)),
            seat_colour(by)
        ));
    }
    let size = (s * 0.115).clamp(9.0, 13.0);
    let (x, y) = frame.along(p, 0.27, 0.0);
    let ink = if flipped { "#eadfcb" } else { SOFT_INK };
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{ink}\" text-anchor=\"middle\">{t}</text>",
        n(x),
        n(y + size * 0.36),
        n(size)
    ));
}

/// What only shows now: free Leader starts, the crumbling earth's tied tiles, an attack.
fn marks(out: &mut String, state: &State, frame: &Frame) {
    let g = state.geometry();
    let frame_of = |out: &mut String, t: u8, k: f64, colour: &str, dash: &str, what: &str| {
        if let Some(p) = g.tile(t) {
            out.push_str(&format!(
                "<polygon {what}=\"{t}\" points=\"{}\" fill=\"none\" stroke=\"{colour}\" \
                 stroke-width=\"3\" stroke-dasharray=\"{dash}\" stroke-linejoin=\"round\"/>",
                points(&inset(frame, p, k))
            ));
        }
    };
    if matches!(state.phase, Phase::Leaders) {
        for t in super::super::setup::leader_choices(state) {
            frame_of(out, t, 0.93, GOLD, "6 3", "data-start");
        }
    }
    for &t in &state.solo_choice {
        frame_of(out, t, 0.93, ALARM, "6 3", "data-crumble");
    }
    if let Some(a) = &state.attack {
        frame_of(out, a.tile, 0.95, ALARM, "none", "data-attack");
    }
}

/// Where the tokens of `count` units go on a tile, and their radius: one row across the middle
/// and one between the Clan ring and the gem, the tokens smaller the more there are; every
/// unit gets a token (overlapping only on a tile more crowded than play makes them).
fn layout(frame: &Frame, p: &Position, count: usize) -> (Vec<(f64, f64)>, f64) {
    let s = frame.side;
    let row = |f: f64, k: usize, step: f64| {
        (0..k).map(move |i| {
            let dx = (i as f64 - (k as f64 - 1.0) / 2.0) * step;
            frame.along(p, f, dx)
        })
    };
    let mut r = if count <= 2 {
        (s * 0.14).clamp(8.0, 15.0)
    } else {
        (s * 0.11).clamp(7.0, 12.0)
    };
    loop {
        let step = 2.0 * r + 3.0;
        let fits = |width: f64| ((width - 2.0 * r) / step).floor().max(0.0) as usize + 1;
        let first = fits(0.5 * s).min(count);
        let second = fits(0.40 * s).min(count - first);
        if first + second == count {
            let spots = if second == 0 {
                row(0.6, first, step).collect()
            } else {
                row(0.56, first, step)
                    .chain(row(0.85, second, step))
                    .collect()
            };
            return (spots, r);
        }
        if r <= 5.0 {
            break;
        }
        r -= 0.5;
    }
    // Very crowded: two rows squeezed across the tile.
    let first = count.div_ceil(2);
    let second = count - first;
    let squeeze = |width: f64, k: usize| (width - 2.0 * r) / (k.max(2) as f64 - 1.0);
    let spots = row(0.56, first, squeeze(0.5 * s, first))
        .chain(row(0.85, second, squeeze(0.75 * s, second)))
        .collect();
    (spots, r)
}

fn units(out: &mut String, state: &State, frame: &Frame, t: u8, p: &Position, letters: &[char]) {
    let here = state.units_on(t);
    if here.is_empty() {
        return;
    }
    let (spots, r) = layout(frame, p, here.len());
    for (u, spot) in here.iter().zip(spots) {
        unit(out, state, *u, spot, r, letters);
    }
}

/// One unit's token, with its rings and counters.
fn unit(
    out: &mut String,
    state: &State,
    u: UnitRef,
    (cx, cy): (f64, f64),
    r: f64,
    letters: &[char],
) {
    let ring = |out: &mut String, colour: &str, dash: &str| {
        out.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{colour}\" \
             stroke-width=\"3\" stroke-dasharray=\"{dash}\"/>",
            n(cx),
            n(cy),
            n(r + 4.0)
        ));
    };
    if state.current() == Some(u.owner) && state.moving == Some(u.slot) {
        ring(out, GOLD, "none");
    }
    if state.attack.is_some_and(|a| a.target == u) {
        ring(out, ALARM, "none");
    }
    if state.falls.contains(&u) {
        ring(out, ALARM, "3 2");
    }
    let letter = letters.get(u.owner).copied().unwrap_or('?');
    let label = if u.slot == 0 {
        format!("{letter}L")
    } else {
        format!("{letter}{}", u.slot)
    };
    out.push_str(&format!("<g data-unit=\"{}-{}\">", u.owner, u.slot));
    icons::token(
        out,
        (cx, cy),
        r,
        seat_colour(u.owner),
        &label,
        u.slot == 0,
        &format!(
            "data-target=\"{}\" pointer-events=\"visiblePainted\"",
            unit_target(u)
        ),
    );
    out.push_str("</g>");
    let mut counters: Vec<Token> = state
        .unit(u)
        .map(|x| x.counters.iter().map(|c| c.token).collect())
        .unwrap_or_default();
    counters.sort_unstable();
    counters.dedup();
    for (i, token) in counters.iter().enumerate() {
        let (bx, by) = (cx + r * 0.85 + i as f64 * 9.0, cy - r * 0.85);
        out.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"5.5\" fill=\"{INK}\" stroke=\"#fff\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"8\" font-weight=\"bold\" fill=\"#fff\" \
             text-anchor=\"middle\">{}</text>",
            n(bx),
            n(by),
            n(bx),
            n(by + 3.0),
            escape(counter_mark(*token))
        ));
    }
}

/// A counter's badge letter (the legend's key explains them).
pub fn counter_mark(token: Token) -> &'static str {
    match token {
        Token::Flying => "F",
        Token::Sleeping => "z",
        Token::LingeringAttack => "!",
        Token::NoAttack => "a",
        Token::NoMovement => "m",
    }
}
