//! The Declaration, Garrison, Allies, Recruitment and End phases.

use super::super::combat::{Side, force};
use super::super::data::{Role, UnitKind};
use super::*;

/// Ending the turn and asking to stop at the start of the next (ruling 22).
const STOP_NEXT_TURN: Action =
    Action::StopBefore(crate::rules::monsters_and_magic::Stop::Declaration);

/// Gives seat 0 garrisons on the first `n` spaces of `structure` (outside the corners).
fn occupy(state: &mut State, seat: Seat, structure: Structure, n: usize) {
    let spaces: Vec<Pos> = Pos::all()
        .filter(|&p| state.structure(p) == Some(structure) && state.occupant(p).is_none())
        .take(n)
        .collect();
    assert_eq!(spaces.len(), n);
    for p in spaces {
        put_garrison(state, seat, p);
    }
}

/// Ends seat 0's turn 1 and seat 1's turn 2: seat 0's turn 3 begins.
fn next_round(state: &mut State) {
    for _ in 0..2 {
        let spare = spare_cards(state, 2, &[]);
        finish_turn(state, spare[0], spare[1]);
    }
}

// "TURN SEQUENCE … Each turn has 6 Phases: 1. Declaration Phase 2. Garrison Phase 3. Movement
// Phase 4. Allies Phase 5. Recruitment Phase 6. End Phase"
#[test]
fn a_turn_runs_through_the_six_phases() {
    let mut state = game(2);
    put_garrison(&mut state, 0, Pos(2, 2));
    assert!(matches!(state.phase, Phase::Movement));
    decide(&mut state, 0, Action::EndMovement);
    assert!(matches!(state.phase, Phase::Allies));
    let card = spare_cards(&state, 1, &[])[0];
    chance(&mut state, Action::DrawCard(card));
    assert!(matches!(state.phase, Phase::Recruit));
    chance(&mut state, Action::RollDie(3));
    assert!(matches!(state.phase, Phase::RecruitPlace { roll: 3 }));
    decide(
        &mut state,
        0,
        Action::Recruit {
            figure: FigureKind::Hero,
            at: Pos(2, 2),
        },
    );
    assert!(matches!(state.phase, Phase::End));
    decide(&mut state, 0, Action::EndTurn);
    assert_eq!((state.turn, state.current), (2, 1));
    assert!(matches!(state.phase, Phase::Movement));
}

// "If you occupy 5 or more spaces of the same structure type, verbally declare that you
// control this structure type. Occupation can be by Garrisons or Figures."
#[test]
fn five_spaces_of_a_structure_are_declared() {
    let mut state = game(2);
    occupy(&mut state, 0, Structure::Mine, 4);
    let mine = Pos::all()
        .find(|&p| state.structure(p) == Some(Structure::Mine) && state.occupant(p).is_none())
        .unwrap();
    put_figure(&mut state, 0, FigureKind::Army, mine);
    occupy(&mut state, 0, Structure::Ruins, 4);
    next_round(&mut state);
    assert_eq!(state.players[0].declared, vec![Structure::Mine]);
}

// "Declarations do not apply to Towns or Castles."
#[test]
fn towns_and_castles_are_not_declared() {
    let mut state = game(2);
    occupy(&mut state, 0, Structure::Town, 5);
    occupy(&mut state, 0, Structure::Castle, 5);
    next_round(&mut state);
    assert!(state.players[0].declared.is_empty());
}

// "For each space you occupy with a Figure that does not also have a Garrison, place a
// Garrison Marker into it."
#[test]
fn the_garrison_phase_garrisons_every_figure() {
    let mut state = game(2);
    decide(
        &mut state,
        0,
        Action::Move {
            figure: 1,
            to: Pos(1, 1),
        },
    );
    assert_eq!(state.garrison(Pos(1, 1)), None);
    next_round(&mut state);
    assert_eq!(state.garrison(Pos(1, 1)), Some(0));
    assert_eq!(state.garrison(Pos(0, 0)), Some(0));
    assert_eq!(state.garrisons_on_map(0), 2);
}

fn declared_force(structure: Structure, unit: UnitKind) -> i32 {
    let mut state = game(2);
    state.players[0].declared = vec![structure];
    let side = Side {
        seat: 0,
        unit,
        figure: None,
        role: Role::Attacking,
        at: Pos(3, 3),
        vs: UnitKind::Hero,
    };
    force(&state, &side)
}

// "RUINS If you control 5 or more Ruins your Monsters get +2 Force."
#[test]
fn ruins_give_monsters_plus_two() {
    assert_eq!(declared_force(Structure::Ruins, UnitKind::Monster), 2);
    assert_eq!(declared_force(Structure::Ruins, UnitKind::Hero), 0);
}

// "MINES If you control 5 or more Mines your Heroes and Armies get +1 Force."
#[test]
fn mines_give_heroes_and_armies_plus_one() {
    assert_eq!(declared_force(Structure::Mine, UnitKind::Hero), 1);
    assert_eq!(declared_force(Structure::Mine, UnitKind::Army), 1);
    assert_eq!(declared_force(Structure::Mine, UnitKind::Mage), 0);
}

// "TOWERS If you control 5 or more Towers your Mages get +2 Force."
#[test]
fn towers_give_mages_plus_two() {
    assert_eq!(declared_force(Structure::Tower, UnitKind::Mage), 2);
    assert_eq!(declared_force(Structure::Tower, UnitKind::Monster), 0);
}

// "DECLARATION PHASE / If you occupy 5 or more spaces of the same structure type, verbally
// declare that you control this structure type." (l.116-118) Ruling 8 (review gap 5): control
// of a type is what the Declaration phase declares, so a 5th Mine taken later in the turn
// counts from the next Declaration phase, and a declaration holds until then (here, to defend
// in the other player's turn) even after the Mines are lost.
#[test]
fn a_declaration_holds_from_one_declaration_phase_to_the_next() {
    let mut state = game(2);
    // Seat 0 is in its Movement phase: five Mines now are not declared yet.
    occupy(&mut state, 0, Structure::Mine, 5);
    assert!(state.players[0].declared.is_empty());
    next_round(&mut state);
    assert_eq!(state.players[0].declared, vec![Structure::Mine]);
    // Seat 0 loses every Mine; in seat 1's turn its Heroes still defend with the +1.
    for p in Pos::all() {
        if state.structure(p) == Some(Structure::Mine) {
            state.space_mut(p).unwrap().garrison = None;
        }
    }
    let spare = spare_cards(&state, 2, &[]);
    finish_turn(&mut state, spare[0], spare[1]);
    assert_eq!(state.current, 1);
    assert_eq!(state.players[0].declared, vec![Structure::Mine]);
    let defender = Side {
        seat: 0,
        unit: UnitKind::Hero,
        figure: None,
        role: Role::Defending,
        at: Pos(3, 3),
        vs: UnitKind::Army,
    };
    let mut undeclared = state.clone();
    undeclared.players[0].declared.clear();
    assert_eq!(force(&state, &defender), force(&undeclared, &defender) + 1);
    // Seat 0's next Declaration phase no longer declares them.
    let spare = spare_cards(&state, 2, &[]);
    finish_turn(&mut state, spare[0], spare[1]);
    assert_eq!(state.current, 0);
    assert!(state.players[0].declared.is_empty());
}

// "ALLIES PHASE Draw 1 card from the Ally Deck and put it in your hand."
#[test]
fn the_allies_phase_draws_one_card() {
    let mut state = game(2);
    decide(&mut state, 0, Action::EndMovement);
    let draw = outcomes(&state);
    assert_eq!(draw.len(), state.deck.len());
    assert!(
        draw.iter()
            .all(|(a, w)| matches!(a, Action::DrawCard(_)) && *w == 1)
    );
    chance(&mut state, Action::DrawCard(id("Oracle")));
    assert_eq!(state.players[0].hand, vec![id("Oracle")]);
    assert!(matches!(state.phase, Phase::Recruit));
}

// "CITIES If you control 5 or more Cities you get to draw 1 extra card in Allies Phase."
#[test]
fn five_cities_draw_an_extra_card() {
    let mut state = game(2);
    occupy(&mut state, 0, Structure::City, 5);
    next_round(&mut state);
    assert_eq!(state.players[0].declared, vec![Structure::City]);
    decide(&mut state, 0, Action::EndMovement);
    let cards = spare_cards(&state, 2, &[]);
    chance(&mut state, Action::DrawCard(cards[0]));
    assert!(matches!(state.phase, Phase::Allies));
    chance(&mut state, Action::DrawCard(cards[1]));
    assert!(matches!(state.phase, Phase::Recruit));
}

fn recruit_roll(die: u8) -> State {
    let mut state = game(2);
    put_garrison(&mut state, 0, Pos(2, 2));
    decide(&mut state, 0, Action::EndMovement);
    let card = spare_cards(&state, 1, &[])[0];
    chance(&mut state, Action::DrawCard(card));
    chance(&mut state, Action::RollDie(die));
    state
}

fn recruits(state: &State) -> Vec<FigureKind> {
    let mut kinds: Vec<FigureKind> = legal(state, 0)
        .into_iter()
        .filter_map(|a| match a {
            Action::Recruit { figure, .. } => Some(figure),
            _ => None,
        })
        .collect();
    kinds.dedup();
    kinds
}

// "1 Draw 1 Ally Card and add it to your hand"
#[test]
fn a_recruit_roll_of_one_draws_a_card() {
    let mut state = recruit_roll(1);
    assert!(is_chance(&state));
    let card = spare_cards(&state, 1, &[])[0];
    chance(&mut state, Action::DrawCard(card));
    assert_eq!(state.players[0].hand.len(), 2);
    assert!(matches!(state.phase, Phase::End));
}

// "2 Gain 1 Army 3 Gain 1 Hero 4 Gain 1 Mage 5 Gain 1 Monster"
#[test]
fn recruit_rolls_two_to_five_gain_their_figure() {
    for (die, kind) in [
        (2, FigureKind::Army),
        (3, FigureKind::Hero),
        (4, FigureKind::Mage),
        (5, FigureKind::Monster),
    ] {
        let state = recruit_roll(die);
        assert_eq!(recruits(&state), vec![kind], "roll {die}");
    }
}

// "6+ Gain 1 Figure of your Choice"
#[test]
fn a_recruit_roll_of_six_gains_any_figure() {
    let state = recruit_roll(6);
    assert_eq!(recruits(&state), FigureKind::ALL.to_vec());
}

// "VILLAGES If you control 5 or more Villages you get +1 to your Recruit Roll."
#[test]
fn five_villages_add_one_to_the_recruit_roll() {
    let mut state = game(2);
    occupy(&mut state, 0, Structure::Village, 4);
    put_garrison(&mut state, 0, Pos(2, 2));
    next_round(&mut state);
    assert_eq!(state.players[0].declared, vec![Structure::Village]);
    decide(&mut state, 0, Action::EndMovement);
    let card = spare_cards(&state, 1, &[])[0];
    chance(&mut state, Action::DrawCard(card));
    chance(&mut state, Action::RollDie(1));
    assert_eq!(recruits(&state), vec![FigureKind::Army]);
    assert!(matches!(state.phase, Phase::RecruitPlace { roll: 2 }));
}

// "Place the new Figure onto any garrison space you control that does not already have a
// Figure on it."
#[test]
fn recruits_go_on_your_garrisons_without_a_figure() {
    let mut state = game(2);
    put_garrison(&mut state, 0, Pos(4, 4));
    put_garrison(&mut state, 0, Pos(5, 5));
    put_figure(&mut state, 0, FigureKind::Mage, Pos(5, 5));
    decide(&mut state, 0, Action::EndMovement);
    let card = spare_cards(&state, 1, &[])[0];
    chance(&mut state, Action::DrawCard(card));
    chance(&mut state, Action::RollDie(2));
    let recruits: Vec<Action> = legal(&state, 0)
        .into_iter()
        .filter(|a| matches!(a, Action::Recruit { .. }))
        .collect();
    assert_eq!(
        recruits,
        vec![Action::Recruit {
            figure: FigureKind::Army,
            at: Pos(4, 4)
        }]
    );
    decide(
        &mut state,
        0,
        Action::Recruit {
            figure: FigureKind::Army,
            at: Pos(4, 4),
        },
    );
    assert_eq!(figure_at(&state, Pos(4, 4)).unwrap().kind, FigureKind::Army);
    assert!(matches!(state.phase, Phase::End));
}

// "The maximum number of Figures of a single type you can have on the map is 4. If you have 4
// already in play, you get nothing."
#[test]
fn four_of_a_type_is_the_cap() {
    let mut state = game(2);
    for x in 2..5 {
        put_figure(&mut state, 0, FigureKind::Hero, Pos(x, 4));
    }
    put_garrison(&mut state, 0, Pos(6, 6));
    decide(&mut state, 0, Action::EndMovement);
    let card = spare_cards(&state, 1, &[])[0];
    chance(&mut state, Action::DrawCard(card));
    chance(&mut state, Action::RollDie(3));
    assert!(matches!(state.phase, Phase::End));
    assert_eq!(legal(&state, 0), vec![Action::EndTurn, STOP_NEXT_TURN]);
}

// "END PHASE Max hand size is 5 cards. Discard excess cards."
#[test]
fn the_end_phase_discards_down_to_five() {
    let mut state = game(2);
    for c in spare_cards(&state, 6, &[]) {
        give(&mut state, 0, c);
    }
    decide(&mut state, 0, Action::EndMovement);
    let cards = spare_cards(&state, 2, &[]);
    chance(&mut state, Action::DrawCard(cards[0]));
    chance(&mut state, Action::RollDie(1));
    chance(&mut state, Action::DrawCard(cards[1]));
    assert_eq!(state.players[0].hand.len(), 8);
    assert!(!legal(&state, 0).contains(&Action::EndTurn));
    let err = illegal(&state, 0, Action::EndTurn);
    assert!(err.to_string().contains("discard"), "{err}");
    for _ in 0..3 {
        let c = state.players[0].hand[0];
        decide(&mut state, 0, Action::Discard(c));
    }
    assert_eq!(state.players[0].hand.len(), 5);
    decide(&mut state, 0, Action::EndTurn);
    assert_eq!(state.current, 1);
}

// "THE OPTIONAL REALIGNMENT RULE In End Phase you may discard 1 of your permanent cards and
// replace it with a card from your hand." — the old permanent card is discarded, not taken
// into the hand (review B1).
#[test]
fn realignment_discards_the_old_permanent_card_for_a_hand_card_when_on() {
    let mut state = game_with(
        Options {
            realignment: true,
            permanent_cards: 0,
            ..Options::default()
        },
        2,
    );
    give_permanent(&mut state, 0, id("Wings"));
    decide(&mut state, 0, Action::EndMovement);
    chance(&mut state, Action::DrawCard(id("Paladin")));
    chance(&mut state, Action::RollDie(3));
    assert!(matches!(state.phase, Phase::End));
    let realign = Action::Realign {
        permanent: id("Wings"),
        hand: id("Paladin"),
    };
    assert_eq!(
        legal(&state, 0),
        vec![realign.clone(), Action::EndTurn, STOP_NEXT_TURN]
    );
    decide(&mut state, 0, realign);
    assert_eq!(state.players[0].permanent, vec![id("Paladin")]);
    assert_eq!(state.players[0].hand, Vec::<CardId>::new());
    assert_eq!(state.discard.last(), Some(&id("Wings")));
    // Once per End phase.
    assert_eq!(legal(&state, 0), vec![Action::EndTurn, STOP_NEXT_TURN]);
}

// The rule is optional: off by default.
#[test]
fn realignment_is_off_by_default() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Wings"));
    decide(&mut state, 0, Action::EndMovement);
    chance(&mut state, Action::DrawCard(id("Paladin")));
    chance(&mut state, Action::RollDie(1));
    chance(&mut state, Action::DrawCard(id("Giants")));
    assert_eq!(legal(&state, 0), vec![Action::EndTurn, STOP_NEXT_TURN]);
    let err = illegal(
        &state,
        0,
        Action::Realign {
            permanent: id("Wings"),
            hand: id("Paladin"),
        },
    );
    assert!(err.to_string().contains("Realignment"), "{err}");
}
