//! The board as a monospace diagram, its key, and the words for squares and units that the
//! headline, the sections and the choices share (chess-like squares: columns a–h, rows 1–8).

use super::super::data::{FigureKind, Structure, Terrain};
use super::super::state::{Pos, State, Unit};
use crate::rules::present::seat_name;
use crate::rules::{Seat, Section, Viewer};

/// A square as a chess square: column a–h from x, row 1–8 from y (`[0,0]` is a1), as the
/// log's descriptions name it too (`Pos`'s `Display`).
pub fn sq(at: Pos) -> String {
    at.to_string()
}

/// Where a corner lies in the diagram (row 8 at the top, as on a chess board).
pub fn corner_word(at: Pos) -> &'static str {
    match (at.0 == 0, at.1 == 0) {
        (true, true) => "bottom left",
        (false, true) => "bottom right",
        (true, false) => "top left",
        (false, false) => "top right",
    }
}

fn terrain_letter(t: Option<Terrain>) -> char {
    match t {
        Some(Terrain::Plains) => 'p',
        Some(Terrain::Forest) => 'f',
        Some(Terrain::Mountains) => 'm',
        Some(Terrain::Badlands) => 'b',
        None => '.',
    }
}

fn structure_symbol(s: Option<Structure>) -> char {
    match s {
        Some(Structure::Village) => 'v',
        Some(Structure::Town) => '+',
        Some(Structure::City) => 'c',
        Some(Structure::Castle) => 'k',
        Some(Structure::Ruins) => 'r',
        Some(Structure::Mine) => '$',
        Some(Structure::Temple) => '*',
        Some(Structure::Tower) => 't',
        None => '.',
    }
}

fn kind_letter(k: FigureKind) -> char {
    match k {
        FigureKind::Mage => 'm',
        FigureKind::Hero => 'h',
        FigureKind::Monster => 'x',
        FigureKind::Army => 'a',
    }
}

/// Plural of a figure type ("Armies").
pub fn plural(k: FigureKind) -> &'static str {
    match k {
        FigureKind::Mage => "Mages",
        FigureKind::Hero => "Heroes",
        FigureKind::Monster => "Monsters",
        FigureKind::Army => "Armies",
    }
}

/// Each seat's letter in the diagram: the first letter of the player's name not taken by an
/// earlier seat, else another letter of the name, else the first free letter A–Z.
pub fn marks(seats: usize, names: &[String]) -> Vec<char> {
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

fn mark(marks: &[char], seat: Seat) -> char {
    marks.get(seat).copied().unwrap_or('?')
}

/// The units in a square, as in the diagram: "Bh#" (Bob's Hero and Garrison); during a fight
/// or a pass through a Town a square may hold more ("Ah Bx#").
/// The seats with units in a square: figures' owners first, then the garrison's.
fn owners_at(state: &State, at: Pos) -> Vec<Seat> {
    let mut owners: Vec<Seat> = Vec::new();
    for f in state.figures_at(at) {
        if !owners.contains(&f.owner) {
            owners.push(f.owner);
        }
    }
    if let Some(g) = state.garrison(at)
        && !owners.contains(&g)
    {
        owners.push(g);
    }
    owners
}

fn units_text(state: &State, at: Pos, marks: &[char]) -> String {
    owners_at(state, at)
        .iter()
        .map(|&owner| {
            let mut s = String::new();
            s.push(mark(marks, owner));
            for f in state.figures_at(at).filter(|f| f.owner == owner) {
                s.push(kind_letter(f.kind));
            }
            if state.garrison(at) == Some(owner) {
                s.push('#');
            }
            s
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn cell(state: &State, at: Pos, marks: &[char]) -> String {
    let mut s = String::new();
    s.push(terrain_letter(state.terrain(at)));
    s.push(structure_symbol(state.structure(at)));
    let units = units_text(state, at, marks);
    if !units.is_empty() {
        s.push(' ');
        s.push_str(&units);
    }
    s
}

/// The 8×8 board, row 8 at the top, columns a–h; each cell is terrain, structure, units.
pub fn diagram(state: &State, names: &[String]) -> Section {
    let marks = marks(state.seats(), names);
    let side = super::super::data::SIDE;
    let cells: Vec<Vec<String>> = (0..side)
        .rev()
        .map(|y| (0..side).map(|x| cell(state, Pos(x, y), &marks)).collect())
        .collect();
    let widths: Vec<usize> = (0..usize::from(side))
        .map(|x| {
            cells
                .iter()
                .filter_map(|row| row.get(x))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
                .max(6)
        })
        .collect();
    let mut header = String::from("    ");
    for (x, w) in widths.iter().enumerate() {
        let letter = char::from(b'a' + u8::try_from(x).unwrap_or(0));
        let left = w.saturating_sub(1) / 2;
        header.push_str(&" ".repeat(left));
        header.push(letter);
        header.push_str(&" ".repeat(w.saturating_sub(left + 1) + 1));
    }
    let header = header.trim_end().to_owned();
    let mut rule = String::from("   +");
    for w in &widths {
        rule.push_str(&"-".repeat(*w));
        rule.push('+');
    }
    let mut lines = vec![header.clone(), rule.clone()];
    for (i, row) in cells.iter().enumerate() {
        let number = usize::from(side).saturating_sub(i);
        let mut line = format!("{number:>2} |");
        for (c, w) in row.iter().zip(&widths) {
            line.push_str(&format!("{c:<w$}|"));
        }
        line.push_str(&format!(" {number}"));
        lines.push(line);
    }
    lines.push(rule);
    lines.push(header);
    Section::diagram("Board", lines)
}

/// The key under the diagram: symbols, players' letters and one square read out in words.
pub fn key(state: &State, viewer: Viewer, names: &[String]) -> Section {
    let marks = marks(state.seats(), names);
    let players: Vec<String> = (0..state.seats())
        .map(|s| {
            let name = seat_name(names, s);
            let you = if viewer == Viewer::Seat(s) {
                ", you"
            } else {
                ""
            };
            format!("{} {name}{you}", mark(&marks, s))
        })
        .collect();
    let mut lines = vec![
        "Squares are named like chess squares: column a–h, row 1–8 (a1 bottom left).".to_owned(),
        "Each square shows its terrain and structure (small letters and signs), then the units \
         in it (a capital: the player's letter)."
            .to_owned(),
        "Terrain: p Plains, f Forest, m Mountains, b Badlands.".to_owned(),
        "Structures: v Village, + Town, c City, k Castle, r Ruins, $ Mine, * Temple, t Tower."
            .to_owned(),
        "What structures do (\"5+\": occupy 5 or more of the type at the start of your turn, \
         declared until your next turn): Villages 5+: +1 to your Recruit Roll; Town: crossroads, \
         your other figures move through a Town you occupy without spending a move point; \
         Cities 5+: draw 1 extra card in the Allies phase; Castle: units in it get +2 force \
         when defending; Ruins 5+: your Monsters +2 force; Mines 5+: your Heroes and Armies +1 \
         force; Temples: occupy 5 at the start of your turn and you win; Towers 5+: your Mages \
         +2 force."
            .to_owned(),
        "Units: figures have force 0 and 1 move point (cards add more); Garrisons have force \
         -2 and never move. A fight: each side rolls 2D6, then the sides take turns playing \
         force cards from their hands (the attacker first) until both pass; the higher total \
         of roll + force wins, a tie destroys both."
            .to_owned(),
        format!(
            "Units: the player's letter ({}), then m Mage, h Hero, x Monster, a Army; \
             # a Garrison.",
            players.join("; ")
        ),
    ];
    if let Some(at) = (0..super::super::data::SIDE)
        .rev()
        .flat_map(|y| (0..super::super::data::SIDE).map(move |x| Pos(x, y)))
        .find(|&p| state.occupant(p).is_some())
    {
        lines.push(format!(
            "For example \"{}\" at {} is {}.",
            cell(state, at, &marks),
            sq(at),
            square_words(state, at, names)
        ));
    }
    Section::new("Key", lines)
}

/// A square in words: "Forest, Temple: Bob's Hero and Garrison".
pub fn square_words(state: &State, at: Pos, names: &[String]) -> String {
    let terrain = state.terrain(at).map_or("no terrain yet", Terrain::name);
    let structure = state
        .structure(at)
        .map_or("no structure yet", Structure::name);
    let mut parts: Vec<String> = Vec::new();
    for owner in owners_at(state, at) {
        let mut units: Vec<&str> = state
            .figures_at(at)
            .filter(|f| f.owner == owner)
            .map(|f| f.kind.name())
            .collect();
        if state.garrison(at) == Some(owner) {
            units.push("Garrison");
        }
        parts.push(format!(
            "{}'s {}",
            seat_name(names, owner),
            units.join(" and ")
        ));
    }
    if parts.is_empty() {
        format!("{terrain}, {structure}")
    } else {
        format!("{terrain}, {structure}: {}", parts.join("; "))
    }
}

/// A figure in words: "Hero 3 at d6", or "figure 3" if it is gone.
pub fn figure_label(state: &State, id: u16) -> String {
    state.figure(id).map_or_else(
        || format!("figure {id}"),
        |f| format!("{} {id} at {}", f.kind.name(), sq(f.at)),
    )
}

pub fn unit_label(state: &State, unit: &Unit) -> String {
    match unit {
        Unit::Figure(id) => figure_label(state, *id),
        Unit::Garrison(at) => format!("Garrison at {}", sq(*at)),
    }
}
