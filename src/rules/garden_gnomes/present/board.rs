//! The park as a fixed-width diagram: the sixteen territories on a 5 × 5 grid (the ring of
//! homes and food around the four statues), each with its name, its loot and the gnomes on it.
//!
//! ```text
//!               Red Home      North Oak     Green Home
//! Hedge Berries               Toadstool Statue            East Orchard
//! Blue Home     Gnome King Statue           Frog Statue   Yellow Home
//! West Orchard                Flamingo Statue             Bramble Patch
//!               White Home    South Oak     Black Home
//! ```
//!
//! On the stock map two territories are joined exactly when their cells touch (also corner to
//! corner); the legend says so only after checking it against the map's passages, and lists
//! the passages otherwise. A map of another size is drawn as a list.

use super::{letter, occupants_text, short_name};
use crate::rules::garden_gnomes::data::{Token, neighbours, territories, territory_count};
use crate::rules::garden_gnomes::state::State;

/// Grid cells of the territories of `map.json`, by territory number: (row, column).
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

const COLUMNS: usize = 5;
/// Characters from one column's start to the next.
const PITCH: usize = 14;
/// The widest line the diagram aims for.
const LINE: usize = 72;

/// What holding `t` loots each round, in a word or two ("acorn", "Red token", "statue").
pub fn loot_word(t: u8) -> String {
    let card = territories().get(usize::from(t));
    match card.and_then(|c| c.yields) {
        Some(Token::Acorn) => "acorn".into(),
        Some(Token::Apple) => "apple".into(),
        Some(Token::Berry) => "berry".into(),
        Some(Token::Gnome(c)) => format!("{} token", c.name()),
        None if card.is_some_and(|c| c.statue) => "statue".into(),
        None => "nothing".into(),
    }
}

/// The diagram's lines; `battle` is marked with `*`.
pub fn diagram(state: &State, battle: Option<u8>) -> Vec<String> {
    if territory_count() != LAYOUT.len() {
        return list(state, battle);
    }
    let mut grid: [[Option<u8>; COLUMNS]; COLUMNS] = [[None; COLUMNS]; COLUMNS];
    for (t, &(row, col)) in LAYOUT.iter().enumerate() {
        if let (Some(cell), Ok(t)) = (
            grid.get_mut(row).and_then(|r| r.get_mut(col)),
            u8::try_from(t),
        ) {
            *cell = Some(t);
        }
    }
    let mut lines = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        if r > 0 {
            lines.push(String::new());
        }
        // Each cell's text lines, and how wide it may be (up to the next cell in the row).
        let mut cells: Vec<(usize, usize, Vec<String>)> = Vec::new();
        for (c, cell) in row.iter().enumerate() {
            let Some(t) = *cell else { continue };
            let start = c * PITCH;
            let next = row
                .iter()
                .enumerate()
                .skip(c + 1)
                .find(|(_, x)| x.is_some())
                .map(|(k, _)| k * PITCH);
            let width = next.map_or(LINE.saturating_sub(start), |n| n - start - 1);
            let mark = if battle == Some(t) { "*" } else { "" };
            let mut text = vec![
                clip(&format!("{mark}{}", short_name(t)), width),
                clip(&loot_word(t), width),
            ];
            text.extend(wrap(&occupant_codes(state, t), width));
            cells.push((start, width, text));
        }
        let height = cells.iter().map(|(_, _, t)| t.len()).max().unwrap_or(0);
        for k in 0..height {
            let mut line = String::new();
            for (start, _, text) in &cells {
                let Some(piece) = text.get(k) else { continue };
                while line.chars().count() < *start {
                    line.push(' ');
                }
                line.push_str(piece);
            }
            lines.push(line.trim_end().to_string());
        }
    }
    lines.push(String::new());
    if joined_when_touching() {
        lines.push("Territories whose cells touch (also corner to corner) are joined.".into());
    } else {
        lines.extend(passages());
    }
    lines
}

/// The gnomes on `t` as letters and counts ("R3 G1"), "-" when empty.
fn occupant_codes(state: &State, t: u8) -> String {
    let codes: Vec<String> = state
        .occupants(t)
        .into_iter()
        .filter_map(|i| state.clan(i))
        .filter_map(|c| {
            c.colour
                .map(|colour| format!("{}{}", letter(colour), c.gnomes_at(t)))
        })
        .collect();
    if codes.is_empty() {
        "-".into()
    } else {
        codes.join(" ")
    }
}

fn clip(text: &str, width: usize) -> String {
    text.chars().take(width.max(1)).collect()
}

/// Space-separated words in lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// Whether the map's passages are exactly the pairs of touching cells.
fn joined_when_touching() -> bool {
    LAYOUT.iter().enumerate().all(|(a, &(ra, ca))| {
        LAYOUT.iter().enumerate().all(|(b, &(rb, cb))| {
            let touching = a != b && ra.abs_diff(rb) <= 1 && ca.abs_diff(cb) <= 1;
            let joined = u8::try_from(a)
                .ok()
                .zip(u8::try_from(b).ok())
                .is_some_and(|(a, b)| neighbours(a).contains(&b));
            touching == joined
        })
    })
}

/// Each territory's neighbours, one line each.
fn passages() -> Vec<String> {
    (0..territory_count())
        .filter_map(|t| u8::try_from(t).ok())
        .map(|t| {
            let next: Vec<String> = neighbours(t).iter().map(|&n| short_name(n)).collect();
            format!("{} is joined to {}.", short_name(t), next.join(", "))
        })
        .collect()
}

/// A map the grid does not fit: one line per territory.
fn list(state: &State, battle: Option<u8>) -> Vec<String> {
    (0..territory_count())
        .filter_map(|t| u8::try_from(t).ok())
        .map(|t| {
            let mark = if battle == Some(t) { "*" } else { "" };
            let next: Vec<String> = neighbours(t).iter().map(|&n| short_name(n)).collect();
            format!(
                "{mark}{} ({}): {} - joined to {}",
                short_name(t),
                loot_word(t),
                occupants_text(state, t),
                next.join(", ")
            )
        })
        .collect()
}
