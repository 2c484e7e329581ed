//! The board as a monospace picture of its triangles, and the key under it.
//!
//! Every triangle is drawn four lines high and eight characters wide at its base, so the
//! triangles tile as they do on the table and tiles sharing an edge share a drawn edge:
//!
//! ```text
//!    /\         \ a4*  /     an upward tile: its number at the tip, the units in the
//!   / 7\         \A1B2/      middle, the face on the base; a downward tile the other way
//!  /A1B2\         \ 8/       up ("a4": the tile of player A's Clan 4, "*" a crystal mine,
//! /_a4*__\         \/        "#" a blockade, "~~" a flipped tile).
//! ```

use super::super::board::TileId;
use super::text::{Ctx, and_list, tile};

/// Characters per column step of the grid (a triangle's base is two steps).
const STEP: usize = 4;

/// One triangle's texts: the number, up to two unit tags, the face and its marks.
struct Cell {
    id: String,
    units: String,
    face: [char; 4],
    fill: char,
}

fn cell(cx: &Ctx, t: TileId) -> Cell {
    let s = cx.state;
    let flipped = s.flipped(t);
    let fill = if flipped { '~' } else { ' ' };
    let occupants = cx.occupants(t);
    let units = match occupants.as_slice() {
        [] => String::new(),
        [a] => a.clone(),
        [a, b] => format!("{a}{b}"),
        [a, rest @ ..] => format!("{a}+{}", rest.len()),
    };
    let (f0, f1) = if flipped {
        ('~', '~')
    } else {
        s.tile(t).and_then(|x| x.card).map_or((fill, fill), |c| {
            let owner = s
                .players
                .iter()
                .position(|p| p.tribe == Some(c.tribe))
                .map_or('?', |o| cx.letter(o).to_ascii_lowercase());
            let clan = char::from_digit(u32::from(c.clan), 10).unwrap_or('?');
            (owner, clan)
        })
    };
    let mine = if s.is_mine(t) { '*' } else { fill };
    let blockade = if s.tile(t).is_some_and(|x| x.blockade.is_some()) {
        '#'
    } else {
        fill
    };
    Cell {
        id: format!("{t:>2}"),
        units,
        face: [f0, f1, mine, blockade],
        fill,
    }
}

/// A grid of characters written by position, never out of range.
struct Canvas {
    lines: Vec<Vec<char>>,
}

impl Canvas {
    fn put(&mut self, line: usize, x: usize, text: &str) {
        if let Some(row) = self.lines.get_mut(line) {
            for (i, ch) in text.chars().enumerate() {
                if let Some(c) = row.get_mut(x + i) {
                    *c = ch;
                }
            }
        }
    }

    /// `text` in a slot of `width` characters (padded with `fill`, centred).
    fn slot(&mut self, line: usize, x: usize, width: usize, text: &str, fill: char) {
        let len = text.chars().count().min(width);
        let before = (width - len) / 2;
        let mut s: String = std::iter::repeat_n(fill, before).collect();
        s.extend(text.chars().take(width));
        while s.chars().count() < width {
            s.push(fill);
        }
        self.put(line, x, &s);
    }
}

/// The picture: one band of four lines per row of triangles, under a top border line.
pub(super) fn diagram(cx: &Ctx) -> Vec<String> {
    let g = cx.state.geometry();
    if g.is_empty() {
        return vec!["(no board yet)".to_owned()];
    }
    let min_col = g.tiles.iter().map(|p| p.col).min().unwrap_or(0);
    let max_col = g.tiles.iter().map(|p| p.col).max().unwrap_or(0);
    let min_row = g.tiles.iter().map(|p| p.row).min().unwrap_or(0);
    let max_row = g.tiles.iter().map(|p| p.row).max().unwrap_or(0);
    let rows = usize::try_from(max_row - min_row + 1).unwrap_or(0);
    let width = usize::try_from(max_col - min_col + 2).unwrap_or(0) * STEP + 1;
    let mut canvas = Canvas {
        lines: vec![vec![' '; width]; 1 + 4 * rows],
    };
    let at = |row: i16, col: i16| g.tiles.iter().position(|p| p.row == row && p.col == col);
    for t in g.ids() {
        let Some(p) = g.tile(t) else { continue };
        let x = usize::try_from(p.col - min_col).unwrap_or(0) * STEP;
        let top = 1 + 4 * usize::try_from(p.row - min_row).unwrap_or(0);
        let c = cell(cx, t);
        let [f0, f1, mine, block] = c.face;
        if p.up {
            canvas.put(top, x + 3, "/\\");
            canvas.put(top + 1, x + 2, "/");
            canvas.slot(top + 1, x + 3, 2, &c.id, c.fill);
            canvas.put(top + 1, x + 5, "\\");
            canvas.put(top + 2, x + 1, "/");
            canvas.slot(top + 2, x + 2, 4, &c.units, c.fill);
            canvas.put(top + 2, x + 6, "\\");
            let base = if c.fill == ' ' { '_' } else { c.fill };
            let mark = |m: char| if m == ' ' { base } else { m };
            let line: String = [base, f0, f1, mark(mine), mark(block), base]
                .iter()
                .collect();
            canvas.put(top + 3, x, &format!("/{line}\\"));
        } else {
            let line: String = [c.fill, f0, f1, mine, block, c.fill].iter().collect();
            canvas.put(top, x, &format!("\\{line}/"));
            canvas.put(top + 1, x + 1, "\\");
            canvas.slot(top + 1, x + 2, 4, &c.units, c.fill);
            canvas.put(top + 1, x + 6, "/");
            canvas.put(top + 2, x + 2, "\\");
            canvas.slot(top + 2, x + 3, 2, &c.id, c.fill);
            canvas.put(top + 2, x + 5, "/");
            canvas.put(top + 3, x + 3, "\\/");
            // The top edge, where no upward tile above draws it as its base.
            if at(p.row - 1, p.col).is_none() {
                canvas.put(top - 1, x + 1, "______");
            }
        }
    }
    let mut lines: Vec<String> = canvas
        .lines
        .into_iter()
        .map(|l| l.into_iter().collect::<String>().trim_end().to_owned())
        .collect();
    if lines.first().is_some_and(|l| l.is_empty()) {
        lines.remove(0);
    }
    lines
}

/// The key: letters, tags, faces and marks, then the board's special tiles.
pub(super) fn key(cx: &Ctx) -> Vec<String> {
    let s = cx.state;
    let mut lines = Vec::new();
    let players: Vec<String> = (0..s.players.len())
        .map(|o| {
            let tribe = s
                .player(o)
                .and_then(|p| p.tribe)
                .map_or("no tribe yet", |t| t.name());
            let you = if cx.is_me(o) { ", you" } else { "" };
            format!("{} = {} ({tribe}{you})", cx.letter(o), cx.who(o))
        })
        .collect();
    lines.push(format!("Players: {}.", players.join("; ")));
    let example = cx.letter(0);
    let lower = example.to_ascii_lowercase();
    lines.push(format!(
        "Units: {example}L is {}'s Leader, {example}1 to {example}6 the Clans by \
         tribe-board slot; a tile with three or more units shows the first and +n.",
        cx.who(0)
    ));
    lines.push(format!(
        "Faces: {lower}4 is a face-up tile of {}'s Clan 4 (a unit standing there with 3 horns \
         can call that Clan); ~~ is a flipped tile: units pass over it but never stop there.",
        cx.who(0)
    ));
    let mines: Vec<String> = s
        .geometry()
        .ids()
        .filter(|&t| s.is_mine(t))
        .map(|t| t.to_string())
        .collect();
    if !mines.is_empty() {
        lines.push(format!(
            "* crystal mine (never flips; a unit entering it adds a crystal to the reserve): \
             tiles {}.",
            and_list(mines)
        ));
    }
    let blockades: Vec<String> = s
        .geometry()
        .ids()
        .filter_map(|t| {
            let by = s.tile(t)?.blockade?;
            Some(format!("{} ({}'s, {})", tile(t), cx.who(by), cx.until(by)))
        })
        .collect();
    if !blockades.is_empty() {
        lines.push(format!(
            "# blockade: only Flying units pass: {}.",
            and_list(blockades)
        ));
    }
    if matches!(s.phase, super::super::state::Phase::Leaders) {
        let starts: Vec<String> = super::super::setup::leader_choices(s)
            .iter()
            .map(|t| t.to_string())
            .collect();
        lines.push(format!("Free Leader start tiles: {}.", and_list(starts)));
    }
    lines.push("Tiles sharing an edge are one space apart.".to_owned());
    lines
}
