//! The findings of the 2026-11-24 fidelity review (issue 18): each test quotes the rulebook
//! sentence (or the ruling in docs/rules/gnomes-and-wizards.md) it checks.

use super::*;
use crate::rules::gnomes_and_wizards::data::Token;
use crate::rules::gnomes_and_wizards::state::{Source, Target};
use crate::rules::gnomes_and_wizards::{combat, solo, turn};

/// Everyone waiting in a reaction window passes.
/// Both Leaders on one inner tile; seat 0 has declared an attack with 4 move/attack dice on
/// seat 1's Leader, which holds `hand`; seat 1 is asked to answer.
fn attack_declared(hand: Vec<u16>) -> State {
    let mut state = start(2);
    let (a, _) = inner_tile(&state);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(a);
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(a);
    state.players[1].hand = hand;
    roll_and_keep(&mut state, 0, &[Face::MoveAttack; 4]);
    pass_window(&mut state);
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
            target: unit(1, 0),
            dice: 4,
        },
    );
    assert_eq!(waiting_for(&state), vec![1]);
    state
}

#[test]
fn a_reaction_that_puts_the_attacker_to_sleep_stops_the_declared_attack() {
    // "Abilities cast by other players come before the current player's base actions" (l.381);
    // "If a unit is sleeping, they cannot attack or move this turn." (l.485)
    let mut state = attack_declared(vec![33]); // Sleep Powder
    decide(
        &mut state,
        1,
        cast(Source::Secret(33), Target::Unit(unit(0, 0))),
    );
    assert_eq!(state.attack, None);
    assert_eq!(state.unit(unit(1, 0)).unwrap().hp, 15);
    assert!(
        state.unit(unit(0, 0)).unwrap().attacked,
        "the attack is spent"
    );
}

#[test]
fn a_reaction_that_gives_the_attacker_no_attack_stops_the_declared_attack() {
    // "If a unit receives one of these counters from the board, the effects apply immediately
    // and they cannot move or attack for one round of game-play." (l.493)
    let mut state = attack_declared(vec![35]); // Butterfingers
    decide(
        &mut state,
        1,
        cast(Source::Secret(35), Target::Unit(unit(0, 0))),
    );
    assert_eq!(state.unit(unit(1, 0)).unwrap().hp, 15);
}

#[test]
fn a_reaction_that_makes_the_target_fly_stops_the_declared_attack() {
    // "If a unit is flying, they cannot attack or be attacked unless another unit is also
    // flying." (l.481)
    let mut state = attack_declared(vec![32]); // Gust of Wind
    decide(
        &mut state,
        1,
        cast(Source::Secret(32), Target::Unit(unit(1, 0))),
    );
    assert_eq!(state.unit(unit(1, 0)).unwrap().hp, 15);
}

#[test]
fn the_active_player_answers_the_others_casts_before_its_attack_resolves() {
    // "an ability cast by the current player whose turn it is has priority over any other
    // player's ability" (l.381): after seat 1 makes its Leader fly, seat 0 may answer by
    // making its own attacker fly, and the attack then lands (flier against flier).
    let mut state = start(2);
    {
        let leader = state.unit_mut(unit(0, 0)).unwrap();
        leader.learned = Some(12); // Wings of Dusk: an ally on the caster's tile flies
        leader.learned_charge = 3;
    }
    let (a, _) = inner_tile(&state);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(a);
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(a);
    state.players[1].hand = vec![32];
    roll_and_keep(&mut state, 0, &[Face::MoveAttack; 4]);
    pass_window(&mut state);
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
    let attack = Action::Attack {
        slot: 0,
        target: unit(1, 0),
        dice: 4,
    };
    decide(&mut state, 0, attack);
    decide(
        &mut state,
        1,
        cast(Source::Secret(32), Target::Unit(unit(1, 0))),
    );
    assert_eq!(waiting_for(&state), vec![0], "the active player may answer");
    assert!(
        state.window.is_some(),
        "in the window, before the attack resolves"
    );
    assert!(state.attack.is_some(), "the attack has not resolved yet");
    decide(
        &mut state,
        0,
        cast(Source::Learned(0), Target::Unit(unit(0, 0))),
    );
    pass_window(&mut state);
    assert_eq!(state.attack, None);
    assert!(state.unit(unit(0, 0)).unwrap().has(Token::Flying));
    // Power 3 + 4 dice = 7 against defense 2: 7 damage.
    assert_eq!(state.unit(unit(1, 0)).unwrap().hp, 15 - 7);
}

#[test]
fn other_players_may_answer_a_tile_flip_before_it_takes_effect() {
    // Priority scale: "Other Players Abilities (In Turn Order)" come before "Current Players
    // Base Actions: Flip Tiles, ..." (l.403-411).
    let mut state = start(2);
    state.round = 6;
    turn::begin_planning(&mut state, 0);
    assert_eq!(step_of(&state), Step::Flip { left: 2 });
    let t = state.unit(unit(1, 0)).unwrap().tile.unwrap();
    state.players[1].hand = vec![30]; // Escape Route: move an ally on the caster's tile
    decide(&mut state, 0, Action::Flip(t));
    assert_eq!(waiting_for(&state), vec![1]);
    assert!(!state.flipped(t), "the flip waits for the answers");
    let away = legal(&state, 1)
        .into_iter()
        .find(|a| matches!(a, Action::Cast(c) if matches!(c.target, Target::Move { .. })))
        .unwrap();
    decide(&mut state, 1, away);
    pass_window(&mut state);
    assert!(state.flipped(t));
    assert_eq!(state.unit(unit(1, 0)).unwrap().hp, 15, "no fall damage");
    assert_ne!(state.unit(unit(1, 0)).unwrap().tile, Some(t));
    assert_eq!(step_of(&state), Step::Flip { left: 1 });
}

#[test]
fn a_flip_of_an_empty_tile_asks_nobody() {
    // Ruling (docs, "Reaction windows"): a window before a flip opens only when units stand on
    // the tile; other flips have nothing to answer.
    let mut state = start(2);
    state.round = 6;
    turn::begin_planning(&mut state, 0);
    state.players[1].hand = vec![30];
    let empty = combat::flippable(&state, 2)
        .into_iter()
        .find(|&t| state.units_on(t).is_empty())
        .unwrap();
    decide(&mut state, 0, Action::Flip(empty));
    assert!(state.flipped(empty));
    assert_eq!(waiting_for(&state), vec![0]);
}

#[test]
fn solo_the_player_may_answer_the_crumbling_earth() {
    // "As in the normal game, abilities may be used to avoid fall damage." (l.580)
    let mut state = start(1);
    // Escape Route and Smoke and Mirrors (a second answer, so that the game stops before the
    // second flip, which targets the Leader again).
    state.players[0].hand = vec![30, 31];
    let t = state.unit(unit(0, 0)).unwrap().tile.unwrap();
    turn::end_turn(&mut state);
    turn::advance(&mut state);
    // The Leader (the player's only unit) stands on an edge tile: the earth targets it.
    assert_eq!(waiting_for(&state), vec![0]);
    assert!(matches!(
        state.window.as_ref().map(|w| w.after),
        Some(super::super::state::After::Flip(x)) if x == t
    ));
    let away = legal(&state, 0)
        .into_iter()
        .find(|a| matches!(a, Action::Cast(c) if c.source == Source::Secret(30)))
        .unwrap();
    decide(&mut state, 0, away);
    // The window opens again after a cast (the player still holds a card): pass.
    assert!(!state.flipped(t));
    decide(&mut state, 0, Action::Pass);
    assert!(state.flipped(t));
    assert_eq!(state.unit(unit(0, 0)).unwrap().hp, 15, "no fall damage");
}

#[test]
fn a_sleeping_automaton_unit_does_not_strike_back() {
    // "If a unit is sleeping, they cannot attack or move this turn." (l.485) — the
    // automaton's strike-back (l.588) is an attack too.
    let mut state = start(1);
    let t = state.unit(unit(1, 3)).unwrap().tile.unwrap();
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(t);
    for u in state.units_on(t) {
        if u.owner == 1 {
            combat::give_counter(&mut state, u, Token::Sleeping, 0);
        }
    }
    roll_and_keep(&mut state, 0, &[Face::Shield; 4]);
    while step_of(&state) == Step::Assign {
        decide(
            &mut state,
            0,
            Action::Assign {
                face: Face::Shield,
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
            dice: 0,
        },
    );
    assert_eq!(state.unit(unit(0, 0)).unwrap().hp, 15);
}

#[test]
fn solo_shorter_game_does_not_flip_on_its_first_turn() {
    // "Each turn, with exception of the first turn, two tiles will be flipped" (l.568); a
    // shorter game starts at round 5 (l.525).
    let state = start_with(&options(&[Variant::ShorterGame]), 1);
    assert_eq!(state.round, 5);
    assert!(matches!(step_of(&state), Step::Roll { .. }));
    assert!(state.tiles.iter().all(|t| !t.flipped));
}

#[test]
fn enemy_occupation_does_not_stop_a_flying_unit_over_units_on_the_ground() {
    // "If a unit enters a space with an enemy unit, they must stop to attack." (l.517) — a
    // Flying unit "cannot attack or be attacked unless another unit is also flying" (l.481).
    let mut state = start_with(&options(&[Variant::EnemyOccupation]), 2);
    let (a, b) = inner_tile(&state);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(a);
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(b);
    combat::give_counter(&mut state, unit(0, 0), Token::Flying, 0);
    roll_and_keep(&mut state, 0, &[Face::Shield; 4]);
    pass_window(&mut state);
    while step_of(&state) == Step::Assign {
        decide(
            &mut state,
            0,
            Action::Assign {
                face: Face::Shield,
                slot: 0,
            },
        );
    }
    decide(&mut state, 0, Action::Move { slot: 0, to: b });
    assert_eq!(state.must_attack, None);
    assert_eq!(state.moving, Some(0), "it flies on");
    assert!(state.unit(unit(0, 0)).unwrap().movement_left() > 0);
}

#[test]
fn a_falling_unit_does_not_pass_or_land_on_a_blockade() {
    // "a unit cannot pass through the blockade unless they are Flying" (l.497); a unit on a
    // flipped tile "must move to the closest non-flipped tile" (l.439).
    let mut state = start(2);
    let (a, b) = inner_tile(&state);
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(a);
    state.tiles[usize::from(b)].blockade = Some(0);
    combat::flip(&mut state, a, None);
    let landing = combat::landing_tiles(&state, unit(1, 0));
    assert!(!landing.is_empty());
    assert!(!landing.contains(&b), "{landing:?}");
}

#[test]
fn the_early_end_summary_says_who_was_left_standing() {
    // Ruling (docs, Scoring): the game ends once one side is left standing and is scored; the
    // summary must not call the winner the last one standing when it is not.
    let mut state = start(2);
    state.players[1].trophies = vec![(Tribe::Turquefoss, 1), (Tribe::Turquefoss, 2)];
    state.players[1].eliminated = true;
    {
        let leader = state.unit_mut(unit(1, 0)).unwrap();
        leader.status = Status::Defeated;
        leader.tile = None;
    }
    turn::finish(&mut state, false);
    let result = state.result.unwrap();
    assert_eq!(result.winners, vec![1]);
    assert!(
        result.summary.contains("only seat 0 left standing"),
        "{}",
        result.summary
    );
}

#[test]
fn a_fall_kill_from_ones_own_flip_ability_scores() {
    // "The player will not get points for enemy units defeated by fall damage even if it was
    // from an ability cast by the player." (l.590) is solo's exception: in the normal game the
    // caster dealt the final blow (l.257).
    let mut state = start(2);
    let (a, b) = inner_tile(&state);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(a);
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(b);
    state.unit_mut(unit(1, 0)).unwrap().hp = 2;
    state.players[0].hand = vec![40]; // Cave-in
    roll(&mut state, &[Face::Shield; 4]);
    decide(&mut state, 0, cast(Source::Secret(40), Target::Tile(b)));
    assert_eq!(state.unit(unit(1, 0)).unwrap().status, Status::Defeated);
    assert_eq!(state.players[0].trophies, vec![(Tribe::Imblasham, 0)]);
}

#[test]
fn solo_a_tie_between_weakest_units_is_the_players_choice() {
    // "If there is still a tie, the player chooses which unit is targeted." (l.572)
    let mut state = start(1);
    let g = state.geometry();
    let occupied: Vec<TileId> = state
        .units_on_board()
        .iter()
        .filter_map(|&u| state.unit(u).unwrap().tile)
        .collect();
    let edge = g
        .ids()
        .find(|&t| g.tile(t).unwrap().edge && !state.is_mine(t) && !occupied.contains(&t))
        .unwrap();
    let inner = g
        .ids()
        .find(|&t| !g.tile(t).unwrap().edge && !state.is_mine(t) && !occupied.contains(&t))
        .unwrap();
    put(&mut state, unit(0, 1), edge);
    put(&mut state, unit(0, 2), inner);
    for slot in [1, 2] {
        state.unit_mut(unit(0, slot)).unwrap().defense = 3;
    }
    let choices = solo::crumble_choices(&state);
    assert!(choices.contains(&edge), "{choices:?}");
    assert!(
        choices
            .iter()
            .any(|&t| t != edge && g.distance(inner, t) <= g.distance(edge, t)),
        "the inner unit's nearest tiles are offered too: {choices:?}"
    );
}

#[test]
fn every_tribe_for_themselves_places_leaders_on_any_perimeter_tile() {
    // "If playing the variant 'Every Tribe for Themselves' with four players, place leaders
    // on any tile on the outer perimeter of the board." (l.173)
    let options = Options {
        variants: vec![Variant::EveryTribeForThemselves],
        tribes: vec![
            Tribe::Turquefoss,
            Tribe::Imblasham,
            Tribe::Achrinnolder,
            Tribe::Betrumour,
        ],
        ..Options::default()
    };
    let mut state = Game::new_game(&options, 4).unwrap();
    while !matches!(state.phase, Phase::Leaders) {
        match Game::next(&state) {
            Next::Chance(c) => {
                let a = c.outcomes[0].0.clone();
                Game::apply(&mut state, Actor::Chance, &a).unwrap();
            }
            other => panic!("{other:?}"),
        }
    }
    let seat = waiting_for(&state)[0];
    let g = state.geometry();
    let perimeter: Vec<TileId> = g.ids().filter(|&t| g.tile(t).unwrap().edge).collect();
    let offered: Vec<TileId> = legal(&state, seat)
        .into_iter()
        .map(|a| match a {
            Action::PlaceLeader(t) => t,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(offered, perimeter);
    assert!(perimeter.len() > g.starts.len());
    assert!(Game::new_game(&options, 3).is_err(), "four players only");
}
