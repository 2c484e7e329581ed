//! The labyrinth: sector designs (data in `data/sectors.txt`), the 2-, 3- and 4-player layouts,
//! the border lines between squares (walls, doors, created walls), wraparound and portals.
//! Line of sight is in `sight.rs`.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::rules::Seat;

/// Squares per sector side.
pub const SECTOR: i8 = 5;
/// Cracks that destroy a stone wall, and a door.
pub const WALL_CRACKS: u8 = 5;
pub const DOOR_CRACKS: u8 = 3;

const SECTORS_TXT: &str = include_str!("data/sectors.txt");

/// A square, `[x, y]` in JSON; x grows east, y grows south.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
pub struct Pos(pub i8, pub i8);

/// A square in words, as descriptions and mail name it: column a, b, … from x (west to east)
/// and row 1, 2, … from y (north to south), so `[0,0]` is a1 and `[2,3]` is c4.
impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (u8::try_from(self.0), u8::try_from(self.1)) {
            (Ok(x), Ok(y)) if x < 26 => write!(f, "{}{}", char::from(b'a' + x), u16::from(y) + 1),
            _ => write!(f, "[{},{}]", self.0, self.1),
        }
    }
}

impl Pos {
    pub fn step(self, d: Dir) -> Pos {
        let (dx, dy) = d.delta();
        Pos(self.0.saturating_add(dx), self.1.saturating_add(dy))
    }
}

#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Dir {
    North,
    East,
    South,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    pub fn delta(self) -> (i8, i8) {
        match self {
            Dir::North => (0, -1),
            Dir::East => (1, 0),
            Dir::South => (0, 1),
            Dir::West => (-1, 0),
        }
    }

    pub fn opposite(self) -> Dir {
        self.turned(2)
    }

    /// Turned `quarters` quarter turns clockwise.
    pub fn turned(self, quarters: u8) -> Dir {
        let i = match self {
            Dir::North => 0,
            Dir::East => 1,
            Dir::South => 2,
            Dir::West => 3,
        };
        Dir::ALL
            .get((i + usize::from(quarters % 4)) % 4)
            .copied()
            .unwrap_or(self)
    }

    /// Quarter turns clockwise from `self` to `to`.
    pub fn quarters_to(self, to: Dir) -> u8 {
        (0..4).find(|&q| self.turned(q) == to).unwrap_or(0)
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::East => "east",
            Dir::South => "south",
            Dir::West => "west",
        }
    }
}

/// What a border line is by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    Open,
    Wall,
    /// A door of this seat's colour (its sector's seat; the design's own number is replaced
    /// when the sector is placed).
    Door(Seat),
    /// An outer wall: indestructible and impassable.
    Outer,
}

/// A wall created by a spell on a border line (its card says how it behaves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Created {
    pub card: super::cards::CardId,
    /// The spell in play that maintains it.
    pub spell: u32,
    pub cracks: u8,
}

/// A border line between two squares (or on the board's edge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edge {
    pub kind: EdgeKind,
    pub cracks: u8,
    /// A destroyed wall or door: the line is open.
    pub destroyed: bool,
    pub created: Option<Created>,
}

impl Edge {
    const fn of(kind: EdgeKind) -> Edge {
        Edge {
            kind,
            cracks: 0,
            destroyed: false,
            created: None,
        }
    }

    /// A stone wall, door or outer wall standing (not destroyed), ignoring created walls.
    pub fn built(&self) -> bool {
        !self.destroyed && self.kind != EdgeKind::Open
    }

    /// Whether nothing stands on the line, so a wall can be created there.
    pub fn empty(&self) -> bool {
        !self.built() && self.created.is_none()
    }
}

/// A sector slot of the layout and the sector placed in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    pub origin: Pos,
    /// The sector design (= the colour of the seat it belongs to), once placed.
    pub sector: Option<u8>,
    /// Quarter turns clockwise from the design.
    pub turns: u8,
}

/// Moving off `from` through its `dir` side arrives at `to`, travelling `heading`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Link {
    pub from: Pos,
    pub dir: Dir,
    pub to: Pos,
    pub heading: Dir,
    pub portal: bool,
}

/// A portal pair: two (square, exit side) joined.
pub type PortalPair = ((Pos, Dir), (Pos, Dir));

/// A layout: the board size, the sector slots, and the portal pairs.
pub struct Layout {
    pub width: i8,
    pub height: i8,
    pub slots: &'static [Pos],
    pub portals: &'static [PortalPair],
}

/// 2 players: 1 x 2 sectors; 3 players: an L of three with two portal pairs joining the exits
/// that face the gap (and the column and row the gap cuts); 4 players: 2 x 2.
pub fn layout(seats: usize) -> Option<Layout> {
    match seats {
        2 => Some(Layout {
            width: 10,
            height: 5,
            slots: &[Pos(0, 0), Pos(5, 0)],
            portals: &[],
        }),
        3 => Some(Layout {
            width: 10,
            height: 10,
            slots: &[Pos(0, 0), Pos(5, 0), Pos(0, 5)],
            portals: &[
                ((Pos(7, 4), Dir::South), (Pos(4, 7), Dir::East)),
                ((Pos(7, 0), Dir::North), (Pos(0, 7), Dir::West)),
            ],
        }),
        4 => Some(Layout {
            width: 10,
            height: 10,
            slots: &[Pos(0, 0), Pos(5, 0), Pos(0, 5), Pos(5, 5)],
            portals: &[],
        }),
        _ => None,
    }
}

/// A sector design read from `data/sectors.txt`, in design coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Design {
    /// Inner border lines that are not open: (square, side, kind) with side East or South.
    pub lines: Vec<(Pos, Dir, EdgeKind)>,
    pub home: Pos,
    pub treasures: Vec<Pos>,
}

/// Every sector design, read once; `Err` names the first fault.
pub fn designs() -> Result<&'static [Design], String> {
    static DESIGNS: LazyLock<Result<Vec<Design>, String>> = LazyLock::new(read_designs);
    match &*DESIGNS {
        Ok(designs) => Ok(designs),
        Err(e) => Err(e.clone()),
    }
}

/// Reads every sector design from `data/sectors.txt`; `Err` names the first fault.
fn read_designs() -> Result<Vec<Design>, String> {
    let mut out = Vec::new();
    let mut lines = SECTORS_TXT
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    while let Some(head) = lines.next() {
        let n = out.len();
        if head.trim() != format!("sector {n}") {
            return Err(format!("expected \"sector {n}\", found {head:?}"));
        }
        let rows: Vec<Vec<char>> = lines
            .by_ref()
            .take(11)
            .map(|l| l.chars().collect())
            .collect();
        out.push(parse_design(n, &rows)?);
    }
    if out.len() < 4 {
        return Err(format!("{} sector designs, 4 needed", out.len()));
    }
    Ok(out)
}

fn parse_design(n: usize, rows: &[Vec<char>]) -> Result<Design, String> {
    let at = |r: i8, c: i8| -> char {
        usize::try_from(r)
            .ok()
            .and_then(|r| rows.get(r))
            .and_then(|row| usize::try_from(c).ok().and_then(|c| row.get(c)))
            .copied()
            .unwrap_or('?')
    };
    if rows.len() != 11 || rows.iter().any(|r| r.len() != 11) {
        return Err(format!("sector {n}: 11 rows of 11 characters needed"));
    }
    let mut design = Design {
        lines: Vec::new(),
        home: Pos(2, 2),
        treasures: Vec::new(),
    };
    let kind = |ch: char| -> Result<EdgeKind, String> {
        match ch {
            ' ' => Ok(EdgeKind::Open),
            '|' | '-' => Ok(EdgeKind::Wall),
            'D' => Ok(EdgeKind::Door(n)),
            other => Err(format!("sector {n}: {other:?} is not a border line")),
        }
    };
    for y in 0..SECTOR {
        for x in 0..SECTOR {
            match at(2 * y + 1, 2 * x + 1) {
                '.' => {}
                'H' if (x, y) == (2, 2) => {}
                'T' => design.treasures.push(Pos(x, y)),
                other => return Err(format!("sector {n}: square ({x},{y}) is {other:?}")),
            }
            if x < SECTOR - 1 {
                let k = kind(at(2 * y + 1, 2 * x + 2))?;
                if k != EdgeKind::Open {
                    design.lines.push((Pos(x, y), Dir::East, k));
                }
            }
            if y < SECTOR - 1 {
                let k = kind(at(2 * y + 2, 2 * x + 1))?;
                if k != EdgeKind::Open {
                    design.lines.push((Pos(x, y), Dir::South, k));
                }
            }
        }
    }
    if at(5, 5) != 'H' || design.treasures.len() != 2 {
        return Err(format!(
            "sector {n}: a home base in the centre and 2 treasure starts needed"
        ));
    }
    // The outer edge: walls, with the exits in the middle of each side.
    for i in 0..SECTOR {
        let mid = i == SECTOR / 2;
        let expected = |ch: char| {
            if mid {
                ch == ' '
            } else {
                ch == '|' || ch == '-'
            }
        };
        let c = 2 * i + 1;
        if !(expected(at(0, c)) && expected(at(10, c)) && expected(at(c, 0)) && expected(at(c, 10)))
        {
            return Err(format!(
                "sector {n}: the outer edge must be wall with exits mid-side"
            ));
        }
    }
    Ok(design)
}

/// Rotates a design square `quarters` quarter turns clockwise inside the sector.
pub fn rotate_local(p: Pos, quarters: u8) -> Pos {
    let mut p = p;
    for _ in 0..quarters % 4 {
        p = Pos(SECTOR - 1 - p.1, p.0);
    }
    p
}

/// The labyrinth.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub width: i8,
    pub height: i8,
    pub slots: Vec<Slot>,
    /// West sides of (x, y), x in 0..=width: index y * (width + 1) + x.
    pub vertical: Vec<Edge>,
    /// North sides of (x, y), y in 0..=height: index y * width + x.
    pub horizontal: Vec<Edge>,
    pub links: Vec<Link>,
}

impl Board {
    pub fn new(seats: usize) -> Option<Board> {
        let l = layout(seats)?;
        let (w, h) = (
            usize::try_from(l.width).ok()?,
            usize::try_from(l.height).ok()?,
        );
        Some(Board {
            width: l.width,
            height: l.height,
            slots: l
                .slots
                .iter()
                .map(|&origin| Slot {
                    origin,
                    sector: None,
                    turns: 0,
                })
                .collect(),
            vertical: vec![Edge::of(EdgeKind::Outer); (w + 1) * h],
            horizontal: vec![Edge::of(EdgeKind::Outer); w * (h + 1)],
            links: Vec::new(),
        })
    }

    /// The slot whose sector holds `p`.
    pub fn slot_of(&self, p: Pos) -> Option<usize> {
        self.slots.iter().position(|s| {
            (s.origin.0..s.origin.0 + SECTOR).contains(&p.0)
                && (s.origin.1..s.origin.1 + SECTOR).contains(&p.1)
        })
    }

    pub fn exists(&self, p: Pos) -> bool {
        self.slot_of(p).is_some()
    }

    /// Every square, row by row.
    pub fn squares(&self) -> Vec<Pos> {
        let mut out = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                if self.exists(Pos(x, y)) {
                    out.push(Pos(x, y));
                }
            }
        }
        out
    }

    /// The seat whose home base `p` is.
    pub fn home_of(&self, p: Pos) -> Option<Seat> {
        let slot = self.slots.get(self.slot_of(p)?)?;
        let centre = Pos(slot.origin.0 + 2, slot.origin.1 + 2);
        (p == centre).then_some(usize::from(slot.sector?))
    }

    pub fn home(&self, seat: Seat) -> Option<Pos> {
        let slot = self
            .slots
            .iter()
            .find(|s| s.sector.map(usize::from) == Some(seat))?;
        Some(Pos(slot.origin.0 + 2, slot.origin.1 + 2))
    }

    /// The index of the side `d` of `p` in its edge vector (vertical or not).
    fn index(&self, p: Pos, d: Dir) -> Option<(bool, usize)> {
        let (x, y) = match d {
            Dir::North | Dir::West => (p.0, p.1),
            Dir::East => (p.0 + 1, p.1),
            Dir::South => (p.0, p.1 + 1),
        };
        let (w, h) = (self.width, self.height);
        let vertical = matches!(d, Dir::East | Dir::West);
        let ok = if vertical {
            (0..=w).contains(&x) && (0..h).contains(&y)
        } else {
            (0..w).contains(&x) && (0..=h).contains(&y)
        };
        if !ok {
            return None;
        }
        let (x, y, w) = (
            usize::try_from(x).ok()?,
            usize::try_from(y).ok()?,
            usize::try_from(w).ok()?,
        );
        Some(if vertical {
            (true, y * (w + 1) + x)
        } else {
            (false, y * w + x)
        })
    }

    pub fn edge(&self, p: Pos, d: Dir) -> Option<&Edge> {
        match self.index(p, d)? {
            (true, i) => self.vertical.get(i),
            (false, i) => self.horizontal.get(i),
        }
    }

    pub fn edge_mut(&mut self, p: Pos, d: Dir) -> Option<&mut Edge> {
        match self.index(p, d)? {
            (true, i) => self.vertical.get_mut(i),
            (false, i) => self.horizontal.get_mut(i),
        }
    }

    /// The side as (square, East|South) or the board-edge form, so each line has one name.
    pub fn canonical(&self, p: Pos, d: Dir) -> (Pos, Dir) {
        match d {
            Dir::West if self.exists(p.step(Dir::West)) => (p.step(Dir::West), Dir::East),
            Dir::North if self.exists(p.step(Dir::North)) => (p.step(Dir::North), Dir::South),
            _ => (p, d),
        }
    }

    /// The square across side `d` of `p`, and the heading on arrival (through wraparound and
    /// portals too), whatever stands on the line.
    pub fn across(&self, p: Pos, d: Dir) -> Option<(Pos, Dir)> {
        let q = p.step(d);
        if self.exists(q) {
            return Some((q, d));
        }
        self.links
            .iter()
            .find(|l| l.from == p && l.dir == d)
            .map(|l| (l.to, l.heading))
    }

    /// Places `sector` (its design) in `slot`, turned `turns` quarter turns clockwise.
    pub fn place(&mut self, slot: usize, sector: u8, turns: u8, design: &Design) {
        let Some(s) = self.slots.get_mut(slot) else {
            return;
        };
        s.sector = Some(sector);
        s.turns = turns % 4;
        let origin = s.origin;
        self.write_sector(origin, turns, design, None, usize::from(sector));
    }

    /// Writes a sector's lines: its outer ring from the rule (wall, exits mid-side) and its
    /// inner lines from `inner` (already turned) or the design.
    fn write_sector(
        &mut self,
        origin: Pos,
        turns: u8,
        design: &Design,
        inner: Option<&[(Pos, Dir, Edge)]>,
        owner: Seat,
    ) {
        for y in 0..SECTOR {
            for x in 0..SECTOR {
                let p = Pos(origin.0 + x, origin.1 + y);
                for d in Dir::ALL {
                    let on_ring = match d {
                        Dir::North => y == 0,
                        Dir::South => y == SECTOR - 1,
                        Dir::West => x == 0,
                        Dir::East => x == SECTOR - 1,
                    };
                    if on_ring {
                        let mid = match d {
                            Dir::North | Dir::South => x == SECTOR / 2,
                            Dir::East | Dir::West => y == SECTOR / 2,
                        };
                        let kind = if mid { EdgeKind::Open } else { EdgeKind::Wall };
                        if let Some(e) = self.edge_mut(p, d) {
                            *e = Edge::of(kind);
                        }
                    } else if let Some(e) = self.edge_mut(p, d) {
                        *e = Edge::of(EdgeKind::Open);
                    }
                }
            }
        }
        match inner {
            Some(lines) => {
                for &(p, d, e) in lines {
                    if let Some(slot) = self.edge_mut(p, d) {
                        *slot = e;
                    }
                }
            }
            None => {
                for &(p, d, kind) in &design.lines {
                    let kind = match kind {
                        EdgeKind::Door(_) => EdgeKind::Door(owner),
                        other => other,
                    };
                    let q = rotate_local(p, turns);
                    let g = Pos(origin.0 + q.0, origin.1 + q.1);
                    if let Some(e) = self.edge_mut(g, d.turned(turns)) {
                        *e = Edge::of(kind);
                    }
                }
            }
        }
    }

    /// After the last sector is placed: walls on the rim become outer walls, and the rim's
    /// exits are joined by wraparound (the exactly opposite square) or by portals.
    pub fn finish(&mut self, portals: &[PortalPair]) {
        let mut links = Vec::new();
        for p in self.squares() {
            for d in Dir::ALL {
                if self.exists(p.step(d)) {
                    continue;
                }
                let open = self.edge(p, d).is_some_and(|e| e.kind == EdgeKind::Open);
                if !open {
                    if let Some(e) = self.edge_mut(p, d) {
                        *e = Edge::of(EdgeKind::Outer);
                    }
                    continue;
                }
                let portal = portals.iter().find_map(|&(a, b)| {
                    if a == (p, d) {
                        Some(b)
                    } else if b == (p, d) {
                        Some(a)
                    } else {
                        None
                    }
                });
                let target = portal.or_else(|| {
                    let q = match d {
                        Dir::North => Pos(p.0, self.height - 1),
                        Dir::South => Pos(p.0, 0),
                        Dir::West => Pos(self.width - 1, p.1),
                        Dir::East => Pos(0, p.1),
                    };
                    Some((q, d.opposite()))
                });
                if let Some((q, side)) = target
                    && self.exists(q)
                {
                    links.push(Link {
                        from: p,
                        dir: d,
                        to: q,
                        heading: side.opposite(),
                        portal: portal.is_some(),
                    });
                }
            }
        }
        self.links = links;
    }

    /// Whether `p` lies on the outer ring of its sector on side `d` (a sector boundary line).
    pub fn on_sector_ring(&self, p: Pos, d: Dir) -> bool {
        let Some(slot) = self.slot_of(p).and_then(|i| self.slots.get(i)) else {
            return true;
        };
        let (x, y) = (p.0 - slot.origin.0, p.1 - slot.origin.1);
        match d {
            Dir::North => y == 0,
            Dir::South => y == SECTOR - 1,
            Dir::West => x == 0,
            Dir::East => x == SECTOR - 1,
        }
    }

    /// Turns the sector in `slot` by `quarters` clockwise: its inner lines turn with it; its ring
    /// is rebuilt (created walls there are returned so their spells end; damage is repaired).
    /// Returns the map of old squares to new ones and the spells whose walls were on the ring.
    pub fn rotate(&mut self, slot: usize, quarters: u8) -> (Vec<(Pos, Pos)>, Vec<u32>) {
        let Some(s) = self.slots.get(slot).copied() else {
            return (Vec::new(), Vec::new());
        };
        let o = s.origin;
        let mut moved = Vec::new();
        let mut inner = Vec::new();
        let mut ended = Vec::new();
        for y in 0..SECTOR {
            for x in 0..SECTOR {
                let old = Pos(o.0 + x, o.1 + y);
                let l = rotate_local(Pos(x, y), quarters);
                let new = Pos(o.0 + l.0, o.1 + l.1);
                moved.push((old, new));
                for d in Dir::ALL {
                    let Some(e) = self.edge(old, d).copied() else {
                        continue;
                    };
                    if self.on_sector_ring(old, d) {
                        if let Some(c) = e.created {
                            ended.push(c.spell);
                        }
                    } else if matches!(d, Dir::East | Dir::South) {
                        inner.push((new, d.turned(quarters), e));
                    }
                }
            }
        }
        if let Some(s) = self.slots.get_mut(slot) {
            s.turns = (s.turns + quarters) % 4;
        }
        let design = Design {
            lines: Vec::new(),
            home: Pos(2, 2),
            treasures: Vec::new(),
        };
        self.write_sector(o, 0, &design, Some(&inner), 0);
        // Lines on the rim of the whole board are outer walls again.
        for p in self.squares() {
            for d in Dir::ALL {
                if !self.exists(p.step(d))
                    && let Some(e) = self.edge_mut(p, d)
                    && e.kind == EdgeKind::Wall
                {
                    *e = Edge::of(EdgeKind::Outer);
                }
            }
        }
        ended.sort_unstable();
        ended.dedup();
        (moved, ended)
    }
}
