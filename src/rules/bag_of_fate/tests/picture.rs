//! The picture: the table as an SVG document (`Ruleset::picture`) and the shape each action is
//! about (`Ruleset::targets`).
//!
//! `BF_SVG=/tmp/bf.svg cargo test --lib bag_of_fate::tests::picture::a_mid_game` writes a
//! mid-game picture there, to look at.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::secrets::{SECRET_MARKER, plant_secret_markers};
use super::*;
use crate::rules::Viewer;

fn names() -> Vec<String> {
    ["Ann", "Bob", "Cat", "Dan", "Eve"]
        .iter()
        .map(|n| (*n).to_owned())
        .collect()
}

fn picture(state: &State, viewer: Viewer) -> String {
    Game::picture(state, viewer, &names()).expect("bag-of-fate draws a picture")
}

fn all_text(doc: &roxmltree::Document) -> String {
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join("|")
}

fn target_ids(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter_map(|n| n.attribute("data-target"))
        .map(str::to_owned)
        .collect()
}

fn title(svg: &str) -> String {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.root_element()
        .children()
        .find(|c| c.has_tag_name("title"))
        .and_then(|t| t.text())
        .unwrap()
        .to_owned()
}

#[test]
fn the_picture_is_titled_svg_with_the_seven_tiles_and_every_seat() {
    let state = start(3);
    let svg = picture(&state, Viewer::Seat(0));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let title = title(&svg);
    assert!(
        title.starts_with("The Wizard Always Wins table: you to choose a character"),
        "{title}"
    );
    assert!(title.contains("Bob level 1, 0 gems in the bag"), "{title}");
    // Ruling 19: the round is shown, so players keep count.
    let text = all_text(&doc);
    assert!(
        text.contains("Round 1: you to choose a character"),
        "{text}"
    );
    let ids = target_ids(&svg);
    for c in Character::ALL {
        let id = format!("character-{}", c.name().to_lowercase());
        assert!(ids.contains(&id), "no tile {id}");
    }
    for seat in 0..3 {
        assert!(ids.contains(&format!("seat-{seat}")), "no seat {seat}");
    }
    let text = all_text(&doc);
    // The bag's 31 tokens, the deck's 51 cards, three cards in each hand.
    assert!(text.contains("|31|"), "{text}");
    assert!(text.contains("|51|"), "{text}");
    assert!(text.contains("3 cards in hand"), "{text}");
    assert!(svg.len() < 40_000, "{} bytes", svg.len());
}

#[test]
fn names_are_escaped_and_the_viewer_is_marked() {
    let state = start(2);
    let names = vec!["Ann <b>&".to_owned(), "Bob \"the\" <&".to_owned()];
    let svg = Game::picture(&state, Viewer::Seat(1), &names).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert!(!svg.contains("<b>"), "unescaped name");
    let text = all_text(&doc);
    assert!(text.contains("Ann <b>&"), "{text}");
    assert!(text.contains("Bob \"the\" <& (you)"), "{text}");
    assert!(!text.contains("Ann <b>& (you)"), "{text}");
    assert!(
        title(&svg).contains("Ann <b>& to choose"),
        "{}",
        title(&svg)
    );
}

#[test]
fn only_the_viewers_own_hand_is_drawn() {
    let mut state = start(3);
    for seat in 0..3 {
        plant_secret_markers(&mut state, seat);
    }
    let spectator = picture(&state, Viewer::Spectator);
    assert!(!spectator.contains(SECRET_MARKER));
    assert!(!spectator.contains("(you)") && !spectator.contains("Your hand"));
    assert!(
        !target_ids(&spectator)
            .iter()
            .any(|t| t.starts_with("hand-"))
    );
    // Seat 1 sees its own three cards (planted: 237 icons), nobody else's.
    let seat = picture(&state, Viewer::Seat(1));
    assert_eq!(seat.matches(SECRET_MARKER).count(), 3);
    let hand: Vec<String> = target_ids(&seat)
        .into_iter()
        .filter(|t| t.starts_with("hand-"))
        .collect();
    assert_eq!(hand, ["hand-0", "hand-1", "hand-2"]);
}

#[test]
fn face_up_cards_tokens_and_sets_are_targets_on_their_seat() {
    let mut state = start(2);
    lay_out(
        &mut state,
        0,
        &[card(Potions, 2), card(Potions, 2), card(Snails, 1)],
    );
    keep_tokens(&mut state, 0, &[Potions]);
    lay_out(&mut state, 1, &[card(Flowers, 3)]);
    let svg = picture(&state, Viewer::Spectator);
    let ids = target_ids(&svg);
    for id in [
        "seat-0-card-potions-2",
        "seat-0-card-snails-1",
        "seat-0-token-potions",
        "seat-1-card-flowers-3",
        "seat-0-set-potions",
        "seat-1-set-crystals",
    ] {
        assert!(ids.contains(&id.to_owned()), "no {id} in {ids:?}");
    }
    // Two copies of a card are one card with a badge.
    assert_eq!(
        ids.iter().filter(|t| *t == "seat-0-card-potions-2").count(),
        1
    );
    assert!(svg.contains("×2"));
    // Potions 2 + 2 + a token: 5 of 3 icons, ready to turn in.
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let text = all_text(&doc);
    assert!(text.contains("Potions|5 of 3: ready"), "{text}");
    assert!(text.contains("Flowers|0 of 4 icons"), "{text}");
}

#[test]
fn actions_target_the_tile_the_card_the_seat_or_the_set_they_are_about() {
    let mut state = start(2);
    let actions = Game::legal_actions(&state, 0);
    let targets = Game::targets(&state, 0, &actions);
    assert_eq!(targets.len(), actions.len());
    for (a, t) in actions.iter().zip(&targets) {
        let Action::ChooseCharacter(c) = a else {
            panic!("{a:?}")
        };
        assert_eq!(
            t.as_deref(),
            Some(format!("character-{}", c.name().to_lowercase()).as_str())
        );
    }
    // The Queen draws, then plays a card from the hand.
    choose(&mut state, 0, Character::Queen);
    draw_card(&mut state, card(Crystals, 2));
    let actions = Game::legal_actions(&state, 0);
    let targets = Game::targets(&state, 0, &actions);
    assert_eq!(actions.len(), 5);
    for (i, (a, t)) in actions.iter().zip(&targets).take(4).enumerate() {
        assert_eq!(a, &Action::Play(state.players[0].hand[i]));
        assert_eq!(t.as_deref(), Some(format!("hand-{i}").as_str()));
    }
    // Playing at random is about no one card.
    assert_eq!((&actions[4], &targets[4]), (&Action::PlayAtRandom, &None));
    let ids = target_ids(&picture(&state, Viewer::Seat(0)));
    assert!(targets.iter().flatten().all(|t| ids.contains(t)));
    // Other kinds, by hand.
    let mut trading = state.clone();
    trading.phase = Phase::Trading {
        action: 2,
        partner: Some(1),
        take: None,
    };
    let item = Item::Card(card(Potions, 1));
    assert_eq!(
        Game::targets(
            &trading,
            0,
            &[
                Action::TradeWith(1),
                Action::TradeTake(item),
                Action::TradeGive(Item::Token(Snails)),
                Action::TurnIn(Flowers),
                Action::AddCard(card(Flowers, 3)),
                Action::CancelTrade,
                Action::EndTurn,
            ]
        ),
        vec![
            Some("seat-1".to_owned()),
            Some("seat-1-card-potions-1".to_owned()),
            Some("seat-0-token-snails".to_owned()),
            Some("seat-0-set-flowers".to_owned()),
            Some("seat-0-card-flowers-3".to_owned()),
            None,
            None,
        ]
    );
}

#[test]
fn the_oracle_alone_sees_the_cards_looked_at() {
    let mut state = start(2);
    choose(&mut state, 0, Character::Oracle);
    for c in [card(Snails, 3), card(Crystals, 1), card(Potions, 2)] {
        draw_card(&mut state, c);
    }
    let actions = Game::legal_actions(&state, 0);
    assert_eq!(actions.len(), 3);
    let targets = Game::targets(&state, 0, &actions);
    assert_eq!(
        targets,
        vec![
            Some("look-0".to_owned()),
            Some("look-1".to_owned()),
            Some("look-2".to_owned())
        ]
    );
    let oracle = target_ids(&picture(&state, Viewer::Seat(0)));
    assert!(targets.iter().flatten().all(|t| oracle.contains(t)));
    for viewer in [Viewer::Seat(1), Viewer::Spectator] {
        let svg = picture(&state, viewer);
        assert!(!target_ids(&svg).iter().any(|t| t.starts_with("look-")));
        assert!(!svg.contains("Looking at"));
    }
}

#[test]
fn the_picture_is_deterministic() {
    let state = mid_game(11, 40);
    for viewer in [Viewer::Seat(1), Viewer::Spectator] {
        assert_eq!(picture(&state, viewer), picture(&state, viewer));
    }
}

/// A seeded random game of 4 played for `decisions` player decisions, stopped at a decision.
fn mid_game(seed: u64, decisions: usize) -> State {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = Game::new_game(&Options::default(), 4).unwrap();
    let mut made = 0;
    for _ in 0..20_000 {
        let (actor, action) = match Game::next(&state) {
            Next::Over(_) => break,
            Next::Chance(chance) => {
                let point = rng.random_range(0..chance.total_weight());
                (Actor::Chance, chance.pick(point).cloned().unwrap())
            }
            Next::Players(players) => {
                if made >= decisions {
                    return state;
                }
                made += 1;
                let seat = players[rng.random_range(0..players.len())];
                let legal = Game::legal_actions(&state, seat);
                (
                    Actor::Seat(seat),
                    legal[rng.random_range(0..legal.len())].clone(),
                )
            }
        };
        Game::apply(&mut state, actor, &action).unwrap();
    }
    panic!("seed {seed}: the game ended before {decisions} decisions")
}

/// Every target of every legal action at every decision of a few random games is a shape in
/// the picture of the seat deciding, and no spectator's picture reads the planted marker.
#[test]
fn every_target_of_a_random_game_is_a_shape_in_the_deciders_picture() {
    let mut checked = 0;
    for seed in 0..4 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let seats = 2 + (seed as usize % 4);
        let mut state = Game::new_game(&Options::default(), seats).unwrap();
        for _ in 0..1_500 {
            let (actor, action) = match Game::next(&state) {
                Next::Over(_) => break,
                Next::Chance(chance) => {
                    let point = rng.random_range(0..chance.total_weight());
                    (Actor::Chance, chance.pick(point).cloned().unwrap())
                }
                Next::Players(players) => {
                    let seat = players[rng.random_range(0..players.len())];
                    let legal = Game::legal_actions(&state, seat);
                    let targets = Game::targets(&state, seat, &legal);
                    assert_eq!(targets.len(), legal.len());
                    let svg = picture(&state, Viewer::Seat(seat));
                    let ids = target_ids(&svg);
                    for t in targets.iter().flatten() {
                        assert!(ids.contains(t), "seed {seed}: no {t} for {legal:?}");
                        checked += 1;
                    }
                    assert!(!picture(&state, Viewer::Spectator).contains(SECRET_MARKER));
                    (
                        Actor::Seat(seat),
                        legal[rng.random_range(0..legal.len())].clone(),
                    )
                }
            };
            Game::apply(&mut state, actor, &action).unwrap();
        }
    }
    assert!(checked > 200, "{checked}");
}

#[test]
fn a_mid_game_picture_is_small() {
    let state = mid_game(5, 60);
    let seat = state.current_seat().unwrap();
    let svg = picture(&state, Viewer::Seat(seat));
    assert!(svg.len() < 40_000, "{} bytes", svg.len());
    roxmltree::Document::parse(&svg).unwrap();
    if let Ok(path) = std::env::var("BF_SVG") {
        std::fs::write(path, &svg).unwrap();
    }
}
