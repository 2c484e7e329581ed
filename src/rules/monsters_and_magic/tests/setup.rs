//! Set-up: the random map, permanent cards, corners and starting figures, the first player.

use super::*;
use crate::rules::SetupError;

// "Board Game for 2-4 players."
#[test]
fn two_to_four_seats() {
    let options = Options::default();
    assert_eq!(Game::seats(&options), 2..=4);
    assert!(matches!(Game::new_game(&options, 1), Err(SetupError(_))));
    assert!(matches!(Game::new_game(&options, 5), Err(SetupError(_))));
}

// "Place the Tiles randomly face-up onto the map, one per Space." / "Each Terrain Type has
// 16 Tiles for a total of 64 Tiles."
#[test]
fn tiles_are_placed_one_per_space_by_chance_weighted_by_tiles_left() {
    let mut state = Game::new_game(&Options::default(), 2).unwrap();
    let first = outcomes(&state);
    assert_eq!(first.len(), 4);
    assert!(first.iter().all(|(_, w)| *w == 16));
    for _ in 0..16 {
        chance(&mut state, Action::PlaceTile(Terrain::Forest));
    }
    let after = outcomes(&state);
    assert!(!after.contains(&(Action::PlaceTile(Terrain::Forest), 0)));
    assert!(
        !after
            .iter()
            .any(|(a, _)| *a == Action::PlaceTile(Terrain::Forest))
    );
    assert_eq!(state.terrain(Pos(7, 1)), Some(Terrain::Forest));
    assert_eq!(state.terrain(Pos(0, 2)), None);
}

// "Next, place the Chits randomly face-up onto the map, one per Tile." / "Each Structure
// has 8 Chits for a total of 64 Chits."
#[test]
fn chits_follow_the_tiles_eight_of_each() {
    let mut state = Game::new_game(&Options::default(), 2).unwrap();
    for i in 0..64 {
        chance(&mut state, Action::PlaceTile(Terrain::ALL[i / 16]));
    }
    let chits = outcomes(&state);
    assert_eq!(chits.len(), 8);
    assert!(chits.iter().all(|(_, w)| *w == 8));
    lay_rest(&mut state);
    assert!(
        state
            .board
            .iter()
            .all(|s| s.terrain.is_some() && s.structure.is_some())
    );
    for s in Structure::ALL {
        assert_eq!(
            state
                .board
                .iter()
                .filter(|x| x.structure == Some(s))
                .count(),
            8
        );
    }
}

fn lay_rest(state: &mut State) {
    while matches!(state.phase, Phase::Map) {
        let (a, _) = outcomes(state)[0].clone();
        chance(state, a);
    }
}

// "Shuffle the deck. Each player is dealt 5 cards from the Ally Deck. These 5 cards are that
// players Permanent Cards." / "The deck contains 1 copy of each card in the card list."
#[test]
fn five_permanent_cards_are_dealt_face_up_round_robin() {
    let mut state = Game::new_game(&Options::default(), 3).unwrap();
    lay_map(&mut state);
    let deal = outcomes(&state);
    assert_eq!(deal.len(), 64);
    assert!(deal.iter().all(|(_, w)| *w == 1));
    for c in 0..15u16 {
        chance(&mut state, Action::DealPermanent(c));
    }
    assert_eq!(state.players[0].permanent, vec![0, 3, 6, 9, 12]);
    assert_eq!(state.players[2].permanent, vec![2, 5, 8, 11, 14]);
    assert_eq!(state.deck.len(), 49);
    assert!(matches!(state.phase, Phase::Corner { seat: 0 }));
}

// "Each player picks a different corner of the board. Each player picks 1 Figure of his
// choice and places it on his garrison." / "Players start in opposite corners."
#[test]
fn two_players_start_in_opposite_corners_with_a_garrison_and_a_figure() {
    let mut state = Game::new_game(
        &Options {
            permanent_cards: 0,
            ..Options::default()
        },
        2,
    )
    .unwrap();
    lay_map(&mut state);
    assert_eq!(
        legal(&state, 0),
        Pos::CORNERS.map(Action::ChooseCorner).to_vec()
    );
    decide(&mut state, 0, Action::ChooseCorner(Pos(7, 0)));
    assert_eq!(legal(&state, 1), vec![Action::ChooseCorner(Pos(0, 7))]);
    let state = game(2);
    assert_eq!(state.players[0].corner, Some(Pos(0, 0)));
    assert_eq!(state.players[1].corner, Some(Pos(7, 7)));
    for (seat, corner) in [(0, Pos(0, 0)), (1, Pos(7, 7))] {
        assert_eq!(state.garrison(corner), Some(seat));
        let f = figure_at(&state, corner).unwrap();
        assert_eq!((f.owner, f.kind), (seat, FigureKind::Hero));
    }
    assert_eq!(state.figures.len(), 2);
}

// "The player that is "caught in the middle" may start the game with a Figure of his choice
// in the corner opposite."
#[test]
fn the_middle_seat_of_three_may_add_a_figure_in_the_opposite_corner() {
    let mut state = Game::new_game(
        &Options {
            permanent_cards: 0,
            ..Options::default()
        },
        3,
    )
    .unwrap();
    lay_map(&mut state);
    // Seat 2's corner [7,0] lies between [0,0] and [7,7]: seat 2 is caught in the middle.
    decide(&mut state, 0, Action::ChooseCorner(Pos(0, 0)));
    decide(&mut state, 1, Action::ChooseCorner(Pos(7, 7)));
    assert_eq!(
        legal(&state, 2),
        vec![
            Action::ChooseCorner(Pos(7, 0)),
            Action::ChooseCorner(Pos(0, 7))
        ]
    );
    decide(&mut state, 2, Action::ChooseCorner(Pos(7, 0)));
    for seat in 0..3 {
        decide(&mut state, seat, Action::StartFigure(FigureKind::Army));
    }
    assert_eq!(waiting_for(&state), vec![2]);
    decide(&mut state, 2, Action::StartFigure(FigureKind::Monster));
    let extra = figure_at(&state, Pos(0, 7)).unwrap();
    assert_eq!((extra.owner, extra.kind), (2, FigureKind::Monster));
    assert_eq!(state.garrison(Pos(0, 7)), None);
    assert!(is_chance(&state));
}

// "Players roll high on 2D6 to see who goes first. Play proceeds clockwise." — clockwise
// round the board's corners as players see it (a1, a8, h8, h1), not by seat number: here
// seat 0 is in a1, seat 1 in h1 and seat 2 in h8.
#[test]
fn the_highest_2d6_goes_first_ties_roll_again_and_play_goes_clockwise() {
    let mut state = Game::new_game(
        &Options {
            permanent_cards: 0,
            ..Options::default()
        },
        3,
    )
    .unwrap();
    lay_map(&mut state);
    pick_corners(&mut state, 3);
    for seat in 0..3 {
        decide(&mut state, seat, Action::StartFigure(FigureKind::Army));
    }
    decide(&mut state, 1, Action::DeclineExtraFigure);
    let dice = outcomes(&state);
    assert_eq!(dice.len(), 11);
    assert_eq!(dice[5], (Action::Roll2d6(7), 6));
    assert_eq!(dice[0], (Action::Roll2d6(2), 1));
    chance(&mut state, Action::Roll2d6(9));
    chance(&mut state, Action::Roll2d6(11));
    chance(&mut state, Action::Roll2d6(11));
    // Seats 1 and 2 tie and roll again.
    assert!(is_chance(&state));
    chance(&mut state, Action::Roll2d6(5));
    chance(&mut state, Action::Roll2d6(8));
    assert_eq!(state.current, 2);
    assert_eq!(state.turn, 1);
    assert_eq!(waiting_for(&state), vec![2]);
    assert_eq!(
        (
            state.players[0].corner,
            state.players[1].corner,
            state.players[2].corner
        ),
        (Some(Pos(0, 0)), Some(Pos(7, 0)), Some(Pos(7, 7)))
    );
    // From h8 clockwise: h1 (seat 1), then a1 (seat 0).
    assert_eq!(state.seat_of_turn(2), 1);
    assert_eq!(state.seat_of_turn(3), 0);
    assert_eq!(state.seat_of_turn(4), 2);
    assert_eq!(state.turn_order(), vec![2, 1, 0]);
}

// The card list: "The deck contains 1 copy of each card in the card list."
#[test]
fn the_card_data_holds_the_64_cards() {
    let cards = super::super::data::cards();
    assert_eq!(cards.len(), 64);
    assert_eq!(super::super::data::full_deck().len(), 64);
    assert!(
        cards
            .iter()
            .all(|c| !c.as_permanent().is_empty() && !c.as_hand().is_empty())
    );
}

// "-Increase or Decrease the number of Permanent Cards" / "-Increase or Decreas Max Hand Size"
#[test]
fn variant_options_are_checked() {
    let bad = Options {
        hand_size: 0,
        ..Options::default()
    };
    assert!(Game::new_game(&bad, 2).is_err());
    let bad = Options {
        permanent_cards: 11,
        ..Options::default()
    };
    assert!(Game::new_game(&bad, 2).is_err());
    let three: Options = serde_json::from_str(r#"{"permanent_cards":3}"#).unwrap();
    assert_eq!(three.hand_size, 5);
    assert!(serde_json::from_str::<Options>(r#"{"cards":3}"#).is_err());
    let mut state = game_with(three, 2);
    assert_eq!(state.players[1].permanent.len(), 3);
    state.options.hand_size = 7;
    assert_eq!(state.hand_limit(0), 7);
}
