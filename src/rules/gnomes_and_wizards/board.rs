//! The board's geometry: triangle tiles on a triangular grid, the shapes (stand-ins from
//! CONTENT.md), adjacency, distances, crystal mines, the A/B halves and the leader starts.
//!
//! A shape is a hexagon given by its six sides (top, upper right, lower right, bottom, lower
//! left, upper left; a side may be 0). Row `r` of triangles lies between two horizontal lines;
//! a triangle's column is the left end, in half edges, of its horizontal edge, so an upward
//! triangle `(r, c)` shares its bottom edge with the downward triangle `(r + 1, c)` and
//! neighbours in a row differ by one column.

use std::sync::{Mutex, OnceLock};

use serde::{Deserialize, Serialize};

/// A tile position: an index into [`Geometry::tiles`].
pub type TileId = u8;

/// The half of the board a position belongs to (even player counts).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    A,
    B,
}

/// One position of the shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pub row: i16,
    pub col: i16,
    pub up: bool,
    /// A crystal mine (the innermost ring): never flipped.
    pub mine: bool,
    /// Touches the empty space around the board.
    pub edge: bool,
    /// The single centre position of a three-player board: the unused faction's tile,
    /// face down for the whole game.
    pub centre: bool,
    pub side: Side,
    /// Squared distance to the board's centre, scaled to an integer (for "nearest" rules).
    pub centre_distance: i64,
}

/// The board's shape, precomputed once (it is public and never changes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Geometry {
    pub tiles: Vec<Position>,
    /// Adjacent positions (sharing an edge), by position.
    pub adjacent: Vec<Vec<TileId>>,
    /// Where Leaders may start: mirrored perimeter tiles spread apart (`leader_starts`).
    pub starts: Vec<TileId>,
}

/// The board's shape: the rulebook's, two predefined others, or the players' own ('Shape It
/// Up').
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// The rulebook's shape for the seat count.
    #[default]
    Standard,
    /// 2 players: a 4×3 parallelogram; 3: a triangle of side 6; 4: a 4-4-1 hexagon.
    Broad,
    /// 2 players: a 6×2 parallelogram; 3: a triangle of side 6; 4: a 6×4 parallelogram.
    Long,
    /// 'Shape It Up': a shape of the players' own, a hexagon of triangles given by its six
    /// sides (top, upper right, lower right, bottom, lower left, upper left; a side may be 0),
    /// e.g. `{"hexagon":[3,3,3,3,3,3]}`. See [`check_shape`] for which are allowed.
    Hexagon([u8; 6]),
}

/// The most rows and columns (half edges) of a board of the players' own: as large as the
/// largest predefined board, so that every view and diagram still fits.
const MAX_ROWS: usize = 7;
const MAX_COLUMNS: i16 = 15;

/// The seat counts (1–4, solo on the two-tribe board) for which `shape` makes a board.
pub fn seat_counts(shape: Shape) -> Vec<usize> {
    (1..=4)
        .filter(|&seats| check_shape(shape, seats.max(2)).is_ok())
        .collect()
}

/// Whether `shape` makes a board for `players` tribes: a closed hexagon (opposite sides differ
/// by the same amount all round), at least one position for each of the tribes' 12 tiles and
/// at most 12 more, and no larger than [`MAX_ROWS`] rows of [`MAX_COLUMNS`] triangles.
pub fn check_shape(shape: Shape, players: usize) -> Result<(), String> {
    let Shape::Hexagon(s) = shape else {
        return Ok(());
    };
    let [a, b, c, d, e, f] = s.map(i16::from);
    if a - d != e - b || e - b != c - f {
        return Err(format!(
            "a hexagon of sides {s:?} does not close: each side minus the opposite one \
             (top - bottom, lower left - upper right, lower right - upper left) must be the same"
        ));
    }
    if usize::from(s[1]) + usize::from(s[2]) > MAX_ROWS {
        return Err(format!(
            "a board may be at most {MAX_ROWS} rows high (upper right + lower right)"
        ));
    }
    let cells = cells([a, b, c, d, e, f]);
    let tiles = 12 * players;
    let cols = cells.iter().map(|&(_, col, _)| col);
    let span = cols.clone().max().unwrap_or(0) - cols.min().unwrap_or(0) + 1;
    if span > MAX_COLUMNS {
        return Err(format!(
            "a board may be at most {MAX_COLUMNS} triangles wide (it has {span})"
        ));
    }
    if cells.len() < tiles || cells.len() > tiles + 12 {
        return Err(format!(
            "a hexagon of sides {s:?} has {} spaces; {players} tribes need {tiles} to {}",
            cells.len(),
            tiles + 12
        ));
    }
    Ok(())
}

struct ShapeData {
    sides: [i16; 6],
    centre: bool,
    /// How many distance shells around the centre are crystal mines.
    mine_shells: usize,
    /// Or (a board of the players' own): the innermost shells until this many mines, "Crystal
    /// Mines lumped together and close to the middle of the board" (l.543).
    min_mines: usize,
}

fn shape_data(shape: Shape, players: usize) -> ShapeData {
    if let Shape::Hexagon(s) = shape {
        let sides = s.map(i16::from);
        let spaces = cells(sides).len();
        return ShapeData {
            sides,
            centre: false,
            mine_shells: 0,
            min_mines: spaces.div_ceil(5).max(1),
        };
    }
    let (sides, centre, mine_shells) = match (shape, players) {
        (Shape::Standard, 3) => ([3, 2, 3, 2, 3, 2], true, 2),
        (Shape::Standard, 4) => ([2, 5, 2, 2, 5, 2], false, 3),
        (Shape::Standard, _) => ([2, 2, 2, 2, 2, 2], false, 1),
        (Shape::Broad, 3) | (Shape::Long, 3) => ([6, 0, 6, 0, 6, 0], false, 1),
        (Shape::Broad, 4) => ([4, 4, 1, 4, 4, 1], false, 3),
        (Shape::Long, 4) => ([6, 4, 0, 6, 4, 0], false, 2),
        (Shape::Broad, _) => ([4, 3, 0, 4, 3, 0], false, 2),
        (Shape::Long, _) => ([6, 2, 0, 6, 2, 0], false, 1),
        (Shape::Hexagon(_), _) => ([2, 2, 2, 2, 2, 2], false, 1),
    };
    ShapeData {
        sides,
        centre,
        mine_shells,
        min_mines: 0,
    }
}

static NO_BOARD: Geometry = Geometry {
    tiles: Vec::new(),
    adjacent: Vec::new(),
    starts: Vec::new(),
};

/// The geometry of `shape` for `players` tribes, computed once per process (it is a pure
/// function of its arguments, so sharing it changes nothing but speed).
pub fn cached(shape: Shape, players: usize) -> &'static Geometry {
    if let Shape::Hexagon(_) = shape {
        return cached_own(shape, players.clamp(2, 4));
    }
    static CACHE: OnceLock<Vec<((Shape, usize), Geometry)>> = OnceLock::new();
    let all = CACHE.get_or_init(|| {
        let mut all = Vec::new();
        for shape in [Shape::Standard, Shape::Broad, Shape::Long] {
            for p in 2..=4 {
                all.push(((shape, p), geometry(shape, p)));
            }
        }
        all
    });
    all.iter()
        .find(|(k, _)| *k == (shape, players.clamp(2, 4)))
        .map_or(&NO_BOARD, |(_, g)| g)
}

/// The boards of the players' own, each built once and kept for the process (few: a game's
/// options name one, and [`check_shape`] bounds them).
fn cached_own(shape: Shape, players: usize) -> &'static Geometry {
    type Own = Vec<((Shape, usize), &'static Geometry)>;
    static OWN: Mutex<Own> = Mutex::new(Vec::new());
    let mut own = OWN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(&(_, g)) = own.iter().find(|(k, _)| *k == (shape, players)) {
        return g;
    }
    let g: &'static Geometry = Box::leak(Box::new(geometry(shape, players)));
    own.push(((shape, players), g));
    g
}

/// Builds the geometry of `shape` for `players` tribes (solo uses the two-player board).
pub fn geometry(shape: Shape, players: usize) -> Geometry {
    let data = shape_data(shape, players);
    let cells = cells(data.sides);
    let n = i64::try_from(cells.len()).unwrap_or(1).max(1);
    let sum_x: i64 = cells.iter().map(|&(_, c, _)| i64::from(c) + 1).sum();
    let sum_y: i64 = cells.iter().map(|&(r, _, up)| centroid_y(r, up)).sum();
    let rel = |&(r, c, up): &(i16, i16, bool)| {
        (
            n * (i64::from(c) + 1) - sum_x,
            n * centroid_y(r, up) - sum_y,
        )
    };
    let mut tiles: Vec<Position> = cells
        .iter()
        .map(|cell| {
            let (dx, dy) = rel(cell);
            Position {
                row: cell.0,
                col: cell.1,
                up: cell.2,
                mine: false,
                edge: false,
                centre: false,
                side: if dx < 0 || (dx == 0 && dy < 0) {
                    Side::A
                } else {
                    Side::B
                },
                centre_distance: 3 * dx * dx + dy * dy,
            }
        })
        .collect();
    let adjacent: Vec<Vec<TileId>> = cells
        .iter()
        .map(|&(r, c, up)| {
            let wanted = [(r, c - 1), (r, c + 1), (if up { r + 1 } else { r - 1 }, c)];
            let mut found: Vec<TileId> = cells
                .iter()
                .enumerate()
                .filter(|(_, (r2, c2, _))| wanted.contains(&(*r2, *c2)))
                .filter_map(|(i, _)| TileId::try_from(i).ok())
                .collect();
            found.sort_unstable();
            found
        })
        .collect();
    for (tile, adj) in tiles.iter_mut().zip(&adjacent) {
        tile.edge = adj.len() < 3;
    }
    let mut shells: Vec<i64> = tiles.iter().map(|t| t.centre_distance).collect();
    shells.sort_unstable();
    shells.dedup();
    let mut shell = shells.iter();
    if data.centre
        && let Some(&d) = shell.next()
    {
        for t in tiles.iter_mut().filter(|t| t.centre_distance == d) {
            t.centre = true;
        }
    }
    let mut mine_distances: Vec<i64> = shell.clone().take(data.mine_shells).copied().collect();
    if data.min_mines > 0 {
        let mut count = 0;
        for &d in shell {
            if count >= data.min_mines {
                break;
            }
            mine_distances.push(d);
            count += tiles.iter().filter(|t| t.centre_distance == d).count();
        }
    }
    for t in &mut tiles {
        t.mine = mine_distances.contains(&t.centre_distance);
    }
    let rels: Vec<(i64, i64)> = cells.iter().map(rel).collect();
    let mut geometry = Geometry {
        tiles,
        adjacent,
        starts: Vec::new(),
    };
    geometry.starts = leader_starts(&geometry, &rels, players);
    geometry
}

/// Where Leaders may start: mirrored perimeter tiles, spread apart (CONTENT.md: "Leaders start
/// on mirrored perimeter tiles"). The edge tile (no mine) farthest from the centre comes first
/// (the lowest number on a tie), with its mirror through the centre for an even number of
/// tribes; then, until every tribe has one, the edge tile farthest in steps from those chosen
/// (then farthest from the centre, then the lowest number), again with its mirror. So two
/// players start on a mirrored pair, four on two mirrored pairs far apart, three spread round.
fn leader_starts(g: &Geometry, rels: &[(i64, i64)], players: usize) -> Vec<TileId> {
    let candidates: Vec<TileId> = g
        .ids()
        .filter(|&t| g.tile(t).is_some_and(|p| p.edge && !p.mine && !p.centre))
        .collect();
    let centre_distance = |t: TileId| g.tile(t).map_or(0, |p| p.centre_distance);
    let mirror = |t: TileId| {
        let (dx, dy) = rels.get(usize::from(t)).copied()?;
        let i = rels.iter().position(|&r| r == (-dx, -dy))?;
        TileId::try_from(i).ok()
    };
    let mirrored = players.is_multiple_of(2);
    let mut starts: Vec<TileId> = Vec::new();
    let add = |starts: &mut Vec<TileId>, t: TileId| {
        starts.push(t);
        if mirrored
            && let Some(m) = mirror(t)
            && candidates.contains(&m)
            && !starts.contains(&m)
        {
            starts.push(m);
        }
    };
    let distances: Vec<Vec<Option<u8>>> = candidates
        .iter()
        .map(|&t| g.distances(t, |_| true))
        .collect();
    let steps = |a: TileId, b: TileId| {
        candidates
            .iter()
            .position(|&c| c == a)
            .and_then(|i| distances.get(i))
            .and_then(|d| d.get(usize::from(b)).copied().flatten())
            .unwrap_or(0)
    };
    while starts.len() < players.max(2) {
        let next = candidates
            .iter()
            .copied()
            .filter(|t| !starts.contains(t))
            .max_by_key(|&t| {
                let apart = starts.iter().map(|&s| steps(s, t)).min().unwrap_or(0);
                (apart, centre_distance(t), std::cmp::Reverse(t))
            });
        let Some(next) = next else {
            break;
        };
        add(&mut starts, next);
    }
    starts.sort_unstable();
    starts
}

fn centroid_y(row: i16, up: bool) -> i64 {
    3 * i64::from(row) + if up { 2 } else { 1 }
}

/// The triangles (row, column, pointing up) of the hexagon with these sides, row by row.
fn cells(sides: [i16; 6]) -> Vec<(i16, i16, bool)> {
    let [
        top,
        upper_right,
        lower_right,
        _bottom,
        _lower_left,
        upper_left,
    ] = sides;
    let height = upper_right + lower_right;
    let mut cells = Vec::new();
    let (mut x, mut len) = (0i16, top);
    for row in 0..height {
        let left_out = row < upper_left;
        let right_out = row < upper_right;
        let bottom_x = if left_out { x - 1 } else { x + 1 };
        let turn = |out: bool| if out { 1 } else { -1 };
        let bottom_len = len + (turn(left_out) + turn(right_out)) / 2;
        let mut row_cells: Vec<(i16, i16, bool)> = (0..len)
            .map(|k| (row, x + 2 * k, false))
            .chain((0..bottom_len).map(|k| (row, bottom_x + 2 * k, true)))
            .collect();
        row_cells.sort_unstable_by_key(|&(_, c, _)| c);
        cells.extend(row_cells);
        x = bottom_x;
        len = bottom_len;
    }
    cells
}

impl Geometry {
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    pub fn tile(&self, t: TileId) -> Option<&Position> {
        self.tiles.get(usize::from(t))
    }

    pub fn adjacent(&self, t: TileId) -> &[TileId] {
        self.adjacent.get(usize::from(t)).map_or(&[], Vec::as_slice)
    }

    pub fn ids(&self) -> impl Iterator<Item = TileId> + '_ {
        (0..self.tiles.len()).filter_map(|i| TileId::try_from(i).ok())
    }

    /// Steps from `from` to every position, moving through positions `passable` allows
    /// (the start always counts); `None` where unreachable.
    pub fn distances(&self, from: TileId, passable: impl Fn(TileId) -> bool) -> Vec<Option<u8>> {
        let mut dist = vec![None; self.len()];
        if let Some(d) = dist.get_mut(usize::from(from)) {
            *d = Some(0);
        }
        let mut frontier = vec![from];
        let mut step = 0u8;
        while !frontier.is_empty() {
            step = step.saturating_add(1);
            let mut next = Vec::new();
            for &t in &frontier {
                for &n in self.adjacent(t) {
                    if let Some(slot) = dist.get_mut(usize::from(n))
                        && slot.is_none()
                        && passable(n)
                    {
                        *slot = Some(step);
                        next.push(n);
                    }
                }
            }
            frontier = next;
        }
        dist
    }

    /// Plain distance (every position passable).
    pub fn distance(&self, a: TileId, b: TileId) -> Option<u8> {
        self.distances(a, |_| true)
            .get(usize::from(b))
            .copied()
            .flatten()
    }
}
