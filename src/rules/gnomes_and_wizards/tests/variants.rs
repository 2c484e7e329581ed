//! The rulebook's variants, as options.

use super::*;
use crate::rules::gnomes_and_wizards::board::Shape;

fn at_act(state: &mut State, faces: &[Face]) {
    roll_and_keep(state, 0, faces);
    while step_of(state) == Step::Assign {
        let a = legal(state, 0)
            .into_iter()
            .find(|a| matches!(a, Action::Assign { slot: 0, .. }))
            .unwrap();
        decide(state, 0, a);
    }
}

#[test]
fn team_play_is_gnomes_against_wizards_with_a_shared_score() {
    // "players may choose to team up in a battle of gnomes vs wizards. Teammates should
    // stagger themselves around the table" ... "Points scored at the end of the game are
    // cumulative among teammates"
    let opts = options(&[Variant::TeamPlay]);
    assert_eq!(Game::seats(&opts), 4..=4);
    let bad = Options {
        tribes: vec![
            Tribe::Turquefoss,
            Tribe::Achrinnolder,
            Tribe::Imblasham,
            Tribe::Betrumour,
        ],
        ..opts.clone()
    };
    assert!(Game::new_game(&bad, 4).is_err());
    let mut state = start_with(&opts, 4);
    assert!(state.allied(0, 2) && state.allied(1, 3) && !state.allied(0, 1));
    super::super::turn::finish(&mut state, false);
    let r = state.result.clone().unwrap();
    assert_eq!(r.scores[0], r.scores[2]);
    assert_eq!(r.scores[0], 30);
}

#[test]
fn random_team_tribes_keep_the_factions_apart() {
    let mut state = Game::new_game(&options(&[Variant::TeamPlay]), 4).unwrap();
    chance(&mut state, Action::DealTribe(Tribe::Imblasham));
    match Game::next(&state) {
        Next::Chance(c) => {
            assert!(
                c.outcomes
                    .iter()
                    .all(|(a, _)| matches!(a, Action::DealTribe(t) if t.is_gnome()))
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn balanced_terrain_evens_the_exposed_clans() {
    // "Have each player observe how many units have both of their matching tiles adjacent to
    // the out-most edge of the board. If the number is uneven from player to player, adjust
    // the tiles accordingly until they are even."
    use super::super::setup::{balance, exposed_clans};
    let mut state = start(2);
    // Stack the edge with Turquefoss tiles: swap every Imblasham edge tile with an inner
    // Turquefoss tile of the same half.
    let g = state.geometry();
    for a in g.ids() {
        let ca = state.tile(a).unwrap().card.unwrap();
        if !g.tile(a).unwrap().edge || ca.tribe != Tribe::Imblasham {
            continue;
        }
        let b = g.ids().find(|&b| {
            let p = g.tile(b).unwrap();
            !p.edge
                && p.side == g.tile(a).unwrap().side
                && state.tile(b).unwrap().card.unwrap().tribe == Tribe::Turquefoss
        });
        if let Some(b) = b {
            let cb = state.tiles[usize::from(b)].card;
            state.tiles[usize::from(b)].card = Some(ca);
            state.tiles[usize::from(a)].card = cb;
        }
    }
    let before = (
        exposed_clans(&state, Tribe::Turquefoss),
        exposed_clans(&state, Tribe::Imblasham),
    );
    assert!(before.0 > before.1, "{before:?}");
    balance(&mut state);
    assert_eq!(
        exposed_clans(&state, Tribe::Turquefoss),
        exposed_clans(&state, Tribe::Imblasham)
    );
}

#[test]
fn fatigue_costs_one_movement_after_attacking() {
    // "If at any time a unit tries to move AFTER it attacks, that unit is then fatigued. They
    // take -1 from their movement speed for the turn."
    let mut state = start_with(&options(&[Variant::Fatigue]), 2);
    let (a, b) = inner_tile(&state);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(a);
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(a);
    at_act(&mut state, &[Face::Shield; 4]);
    decide(
        &mut state,
        0,
        Action::Attack {
            slot: 0,
            target: unit(1, 0),
            dice: 0,
        },
    );
    assert_eq!(state.unit(unit(0, 0)).unwrap().movement_left(), 3);
    decide(&mut state, 0, Action::Move { slot: 0, to: b });
    assert_eq!(state.unit(unit(0, 0)).unwrap().movement_left(), 1);
}

#[test]
fn enemy_occupation_forces_an_attack() {
    // "If a unit enters a space with an enemy unit, they must stop to attack."
    let mut state = start_with(&options(&[Variant::EnemyOccupation]), 2);
    let (a, b) = inner_tile(&state);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(a);
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(b);
    at_act(&mut state, &[Face::Shield; 4]);
    decide(&mut state, 0, Action::Move { slot: 0, to: b });
    assert_eq!(state.must_attack, Some(0));
    assert!(
        legal(&state, 0)
            .iter()
            .all(|a| matches!(a, Action::Attack { .. } | Action::Cast(_)))
    );
    decide(
        &mut state,
        0,
        Action::Attack {
            slot: 0,
            target: unit(1, 0),
            dice: 0,
        },
    );
    // "The unit can resume movement after the attack is complete"
    assert!(legal(&state, 0).contains(&Action::Move { slot: 0, to: a }));
}

#[test]
fn home_field_gives_plus_one() {
    // "When a unit is on one of their tribe member's tiles, they get a +1 to either their
    // attack stat, or defense stat depending on whether they are attacking or defending."
    let mut state = start_with(&options(&[Variant::HomeField]), 2);
    let home = state
        .geometry()
        .ids()
        .find(|&t| {
            !state.is_mine(t)
                && state
                    .tile(t)
                    .unwrap()
                    .card
                    .is_some_and(|c| c.tribe == Tribe::Turquefoss)
        })
        .unwrap();
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(home);
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(home);
    at_act(&mut state, &[Face::Shield; 4]);
    // Seat 1's Leader (defense 2, no home bonus) takes 3 + 1 = 4.
    decide(
        &mut state,
        0,
        Action::Attack {
            slot: 0,
            target: unit(1, 0),
            dice: 0,
        },
    );
    assert_eq!(state.unit(unit(1, 0)).unwrap().hp, 11);
}

#[test]
fn shorter_game_starts_at_round_five_with_the_last_clan_out() {
    // "Start at round 5 with each players Leader out along with the last unit displayed on
    // their Tribe board." ... "start flipping tiles at round 7" ... "rolling five dice"
    let mut state = start_with(&options(&[Variant::ShorterGame]), 2);
    assert_eq!(state.round, 5);
    let clan = state.unit(unit(0, 6)).unwrap();
    assert!(clan.on_board() && state.is_mine(clan.tile.unwrap()));
    assert_eq!(state.to_roll.len(), 5);
    state.round = 6;
    state.phase = Phase::Turn {
        seat: 0,
        step: Step::Start,
    };
    super::super::turn::advance(&mut state);
    assert!(matches!(step_of(&state), Step::Roll { .. }));
    state.round = 7;
    state.phase = Phase::Turn {
        seat: 0,
        step: Step::Start,
    };
    super::super::turn::advance(&mut state);
    assert_eq!(step_of(&state), Step::Flip { left: 2 });
}

#[test]
fn temporary_alliances_are_offered_accepted_and_revoked() {
    // "If both parties have a verbal agreement, players may act as allies" ... "Either player
    // may retract their initial agreement at any point"
    let mut state = start_with(&options(&[Variant::TemporaryAlliances]), 3);
    at_act(&mut state, &[Face::Shield; 4]);
    decide(&mut state, 0, Action::OfferAlliance(2));
    assert_eq!(waiting_for(&state), vec![2]);
    decide(&mut state, 2, Action::AcceptAlliance);
    assert!(state.allied(0, 2));
    assert!(!legal(&state, 0).contains(&Action::OfferAlliance(2)));
    decide(&mut state, 0, Action::EndAlliance(2));
    assert!(!state.allied(0, 2));
    // One offer per seat per turn.
    assert!(!legal(&state, 0).contains(&Action::OfferAlliance(2)));
}

#[test]
fn empowering_call_fills_an_ability() {
    // "If a player has rolled 3 horns, they may choose to charge a Clan's ability. The unit
    // with the horns assigned to it must have ended their movement on the tile matching the
    // active Clan"
    let mut state = start_with(&options(&[Variant::EmpoweringCall]), 2);
    let t = clan_tile(&state, Tribe::Turquefoss, 2);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(t);
    put(&mut state, unit(0, 2), t);
    five_dice(&mut state);
    at_act(
        &mut state,
        &[
            Face::Horn,
            Face::Horn,
            Face::Horn,
            Face::Shield,
            Face::Shield,
        ],
    );
    decide(&mut state, 0, Action::EndActions);
    decide(
        &mut state,
        0,
        Action::Empower {
            slot: 0,
            clan: 2,
            learned: false,
        },
    );
    assert_eq!(state.unit(unit(0, 2)).unwrap().innate_charge, 3);
}

#[test]
fn shape_it_up_offers_other_boards() {
    // "Create different battlefields by experimenting with the shape of the board. Mirror
    // side A and B for the most fair game-play."
    for shape in [Shape::Standard, Shape::Broad, Shape::Long] {
        for players in 2..=4 {
            let g = super::super::board::geometry(shape, players);
            let tiles = g.tiles.iter().filter(|t| !t.centre).count();
            assert_eq!(tiles, 12 * players, "{shape:?} {players}");
            assert!(g.tiles.iter().any(|t| t.mine));
            assert!(g.starts.len() >= players);
            if players != 3 {
                let a = g
                    .tiles
                    .iter()
                    .filter(|t| t.side == super::super::board::Side::A)
                    .count();
                assert_eq!(a * 2, g.tiles.len());
            }
        }
    }
}

#[test]
fn the_three_player_board_has_the_unused_factions_tile_face_down_in_the_centre() {
    // "This setup will require a tile from the unused faction. This tile will always remain
    // flipped face-down in the center of the map."
    let state = start(3);
    let centre = state
        .geometry()
        .ids()
        .find(|&t| state.geometry().tile(t).unwrap().centre)
        .unwrap();
    let tile = state.tile(centre).unwrap();
    assert!(tile.flipped);
    assert_eq!(tile.card.unwrap().tribe, Tribe::Betrumour);
    assert_eq!(state.geometry().len(), 37);
}
