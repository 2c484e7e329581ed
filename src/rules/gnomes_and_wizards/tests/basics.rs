//! The turn: dice, assigning, moving and attacking, half damage, defeat, flipping tiles.

use super::*;
use crate::rules::Visibility;
use crate::rules::gnomes_and_wizards::actions::face_weights;
use crate::rules::gnomes_and_wizards::data::{self, Deck};

#[test]
fn each_die_is_one_chance_step_over_the_faces() {
    // "rolls the four (black) Action Dice plus any (pink) Bonus Action Dice"
    let mut state = start(2);
    assert_eq!(state.to_roll.len(), 4);
    assert_eq!(
        face_weights(),
        vec![
            (Face::MoveAttack, 2),
            (Face::Shield, 1),
            (Face::Crystal, 1),
            (Face::Horn, 2)
        ]
    );
    // "plus 1 pink per active Clan": seat 1 with one active Clan rolls five.
    put(&mut state, unit(1, 1), 10);
    super::super::turn::end_turn(&mut state);
    super::super::turn::advance(&mut state);
    assert_eq!(state.current(), Some(1));
    assert_eq!(state.to_roll.len(), 5);
}

#[test]
fn up_to_two_rerolls_of_any_subset() {
    // "The player ... is allowed up to two re-rolls. The player can re-roll as many of the
    // dice as they choose"
    let mut state = start(2);
    roll(
        &mut state,
        &[Face::Horn, Face::Horn, Face::Shield, Face::Crystal],
    );
    decide(&mut state, 0, Action::MarkReroll(2));
    decide(&mut state, 0, Action::MarkReroll(3));
    decide(&mut state, 0, Action::Reroll);
    assert_eq!(state.to_roll, vec![2, 3]);
    roll(&mut state, &[Face::Horn, Face::Horn]);
    decide(&mut state, 0, Action::MarkReroll(0));
    decide(&mut state, 0, Action::Reroll);
    roll(&mut state, &[Face::MoveAttack]);
    // Out of re-rolls: the dice are kept by themselves.
    assert_eq!(step_of(&state), Step::Assign);
    assert!(
        legal(&state, 0)
            .iter()
            .all(|a| !matches!(a, Action::MarkReroll(_)))
    );
}

#[test]
fn toy_masters_example_three_dice_make_seven() {
    // "This player assigned 3 dice to the Toy Masters. This allows the unit to move up to 7
    // spaces OR attack with up to 7 strength OR increase both stats by dividing the dice"
    let mut state = start(2);
    let (a, _) = inner_tile(&state);
    put(&mut state, unit(0, 1), a);
    state.dice = vec![None; 4];
    state.assigned = vec![false; 4];
    state.to_roll = vec![0, 1, 2, 3];
    roll_and_keep(
        &mut state,
        0,
        &[
            Face::MoveAttack,
            Face::MoveAttack,
            Face::MoveAttack,
            Face::Horn,
        ],
    );
    for _ in 0..3 {
        decide(
            &mut state,
            0,
            Action::Assign {
                face: Face::MoveAttack,
                slot: 1,
            },
        );
    }
    decide(
        &mut state,
        0,
        Action::Assign {
            face: Face::Horn,
            slot: 0,
        },
    );
    assert_eq!(step_of(&state), Step::Act);
    let toy = state.unit(unit(0, 1)).unwrap();
    assert_eq!(data::unit_stats(1).movement, 4);
    assert_eq!(toy.movement_left(), 7);
    assert_eq!(toy.free_dice(), 3);
    // An enemy on the tile: attacks up to 4 + 3 = 7.
    put(&mut state, unit(1, 0), a);
    let dice: Vec<u8> = legal(&state, 0)
        .into_iter()
        .filter_map(|x| match x {
            Action::Attack { slot: 1, dice, .. } => Some(dice),
            _ => None,
        })
        .collect();
    assert_eq!(dice, vec![0, 1, 2, 3]);
    decide(
        &mut state,
        0,
        Action::Attack {
            slot: 1,
            target: unit(1, 0),
            dice: 2,
        },
    );
    // 4 + 2 = 6 against defense 2: full damage.
    assert_eq!(state.unit(unit(1, 0)).unwrap().hp, 15 - 6);
    // One die left, now for movement: 4 + 1.
    assert_eq!(state.unit(unit(0, 1)).unwrap().movement_left(), 5);
    // "Each unit may only attack once per turn"
    assert!(
        legal(&state, 0)
            .iter()
            .all(|x| !matches!(x, Action::Attack { slot: 1, .. }))
    );
}

#[test]
fn half_damage_when_defense_is_at_least_the_attack() {
    // "If the defender's defense power is greater than or equal to the attacker's attack
    // power, the defender only takes half damage, rounding down."
    let mut state = start(2);
    let (a, _) = inner_tile(&state);
    put(&mut state, unit(1, 0), a);
    state.unit_mut(unit(1, 0)).unwrap().defense = 5;
    super::super::combat::attack(&mut state, unit(1, 0), 5, 0);
    assert_eq!(state.unit(unit(1, 0)).unwrap().hp, 15 - 2);
    // "Any time a unit with added defense gets attacked, they move their defense point slider
    // down by one, even if no damage was dealt."
    assert_eq!(state.unit(unit(1, 0)).unwrap().defense, 4);
    super::super::combat::attack(&mut state, unit(1, 0), 5, 0);
    assert_eq!(state.unit(unit(1, 0)).unwrap().hp, 13 - 5);
    // "A unit can never fall below their minimum defense."
    for _ in 0..5 {
        super::super::combat::attack(&mut state, unit(1, 0), 1, 0);
    }
    assert_eq!(state.unit(unit(1, 0)).unwrap().defense, 2);
}

#[test]
fn shields_add_two_defense_up_to_the_maximum() {
    // "For every defense dice result assigned to a unit, increase their defense tracker by
    // two spaces up to their max defense."
    let mut state = start(2);
    roll_and_keep(&mut state, 0, &[Face::Shield; 4]);
    for _ in 0..4 {
        decide(
            &mut state,
            0,
            Action::Assign {
                face: Face::Shield,
                slot: 0,
            },
        );
    }
    assert_eq!(state.unit(unit(0, 0)).unwrap().defense, 8);
}

#[test]
fn a_defeated_unit_goes_to_who_dealt_the_final_blow() {
    // "give the defeated unit card to the player who dealt the final blow"
    let mut state = start(2);
    let (a, _) = inner_tile(&state);
    put(&mut state, unit(1, 2), a);
    super::super::combat::damage(&mut state, unit(1, 2), 10, Some(0));
    let u = state.unit(unit(1, 2)).unwrap();
    assert_eq!(u.status, Status::Defeated);
    assert_eq!(u.tile, None);
    assert_eq!(state.players[0].trophies, vec![(Tribe::Imblasham, 2)]);
    // "+20 points for every Clan you defeated"
    assert_eq!(state.score(0), 15 + 20);
}

#[test]
fn crystal_mines_give_a_crystal_per_entry() {
    // "For every Crystal Mine tile a unit enters, that player adds one Power Crystals to their
    // Power Crystal reserve."
    let mut state = start(2);
    let g = state.geometry();
    let (from, mine) = g
        .ids()
        .find_map(|t| {
            (!state.is_mine(t))
                .then(|| {
                    g.adjacent(t)
                        .iter()
                        .find(|&&n| state.is_mine(n))
                        .map(|&n| (t, n))
                })
                .flatten()
        })
        .unwrap();
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(from);
    roll_and_keep(&mut state, 0, &[Face::Horn; 4]);
    for _ in 0..4 {
        decide(
            &mut state,
            0,
            Action::Assign {
                face: Face::Horn,
                slot: 0,
            },
        );
    }
    decide(&mut state, 0, Action::Move { slot: 0, to: mine });
    assert_eq!(state.players[0].reserve, 1);
}

#[test]
fn flipping_starts_in_round_six_from_the_edge() {
    // "Skip this action until you get to round six." ... "players will flip tiles starting
    // from the outer most edge of the board, moving inwards" ... "Crystal mine tiles cannot be
    // flipped for any reason"
    let mut state = start(2);
    assert!(matches!(step_of(&state), Step::Roll { .. }));
    state.round = 6;
    state.phase = Phase::Turn {
        seat: 0,
        step: Step::Start,
    };
    super::super::turn::advance(&mut state);
    assert_eq!(step_of(&state), Step::Flip { left: 2 });
    let flips: Vec<TileId> = legal(&state, 0)
        .into_iter()
        .filter_map(|a| match a {
            Action::Flip(t) => Some(t),
            _ => None,
        })
        .collect();
    let g = state.geometry();
    assert!(!flips.is_empty());
    assert!(
        flips
            .iter()
            .all(|&t| g.tile(t).unwrap().edge && !state.is_mine(t))
    );
    // A tile with two flipped neighbours may be flipped next.
    let inner = g
        .ids()
        .find(|&t| !g.tile(t).unwrap().edge && !state.is_mine(t))
        .unwrap();
    let around: Vec<TileId> = g.adjacent(inner).to_vec();
    for &n in around.iter().take(2) {
        state.tiles[usize::from(n)].flipped = true;
    }
    assert!(super::super::combat::flippable(&state, 2).contains(&inner));
}

#[test]
fn a_unit_on_a_flipped_tile_takes_two_damage_and_moves_to_the_nearest_face_up_tile() {
    // "Any unit that is on a tile when it is flipped takes two damage and must move to the
    // closest non-flipped tile of their choosing."
    let mut state = start(2);
    state.round = 6;
    state.phase = Phase::Turn {
        seat: 0,
        step: Step::Start,
    };
    super::super::turn::advance(&mut state);
    let t = legal(&state, 0)
        .into_iter()
        .find_map(|a| match a {
            Action::Flip(t) if state.units_on(t).is_empty() => Some(t),
            _ => None,
        })
        .unwrap();
    put(&mut state, unit(1, 0), t);
    decide(&mut state, 0, Action::Flip(t));
    assert_eq!(state.unit(unit(1, 0)).unwrap().hp, 13);
    if !state.falls.is_empty() {
        let land = super::super::combat::landing_tiles(&state, unit(1, 0));
        // The owner chooses.
        assert_eq!(waiting_for(&state), vec![1]);
        decide(&mut state, 1, Action::Fall(land[1]));
    }
    let now = state.unit(unit(1, 0)).unwrap().tile.unwrap();
    assert!(!state.flipped(now));
    assert_eq!(state.geometry().distance(t, now), Some(1));
}

#[test]
fn units_pass_over_but_never_land_on_flipped_tiles() {
    // "Units can still move through a flipped tile but they cannot land there."
    let mut state = start(2);
    let (a, b) = inner_tile(&state);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(a);
    state.tiles[usize::from(b)].flipped = true;
    roll_and_keep(&mut state, 0, &[Face::Horn; 4]);
    for _ in 0..4 {
        decide(
            &mut state,
            0,
            Action::Assign {
                face: Face::Horn,
                slot: 0,
            },
        );
    }
    decide(&mut state, 0, Action::Move { slot: 0, to: b });
    assert!(!legal(&state, 0).contains(&Action::Stop));
    assert!(!legal(&state, 0).contains(&Action::EndActions));
    let on = legal(&state, 0)
        .into_iter()
        .find_map(|x| match x {
            Action::Move { to, .. } if !state.flipped(to) => Some(to),
            _ => None,
        })
        .unwrap();
    decide(&mut state, 0, Action::Move { slot: 0, to: on });
    decide(&mut state, 0, Action::Stop);
}

#[test]
fn the_card_drawn_is_seen_by_the_drawer_only() {
    // "That player secretly looks at the cards drawn"
    let mut state = start(2);
    state.draw = Some(super::super::state::DrawState {
        from: vec![Deck::Secret],
        drawn: vec![],
        attach: None,
    });
    let action = Action::DrawCard(30);
    assert_eq!(
        Game::visibility(&state, Actor::Chance, &action),
        Visibility::Seats(vec![0])
    );
    let other = Game::describe(
        &state,
        Actor::Chance,
        &action,
        crate::rules::Viewer::Seat(1),
    );
    assert!(!other.contains(&data::card_name(30)), "{other}");
    // Issue 43: the others read which deck, in words ("Some(Secret) deck" before).
    assert!(
        other.contains("draws a card from the Secret deck for seat"),
        "{other}"
    );
}

#[test]
fn log_lines_name_dice_faces_and_decks_in_words() {
    // "rolls the four (black) Action Dice": the log says what each die shows, as people say it
    // (issue 43: no Rust debug text such as "MoveAttack" or "Some(Learned)").
    let state = start(2);
    for (action, words) in [
        (Action::RollDie(data::Face::MoveAttack), "rolls move/attack"),
        (
            Action::DrawFrom(Deck::Learned),
            "draws from the Learned deck",
        ),
    ] {
        let line = Game::describe(
            &state,
            Actor::Chance,
            &action,
            crate::rules::Viewer::Everyone,
        );
        assert!(line.contains(words), "{line}");
        assert!(
            !line.contains("MoveAttack") && !line.contains("Some("),
            "{line}"
        );
    }
}

#[test]
fn losing_every_unit_brings_a_clan_back_next_turn() {
    // "Select a unit that hasn't been activated yet and still has at least one of their two
    // tiles face-up on the board." ... "Place the action dice tracker at 5"
    let mut state = start(2);
    super::super::combat::damage(&mut state, unit(1, 0), 15, Some(0));
    super::super::turn::end_turn(&mut state);
    super::super::turn::advance(&mut state);
    assert_eq!(step_of(&state), Step::Reenter);
    let Action::Reenter { clan, tile } = legal(&state, 1)[0] else {
        panic!()
    };
    decide(&mut state, 1, Action::Reenter { clan, tile });
    assert_eq!(state.to_roll.len(), 5);
    assert_eq!(state.players[0].trophies, vec![(Tribe::Imblasham, 0)]);
    assert_eq!(state.score(0), 15 + 30);
}

#[test]
fn illegal_actions_are_refused_with_a_reason() {
    let state = start(2);
    let mut s = state.clone();
    roll(&mut s, &[Face::Horn; 4]);
    match illegal(
        &s,
        0,
        Action::Assign {
            face: Face::Shield,
            slot: 0,
        },
    ) {
        RuleError::Illegal(why) => assert!(why.contains("seat 0"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(illegal(&s, 1, Action::KeepDice), RuleError::NotYourDecision);
}
