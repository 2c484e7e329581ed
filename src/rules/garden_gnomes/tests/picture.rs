//! The picture: the park as an SVG document (`Ruleset::picture`) and the shape each action is
//! about (`Ruleset::targets`).
//!
//! `GG_SVG=/tmp/gg.svg cargo test --lib garden_gnomes::tests::picture::a_mid_game` writes a
//! mid-game picture there (and `GG_SVG_BATTLE=/tmp/gg-battle.svg` one of a battle), to look at.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::secrets::{SECRET_MARKER, plant_secret_markers};
use super::*;
use crate::rules::Viewer;

fn names() -> Vec<String> {
    ["Rachel", "Greg", "Brian", "Yasmin", "Eve", "Fay"]
        .iter()
        .map(|n| (*n).to_owned())
        .collect()
}

fn picture(state: &State, viewer: Viewer) -> String {
    Game::picture(state, viewer, &names()).expect("garden-gnomes draws a picture")
}

fn all_text(doc: &roxmltree::Document) -> String {
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join("|")
}

fn target_ids(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants()
        .filter_map(|n| n.attribute("data-target"))
        .map(str::to_owned)
        .collect()
}

/// The numbers written on the gnome tokens in territory `t`, with the tokens' fills.
fn tokens_at(doc: &roxmltree::Document, t: Territory) -> Vec<(String, String)> {
    let id = format!("t{t}");
    let Some(group) = doc
        .descendants()
        .find(|n| n.attribute("data-at") == Some(id.as_str()))
    else {
        return Vec::new();
    };
    let discs: Vec<String> = group
        .descendants()
        .filter(|c| c.has_tag_name("circle") && c.attribute("stroke").is_some())
        .filter_map(|c| c.attribute("fill").map(str::to_owned))
        .collect();
    let numbers: Vec<String> = group
        .descendants()
        .filter(|c| c.has_tag_name("text"))
        .filter_map(|c| c.text().map(str::to_owned))
        .collect();
    numbers.into_iter().zip(discs).collect()
}

#[test]
fn the_picture_is_titled_svg_with_a_box_for_each_of_the_sixteen_territories() {
    let state = rulebook_table();
    let svg = picture(&state, Viewer::Seat(0));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let title = root
        .children()
        .find(|c| c.has_tag_name("title"))
        .and_then(|t| t.text())
        .unwrap();
    assert!(
        title.starts_with("Garden Gnomes park: round 1, movement"),
        "{title}"
    );
    assert!(title.contains("you (Red) to move"), "{title}");
    let ids = target_ids(&doc);
    for t in 0..16 {
        assert!(ids.contains(&format!("t{t}")), "no box for territory {t}");
    }
    assert_eq!(ids.len(), 16, "{ids:?}");
    // Territory boxes are rects, and the passages of the map are drawn between them.
    let passages = doc
        .descendants()
        .filter(|n| n.attribute("data-passage").is_some())
        .count();
    assert_eq!(passages, 28);
    let text = all_text(&doc);
    for name in [
        "Red Home",
        "North Oak",
        "Gnome King",
        "Frog",
        "Hedge Berries",
    ] {
        assert!(text.split('|').any(|t| t == name), "no {name} in {text}");
    }
    assert!(svg.len() < 40_000, "{} bytes", svg.len());
}

#[test]
fn gnomes_are_numbered_tokens_in_their_clans_colours() {
    let mut state = rulebook_table();
    place(&mut state, Red, FROG, 3);
    place(&mut state, Blue, FROG, 2);
    place(&mut state, Green, NORTH_OAK, 1);
    let svg = picture(&state, Viewer::Spectator);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let frog = tokens_at(&doc, FROG);
    // In turn order from the first player (Red).
    assert_eq!(
        frog,
        vec![
            ("3".to_owned(), "#c0392b".to_owned()),
            ("2".to_owned(), "#2e6fd8".to_owned())
        ]
    );
    assert_eq!(
        tokens_at(&doc, NORTH_OAK),
        vec![("1".to_owned(), "#1e8449".to_owned())]
    );
    assert!(tokens_at(&doc, TOADSTOOL).is_empty());
    // The legend counts each clan's gnomes in the park and in reserve.
    let text = all_text(&doc);
    assert!(text.contains(": 3 in park, 9 in reserve"), "{text}");
}

#[test]
fn names_are_escaped_and_the_viewer_is_marked() {
    let state = rulebook_table();
    let names = vec![
        "Ann <b>&".to_owned(),
        "Bob \"the\" <&".to_owned(),
        "Cat".to_owned(),
        "Dan".to_owned(),
    ];
    let svg = Game::picture(&state, Viewer::Seat(1), &names).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert!(!svg.contains("<b>"), "unescaped name");
    let text = all_text(&doc);
    assert!(text.contains("Ann <b>&"), "{text}");
    assert!(text.contains("Bob \"the\" <& (you)"), "{text}");
    assert!(!text.contains("Ann <b>& (you)"), "{text}");
    // Ann's Red clan moves first: the title names her.
    let title = doc.root_element().first_element_child().unwrap();
    assert!(
        title.text().unwrap().contains("Red (Ann <b>&) to move"),
        "{:?}",
        title.text()
    );
}

#[test]
fn no_objective_shows_to_anyone_and_a_spectator_is_nobody() {
    let mut state = rulebook_table();
    for seat in 0..4 {
        plant_secret_markers(&mut state, seat);
    }
    for viewer in [Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(2)] {
        let svg = picture(&state, viewer);
        assert!(!svg.contains(SECRET_MARKER), "{viewer:?}");
        assert!(!svg.to_lowercase().contains("objective "), "{viewer:?}");
    }
    let spectator = picture(&state, Viewer::Spectator);
    assert!(!spectator.contains("(you)"));
    assert!(!spectator.contains("you ("));
}

#[test]
fn a_move_targets_where_the_gnome_goes_and_an_attack_the_clan_attacked() {
    let mut state = rulebook_table();
    place(&mut state, Red, RED_HOME, 2);
    let seat = seat_of(&state, Red);
    let actions = Game::legal_actions(&state, seat);
    let targets = Game::targets(&state, seat, &actions);
    assert_eq!(targets.len(), actions.len());
    let mut moves = 0;
    for (a, t) in actions.iter().zip(&targets) {
        match a {
            Action::Move { to, .. } => {
                moves += 1;
                assert_eq!(t.as_deref(), Some(format!("t{to}").as_str()));
            }
            Action::EndMovement => assert_eq!(t, &None),
            other => panic!("{other:?}"),
        }
    }
    assert!(moves > 0);

    // A battle of three clans at the Frog Statue (with one foe the dice go by themselves): Red
    // declares against Blue's or Green's token there.
    let mut state = rulebook_table();
    place(&mut state, Red, FROG, 2);
    place(&mut state, Blue, FROG, 1);
    place(&mut state, Green, FROG, 1);
    end_movements(&mut state);
    assert!(matches!(state.phase, Phase::Combat(_)), "{:?}", state.phase);
    let seat = seat_of(&state, Red);
    let actions = Game::legal_actions(&state, seat);
    let targets = Game::targets(&state, seat, &actions);
    assert!(!actions.is_empty());
    for (a, t) in actions.iter().zip(&targets) {
        let Action::Attack { target, .. } = a else {
            panic!("{a:?}")
        };
        let expected = format!("t13-{}", target.name().to_lowercase());
        assert_eq!(t.as_deref(), Some(expected.as_str()));
    }
    assert!(targets.contains(&Some("t13-blue".to_owned())));
    assert!(targets.contains(&Some("t13-green".to_owned())));
    let svg = picture(&state, Viewer::Seat(seat));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let ids = target_ids(&doc);
    assert!(ids.contains(&"t13-blue".to_owned()) && ids.contains(&"t13-red".to_owned()));
    assert!(
        doc.descendants()
            .any(|n| n.attribute("data-battle") == Some("t13"))
    );
    assert!(all_text(&doc).contains("battle in Frog Statue"));
    // Keeping objectives is about no shape.
    let state = dealt(&Options::default(), 3, &[Red, Green, Blue], Red);
    let actions = Game::legal_actions(&state, 0);
    assert!(!actions.is_empty());
    assert!(
        Game::targets(&state, 0, &actions)
            .iter()
            .all(Option::is_none)
    );
}

#[test]
fn this_movements_moves_are_arrows() {
    let mut state = rulebook_table();
    place(&mut state, Red, RED_HOME, 3);
    let seat = seat_of(&state, Red);
    for _ in 0..2 {
        decide(
            &mut state,
            seat,
            Action::Move {
                from: RED_HOME,
                to: TOADSTOOL,
            },
        );
    }
    let svg = picture(&state, Viewer::Seat(1));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let arrows: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("data-move"))
        .collect();
    assert_eq!(arrows, ["0-12"]);
    assert!(all_text(&doc).contains("×2"));
}

#[test]
fn the_picture_is_deterministic() {
    let state = mid_game(7, |s| s.round >= 4);
    for viewer in [Viewer::Seat(0), Viewer::Spectator] {
        assert_eq!(picture(&state, viewer), picture(&state, viewer));
    }
}

/// A seeded random game, played until `stop` holds with a player to decide.
fn mid_game(seed: u64, stop: impl Fn(&State) -> bool) -> State {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = Game::new_game(&Options::default(), 4).unwrap();
    for _ in 0..5_000 {
        let (actor, action) = match Game::next(&state) {
            Next::Over(_) => break,
            Next::Chance(chance) => {
                let point = rng.random_range(0..chance.total_weight());
                (Actor::Chance, chance.pick(point).cloned().unwrap())
            }
            Next::Players(players) => {
                if stop(&state) {
                    return state;
                }
                let seat = players[rng.random_range(0..players.len())];
                let legal = Game::legal_actions(&state, seat);
                // End the movement now and then, so that gnomes spread over several turns.
                let action = if legal.contains(&Action::EndMovement) && rng.random_range(0..4) == 0
                {
                    Action::EndMovement
                } else {
                    legal[rng.random_range(0..legal.len())].clone()
                };
                (Actor::Seat(seat), action)
            }
        };
        Game::apply(&mut state, actor, &action).unwrap();
    }
    panic!("seed {seed}: the state looked for never came")
}

/// Every target of every legal action at every decision of a few random games is a shape in
/// the picture of the seat deciding.
#[test]
fn every_target_of_a_random_game_is_a_shape_in_the_deciders_picture() {
    let mut checked = 0;
    for seed in 0..3 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = Game::new_game(&Options::default(), 3 + seed as usize).unwrap();
        for step in 0..600 {
            let (actor, action) = match Game::next(&state) {
                Next::Over(_) => break,
                Next::Chance(chance) => {
                    let point = rng.random_range(0..chance.total_weight());
                    (Actor::Chance, chance.pick(point).cloned().unwrap())
                }
                Next::Players(players) => {
                    let seat = players[rng.random_range(0..players.len())];
                    let legal = Game::legal_actions(&state, seat);
                    if step % 3 == 0 {
                        let targets = Game::targets(&state, seat, &legal);
                        assert_eq!(targets.len(), legal.len());
                        let svg = picture(&state, Viewer::Seat(seat));
                        let doc = roxmltree::Document::parse(&svg).unwrap();
                        let ids = target_ids(&doc);
                        for t in targets.iter().flatten() {
                            assert!(ids.contains(t), "seed {seed} step {step}: no {t}");
                            checked += 1;
                        }
                    }
                    (
                        Actor::Seat(seat),
                        legal[rng.random_range(0..legal.len())].clone(),
                    )
                }
            };
            Game::apply(&mut state, actor, &action).unwrap();
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn a_mid_game_picture_is_small_and_shows_every_gnome() {
    let state = mid_game(3, |s| {
        s.round >= 5 && matches!(&s.phase, Phase::Movement { moves, .. } if moves.len() >= 2)
    });
    let seat = state
        .acting_clan()
        .and_then(|i| state.clan(i))
        .map(|c| c.seat)
        .unwrap();
    let svg = picture(&state, Viewer::Seat(seat));
    assert!(svg.len() < 40_000, "{} bytes", svg.len());
    let doc = roxmltree::Document::parse(&svg).unwrap();
    for t in 0..16u8 {
        let drawn: u32 = tokens_at(&doc, t)
            .iter()
            .map(|(n, _)| n.parse::<u32>().unwrap())
            .sum();
        let there: u32 = state.clans.iter().map(|c| u32::from(c.gnomes_at(t))).sum();
        assert_eq!(drawn, there, "territory {t}");
    }
    if let Ok(path) = std::env::var("GG_SVG") {
        std::fs::write(path, &svg).unwrap();
    }
    let battle = mid_game(5, |s| {
        s.round >= 3 && matches!(&s.phase, Phase::Combat(c) if !c.dice.is_empty())
    });
    let svg = picture(&battle, Viewer::Spectator);
    assert!(svg.len() < 40_000, "{} bytes", svg.len());
    if let Ok(path) = std::env::var("GG_SVG_BATTLE") {
        std::fs::write(path, &svg).unwrap();
    }
}
