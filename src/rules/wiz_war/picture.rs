//! The table as an SVG picture (`Ruleset::picture`) for the web page and, rendered to PNG, the
//! HTML mail; and the square each legal action is about (`Ruleset::targets`).
//!
//! Pure, like the presenter: it draws only what `view::typed_view` shows every viewer (the board,
//! the wizards, their life, items, treasures and hand sizes, the objects on the board). No
//! card of any hand is ever written, not even the viewer's own: the presenter's text has it.
//!
//! - `picture/labyrinth.rs`: the squares (each a `<rect data-target="c4">`, named as the
//!   presenter names them), home bases, objects, treasures, wizards, coordinate labels;
//! - `picture/walls.rs`: walls, doors, created and destroyed walls, the exits on the rim;
//! - `picture/legend.rs`: the panel beside the board: the players and the symbols.

mod labyrinth;
mod legend;
mod walls;

use super::actions::Action;
use super::board::Pos;
use super::state::{Phase, State, Target};
use crate::rules::picture::document;
use crate::rules::present::seat_name;
use crate::rules::{Seat, Viewer};

/// The side of a square, in pixels.
const CELL: i32 = 50;
/// Where the board's north-west corner is drawn: room for the coordinate labels and the exit
/// marks on the rim.
const LEFT: i32 = 44;
const TOP: i32 = 44;
/// Between the board and the legend, and the legend's width.
const GAP: i32 = 26;
const LEGEND_WIDTH: i32 = 270;
/// The page behind everything.
const PAPER: &str = "#ece2cb";
/// Ink for walls and text.
const INK: &str = "#3b2e25";
/// Gold: treasure rims, the ring of the wizard to play.
const GOLD: &str = "#f2c230";

/// The picture of the table as `viewer` may see it.
pub fn picture(state: &State, viewer: Viewer, names: &[String]) -> String {
    let marks = initials(state, names);
    let board_w = i32::from(state.board.width) * CELL;
    let board_h = i32::from(state.board.height) * CELL;
    let legend_x = LEFT + board_w + GAP;
    let width = legend_x + LEGEND_WIDTH + 16;
    let mut body = String::with_capacity(40_000);
    let mut legend = String::with_capacity(8_000);
    let legend_bottom = legend::draw(&mut legend, state, viewer, names, &marks, legend_x);
    let height = (TOP + board_h + 30).max(legend_bottom + 16);
    body.push_str(&format!(
        "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"{PAPER}\"/>"
    ));
    labyrinth::draw(&mut body, state, viewer, names, &marks);
    body.push_str(&legend);
    document(
        u32::try_from(width).unwrap_or(0),
        u32::try_from(height).unwrap_or(0),
        &format!("Wiz-War labyrinth: {}", status(state, viewer, names)),
        &body,
    )
}

/// The pixel corner (north-west) of square `p`.
fn corner(p: Pos) -> (i32, i32) {
    (LEFT + i32::from(p.0) * CELL, TOP + i32::from(p.1) * CELL)
}

/// Whether turns are being played (not setting up, not over).
fn playing(state: &State) -> bool {
    matches!(state.phase, Phase::MoveAndCast | Phase::DiscardAndDraw)
}

/// One line on what the game is doing, in public words.
fn status(state: &State, viewer: Viewer, names: &[String]) -> String {
    let name = |s: Seat| {
        if viewer == Viewer::Seat(s) {
            "you".to_owned()
        } else {
            seat_name(names, s)
        }
    };
    match &state.phase {
        Phase::Over { winners, .. } => match winners.as_slice() {
            [] => "game over, nobody won".to_owned(),
            ws => format!(
                "game over, won by {}",
                ws.iter()
                    .map(|&s| name(s))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        },
        Phase::Building { .. } if state.colours.len() < state.seats() => {
            "drawing the players' colours".to_owned()
        }
        Phase::Building { slot, .. } => format!(
            "building the board (sector {} of {})",
            slot + 1,
            state.board.slots.len()
        ),
        Phase::Dealing => "dealing the starting hands".to_owned(),
        Phase::FirstPlayer => "choosing who plays first".to_owned(),
        Phase::MoveAndCast | Phase::DiscardAndDraw => {
            let round = state.round();
            let whose = if viewer == Viewer::Seat(state.turn.seat) {
                "your turn".to_owned()
            } else {
                format!("{}'s turn", seat_name(names, state.turn.seat))
            };
            match state.options.round_limit {
                Some(limit) => format!("round {round} of {limit}, {whose}"),
                None => format!("round {round}, {whose}"),
            }
        }
    }
}

/// One letter per seat, as the presenter's diagram marks the wizards: the initial of the name,
/// another letter of it when two names share one, or the seat's number from 1.
fn initials(state: &State, names: &[String]) -> Vec<char> {
    let mut out: Vec<char> = Vec::new();
    for seat in 0..state.seats() {
        let name = seat_name(names, seat);
        let pick = name
            .chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_uppercase())
            .find(|c| !out.contains(c));
        let fallback = char::from_digit(u32::try_from(seat + 1).unwrap_or(0) % 10, 10);
        out.push(pick.or(fallback).unwrap_or('?'));
    }
    out
}

/// At most `max` characters of `text`, with "…" when cut (not yet escaped).
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

/// For each of `actions` (the legal actions of `seat`), the square it is about, by the name its
/// `<rect>` carries: the square a move steps into (through wraparound and portals too), the
/// square aimed at, the square of the wizard, object or treasure aimed at (a border line: its
/// square, where the presenter also starts), the square of a wizard punched, of an object or
/// treasure picked up. Everything else (cards, energy, passing, ending) is about no square.
pub fn targets(state: &State, seat: Seat, actions: &[Action]) -> Vec<Option<String>> {
    actions
        .iter()
        .map(|a| {
            square_of(state, seat, a)
                .filter(|&p| state.board.exists(p))
                .map(|p| p.to_string())
        })
        .collect()
}

fn square_of(state: &State, seat: Seat, action: &Action) -> Option<Pos> {
    let object = |id: u32| state.objects.iter().find(|o| o.id == id).map(|o| o.at);
    let treasure = |i: usize| {
        let t = state.treasures.get(i)?;
        t.at.or_else(|| state.carrier(i).and_then(|c| state.pos(c)))
    };
    match *action {
        Action::Move(d) => state
            .pos(seat)
            .and_then(|p| state.board.across(p, d))
            .map(|(q, _)| q),
        Action::Punch(s) => state.pos(s),
        Action::PickUp(id) => object(id),
        Action::PickUpTreasure(i) => treasure(i),
        Action::Target(t) => match t {
            Target::Square(p) | Target::Side(p, _) => Some(p),
            Target::Wizard(s) | Target::WizardToward(s, _) | Target::Item(s, _) => state.pos(s),
            Target::Object(id) => object(id),
            Target::Treasure(i) => treasure(i),
            Target::None | Target::Direction(_) | Target::Rotate(..) | Target::Spell(_) => None,
        },
        _ => None,
    }
}
