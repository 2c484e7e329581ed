//! The picture: the map as an SVG document (`Ruleset::picture`) and the square each action is
//! about (`Ruleset::targets`).
//!
//! `MM_SVG=/tmp/mm.svg cargo test --lib monsters_and_magic::tests::picture::a_mid_game` writes
//! a mid-game picture there, to look at.

use super::*;
use crate::rules::Viewer;
use crate::rules::monsters_and_magic::state::{Combat, CombatStep, Defender};
use crate::rules::picture::seat_colour;

fn names() -> Vec<String> {
    ["Ann", "Bob", "Cat", "Dan"]
        .iter()
        .map(|n| (*n).to_owned())
        .collect()
}

fn picture(state: &State, viewer: Viewer) -> String {
    Game::picture(state, viewer, &names()).expect("monsters-and-magic draws a picture")
}

/// The squares' rects by their names: (x, y, width, height) and the fill.
fn squares(doc: &roxmltree::Document) -> Vec<(String, [f64; 4], String)> {
    doc.descendants()
        .filter(|n| n.has_tag_name("rect"))
        .filter_map(|n| {
            let num = |a: &str| n.attribute(a).and_then(|v| v.parse::<f64>().ok());
            Some((
                n.attribute("data-target")?.to_owned(),
                [num("x")?, num("y")?, num("width")?, num("height")?],
                n.attribute("fill")?.to_owned(),
            ))
        })
        .collect()
}

fn square<'a>(
    squares: &'a [(String, [f64; 4], String)],
    name: &str,
) -> &'a (String, [f64; 4], String) {
    squares
        .iter()
        .find(|(n, ..)| n == name)
        .unwrap_or_else(|| panic!("no square {name}"))
}

/// The centres and fills of the tokens drawn for figures at `at` (their `data-at`).
fn tokens_at(doc: &roxmltree::Document, at: &str) -> Vec<(f64, f64, String)> {
    doc.descendants()
        .filter(|n| n.attribute("data-at") == Some(at))
        .filter_map(|g| {
            // The token's disc is the circle with a white outline (the other is its shadow).
            let disc = g
                .descendants()
                .find(|c| c.has_tag_name("circle") && c.attribute("stroke") == Some("#fff"))?;
            let num = |a: &str| disc.attribute(a).and_then(|v| v.parse::<f64>().ok());
            Some((num("cx")?, num("cy")?, disc.attribute("fill")?.to_owned()))
        })
        .collect()
}

fn inside(point: (f64, f64), rect: [f64; 4]) -> bool {
    let [x, y, w, h] = rect;
    point.0 > x && point.0 < x + w && point.1 > y && point.1 < y + h
}

fn all_text(doc: &roxmltree::Document) -> String {
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join("|")
}

#[test]
fn the_picture_has_the_sixty_four_squares_named_like_chess_squares() {
    let state = game(2);
    let svg = picture(&state, Viewer::Seat(0));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let squares = squares(&doc);
    assert_eq!(squares.len(), 64);
    let mut names: Vec<&str> = squares.iter().map(|(n, ..)| n.as_str()).collect();
    names.sort_unstable();
    let mut expected: Vec<String> = Pos::all().map(|p| p.to_string()).collect();
    expected.sort_unstable();
    assert_eq!(names, expected);
    // Row 8 is on top and column a on the left, as in the text diagram.
    let a1 = square(&squares, "a1").1;
    let a8 = square(&squares, "a8").1;
    let h1 = square(&squares, "h1").1;
    assert!(a8[1] < a1[1], "a8 {a8:?} is not above a1 {a1:?}");
    assert!(a1[0] < h1[0], "a1 {a1:?} is not left of h1 {h1:?}");
    assert_eq!(a1[1], h1[1]);
    // The labels a–h and 1–8 are written.
    let text = all_text(&doc);
    for label in ["a", "h", "1", "8"] {
        assert!(text.split('|').any(|t| t == label), "no label {label}");
    }
    assert!(svg.len() < 100_000, "{} bytes", svg.len());
}

#[test]
fn a_square_is_filled_with_its_terrain_colour() {
    let mut state = game(2);
    set_space(&mut state, Pos(3, 5), Terrain::Forest, Structure::Temple);
    set_space(&mut state, Pos(4, 5), Terrain::Badlands, Structure::Mine);
    let svg = picture(&state, Viewer::Spectator);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let before = squares(&doc);
    let d6 = &square(&before, "d6").2;
    let e6 = &square(&before, "e6").2;
    assert_ne!(d6, e6);
    // Every Forest square has d6's colour, every Badlands square e6's.
    for at in Pos::all() {
        let fill = &square(&before, &at.to_string()).2;
        match state.terrain(at) {
            Some(Terrain::Forest) => assert_eq!(fill, d6, "{at}"),
            Some(Terrain::Badlands) => assert_eq!(fill, e6, "{at}"),
            _ => assert!(fill != d6 && fill != e6, "{at}"),
        }
    }
    // A square not laid yet is grey, and differs from all four terrains.
    let mut bare = state.clone();
    bare.space_mut(Pos(3, 5)).unwrap().terrain = None;
    let svg = picture(&bare, Viewer::Spectator);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let bare_squares = squares(&doc);
    let grey = &square(&bare_squares, "d6").2;
    for t in Terrain::ALL {
        let some = Pos::all().find(|&p| state.terrain(p) == Some(t)).unwrap();
        assert_ne!(grey, &square(&before, &some.to_string()).2, "{t:?}");
    }
}

#[test]
fn figures_are_tokens_in_their_owners_colour_inside_their_square() {
    let mut state = game(3);
    let d6 = Pos(3, 5);
    put_figure(&mut state, 1, FigureKind::Monster, d6);
    put_figure(&mut state, 1, FigureKind::Army, d6);
    put_figure(&mut state, 2, FigureKind::Mage, d6);
    put_garrison(&mut state, 1, d6);
    let svg = picture(&state, Viewer::Seat(0));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let rect = square(&squares(&doc), "d6").1;
    let tokens = tokens_at(&doc, "d6");
    assert_eq!(tokens.len(), 3, "{tokens:?}");
    for (cx, cy, fill) in &tokens {
        assert!(
            inside((*cx, *cy), rect),
            "token at {cx},{cy} outside d6 {rect:?}"
        );
        assert!(fill == seat_colour(1) || fill == seat_colour(2), "{fill}");
    }
    // Side by side: no two tokens share a centre.
    for (i, a) in tokens.iter().enumerate() {
        for b in &tokens[i + 1..] {
            assert!((a.0, a.1) != (b.0, b.1), "{a:?} and {b:?} overlap");
        }
    }
    // The letters of the kinds are written on them.
    let letters: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("data-at") == Some("d6"))
        .flat_map(|g| g.descendants().filter(|t| t.is_text()))
        .filter_map(|t| t.text())
        .collect();
    assert_eq!(letters, ["X", "A", "M"]);
    // The garrison: a border in seat 1's colour inside d6.
    let border = doc.descendants().any(|n| {
        n.has_tag_name("rect")
            && n.attribute("stroke") == Some(seat_colour(1))
            && n.attribute("x")
                .and_then(|x| x.parse::<f64>().ok())
                .is_some_and(|x| x > rect[0] && x < rect[0] + rect[2])
            && n.attribute("y")
                .and_then(|y| y.parse::<f64>().ok())
                .is_some_and(|y| y > rect[1] && y < rect[1] + rect[3])
    });
    assert!(border, "no garrison border in d6");
    // The players' corners are marked in their colours.
    for seat in 0..3 {
        let corner = doc
            .descendants()
            .find(|n| n.attribute("data-corner") == Some(&seat.to_string()))
            .unwrap_or_else(|| panic!("no corner of seat {seat}"));
        assert_eq!(corner.attribute("stroke"), Some(seat_colour(seat)));
    }
}

#[test]
fn a_move_targets_the_square_it_goes_to() {
    let state = game(2);
    let actions = legal(&state, 0);
    let targets = Game::targets(&state, 0, &actions);
    assert_eq!(targets.len(), actions.len());
    let svg = picture(&state, Viewer::Seat(0));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let names: Vec<String> = squares(&doc).into_iter().map(|(n, ..)| n).collect();
    let mut moves = 0;
    for (action, target) in actions.iter().zip(&targets) {
        match action {
            Action::Move { to, .. } => {
                moves += 1;
                assert_eq!(target.as_deref(), Some(to.to_string().as_str()));
            }
            Action::EndMovement | Action::PlayCard(_) => assert_eq!(target, &None),
            _ => {}
        }
        if let Some(t) = target {
            assert!(names.contains(t), "{t} is not a square");
        }
    }
    assert!(moves > 0, "no moves in {actions:?}");
}

#[test]
fn set_up_and_recruit_choices_target_their_squares() {
    let mut state = Game::new_game(&Options::default(), 2).unwrap();
    lay_map(&mut state);
    while matches!(state.phase, Phase::Deal) {
        let (first, _) = outcomes(&state)[0].clone();
        chance(&mut state, first);
    }
    let actions = legal(&state, 0);
    let targets = Game::targets(&state, 0, &actions);
    for (a, t) in actions.iter().zip(&targets) {
        let Action::ChooseCorner(c) = a else {
            panic!("{a:?}")
        };
        assert_eq!(t.as_deref(), Some(c.to_string().as_str()));
    }
    assert!(targets.contains(&Some("a1".to_owned())));
    assert!(targets.contains(&Some("h8".to_owned())));
    // A starting figure goes into the corner chosen.
    decide(&mut state, 0, Action::ChooseCorner(Pos(0, 0)));
    decide(&mut state, 1, Action::ChooseCorner(Pos(7, 7)));
    let actions = legal(&state, 0);
    let targets = Game::targets(&state, 0, &actions);
    assert!(
        targets.iter().all(|t| t.as_deref() == Some("a1")),
        "{targets:?}"
    );
    // A recruit goes where it is placed; an Alter Terrain acts where it is aimed.
    let recruit = Action::Recruit {
        figure: FigureKind::Army,
        at: Pos(2, 6),
    };
    let alter = Action::AlterTerrain { at: Pos(7, 0) };
    assert_eq!(
        Game::targets(&state, 0, &[recruit, alter, Action::EndTurn]),
        vec![Some("c7".to_owned()), Some("h1".to_owned()), None]
    );
}

#[test]
fn names_are_escaped() {
    let state = game(2);
    let names = vec!["<b>Ann & co</b>".to_owned(), "Bob \"the\" <&".to_owned()];
    let svg = Game::picture(&state, Viewer::Seat(1), &names).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert!(!svg.contains("<b>"), "unescaped name");
    let text = all_text(&doc);
    assert!(text.contains("<b>Ann & co</b>"), "{text}");
    assert!(text.contains("Bob \"the\" <& (you)"), "{text}");
}

#[test]
fn no_card_of_any_hand_is_written() {
    let mut state = game(2);
    give(&mut state, 0, id("Knights"));
    give(&mut state, 1, id("Dragons"));
    for viewer in [Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(1)] {
        let svg = picture(&state, viewer);
        assert!(!svg.contains("Knights"), "{viewer:?}");
        assert!(!svg.contains("Dragon"), "{viewer:?}");
    }
}

#[test]
fn a_fight_and_the_moving_figure_are_marked() {
    let mut state = game(2);
    let attacker = put_figure(&mut state, 0, FigureKind::Hero, Pos(3, 3));
    put_figure(&mut state, 1, FigureKind::Army, Pos(3, 3));
    state.moving = Some(attacker);
    state.phase = Phase::Combat(Combat {
        attacker,
        at: Pos(3, 3),
        defender_seat: 1,
        defender: Defender::Garrison,
        step: CombatStep::AttackerCards,
        attack_roll: Some(7),
        defence_roll: Some(5),
        passes: 0,
    });
    let svg = picture(&state, Viewer::Seat(1));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert!(
        doc.descendants()
            .any(|n| n.attribute("data-fight") == Some("d4"))
    );
    let text = all_text(&doc);
    assert!(text.contains("fight at d4"), "{text}");
    assert!(
        text.contains("Moving now") && text.contains("Fight"),
        "{text}"
    );
}

#[test]
fn the_picture_is_deterministic_and_the_same_for_seats_and_spectators_but_for_you() {
    let state = game(2);
    assert_eq!(
        picture(&state, Viewer::Seat(0)),
        picture(&state, Viewer::Seat(0))
    );
    let spectator = picture(&state, Viewer::Spectator);
    assert!(!spectator.contains("(you)"));
    assert!(picture(&state, Viewer::Seat(0)).contains("Ann (you)"));
}

/// A small deterministic generator (xorshift), as in `playout.rs`.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A seeded 4-player game played at random (ending the movement a third of the time) until
/// turn `turn` has come, stopped in the middle of a figure's move.
fn random_game(seed: u64, turn: u32) -> State {
    let mut dice = Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut state = Game::new_game(&Options::default(), 4).unwrap();
    for _ in 0..50_000 {
        if state.turn >= turn && state.moving.is_some() && matches!(state.phase, Phase::Movement) {
            return state;
        }
        match Game::next(&state) {
            Next::Over(_) => break,
            Next::Chance(c) => {
                let total: u32 = c.outcomes.iter().map(|(_, w)| *w).sum();
                let mut point = dice.below(total as usize) as u32;
                let mut pick = c.outcomes[0].0.clone();
                for (a, w) in &c.outcomes {
                    if point < *w {
                        pick = a.clone();
                        break;
                    }
                    point -= w;
                }
                Game::apply(&mut state, Actor::Chance, &pick).unwrap();
            }
            Next::Players(seats) => {
                let seat = seats[dice.below(seats.len())];
                let actions = legal(&state, seat);
                let action = if actions.contains(&Action::EndMovement) && dice.below(3) == 0 {
                    Action::EndMovement
                } else {
                    actions[dice.below(actions.len())].clone()
                };
                Game::apply(&mut state, Actor::Seat(seat), &action).unwrap();
            }
        }
    }
    panic!("seed {seed}: no state at turn {turn}")
}

#[test]
fn a_mid_game_picture_is_small_and_every_target_is_a_square() {
    let state = random_game(3, 30);
    let seat = state.current;
    let svg = picture(&state, Viewer::Seat(seat));
    assert!(svg.len() < 100_000, "{} bytes", svg.len());
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let names: Vec<String> = squares(&doc).into_iter().map(|(n, ..)| n).collect();
    let actions = legal(&state, seat);
    for t in Game::targets(&state, seat, &actions).into_iter().flatten() {
        assert!(names.contains(&t), "{t}");
    }
    // Every figure is drawn inside its square.
    let squares = squares(&doc);
    for f in &state.figures {
        let rect = square(&squares, &f.at.to_string()).1;
        let tokens = tokens_at(&doc, &f.at.to_string());
        assert!(!tokens.is_empty());
        assert!(tokens.iter().all(|t| inside((t.0, t.1), rect)));
    }
    if let Ok(path) = std::env::var("MM_SVG") {
        std::fs::write(path, &svg).unwrap();
    }
}
