//! The findings of the 2026-11-24 review still open after `fidelity.rs` (docs/rules/
//! gnomes-and-wizards.md listed them as "Not modelled yet"): each test quotes the rulebook
//! sentence (or the numbered ruling) it checks.

use super::*;
use crate::rules::Viewer;
use crate::rules::gnomes_and_wizards::board::Shape;
use crate::rules::gnomes_and_wizards::cast;
use crate::rules::gnomes_and_wizards::data::{self, Token};
use crate::rules::gnomes_and_wizards::state::{Cast, Source, Target};

fn cast_action(source: Source, target: Target) -> Action {
    Action::Cast(Cast { source, target })
}

/// Everyone waiting in a reaction window passes.
/// A face-up tile that is no mine and has no unit on it.
fn empty_tile(state: &State) -> TileId {
    state
        .geometry()
        .ids()
        .find(|&t| !state.is_mine(t) && !state.flipped(t) && state.units_on(t).is_empty())
        .unwrap()
}

/// Seat 0 in its Act step with four move/attack dice on its Leader (windows passed).
fn to_act(state: &mut State) {
    roll_and_keep(state, 0, &[Face::MoveAttack; 4]);
    pass_window(state);
    while step_of(state) == Step::Assign {
        decide(
            state,
            0,
            Action::Assign {
                face: Face::MoveAttack,
                slot: 0,
            },
        );
    }
}

#[test]
fn a_seat_with_no_possible_answer_is_not_asked() {
    // Issue 18: reaction windows "asking only players who can actually answer"; docs,
    // "Who is asked": "A player with no possible answer is not asked".
    let mut state = start(3);
    // Seat 1 holds a Secret card; seat 2's Gem Cutters hold a full charge of Sharp Facets
    // (3 damage to an enemy on the caster's tile), but no enemy stands on their tile.
    state.players[1].hand = vec![35];
    let t = empty_tile(&state);
    put(&mut state, unit(2, 4), t);
    state.unit_mut(unit(2, 4)).unwrap().innate_charge = 3;
    roll(&mut state, &[Face::MoveAttack; 4]);
    decide(&mut state, 0, Action::KeepDice);
    assert_eq!(waiting_for(&state), vec![1], "seat 2 has nothing to cast");
    pass_window(&mut state);
    // With an enemy on the Gem Cutters' tile, seat 2 has an answer and is asked.
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(t);
    assert_eq!(cast::eligible(&state, false), vec![1, 2]);
    // The active player is asked again only when it too has an answer: seat 0 holds no card
    // and has nothing charged.
    assert_eq!(cast::eligible(&state, true), vec![1, 2]);
    state.players[0].hand = vec![28];
    assert_eq!(cast::eligible(&state, true), vec![0, 1, 2]);
}

#[test]
fn a_blockade_stops_its_own_sides_units_too() {
    // "a unit cannot pass through the blockade unless they are Flying" (l.497): the rule names
    // no side, so a player's own blockade stops its own units.
    let mut state = start(2);
    let (a, b) = inner_tile(&state);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(a);
    state.tiles[usize::from(b)].blockade = Some(0);
    to_act(&mut state);
    assert!(!legal(&state, 0).contains(&Action::Move { slot: 0, to: b }));
    assert!(!state.passable(b, false));
    super::super::combat::give_counter(&mut state, unit(0, 0), Token::Flying, 0);
    assert!(legal(&state, 0).contains(&Action::Move { slot: 0, to: b }));
}

/// Seat 0's Leader on `t` with these dice assigned to it, at the Call to War step.
fn at_call(state: &mut State, t: TileId, faces: &[Face]) {
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(t);
    roll_and_keep(state, 0, faces);
    pass_window(state);
    for &f in faces {
        if f != Face::Crystal {
            decide(state, 0, Action::Assign { face: f, slot: 0 });
        }
    }
    pass_window(state);
    decide(state, 0, Action::EndActions);
}

#[test]
fn a_learned_card_may_be_held_in_hand_and_attached_later() {
    // "Power Crystals can only charge active Clan abilities and Learned Abilities that have
    // been attached to an active unit. This means a player cannot ... play crystals on Learned
    // Abilities that are still in their hand." (l.357)
    let mut state = start(2);
    let (t, _) = inner_tile(&state);
    let faces = [Face::Horn, Face::Horn, Face::Crystal, Face::Crystal];
    at_call(&mut state, t, &faces);
    decide(&mut state, 0, Action::DrawCards { slot: 0 });
    decide(&mut state, 0, Action::DrawFrom(data::Deck::Learned));
    chance(&mut state, Action::DrawCard(9));
    decide(&mut state, 0, Action::DrawFrom(data::Deck::Learned));
    chance(&mut state, Action::DrawCard(10));
    decide(&mut state, 0, Action::KeepCard(1));
    // "That player secretly looks at the cards drawn and chooses one of them to keep" (l.309):
    // the others do not see the Learned card kept before it is attached.
    let other = Game::view(&state, Viewer::Seat(1));
    assert_eq!(other["draw"]["learned_to_attach"], serde_json::Value::Null);
    assert!(legal(&state, 0).contains(&Action::Attach(0)));
    decide(&mut state, 0, Action::HoldLearned);
    assert_eq!(state.players[0].learned_hand, vec![10]);
    assert_eq!(state.unit(unit(0, 0)).unwrap().learned, None);
    let other = Game::view(&state, Viewer::Seat(1));
    assert_eq!(other["players"][0]["learned_hand_count"], 1);
    assert_eq!(other["players"][0]["learned_hand"], serde_json::Value::Null);
    // The two crystals rolled cannot go on the held card: the Leader has no innate ability,
    // so nothing can be charged and the turn ends with the card still in hand.
    decide(&mut state, 0, Action::EndCall);
    pass_window(&mut state);
    assert_eq!(state.current(), Some(1));
    assert_eq!(state.players[0].learned_hand, vec![10]);

    // In a later Call to War step it is attached (placed "under a unit of the player's choice",
    // l.331), at no cost.
    let mut state = start(2);
    state.players[0].learned_hand = vec![10];
    at_call(&mut state, t, &[Face::Shield; 4]);
    let attach = Action::AttachHeld { card: 10, slot: 0 };
    assert!(legal(&state, 0).contains(&attach));
    decide(&mut state, 0, attach);
    assert!(state.players[0].learned_hand.is_empty());
    assert_eq!(state.unit(unit(0, 0)).unwrap().learned, Some(10));
}

#[test]
fn the_controller_places_a_teammates_unit_moved_by_an_ability() {
    // "If an ability moves a unit, unless otherwise specified, the player who controls that
    // unit decides which space the unit moves to as long as it follows the rules of the cast
    // ability" (l.383).
    let mut state = start_with(&options(&[Variant::TeamPlay]), 4);
    let (a, _) = inner_tile(&state);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(a);
    state.unit_mut(unit(2, 0)).unwrap().tile = Some(a);
    state.players[0].hand = vec![30]; // Escape Route: move an ally on the caster's tile up to 2
    roll(&mut state, &[Face::MoveAttack; 4]);
    let casts: Vec<Action> = legal(&state, 0)
        .into_iter()
        .filter(|x| matches!(x, Action::Cast(c) if c.source == Source::Secret(30)))
        .collect();
    // Seat 0 names the unit it moves; where seat 2's Leader goes is not seat 0's choice.
    let on_mate = cast_action(Source::Secret(30), Target::Unit(unit(2, 0)));
    assert!(casts.contains(&on_mate), "{casts:?}");
    assert!(!casts.iter().any(
        |x| matches!(x, Action::Cast(Cast { target: Target::Move { unit: u, .. }, .. }) if *u == unit(2, 0))
    ));
    // Its own Leader it places itself, as part of the cast.
    assert!(casts.iter().any(
        |x| matches!(x, Action::Cast(Cast { target: Target::Move { unit: u, .. }, .. }) if *u == unit(0, 0))
    ));
    decide(&mut state, 0, on_mate);
    assert_eq!(waiting_for(&state), vec![2]);
    let tiles = legal(&state, 2);
    assert!(tiles.len() > 1, "{tiles:?}");
    assert!(legal(&state, 0).is_empty());
    let Action::MoveUnitTo(to) = tiles[tiles.len() - 1] else {
        panic!("{tiles:?}")
    };
    decide(&mut state, 2, Action::MoveUnitTo(to));
    assert_eq!(state.unit(unit(2, 0)).unwrap().tile, Some(to));
    assert!(state.players[0].hand.is_empty());
    assert_eq!(state.geometry().distance(a, to).map(|d| d <= 2), Some(true));
    // Play goes on: seat 0 is back at its roll.
    assert_eq!(waiting_for(&state), vec![0]);
}

#[test]
fn temporary_alliances_are_made_and_ended_at_any_point() {
    // "If both parties have a verbal agreement, players may act as allies for a period of time
    // as long as both parties agree. ... A temporary alliance can be terminated at any point in
    // the game." (l.529); "Either player may retract their initial agreement at any point, even
    // if it is in the middle of the act being played out." (l.531)
    let mut state = start_with(&options(&[Variant::TemporaryAlliances]), 3);
    state.players[1].hand = vec![28];
    roll(&mut state, &[Face::MoveAttack; 4]);
    // The active player offers before its Act step: while deciding on its dice.
    assert!(legal(&state, 0).contains(&Action::OfferAlliance(1)));
    decide(&mut state, 0, Action::OfferAlliance(1));
    decide(&mut state, 1, Action::AcceptAlliance);
    assert_eq!(state.alliances, vec![(0, 1)]);
    assert!(!legal(&state, 0).contains(&Action::OfferAlliance(1)));
    decide(&mut state, 0, Action::KeepDice);
    // A player answering a window, not in its own turn, offers one too.
    assert_eq!(waiting_for(&state), vec![1]);
    assert!(legal(&state, 1).contains(&Action::OfferAlliance(2)));
    decide(&mut state, 1, Action::OfferAlliance(2));
    assert_eq!(waiting_for(&state), vec![2]);
    decide(&mut state, 2, Action::AcceptAlliance);
    assert_eq!(state.alliances, vec![(0, 1), (1, 2)]);
    assert_eq!(
        waiting_for(&state),
        vec![1],
        "the window still waits for seat 1"
    );
    decide(&mut state, 1, Action::Pass);
    // The active player ends its alliance while assigning dice, before any move or attack.
    assert_eq!(step_of(&state), Step::Assign);
    assert!(legal(&state, 0).contains(&Action::EndAlliance(1)));
    decide(&mut state, 0, Action::EndAlliance(1));
    assert_eq!(state.alliances, vec![(1, 2)]);
}

/// The game set up up to the Leaders' placement (seat 0 first).
fn at_leaders(options: &Options, seats: usize) -> State {
    let mut options = options.clone();
    options.tribes = [
        Tribe::Turquefoss,
        Tribe::Imblasham,
        Tribe::Achrinnolder,
        Tribe::Betrumour,
    ][..seats.max(2)]
        .to_vec();
    let mut state = Game::new_game(&options, seats).unwrap();
    while !matches!(state.phase, Phase::Leaders) {
        let a = match Game::next(&state) {
            Next::Chance(_) if matches!(state.phase, Phase::FirstPlayer) => Action::FirstPlayer(0),
            Next::Chance(c) => c.outcomes[0].0.clone(),
            other => panic!("{other:?}"),
        };
        Game::apply(&mut state, Actor::Chance, &a).unwrap();
    }
    state
}

/// The tile opposite `t` through the board's centre.
fn mirror(state: &State, t: TileId) -> TileId {
    let g = state.geometry();
    let p = g.tile(t).unwrap();
    let (rows, cols): (Vec<i16>, Vec<i16>) = g.tiles.iter().map(|q| (q.row, q.col)).unzip();
    let (r0, r1) = (*rows.iter().min().unwrap(), *rows.iter().max().unwrap());
    let (c0, c1) = (*cols.iter().min().unwrap(), *cols.iter().max().unwrap());
    g.ids()
        .find(|&m| {
            let q = g.tile(m).unwrap();
            q.row == r0 + r1 - p.row && q.col == c0 + c1 - p.col && q.up != p.up
        })
        .unwrap()
}

#[test]
fn two_leaders_start_on_a_mirrored_pair_of_tiles() {
    // "each player will place their Leader cone on the board in one of the indicated
    // locations" (l.169); CONTENT.md: "Leaders start on mirrored perimeter tiles".
    for seats in [1, 2] {
        let mut state = at_leaders(&Options::default(), seats);
        let first = legal(&state, 0);
        assert_eq!(first.len(), 2, "{seats} seat(s): {first:?}");
        let Action::PlaceLeader(t) = first[0] else {
            panic!()
        };
        decide(&mut state, 0, first[0].clone());
        let second = waiting_for(&state)[0];
        assert_eq!(
            legal(&state, second),
            vec![Action::PlaceLeader(mirror(&state, t))]
        );
    }
}

#[test]
fn four_leaders_start_on_two_mirrored_pairs_far_apart() {
    // l.169 as above: four players' indicated locations are no adjacent pairs, so in a
    // free-for-all no Leader starts next to an opponent.
    for shape in [Shape::Standard, Shape::Broad, Shape::Long] {
        let state = at_leaders(
            &Options {
                shape,
                ..Options::default()
            },
            4,
        );
        let g = state.geometry();
        let starts = g.starts.clone();
        assert_eq!(starts.len(), 4, "{shape:?}");
        for &a in &starts {
            assert!(starts.contains(&mirror(&state, a)), "{shape:?}: {starts:?}");
            for &b in &starts {
                if a != b {
                    assert!(g.distance(a, b).unwrap() >= 4, "{shape:?}: {a} and {b}");
                }
            }
        }
    }
}

#[test]
fn shape_it_up_builds_a_board_of_the_players_own() {
    // "Create different battlefields by experimenting with the shape of the board. Mirror side
    // A and B for the most fair game-play. ... Remember to keep Crystal Mines lumped together
    // and close to the middle of the board" (l.543).
    let own = Options {
        shape: Shape::Hexagon([3, 1, 3, 3, 1, 3]),
        ..Options::default()
    };
    assert_eq!(Game::seats(&own), 1..=2);
    let mut state = start_with(&own, 2);
    let g = state.geometry();
    assert_eq!(g.len(), 30);
    // Every tile of both tribes is on the board; the six spaces left over stay face down.
    let placed = state.tiles.iter().filter(|t| t.card.is_some()).count();
    assert_eq!(placed, 24);
    // The mines are the innermost spaces, at least a fifth of the board.
    let mines: Vec<TileId> = g.ids().filter(|&t| state.is_mine(t)).collect();
    assert!(mines.len() >= 6, "{mines:?}");
    let farthest_mine = mines
        .iter()
        .map(|&t| g.tile(t).unwrap().centre_distance)
        .max();
    assert!(
        g.ids()
            .filter(|&t| !state.is_mine(t))
            .all(|t| Some(g.tile(t).unwrap().centre_distance) >= farthest_mine)
    );
    // Leaders start on a mirrored pair; the game plays.
    assert_eq!(g.starts.len(), 2);
    roll_and_keep(&mut state, 0, &[Face::MoveAttack; 4]);
    assert_eq!(step_of(&state), Step::Assign);
    let text = Game::present(&state, Viewer::Seat(0), &["Ann".into(), "Bob".into()]);
    assert!(
        text.sections
            .iter()
            .flat_map(|s| &s.lines)
            .any(|l| l.contains("hexagon of sides 3-1-3-3-1-3"))
    );

    // A hexagon that does not close, or a board too small for the tribes, is refused.
    for (sides, seats) in [([3, 1, 3, 2, 1, 3], 2), ([3, 1, 3, 3, 1, 3], 3)] {
        let bad = Options {
            shape: Shape::Hexagon(sides),
            ..Options::default()
        };
        assert!(Game::new_game(&bad, seats).is_err(), "{sides:?} {seats}");
    }
    // As large as the largest predefined board and no larger.
    let big = Options {
        shape: Shape::Hexagon([3, 3, 3, 3, 3, 3]),
        ..Options::default()
    };
    assert_eq!(Game::seats(&big), 4..=4);
    assert!(Game::new_game(&big, 4).is_ok());
}
