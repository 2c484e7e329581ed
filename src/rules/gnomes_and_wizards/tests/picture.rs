//! The picture: the board as an SVG document (`Ruleset::picture`) and the shape each action is
//! about (`Ruleset::targets`).
//!
//! `GW_SVG=/tmp/gw.svg cargo test --lib gnomes_and_wizards::tests::picture::mid_game` writes a
//! two-player mid-game picture there, and beside it `gw-4.svg` (four players) and
//! `gw-solo.svg` (a solo game), to look at.

use super::conformance::MARKER_CARD;
use super::*;
use crate::rules::Viewer;
use crate::rules::gnomes_and_wizards::data::{self, Face};
use crate::rules::picture::seat_colour;

fn names() -> Vec<String> {
    ["Ann", "Bob", "Cat", "Dan"]
        .iter()
        .map(|n| (*n).to_owned())
        .collect()
}

fn picture(state: &State, viewer: Viewer) -> String {
    Game::picture(state, viewer, &names()).expect("gnomes-and-wizards draws a picture")
}

fn all_text(doc: &roxmltree::Document) -> String {
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join("|")
}

fn title(doc: &roxmltree::Document) -> String {
    doc.root_element()
        .children()
        .find(|c| c.has_tag_name("title"))
        .and_then(|t| t.text())
        .unwrap_or_default()
        .to_owned()
}

/// Every `data-target` in the picture.
fn target_ids(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants()
        .filter_map(|n| n.attribute("data-target"))
        .map(str::to_owned)
        .collect()
}

/// A tile's polygon: (target id, fill, corners).
type Polygon = (String, String, Vec<(f64, f64)>);

/// The tiles' polygons by target.
fn tiles(doc: &roxmltree::Document) -> Vec<Polygon> {
    doc.descendants()
        .filter(|n| n.has_tag_name("polygon"))
        .filter_map(|n| {
            let id = n.attribute("data-target")?.to_owned();
            let corners = n
                .attribute("points")?
                .split(' ')
                .filter_map(|p| {
                    let (x, y) = p.split_once(',')?;
                    Some((x.parse().ok()?, y.parse().ok()?))
                })
                .collect();
            Some((id, n.attribute("fill")?.to_owned(), corners))
        })
        .collect()
}

fn lcg(x: &mut u64) -> u64 {
    *x = x
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *x >> 33
}

/// A random game (seeded) played until `stop` holds at a decision of the seat to play.
fn random_game(options: &Options, seats: usize, seed: u64, stop: &dyn Fn(&State) -> bool) -> State {
    let mut rng = seed.wrapping_mul(7919).wrapping_add(3);
    let mut state = Game::new_game(options, seats).unwrap();
    for _ in 0..200_000 {
        match Game::next(&state) {
            Next::Over(_) => break,
            Next::Chance(c) => {
                let a = c.pick(lcg(&mut rng) % c.total_weight()).unwrap().clone();
                Game::apply(&mut state, Actor::Chance, &a).unwrap();
            }
            Next::Players(seats) => {
                if stop(&state) {
                    return state;
                }
                let seat = seats[(lcg(&mut rng) as usize) % seats.len()];
                let actions = legal(&state, seat);
                // Call Clans whenever possible (horns first), and end steps now and then, so
                // that the board fills and games move on.
                let ends = [Action::EndActions, Action::EndCall, Action::EndCharge];
                let summon = actions.iter().find(|a| matches!(a, Action::Summon { .. }));
                let horn = actions.iter().find(|a| {
                    matches!(
                        a,
                        Action::Assign {
                            face: Face::Horn,
                            ..
                        }
                    )
                });
                let a = match (summon, horn, actions.iter().find(|a| ends.contains(a))) {
                    (Some(s), ..) => s.clone(),
                    (_, Some(h), _) => h.clone(),
                    (.., Some(end)) if lcg(&mut rng).is_multiple_of(4) => end.clone(),
                    _ => actions[(lcg(&mut rng) as usize) % actions.len()].clone(),
                };
                Game::apply(&mut state, Actor::Seat(seat), &a).unwrap();
            }
        }
    }
    panic!("seed {seed}: the game never reached the state wanted");
}

/// Moving and attacking in round `round` or later, with no unit moving.
fn acting_in(round: u8) -> impl Fn(&State) -> bool {
    move |s: &State| {
        s.round >= round
            && matches!(s.step(), Some(Step::Act))
            && s.moving.is_none()
            && s.window.is_none()
            && s.falls.is_empty()
    }
}

#[test]
fn the_picture_is_a_well_formed_svg_with_a_title_and_every_tile() {
    let state = start(2);
    let svg = picture(&state, Viewer::Seat(0));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    for a in ["viewBox", "width", "height"] {
        assert!(root.attribute(a).is_some(), "no {a}");
    }
    let title = title(&doc);
    assert!(title.starts_with("Gnomes & Wizards"), "{title}");
    assert!(title.contains("round 1 of 10"), "{title}");
    assert!(title.contains("your turn"), "{title}");
    assert!(title.contains("Ann (you) 15, Bob 15"), "{title}");
    // One polygon per tile, named tile-0 … tile-23.
    let tiles = tiles(&doc);
    let g = state.geometry();
    assert_eq!(tiles.len(), g.len());
    for t in g.ids() {
        assert!(
            tiles.iter().any(|(id, ..)| *id == format!("tile-{t}")),
            "no tile {t}"
        );
    }
    assert!(svg.len() < 40_000, "{} bytes", svg.len());
}

#[test]
fn tiles_lie_as_on_the_table_and_show_their_owner_and_flips() {
    let mut state = start(2);
    let svg = picture(&state, Viewer::Spectator);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let before = tiles(&doc);
    let g = state.geometry();
    // Adjacent tiles share an edge: two corners in common.
    for t in g.ids() {
        let mine = &before[usize::from(t)].2;
        for &a in g.adjacent(t) {
            let theirs = &before[usize::from(a)].2;
            let shared = mine
                .iter()
                .filter(|p| {
                    theirs
                        .iter()
                        .any(|q| (p.0 - q.0).abs() < 0.2 && (p.1 - q.1).abs() < 0.2)
                })
                .count();
            assert_eq!(shared, 2, "tiles {t} and {a} share no edge");
        }
    }
    // A face-up tile is tinted by its owner: tiles of one tribe alike, of two tribes not.
    let owner = |t: u8| {
        let tribe = state.tile(t).unwrap().card.unwrap().tribe;
        state.players.iter().position(|p| p.tribe == Some(tribe))
    };
    let (a, b) = (0u8, g.ids().find(|&t| owner(t) != owner(0)).unwrap());
    let c = g.ids().find(|&t| t != 0 && owner(t) == owner(0)).unwrap();
    assert_eq!(before[usize::from(a)].1, before[usize::from(c)].1);
    assert_ne!(before[usize::from(a)].1, before[usize::from(b)].1);
    // Every face-up tile carries its Clan's number in a ring.
    let rings = doc
        .descendants()
        .filter(|n| n.attribute("data-clan").is_some())
        .count();
    assert_eq!(rings, g.len());
    // A flipped tile is hatched and loses its ring.
    let (t, _) = inner_tile(&state);
    state.tile_mut(t).unwrap().flipped = true;
    let svg = picture(&state, Viewer::Spectator);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let after = tiles(&doc);
    assert_eq!(after[usize::from(t)].1, "url(#gw-flipped)");
    assert!(
        doc.descendants()
            .any(|n| n.attribute("id") == Some("gw-flipped"))
    );
    let rings = doc
        .descendants()
        .filter(|n| n.attribute("data-clan").is_some())
        .count();
    assert_eq!(rings, g.len() - 1);
    // Crystal mines are labelled by their violet border.
    let borders = doc
        .descendants()
        .filter(|n| n.has_tag_name("polygon") && n.attribute("stroke") == Some("#7b4fc9"))
        .count();
    assert_eq!(borders, g.ids().filter(|&t| state.is_mine(t)).count());
}

#[test]
fn units_are_tokens_in_their_owners_colour_inside_their_tile() {
    let mut state = start(2);
    let (t, _) = inner_tile(&state);
    put(&mut state, unit(0, 3), t);
    put(&mut state, unit(1, 0), t);
    put(&mut state, unit(1, 2), t);
    let svg = picture(&state, Viewer::Seat(1));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let tile = tiles(&doc)
        .into_iter()
        .find(|(id, ..)| *id == format!("tile-{t}"))
        .unwrap()
        .2;
    let (min_x, max_x) = (
        tile.iter().map(|p| p.0).fold(f64::MAX, f64::min),
        tile.iter().map(|p| p.0).fold(f64::MIN, f64::max),
    );
    let (min_y, max_y) = (
        tile.iter().map(|p| p.1).fold(f64::MAX, f64::min),
        tile.iter().map(|p| p.1).fold(f64::MIN, f64::max),
    );
    for (u, label) in [(unit(0, 3), "A3"), (unit(1, 0), "BL"), (unit(1, 2), "B2")] {
        let id = format!("unit-{}-{}", u.owner, u.slot);
        let token = doc
            .descendants()
            .find(|n| n.attribute("data-target") == Some(id.as_str()))
            .unwrap_or_else(|| panic!("no token {id}"));
        assert_eq!(token.attribute("fill"), Some(seat_colour(u.owner)));
        let group = token.parent().unwrap();
        let text = all_text(&roxmltree::Document::parse(&svg).unwrap());
        assert!(text.contains(label), "{label}");
        // The label is written at a point inside the tile's box.
        let written = group
            .descendants()
            .find(|n| n.has_tag_name("text"))
            .unwrap();
        let x: f64 = written.attribute("x").unwrap().parse().unwrap();
        let y: f64 = written.attribute("y").unwrap().parse().unwrap();
        assert!(
            x > min_x && x < max_x && y > min_y && y < max_y,
            "{id} at {x},{y}"
        );
        assert_eq!(written.text(), Some(label));
    }
    // A Leader is a cone (a path), a Clan a disc.
    let shape = |id: &str| {
        doc.descendants()
            .find(|n| n.attribute("data-target") == Some(id))
            .unwrap()
            .tag_name()
            .name()
            .to_owned()
    };
    assert_eq!(shape("unit-1-0"), "path");
    assert_eq!(shape("unit-0-3"), "circle");
}

#[test]
fn names_are_escaped_and_the_viewer_is_you() {
    let state = start(2);
    let names = vec!["Ann <b>&".to_owned(), "Bob \"the\" <&".to_owned()];
    let svg = Game::picture(&state, Viewer::Seat(1), &names).unwrap();
    assert!(!svg.contains("<b>"), "unescaped name");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let text = all_text(&doc);
    assert!(text.contains("Ann <b>&"), "{text}");
    assert!(text.contains("Bob \"the\" <& (you)"), "{text}");
    assert!(!text.contains("Ann <b>& (you)"), "{text}");
    assert!(title(&doc).contains("Bob \"the\" <& (you)"));
    // A spectator is nobody.
    let spectator = Game::picture(&state, Viewer::Spectator, &names).unwrap();
    assert!(!spectator.contains("(you)"));
    assert!(
        Game::picture(&state, Viewer::Seat(0), &names)
            .unwrap()
            .contains("Ann &lt;b&gt;&amp; (you)")
    );
}

#[test]
fn no_card_is_written_and_a_spectator_sees_no_secret() {
    let mut state = start(2);
    let names_of: Vec<&str> = (24..27u16).map(|c| data::card(c).unwrap().1.name).collect();
    state.players[0].hand = vec![24];
    state.players[1].hand = vec![25, 26];
    for viewer in [Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(1)] {
        let svg = picture(&state, viewer);
        for name in &names_of[..3] {
            assert!(!svg.contains(name), "{viewer:?} sees {name}");
        }
        // Hands are counts.
        let text = all_text(&roxmltree::Document::parse(&svg).unwrap());
        assert!(text.contains("1 Secret card"), "{text}");
        assert!(text.contains("2 Secret cards"), "{text}");
    }
    // The conformance suite's planted marker never shows.
    for p in &mut state.players {
        p.hand = vec![MARKER_CARD; 3];
    }
    for viewer in [Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(1)] {
        assert!(!picture(&state, viewer).contains("4242"), "{viewer:?}");
    }
}

#[test]
fn actions_target_the_tiles_units_and_dice_they_are_about() {
    let mut state = start(2);
    roll(
        &mut state,
        &[Face::MoveAttack, Face::Horn, Face::MoveAttack, Face::Shield],
    );
    // Re-rolls: each die marks itself.
    let actions = legal(&state, 0);
    let targets = Game::targets(&state, 0, &actions);
    assert_eq!(targets.len(), actions.len());
    for (a, t) in actions.iter().zip(&targets) {
        match a {
            Action::MarkReroll(i) => assert_eq!(t.as_deref(), Some(format!("die-{i}").as_str())),
            Action::KeepDice | Action::Reroll => assert_eq!(t, &None),
            _ => {}
        }
    }
    let svg = picture(&state, Viewer::Seat(0));
    let ids = target_ids(&roxmltree::Document::parse(&svg).unwrap());
    for i in 0..4 {
        assert!(ids.contains(&format!("die-{i}")), "no die {i}");
    }
    // Assigning: the first free die of the face.
    decide(&mut state, 0, Action::KeepDice);
    let assign = |face| Action::Assign { face, slot: 0 };
    assert_eq!(
        Game::targets(&state, 0, &[assign(Face::MoveAttack), assign(Face::Shield)]),
        vec![Some("die-0".to_owned()), Some("die-3".to_owned())]
    );
    decide(&mut state, 0, assign(Face::MoveAttack));
    assert_eq!(
        Game::targets(&state, 0, &[assign(Face::MoveAttack)]),
        vec![Some("die-2".to_owned())]
    );
    decide(&mut state, 0, assign(Face::MoveAttack));
    decide(&mut state, 0, assign(Face::Horn));
    decide(&mut state, 0, assign(Face::Shield));
    // Moves go to tiles; an attack is about the unit attacked.
    assert_eq!(step_of(&state), Step::Act);
    let leader = state.unit(unit(0, 0)).unwrap().tile.unwrap();
    put(&mut state, unit(1, 1), leader);
    let actions = legal(&state, 0);
    let targets = Game::targets(&state, 0, &actions);
    let svg = picture(&state, Viewer::Seat(0));
    let ids = target_ids(&roxmltree::Document::parse(&svg).unwrap());
    let (mut moves, mut attacks) = (0, 0);
    for (a, t) in actions.iter().zip(&targets) {
        match a {
            Action::Move { to, .. } => {
                moves += 1;
                assert_eq!(t.as_deref(), Some(format!("tile-{to}").as_str()));
            }
            Action::Attack { target, .. } => {
                attacks += 1;
                let want = format!("unit-{}-{}", target.owner, target.slot);
                assert_eq!(t.as_deref(), Some(want.as_str()));
            }
            Action::EndActions => assert_eq!(t, &None),
            _ => {}
        }
        if let Some(t) = t {
            assert!(ids.contains(t), "{t} is not in the picture");
        }
    }
    assert!(moves > 0 && attacks > 0, "{actions:?}");
    // Set-up: a Leader goes on a start tile.
    let state = Game::new_game(
        &Options {
            tribes: vec![Tribe::Turquefoss, Tribe::Imblasham],
            ..Options::default()
        },
        2,
    )
    .unwrap();
    let mut state = state;
    while !matches!(state.phase, Phase::Leaders) {
        let Next::Chance(c) = Game::next(&state) else {
            panic!("{:?}", state.phase)
        };
        let a = c.outcomes[0].0.clone();
        Game::apply(&mut state, Actor::Chance, &a).unwrap();
    }
    let seat = waiting_for(&state)[0];
    let actions = legal(&state, seat);
    let targets = Game::targets(&state, seat, &actions);
    for (a, t) in actions.iter().zip(&targets) {
        let Action::PlaceLeader(to) = a else {
            panic!("{a:?}")
        };
        assert_eq!(t.as_deref(), Some(format!("tile-{to}").as_str()));
    }
    let svg = picture(&state, Viewer::Seat(seat));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let starts: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("data-start"))
        .collect();
    assert!(!actions.is_empty());
    for a in &actions {
        let Action::PlaceLeader(to) = a else {
            panic!("{a:?}")
        };
        assert!(
            starts.contains(&to.to_string().as_str()),
            "tile {to} is not marked"
        );
    }
    assert!(title(&doc).contains("to place"), "{}", title(&doc));
}

/// At every decision of many random games' first thousands of steps (1, 2, 3 and 4 seats),
/// every target of every legal action of each seat to decide is a shape of that seat's picture,
/// and the kinds of shape each come up.
#[test]
fn every_target_of_a_playout_is_in_the_picture() {
    let mut seen = [0usize; 3];
    for (seats, seed) in [(1, 1u64), (2, 2), (3, 3), (4, 4)] {
        let mut rng = seed;
        let mut state = Game::new_game(&Options::default(), seats).unwrap();
        for step in 0..2_500 {
            match Game::next(&state) {
                Next::Over(_) => break,
                Next::Chance(c) => {
                    let a = c.pick(lcg(&mut rng) % c.total_weight()).unwrap().clone();
                    Game::apply(&mut state, Actor::Chance, &a).unwrap();
                }
                Next::Players(deciders) => {
                    for &seat in &deciders {
                        let actions = legal(&state, seat);
                        let targets = Game::targets(&state, seat, &actions);
                        assert_eq!(targets.len(), actions.len());
                        if targets.iter().all(Option::is_none) && step % 7 != 0 {
                            continue;
                        }
                        let svg = picture(&state, Viewer::Seat(seat));
                        let ids = target_ids(&roxmltree::Document::parse(&svg).unwrap());
                        for (a, t) in actions.iter().zip(&targets) {
                            let Some(t) = t else { continue };
                            assert!(
                                ids.contains(t),
                                "{seats} seats, step {step}: {a:?} targets {t}, not drawn"
                            );
                            let kind = ["tile-", "unit-", "die-"]
                                .iter()
                                .position(|k| t.starts_with(k))
                                .unwrap();
                            seen[kind] += 1;
                        }
                    }
                    let seat = deciders[(lcg(&mut rng) as usize) % deciders.len()];
                    let actions = legal(&state, seat);
                    let a = actions[(lcg(&mut rng) as usize) % actions.len()].clone();
                    Game::apply(&mut state, Actor::Seat(seat), &a).unwrap();
                }
            }
        }
    }
    assert!(seen.iter().all(|&k| k > 0), "tiles, units, dice: {seen:?}");
}

#[test]
fn the_picture_is_deterministic() {
    let state = random_game(&Options::default(), 3, 11, &acting_in(3));
    let current = state.current().unwrap();
    let others: Vec<Seat> = (0..3).filter(|&s| s != current).collect();
    let a = picture(&state, Viewer::Seat(others[0]));
    assert_eq!(a, picture(&state.clone(), Viewer::Seat(others[0])));
    let spectator = picture(&state, Viewer::Spectator);
    assert_eq!(spectator, picture(&state, Viewer::Spectator));
    // Seats not to play see the same table as a spectator but for who is "you".
    let b = picture(&state, Viewer::Seat(others[1]));
    assert_ne!(a, b);
    assert!(a.contains(" (you)") && !spectator.contains(" (you)"));
    assert_eq!(a.replace(" (you)", ""), spectator);
    assert_eq!(b.replace(" (you)", ""), spectator);
}

/// A mid-game picture (round 7, tiles flipped) of 2 and 4 players and of a solo game (round 4): small, the
/// round and the player to play in the title, the dice of the turn drawn, every unit on the
/// board a token. With `GW_SVG` set, they are written out.
#[test]
fn mid_game_pictures_are_small_and_complete() {
    let out = std::env::var("GW_SVG").ok();
    for (seats, seed, round, suffix) in [(2, 5u64, 7, ""), (4, 6, 7, "-4"), (1, 7, 4, "-solo")] {
        let state = random_game(&Options::default(), seats, seed, &acting_in(round));
        let seat = state.current().unwrap();
        let svg = picture(&state, Viewer::Seat(seat));
        assert!(svg.len() < 60_000, "{seats} seats: {} bytes", svg.len());
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let title = title(&doc);
        assert!(
            title.contains(&format!("round {} of 10", state.round)),
            "{title}"
        );
        assert!(title.contains("your turn: moving and attacking"), "{title}");
        let ids = target_ids(&doc);
        for u in state.units_on_board() {
            let id = format!("unit-{}-{}", u.owner, u.slot);
            assert!(ids.contains(&id), "{seats} seats: no token {id}");
        }
        let dice = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("rx") == Some("5"))
            .count();
        assert_eq!(dice, state.dice.len(), "{seats} seats");
        if seats == 1 {
            assert!(all_text(&doc).contains("the automaton"));
        }
        if let Some(path) = &out {
            let path = match path.strip_suffix(".svg") {
                Some(stem) => format!("{stem}{suffix}.svg"),
                None => format!("{path}{suffix}"),
            };
            std::fs::write(&path, &svg).unwrap();
            println!(
                "{seats} seats, round {}: {} bytes in {path}",
                state.round,
                svg.len()
            );
        }
    }
}
