//! The table as an SVG picture (`Ruleset::picture`) for the web page and, rendered to PNG, the
//! HTML mail; and the square each legal action is about (`Ruleset::targets`).
//!
//! Pure, like the presenter: it draws only the public part of what `view::typed_view` shows (the
//! map, the figures, the garrisons, the corners, a fight in progress, the players' names and
//! counts). No card is ever written, not even the viewer's own: the presenter's text has them.
//!
//! Squares are named as everywhere else (`Pos`'s `Display`, chess squares a1–h8, row 8 at the
//! top); each is a `<rect data-target="d6">`, and everything drawn over it ignores the pointer
//! so that a click lands on the square.
//!
//! - `picture/map.rs`: the squares with their terrain, structures, garrisons, figures, the
//!   corners, a fight, the coordinate labels;
//! - `picture/legend.rs`: the panel beside the map: the players and the symbols;
//! - `picture/icons.rs`: the structure symbols and the figure tokens both of them draw.

mod icons;
mod legend;
mod map;

use super::actions::Action;
use super::data::{SIDE, Terrain};
use super::state::{Phase, Pos, State, Unit, opposite};
use crate::rules::picture::document;
use crate::rules::present::seat_name;
use crate::rules::{Seat, Viewer};

/// The side of a square, in pixels.
const CELL: i32 = 64;
/// The map's side in pixels.
const BOARD: i32 = CELL * SIDE as i32;
/// Where the map's top-left corner is drawn: room for the row numbers and the corner marks.
const LEFT: i32 = 44;
const TOP: i32 = 24;
/// Between the map and the legend, and the legend's width.
const GAP: i32 = 28;
const LEGEND_WIDTH: i32 = 268;
/// The table behind everything.
const PAPER: &str = "#f1e7d0";
/// Ink for lines and text.
const INK: &str = "#3b2e25";
/// Softer ink for secondary text.
const SOFT_INK: &str = "#6b5a45";

/// The picture of the table as `viewer` may see it.
pub fn picture(state: &State, viewer: Viewer, names: &[String]) -> String {
    let marks = marks(state.seats(), names);
    let legend_x = LEFT + BOARD + GAP;
    let width = legend_x + LEGEND_WIDTH + 16;
    let mut legend = String::with_capacity(12_000);
    let legend_bottom = legend::draw(&mut legend, state, viewer, names, &marks, legend_x);
    let height = (TOP + BOARD + 40).max(legend_bottom + 16);
    let mut body = String::with_capacity(60_000);
    icons::defs(&mut body);
    body.push_str(&format!(
        "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"{PAPER}\"/>"
    ));
    map::draw(&mut body, state, &marks);
    body.push_str(&legend);
    document(
        u32::try_from(width).unwrap_or(0),
        u32::try_from(height).unwrap_or(0),
        &format!("Monsters and Magic map: {}", status(state, viewer, names)),
        &body,
    )
}

/// The pixel corner (top left) of square `at`: row 8 at the top, column a on the left.
fn origin(at: Pos) -> (i32, i32) {
    (
        LEFT + i32::from(at.0) * CELL,
        TOP + i32::from(SIDE.saturating_sub(1).saturating_sub(at.1)) * CELL,
    )
}

/// A terrain's colour; `None` (no tile yet) is plain grey.
fn terrain_colour(terrain: Option<Terrain>) -> &'static str {
    match terrain {
        Some(Terrain::Plains) => "#d9e59c",
        Some(Terrain::Forest) => "#82b366",
        Some(Terrain::Mountains) => "#b3a697",
        Some(Terrain::Badlands) => "#dd9f63",
        None => "#d6d3cd",
    }
}

/// One line on what the game is doing, in public words.
fn status(state: &State, viewer: Viewer, names: &[String]) -> String {
    let who = |s: Seat| {
        if viewer == Viewer::Seat(s) {
            "you".to_owned()
        } else {
            seat_name(names, s)
        }
    };
    let whose = |s: Seat| {
        if viewer == Viewer::Seat(s) {
            "your turn".to_owned()
        } else {
            format!("{}'s turn", seat_name(names, s))
        }
    };
    let turn = format!("turn {} of {}", state.turn, state.last_turn());
    match &state.phase {
        Phase::Over(outcome) => format!("game over. {}", outcome.summary),
        Phase::Map => "the map is being laid out".to_owned(),
        Phase::Deal => "permanent cards are being dealt".to_owned(),
        Phase::Corner { seat } => format!("{} to choose a corner", who(*seat)),
        Phase::StartFigure { seat } | Phase::ExtraFigure { seat } => {
            format!("{} to choose a starting figure", who(*seat))
        }
        Phase::FirstPlayer { .. } => "rolling for the first player".to_owned(),
        Phase::Combat(c) => format!("{turn}, {}, fight at {}", whose(state.current), c.at),
        _ => format!("{turn}, {}", whose(state.current)),
    }
}

/// Each seat's letter, as the presenter's diagram marks its units: the first letter of the
/// player's name not taken by an earlier seat, else another letter of the name, else the first
/// free letter A–Z (the same rule as `present/board.rs`).
fn marks(seats: usize, names: &[String]) -> Vec<char> {
    let mut out: Vec<char> = Vec::with_capacity(seats);
    for seat in 0..seats {
        let name = names.get(seat).map(String::as_str).unwrap_or("");
        let pick = name
            .chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_uppercase())
            .chain('A'..='Z')
            .find(|c| !out.contains(c))
            .unwrap_or('?');
        out.push(pick);
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
/// `<rect>` carries: where a move or a summon goes, where a recruit, Empire, Merchant or Alter
/// Terrain acts, the corner chosen, the corner a starting (or extra) figure is placed in, the
/// square of the figure or unit a power is used on. Cards, rolls and endings are about no square.
pub fn targets(state: &State, seat: Seat, actions: &[Action]) -> Vec<Option<String>> {
    actions
        .iter()
        .map(|a| {
            square_of(state, seat, a)
                .filter(|p| p.on_board())
                .map(|p| p.to_string())
        })
        .collect()
}

fn square_of(state: &State, seat: Seat, action: &Action) -> Option<Pos> {
    let figure = |id: u16| state.figure(id).map(|f| f.at);
    let unit = |u: &Unit| match *u {
        Unit::Figure(id) => figure(id),
        Unit::Garrison(at) => Some(at),
    };
    match action {
        Action::Move { to, .. } | Action::Summon { to, .. } => Some(*to),
        Action::Recruit { at, .. }
        | Action::RecruitWith { at, .. }
        | Action::Empire { at }
        | Action::Merchant { at }
        | Action::AlterTerrain { at, .. } => Some(*at),
        Action::ChooseCorner(corner) => Some(*corner),
        Action::StartFigure(_) => {
            let corner = state.players.get(seat)?.corner?;
            match state.phase {
                Phase::ExtraFigure { .. } => Some(opposite(corner)),
                _ => Some(corner),
            }
        }
        Action::Haste { figure: id }
        | Action::Artificer { figure: id }
        | Action::Polymorph { figure: id, .. }
        | Action::Sacrifice { figure: id } => figure(*id),
        Action::Illusionist(u) | Action::IllusionistSwap(u) => unit(u),
        _ => None,
    }
}
