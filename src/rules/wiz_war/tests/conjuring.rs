//! Conjuring: one rule test per card, each quoting the rulebook mechanic its effect follows
//! (shared/rules/wiz-war.md, by line). The card text is ours (CONTENT.md: design the effect
//! from the card's name, type and the rulebook's mechanics).

use super::*;
use crate::rules::wiz_war::board::EdgeKind;
use crate::rules::wiz_war::cards::School;

/// Seat 0 at (0,2) and seat 1 at (3,2) in an open room, seat 0 to act.
fn facing(hand0: &[&str], hand1: &[&str]) -> State {
    let mut state = duel(hand0, hand1);
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    state
}

/// Seat `seat` moves one square by its own move (movement points given).
fn walk(state: &mut State, seat: Seat, d: Dir) {
    state.turn.seat = seat;
    state.turn.movement = 3;
    state.turn.stunned = false;
    super::super::flow::decide(state, seat, &Action::Move(d)).unwrap();
}

// l.140: "Counter spells are cast as a response, and the counter spell's card indicates what
// action or spell to which the card must be played in response." Ward: any spell cast at you.
#[test]
fn ward_cancels_a_spell_cast_at_you() {
    let mut state = facing(&["swap"], &["ward"]);
    decide(&mut state, 0, Action::Cast(card("swap")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(waiting_for(&state), [1], "seat 1 holds Ward");
    decide(&mut state, 1, Action::Counter(card("ward")));
    assert_eq!(state.pos(0), Some(Pos(0, 2)), "the Swap was cancelled");
    assert!(state.discard.contains(&card("swap")) && state.discard.contains(&card("ward")));
    // It does not answer a spell that is not cast at its holder (a Psychic Storm).
    let mut storm = facing(&["psychic_storm"], &["ward"]);
    decide(&mut storm, 0, Action::Cast(card("psychic_storm")));
    assert!(storm.stack.is_empty(), "no window: Ward cannot answer it");
    assert_eq!(life(&storm, 1), 13);
}

// l.309: "Fire: A spell that creates fire in some significant fashion." l.317: "Magic stones
// are destroyed if their wielder suffers fire damage."
#[test]
fn fire_darts_deal_energy_plus_one_fire_damage() {
    let mut state = facing(&["fire_darts", "energy_4"], &[]);
    state.wizards[1].items = vec![card("speedstone")];
    decide(&mut state, 0, Action::Cast(card("fire_darts")));
    decide(&mut state, 0, target_wizard(1));
    decide(&mut state, 0, Action::Boost(card("energy_4")));
    assert_eq!(life(&state, 1), 15 - 5);
    assert!(state.wizards[1].items.is_empty(), "the magic stone burnt");
}

// l.192: "Adjacent: The wizard may play this card only on a target that is in the same square
// as himself or an adjacent square."
#[test]
fn ka_bong_strikes_an_adjacent_wizard_and_stuns_it() {
    let far = facing(&["ka_bong"], &[]);
    assert!(
        !Game::legal_actions(&far, 0).contains(&Action::Cast(card("ka_bong"))),
        "three squares away: no target"
    );
    let mut state = facing(&["ka_bong"], &[]);
    place(&mut state, 1, Pos(1, 2));
    decide(&mut state, 0, Action::Cast(card("ka_bong")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(life(&state, 1), 15 - 3, "energy 1 + 2");
    assert_eq!(state.wizards[1].stun, 1);
}

// l.194: "Within Line of Sight: The wizard can play this card on a target that he can see."
#[test]
fn swap_changes_places_with_a_wizard_in_sight() {
    let mut state = facing(&["swap"], &[]);
    state.wizards[1].treasure = None;
    decide(&mut state, 0, Action::Cast(card("swap")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(
        (state.pos(0), state.pos(1)),
        (Some(Pos(3, 2)), Some(Pos(0, 2)))
    );
    // Not at a wizard out of sight.
    let mut hidden = facing(&["swap"], &[]);
    wall(&mut hidden, Pos(1, 2), Dir::East);
    assert!(!Game::legal_actions(&hidden, 0).contains(&Action::Cast(card("swap"))));
}

// l.307: "Creation: A spell that creates a long-lasting object, normally represented by
// placing a marker on the game board. Creations cannot be created in a home base square."
// l.437: "Objects that are created by a spell only last as long as the spell's duration."
#[test]
fn a_booby_trap_springs_on_the_first_other_wizard() {
    let mut state = facing(&["booby_trap"], &[]);
    decide(&mut state, 0, Action::Cast(card("booby_trap")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(1, 2))));
    assert_eq!(state.objects.len(), 1);
    assert_eq!(state.spells.len(), 1);
    // Its caster walks over it unharmed.
    walk(&mut state, 0, Dir::East);
    walk(&mut state, 0, Dir::East);
    assert_eq!((life(&state, 0), state.objects.len()), (15, 1));
    place(&mut state, 0, Pos(0, 2));
    walk(&mut state, 1, Dir::West);
    assert_eq!(life(&state, 1), 15);
    walk(&mut state, 1, Dir::West);
    assert_eq!(life(&state, 1), 11, "4 damage");
    assert!(
        state.objects.is_empty() && state.spells.is_empty(),
        "sprung"
    );
    // Never in a home base.
    let mut home = facing(&["booby_trap"], &[]);
    decide(&mut home, 0, Action::Cast(card("booby_trap")));
    let h = home.board.home(1).unwrap();
    assert!(!Game::legal_actions(&home, 0).contains(&Action::Target(Target::Square(h))));
}

// l.401: "Doors take three cracks to destroy." l.210: "Door: The card targets a door." A
// created door is the caster's colour: it passes only its own wizard (CONTENT.md: "doors pass
// only their own colour's wizard").
#[test]
fn a_created_door_passes_only_its_caster() {
    let mut state = facing(&["create_door"], &[]);
    decide(&mut state, 0, Action::Cast(card("create_door")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(1, 2))));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(1, 2), Dir::East)),
    );
    assert!(state.may_cross(0, Pos(1, 2), Dir::East));
    assert!(!state.may_cross(1, Pos(2, 2), Dir::West));
    assert!(
        !state.sight_for(1).sees_square(Pos(3, 2), Pos(0, 2)),
        "it blocks sight like a closed door"
    );
    // Three cracks destroy it: 8 damage (2 cracks), then 3 more (1 crack).
    let edge = state.board.edge(Pos(1, 2), Dir::East).unwrap();
    assert_eq!(edge.kind, EdgeKind::Open);
    super::super::effects::damage_line(&mut state, Pos(1, 2), Dir::East, 8);
    assert!(created_at(&state, Pos(1, 2), Dir::East));
    super::super::effects::damage_line(&mut state, Pos(1, 2), Dir::East, 3);
    assert!(!created_at(&state, Pos(1, 2), Dir::East));
    assert!(state.spells.is_empty());
}

// l.234: "Line of sight may be traced through objects, treasures, wizards, and creatures as
// long as their Magic card does not say that they "fill the entire square"."
#[test]
fn a_dust_cloud_fills_its_square() {
    let mut state = facing(&["dust_cloud"], &[]);
    assert!(state.sight_for(0).sees_square(Pos(0, 2), Pos(3, 2)));
    decide(&mut state, 0, Action::Cast(card("dust_cloud")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(1, 2))));
    assert!(!state.sight_for(0).sees_square(Pos(0, 2), Pos(3, 2)));
    assert!(!state.blocks_entry(Pos(1, 2)), "it does not stop movement");
    assert_eq!(
        state.spells[0].tokens, 0,
        "permanent: it lasts while maintained"
    );
}

// l.309: "Curse: An attack with lingering effects on its target." l.255: a temporary spell
// "remains in play for a limited number of turns, usually equal to the spell's energy."
#[test]
fn glue_holds_its_target_while_it_lasts() {
    let mut state = facing(&["glue", "energy_4"], &[]);
    decide(&mut state, 0, Action::Cast(card("glue")));
    decide(&mut state, 0, target_wizard(1));
    decide(&mut state, 0, Action::Boost(card("energy_4")));
    assert_eq!(state.spells[0].tokens, 4);
    state.turn.seat = 1;
    state.turn.movement = 3;
    let moves = |s: &State| {
        Game::legal_actions(s, 1)
            .into_iter()
            .filter(|a| matches!(a, Action::Move(_)))
            .count()
    };
    assert!(state.glued(1));
    assert_eq!(moves(&state), 0, "glued");
    state.spells.clear();
    assert!(moves(&state) > 0);
}

// l.210: "Object: The card targets an inanimate object, such as a Rosebush, wall, or door."
// l.397: "created objects and dropped objects can be attacked if specified on their Magic
// card."
#[test]
fn a_rosebush_blocks_movement_not_sight_and_can_be_cut_down() {
    let mut state = facing(&["rosebush", "fireball"], &[]);
    decide(&mut state, 0, Action::Cast(card("rosebush")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(1, 2))));
    assert!(state.blocks_entry(Pos(1, 2)));
    assert!(state.sight_for(0).sees_square(Pos(0, 2), Pos(3, 2)));
    let id = state.objects[0].id;
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, Action::Target(Target::Object(id)));
    assert!(state.objects.is_empty(), "5 damage: 1 crack of 1");
    assert!(state.spells.is_empty());
}

// l.462: "If a player adds a wall, destroys a wall, creates a thornbush, etc., he must take an
// appropriate marker representing this object and place it where the object was created."
#[test]
fn a_thornbush_hurts_other_wizards_who_enter() {
    let mut state = facing(&["thornbush"], &[]);
    decide(&mut state, 0, Action::Cast(card("thornbush")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(1, 2))));
    assert_eq!(state.objects[0].at, Pos(1, 2));
    walk(&mut state, 0, Dir::East);
    assert_eq!(life(&state, 0), 15, "not its caster");
    walk(&mut state, 1, Dir::West);
    walk(&mut state, 1, Dir::West);
    assert_eq!(life(&state, 1), 13);
    assert_eq!(state.objects.len(), 1, "it stays");
}

// l.369: "A wizard may also drop any of his carried items into his current square at any time
// during his turn." l.351: "Dropped objects are represented by item cards near the game board
// ... Their location is indicated by their object markers on the board."
#[test]
fn dropped_tacks_hurt_whoever_moves_in() {
    let mut state = facing(&["handful_of_tacks"], &[]);
    decide(&mut state, 0, Action::Play(card("handful_of_tacks")));
    walk(&mut state, 0, Dir::East);
    assert_eq!(life(&state, 0), 15, "carried, they do nothing");
    decide(&mut state, 0, Action::Drop(card("handful_of_tacks")));
    assert_eq!(state.objects[0].at, Pos(1, 2));
    walk(&mut state, 0, Dir::East);
    walk(&mut state, 0, Dir::West);
    assert_eq!(life(&state, 0), 14, "even the one who dropped them");
    walk(&mut state, 1, Dir::West);
    assert_eq!(life(&state, 1), 15, "(2,2) has none");
    walk(&mut state, 1, Dir::West);
    assert_eq!(life(&state, 1), 14);
}

// l.42: "the players ... select three other schools of magic"; Conjuring is complete: every
// card of its list has an effect, so it is offered.
#[test]
fn every_conjuring_card_is_implemented() {
    use crate::rules::wiz_war::cards::Effect;
    assert!(School::Conjuring.complete());
    for (key, _) in School::Conjuring.deck() {
        assert_ne!(card(key).effect(), Effect::Later, "{key}");
    }
}

/// Whether the border line on `side` of `square` is a wall or door that a spell created.
fn created_at(state: &State, square: Pos, side: Dir) -> bool {
    let edge = state.board.edge(square, side);
    edge.expect("a border line there").created.is_some()
}
