//! The picture: the labyrinth as an SVG document (`Ruleset::picture`) and the square each
//! action is about (`Ruleset::targets`).
//!
//! `WIZWAR_SVG=/tmp/wizwar.svg cargo test --lib wiz_war::tests::picture::a_mid_game` writes
//! the mid-game picture there, to look at.

use super::*;
use crate::rules::Viewer;
use crate::rules::wiz_war::board::EdgeKind;
use crate::rules::wiz_war::state::{Object, Treasure};

fn names() -> Vec<String> {
    ["Ann", "Bob", "Cat", "Dan"]
        .iter()
        .map(|n| (*n).to_owned())
        .collect()
}

fn picture(state: &State, viewer: Viewer) -> String {
    Game::picture(state, viewer, &names()).expect("wiz-war draws a picture")
}

/// The squares' rects by their names: (x, y, width, height).
fn squares(doc: &roxmltree::Document) -> Vec<(String, [f64; 4])> {
    doc.descendants()
        .filter(|n| n.has_tag_name("rect"))
        .filter_map(|n| {
            let num = |a: &str| n.attribute(a).and_then(|v| v.parse::<f64>().ok());
            Some((
                n.attribute("data-target")?.to_owned(),
                [num("x")?, num("y")?, num("width")?, num("height")?],
            ))
        })
        .collect()
}

/// The `data-kind` of the element drawn on the line `id` ("c4-east"), if any.
fn line_kind<'a>(doc: &'a roxmltree::Document, id: &str) -> Option<&'a str> {
    doc.descendants()
        .find(|n| n.attribute("data-line") == Some(id))
        .and_then(|n| n.attribute("data-kind"))
}

/// A game of `seats` with sectors in seat order, turned as given, dealt, seat 0 first.
fn start_turned(seats: usize, turns: &[u8]) -> State {
    let mut state = Game::new_game(&quiet(), seats).unwrap();
    for s in 0..seats {
        chance(&mut state, Action::Colour(s as u8));
    }
    for s in 0..seats {
        chance(&mut state, Action::PlaceSector(s as u8));
        chance(&mut state, Action::TurnSector(turns[s % turns.len()]));
    }
    while let Next::Chance(c) = Game::next(&state) {
        let first = c.outcomes[0].0.clone();
        if matches!(first, Action::FirstPlayer(_)) {
            chance(&mut state, Action::FirstPlayer(0));
            break;
        }
        chance(&mut state, first);
    }
    state
}

#[test]
fn every_square_is_a_named_rect_in_a_well_formed_document() {
    for seats in 2..=4 {
        let state = start(seats, &quiet());
        let svg = picture(&state, Viewer::Seat(0));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert!(root.attribute("viewBox").is_some());
        let title = root
            .children()
            .find(|n| n.has_tag_name("title"))
            .and_then(|n| n.text())
            .unwrap();
        assert!(title.starts_with("Wiz-War labyrinth: round 1 of 30, your turn"));
        let rects = squares(&doc);
        let mut named: Vec<String> = rects.iter().map(|(id, _)| id.clone()).collect();
        let mut expected: Vec<String> = state
            .board
            .squares()
            .iter()
            .map(|p| p.to_string())
            .collect();
        named.sort();
        expected.sort();
        assert_eq!(
            named, expected,
            "{seats} seats: one rect per square, no other"
        );
        // A square's rect is where its name puts it: columns west to east, rows north to south.
        let at = |id: &str| rects.iter().find(|(n, _)| n == id).unwrap().1;
        let (a1, c4) = (at("a1"), at("c4"));
        assert_eq!(c4[0] - a1[0], 2.0 * a1[2]);
        assert_eq!(c4[1] - a1[1], 3.0 * a1[3]);
        assert!(svg.len() < 100_000, "{} bytes", svg.len());
        assert_eq!(svg, picture(&state, Viewer::Seat(0)), "deterministic");
    }
}

#[test]
fn a_wizard_is_a_circle_of_its_colour_on_its_square() {
    let mut state = start(2, &quiet());
    place(&mut state, 1, Pos(7, 3));
    let svg = picture(&state, Viewer::Spectator);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let rects = squares(&doc);
    for seat in 0..2 {
        let p = state.pos(seat).unwrap();
        let [x, y, w, h] = rects.iter().find(|(n, _)| *n == p.to_string()).unwrap().1;
        let wizard = doc
            .descendants()
            .find(|n| n.attribute("data-wizard") == Some(&seat.to_string()))
            .unwrap();
        let circle = wizard
            .children()
            .find(|n| {
                n.has_tag_name("circle")
                    && n.attribute("fill") == Some(crate::rules::picture::seat_colour(seat))
            })
            .unwrap();
        let cx: f64 = circle.attribute("cx").unwrap().parse().unwrap();
        let cy: f64 = circle.attribute("cy").unwrap().parse().unwrap();
        assert!(
            (x..x + w).contains(&cx) && (y..y + h).contains(&cy),
            "seat {seat}'s circle at ({cx}, {cy}) is not on {p}"
        );
        let letter = circle.next_sibling_element().unwrap();
        assert_eq!(letter.text(), Some(["A", "B"][seat]));
    }
    assert_eq!(state.pos(1), Some(Pos(7, 3)));
}

#[test]
fn walls_stand_exactly_where_lines_are_closed() {
    for (seats, turns) in [(2, vec![0, 1]), (3, vec![2, 3, 1]), (4, vec![1, 0, 3, 2])] {
        let state = start_turned(seats, &turns);
        let svg = picture(&state, Viewer::Seat(0));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let b = &state.board;
        let mut walls = 0;
        for p in b.squares() {
            for d in Dir::ALL {
                let (q, side) = b.canonical(p, d);
                let id = format!("{q}-{}", side.name());
                let kind = line_kind(&doc, &id);
                if state.open_line(p, d) {
                    assert_eq!(kind, None, "{id} is open but drawn as {kind:?}");
                } else {
                    let expected = match b.edge(p, d).unwrap().kind {
                        EdgeKind::Wall => "wall",
                        EdgeKind::Outer => "outer",
                        EdgeKind::Door(_) => "door",
                        EdgeKind::Open => unreachable!(),
                    };
                    assert_eq!(kind, Some(expected), "{id}");
                    walls += 1;
                }
            }
        }
        assert!(walls > 40, "{seats} seats: {walls} closed sides");
    }
}

#[test]
fn doors_take_their_colour_and_swing_open_when_picked() {
    let mut state = start(2, &quiet());
    let b = &state.board;
    let (p, d, seat) = b
        .squares()
        .into_iter()
        .flat_map(|p| [Dir::East, Dir::South].map(|d| (p, d)))
        .find_map(|(p, d)| match b.edge(p, d)?.kind {
            EdgeKind::Door(s) => Some((p, d, s)),
            _ => None,
        })
        .unwrap();
    let id = format!("{p}-{}", d.name());
    let svg = picture(&state, Viewer::Seat(0));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let door = doc
        .descendants()
        .find(|n| n.attribute("data-line") == Some(&id))
        .unwrap();
    assert_eq!(door.attribute("data-open"), Some("false"));
    let colour = crate::rules::picture::seat_colour(seat);
    assert!(
        door.descendants()
            .any(|n| n.attribute("fill") == Some(colour))
    );
    state.turn.picked.push((p, d));
    let svg = picture(&state, Viewer::Seat(0));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(line_kind(&doc, &id), Some("door"));
    let door = doc
        .descendants()
        .find(|n| n.attribute("data-line") == Some(&id))
        .unwrap();
    assert_eq!(door.attribute("data-open"), Some("true"));
}

#[test]
fn created_and_destroyed_walls_are_drawn_as_such() {
    let mut state = duel(&["wall_of_fire", "wall_of_earth"], &[]);
    wall(&mut state, Pos(2, 2), Dir::East);
    wall(&mut state, Pos(1, 1), Dir::South);
    state
        .board
        .edge_mut(Pos(1, 1), Dir::South)
        .unwrap()
        .destroyed = true;
    place(&mut state, 0, Pos(0, 2));
    decide(&mut state, 0, Action::Cast(card("wall_of_fire")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(1, 2))));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(1, 2), Dir::East)),
    );
    let svg = picture(&state, Viewer::Seat(1));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(line_kind(&doc, "b3-east"), Some("fire"));
    assert_eq!(line_kind(&doc, "c3-east"), Some("wall"));
    assert_eq!(line_kind(&doc, "b2-south"), Some("destroyed"));
    assert!(
        svg.contains("Wall of Fire: passable, burns"),
        "the key explains it"
    );
}

#[test]
fn a_move_targets_the_square_stepped_into() {
    let mut state = start(2, &quiet());
    open_inside(&mut state);
    let home = state.pos(0).unwrap();
    let actions = Game::legal_actions(&state, 0);
    let targets = Game::targets(&state, 0, &actions);
    assert_eq!(targets.len(), actions.len());
    let mut moves = 0;
    for (a, t) in actions.iter().zip(&targets) {
        match a {
            Action::Move(d) => {
                assert_eq!(t.as_deref(), Some(home.step(*d).to_string().as_str()));
                moves += 1;
            }
            Action::Cast(_) | Action::Play(_) | Action::Speed(_) | Action::EndMove => {
                assert_eq!(t, &None, "{a:?}")
            }
            _ => {}
        }
    }
    assert_eq!(moves, 4);
    // Through the rim: from a1's exit row the step wraps round to the far edge.
    place(&mut state, 0, Pos(0, 2));
    let actions = Game::legal_actions(&state, 0);
    let targets = Game::targets(&state, 0, &actions);
    let west = actions
        .iter()
        .position(|a| *a == Action::Move(Dir::West))
        .unwrap();
    assert_eq!(targets[west].as_deref(), Some("j3"));
}

#[test]
fn targets_name_squares_of_wizards_and_squares_and_exist_in_the_picture() {
    let mut state = duel(&["fireball", "create_wall"], &[]);
    place(&mut state, 0, Pos(1, 2));
    place(&mut state, 1, Pos(3, 2));
    let svg = picture(&state, Viewer::Seat(0));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let ids: Vec<String> = squares(&doc).into_iter().map(|(id, _)| id).collect();

    let mut fire = state.clone();
    decide(&mut fire, 0, Action::Cast(card("fireball")));
    let actions = Game::legal_actions(&fire, 0);
    let targets = Game::targets(&fire, 0, &actions);
    let at = actions.iter().position(|a| *a == target_wizard(1)).unwrap();
    assert_eq!(targets[at].as_deref(), Some("d3"));
    let cancel = actions
        .iter()
        .position(|a| *a == Action::CancelCast)
        .unwrap();
    assert_eq!(targets[cancel], None);

    let mut wall = state.clone();
    decide(&mut wall, 0, Action::Cast(card("create_wall")));
    let actions = Game::legal_actions(&wall, 0);
    let targets = Game::targets(&wall, 0, &actions);
    let mut squares_aimed = 0;
    for (a, t) in actions.iter().zip(&targets) {
        if let Action::Target(Target::Square(p)) = a {
            assert_eq!(t.as_deref(), Some(p.to_string().as_str()));
            assert!(ids.contains(&p.to_string()));
            squares_aimed += 1;
        }
    }
    assert!(squares_aimed > 0);
    // The second step, a side of the square chosen: each side is about that square, and the
    // picture marks the square chosen.
    decide(&mut wall, 0, Action::Target(Target::Square(Pos(2, 2))));
    let actions = Game::legal_actions(&wall, 0);
    let targets = Game::targets(&wall, 0, &actions);
    for (a, t) in actions.iter().zip(&targets) {
        if let Action::Target(Target::Side(..)) = a {
            assert_eq!(t.as_deref(), Some("c3"));
        }
    }
    assert!(picture(&wall, Viewer::Seat(0)).contains("stroke-dasharray=\"6 4\""));
}

#[test]
fn names_are_escaped() {
    let state = start(2, &quiet());
    let names = vec!["<Ann & \"co\">".to_owned(), "Bob".to_owned()];
    let svg = Game::picture(&state, Viewer::Seat(1), &names).unwrap();
    assert!(!svg.contains("<Ann"));
    assert!(svg.contains("&lt;Ann &amp; &quot;co&quot;&gt;"));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert!(
        doc.descendants()
            .any(|n| n.text().is_some_and(|t| t.contains("<Ann & \"co\">")))
    );
    // The wizard's letter is the first letter of the name, as in the diagram.
    let wizard = doc
        .descendants()
        .find(|n| n.attribute("data-wizard") == Some("0"))
        .unwrap();
    assert!(
        wizard
            .descendants()
            .any(|n| n.has_tag_name("text") && n.text() == Some("A"))
    );
}

#[test]
fn no_card_of_any_hand_is_drawn() {
    let mut state = start(2, &quiet());
    give(&mut state, 0, &["fireball", "thought_steal", "stone_block"]);
    give(
        &mut state,
        1,
        &["lightning_bolt", "teleport", "wall_of_fire"],
    );
    let hidden = [
        "Fireball",
        "Thought Steal",
        "Stone Block",
        "Lightning Bolt",
        "Teleport",
        "Wall of Fire",
    ];
    for viewer in [Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(1)] {
        let svg = picture(&state, viewer);
        for name in hidden {
            assert!(!svg.contains(name), "{viewer:?} sees {name}");
        }
        assert!(svg.contains("3 cards"), "hand sizes are public");
    }
}

#[test]
fn things_on_the_board_are_drawn_and_named() {
    let mut state = start(2, &quiet());
    let rock = card("large_rock");
    state.objects.push(Object {
        id: 90,
        card: rock,
        at: Pos(4, 4),
        cracks: 0,
        spell: None,
    });
    state.wizards[1].items.push(card("speedstone"));
    let svg = picture(&state, Viewer::Seat(0));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let badge = doc
        .descendants()
        .find(|n| n.attribute("data-object") == Some("e5"))
        .unwrap();
    assert!(badge.descendants().any(|n| n.text() == Some("LR")));
    assert!(svg.contains("Large Rock at e5"));
    assert!(
        svg.contains("Items: Speedstone"),
        "carried items are face up"
    );
    // Treasures lie as gems of their owner's colour; homes are rings of it.
    let treasures = doc
        .descendants()
        .filter(|n| n.attribute("data-treasure").is_some())
        .count();
    assert_eq!(treasures, state.treasures.len());
    for seat in 0..2 {
        assert!(
            doc.descendants()
                .any(|n| n.attribute("data-home") == Some(&seat.to_string()))
        );
    }
}

/// A lively table: four turned sectors, objects, created and broken walls, a carried treasure,
/// items, a cast being aimed. Every action's target is a square of the picture.
#[test]
fn a_mid_game_picture() {
    let mut state = start_turned(4, &[0, 1, 2, 3]);
    let add = |state: &mut State, key: &str, at: Pos, spell: Option<u32>| {
        let id = state.new_id();
        state.objects.push(Object {
            id,
            card: card(key),
            at,
            cracks: 0,
            spell,
        });
    };
    add(&mut state, "stone_block", Pos(4, 1), Some(500));
    add(&mut state, "fog", Pos(6, 6), Some(501));
    add(&mut state, "stone_spikes", Pos(1, 7), Some(502));
    add(&mut state, "large_rock", Pos(3, 3), None);
    add(&mut state, "speedstone", Pos(3, 3), None);
    add(&mut state, "lifestone", Pos(8, 1), None);
    for (p, d, key) in [
        (Pos(4, 4), Dir::South, "create_wall"),
        (Pos(5, 7), Dir::East, "wall_of_fire"),
        (Pos(2, 5), Dir::East, "wall_of_earth"),
    ] {
        let e = state.board.edge_mut(p, d).unwrap();
        e.kind = EdgeKind::Open;
        e.created = Some(crate::rules::wiz_war::board::Created {
            card: card(key),
            spell: 600,
            cracks: 1,
        });
    }
    let b = state.board.clone();
    let walls: Vec<(Pos, Dir)> = b
        .squares()
        .into_iter()
        .flat_map(|p| [Dir::East, Dir::South].map(|d| (p, d)))
        .filter(|&(p, d)| b.exists(p.step(d)) && b.edge(p, d).unwrap().kind == EdgeKind::Wall)
        .collect();
    state
        .board
        .edge_mut(walls[3].0, walls[3].1)
        .unwrap()
        .destroyed = true;
    state.board.edge_mut(walls[9].0, walls[9].1).unwrap().cracks = 2;
    place(&mut state, 1, Pos(3, 3));
    place(&mut state, 2, Pos(3, 3));
    place(&mut state, 3, Pos(8, 6));
    state.wizards[1].life = 9;
    state.wizards[2].items = vec![card("mightstone"), card("powerstone")];
    state.wizards[2].stun = 1;
    let cats = state.treasures.iter().position(|t| t.owner == 2).unwrap();
    state.treasures[cats].at = None;
    state.wizards[3].treasure = Some(cats);
    state.treasures.push(Treasure {
        owner: 2,
        at: state.board.home(0),
    });
    give(&mut state, 0, &["fireball", "energy_5"]);
    state.turn.first = false;
    decide(&mut state, 0, Action::Cast(card("fireball")));
    let names: Vec<String> = [
        "Ann",
        "Bob the Magnificent Wizard of the North",
        "Cat",
        "Dan",
    ]
    .iter()
    .map(|n| (*n).to_owned())
    .collect();
    let svg = Game::picture(&state, Viewer::Seat(0), &names).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let ids: Vec<String> = squares(&doc).into_iter().map(|(id, _)| id).collect();
    assert_eq!(ids.len(), 100);
    let actions = Game::legal_actions(&state, 0);
    for t in Game::targets(&state, 0, &actions).into_iter().flatten() {
        assert!(ids.contains(&t), "{t} is no square of the picture");
    }
    assert!(svg.len() < 100_000, "{} bytes", svg.len());
    if let Ok(path) = std::env::var("WIZWAR_SVG") {
        std::fs::write(path, &svg).unwrap();
    }
}
