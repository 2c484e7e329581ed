//! The findings of the fidelity audit of 2026-11-28
//! (shared/audits/2026-11-28/gnomes-and-wizards.md, answered in
//! docs/reviews/audit-2026-11-28-gnomes-and-wizards.md): one test each, quoting the rulebook
//! sentence it checks (line numbers of shared/rules/gnomes-and-wizards.md); each fails on the
//! code before the fix. The changes are for new games (edition 2, `new_game`).

use super::*;
use crate::rules::gnomes_and_wizards::board::Shape;
use crate::rules::gnomes_and_wizards::data::Token;
use crate::rules::gnomes_and_wizards::{call, combat};

/// Rolls four crystals (they go to the reserve by themselves) and lets every window pass, so
/// seat 0 is in its Act step.
fn to_act(state: &mut State) {
    roll_and_keep(state, 0, &[Face::Crystal; 4]);
    pass_window(state);
    assert_eq!(step_of(state), Step::Act);
}

/// Both Leaders on an inner tile `a` (`b` a face-up neighbour), the seats holding these
/// Secret cards; seat 0 is in its Act step.
fn leaders_together(hands: [Vec<u16>; 2]) -> (State, TileId, TileId) {
    let mut state = new_game(&[], 2);
    let (a, b) = inner_tile(&state);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(a);
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(a);
    let [mine, theirs] = hands;
    state.players[0].hand = mine;
    state.players[1].hand = theirs;
    to_act(&mut state);
    (state, a, b)
}

/// Seat 0's Leader attacks seat 1's Leader with no dice.
fn leader_attacks(state: &mut State) {
    let attack = Action::Attack {
        slot: 0,
        target: unit(1, 0),
        dice: 0,
    };
    decide(state, 0, attack);
}

/// A face-up tile next to `t` (`t`'s own tile need not be face up).
fn face_up_neighbour(state: &State, t: TileId) -> TileId {
    state
        .geometry()
        .adjacent(t)
        .iter()
        .copied()
        .find(|&n| !state.flipped(n))
        .unwrap()
}

// Group 64, l.381: "If multiple abilities have been cast, they are resolved in turn order
// starting with the player whose turn it is. This means that an ability cast by the current
// player whose turn it is has priority over any other player's ability." Seat 1 answers seat 0's
// attack with Cave-in on the tile both Leaders stand on; seat 0 used to learn of it only once
// the tile had fallen. Now it is asked before the Cave-in resolves, and its Escape Route comes
// first.
#[test]
fn the_active_player_forestalls_another_players_cast_in_its_turn() {
    // Seat 0 holds Escape Route (move an ally on the caster's tile 2 spaces), seat 1 Cave-in
    // (flip a face-up tile within 1 space).
    let (mut state, a, b) = leaders_together([vec![30], vec![40]]);
    leader_attacks(&mut state);
    // The first window asks the others only.
    assert_eq!(waiting_for(&state), vec![1]);
    decide(&mut state, 1, cast(Source::Secret(40), Target::Tile(a)));
    assert_eq!(
        waiting_for(&state),
        vec![0],
        "the active player answers next"
    );
    assert!(!state.flipped(a), "the Cave-in has not resolved yet");
    decide(
        &mut state,
        0,
        cast(
            Source::Secret(30),
            Target::Move {
                unit: unit(0, 0),
                to: b,
            },
        ),
    );
    // Escape Route resolved first: seat 0's Leader left the tile before it fell.
    assert!(state.flipped(a));
    let mine = state.unit(unit(0, 0)).unwrap();
    assert_eq!((mine.tile, mine.hp), (Some(b), 15));
    assert_eq!(state.unit(unit(1, 0)).unwrap().hp, 13);
}

// Group 64: the active player is asked after the others in every window, and not at all when
// they all pass in a window that did not list it (no extra round trip by mail).
#[test]
fn the_active_player_is_not_asked_when_the_others_cast_nothing() {
    let (mut state, _, _) = leaders_together([vec![30], vec![40]]);
    leader_attacks(&mut state);
    decide(&mut state, 1, Action::Pass);
    assert!(state.window.is_none());
    // Power 3 against defense 2: 3 damage.
    assert_eq!(state.unit(unit(1, 0)).unwrap().hp, 12);
}

// Audit bug 1, l.437: "Crystal Mine tiles denoted by the crystal outline can never be flipped no
// matter what." and l.145: "it is important that the crystal mines end up in the center of the
// board". On 95 of the 619 boards of the players' own (with the seat counts they fit), a mine
// position got no tile and stayed face down, e.g. {"hexagon":[2,2,3,2,2,3]} with two seats.
#[test]
fn every_crystal_mine_gets_a_tile_on_every_board_of_the_players_own() {
    let mut boards = 0;
    for n in 0..10u32.pow(6) {
        let sides: [u8; 6] = std::array::from_fn(|i| {
            u8::try_from(n / 10u32.pow(u32::try_from(i).unwrap()) % 10).unwrap()
        });
        let shape = Shape::Hexagon(sides);
        // Solo plays on the two-player board: one board per number of tribes.
        let mut tribes: Vec<usize> = super::super::board::seat_counts(shape)
            .into_iter()
            .map(|s| s.max(2))
            .collect();
        tribes.dedup();
        for seats in tribes {
            let options = Game::for_new_game(Options {
                shape,
                ..Options::default()
            });
            let state = start_with(&options, seats);
            boards += 1;
            for t in state.geometry().ids().filter(|&t| state.is_mine(t)) {
                assert!(
                    !state.flipped(t) && state.tile(t).unwrap().card.is_some(),
                    "{sides:?}, {seats} seats: mine {t} has no tile"
                );
            }
        }
    }
    assert_eq!(boards, 619);
}

// Group 60, l.588: "Anytime the player attacks an enemy unit, all enemy units in that space
// attack the unit using their base stat before the player may perform their attack." An
// ability's extra attack is an attack (l.249: "not including ability attacks"; l.387: "Ability
// attacks can be defended against"); it drew no strike-back.
#[test]
fn solo_an_ability_attack_from_the_targets_tile_draws_the_strike_back() {
    let mut state = new_game(&[], 1);
    let t = state
        .geometry()
        .ids()
        .find(|&t| !state.is_mine(t) && !state.flipped(t) && state.units_on(t).is_empty())
        .unwrap();
    put(&mut state, unit(0, 1), t); // Toy Masters: Wind-up Rush, extra attack 4, same tile
    state.unit_mut(unit(0, 1)).unwrap().innate_charge = 3;
    state.unit_mut(unit(1, 2)).unwrap().tile = Some(t); // the automaton's attack-5 Clan
    to_act(&mut state);
    decide(
        &mut state,
        0,
        cast(Source::Innate(1), Target::Unit(unit(1, 2))),
    );
    // The strike-back first: 5 against the Toy Masters' defense 1, full damage.
    assert_eq!(state.unit(unit(0, 1)).unwrap().hp, 5);
    // Then the Rush: 4 against defense 2, full damage.
    assert_eq!(state.unit(unit(1, 2)).unwrap().hp, 6);
}

// Group 48 and audit bug 4, l.531: "Either player may retract their initial agreement at any
// point, even if it is in the middle of the act being played out." — with l.517: "If a unit
// enters a space with an enemy unit, they must stop to attack." Seat 1, with nothing to cast,
// was never asked as seat 0's Leader moved onto its Leader's tile, and an alliance ended there
// did not stop the mover.
#[test]
fn a_temporary_ally_may_end_the_alliance_as_a_unit_enters_its_tile() {
    let mut state = new_game(&[Variant::TemporaryAlliances, Variant::EnemyOccupation], 2);
    let (a, b) = inner_tile(&state);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(a);
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(b);
    state.alliances = vec![(0, 1)];
    to_act(&mut state);
    decide(&mut state, 0, Action::Move { slot: 0, to: b });
    assert_eq!(waiting_for(&state), vec![1], "the ally is asked mid-move");
    assert_eq!(state.moving, Some(0));
    decide(&mut state, 1, Action::EndAlliance(0));
    decide(&mut state, 1, Action::Pass);
    assert_eq!(state.moving, None);
    assert_eq!(state.must_attack, Some(0));
    let moves: Vec<Action> = legal(&state, 0)
        .into_iter()
        .filter(|a| matches!(a, Action::Move { .. } | Action::EndActions))
        .collect();
    assert!(moves.is_empty(), "{moves:?}");
    assert!(legal(&state, 0).contains(&Action::Attack {
        slot: 0,
        target: unit(1, 0),
        dice: 0
    }));
}

// Group 12, l.303: "If both tiles for a specific Clan have been flipped face-down before a player
// was able to summon them to the battlefield, that Clan cannot get activated for the remainder of
// the game." A restore ability used to make it callable again.
#[test]
fn a_clan_whose_two_tiles_were_flipped_is_not_called_after_a_restore() {
    let mut state = new_game(&[], 2);
    let tiles_of = |state: &State, clan: u8| -> Vec<TileId> {
        state
            .geometry()
            .ids()
            .filter(|&t| {
                state
                    .tile(t)
                    .unwrap()
                    .card
                    .is_some_and(|c| c.tribe == Tribe::Turquefoss && c.clan == clan)
            })
            .collect()
    };
    let clan = (1..=6u8)
        .find(|&c| {
            tiles_of(&state, c)
                .iter()
                .all(|&t| !state.is_mine(t) && state.units_on(t).is_empty())
        })
        .unwrap();
    let tiles = tiles_of(&state, clan);
    for &t in &tiles {
        combat::flip(&mut state, t, None);
    }
    assert_eq!(state.players[0].uncallable, vec![clan]);
    let t = tiles[0];
    let n = face_up_neighbour(&state, t);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(n);
    state.unit_mut(unit(0, 0)).unwrap().horns = 3;
    state.players[0].hand = vec![41]; // Shore Up: turn a flipped tile within 1 space face up
    to_act(&mut state);
    decide(&mut state, 0, cast(Source::Secret(41), Target::Tile(t)));
    assert!(!state.flipped(t));
    decide(&mut state, 0, Action::Move { slot: 0, to: t });
    decide(&mut state, 0, Action::Stop);
    assert_eq!(state.unit(unit(0, 0)).unwrap().tile, Some(t));
    assert_eq!(call::summons(&state, 0), Vec::new());
}

// Audit bug 2, l.437: "Flipping a tile is permanent (unless an ability says otherwise)." A
// restore turns a flipped tile face up; a position of a board of the players' own that never
// had a tile has nothing to turn (it used to become a face-up tile of no Clan).
#[test]
fn a_restore_ability_never_turns_up_a_position_without_a_tile() {
    let options = Game::for_new_game(Options {
        shape: Shape::Hexagon([3, 1, 3, 3, 1, 3]),
        ..Options::default()
    });
    let mut state = start_with(&options, 2);
    let g = state.geometry();
    let usable = |t: TileId| {
        state.tile(t).unwrap().card.is_some() && !state.is_mine(t) && state.units_on(t).is_empty()
    };
    // A position without a tile, a face-up tile `n` next to it, and a tile with a card next to
    // `n`, which is flipped: that one may be restored.
    let (empty, n, flipped) = g
        .ids()
        .filter(|&t| state.tile(t).unwrap().card.is_none())
        .find_map(|empty| {
            g.adjacent(empty).iter().find_map(|&n| {
                let other = g
                    .adjacent(n)
                    .iter()
                    .copied()
                    .find(|&t| t != empty && usable(t))?;
                (!state.flipped(n)).then_some((empty, n, other))
            })
        })
        .unwrap();
    combat::flip(&mut state, flipped, None);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(n);
    state.players[0].hand = vec![41]; // Shore Up
    to_act(&mut state);
    let restores: Vec<Action> = legal(&state, 0)
        .into_iter()
        .filter(|a| matches!(a, Action::Cast(c) if c.source == Source::Secret(41)))
        .collect();
    assert!(restores.contains(&cast(Source::Secret(41), Target::Tile(flipped))));
    assert!(
        !restores.contains(&cast(Source::Secret(41), Target::Tile(empty))),
        "{restores:?}"
    );
}

// Audit bug 3: a lingering attack whose first strike defeats its target left its counter on the
// defeated unit for the rest of the game. l.257: "If a unit's HP is reduced to 0, they are
// defeated for the remainder of the game ... Remove the two tracking clips".
#[test]
fn a_lingering_attack_that_defeats_its_target_leaves_no_counter() {
    // Lingering Curse: attack 2 now and again after a round.
    let (mut state, _, _) = leaders_together([vec![34], Vec::new()]);
    state.unit_mut(unit(1, 0)).unwrap().hp = 1;
    decide(
        &mut state,
        0,
        cast(Source::Secret(34), Target::Unit(unit(1, 0))),
    );
    let target = state.unit(unit(1, 0)).unwrap();
    assert_eq!(target.status, Status::Defeated);
    assert!(!target.has(Token::LingeringAttack), "{:?}", target.counters);
}

/// Seat 0's Leader, with three horns, stands with seat 1's Leader on a tile of seat 0's Clan
/// `clan` (no mine); seat 1 holds `hand`. Seat 0 is in its Call to War step.
fn ready_to_summon(hand: Vec<u16>) -> (State, u8, TileId) {
    let mut state = new_game(&[], 2);
    let (clan, t) = (1..=6u8)
        .map(|c| (c, clan_tile(&state, Tribe::Turquefoss, c)))
        .find(|&(_, t)| state.units_on(t).is_empty())
        .unwrap();
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(t);
    state.unit_mut(unit(0, 0)).unwrap().horns = 3;
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(t);
    state.players[1].hand = hand;
    to_act(&mut state);
    decide(&mut state, 0, Action::EndActions);
    pass_window(&mut state);
    assert_eq!(step_of(&state), Step::Call);
    (state, clan, t)
}

// Group 29, l.381: "Abilities cast by other players come before the current player's base
// actions." and l.411: the base actions are "Flip Tiles, Roll Dice, Assign Dice, Movement,
// Attack, Defense, Call to War/Draw Cards, Collect Power Crystals". A summon took effect at
// once; now seat 1 may answer it first, and its Cave-in under the caller's feet stops it.
#[test]
fn other_players_may_answer_a_summon_before_it_takes_effect() {
    let (mut state, clan, t) = ready_to_summon(vec![40]); // Cave-in
    decide(&mut state, 0, Action::Summon { slot: 0, clan });
    assert_eq!(waiting_for(&state), vec![1]);
    assert_eq!(state.unit(unit(0, clan)).unwrap().status, Status::Inactive);
    assert_eq!(
        state.unit(unit(0, 0)).unwrap().horns,
        0,
        "the horns are spent"
    );
    decide(&mut state, 1, cast(Source::Secret(40), Target::Tile(t)));
    while !state.falls.is_empty() {
        let seat = waiting_for(&state)[0];
        let land = legal(&state, seat)[0].clone();
        decide(&mut state, seat, land);
    }
    assert!(state.flipped(t));
    assert_eq!(state.unit(unit(0, clan)).unwrap().status, Status::Inactive);
    assert_eq!(state.unit(unit(0, 0)).unwrap().horns, 0);
}

// Group 29: unanswered, the summon takes effect when the window closes.
#[test]
fn a_summon_nobody_answers_takes_effect() {
    let (mut state, clan, t) = ready_to_summon(vec![40]);
    decide(&mut state, 0, Action::Summon { slot: 0, clan });
    decide(&mut state, 1, Action::Pass);
    let called = state.unit(unit(0, clan)).unwrap();
    assert_eq!((called.status, called.tile), (Status::Active, Some(t)));
}
