//! The table as an SVG picture (`Ruleset::picture`) for the web page and, rendered to PNG, the
//! HTML mail; and the shape each legal action is about (`Ruleset::targets`).
//!
//! Pure, like the presenter: it draws only the public part of what `view::typed_view` shows every
//! viewer (the triangle tiles with their faces, mines, flips and blockades, the units on them,
//! this turn's dice, each player's points, HP, crystals and counts, the solo automaton). No
//! ability card is ever written, not even one of the viewer's own Secret hand or of a card being
//! drawn (the presenter's text has those); a hand is at most a count.
//!
//! Tiles are named as in the text (`tile 7`): each is a `<polygon data-target="tile-7">`. Units
//! on the board are tokens `data-target="unit-<owner>-<slot>"` (a Leader's cone, a Clan's disc)
//! and the dice in the legend `data-target="die-<n>"` (numbered from 0 like `MarkReroll`).
//! Everything else ignores the pointer so that a click lands on one of those.
//!
//! - `picture/tiles.rs`: the board: tiles, faces, mines, flips, blockades, marks, units;
//! - `picture/legend.rs`: the panel beside the board: the turn, the dice, the players, the key;
//! - `picture/icons.rs`: unit tokens, dice faces and the crystal both of them draw.

mod icons;
mod legend;
mod tiles;

use super::actions::Action;
use super::board::{Geometry, Position, TileId};
use super::state::{Phase, State, Step, Target, UnitRef};
use super::view::letters;
use super::{Source, setup};
use crate::rules::picture::document;
use crate::rules::present::seat_name;
use crate::rules::{Seat, Viewer};

/// The largest side of a tile, in pixels (small boards), and the room the board may take.
const MAX_SIDE: f64 = 120.0;
const BOARD_MAX_WIDTH: f64 = 600.0;
const BOARD_MAX_HEIGHT: f64 = 600.0;
/// Where the board's box starts.
const LEFT: f64 = 24.0;
const TOP: f64 = 24.0;
/// Between the board and the legend, and the legend's width.
const GAP: f64 = 24.0;
const LEGEND_WIDTH: i32 = 300;
/// The table behind everything.
const PAPER: &str = "#f3ecdc";
/// Ink for lines and text, and softer ink for secondary text.
const INK: &str = "#33291f";
const SOFT_INK: &str = "#6b5a45";
/// Crystal mines: their border and gem.
const CRYSTAL: &str = "#7b4fc9";
/// The moving unit's ring, a Leader start.
const GOLD: &str = "#e8a80c";
/// An attack, the crumbling earth's choice.
const ALARM: &str = "#d11f1f";

/// √3 / 2: a triangle's height per side.
const ROOT3_HALF: f64 = 0.866_025_403_784_438_6;

/// The picture of the table as `viewer` may see it.
pub fn picture(state: &State, viewer: Viewer, names: &[String]) -> String {
    let letters = letters(state, names);
    let frame = Frame::new(state.geometry());
    let legend_x = (LEFT + frame.width + GAP).round() as i32;
    let width = legend_x + LEGEND_WIDTH + 16;
    let mut legend = String::with_capacity(12_000);
    let legend_bottom = legend::draw(&mut legend, state, viewer, names, &letters, legend_x);
    let board_bottom = (TOP + frame.height).round() as i32;
    let height = (board_bottom + 24).max(legend_bottom + 16);
    let mut body = String::with_capacity(40_000);
    tiles::defs(&mut body);
    body.push_str(&format!(
        "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"{PAPER}\"/>"
    ));
    tiles::draw(&mut body, state, &frame, &letters);
    body.push_str(&legend);
    document(
        u32::try_from(width).unwrap_or(0),
        u32::try_from(height).unwrap_or(0),
        &title(state, viewer, names),
        &body,
    )
}

/// Where the board's triangles are drawn: the side of a tile and the shape's extent.
struct Frame {
    side: f64,
    min_col: i16,
    min_row: i16,
    width: f64,
    height: f64,
}

impl Frame {
    fn new(g: &Geometry) -> Frame {
        let min_col = g.tiles.iter().map(|p| p.col).min().unwrap_or(0);
        let max_col = g.tiles.iter().map(|p| p.col).max().unwrap_or(0);
        let min_row = g.tiles.iter().map(|p| p.row).min().unwrap_or(0);
        let max_row = g.tiles.iter().map(|p| p.row).max().unwrap_or(0);
        let half_edges = f64::from(max_col - min_col + 2).max(2.0);
        let rows = f64::from(max_row - min_row + 1).max(1.0);
        let side = MAX_SIDE
            .min(2.0 * BOARD_MAX_WIDTH / half_edges)
            .min(BOARD_MAX_HEIGHT / (rows * ROOT3_HALF));
        Frame {
            side,
            min_col,
            min_row,
            width: half_edges * side / 2.0,
            height: rows * side * ROOT3_HALF,
        }
    }

    fn tri_height(&self) -> f64 {
        self.side * ROOT3_HALF
    }

    /// The left end of the tile's horizontal edge and the top of its row.
    fn origin(&self, p: &Position) -> (f64, f64) {
        (
            LEFT + f64::from(p.col - self.min_col) * self.side / 2.0,
            TOP + f64::from(p.row - self.min_row) * self.tri_height(),
        )
    }

    /// The three corners: the horizontal edge's two ends, then the tip.
    fn corners(&self, p: &Position) -> [(f64, f64); 3] {
        let (x, y) = self.origin(p);
        let h = self.tri_height();
        let s = self.side;
        if p.up {
            [(x, y + h), (x + s, y + h), (x + s / 2.0, y)]
        } else {
            [(x, y), (x + s, y), (x + s / 2.0, y + h)]
        }
    }

    /// The point on the tile's middle line `f` of the way from its tip (0) to its horizontal
    /// edge (1), moved `dx` sideways; the triangle is `f × side` wide there.
    fn along(&self, p: &Position, f: f64, dx: f64) -> (f64, f64) {
        let (x, y) = self.origin(p);
        let h = self.tri_height();
        let cx = x + self.side / 2.0 + dx;
        if p.up {
            (cx, y + f * h)
        } else {
            (cx, y + h - f * h)
        }
    }
}

/// A coordinate with at most one decimal (short, and deterministic).
fn n(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// A player's name ("Ann", "the automaton").
fn who(state: &State, names: &[String], owner: usize) -> String {
    if state.player(owner).is_some_and(|p| p.automaton) {
        "the automaton".to_owned()
    } else {
        seat_name(names, owner)
    }
}

/// The step of a turn in a few words.
fn step_name(state: &State, step: &Step) -> &'static str {
    match step {
        Step::Start => "starting",
        Step::Reenter => "bringing a Clan back",
        Step::Flip { .. } if state.solo() => "the crumbling earth",
        Step::Flip { .. } => "flipping tiles",
        Step::Roll { .. } => "rolling dice",
        Step::Assign => "assigning dice",
        Step::Act => "moving and attacking",
        Step::Call => "Call to War",
        Step::Charge => "charging abilities",
    }
}

/// "round 3 of 10" (the tie-break round named).
fn round(state: &State) -> String {
    if state.extra_round && state.round >= state.last_round {
        format!("round {} (tie-break)", state.round)
    } else {
        format!("round {} of {}", state.round, state.last_round)
    }
}

/// One line on what the game is doing, in public words.
fn status(state: &State, viewer: Viewer, names: &[String]) -> String {
    let me = |s: Seat| viewer == Viewer::Seat(s) && s < state.seats;
    let name = |s: Seat| {
        if me(s) {
            "you".to_owned()
        } else {
            who(state, names, s)
        }
    };
    match &state.phase {
        Phase::Tribes => "the tribes are being dealt".to_owned(),
        Phase::Tiles => "the tiles are being laid".to_owned(),
        Phase::SplitClans => "the automaton's Clans are being placed".to_owned(),
        Phase::FirstPlayer => "the first player is being drawn".to_owned(),
        Phase::Leaders => match setup::next_leader(state) {
            Some((owner, seat)) if owner != seat => {
                format!("{} to place the automaton's Leader", name(seat))
            }
            Some((_, seat)) => format!("{} to place a Leader", name(seat)),
            None => "placing the Leaders".to_owned(),
        },
        Phase::Over => match &state.result {
            Some(r) if !r.winners.is_empty() => {
                let winners: Vec<String> = r.winners.iter().map(|&s| name(s)).collect();
                format!("game over, won by {}", winners.join(" and "))
            }
            _ => "game over".to_owned(),
        },
        Phase::Turn { seat, step } => {
            let whose = if me(*seat) {
                "your turn".to_owned()
            } else {
                format!("{}'s turn", name(*seat))
            };
            let mut line = format!("{}, {whose}: {}", round(state), step_name(state, step));
            if let Some(w) = &state.window {
                let waiting: Vec<String> = w.waiting.iter().map(|&s| name(s)).collect();
                line.push_str(&format!(" ({} may react)", waiting.join(", ")));
            } else if let Some(u) = state.falls.first() {
                line.push_str(&format!(" ({} must land a unit)", name(u.owner)));
            }
            line
        }
    }
}

/// The text alternative: the game, what it is doing, the scores.
fn title(state: &State, viewer: Viewer, names: &[String]) -> String {
    let scores: Vec<String> = (0..state.players.len())
        .map(|o| {
            let you = if viewer == Viewer::Seat(o) && o < state.seats {
                " (you)"
            } else {
                ""
            };
            if state.player(o).is_some_and(|p| p.automaton) {
                format!("the automaton {} HP", state.total_hp(o))
            } else {
                format!("{}{you} {}", seat_name(names, o), state.score(o))
            }
        })
        .collect();
    format!(
        "Gnomes & Wizards board: {}. Points: {}.",
        status(state, viewer, names),
        scores.join(", ")
    )
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

fn tile_target(t: TileId) -> String {
    format!("tile-{t}")
}

fn unit_target(u: UnitRef) -> String {
    format!("unit-{}-{}", u.owner, u.slot)
}

fn die_target(i: usize) -> String {
    format!("die-{i}")
}

/// For each of `actions` (the legal actions of `seat`), the shape it is about: the tile a
/// Leader is placed on, a unit moves to, lands on, comes back on, a tile flipped; the unit
/// attacked; the tile of the unit whose horns call or empower a Clan; the unit that draws
/// cards, gets a Learned card or a crystal; a cast's target unit or tile; the die marked for a
/// re-roll, or the first free die of the face assigned. Ends, passes, cards kept and alliances
/// are about no shape.
pub fn targets(state: &State, seat: Seat, actions: &[Action]) -> Vec<Option<String>> {
    actions.iter().map(|a| target(state, seat, a)).collect()
}

fn target(state: &State, seat: Seat, action: &Action) -> Option<String> {
    let tile = |t: TileId| state.geometry().tile(t).map(|_| tile_target(t));
    let unit = |u: UnitRef| {
        state
            .unit(u)
            .filter(|x| x.on_board())
            .map(|_| unit_target(u))
    };
    let mine = |slot: u8| UnitRef { owner: seat, slot };
    let tile_of = |slot: u8| state.unit(mine(slot)).and_then(|u| u.tile).and_then(tile);
    match action {
        Action::PlaceLeader(t)
        | Action::Reenter { tile: t, .. }
        | Action::Flip(t)
        | Action::CrumbleTile(t)
        | Action::Fall(t)
        | Action::MoveUnitTo(t)
        | Action::Move { to: t, .. } => tile(*t),
        Action::Attack { target, .. } => unit(*target),
        Action::Summon { slot, .. } | Action::Empower { slot, .. } => tile_of(*slot),
        Action::DrawCards { slot }
        | Action::Attach(slot)
        | Action::AttachHeld { slot, .. }
        | Action::Charge { slot, .. } => unit(mine(*slot)),
        Action::MarkReroll(i) => (*i < state.dice.len()).then(|| die_target(*i)),
        Action::Assign { face, .. } => state
            .dice
            .iter()
            .zip(&state.assigned)
            .position(|(f, a)| *f == Some(*face) && !*a)
            .map(die_target),
        Action::Cast(c) => match c.target {
            Target::Unit(u) | Target::Crystals { unit: u, .. } => unit(u),
            Target::Tile(t) | Target::Move { to: t, .. } => tile(t),
        }
        .or_else(|| match c.source {
            Source::Innate(slot) | Source::Learned(slot) => unit(mine(slot)),
            Source::Secret(_) => None,
        }),
        _ => None,
    }
}
