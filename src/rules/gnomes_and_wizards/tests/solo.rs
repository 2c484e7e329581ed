//! Solo mode: the automaton.

use super::*;

fn solo() -> State {
    let state = start(1);
    assert!(state.solo());
    state
}

#[test]
fn the_automatons_clans_start_on_their_tiles_all_active() {
    // "Randomly divide the Clan discs in two groups of three. Place each disc from the first
    // group on the tile with the matching icon on side A of the board."
    let state = solo();
    let p = &state.players[1];
    assert!(p.automaton);
    assert!(p.units.iter().all(|u| u.on_board()));
    assert_eq!(state.players.len(), 2);
    assert!(legal(&state, 1).is_empty());
}

#[test]
fn the_crumbling_earth_targets_the_weakest_player_unit() {
    // "target tiles closest to the player's active unit with the least amount of health" ...
    // "If there is a tie for units with the lowest health, target the lowest defense"
    let mut state = solo();
    let (a, b) = inner_tile(&state);
    put(&mut state, unit(0, 1), a);
    put(&mut state, unit(0, 2), b);
    state.unit_mut(unit(0, 1)).unwrap().hp = 4;
    state.unit_mut(unit(0, 2)).unwrap().hp = 4;
    state.unit_mut(unit(0, 2)).unwrap().defense = 5;
    assert_eq!(super::super::solo::target_units(&state), vec![unit(0, 1)]);
    // "If a unit was on the first tile that was flipped, proceed to target the next unit"
    state.solo_hit.push(unit(0, 1));
    assert_eq!(super::super::solo::target_units(&state), vec![unit(0, 2)]);
    // "If all of the player's units are on the Crystal Mines, or if all available units from
    // the player have already had their tile flipped, proceed to target the opponent unit
    // with the most health."
    state.solo_hit.push(unit(0, 2));
    state.solo_hit.push(unit(0, 0));
    let targets = super::super::solo::target_units(&state);
    assert!(
        targets.iter().all(|u| u.owner == 1 && u.slot == 0),
        "{targets:?}"
    );
}

#[test]
fn flips_start_on_the_second_turn() {
    // "Each turn, with exception of the first turn, two tiles will be flipped on the board."
    let mut state = solo();
    assert!(matches!(step_of(&state), Step::Roll { .. }));
    super::super::turn::end_turn(&mut state);
    super::super::turn::advance(&mut state);
    // Ties and falls are the player's to settle.
    while !matches!(step_of(&state), Step::Roll { .. }) {
        let a = legal(&state, 0)[0].clone();
        decide(&mut state, 0, a);
    }
    assert_eq!(state.tiles.iter().filter(|t| t.flipped).count(), 2);
}

#[test]
fn automaton_units_strike_back_first_and_grow_defense() {
    // "all enemy units in that space attack the unit using their base stat before the player
    // may perform their attack" ... "Any time an opponent unit takes damage ... their defense
    // goes up by one up to their max."
    let mut state = solo();
    let t = state.unit(unit(1, 3)).unwrap().tile.unwrap();
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(t);
    let before = state.unit(unit(1, 3)).unwrap().defense;
    roll_and_keep(&mut state, 0, &[Face::MoveAttack; 4]);
    for _ in 0..4 {
        decide(
            &mut state,
            0,
            Action::Assign {
                face: Face::MoveAttack,
                slot: 0,
            },
        );
    }
    decide(
        &mut state,
        0,
        Action::Attack {
            slot: 0,
            target: unit(1, 3),
            dice: 4,
        },
    );
    // The Clan in slot 3 attacks with 2 against defense 2: half, 1.
    assert_eq!(state.unit(unit(0, 0)).unwrap().hp, 14);
    let hit = state.unit(unit(1, 3)).unwrap();
    assert_eq!(hit.hp, 10 - 7);
    // The slider drops one for the attack (not below the minimum), then rises one for the
    // damage taken.
    assert_eq!(hit.defense, before.saturating_sub(1).max(1) + 1);
}

#[test]
fn automaton_units_fall_toward_the_mines() {
    // "When an opponent unit's tile is flipped, they take fall damage and move to the closest
    // available space towards the Crystal Mines."
    let mut state = solo();
    let t = state.unit(unit(1, 1)).unwrap().tile.unwrap();
    if state.is_mine(t) {
        return;
    }
    let before = state.geometry().tile(t).unwrap().centre_distance;
    super::super::combat::flip(&mut state, t, None);
    super::super::turn::advance(&mut state);
    let u = state.unit(unit(1, 1)).unwrap();
    assert_eq!(u.hp, 8);
    let now = state
        .geometry()
        .tile(u.tile.unwrap())
        .unwrap()
        .centre_distance;
    assert!(now <= before);
}

#[test]
fn the_player_wins_with_both_objectives() {
    // "1. Defeat all 7 enemy units 2. Have all 7 units active"
    let mut state = solo();
    let (a, _) = inner_tile(&state);
    for slot in 0..7 {
        put(&mut state, unit(0, slot), a);
        super::super::combat::damage(&mut state, unit(1, slot), 20, Some(0));
    }
    super::super::turn::advance(&mut state);
    let r = state.result.clone().unwrap();
    assert_eq!(r.winners, vec![0]);
}
