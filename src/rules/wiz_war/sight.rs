//! Line of sight, in integer geometry on doubled coordinates: the dot of square (x, y) is
//! (2x + 1, 2y + 1) and border lines lie on even coordinates, so nothing needs fractions. A line
//! from dot to dot is blocked by any point of a wall (a column is a wall's end point), a closed
//! door, or a square an object fills. Through wraparound and portals, the far side of the board
//! is laid next to the link's border line (turned to fit) and the line must pass through the
//! link's opening; one link at most.

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
}

impl<'a> Sight<'a> {
    /// `filled`: squares an object fills. `doors_clear`: closed doors do not block (Visionstone).
    pub fn new(board: &'a Board, filled: &[Pos], doors_clear: bool) -> Sight<'a> {
        let mut segs = Vec::new();
        for p in board.squares() {
            for d in [Dir::North, Dir::West, Dir::East, Dir::South] {
                // Each line once: north and west sides, plus the east and south rim.
                let own = matches!(d, Dir::North | Dir::West) || !board.exists(p.step(d));
                if !own {
                    continue;
                }
                let Some(e) = board.edge(p, d) else { continue };
                let blocks = match e.created {
                    Some(c) => c.card.effect() != super::cards::Effect::WallOfFire || e.built(),
                    None => match e.kind {
                        _ if e.destroyed => false,
                        EdgeKind::Open => false,
                        EdgeKind::Door(_) => !doors_clear,
                        EdgeKind::Wall | EdgeKind::Outer => true,
                    },
                };
                if blocks {
                    segs.push((side(p, d), None));
                }
            }
        }
        for &p in filled {
            for d in Dir::ALL {
                segs.push((side(p, d), Some(p)));
            }
        }
        let w = usize::try_from(board.width).unwrap_or(0);
        let h = usize::try_from(board.height).unwrap_or(0);
        let mut vertical = vec![false; (w + 1) * h];
        let mut horizontal = vec![false; w * (h + 1)];
        for (s, f) in &segs {
            if f.is_some() {
                continue;
            }
            let (x0, y0) = (s.0.0.min(s.1.0), s.0.1.min(s.1.1));
            let (k, m) = (usize::try_from(x0 / 2), usize::try_from(y0 / 2));
            let (Ok(k), Ok(m)) = (k, m) else { continue };
            let slot = if s.0.0 == s.1.0 {
                vertical.get_mut(m * (w + 1) + k)
            } else {
                horizontal.get_mut(m * w + k)
            };
            if let Some(b) = slot {
                *b = true;
            }
        }
        Sight {
            board,
            segs,
            vertical,
            horizontal,
            filled: filled.to_vec(),
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
        let (a, b) = (dot(from), dot(to));
        if self.clear_direct(a, b, from, to) {
            return Some(b);
        }
        self.board
            .links
            .iter()
            .find_map(|l| self.through(l, from, to))
    }

    pub fn sees_square(&self, from: Pos, to: Pos) -> bool {
        self.sees(from, to).is_some()
    }

    /// Sight to the middle of a border line (to target a wall or door), direct only.
    pub fn sees_side(&self, from: Pos, p: Pos, d: Dir) -> bool {
        let s = side(p, d);
        let mid = ((s.0.0 + s.1.0) / 2, (s.0.1 + s.1.1) / 2);
        self.clear_direct(dot(from), mid, from, from)
    }

    /// Sight through one link: the far board is turned and moved so that `link.to` lies across
    /// the link's line from `link.from`.
    fn through(&self, link: &Link, from: Pos, to: Pos) -> Option<Pt> {
        let quarters = link.heading.quarters_to(link.dir);
        let rot = |p: Pt| -> Pt {
            let mut p = p;
            for _ in 0..quarters {
                p = (-p.1, p.0);
            }
            p
        };
        let next = dot(link.from.step(link.dir));
        let r = rot(dot(link.to));
        let shift = (next.0 - r.0, next.1 - r.1);
        let tr = |p: Pt| -> Pt {
            let q = rot(p);
            (q.0 + shift.0, q.1 + shift.1)
        };
        let a = dot(from);
        let b = tr(dot(to));
        let (dx, dy) = link.dir.delta();
        let (dx, dy) = (i64::from(dx), i64::from(dy));
        let u = |p: Pt| i64::from(p.0) * dx + i64::from(p.1) * dy;
        let v = |p: Pt| -i64::from(p.0) * dy + i64::from(p.1) * dx;
        let line = side(link.from, link.dir);
        let mid = ((line.0.0 + line.1.0) / 2, (line.0.1 + line.1.1) / 2);
        let c = u(mid);
        let (ua, ub) = (u(a), u(b));
        if !(ua < c && ub > c) {
            return None;
        }
        let den = ub - ua;
        let cross_v = v(a) * den + (v(b) - v(a)) * (c - ua);
        let vm = v(mid);
        if !((vm - 1) * den < cross_v && cross_v < (vm + 1) * den) {
            return None;
        }
        let blocked = self.segs.iter().any(|&(s, filled)| {
            if filled == Some(from) || filled == Some(to) {
                return false;
            }
            let near = u(s.0) <= c && u(s.1) <= c;
            let far_seg = Seg(tr(s.0), tr(s.1));
            let far = u(far_seg.0) >= c && u(far_seg.1) >= c;
            (near && touches(a, b, s)) || (far && touches(a, b, far_seg))
        });
        (!blocked).then_some(b)
    }
}

#[cfg(test)]
impl Sight<'_> {
    /// The direct check by testing every blocking segment: the reference for `clear_direct`.
    pub fn sees_directly_brute(&self, from: Pos, to: Pos) -> bool {
        let (a, b) = (dot(from), dot(to));
        !self
            .segs
            .iter()
            .any(|&(s, filled)| filled != Some(from) && filled != Some(to) && touches(a, b, s))
    }

    pub fn sees_directly(&self, from: Pos, to: Pos) -> bool {
        from == to || self.clear_direct(dot(from), dot(to), from, to)
    }
}
