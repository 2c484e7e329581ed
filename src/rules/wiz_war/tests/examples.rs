//! The rulebook's examples and card clarifications.

use super::*;
use crate::rules::wiz_war::effects::cracks;

// "There are two possible ways that the spell can bend around the corner: 1 The spell can bend
// around the corner 90° and hit the blue wizard. 2 The spell can bend around the corner 180°
// and hit the green wizard."
#[test]
fn around_the_corner_bends_90_and_180_degrees() {
    // A wall stub south of the caster's row: x 0..=2 between rows 0 and 1.
    let build = |target: Pos| {
        let mut state = duel(&["around_the_corner", "fireball"], &[]);
        for x in 0..3 {
            wall(&mut state, Pos(x, 0), Dir::South);
        }
        place(&mut state, 0, Pos(0, 0));
        place(&mut state, 1, target);
        state
    };
    // 90 degrees: east along row 0, then south down column 3.
    // 180 degrees: east along row 0, a step south past the stub's end, then back west.
    for target in [Pos(3, 3), Pos(0, 1)] {
        let mut state = build(target);
        let sight = state.sight_for(0);
        assert!(
            !sight.sees_square(Pos(0, 0), target),
            "no straight sight to {target:?}"
        );
        decide(&mut state, 0, Action::Cast(card("fireball")));
        decide(&mut state, 0, target_wizard(1));
        assert_eq!(life(&state, 1), 10, "Fireball bent to {target:?}");
        assert!(state.discard.contains(&card("around_the_corner")));
        assert!(state.wizards[0].hand.is_empty());
    }
    // Without Around the Corner, the hidden wizard is no target.
    let mut state = build(Pos(3, 3));
    give(&mut state, 0, &["fireball"]);
    decide(&mut state, 0, Action::Cast(card("fireball")));
    assert!(!Game::legal_actions(&state, 0).contains(&target_wizard(1)));
}

// "Waterbolt: If the target is in your square, you choose which direction to knock it back.
// The target cannot be knocked back around a corner."
#[test]
fn waterbolt_knocks_back_in_a_straight_line_and_stops_at_a_wall() {
    let mut state = duel(&["waterbolt"], &[]);
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    decide(&mut state, 0, Action::Cast(card("waterbolt")));
    decide(&mut state, 0, target_wizard(1));
    // Energy 1: knocked back 2 squares east, 1 damage.
    assert_eq!(state.wizards[1].at, Some(Pos(5, 2)));
    assert_eq!(life(&state, 1), 14);

    let mut state = duel(&["waterbolt"], &[]);
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    wall(&mut state, Pos(4, 2), Dir::East);
    decide(&mut state, 0, Action::Cast(card("waterbolt")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(state.wizards[1].at, Some(Pos(4, 2)), "stopped by the wall");

    // In the caster's square: the caster chooses the direction.
    let mut state = duel(&["waterbolt"], &[]);
    place(&mut state, 0, Pos(2, 2));
    place(&mut state, 1, Pos(2, 2));
    decide(&mut state, 0, Action::Cast(card("waterbolt")));
    let legal = Game::legal_actions(&state, 0);
    for d in Dir::ALL {
        assert!(legal.contains(&Action::Target(Target::WizardToward(1, d))));
    }
    decide(
        &mut state,
        0,
        Action::Target(Target::WizardToward(1, Dir::North)),
    );
    assert_eq!(state.wizards[1].at, Some(Pos(2, 0)));
}

// "Lightning Bolt would reverse direction after hitting the wall."
#[test]
fn lightning_bolt_turns_back_at_a_wall() {
    let mut state = duel(&["lightning_bolt"], &[]);
    place(&mut state, 0, Pos(2, 2));
    place(&mut state, 1, Pos(3, 2));
    wall(&mut state, Pos(4, 2), Dir::East);
    decide(&mut state, 0, Action::Cast(card("lightning_bolt")));
    decide(&mut state, 0, Action::Target(Target::Direction(Dir::East)));
    // 6 squares: (3,2) hit, (4,2), back: (3,2) hit again, (2,2), (1,2), (0,2).
    assert_eq!(life(&state, 1), 9, "3 damage per pass, two passes");
    assert_eq!(state.wizards[1].stun, 1, "one stun token");
    assert_eq!(
        life(&state, 0),
        15,
        "the caster is not hurt by its own bolt"
    );
}

// "Wall of Earth is immune to damage, and it blocks both line of sight and movement. Thus ...
// Fireball would strike the wall and have no effect, and Lightning Bolt would reverse
// direction after hitting the wall."
#[test]
fn wall_of_earth_stops_fireball_and_line_of_sight() {
    let mut state = duel(&["wall_of_earth", "fireball", "lightning_bolt"], &[]);
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    assert!(state.sight_for(0).sees_square(Pos(0, 2), Pos(3, 2)));
    decide(&mut state, 0, Action::Cast(card("wall_of_earth")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(1, 2))));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(1, 2), Dir::East)),
    );
    assert!(
        state
            .board
            .edge(Pos(1, 2), Dir::East)
            .unwrap()
            .created
            .is_some()
    );
    assert!(
        !state.sight_for(0).sees_square(Pos(0, 2), Pos(3, 2)),
        "sight blocked"
    );
    assert!(
        !state.may_cross(1, Pos(2, 2), Dir::West),
        "movement blocked"
    );

    // Fireball: the blue wizard is no target; the wall is, and takes nothing.
    let mut fire = state.clone();
    decide(&mut fire, 0, Action::Cast(card("fireball")));
    assert!(!Game::legal_actions(&fire, 0).contains(&target_wizard(1)));
    decide(&mut fire, 0, Action::Target(Target::Square(Pos(1, 2))));
    decide(
        &mut fire,
        0,
        Action::Target(Target::Side(Pos(1, 2), Dir::East)),
    );
    let e = fire.board.edge(Pos(1, 2), Dir::East).unwrap();
    assert!(e.created.is_some_and(|c| c.cracks == 0));
    assert_eq!(life(&fire, 1), 15);

    // Lightning Bolt turns back off it: 6 squares from (0,2) heading east.
    let mut bolt = state.clone();
    place(&mut bolt, 1, Pos(1, 2));
    decide(&mut bolt, 0, Action::Cast(card("lightning_bolt")));
    decide(&mut bolt, 0, Action::Target(Target::Direction(Dir::East)));
    // Between the wall of earth and the outer wall the bolt bounces for its 6 squares:
    // (1,2) hit, (0,2), (1,2) hit, (0,2), (1,2) hit, (0,2).
    assert_eq!(life(&bolt, 1), 6, "hit on every pass");
}

// "Featherweight: If the attack originates in your square, you choose which direction to move."
#[test]
fn featherweight_floats_away_from_the_attack() {
    let mut state = duel(&["fireball"], &["featherweight"]);
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(waiting_for(&state), vec![1], "the target may answer");
    decide(&mut state, 1, Action::Counter(card("featherweight")));
    assert_eq!(life(&state, 1), 15, "no damage");
    assert_eq!(
        state.wizards[1].at,
        Some(Pos(5, 2)),
        "drifted 2 squares away"
    );
    assert!(state.discard.contains(&card("fireball")));

    let mut state = duel(&["fireball"], &["featherweight"]);
    place(&mut state, 0, Pos(2, 2));
    place(&mut state, 1, Pos(2, 2));
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, target_wizard(1));
    let legal = Game::legal_actions(&state, 1);
    assert!(!legal.contains(&Action::Counter(card("featherweight"))));
    decide(
        &mut state,
        1,
        Action::CounterToward(card("featherweight"), Dir::South),
    );
    assert_eq!(state.wizards[1].at, Some(Pos(2, 4)));
}

// "When time passes for Matt this turn, "Acid Bath" deals 2 damage to the spell's target (as
// directed by the card), and Matt removes one of the energy tokens from the "Acid Bath" card,
// indicating that it will only last for three more turns."
#[test]
fn acid_bath_counts_down_its_energy_tokens() {
    let mut state = duel(&["acid_bath", "energy_4"], &[]);
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    decide(&mut state, 0, Action::Cast(card("acid_bath")));
    decide(&mut state, 0, target_wizard(1));
    decide(&mut state, 0, Action::Boost(card("energy_4")));
    let spell = state.spells[0].clone();
    assert_eq!((spell.energy, spell.tokens), (4, 4));
    assert!(
        state.discard.contains(&card("energy_4")),
        "the energy card is discarded"
    );
    assert_eq!(
        state.hand_total(0),
        1,
        "the maintained spell counts toward the hand"
    );
    decide(&mut state, 0, Action::EndMove);
    decide(&mut state, 0, Action::EndTurn);
    decide(&mut state, 1, Action::EndMove);
    decide(&mut state, 1, Action::EndTurn);
    assert_eq!(life(&state, 1), 13, "2 damage when time passes");
    assert_eq!(state.spells[0].tokens, 3, "three more turns");
    // Three more of Matt's turns: 2 damage each, and the spell is discarded.
    for _ in 0..3 {
        decide(&mut state, 0, Action::EndMove);
        decide(&mut state, 0, Action::EndTurn);
        decide(&mut state, 1, Action::EndMove);
        decide(&mut state, 1, Action::EndTurn);
    }
    assert_eq!(life(&state, 1), 7);
    assert!(state.spells.is_empty());
    assert!(state.discard.contains(&card("acid_bath")));
}

// "1 A player casts "Stone Spikes" and discards a "5" energy card to boost it. 2 The player
// places five energy tokens on the card to indicate the spell's energy."
#[test]
fn stone_spikes_boosted_by_energy_5_get_five_tokens() {
    let mut state = duel(&["stone_spikes", "energy_5"], &[]);
    place(&mut state, 0, Pos(0, 2));
    decide(&mut state, 0, Action::Cast(card("stone_spikes")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(0, 3))));
    decide(&mut state, 0, Action::Boost(card("energy_5")));
    assert_eq!((state.spells[0].energy, state.spells[0].tokens), (5, 5));
    assert!(state.objects.iter().any(|o| o.at == Pos(0, 3)));
    // A wizard who enters the square takes 3 damage.
    state.turn.seat = 1;
    state.turn.movement = 3;
    place(&mut state, 1, Pos(0, 4));
    super::super::flow::decide(&mut state, 1, &Action::Move(Dir::North)).unwrap();
    assert_eq!(life(&state, 1), 12);
}

// "Thus, dealing 7 damage to an object would inflict two cracks to it, while dealing 9 damage
// would inflict three cracks."
#[test]
fn crack_arithmetic() {
    assert_eq!(cracks(7), 2);
    assert_eq!(cracks(9), 3);
    assert_eq!(cracks(2), 0, "less than 3 damage has no effect");
    assert_eq!(cracks(5), 1);
}

// "The green wizard casts "Fireball" at a stone wall. It suffers 5 damage and takes a crack."
// "Stone walls take five cracks to destroy. Doors take three cracks to destroy."
#[test]
fn fireball_cracks_walls_and_doors() {
    let mut state = duel(&["fireball", "energy_5"], &[]);
    place(&mut state, 0, Pos(0, 2));
    wall(&mut state, Pos(0, 2), Dir::East);
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(0, 2))));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(0, 2), Dir::East)),
    );
    decide(&mut state, 0, Action::NoBoost);
    assert_eq!(state.board.edge(Pos(0, 2), Dir::East).unwrap().cracks, 1);
    // Boosted to 9 damage: 3 more cracks (4 of 5).
    state.turn.attacked = false;
    give(&mut state, 0, &["fireball", "energy_5"]);
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(0, 2))));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(0, 2), Dir::East)),
    );
    decide(&mut state, 0, Action::Boost(card("energy_5")));
    assert_eq!(state.board.edge(Pos(0, 2), Dir::East).unwrap().cracks, 4);
    // A door falls at 3 cracks.
    let mut door = duel(&["fireball", "energy_5"], &[]);
    place(&mut door, 0, Pos(0, 2));
    door.board.edge_mut(Pos(0, 2), Dir::East).unwrap().kind =
        super::super::board::EdgeKind::Door(1);
    decide(&mut door, 0, Action::Cast(card("fireball")));
    decide(&mut door, 0, Action::Target(Target::Square(Pos(0, 2))));
    decide(
        &mut door,
        0,
        Action::Target(Target::Side(Pos(0, 2), Dir::East)),
    );
    decide(&mut door, 0, Action::Boost(card("energy_5")));
    assert!(door.board.edge(Pos(0, 2), Dir::East).unwrap().destroyed);
}

// "Note: The energy card's value replaces the spell's default energy of "1"; it does not add to
// it."
#[test]
fn a_boost_replaces_the_default_energy() {
    let mut state = duel(&["mental_force", "energy_4"], &[]);
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    decide(&mut state, 0, Action::Cast(card("mental_force")));
    decide(&mut state, 0, target_wizard(1));
    decide(&mut state, 0, Action::Boost(card("energy_4")));
    assert_eq!(life(&state, 1), 15 - 6, "energy 4 + 2, not 1 + 4 + 2");
}

// "created objects and dropped objects can be attacked if specified on their Magic card";
// CONTENT: "Stone Block takes 8 cracks".
#[test]
fn a_stone_block_takes_eight_cracks() {
    let mut state = duel(&["stone_block", "fireball", "energy_6"], &[]);
    place(&mut state, 0, Pos(0, 2));
    decide(&mut state, 0, Action::Cast(card("stone_block")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(3, 2))));
    decide(&mut state, 0, Action::NoBoost);
    let id = state.objects[0].id;
    assert!(
        !state.sight_for(0).sees_square(Pos(0, 2), Pos(4, 2)),
        "it fills the square"
    );
    assert!(!state.may_cross(0, Pos(2, 2), Dir::East) || state.blocks_entry(Pos(3, 2)));
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, Action::Target(Target::Object(id)));
    decide(&mut state, 0, Action::Boost(card("energy_6")));
    assert_eq!(state.objects[0].cracks, 3, "10 damage: 3 cracks of 8");
}
