//! Set-up, the labyrinth, movement, line of sight and adjacency.

use super::*;
use crate::rules::wiz_war::board::{Board, EdgeKind, SECTOR, designs};

// "Each player places his wizard figure in his home base square. Then, each player places one
// of his treasure markers on each of the two treasure start squares in his sector."
// CONTENT: "4 sector boards of 5×5 squares, home base in the centre square, exits in the middle
// of each edge, 2 treasure starts per sector" — every square reachable, no home sealed off.
#[test]
fn every_sector_design_is_valid_and_every_square_reachable() {
    let designs = designs().unwrap();
    assert_eq!(designs.len(), 4);
    for (n, d) in designs.iter().enumerate() {
        assert_eq!(d.treasures.len(), 2);
        let mut board = Board::new(2).unwrap();
        board.place(0, n as u8, 0, d);
        let reach = |doors: bool, from: Pos| {
            let mut seen = vec![from];
            let mut todo = vec![from];
            while let Some(p) = todo.pop() {
                for dir in Dir::ALL {
                    let q = p.step(dir);
                    if !(0..SECTOR).contains(&q.0) || !(0..SECTOR).contains(&q.1) {
                        continue;
                    }
                    let e = board.edge(p, dir).unwrap();
                    let open =
                        e.kind == EdgeKind::Open || (doors && matches!(e.kind, EdgeKind::Door(_)));
                    if open && !seen.contains(&q) {
                        seen.push(q);
                        todo.push(q);
                    }
                }
            }
            seen
        };
        assert_eq!(
            reach(true, Pos(2, 2)).len(),
            25,
            "sector {n}: every square reachable"
        );
        // The home base is reachable from every exit without passing a door.
        for exit in [Pos(2, 0), Pos(0, 2), Pos(4, 2), Pos(2, 4)] {
            assert!(
                reach(false, exit).contains(&Pos(2, 2)),
                "sector {n}: home sealed off from {exit:?}"
            );
        }
    }
}

// "He shuffles the sector boards under the table, being sure to change their orientation as
// well, and then randomly builds the game board according to the number of players."
#[test]
fn sectors_and_orientations_are_chance_steps() {
    let mut state = Game::new_game(&quiet(), 3).unwrap();
    let Next::Chance(c) = Game::next(&state) else {
        panic!()
    };
    assert_eq!(
        c.outcomes,
        (0..3)
            .map(|s| (Action::PlaceSector(s), 1))
            .collect::<Vec<_>>()
    );
    chance(&mut state, Action::PlaceSector(2));
    let Next::Chance(c) = Game::next(&state) else {
        panic!()
    };
    assert_eq!(c.outcomes.len(), 4, "four orientations");
    chance(&mut state, Action::TurnSector(1));
    assert_eq!(state.board.slots[0].sector, Some(2));
    assert_eq!(state.board.slots[0].turns, 1);
    // The green sector's treasure starts (3,1) and (0,3) turned a quarter clockwise.
    assert!(state.treasures.iter().any(|t| t.at == Some(Pos(3, 3))));
    assert!(state.treasures.iter().any(|t| t.at == Some(Pos(1, 0))));
    let Next::Chance(c) = Game::next(&state) else {
        panic!()
    };
    assert_eq!(c.outcomes.len(), 2, "two sectors left");
}

// CONTENT: "4 players 2×2 sectors, 3 players an L of three with the two portal pairs joining
// the edges that face the gap, 2 players 1×2"; "leaving the board through an outer exit
// re-enters at the exactly opposite square".
#[test]
fn wraparound_and_portals() {
    let state = start(2, &quiet());
    assert_eq!((state.board.width, state.board.height), (10, 5));
    assert_eq!(
        state.board.across(Pos(0, 2), Dir::West),
        Some((Pos(9, 2), Dir::West))
    );
    assert_eq!(
        state.board.across(Pos(2, 0), Dir::North),
        Some((Pos(2, 4), Dir::North))
    );
    // Outer walls elsewhere.
    assert_eq!(
        state.board.edge(Pos(0, 1), Dir::West).unwrap().kind,
        EdgeKind::Outer
    );

    let state = start(3, &quiet());
    assert!(!state.board.exists(Pos(7, 7)), "the gap");
    assert_eq!(
        state.board.across(Pos(7, 4), Dir::South),
        Some((Pos(4, 7), Dir::West))
    );
    assert_eq!(
        state.board.across(Pos(4, 7), Dir::East),
        Some((Pos(7, 4), Dir::North))
    );
    assert_eq!(
        state.board.across(Pos(7, 0), Dir::North),
        Some((Pos(0, 7), Dir::East))
    );
    assert_eq!(
        state.board.across(Pos(2, 0), Dir::North),
        Some((Pos(2, 9), Dir::North))
    );
    assert!(state.board.links.iter().filter(|l| l.portal).count() == 4);

    let state = start(4, &quiet());
    assert_eq!(state.board.links.len(), 8);
    assert!(state.board.links.iter().all(|l| !l.portal));
}

// "If casting a spell or checking line of sight through a portal or off the edge of the map
// using wraparound movement, the two connected squares are treated as directly adjacent."
#[test]
fn sight_passes_through_wraparound_and_portals() {
    let mut state = start(2, &quiet());
    open_inside(&mut state);
    // Walls across the middle: only the way round the edge is left.
    wall(&mut state, Pos(4, 2), Dir::East);
    wall(&mut state, Pos(4, 1), Dir::East);
    let sight = state.sight_for(0);
    assert!(sight.sees_square(Pos(0, 2), Pos(9, 2)));
    assert!(sight.sees_square(Pos(1, 2), Pos(7, 2)));
    assert!(!sight.sees_square(Pos(0, 1), Pos(9, 1)), "no exit on row 1");

    let mut state = start(3, &quiet());
    open_inside(&mut state);
    let sight = state.sight_for(0);
    // Down column 7 through the south portal of the blue sector into the green one, heading west.
    assert!(sight.sees_square(Pos(7, 2), Pos(3, 7)));
    assert!(state.sight_for(0).sees_square(Pos(7, 4), Pos(4, 7)));
}

// "Line of sight is determined by tracing an imaginary line from the dot in the caster's square
// to the dot in the target's square." "If the imaginary line is interrupted by any part of a
// wall (including a column), then line of sight is blocked"; "If a door or wall is destroyed
// leaving a column not connected to any door or wall, then that column is destroyed as well."
#[test]
fn columns_block_sight_until_their_last_wall_falls() {
    let mut state = start(2, &quiet());
    open_room(&mut state);
    // One wall south of (1,1): its east end is the corner the diagonal passes.
    wall(&mut state, Pos(1, 1), Dir::South);
    assert!(!state.sight_for(0).sees_square(Pos(0, 0), Pos(2, 2)));
    state
        .board
        .edge_mut(Pos(1, 1), Dir::South)
        .unwrap()
        .destroyed = true;
    assert!(state.sight_for(0).sees_square(Pos(0, 0), Pos(2, 2)));
    // Closed doors block sight (CONTENT stand-in).
    state
        .board
        .edge_mut(Pos(1, 1), Dir::South)
        .unwrap()
        .destroyed = false;
    state.board.edge_mut(Pos(1, 1), Dir::South).unwrap().kind = EdgeKind::Door(1);
    assert!(!state.sight_for(0).sees_square(Pos(1, 1), Pos(1, 2)));
}

// "Squares cannot be diagonally adjacent. Only squares with a common shared borderline can be
// adjacent."
#[test]
fn punches_reach_only_side_adjacent_squares() {
    let mut state = duel(&[], &[]);
    place(&mut state, 0, Pos(0, 0));
    place(&mut state, 1, Pos(1, 1));
    assert!(!Game::legal_actions(&state, 0).contains(&Action::Punch(1)));
    place(&mut state, 1, Pos(1, 0));
    decide(&mut state, 0, Action::Punch(1));
    assert_eq!(life(&state, 1), 14, "a punch deals 1 damage");
    wall(&mut state, Pos(0, 0), Dir::East);
    state.turn.attacked = false;
    assert!(
        !Game::legal_actions(&state, 0).contains(&Action::Punch(1)),
        "not through a wall"
    );
}

// CONTENT: "doors pass only their own colour's wizard (a Master Key opens others)".
#[test]
fn doors_pass_their_own_colour() {
    let state = start(2, &quiet());
    // The red sector's door: south side of (1,2).
    assert_eq!(
        state.board.edge(Pos(1, 2), Dir::South).unwrap().kind,
        EdgeKind::Door(0)
    );
    assert!(state.may_cross(0, Pos(1, 2), Dir::South));
    assert!(!state.may_cross(1, Pos(1, 2), Dir::South));
}

// "During his movement, a wizard may ... spend movement points (usually 3)".
#[test]
fn three_movement_points_and_energy_for_speed() {
    let mut state = duel(&["energy_4"], &[]);
    place(&mut state, 0, Pos(0, 0));
    for _ in 0..3 {
        decide(&mut state, 0, Action::Move(Dir::East));
    }
    assert_eq!(state.wizards[0].at, Some(Pos(3, 0)));
    assert!(!Game::legal_actions(&state, 0).contains(&Action::Move(Dir::East)));
    decide(&mut state, 0, Action::Speed(card("energy_4")));
    assert_eq!(state.turn.movement, 4);
    assert!(state.discard.contains(&card("energy_4")));
}

// "If a created wall is straddling the line between two sector boards when one or both of them
// move, the wall is destroyed. Alternatively, if a destroyed or damaged wall is straddling the
// line between two sector boards when one or both of them move, the wall is repaired".
#[test]
fn rotating_a_sector_turns_its_contents_and_repairs_its_edge() {
    let mut state = duel(&["rotate_sector"], &[]);
    let ring = (Pos(4, 0), Dir::East);
    state.board.edge_mut(ring.0, ring.1).unwrap().destroyed = true;
    let treasure_at = state.treasures.len();
    state
        .treasures
        .push(crate::rules::wiz_war::state::Treasure {
            owner: 1,
            at: Some(Pos(0, 0)),
        });
    place(&mut state, 1, Pos(1, 0));
    decide(&mut state, 0, Action::Cast(card("rotate_sector")));
    decide(&mut state, 0, Action::Target(Target::Rotate(0, 1)));
    assert_eq!(state.board.slots[0].turns, 1);
    assert!(
        !state.board.edge(ring.0, ring.1).unwrap().destroyed,
        "repaired"
    );
    assert_eq!(state.treasures[treasure_at].at, Some(Pos(4, 0)));
    assert_eq!(state.wizards[1].at, Some(Pos(4, 1)));
    assert_eq!(state.wizards[0].at, Some(Pos(2, 2)), "the centre stays");
}

// "If the imaginary line is interrupted by any part of a wall (including a column), then line
// of sight is blocked": the grid walk agrees with testing every wall, on every board.
#[test]
fn sight_by_grid_walk_agrees_with_testing_every_wall() {
    for seats in 2..=4 {
        let mut state = start(seats, &quiet());
        // Some destroyed walls and a filled square, so columns stand alone or fall.
        state
            .board
            .edge_mut(Pos(1, 1), Dir::East)
            .unwrap()
            .destroyed = true;
        state
            .board
            .edge_mut(Pos(3, 3), Dir::South)
            .unwrap()
            .destroyed = true;
        state.objects.push(crate::rules::wiz_war::state::Object {
            id: 1,
            card: card("stone_block"),
            at: Pos(3, 1),
            cracks: 0,
            spell: None,
        });
        let sight = state.sight_for(0);
        let squares = state.board.squares();
        let mut seen = 0;
        for &a in &squares {
            for &b in &squares {
                let fast = sight.sees_directly(a, b);
                assert_eq!(
                    fast,
                    a == b || sight.sees_directly_brute(a, b),
                    "{a:?} to {b:?}, {seats} seats"
                );
                seen += usize::from(fast);
            }
        }
        assert!(seen > squares.len() * 3, "some sight lines are open");
    }
}
