//! The board's geometry: triangle tiles on a triangular grid, the shapes (stand-ins from
//! CONTENT.md), adjacency, distances, crystal mines, the A/B halves and the leader starts.
//!
//! A shape is a hexagon given by its six sides (top, upper right, lower right, bottom, lower
//! left, upper left; a side may be 0). Row `r` of triangles lies between two horizontal lines;
//! a triangle's column is the left end, in half edges, of its horizontal edge, so an upward
//! triangle `(r, c)` shares its bottom edge with the downward triangle `(r + 1, c)` and
//! neighbours in a row differ by one column.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// A tile position: an index into [`Geometry::tiles`].
pub type TileId = u8;

/// The half of the board a position belongs to (even player counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
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
    /// Where Leaders may start (mirrored perimeter tiles farthest from the centre).
    pub starts: Vec<TileId>,
}

/// The predefined shapes ('Shape It Up' offers the others).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// The rulebook's shape for the seat count.
    #[default]
    Standard,
    /// 2 players: a 4×3 parallelogram; 3: a triangle of side 6; 4: a 4-4-1 hexagon.
    Broad,
    /// 2 players: a 6×2 parallelogram; 3: a triangle of side 6; 4: a 6×4 parallelogram.
    Long,
}

struct ShapeData {
    sides: [i16; 6],
    centre: bool,
    /// How many distance shells around the centre are crystal mines.
    mine_shells: usize,
}

fn shape_data(shape: Shape, players: usize) -> ShapeData {
    let (sides, centre, mine_shells) = match (shape, players) {
        (Shape::Standard, 3) => ([3, 2, 3, 2, 3, 2], true, 2),
        (Shape::Standard, 4) => ([2, 5, 2, 2, 5, 2], false, 3),
        (Shape::Standard, _) => ([2, 2, 2, 2, 2, 2], false, 1),
        (Shape::Broad, 3) | (Shape::Long, 3) => ([6, 0, 6, 0, 6, 0], false, 1),
        (Shape::Broad, 4) => ([4, 4, 1, 4, 4, 1], false, 3),
        (Shape::Long, 4) => ([6, 4, 0, 6, 4, 0], false, 2),
        (Shape::Broad, _) => ([4, 3, 0, 4, 3, 0], false, 2),
        (Shape::Long, _) => ([6, 2, 0, 6, 2, 0], false, 1),
    };
    ShapeData {
        sides,
        centre,
        mine_shells,
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
    let mine_distances: Vec<i64> = shell.take(data.mine_shells).copied().collect();
    for t in &mut tiles {
        t.mine = mine_distances.contains(&t.centre_distance);
    }
    // The farthest edge tiles, shell by shell, until every tribe has one to choose.
    let mut edge_shells: Vec<i64> = tiles
        .iter()
        .filter(|t| t.edge && !t.mine)
        .map(|t| t.centre_distance)
        .collect();
    edge_shells.sort_unstable_by(|a, b| b.cmp(a));
    edge_shells.dedup();
    let mut starts: Vec<TileId> = Vec::new();
    for d in edge_shells {
        if starts.len() >= players.max(2) {
            break;
        }
        starts.extend(
            tiles
                .iter()
                .enumerate()
                .filter(|(_, t)| t.edge && !t.mine && t.centre_distance == d)
                .filter_map(|(i, _)| TileId::try_from(i).ok()),
        );
    }
    starts.sort_unstable();
    Geometry {
        tiles,
        adjacent,
        starts,
    }
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
