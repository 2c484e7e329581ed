//! Refused actions: who may act, what chance may do, and nothing changes on a refusal.

use super::*;

// The contract: "wrong actor → NotYourDecision, illegal → Illegal, state unchanged".
#[test]
fn only_the_acting_seat_or_chance_may_act() {
    let state = rulebook_table();
    // Red (seat 0) is moving: nobody else may, and chance may not.
    assert_eq!(
        illegal(&state, Actor::Seat(1), Action::EndMovement),
        RuleError::NotYourDecision
    );
    assert_eq!(
        illegal(&state, Actor::Chance, Action::EndMovement),
        RuleError::NotYourDecision
    );
    assert_eq!(
        illegal(&state, Actor::Seat(9), Action::EndMovement),
        RuleError::NotYourDecision
    );
    // A player cannot roll the dice or deal cards.
    assert!(matches!(
        illegal(&state, Actor::Seat(0), Action::Roll(6)),
        RuleError::Illegal(_)
    ));
    // At a chance step, only listed outcomes apply, and only as chance.
    let mut battle = rulebook_table();
    place(&mut battle, Red, FROG, 1);
    place(&mut battle, Green, FROG, 1);
    end_movements(&mut battle);
    assert_eq!(
        illegal(&battle, Actor::Seat(0), Action::Roll(6)),
        RuleError::NotYourDecision
    );
    assert!(matches!(
        illegal(&battle, Actor::Chance, Action::Roll(7)),
        RuleError::Illegal(_)
    ));
    assert_eq!(
        illegal(&battle, Actor::Chance, Action::EndMovement),
        RuleError::NotYourDecision
    );
    assert!(matches!(
        illegal(&battle, Actor::Chance, Action::DealObjective(30)),
        RuleError::Illegal(_)
    ));
}

// "Each player now chooses 3 of the 8 Objectives": not a fourth, and only dealt ones.
#[test]
fn a_clan_keeps_only_dealt_objectives_and_no_more_than_its_number() {
    let mut state = dealt(&Options::default(), 3, &[Red, Green, Blue], Red);
    assert!(matches!(
        illegal(&state, Actor::Seat(0), Action::KeepObjective(5)),
        RuleError::Illegal(reason) if reason.contains("not among the objectives you were dealt")
    ));
    assert!(matches!(
        illegal(&state, Actor::Seat(0), Action::KeepObjective(4242)),
        RuleError::Illegal(_)
    ));
    for id in [0, 1] {
        decide(&mut state, 0, Action::KeepObjective(id));
    }
    assert!(matches!(
        illegal(&state, Actor::Seat(0), Action::KeepObjective(1)),
        RuleError::Illegal(_)
    ));
    decide(&mut state, 0, Action::KeepObjective(2));
    assert_eq!(
        illegal(&state, Actor::Seat(0), Action::KeepObjective(3)),
        RuleError::NotYourDecision
    );
}
