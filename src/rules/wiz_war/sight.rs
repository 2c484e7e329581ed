//! Line of sight, in integer geometry on doubled coordinates: the dot of square (x, y) is
//! (2x + 1, 2y + 1) and border lines lie on even coordinates, so nothing needs fractions. A line
//! from dot to dot is blocked by any point of a wall (a column is a wall's end point), a closed
//! door, or a square an object fills. Through wraparound and portals, the far side of the board
//! is laid next to the link's border line (turned to fit) and the line must pass through the
//! link's opening. A line may pass two links (rulebook l.242 treats linked squares as directly
//! adjacent, without limit); two is as many as a straight line can pass on a board of 5x5
//! sectors before it has crossed the whole board.

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use super::board::{Board, Dir, EdgeKind, Link, Pos};

type Pt = (i32, i32);

/// A blocking segment in doubled coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seg(Pt, Pt);

pub fn dot(p: Pos) -> Pt {
    (2 * i32::from(p.0) + 1, 2 * i32::from(p.1) + 1)
}

/// The two ends of side `d` of `p`.
fn side(p: Pos, d: Dir) -> Seg {
    let (x, y) = (2 * i32::from(p.0), 2 * i32::from(p.1));
    match d {
        Dir::North => Seg((x, y), (x + 2, y)),
        Dir::South => Seg((x, y + 2), (x + 2, y + 2)),
        Dir::West => Seg((x, y), (x, y + 2)),
        Dir::East => Seg((x + 2, y), (x + 2, y + 2)),
    }
}

/// The floor of n / d (d not 0).
fn floor_div(n: i64, d: i64) -> i64 {
    if d < 0 {
        (-n).div_euclid(-d)
    } else {
        n.div_euclid(d)
    }
}

fn cross(o: Pt, a: Pt, b: Pt) -> i64 {
    let (ax, ay) = (i64::from(a.0 - o.0), i64::from(a.1 - o.1));
    let (bx, by) = (i64::from(b.0 - o.0), i64::from(b.1 - o.1));
    ax * by - ay * bx
}

fn on_segment(p: Pt, a: Pt, b: Pt) -> bool {
    p.0 >= a.0.min(b.0) && p.0 <= a.0.max(b.0) && p.1 >= a.1.min(b.1) && p.1 <= a.1.max(b.1)
}

/// Whether the closed segments touch.
fn touches(p1: Pt, p2: Pt, s: Seg) -> bool {
    let (q1, q2) = (s.0, s.1);
    // Closed segments that touch share a point, which lies in both bounding boxes.
    if p1.0.max(p2.0) < q1.0.min(q2.0)
        || q1.0.max(q2.0) < p1.0.min(p2.0)
        || p1.1.max(p2.1) < q1.1.min(q2.1)
        || q1.1.max(q2.1) < p1.1.min(p2.1)
    {
        return false;
    }
    let d1 = cross(q1, q2, p1).signum();
    let d2 = cross(q1, q2, p2).signum();
    let d3 = cross(p1, p2, q1).signum();
    let d4 = cross(p1, p2, q2).signum();
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    (d1 == 0 && on_segment(p1, q1, q2))
        || (d2 == 0 && on_segment(p2, q1, q2))
        || (d3 == 0 && on_segment(q1, p1, p2))
        || (d4 == 0 && on_segment(q2, p1, p2))
}

/// A link's frame: the far side of the board turned and moved so that `link.to` lies across the
/// link's line from `link.from`, and the axes `u` (along the link's direction) and `v` (across).
#[derive(Clone, Copy, Debug)]
struct Frame {
    quarters: u8,
    shift: Pt,
    dx: i64,
    dy: i64,
    /// The middle of the link's line.
    mid: Pt,
}

impl Frame {
    fn of(link: &Link) -> Frame {
        let quarters = link.heading.quarters_to(link.dir);
        let next = dot(link.from.step(link.dir));
        let r = Frame::rot_by(quarters, dot(link.to));
        let (dx, dy) = link.dir.delta();
        let line = side(link.from, link.dir);
        Frame {
            quarters,
            shift: (next.0 - r.0, next.1 - r.1),
            dx: i64::from(dx),
            dy: i64::from(dy),
            mid: ((line.0.0 + line.1.0) / 2, (line.0.1 + line.1.1) / 2),
        }
    }

    fn rot_by(quarters: u8, p: Pt) -> Pt {
        let mut p = p;
        for _ in 0..quarters {
            p = (-p.1, p.0);
        }
        p
    }

    /// A point of the far side of the board, laid out beyond the link.
    fn tr(&self, p: Pt) -> Pt {
        let q = Frame::rot_by(self.quarters, p);
        (q.0 + self.shift.0, q.1 + self.shift.1)
    }

    /// This frame's map applied after `inner`'s: a point of the board laid out beyond `inner`'s
    /// link and then beyond this one.
    fn then(&self, inner: &Frame) -> Frame {
        let q = Frame::rot_by(self.quarters, inner.shift);
        let (dx, dy) = Frame::rot_by(
            self.quarters,
            (
                i32::try_from(inner.dx).unwrap_or(0),
                i32::try_from(inner.dy).unwrap_or(0),
            ),
        );
        Frame {
            quarters: (self.quarters + inner.quarters) % 4,
            shift: (q.0 + self.shift.0, q.1 + self.shift.1),
            dx: i64::from(dx),
            dy: i64::from(dy),
            mid: self.tr(inner.mid),
        }
    }

    /// Where a line from `a` to `b` crosses this frame's link line, as (numerator, denominator)
    /// of its parameter along the line, if it crosses forwards through the opening.
    fn crossing(&self, a: Pt, b: Pt) -> Option<(i64, i64)> {
        let c = self.u(self.mid);
        let (ua, ub) = (self.u(a), self.u(b));
        if !(ua < c && ub > c) {
            return None;
        }
        let den = ub - ua;
        let cross_v = self.v(a) * den + (self.v(b) - self.v(a)) * (c - ua);
        let vm = self.v(self.mid);
        if !((vm - 1) * den < cross_v && cross_v < (vm + 1) * den) {
            return None;
        }
        Some((c - ua, den))
    }

    /// The two ends of the link's opening.
    fn opening(&self) -> (Pt, Pt) {
        let (dx, dy) = (
            i32::try_from(self.dx).unwrap_or(0),
            i32::try_from(self.dy).unwrap_or(0),
        );
        (
            (self.mid.0 - dy, self.mid.1 + dx),
            (self.mid.0 + dy, self.mid.1 - dx),
        )
    }

    fn u(&self, p: Pt) -> i64 {
        i64::from(p.0) * self.dx + i64::from(p.1) * self.dy
    }

    fn v(&self, p: Pt) -> i64 {
        -i64::from(p.0) * self.dy + i64::from(p.1) * self.dx
    }
}

/// Which closed doors block sight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doors {
    /// Every closed door blocks.
    Block,
    /// The board's doors do not block; created doors do (a Visionstone until edition 1).
    BoardClear,
    /// No door blocks, created ones neither (a Visionstone from edition 1: "doors do not block
    /// your line of sight", and a created door blocks "like a closed door").
    AllClear,
}

/// Two links a line from some square could pass in turn: the first link (an index into the
/// frames), the board laid out beyond both, and the edges of the narrow cone of lines from the
/// square through both openings (a point `right`, a point `left` on them).
#[derive(Clone, Copy, Debug)]
struct Chain {
    first: usize,
    both: Frame,
    right: Pt,
    left: Pt,
}

/// For each square of a board and each square it might see (both by grid cell,
/// `y * width + x`), the chains of two links a line between them could pass: the target, laid
/// out beyond both links, lies in the chain's cone. Walls are not considered here.
type Chains = Arc<Vec<Vec<Vec<Chain>>>>;

/// The chains of the boards seen last, by (width, height, links). The links never change once
/// the board is built (rotating a sector leaves exits and portals where they are), so this
/// geometry is worked out once per layout rather than once per state. A memo only: losing it
/// (a poisoned lock) just means working it out again.
static CHAINS: Mutex<ChainMemo> = Mutex::new(Vec::new());
/// Remembered boards: (width, height, links) and their chains.
type ChainMemo = Vec<((i8, i8, Vec<Link>), Chains)>;
/// Boards remembered at most (there are three layouts; tests build others).
const CHAINS_KEPT: usize = 8;

/// A memo entry of [`Sight::sees`]: `None` until worked out.
type Remembered = Option<Option<Pt>>;

/// Answers of [`Sight::sees`] already worked out: for each origin by grid cell
/// (`y * width + x`), one entry per grid square, unknown until asked (a row is empty until its
/// origin is asked about).
type Answers = Rc<RefCell<Vec<Vec<Remembered>>>>;

/// Everything [`Sight::sees`] depends on: the board's size and links, its blocking lines, and
/// the squares objects fill. Two states alike in these see alike, whatever else differs (the
/// wizards, their cards, the turn), so their answers are shared.
#[derive(PartialEq, Eq)]
struct SightKey {
    width: i8,
    height: i8,
    links: Vec<Link>,
    vertical: Vec<bool>,
    horizontal: Vec<bool>,
    filled: Vec<Pos>,
}

impl SightKey {
    /// A quick fingerprint (FNV-1a) to tell most keys apart before comparing them whole.
    fn fingerprint(&self) -> u64 {
        let lines = self
            .vertical
            .iter()
            .chain(&self.horizontal)
            .map(|&b| u8::from(b));
        let filled = self
            .filled
            .iter()
            .flat_map(|p| p.0.to_le_bytes().into_iter().chain(p.1.to_le_bytes()));
        lines
            .chain(filled)
            .fold(0xcbf2_9ce4_8422_2325, |h: u64, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            })
    }
}

/// Boards seen at most in the memo of answers (a look-ahead meets a few: walls destroyed or
/// created, objects placed).
const ANSWERS_KEPT: usize = 32;

thread_local! {
    /// The answers of the boards seen last on this thread, by [`SightKey`], the latest last.
    /// The bot weighs many states of the same board, each with a [`Sight`] of its own; this
    /// memo lets them share what was worked out. A memo only: sight is a function of the key,
    /// so the answers are the same whether remembered or worked out again.
    static ANSWERS: RefCell<Vec<(u64, SightKey, Answers)>> = const { RefCell::new(Vec::new()) };
}

/// The shared answers of boards like `key`'s, or new ones (`cells` grid squares).
fn answers_for(key: SightKey, cells: usize) -> Answers {
    let fresh = || Rc::new(RefCell::new(vec![Vec::new(); cells]));
    let fingerprint = key.fingerprint();
    ANSWERS.with(|memo| {
        let Ok(mut memo) = memo.try_borrow_mut() else {
            return fresh();
        };
        if let Some(k) = memo
            .iter()
            .position(|(f, k, _)| *f == fingerprint && *k == key)
        {
            let entry = memo.remove(k);
            let answers = Rc::clone(&entry.2);
            memo.push(entry);
            return answers;
        }
        let answers = fresh();
        if memo.len() >= ANSWERS_KEPT {
            memo.remove(0);
        }
        memo.push((fingerprint, key, Rc::clone(&answers)));
        answers
    })
}

/// What blocks sight: the board's lines and the squares objects fill.
pub struct Sight<'a> {
    board: &'a Board,
    /// Every blocking segment (for sight through links).
    segs: Vec<(Seg, Option<Pos>)>,
    /// Blocking lines by grid position, for the direct check: vertical lines at doubled x = 2k
    /// covering y in [2m, 2m + 2] at `m * (width + 1) + k`; horizontal at `m * width + k`.
    vertical: Vec<bool>,
    horizontal: Vec<bool>,
    filled: Vec<Pos>,
    /// Every square of the board, row by row.
    squares: Vec<Pos>,
    /// The frame of each of the board's links.
    frames: Vec<Frame>,
    /// Answers of [`Sight::sees`] already worked out, shared with every sight of a board
    /// alike ([`SightKey`]).
    memo: Answers,
    /// For each origin asked about, the pairs of links (indices into `frames`) a line from it
    /// could pass in turn: the cone through the first opening meets the second opening.
    chains: OnceCell<Chains>,
    /// Whether a border line may be seen through a link ([`Sight::sees_side`]).
    lines_through_links: bool,
}

impl<'a> Sight<'a> {
    /// `filled`: squares an object fills. `doors`: which closed doors block (Visionstone).
    pub fn new(board: &'a Board, filled: &[Pos], doors: Doors) -> Sight<'a> {
        let doors_clear = doors != Doors::Block;
        let w = usize::try_from(board.width).unwrap_or(0);
        let h = usize::try_from(board.height).unwrap_or(0);
        let squares = board.squares();
        let mut exists = vec![false; w * h];
        for p in &squares {
            if let (Ok(x), Ok(y)) = (usize::try_from(p.0), usize::try_from(p.1))
                && let Some(e) = exists.get_mut(y * w + x)
            {
                *e = true;
            }
        }
        let is_square = |x: usize, y: usize| -> bool {
            x < w && y < h && exists.get(y * w + x).copied().unwrap_or(false)
        };
        let blocks = |e: &super::board::Edge| -> bool {
            match e.created {
                Some(c) if c.card.effect() == super::cards::Effect::CreateDoor => {
                    doors != Doors::AllClear
                }
                Some(c) => c.card.effect() != super::cards::Effect::WallOfFire || e.built(),
                None => match e.kind {
                    _ if e.destroyed => false,
                    EdgeKind::Open => false,
                    EdgeKind::Door(_) => !doors_clear,
                    EdgeKind::Wall | EdgeKind::Outer => true,
                },
            }
        };
        // Each line of the board once: those beside at least one square (the north and west
        // sides of every square, plus the east and south rim).
        let mut segs = Vec::new();
        let mut vertical = vec![false; (w + 1) * h];
        let mut horizontal = vec![false; w * (h + 1)];
        for y in 0..h {
            for x in 0..=w {
                let beside = is_square(x, y) || (x > 0 && is_square(x - 1, y));
                let i = y * (w + 1) + x;
                if beside
                    && board.vertical.get(i).is_some_and(blocks)
                    && let Some(b) = vertical.get_mut(i)
                    && let (Ok(px), Ok(py)) = (i8::try_from(x), i8::try_from(y))
                {
                    *b = true;
                    segs.push((side(Pos(px, py), Dir::West), None));
                }
            }
        }
        for y in 0..=h {
            for x in 0..w {
                let beside = is_square(x, y) || (y > 0 && is_square(x, y - 1));
                let i = y * w + x;
                if beside
                    && board.horizontal.get(i).is_some_and(blocks)
                    && let Some(b) = horizontal.get_mut(i)
                    && let (Ok(px), Ok(py)) = (i8::try_from(x), i8::try_from(y))
                {
                    *b = true;
                    segs.push((side(Pos(px, py), Dir::North), None));
                }
            }
        }
        for &p in filled {
            for d in Dir::ALL {
                segs.push((side(p, d), Some(p)));
            }
        }
        let key = SightKey {
            width: board.width,
            height: board.height,
            links: board.links.clone(),
            vertical: vertical.clone(),
            horizontal: horizontal.clone(),
            filled: filled.to_vec(),
        };
        let memo = answers_for(key, w * h);
        Sight {
            board,
            segs,
            vertical,
            horizontal,
            filled: filled.to_vec(),
            squares,
            frames: board.links.iter().map(Frame::of).collect(),
            memo,
            chains: OnceCell::new(),
            lines_through_links: false,
        }
    }

    /// Every square of the board, row by row (as [`Board::squares`]).
    pub fn squares(&self) -> &[Pos] {
        &self.squares
    }

    /// The index of `p` in a memo row, if on the grid.
    fn cell(&self, p: Pos) -> Option<usize> {
        let (w, h) = (self.board.width, self.board.height);
        if !(0..w).contains(&p.0) || !(0..h).contains(&p.1) {
            return None;
        }
        usize::try_from(i32::from(p.1) * i32::from(w) + i32::from(p.0)).ok()
    }

    fn remembered(&self, from: usize, i: usize) -> Remembered {
        let memo = self.memo.try_borrow().ok()?;
        memo.get(from)?.get(i).copied().flatten()
    }

    fn remember(&self, from: usize, i: usize, seen: Option<Pt>) {
        let Ok(mut memo) = self.memo.try_borrow_mut() else {
            return;
        };
        let n = memo.len();
        let Some(row) = memo.get_mut(from) else {
            return;
        };
        if row.is_empty() {
            *row = vec![None; n];
        }
        if let Some(slot) = row.get_mut(i) {
            *slot = Some(seen);
        }
    }

    fn v_blocks(&self, x: i32, y0: i32) -> bool {
        let w = i32::from(self.board.width);
        if x < 0 || y0 < 0 || x % 2 != 0 || y0 % 2 != 0 {
            return false;
        }
        let i = (y0 / 2) * (w + 1) + x / 2;
        usize::try_from(i)
            .ok()
            .and_then(|i| self.vertical.get(i))
            .copied()
            .unwrap_or(false)
    }

    fn h_blocks(&self, x0: i32, y: i32) -> bool {
        let w = i32::from(self.board.width);
        if x0 < 0 || y < 0 || x0 >= 2 * w || x0 % 2 != 0 || y % 2 != 0 {
            return false;
        }
        let i = (y / 2) * w + x0 / 2;
        usize::try_from(i)
            .ok()
            .and_then(|i| self.horizontal.get(i))
            .copied()
            .unwrap_or(false)
    }

    /// A column stands at the corner (x, y) if any line touching it blocks.
    fn corner_blocks(&self, x: i32, y: i32) -> bool {
        self.v_blocks(x, y - 2)
            || self.v_blocks(x, y)
            || self.h_blocks(x - 2, y)
            || self.h_blocks(x, y)
    }

    /// The direct check, walking only the grid lines the segment crosses.
    fn clear_direct(&self, a: Pt, b: Pt, from: Pos, to: Pos) -> bool {
        let filled_block = self
            .filled
            .iter()
            .any(|&f| f != from && f != to && Dir::ALL.iter().any(|&d| touches(a, b, side(f, d))));
        if filled_block {
            return false;
        }
        // Vertical grid lines strictly between the ends.
        let (dx, dy) = (i64::from(b.0 - a.0), i64::from(b.1 - a.1));
        if dx != 0 {
            let (lo, hi) = (a.0.min(b.0), a.0.max(b.0));
            let mut x = lo + 1 + (lo + 1).rem_euclid(2);
            while x < hi {
                // y = a.1 + dy * (x - a.0) / dx, as num / dx.
                let num = i64::from(a.1) * dx + dy * i64::from(x - a.0);
                let y = i32::try_from(floor_div(num, dx)).unwrap_or(i32::MIN);
                let blocked = if num % dx == 0 && y % 2 == 0 {
                    self.corner_blocks(x, y)
                } else {
                    self.v_blocks(x, y - y.rem_euclid(2))
                };
                if blocked {
                    return false;
                }
                x += 2;
            }
        }
        if dy != 0 {
            let (lo, hi) = (a.1.min(b.1), a.1.max(b.1));
            let mut y = lo + 1 + (lo + 1).rem_euclid(2);
            while y < hi {
                let num = i64::from(a.0) * dy + dx * i64::from(y - a.1);
                let x = i32::try_from(floor_div(num, dy)).unwrap_or(i32::MIN);
                let blocked = if num % dy == 0 && x % 2 == 0 {
                    self.corner_blocks(x, y)
                } else {
                    self.h_blocks(x - x.rem_euclid(2), y)
                };
                if blocked {
                    return false;
                }
                y += 2;
            }
        }
        true
    }

    /// Whether a wizard in `from` sees `to`; `Some(apparent dot of to)` if so (the dot as laid
    /// out beyond a link when seen through one).
    pub fn sees(&self, from: Pos, to: Pos) -> Option<Pt> {
        if from == to {
            return Some(dot(to));
        }
        let cells = self.cell(from).zip(self.cell(to));
        if let Some(seen) = cells.and_then(|(f, t)| self.remembered(f, t)) {
            return seen;
        }
        let seen = self.work_out(from, to);
        if let Some((f, t)) = cells {
            self.remember(f, t, seen);
        }
        seen
    }

    /// [`Sight::sees`] without the memo.
    fn work_out(&self, from: Pos, to: Pos) -> Option<Pt> {
        let (a, b) = (dot(from), dot(to));
        if self.clear_direct(a, b, from, to) {
            return Some(b);
        }
        if let Some(seen) = self
            .frames
            .iter()
            .find_map(|frame| self.through(frame, from, to))
        {
            return Some(seen);
        }
        let chains = self.chains.get_or_init(|| self.board_chains());
        let list = self
            .cell(from)
            .and_then(|i| chains.get(i))
            .and_then(|row| self.cell(to).and_then(|j| row.get(j)))?;
        list.iter().find_map(|chain| {
            let first = self.frames.get(chain.first)?;
            self.through_two(first, &chain.both, from, to)
        })
    }

    /// The pairs of links a line from `from` could pass in turn (worked out once per origin).
    /// Every square's chains, from the memo of boards or worked out.
    fn board_chains(&self) -> Chains {
        let key = (
            self.board.width,
            self.board.height,
            self.board.links.clone(),
        );
        if let Ok(memo) = CHAINS.lock()
            && let Some((_, chains)) = memo.iter().find(|(k, _)| *k == key)
        {
            return Arc::clone(chains);
        }
        let (w, h) = (self.board.width, self.board.height);
        let n = usize::try_from(i32::from(w) * i32::from(h)).unwrap_or(0);
        let mut all = vec![Vec::new(); n];
        for &p in &self.squares {
            let Some(slot) = self.cell(p).and_then(|i| all.get_mut(i)) else {
                continue;
            };
            let a = dot(p);
            let list = self.chains_from(p);
            let mut row = vec![Vec::new(); n];
            for &q in &self.squares {
                let b = dot(q);
                let Some(cell) = self.cell(q).and_then(|j| row.get_mut(j)) else {
                    continue;
                };
                *cell = list
                    .iter()
                    .filter(|c| {
                        let seen = c.both.tr(b);
                        cross(a, c.right, seen) >= 0 && cross(a, c.left, seen) <= 0
                    })
                    .copied()
                    .collect();
            }
            *slot = row;
        }
        let chains = Arc::new(all);
        if let Ok(mut memo) = CHAINS.lock() {
            if memo.len() >= CHAINS_KEPT {
                memo.remove(0);
            }
            memo.push((key, Arc::clone(&chains)));
        }
        chains
    }

    /// The chains of two links a line from `from` could pass: the cone of lines through the
    /// first opening meets the second opening.
    fn chains_from(&self, from: Pos) -> Vec<Chain> {
        let a = dot(from);
        let mut list = Vec::new();
        for (i, first) in self.frames.iter().enumerate() {
            let (p1, q1) = first.opening();
            // The cone of lines from `a` through the first opening: p1 on its one edge, q1 on
            // the other (ordered so that q1 lies to the left of a -> p1).
            let (p1, q1) = if cross(a, p1, q1) >= 0 {
                (p1, q1)
            } else {
                (q1, p1)
            };
            if first.u(a) >= first.u(first.mid) {
                continue;
            }
            for second in &self.frames {
                let both = first.then(second);
                let (p2, q2) = both.opening();
                let (p2, q2) = if cross(a, p2, q2) >= 0 {
                    (p2, q2)
                } else {
                    (q2, p2)
                };
                if both.u(a) >= both.u(both.mid) {
                    continue;
                }
                // The lines through both openings: the tighter edge of each side.
                let right = if cross(a, p1, p2) >= 0 { p2 } else { p1 };
                let left = if cross(a, q1, q2) <= 0 { q2 } else { q1 };
                if cross(a, right, left) > 0 {
                    list.push(Chain {
                        first: i,
                        both,
                        right,
                        left,
                    });
                }
            }
        }
        list
    }

    /// Sight through two links: the board is laid out beyond `first`'s link, and again beyond
    /// `second`'s link as it lies in that copy; the line passes both openings in turn.
    /// `both`: the board laid out beyond both links; its `mid` and axes are the second link's
    /// line as laid out beyond the first link.
    fn through_two(&self, first: &Frame, both: &Frame, from: Pos, to: Pos) -> Option<Pt> {
        let laid = both;
        let a = dot(from);
        let b = both.tr(dot(to));
        let (n1, d1) = first.crossing(a, b)?;
        let (n2, d2) = laid.crossing(a, b)?;
        // The first opening is passed first.
        if n1 * d2 >= n2 * d1 {
            return None;
        }
        let (c1, c2) = (first.u(first.mid), laid.u(laid.mid));
        let blocked = self.segs.iter().any(|&(s, filled)| {
            if filled == Some(from) || filled == Some(to) {
                return false;
            }
            if first.u(s.0) <= c1 && first.u(s.1) <= c1 && touches(a, b, s) {
                return true;
            }
            let mid_seg = Seg(first.tr(s.0), first.tr(s.1));
            let in_mid = first.u(mid_seg.0) >= c1
                && first.u(mid_seg.1) >= c1
                && laid.u(mid_seg.0) <= c2
                && laid.u(mid_seg.1) <= c2;
            if in_mid && touches(a, b, mid_seg) {
                return true;
            }
            let far_seg = Seg(both.tr(s.0), both.tr(s.1));
            let far = laid.u(far_seg.0) >= c2 && laid.u(far_seg.1) >= c2;
            far && touches(a, b, far_seg)
        });
        (!blocked).then_some(b)
    }

    pub fn sees_square(&self, from: Pos, to: Pos) -> bool {
        self.sees(from, to).is_some()
    }

    /// Sight to the middle of a border line (to target a wall or door): directly, or from
    /// edition 1 through one link ([`Sight::through_to_line`]).
    ///
    /// "If a wizard targets a wall, door, or corridor, he must have line of sight to the target
    /// itself (instead of its square)" (rulebook l.232): a square filled beyond the line (Fog, a
    /// Stone Block on its far side) touches the line only where the sight line ends, so it does
    /// not hide the line; one on the near side still does.
    pub fn sees_side(&self, from: Pos, p: Pos, d: Dir) -> bool {
        let s = side(p, d);
        let mid = ((s.0.0 + s.1.0) / 2, (s.0.1 + s.1.1) / 2);
        let a = dot(from);
        // The square beside the line on the side away from the viewer.
        let (dx, dy) = d.delta();
        let toward_step =
            i64::from(mid.0 - a.0) * i64::from(dx) + i64::from(mid.1 - a.1) * i64::from(dy);
        let far = if toward_step > 0 { p.step(d) } else { p };
        self.clear_direct(a, mid, from, far)
            || (self.lines_through_links
                && self
                    .frames
                    .iter()
                    .any(|frame| self.through_to_line(frame, from, mid)))
    }

    /// Sight to the middle `mid` of a border line through one link (from edition 1: "If
    /// casting a spell or checking line of sight through a portal or off the edge of the map
    /// using wraparound movement, the two connected squares are treated as directly
    /// adjacent", l.242). As [`Sight::through`], but what touches the sight line only at its
    /// end (the targeted line itself, a square filled beyond it) does not block: the check is
    /// made on the line stopped short of its end by a sixteenth, in coordinates scaled by 16,
    /// where no other line's point can lie (every end point is on the grid).
    fn through_to_line(&self, frame: &Frame, from: Pos, mid: Pt) -> bool {
        const K: i32 = 16;
        let a = dot(from);
        let b = frame.tr(mid);
        if frame.crossing(a, b).is_none() {
            return false;
        }
        let scale = |p: Pt| (p.0 * K, p.1 * K);
        let (a_k, b_k) = (scale(a), (b.0 * (K - 1) + a.0, b.1 * (K - 1) + a.1));
        let c = frame.u(frame.mid);
        !self.segs.iter().any(|&(s, filled)| {
            if filled == Some(from) {
                return false;
            }
            let near = frame.u(s.0) <= c && frame.u(s.1) <= c;
            if near && touches(a_k, b_k, Seg(scale(s.0), scale(s.1))) {
                return true;
            }
            let far_seg = Seg(frame.tr(s.0), frame.tr(s.1));
            let far = frame.u(far_seg.0) >= c && frame.u(far_seg.1) >= c;
            far && touches(a_k, b_k, Seg(scale(far_seg.0), scale(far_seg.1)))
        })
    }

    /// Whether border lines may be seen through a link ([`Sight::sees_side`]; edition 1).
    pub fn with_lines_through_links(mut self, on: bool) -> Self {
        self.lines_through_links = on;
        self
    }

    /// Sight through one link: the far board is turned and moved so that `link.to` lies across
    /// the link's line from `link.from`.
    fn through(&self, frame: &Frame, from: Pos, to: Pos) -> Option<Pt> {
        let a = dot(from);
        let b = frame.tr(dot(to));
        let c = frame.u(frame.mid);
        let (ua, ub) = (frame.u(a), frame.u(b));
        if !(ua < c && ub > c) {
            return None;
        }
        let den = ub - ua;
        let cross_v = frame.v(a) * den + (frame.v(b) - frame.v(a)) * (c - ua);
        let vm = frame.v(frame.mid);
        if !((vm - 1) * den < cross_v && cross_v < (vm + 1) * den) {
            return None;
        }
        let blocked = self.segs.iter().any(|&(s, filled)| {
            if filled == Some(from) || filled == Some(to) {
                return false;
            }
            let near = frame.u(s.0) <= c && frame.u(s.1) <= c;
            if near && touches(a, b, s) {
                return true;
            }
            let far_seg = Seg(frame.tr(s.0), frame.tr(s.1));
            let far = frame.u(far_seg.0) >= c && frame.u(far_seg.1) >= c;
            far && touches(a, b, far_seg)
        });
        (!blocked).then_some(b)
    }
}

#[cfg(test)]
impl Sight<'_> {
    /// [`Sight::sees`] worked out afresh, without the answers shared between boards alike:
    /// the reference for the memo.
    pub fn sees_afresh(&self, from: Pos, to: Pos) -> Option<Pt> {
        if from == to {
            return Some(dot(to));
        }
        self.work_out(from, to)
    }

    /// The direct check by testing every blocking segment: the reference for `clear_direct`.
    pub fn sees_directly_brute(&self, from: Pos, to: Pos) -> bool {
        let (a, b) = (dot(from), dot(to));
        !self
            .segs
            .iter()
            .any(|&(s, filled)| filled != Some(from) && filled != Some(to) && touches(a, b, s))
    }

    /// Sight directly or through one link (the rule before two links were allowed).
    pub fn sees_one_link(&self, from: Pos, to: Pos) -> bool {
        from == to
            || self.clear_direct(dot(from), dot(to), from, to)
            || self
                .frames
                .iter()
                .any(|f| self.through(f, from, to).is_some())
    }

    pub fn sees_directly(&self, from: Pos, to: Pos) -> bool {
        from == to || self.clear_direct(dot(from), dot(to), from, to)
    }
}
