//! Counter spells and reaction windows.

use super::*;

/// A 3-player open room: seat 0 at (0,2) to act, seats 1 and 2 in its sight.
fn table(options: &Options, hands: [&[&str]; 3]) -> State {
    let mut state = start(3, options);
    open_room(&mut state);
    for (s, h) in hands.iter().enumerate() {
        give(&mut state, s, h);
    }
    state.turn.first = false;
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    place(&mut state, 2, Pos(0, 4));
    state
}

// "Counter spells are the only spells that may be played during another player's turn. Counter
// spells are cast as a response". Ruling: by default a window asks, one at a time in turn order,
// only the wizards holding a counter that can answer.
#[test]
fn a_window_asks_only_wizards_who_can_answer() {
    let mut state = table(&quiet(), [&["fireball"], &[], &["zot"]]);
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(waiting_for(&state), vec![2], "only the Zot holder is asked");
    assert_eq!(
        Game::legal_actions(&state, 2),
        vec![Action::Counter(card("zot")), Action::Pass]
    );
    assert!(Game::legal_actions(&state, 0).is_empty());
    decide(&mut state, 2, Action::Pass);
    assert_eq!(life(&state, 1), 10, "no counter: the Fireball hits");
    assert_eq!(waiting_for(&state), vec![0], "back to the caster's turn");

    // Nobody holds a counter: no window at all.
    let mut state = table(&quiet(), [&["fireball"], &[], &[]]);
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(life(&state, 1), 10);
}

// The option "ask_every_affected_wizard": every other living wizard is asked, in turn order
// from the caster's left, so a window reveals nothing about hands.
#[test]
fn the_option_asks_every_wizard_in_turn_order() {
    let options = Options {
        ask_every_affected_wizard: true,
        ..Options::default()
    };
    let mut state = table(&options, [&["fireball"], &[], &[]]);
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(waiting_for(&state), vec![1]);
    assert_eq!(Game::legal_actions(&state, 1), vec![Action::Pass]);
    decide(&mut state, 1, Action::Pass);
    assert_eq!(waiting_for(&state), vec![2]);
    decide(&mut state, 2, Action::Pass);
    assert_eq!(life(&state, 1), 10);
}

// "Full Shield": a counter to an attack spell cast at you; "the counter spell's card indicates
// what action or spell to which the card must be played in response."
#[test]
fn full_shield_cancels_an_attack_on_you_only() {
    let mut state = table(&quiet(), [&["fireball"], &[], &["full_shield"]]);
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(
        life(&state, 1),
        10,
        "seat 2's Full Shield cannot protect seat 1"
    );

    let mut state = table(&quiet(), [&["fireball"], &["full_shield"], &[]]);
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, target_wizard(1));
    decide(&mut state, 1, Action::Counter(card("full_shield")));
    assert_eq!(life(&state, 1), 15);
    assert!(state.discard.contains(&card("fireball")));
    assert!(state.discard.contains(&card("full_shield")));
    assert!(state.turn.attacked, "the attack was made, and cancelled");
}

// A counter spell is a spell too: it can be answered by Zot, and the first window goes on.
#[test]
fn zot_answers_a_counter_and_the_window_goes_on() {
    let mut state = table(&quiet(), [&["fireball", "zot"], &["full_shield"], &["zot"]]);
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(waiting_for(&state), vec![1]);
    decide(&mut state, 1, Action::Counter(card("full_shield")));
    // The window on Full Shield: seat 2 first, then the active seat 0.
    assert_eq!(waiting_for(&state), vec![2]);
    decide(&mut state, 2, Action::Pass);
    assert_eq!(waiting_for(&state), vec![0]);
    decide(&mut state, 0, Action::Counter(card("zot")));
    // Zot on Full Shield: only seat 2 may still answer (seat 1 holds nothing now).
    assert_eq!(waiting_for(&state), vec![2]);
    decide(&mut state, 2, Action::Pass);
    // Full Shield is cancelled; the Fireball's window goes on with seat 2, who passed on the
    // Full Shield but not yet on the Fireball.
    assert_eq!(waiting_for(&state), vec![2]);
    decide(&mut state, 2, Action::Pass);
    assert_eq!(life(&state, 1), 10, "the Fireball hits after all");
}

// "Negate Neutral" answers neutral spells; "Absorb Spell" takes the card.
#[test]
fn negate_neutral_and_absorb_spell() {
    let mut state = table(&quiet(), [&["teleport"], &["negate_neutral"], &[]]);
    decide(&mut state, 0, Action::Cast(card("teleport")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(1, 2))));
    decide(&mut state, 1, Action::Counter(card("negate_neutral")));
    assert_eq!(
        state.wizards[0].at,
        Some(Pos(0, 2)),
        "the teleport was negated"
    );

    let mut state = table(&quiet(), [&["mental_force"], &["absorb_spell"], &[]]);
    decide(&mut state, 0, Action::Cast(card("mental_force")));
    decide(&mut state, 0, target_wizard(1));
    decide(&mut state, 1, Action::Counter(card("absorb_spell")));
    assert_eq!(life(&state, 1), 15);
    assert_eq!(state.wizards[1].hand, vec![card("mental_force")]);
}

// "Mundane: A non-magical action. Mundane actions cannot be countered."
#[test]
fn punches_and_thrown_items_open_no_window() {
    let mut state = table(&quiet(), [&["zot"], &["zot"], &["zot"]]);
    state.wizards[0].items = vec![card("large_rock")];
    decide(&mut state, 0, Action::Throw(card("large_rock")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(life(&state, 1), 12, "Large Rock: 3 damage");
    assert!(
        state
            .objects
            .iter()
            .any(|o| o.card == card("large_rock") && o.at == Pos(3, 2))
    );
    assert_eq!(waiting_for(&state), vec![0]);
}

// "Players may look at their cards, but must keep them secret." A spell that uses its energy
// asks for it even from a hand without energy cards: committing it at once would tell the
// table that the hand holds none (docs/rules/wiz-war.md, "Turns", the energy step).
#[test]
fn the_energy_step_is_asked_without_energy_cards_too() {
    for hand in [&["fireball"][..], &["fireball", "energy_5"][..]] {
        let mut state = duel(hand, &[]);
        place(&mut state, 0, Pos(0, 2));
        place(&mut state, 1, Pos(3, 2));
        for action in [
            Action::Cast(card("fireball")),
            Action::Target(Target::Wizard(1)),
        ] {
            Game::apply(&mut state, Actor::Seat(0), &action).unwrap();
        }
        assert_eq!(waiting_for(&state), vec![0], "hand {hand:?}");
        assert!(
            Game::legal_actions(&state, 0).ends_with(&[Action::NoBoost, Action::CancelCast]),
            "hand {hand:?}"
        );
    }
}
