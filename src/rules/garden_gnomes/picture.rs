//! The park as an SVG picture (`Ruleset::picture`) for the web page and, rendered to PNG, the
//! HTML mail; and the territory (or the clan in a battle) each legal action is about
//! (`Ruleset::targets`).
//!
//! Pure, like the presenter: it draws only what `view::typed_view` shows every viewer (the park, the
//! passages, the gnomes of every clan with their counts, this movement's moves, a battle with
//! its declared dice and rolls, the players, their clans, reserves and collected tokens, the
//! round, the first player, the final scores). It never draws an objective, not even the
//! viewer's own, nor how many points a clan would score now (that needs the kept objectives):
//! the presenter's text has those for their owner. The same picture goes to every viewer but
//! for "(you)" and "your move".
//!
//! Gnomes are drawn in their clan's colour (Red, Green, Yellow, Black, White, Blue: what the
//! rules and the text call them; in the 2-player variant one player runs two or three clans);
//! each player is marked in the legend by the colour of their (first) clan, beside the clans
//! they run (never by a seat colour, which would be another player's clan).
//!
//! Each territory is a `<rect data-target="t3">` (`t` and its number in `map.json`, as in
//! actions); in a battle each clan's token there is a `<circle data-target="t13-blue">`.
//! Everything else drawn over the park ignores the pointer, so a click lands on those.
//!
//! - `picture/park.rs`: the territories (laid out as the text diagram lays them), passages,
//!   gnomes, moves and the battle;
//! - `picture/legend.rs`: the panel beside the park: players, clans, a battle, the key.

mod legend;
mod park;

use super::actions::Action;
use super::data::{Colour, Territory, territory_name};
use super::state::{Phase, State};
use crate::rules::picture::{document, escape};
use crate::rules::present::{name_seats, seat_name};
use crate::rules::{Seat, Viewer};

/// Where the park's top-left corner is drawn: room above for the title and the status line.
const LEFT: i32 = 20;
const TOP: i32 = 64;
/// From one territory's corner to the next, across and down.
const PITCH_X: i32 = 118;
const PITCH_Y: i32 = 112;
/// A territory's box.
const BOX_W: i32 = 106;
const BOX_H: i32 = 94;
/// Between the park and the legend, and the legend's width.
const GAP: i32 = 20;
const LEGEND_WIDTH: i32 = 276;
/// The page behind everything.
const PAPER: &str = "#f4efdf";
/// Ink for lines and text.
const INK: &str = "#33291f";
/// Softer ink for secondary text.
const SOFT_INK: &str = "#5f5140";

/// The picture of the park as `viewer` may see it.
pub fn picture(state: &State, viewer: Viewer, names: &[String]) -> String {
    let cells = park::cells();
    let columns = cells.iter().map(|c| c.1).max().map_or(1, |c| c + 1);
    let rows = cells.iter().map(|c| c.0).max().map_or(1, |r| r + 1);
    let park_w = i32::try_from(columns).unwrap_or(5) * PITCH_X - (PITCH_X - BOX_W);
    let park_h = i32::try_from(rows).unwrap_or(5) * PITCH_Y - (PITCH_Y - BOX_H);
    let legend_x = LEFT + park_w + GAP;
    let width = legend_x + LEGEND_WIDTH + 14;
    let mut legend = String::with_capacity(10_000);
    let legend_bottom = legend::draw(&mut legend, state, viewer, names, legend_x);
    let height = (TOP + park_h + 20).max(legend_bottom + 14);
    let mut body = String::with_capacity(40_000);
    body.push_str(&format!(
        "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"{PAPER}\"/>"
    ));
    body.push_str(&format!(
        "<g pointer-events=\"none\"><text x=\"{LEFT}\" y=\"28\" font-size=\"19\" \
         font-weight=\"bold\" fill=\"{INK}\">Garden Gnomes: Violent Vendetta</text>\
         <text x=\"{LEFT}\" y=\"49\" font-size=\"13\" fill=\"{SOFT_INK}\">{}</text></g>",
        escape(&clip(&status(state, viewer, names), 84))
    ));
    park::draw(&mut body, state, &cells);
    body.push_str(&legend);
    document(
        u32::try_from(width).unwrap_or(0),
        u32::try_from(height).unwrap_or(0),
        &title(state, viewer, names),
        &body,
    )
}

/// The text alternative: the game, what it waits for, the gnomes each clan has in the park.
fn title(state: &State, viewer: Viewer, names: &[String]) -> String {
    let mut out = format!(
        "Garden Gnomes park: {}",
        name_seats(&status(state, viewer, names), names)
    );
    let counts: Vec<String> = state
        .clans
        .iter()
        .filter_map(|c| {
            c.colour
                .map(|colour| format!("{} {}", colour.name(), c.on_board()))
        })
        .collect();
    if state.round > 0 && !counts.is_empty() {
        out.push_str(&format!(". Gnomes in the park: {}", counts.join(", ")));
    }
    out
}

/// "Red (Ann)", or "you (Red)" for the viewer; a clan without a colour is its player's.
fn clan_who(state: &State, i: usize, viewer: Viewer, names: &[String]) -> String {
    let Some(clan) = state.clan(i) else {
        return String::new();
    };
    let colour = clan.colour.map_or("undrawn", Colour::name);
    if viewer == Viewer::Seat(clan.seat) {
        format!("you ({colour})")
    } else {
        format!("{colour} ({})", seat_name(names, clan.seat))
    }
}

/// One line on what the game is doing, in public words.
fn status(state: &State, viewer: Viewer, names: &[String]) -> String {
    let round = match state.round_limit {
        Some(limit) => format!("round {} of {limit}", state.round),
        None => format!("round {}", state.round),
    };
    match &state.phase {
        Phase::AssigningClans => "setting up: the clans are drawn".to_owned(),
        Phase::ChoosingFirstPlayer => "setting up: the first player is drawn".to_owned(),
        Phase::DealingObjectives => "setting up: neutral objectives are dealt".to_owned(),
        Phase::ChoosingObjectives => {
            let seats = state.choosing_seats();
            let who: Vec<String> = seats
                .iter()
                .map(|&s| {
                    if viewer == Viewer::Seat(s) {
                        "you".to_owned()
                    } else {
                        seat_name(names, s)
                    }
                })
                .collect();
            format!("setting up: {} keeping objectives", who.join(", "))
        }
        Phase::Reinforcement { .. } => match state.reinforcing() {
            Some(i) => format!(
                "{round}, reinforcements: {} to decide",
                clan_who(state, i, viewer, names)
            ),
            None => format!("{round}, reinforcements"),
        },
        Phase::Movement { .. } => match state.mover() {
            Some(i) => format!(
                "{round}, movement: {} to move",
                clan_who(state, i, viewer, names)
            ),
            None => format!("{round}, movement"),
        },
        Phase::Combat(combat) => {
            let place = territory_name(combat.territory);
            match state.declarer() {
                Some(i) => format!(
                    "{round}, battle in {place}: {} to attack",
                    clan_who(state, i, viewer, names)
                ),
                None => format!("{round}, battle in {place}: dice rolling"),
            }
        }
        Phase::Over(ending) => format!("game over. {}", name_seats(&ending.summary, names)),
    }
}

/// The id of territory `t`'s box.
fn territory_id(t: Territory) -> String {
    format!("t{t}")
}

/// The id of `colour`'s token in the battle in `t`.
fn token_id(t: Territory, colour: Colour) -> String {
    format!("t{t}-{}", colour.name().to_lowercase())
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

/// For each of `actions` (the legal actions of `seat`), what it is about: a move, the territory
/// the gnome goes to; an attack, the attacked clan's token in the battle. Keeping an objective
/// and ending the movement are about no shape.
pub fn targets(state: &State, _seat: Seat, actions: &[Action]) -> Vec<Option<String>> {
    let count = park::cells().len();
    let battle = match &state.phase {
        Phase::Combat(combat) => Some(combat.territory),
        _ => None,
    };
    actions
        .iter()
        .map(|a| match a {
            Action::Move { to, .. } if usize::from(*to) < count => Some(territory_id(*to)),
            Action::Attack { target, .. } => battle
                .filter(|&t| usize::from(t) < count)
                .filter(|&t| {
                    state
                        .index_of(*target)
                        .and_then(|i| state.clan(i))
                        .is_some_and(|c| c.gnomes_at(t) > 0)
                })
                .map(|t| token_id(t, *target)),
            _ => None,
        })
        .collect()
}
