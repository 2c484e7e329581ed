//! The labyrinth as a monospace diagram, its key, and the things on the board in words.
//!
//! Each square is three characters wide between border lines; a line is `|` or `---` for a
//! wall, a colour letter (`r`, `b`, `g`, `y`) for a door of that colour, `#` for a created
//! wall and `~` for a wall of fire; a corner `+` stands where a line touches it.

use super::super::board::{Dir, Edge, EdgeKind, Pos, SECTOR};
use super::super::cards::Effect;
use super::super::state::{COLOURS, State, leaded};
use super::{column, line_words, sq};
use crate::rules::Viewer;
use crate::rules::present::{Section, seat_name};

/// One letter per seat for the diagram: the initial of the name, another letter of it when
/// two names share one, or the seat's number from 1.
pub(super) fn initials(state: &State, names: &[String]) -> Vec<char> {
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

/// "Ann's red sector (a1-e5)".
pub(super) fn sector_words(state: &State, names: &[String], slot: usize) -> String {
    let Some(s) = state.board.slots.get(slot) else {
        return format!("sector slot {slot}");
    };
    let span = format!(
        "{}-{}",
        sq(s.origin),
        sq(Pos(
            s.origin.0.saturating_add(SECTOR - 1),
            s.origin.1.saturating_add(SECTOR - 1)
        ))
    );
    match s.sector {
        Some(c) => {
            let c = usize::from(c);
            format!(
                "{}'s {} sector ({span})",
                seat_name(names, c),
                state.colour(c)
            )
        }
        None => format!("the empty sector slot ({span})"),
    }
}

/// What a border line shows: ' ' open, '|' wall, a door's colour letter, '#', '~'.
fn glyph(state: &State, e: Option<&Edge>) -> char {
    let Some(e) = e else { return ' ' };
    if let Some(c) = e.created {
        return match c.card.effect() {
            Effect::WallOfFire => '~',
            // A created door shows its caster's colour letter, like a door of the board.
            Effect::CreateDoor => state
                .caster_of(c.spell)
                .and_then(|s| COLOURS.get(usize::from(state.colour_of(s))))
                .and_then(|c| c.chars().next())
                .unwrap_or('d'),
            _ => '#',
        };
    }
    if e.destroyed {
        return ' ';
    }
    match e.kind {
        EdgeKind::Open => ' ',
        EdgeKind::Wall | EdgeKind::Outer => '|',
        EdgeKind::Door(s) => COLOURS
            .get(usize::from(state.colour_of(s)))
            .and_then(|c| c.chars().next())
            .unwrap_or('d'),
    }
}

/// The line on the north side of row `y` (0..=height) in column `x`, if a square touches it.
fn north_line(state: &State, x: i8, y: i8) -> char {
    let b = &state.board;
    let (below, above) = (Pos(x, y), Pos(x, y - 1));
    if b.exists(below) {
        glyph(state, b.edge(below, Dir::North))
    } else if b.exists(above) {
        glyph(state, b.edge(above, Dir::South))
    } else {
        ' '
    }
}

/// The line on the west side of column `x` (0..=width) in row `y`, if a square touches it.
fn west_line(state: &State, x: i8, y: i8) -> char {
    let b = &state.board;
    let (right, left) = (Pos(x, y), Pos(x - 1, y));
    if b.exists(right) {
        glyph(state, b.edge(right, Dir::West))
    } else if b.exists(left) {
        glyph(state, b.edge(left, Dir::East))
    } else {
        ' '
    }
}

fn object_mark(effect: Effect) -> char {
    match effect {
        Effect::StoneBlock => '#',
        Effect::Fog => '%',
        Effect::StoneSpikes => '^',
        Effect::DustCloud => '%',
        Effect::Rosebush => '@',
        Effect::Thornbush => '"',
        Effect::BoobyTrap => '!',
        Effect::Tacks => ':',
        _ => '&',
    }
}

/// What a Conjuring object does, in words, for the list of objects.
fn object_words(effect: Effect) -> Option<&'static str> {
    match effect {
        Effect::DustCloud => Some("blocks line of sight through its square"),
        Effect::Rosebush => Some("nobody may move into its square"),
        Effect::Thornbush => Some("2 damage to any other wizard who moves in"),
        Effect::BoobyTrap => Some("springs on the next other wizard who moves in: 4 damage"),
        Effect::Tacks => Some("1 damage to any wizard who moves in"),
        _ => None,
    }
}

/// The three characters inside a square.
fn cell(state: &State, marks: &[char], p: Pos) -> String {
    if !state.board.exists(p) {
        return "   ".to_owned();
    }
    let mut tokens: Vec<char> = state
        .wizards_at(p)
        .into_iter()
        .map(|s| marks.get(s).copied().unwrap_or('?'))
        .collect();
    tokens.extend(
        state
            .treasures
            .iter()
            .filter(|t| t.at == Some(p))
            .map(|_| '$'),
    );
    tokens.extend(
        state
            .objects
            .iter()
            .filter(|o| o.at == p)
            .map(|o| object_mark(o.card.effect())),
    );
    if state.board.home_of(p).is_some() {
        tokens.push('*');
    }
    match tokens.len() {
        0 => "   ".to_owned(),
        1 => format!(" {} ", tokens.first().copied().unwrap_or(' ')),
        2 | 3 => format!("{:<3}", tokens.iter().collect::<String>()),
        _ => format!("{}+", tokens.iter().take(2).collect::<String>()),
    }
}

pub(super) fn diagram(state: &State, names: &[String]) -> Section {
    let marks = initials(state, names);
    let (w, h) = (state.board.width, state.board.height);
    let mut lines = Vec::new();
    let mut head = "   ".to_owned();
    for x in 0..w {
        head.push_str(&format!("  {} ", column(x)));
    }
    lines.push(head.trim_end().to_owned());
    for y in 0..=h {
        // The border line north of row y.
        let mut border = "   ".to_owned();
        for x in 0..=w {
            let touching = [
                north_line(state, x - 1, y),
                north_line(state, x, y),
                west_line(state, x, y - 1),
                west_line(state, x, y),
            ];
            border.push(if touching.iter().any(|&c| c != ' ') {
                '+'
            } else {
                ' '
            });
            if x < w {
                let g = north_line(state, x, y);
                border.push_str(&match g {
                    '|' => "---".to_owned(),
                    ' ' => "   ".to_owned(),
                    '#' | '~' => g.to_string().repeat(3),
                    door => format!("-{door}-"),
                });
            }
        }
        lines.push(border.trim_end().to_owned());
        if y == h {
            break;
        }
        let mut row = format!("{:>2} ", i32::from(y) + 1);
        for x in 0..=w {
            row.push(west_line(state, x, y));
            if x < w {
                row.push_str(&cell(state, &marks, Pos(x, y)));
            }
        }
        lines.push(row.trim_end().to_owned());
    }
    Section::diagram(
        format!("Board ({w} x {h} squares, north at the top)"),
        lines,
    )
}

/// The exits on the board's rim and where they lead, each pair once.
fn exits(state: &State) -> Vec<String> {
    let mut wraps = Vec::new();
    let mut portals = Vec::new();
    let mut seen: Vec<(Pos, Dir)> = Vec::new();
    for l in &state.board.links {
        if seen.contains(&(l.from, l.dir)) {
            continue;
        }
        seen.push((l.from, l.dir));
        // The way back: leaving `to` the way one arrives there, reversed.
        seen.push((l.to, l.heading.opposite()));
        let text = format!(
            "{} {} <-> {} {}",
            sq(l.from),
            l.dir.name(),
            sq(l.to),
            l.heading.opposite().name()
        );
        if l.portal {
            portals.push(text);
        } else {
            wraps.push(text);
        }
    }
    let mut out = Vec::new();
    if !wraps.is_empty() {
        out.push(format!(
            "Exits on the rim wrap around to the far edge: {}.",
            wraps.join("; ")
        ));
    }
    if !portals.is_empty() {
        out.push(format!("Portals: {}.", portals.join("; ")));
    }
    out
}

pub(super) fn key(state: &State, viewer: Viewer, names: &[String]) -> Section {
    let marks = initials(state, names);
    let mut lines = Vec::new();
    let wizards: Vec<String> = (0..state.seats())
        .map(|s| {
            let mark = marks.get(s).copied().unwrap_or('?');
            let you = if viewer == Viewer::Seat(s) {
                "you, "
            } else {
                ""
            };
            let name = seat_name(names, s);
            let form = state
                .form(s)
                .map_or(String::new(), |f| format!(", a {}", f.name.to_lowercase()));
            match state.pos(s) {
                Some(p) => format!(
                    "{mark} = {name} ({you}{}{form}) at {}",
                    state.colour(s),
                    sq(p)
                ),
                None => format!("{name} ({you}{}) is dead", state.colour(s)),
            }
        })
        .collect();
    lines.push(format!("Wizards: {}.", wizards.join(", ")));
    lines.push(
        "In a square: wizards by initial, * home base, $ treasure, & item lying there, \
         # stone block, % fog or dust cloud, ^ stone spikes, @ rosebush, \" thornbush, \
         ! booby trap, : tacks, + more than fits (all are listed below)."
            .to_owned(),
    );
    lines.push(
        "Lines: | and --- walls; r, b, g, y in a wall: a door of that colour (only that \
         colour's wizard passes; a created door too); # created wall; ~ wall of fire \
         (passable, burns)."
            .to_owned(),
    );
    let sectors: Vec<String> = (0..state.board.slots.len())
        .map(|i| {
            let home = state
                .board
                .slots
                .get(i)
                .and_then(|s| s.sector)
                .and_then(|c| state.board.home(usize::from(c)));
            match home {
                Some(h) => format!("{}, home {}", sector_words(state, names, i), sq(h)),
                None => sector_words(state, names, i),
            }
        })
        .collect();
    lines.push(format!("Sectors: {}.", sectors.join("; ")));
    lines.extend(exits(state));
    Section::new("Board key", lines)
}

/// Treasures, objects, created walls and damaged walls, in words.
pub(super) fn on_the_board(state: &State, names: &[String]) -> Option<Section> {
    let mut lines = Vec::new();
    for (i, t) in state.treasures.iter().enumerate() {
        let whose = format!(
            "{}'s {} treasure",
            seat_name(names, t.owner),
            state.colour(t.owner)
        );
        let line = match (t.at, state.carrier(i)) {
            (_, Some(c)) => format!(
                "$ {whose}: carried by {}{}.",
                seat_name(names, c),
                state
                    .pos(c)
                    .map(|p| format!(" (at {})", sq(p)))
                    .unwrap_or_default()
            ),
            (Some(p), None) => {
                let mut line = format!("$ {whose}: at {}", sq(p));
                if let Some(h) = state.board.home_of(p)
                    && h != t.owner
                {
                    line.push_str(&format!(
                        ", in {}'s home base (a point for {})",
                        seat_name(names, h),
                        seat_name(names, h)
                    ));
                }
                if leaded(state, i) {
                    line.push_str(", turned to lead by Fool's Gold (nobody can pick it up)");
                }
                line.push('.');
                line
            }
            (None, None) => format!("$ {whose}: off the board."),
        };
        lines.push(line);
    }
    for o in &state.objects {
        let mark = object_mark(o.card.effect());
        let mut line = format!("{mark} {}: {} (object #{})", sq(o.at), o.card.name(), o.id);
        if let Some(words) = object_words(o.card.effect()) {
            line.push_str(&format!(": {words}"));
        }
        if o.mobile() {
            line.push_str(", can be picked up");
        }
        if let Some(spell) = o
            .spell
            .and_then(|id| state.spells.iter().find(|s| s.id == id))
        {
            line.push_str(&format!(
                ", {}'s spell #{}",
                seat_name(names, spell.caster),
                spell.id
            ));
        }
        if o.cracks > 0 {
            line.push_str(&format!(", {} cracks", o.cracks));
        }
        line.push('.');
        lines.push(line);
    }
    let b = &state.board;
    for p in b.squares() {
        for d in Dir::ALL {
            let own = matches!(d, Dir::East | Dir::South) || !b.exists(p.step(d));
            let Some(e) = b.edge(p, d).filter(|_| own) else {
                continue;
            };
            let at = line_words(state, p, d);
            if let Some(c) = e.created {
                let by = state
                    .spells
                    .iter()
                    .find(|s| s.id == c.spell)
                    .map(|s| format!(", {}'s spell #{}", seat_name(names, s.caster), s.id))
                    .unwrap_or_default();
                let cracks = if c.cracks > 0 {
                    format!(", {} cracks", c.cracks)
                } else {
                    String::new()
                };
                let mark = glyph(state, Some(e));
                let door = if c.card.effect() == Effect::CreateDoor {
                    " (a door only its caster passes)"
                } else {
                    ""
                };
                lines.push(format!("{mark} {}{door}: {at}{by}{cracks}.", c.card.name()));
                continue;
            }
            let what = match e.kind {
                EdgeKind::Wall => "wall".to_owned(),
                EdgeKind::Door(s) => format!("{} door", state.colour(s)),
                _ => continue,
            };
            if e.destroyed {
                lines.push(format!("Destroyed {what} on {at}: open now."));
            } else if e.cracks > 0 {
                let limit = if matches!(e.kind, EdgeKind::Door(_)) {
                    super::super::board::DOOR_CRACKS
                } else {
                    super::super::board::WALL_CRACKS
                };
                lines.push(format!(
                    "Damaged {what} on {at}: {} of {limit} cracks.",
                    e.cracks
                ));
            }
            if !e.destroyed && matches!(e.kind, EdgeKind::Door(_)) && state.sealed(p, d) {
                let by = state
                    .spells
                    .iter()
                    .find(|s| {
                        s.card.effect() == Effect::SealDoor
                            && matches!(s.target, super::super::state::Target::Side(q, e)
                                if b.canonical(q, e) == b.canonical(p, d))
                    })
                    .map(|s| format!(", {}'s spell #{}", seat_name(names, s.caster), s.id))
                    .unwrap_or_default();
                lines.push(format!(
                    "Sealed {what} on {at}: nobody passes it (a mist body does){by}."
                ));
            }
        }
    }
    (!lines.is_empty()).then(|| Section::new("On the board", lines))
}
