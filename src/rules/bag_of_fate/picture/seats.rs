//! The players' seats, one panel each in seat order: the name and seat colour, whose turn,
//! level, gems left and in the bag, cards in hand (a number), character and turn space; the
//! progress towards each element's set; the face-up cards and kept tokens; and, on the
//! viewer's own seat only, their hand.

use super::super::data::{Card, Element};
use super::super::state::{Item, Phase, Player, State};
use super::{
    CARD_PITCH, GOLD, INK, INNER, LEFT, PANEL, SOFT_INK, card, card_kinds, chip, clip,
    element_fill, element_key, item_id, plural, text,
};
use crate::rules::picture::{escape, seat_colour};
use crate::rules::present::seat_name;
use crate::rules::{Seat, Viewer};

/// The top part of a seat: name, counts and the set chips.
const HEAD_H: i32 = 70;
/// A row of cards and tokens.
const ROW_H: i32 = 66;
/// The set chips.
const CHIP_W: i32 = 100;
const CHIP_PITCH: i32 = 104;
const CHIPS_X: i32 = 322;

/// Draws every seat from `top` down; returns the bottom edge.
pub fn draw(out: &mut String, state: &State, viewer: Viewer, names: &[String], top: i32) -> i32 {
    let mut y = top;
    for (seat, player) in state.players.iter().enumerate() {
        y = draw_seat(out, state, viewer, names, seat, player, y) + 12;
    }
    y
}

/// Where each of `widths` goes in rows from `x0` up to `x1`: (x, row).
fn flow(widths: &[i32], x0: i32, x1: i32) -> Vec<(i32, i32)> {
    let mut out = Vec::with_capacity(widths.len());
    let (mut x, mut row) = (x0, 0);
    for &w in widths {
        if x + w > x1 && x > x0 {
            x = x0;
            row += 1;
        }
        out.push((x, row));
        x += w;
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn draw_seat(
    out: &mut String,
    state: &State,
    viewer: Viewer,
    names: &[String],
    seat: Seat,
    player: &Player,
    y: i32,
) -> i32 {
    let x = LEFT;
    let colour = seat_colour(seat);
    // Face-up cards (each kind once) and kept tokens (each element once).
    let kinds = card_kinds(&player.face_up);
    let tokens: Vec<(Element, usize)> = Element::ALL
        .into_iter()
        .map(|e| (e, player.tokens.iter().filter(|&&t| t == e).count()))
        .filter(|(_, n)| *n > 0)
        .collect();
    let mut widths: Vec<i32> = vec![CARD_PITCH; kinds.len()];
    widths.extend(std::iter::repeat_n(32, tokens.len()));
    let row_x0 = x + 96;
    let row_x1 = x + INNER - 8;
    let places = flow(&widths, row_x0, row_x1);
    let rows = places.last().map_or(1, |p| p.1 + 1);
    let hand = if viewer == Viewer::Seat(seat) {
        Some(&player.hand)
    } else {
        None
    };
    let hand_places = hand.map(|h| flow(&vec![CARD_PITCH; h.len()], row_x0, row_x1));
    let hand_rows = hand_places
        .as_ref()
        .map_or(0, |p| p.last().map_or(1, |l| l.1 + 1));
    let height = HEAD_H + (rows + hand_rows) * ROW_H + 4;
    let playing = state.current_seat() == Some(seat);
    if playing {
        out.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"14\" fill=\"{GOLD}\" \
             opacity=\"0.5\" pointer-events=\"none\"/>",
            x - 4,
            y - 4,
            INNER + 8,
            height + 8
        ));
    }
    out.push_str(&format!(
        "<rect x=\"{x}\" y=\"{y}\" width=\"{INNER}\" height=\"{height}\" rx=\"10\" \
         fill=\"{PANEL}\" stroke=\"{colour}\" stroke-width=\"2\" data-target=\"seat-{seat}\"/>\
         <rect x=\"{x}\" y=\"{y}\" width=\"10\" height=\"{height}\" rx=\"4\" fill=\"{colour}\" \
         pointer-events=\"none\"/>"
    ));
    // Name, whose turn, counts.
    let you = viewer == Viewer::Seat(seat);
    let mut name = clip(&seat_name(names, seat), if you { 22 } else { 28 });
    if you {
        name.push_str(" (you)");
    }
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\" fill=\"{INK}\" \
         pointer-events=\"none\">{}</text>",
        x + 20,
        y + 22,
        escape(&name)
    ));
    let word = match state.phase {
        Phase::Over { winner } if winner == seat => Some("winner"),
        _ if playing => Some("to play"),
        _ => None,
    };
    if let Some(word) = word {
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"bold\" fill=\"{colour}\" \
             text-anchor=\"end\" pointer-events=\"none\">{word}</text>",
            x + CHIPS_X - 12,
            y + 22
        ));
    }
    out.push_str(&text(
        x + 20,
        y + 42,
        12,
        INK,
        &format!(
            "Level {} · {} left · {} in the bag",
            player.level,
            plural(usize::from(player.gems), "gem", "gems"),
            state.gems_in_bag(seat)
        ),
    ));
    let character = match player.character {
        Some(c) => format!("the {} ({})", c.name(), c.number()),
        None => "no character yet".to_owned(),
    };
    out.push_str(&text(
        x + 20,
        y + 60,
        12,
        SOFT_INK,
        &format!(
            "{} in hand · {character}",
            plural(player.hand.len(), "card", "cards")
        ),
    ));
    // Progress towards each set.
    let completable = player.completable();
    for (k, e) in Element::ALL.into_iter().enumerate() {
        let cx = x + CHIPS_X + i32::try_from(k).unwrap_or(0) * CHIP_PITCH;
        let cy = y + 8;
        let have = player.icons(e);
        let need = e.set_size();
        let ready = completable.contains(&e);
        out.push_str(&format!(
            "<rect x=\"{cx}\" y=\"{cy}\" width=\"{CHIP_W}\" height=\"52\" rx=\"6\" fill=\"{}\" \
             stroke=\"{}\" stroke-width=\"{}\" data-target=\"seat-{seat}-set-{}\"/>",
            if ready { "#fff4c2" } else { "#fbf7ee" },
            if ready { GOLD } else { "#cbbd9f" },
            if ready { 4 } else { 2 },
            element_key(e)
        ));
        let filled = i32::try_from(have.min(need)).unwrap_or(0) * 84
            / i32::try_from(need.max(1)).unwrap_or(1);
        let filled = filled / 2 * 2;
        let words = if ready {
            format!("{have} of {need}: ready")
        } else {
            format!("{have} of {need} icons")
        };
        out.push_str(&format!(
            "<g pointer-events=\"none\"><text x=\"{}\" y=\"{}\" font-size=\"12\" \
             font-weight=\"bold\" fill=\"{INK}\">{}</text>\
             <rect x=\"{}\" y=\"{}\" width=\"84\" height=\"10\" rx=\"4\" fill=\"#e6dcc6\"/>\
             {}<text x=\"{}\" y=\"{}\" font-size=\"10\" \
             fill=\"{SOFT_INK}\">{}</text></g>",
            cx + 8,
            cy + 16,
            e.name(),
            cx + 8,
            cy + 24,
            // Nothing yet: no bar (a rectangle of width 0 is an error to some renderers).
            if filled > 0 {
                format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{filled}\" height=\"10\" rx=\"4\" \
                     fill=\"{}\" stroke=\"{INK}\" stroke-width=\"0.5\"/>",
                    cx + 8,
                    cy + 24,
                    element_fill(e)
                )
            } else {
                String::new()
            },
            cx + 8,
            cy + 48,
            escape(&words)
        ));
    }
    // Face-up cards and kept tokens.
    let row_y = y + HEAD_H;
    out.push_str(&text(x + 20, row_y + 32, 12, INK, "Face up"));
    if widths.is_empty() {
        out.push_str(&text(row_x0, row_y + 32, 12, SOFT_INK, "nothing yet"));
    }
    for (k, (c, copies)) in kinds.iter().enumerate() {
        let Some(&(px, row)) = places.get(k) else {
            continue;
        };
        let id = item_id(seat, Item::Card(*c));
        card(out, px, row_y + 2 + row * ROW_H, *c, *copies, Some(&id));
    }
    for (k, (e, n)) in tokens.iter().enumerate() {
        let Some(&(px, row)) = places.get(kinds.len() + k) else {
            continue;
        };
        let id = item_id(seat, Item::Token(*e));
        chip(
            out,
            px + 14,
            row_y + 30 + row * ROW_H,
            element_fill(*e),
            *n,
            Some(&id),
        );
    }
    // The viewer's own hand.
    if let (Some(hand), Some(places)) = (hand, hand_places) {
        let hand_y = row_y + rows * ROW_H;
        out.push_str(&format!(
            "<path d=\"M{} {}h{}\" stroke=\"#e0d4bc\" pointer-events=\"none\"/>",
            x + 20,
            hand_y - 2,
            INNER - 40
        ));
        out.push_str(&text(x + 20, hand_y + 32, 12, INK, "Your hand"));
        if hand.is_empty() {
            out.push_str(&text(row_x0, hand_y + 32, 12, SOFT_INK, "no cards"));
        }
        for (i, c) in hand.iter().enumerate() {
            let Some(&(px, row)) = places.get(i) else {
                continue;
            };
            hand_card(out, px, hand_y + 4 + row * ROW_H, *c, i);
        }
    }
    y + height
}

fn hand_card(out: &mut String, x: i32, y: i32, c: Card, i: usize) {
    card(out, x, y, c, 1, Some(&format!("hand-{i}")));
}
