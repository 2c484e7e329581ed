//! The findings of the fresh fidelity review of 2026-11-28
//! (docs/reviews/2026-11-28-gnomes-and-wizards.md): one test each, quoting the rulebook
//! sentence (line numbers of shared/rules/gnomes-and-wizards.md); each fails on the code
//! before the fix. Rule changes are for new games (edition 1, `Game::for_new_game`); games
//! created before keep the old rules.

use super::*;
use crate::rules::gnomes_and_wizards::combat;
use crate::rules::gnomes_and_wizards::state::{DrawState, Source, Target};

/// Seat 0's Toy Masters (innate Wind-up Rush, charge 3: an extra attack of 4 on an enemy on
/// its tile) stand with seat 1's Leader on an inner tile; seat 0 rolls five crystals, moves
/// nobody and is in the Charge step with 5 crystals in its reserve.
fn charging_next_to_an_enemy(state: &mut State) {
    let (t, _) = inner_tile(state);
    put(state, unit(0, 1), t);
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(t);
    five_dice(state);
    roll_and_keep(state, 0, &[Face::Crystal; 5]);
    assert_eq!(state.players[0].reserve, 5);
    decide(state, 0, Action::EndActions);
    // No horns: Call to War passes by itself.
    assert_eq!(step_of(state), Step::Charge);
}

fn charge_toy_masters_in_full(state: &mut State) {
    for _ in 0..3 {
        decide(
            state,
            0,
            Action::Charge {
                slot: 1,
                learned: false,
            },
        );
    }
}

// R1, l.539: "At the end of their turn, the player collected enough crystals on their turn to
// charge up the ability one last time and casts it again." and l.365: "it can be played at
// almost any point during any player's turn" — the turn used to end by itself the moment the
// last open slot was filled, before the ability just charged could be cast.
#[test]
fn an_ability_charged_in_the_charge_step_may_be_cast_before_the_turn_ends() {
    let mut state = new_game(&[], 2);
    charging_next_to_an_enemy(&mut state);
    charge_toy_masters_in_full(&mut state);
    // Every slot is full (2 crystals are left over), yet the turn waits: Wind-up Rush is ready.
    assert_eq!(state.current(), Some(0));
    let rush = cast(Source::Innate(1), Target::Unit(unit(1, 0)));
    assert!(legal(&state, 0).contains(&rush), "{:?}", legal(&state, 0));
    assert!(legal(&state, 0).contains(&Action::EndCharge));
    decide(&mut state, 0, rush);
    // Attack power 4 against defense 2: full damage.
    assert_eq!(state.unit(unit(1, 0)).unwrap().hp, 11);
    // The innate is empty again: the 2 crystals left may go back on it, or be lost.
    assert!(legal(&state, 0).contains(&Action::Charge {
        slot: 1,
        learned: false
    }));
    decide(&mut state, 0, Action::EndCharge);
    assert_eq!(state.current(), Some(1));
    assert_eq!(state.players[0].reserve, 0);
}

// R1, l.539: "they perform the 'Call to War' action to empower the Catapult Specialists ...
// The unit then uses its ability a second time on their turn." With no crystal in the reserve
// the turn used to end right after the empowering call.
#[test]
fn an_ability_filled_by_an_empowering_call_may_be_cast_in_that_turn() {
    let mut state = new_game(&[Variant::EmpoweringCall], 2);
    let t = clan_tile(&state, Tribe::Turquefoss, 2);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(t);
    put(&mut state, unit(0, 2), t);
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(t);
    five_dice(&mut state);
    roll_and_keep(
        &mut state,
        0,
        &[
            Face::Horn,
            Face::Horn,
            Face::Horn,
            Face::Shield,
            Face::Shield,
        ],
    );
    while step_of(&state) == Step::Assign {
        let a = legal(&state, 0)
            .into_iter()
            .find(|a| matches!(a, Action::Assign { slot: 0, .. }))
            .unwrap();
        decide(&mut state, 0, a);
    }
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
    // No horn and no crystal left: the old code ended the turn here.
    assert_eq!(state.current(), Some(0));
    assert_eq!(step_of(&state), Step::Charge);
    // Pebble Volley: 2 damage to an enemy within 2 spaces, defense cannot be used.
    decide(
        &mut state,
        0,
        cast(Source::Innate(2), Target::Unit(unit(1, 0))),
    );
    assert_eq!(state.unit(unit(1, 0)).unwrap().hp, 13);
    assert_eq!(state.current(), Some(1));
}

// R1: the reserve spent, no crystal can be put on an ability (the Charge step used to end at
// once, so a charge from an empty reserve was never asked; now the step may wait).
#[test]
fn no_charge_is_offered_from_an_empty_reserve() {
    let mut state = new_game(&[], 2);
    charging_next_to_an_enemy(&mut state);
    // The Toy Masters' innate has 3 open slots, but the reserve is empty.
    state.players[0].reserve = 0;
    state.filled_this_turn = true;
    assert!(
        !legal(&state, 0)
            .iter()
            .any(|a| matches!(a, Action::Charge { .. })),
        "{:?}",
        legal(&state, 0)
    );
}

// R1, old logs: a game created before edition 1 keeps ending the turn once every slot is
// full, so its log folds as it did.
#[test]
fn games_created_before_edition_1_end_the_turn_once_the_slots_are_full() {
    let mut state = start(2);
    charging_next_to_an_enemy(&mut state);
    charge_toy_masters_in_full(&mut state);
    assert_eq!(state.current(), Some(1));
}

// R2, l.333: "Each unit can attach only one Learned Ability at a time" and l.335: "Power
// Crystals that were charging the previously attached ability are returned to the general
// pile if the ability card is replaced" — when a deadline passed while a kept Learned card
// waited, the default attached it to the first unit, the Leader, discarding the Leader's
// Learned card and its crystals. The default now keeps the card in hand (l.357).
#[test]
fn a_deadline_holds_a_kept_learned_card_instead_of_replacing_the_leaders() {
    let mut state = start(2);
    // Seat 0's Call to War step: a Learned card kept, waiting to be attached or held.
    {
        let leader = state.unit_mut(unit(0, 0)).unwrap();
        leader.learned = Some(1); // Thunder Strike
        leader.learned_charge = 3;
    }
    state.phase = Phase::Turn {
        seat: 0,
        step: Step::Call,
    };
    state.draw = Some(DrawState {
        from: Vec::new(),
        drawn: Vec::new(),
        attach: Some(10),
    });
    assert!(legal(&state, 0).contains(&Action::Attach(0)));
    assert_eq!(Game::default_action(&state, 0), Some(Action::HoldLearned));
}

// R3, l.349: "For every Crystal Mine tile a unit enters, that player adds one Power Crystals to
// their Power Crystal reserve." — a unit that fell onto a mine (l.439: "must move to the
// closest non-flipped tile of their choosing") entered it, as a move or an ability's move does.
#[test]
fn a_unit_falling_onto_a_crystal_mine_adds_a_crystal() {
    let mut state = new_game(&[], 2);
    let (t, mine) = next_to_a_mine(&state);
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(t);
    combat::flip(&mut state, t, None);
    assert_eq!(
        waiting_for(&state),
        vec![1],
        "the owner chooses where it lands"
    );
    decide(&mut state, 1, Action::Fall(mine));
    assert_eq!(state.unit(unit(1, 0)).unwrap().tile, Some(mine));
    assert_eq!(state.players[1].reserve, 1);
}

// R3, old logs: before edition 1 a fall onto a mine added nothing.
#[test]
fn games_created_before_edition_1_gain_no_crystal_from_a_fall() {
    let mut state = start(2);
    let (t, mine) = next_to_a_mine(&state);
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(t);
    combat::flip(&mut state, t, None);
    decide(&mut state, 1, Action::Fall(mine));
    assert_eq!(state.players[1].reserve, 0);
}

/// Seat 0's Stone Singers (Quake Song, charged) flip the tile of seat 2's Leader (2 HP left).
fn quake_on_a_team_mate(state: &mut State) {
    let (a, b) = inner_tile(state);
    put(state, unit(0, 6), a); // Stone Singers: Quake Song, charge 4, range 1
    state.unit_mut(unit(0, 6)).unwrap().innate_charge = 4;
    state.unit_mut(unit(2, 0)).unwrap().tile = Some(b);
    state.unit_mut(unit(2, 0)).unwrap().hp = 2;
    roll(state, &[Face::Shield; 4]);
    decide(state, 0, cast(Source::Innate(6), Target::Tile(b)));
    assert_eq!(state.unit(unit(2, 0)).unwrap().status, Status::Defeated);
}

// R4, l.34: "each player counts up their points based on how many enemy units they defeated";
// l.505: "Points scored at the end of the game are cumulative among teammates". A team-mate's
// Leader killed by one's own Quake Song used to be a trophy: +30 for the team.
#[test]
fn a_team_mates_unit_defeated_by_ones_own_flip_is_no_trophy() {
    let mut state = new_game(&[Variant::TeamPlay], 4);
    quake_on_a_team_mate(&mut state);
    assert!(
        state.players[0].trophies.is_empty(),
        "{:?}",
        state.players[0].trophies
    );
    assert_eq!(state.score(0), state.total_hp(0));
}

// R4, old logs: before edition 1 the team-mate's Leader was seat 0's trophy.
#[test]
fn games_created_before_edition_1_count_a_team_mates_unit_as_a_trophy() {
    let mut state = start_with(&options(&[Variant::TeamPlay]), 4);
    quake_on_a_team_mate(&mut state);
    assert_eq!(
        state.players[0].trophies,
        vec![(crate::rules::gnomes_and_wizards::Tribe::Achrinnolder, 0)]
    );
}

/// Seat 0's Toy Masters (innate Wind-up Rush, charge 3, empty) carry Battle Fury (Learned,
/// charge 4, one crystal on it) and share a tile with their Leader, who holds Crystal Surge
/// (Secret: 3 crystals onto the abilities of an ally on the caster's tile); seat 0 has rolled.
fn crystal_surge_ready(state: &mut State) {
    let (t, _) = inner_tile(state);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(t);
    put(state, unit(0, 1), t);
    {
        let toy = state.unit_mut(unit(0, 1)).unwrap();
        toy.learned = Some(4);
        toy.learned_charge = 1;
    }
    state.players[0].hand = vec![39];
    roll(state, &[Face::Shield; 4]);
}

// R5, l.643: "Power Crystals earned from abilities can be placed onto abilities when the
// ability is cast" and l.361: "they are added to the selected unit immediately" — the
// crystals went on the innate ability first; the player could not fill the Learned one.
#[test]
fn crystals_from_an_ability_fill_the_ability_the_player_chooses_first() {
    let mut state = new_game(&[], 2);
    crystal_surge_ready(&mut state);
    let learned_first = cast(
        Source::Secret(39),
        Target::Crystals {
            unit: unit(0, 1),
            learned: true,
        },
    );
    assert!(
        legal(&state, 0).contains(&cast(
            Source::Secret(39),
            Target::Crystals {
                unit: unit(0, 1),
                learned: false,
            },
        )),
        "both abilities are offered"
    );
    decide(&mut state, 0, learned_first);
    let toy = state.unit(unit(0, 1)).unwrap();
    assert_eq!((toy.learned_charge, toy.innate_charge), (4, 0));
}

// R5, old logs: before edition 1 the cast names the unit and fills the innate ability first.
#[test]
fn games_created_before_edition_1_fill_the_innate_ability_first() {
    let mut state = start(2);
    crystal_surge_ready(&mut state);
    decide(
        &mut state,
        0,
        cast(Source::Secret(39), Target::Unit(unit(0, 1))),
    );
    let toy = state.unit(unit(0, 1)).unwrap();
    assert_eq!((toy.learned_charge, toy.innate_charge), (1, 3));
}

// R1 and hidden information (l.329: Secret abilities are "held in hand until ready to play"):
// whether the turn waits after an ability was filled depends on the charged abilities on the
// board only, never on the Secret hand, or the others would learn what it holds.
#[test]
fn a_secret_card_in_hand_does_not_keep_the_turn_waiting() {
    let mut state = new_game(&[], 2);
    charging_next_to_an_enemy(&mut state);
    // The enemy leaves: Wind-up Rush has no target once charged; Brace (Secret: an ally on
    // the caster's tile gains 2 defense) would still have one.
    let far = state
        .geometry()
        .ids()
        .find(|&t| !state.flipped(t) && Some(t) != state.unit(unit(0, 1)).unwrap().tile)
        .unwrap();
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(far);
    state.players[0].hand = vec![43];
    charge_toy_masters_in_full(&mut state);
    assert_eq!(state.current(), Some(1));
}
