//! Set-up, the labyrinth, movement, line of sight and adjacency.

use super::*;
use crate::rules::Viewer;
use crate::rules::wiz_war::board::{Board, EdgeKind, SECTOR, designs};

// "Each player places his wizard figure in his home base square. Then, each player places one
// of his treasure markers on each of the two treasure start squares in his sector."
// CONTENT: "4 sector boards of 5×5 squares, home base in the centre square, exits in the middle
// of each edge, 2 treasure starts per sector" — every square reachable, no home sealed off.
#[test]
fn every_sector_design_is_valid_and_every_square_reachable() {
    let designs = designs().unwrap();
    assert_eq!(designs.len(), 8, "four sectors on each side, A and B");
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
    for s in 0..3 {
        chance(&mut state, Action::Colour(s));
    }
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

// l.34: "Each player chooses one plastic wizard and randomly chooses one player color ... Each
// player then receives the sector board, life tracker, treasure markers, and hat tokens in his
// player color."
#[test]
fn colours_are_drawn_at_random_and_the_sector_doors_and_treasures_follow() {
    let mut state = Game::new_game(&quiet(), 2).unwrap();
    let Next::Chance(c) = Game::next(&state) else {
        panic!()
    };
    assert_eq!(
        c.outcomes,
        (0..4).map(|c| (Action::Colour(c), 1)).collect::<Vec<_>>(),
        "any of the four colours, even with two players"
    );
    chance(&mut state, Action::Colour(3));
    let Next::Chance(c) = Game::next(&state) else {
        panic!()
    };
    assert!(
        !c.outcomes.contains(&(Action::Colour(3), 1)),
        "yellow is taken"
    );
    chance(&mut state, Action::Colour(1));
    assert_eq!((state.colour(0), state.colour(1)), ("yellow", "blue"));
    // Seat 0's sector is the yellow design (sector 3), with its door and treasure starts.
    chance(&mut state, Action::PlaceSector(0));
    chance(&mut state, Action::TurnSector(0));
    let yellow = &designs().unwrap()[3];
    let door = yellow
        .lines
        .iter()
        .find(|l| matches!(l.2, EdgeKind::Door(_)))
        .unwrap();
    assert_eq!(
        state.board.edge(door.0, door.1).unwrap().kind,
        EdgeKind::Door(0),
        "the yellow sector's door is seat 0's"
    );
    let mut starts: Vec<Pos> = state.treasures.iter().filter_map(|t| t.at).collect();
    starts.sort();
    let mut expected = yellow.treasures.clone();
    expected.sort();
    assert_eq!(starts, expected);
    assert!(state.treasures.iter().all(|t| t.owner == 0));
    let view = Game::view(&state, Viewer::Spectator);
    assert_eq!(view["wizards"][0]["colour"], "yellow");
}

// l.36: "All players collectively choose one side of the sector boards to play with, either
// new (side A) or classic (side B)."
#[test]
fn the_table_chooses_a_side_of_the_sector_boards() {
    let b: Options = serde_json::from_value(serde_json::json!({"board_side": "b"})).unwrap();
    assert_eq!(b.board_side, crate::rules::wiz_war::BoardSide::B);
    let side = |options: &Options| {
        let state = start(2, options);
        let mut lines: Vec<_> = state.board.horizontal.clone();
        lines.extend(state.board.vertical.clone());
        lines
    };
    let a = Options::default();
    assert_ne!(side(&a), side(&b), "side B has other designs");
    // Seat 0 (red) on side B plays red's classic sector, design 4.
    let state = start(2, &b);
    let red_b = &designs().unwrap()[4];
    for &(p, d, kind) in &red_b.lines {
        let kind = match kind {
            EdgeKind::Door(_) => EdgeKind::Door(0),
            k => k,
        };
        assert_eq!(state.board.edge(p, d).unwrap().kind, kind, "{p:?} {d:?}");
    }
    assert!(serde_json::from_value::<Options>(serde_json::json!({"board_side": "c"})).is_err());
}
