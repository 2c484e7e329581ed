//! Thaumaturgy: one rule test per card, each quoting the card text (ours: CONTENT.md gives only
//! the names) and the rulebook sentence its effect follows (shared/rules/wiz-war.md, by line).

use super::*;
use crate::rules::Viewer;
use crate::rules::wiz_war::board::EdgeKind;
use crate::rules::wiz_war::cards::{Effect, School};
use crate::rules::wiz_war::{changes, flow};

fn legal(state: &State, seat: Seat, action: &Action) -> bool {
    Game::legal_actions(state, seat).contains(action)
}

/// Puts a door of `colour` (a seat's) on side `d` of `p`.
fn door(state: &mut State, p: Pos, d: Dir, colour: usize) {
    let e = state.board.edge_mut(p, d).unwrap();
    e.kind = EdgeKind::Door(colour);
    e.destroyed = false;
}

// Anti-Anti: "Counter. Play when any wizard casts a counter spell: it is cancelled, and the
// spell it answered goes on." l.140: "Counter spells are cast as a response, and the counter
// spell's card indicates what action or spell to which the card must be played in response."
#[test]
fn anti_anti_cancels_a_counter_spell_and_the_attack_goes_on() {
    let mut state = facing(&["fire_darts", "anti_anti"], &["full_shield"]);
    decide(&mut state, 0, Action::Cast(card("fire_darts")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(waiting_for(&state), [1]);
    assert!(
        !legal(&state, 0, &Action::Counter(card("anti_anti"))),
        "not an answer to a spell that is no counter"
    );
    decide(&mut state, 1, Action::Counter(card("full_shield")));
    assert_eq!(
        waiting_for(&state),
        [0],
        "the caster may answer the Full Shield"
    );
    decide(&mut state, 0, Action::Counter(card("anti_anti")));
    assert!(state.stack.is_empty());
    assert_eq!(life(&state, 1), 13, "the Fire Darts went on: 2 damage");
    for c in ["full_shield", "anti_anti", "fire_darts"] {
        assert!(state.discard.contains(&card(c)), "{c} is discarded");
    }
}

// Backlash: "Counter. Play when an attack spell is cast at you: it is cancelled, and the
// backlash strikes its caster for 3 damage." l.140 (counter spells answer what their card
// names); l.488: a victory point "when he reduces another wizard's life total to "0" or less
// with an attack" (ruling 30.2: from edition 1 a backlash, a counter spell, is no attack).
#[test]
fn backlash_cancels_an_attack_and_strikes_its_caster() {
    let mut state = facing(&["fire_darts"], &["backlash"]);
    decide(&mut state, 0, Action::Cast(card("fire_darts")));
    decide(&mut state, 0, target_wizard(1));
    decide(&mut state, 1, Action::Counter(card("backlash")));
    assert_eq!((life(&state, 0), life(&state, 1)), (12, 15));
    // It answers only attacks cast at its holder: not a neutral spell.
    let mut neutral = facing(&["gravity"], &["backlash"]);
    decide(&mut neutral, 0, Action::Cast(card("gravity")));
    decide(&mut neutral, 0, target_wizard(1));
    assert!(neutral.stack.is_empty(), "nobody could answer Gravity");
    // A backlash that kills scores nobody (edition 1; tests/audit.rs checks edition 0's point).
    let mut deadly = facing(&["fire_darts"], &["backlash"]);
    deadly.wizards[0].life = 3;
    decide(&mut deadly, 0, Action::Cast(card("fire_darts")));
    decide(&mut deadly, 0, target_wizard(1));
    decide(&mut deadly, 1, Action::Counter(card("backlash")));
    assert!(!deadly.alive(0));
    assert_eq!(deadly.wizards[1].kills, 0);
}

// Globe of Pain: "Attack. A globe of pain bursts around you: every other wizard in your square
// or in a square next to it that you can see takes energy + 1 damage (2 unboosted)."
// l.236: "For a target to be adjacent, the caster must not only have clear line of sight to it,
// but he must also be in the same square or in a square next to the target."
#[test]
fn globe_of_pain_hurts_every_wizard_next_to_the_caster() {
    let mut state = facing(&["globe_of_pain"], &[]);
    place(&mut state, 1, Pos(1, 2));
    decide(&mut state, 0, Action::Cast(card("globe_of_pain")));
    assert_eq!(life(&state, 1), 13, "2 damage");
    assert_eq!(life(&state, 0), 15, "not the caster");
    assert!(state.turn.attacked, "the turn's attack");
    // Boosted with a 4: 5 damage.
    let mut boosted = facing(&["globe_of_pain", "energy_4"], &[]);
    place(&mut boosted, 1, Pos(0, 2));
    decide(&mut boosted, 0, Action::Cast(card("globe_of_pain")));
    decide(&mut boosted, 0, Action::Boost(card("energy_4")));
    assert_eq!(life(&boosted, 1), 10);
    // Two squares away, or behind a wall: untouched.
    let mut far = facing(&["globe_of_pain"], &[]);
    decide(&mut far, 0, Action::Cast(card("globe_of_pain")));
    assert_eq!(life(&far, 1), 15);
    let mut walled = facing(&["globe_of_pain"], &[]);
    place(&mut walled, 1, Pos(1, 2));
    wall(&mut walled, Pos(0, 2), Dir::East);
    decide(&mut walled, 0, Action::Cast(card("globe_of_pain")));
    assert_eq!(life(&walled, 1), 15);
}

// Slow Death: "Attack, curse, temporary. When time passes on your turn, the target takes 2
// damage. It needs your line of sight: the moment you cannot see the target, the spell ends.
// Lasts turns equal to its energy." l.503: "Wall of Earth is immune to damage, and it blocks
// both and movement. Thus, Slow Death would be canceled since it requires, ..."; l.86:
// "Resolve Spell Effects: The active player resolves any "when time passes on your turn"
// effects on any spell he has in play."
#[test]
fn slow_death_hurts_while_its_caster_sees_the_target_and_ends_out_of_sight() {
    let mut state = facing(&["slow_death", "energy_4"], &[]);
    decide(&mut state, 0, Action::Cast(card("slow_death")));
    decide(&mut state, 0, target_wizard(1));
    decide(&mut state, 0, Action::Boost(card("energy_4")));
    assert_eq!(state.spells[0].tokens, 4, "lasts turns equal to its energy");
    assert_eq!(life(&state, 1), 15, "nothing yet");
    flow::end_turn(&mut state);
    assert_eq!(life(&state, 1), 15, "not on the target's turn");
    flow::end_turn(&mut state);
    assert_eq!(
        life(&state, 1),
        13,
        "2 damage when time passes on the caster's turn"
    );
    assert_eq!(state.spells[0].tokens, 3);
    // A wall between them: the spell ends at once (after the next action).
    wall(&mut state, Pos(1, 2), Dir::East);
    decide(&mut state, 0, Action::EndMove);
    assert!(state.spells.is_empty(), "out of sight: Slow Death ended");
    assert!(state.discard.contains(&card("slow_death")));
    flow::end_turn(&mut state);
    flow::end_turn(&mut state);
    assert_eq!(life(&state, 1), 13, "no more damage");
}

// Yoink: "Attack. Snatch one item carried by a wizard you can see: you carry it now." l.367:
// "Unless a Magic card specifically allows it, a wizard cannot forcibly take an item carried by
// another wizard." l.365: "Carried items count toward a player's hand size."
#[test]
fn yoink_takes_an_item_another_wizard_carries() {
    let mut state = facing(&["yoink"], &[]);
    state.wizards[1].items = vec![card("dagger")];
    decide(&mut state, 0, Action::Cast(card("yoink")));
    decide(
        &mut state,
        0,
        Action::Target(Target::Item(1, card("dagger"))),
    );
    assert_eq!(state.wizards[0].items, [card("dagger")]);
    assert!(state.wizards[1].items.is_empty());
    assert!(state.turn.attacked, "the turn's attack");
    // Nothing carried, nothing to snatch: no target.
    let bare = facing(&["yoink"], &[]);
    assert!(!legal(&bare, 0, &Action::Cast(card("yoink"))));
}

// Invisible: "Temporary. You turn invisible: while this lasts (turns equal to its energy) no
// spell that needs line of sight (range line of sight or adjacent) can be cast at you or at an
// item you carry. Your square is still known." l.230: "a card can only be used if the caster can
// see the target"; l.192: an adjacent target "must also be within the wizard's line of sight";
// l.196: "Anywhere: This category includes cards that do not require the wizard to have line of
// sight to the target". Ruling 30: the square stays public (no hidden position).
#[test]
fn an_invisible_wizard_cannot_be_targeted_by_spells_that_need_sight() {
    let mut state = facing(&[], &["invisible"]);
    turn_of(&mut state, 1);
    decide(&mut state, 1, Action::Cast(card("invisible")));
    assert!(state.invisible(1));
    turn_of(&mut state, 0);
    give(
        &mut state,
        0,
        &["fire_darts", "powerthrust", "gravity", "psychic_storm"],
    );
    state.wizards[0].items = vec![card("large_rock")];
    place(&mut state, 1, Pos(1, 2));
    for spell in ["fire_darts", "powerthrust", "gravity"] {
        assert!(
            !legal(&state, 0, &Action::Cast(card(spell))),
            "{spell} needs sight"
        );
    }
    assert!(
        legal(&state, 0, &Action::Throw(card("large_rock"))),
        "not a spell"
    );
    assert!(legal(&state, 0, &Action::Punch(1)), "not a spell");
    // The square is still public: every viewer sees where the wizard stands.
    let view = Game::view(&state, Viewer::Seat(0));
    assert_eq!(view["wizards"][1]["invisible"], true);
    assert_eq!(view["wizards"][1]["at"], serde_json::json!(Pos(1, 2)));
    // A spell of range anywhere still reaches it.
    decide(&mut state, 0, Action::Cast(card("psychic_storm")));
    assert_eq!(life(&state, 1), 13);
    // It lasts turns equal to its energy (1): gone when time passes on its caster's turn.
    state.turn.seat = 0;
    flow::end_turn(&mut state);
    assert!(!state.invisible(1));
}

// Gravity: "Gravity pulls a wizard you can see up to energy + 1 squares straight toward you,
// never around a corner; a wall, door or object in its way, or your own square, stops it."
// l.194: "Within Line of Sight: The wizard can play this card on a target that he can see."
// l.505 (Waterbolt, the other straight move): "The target cannot be knocked back around a
// corner."
#[test]
fn gravity_pulls_a_wizard_toward_the_caster() {
    let mut state = facing(&["gravity"], &[]);
    decide(&mut state, 0, Action::Cast(card("gravity")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(state.pos(1), Some(Pos(1, 2)), "energy 1: 2 squares");
    assert!(!state.turn.attacked, "a neutral spell");
    let mut strong = facing(&["gravity", "energy_6"], &[]);
    decide(&mut strong, 0, Action::Cast(card("gravity")));
    decide(&mut strong, 0, target_wizard(1));
    decide(&mut strong, 0, Action::Boost(card("energy_6")));
    assert_eq!(
        strong.pos(1),
        Some(Pos(0, 2)),
        "the caster's square stops it"
    );
}

// Pass Through Wall: "Step through a stone wall on a side of your square (a created stone wall
// too; never an outer wall, a door or a wall of earth) into the square beyond, without spending
// a movement point. The square beyond must not block entry." l.192 (adjacent range); l.401:
// "Outer walls include any wall which, if moved through, would cause the player to leave the
// game board."
#[test]
fn pass_through_wall_steps_through_a_wall_of_the_casters_square() {
    let mut state = facing(&["pass_through_wall"], &[]);
    wall(&mut state, Pos(0, 2), Dir::East);
    assert!(!legal(&state, 0, &Action::Move(Dir::East)));
    decide(&mut state, 0, Action::Cast(card("pass_through_wall")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(0, 2))));
    assert!(
        !legal(
            &state,
            0,
            &Action::Target(Target::Side(Pos(0, 2), Dir::West))
        ),
        "never an outer wall"
    );
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(0, 2), Dir::East)),
    );
    assert_eq!(state.pos(0), Some(Pos(1, 2)));
    assert_eq!(state.turn.movement, 3, "no movement point spent");
    // Nothing to step through: not castable.
    let open = facing(&["pass_through_wall"], &[]);
    assert!(!legal(&open, 0, &Action::Cast(card("pass_through_wall"))));
}

// Seal Door: "Seal a door you can see on a side of your square or of a square next to it: while
// you maintain this, nobody may pass through it, whatever its colour (a Pick Lock, a Master Key
// or a slime does not open it; only a mist body passes)." l.206: "Door: The card targets a
// door."; l.263: a permanent spell "remains in play for as long as the caster wants".
#[test]
fn a_sealed_door_passes_nobody_while_the_spell_lasts() {
    let mut state = facing(&["seal_door"], &[]);
    place(&mut state, 1, Pos(1, 2));
    door(&mut state, Pos(1, 2), Dir::East, 1);
    decide(&mut state, 0, Action::Cast(card("seal_door")));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(1, 2), Dir::East)),
    );
    assert!(
        state.sealed(Pos(2, 2), Dir::West),
        "the same line from the other side"
    );
    turn_of(&mut state, 1);
    assert!(
        !legal(&state, 1, &Action::Move(Dir::East)),
        "not even its own colour"
    );
    state.wizards[1].items = vec![card("master_key")];
    assert!(
        !legal(&state, 1, &Action::Move(Dir::East)),
        "nor a Master Key"
    );
    let id = state.spells[0].id;
    changes::end_spell(&mut state, id);
    assert!(legal(&state, 1, &Action::Move(Dir::East)), "unsealed");
}

// Master Key: "Item, trinket. While you carry it you may pass through doors of every colour (a
// created door too; not a sealed door)." l.150: "The item is now being carried by the player's
// wizard. The text on the item card indicates when the carried item can be used."
#[test]
fn a_master_key_opens_doors_of_every_colour() {
    let mut state = facing(&["master_key"], &[]);
    door(&mut state, Pos(0, 2), Dir::East, 1);
    assert!(!legal(&state, 0, &Action::Move(Dir::East)), "Bob's door");
    decide(&mut state, 0, Action::Play(card("master_key")));
    assert_eq!(state.wizards[0].items, [card("master_key")]);
    decide(&mut state, 0, Action::Move(Dir::East));
    assert_eq!(state.pos(0), Some(Pos(1, 2)));
}

// Dagger: "Item, weapon. Attack a wizard in or next to your square: 2 damage." l.329: "Weapon:
// An item that may be used to attack."; l.136: "He may not attack with a weapon or punch an
// opponent in the same turn in which he played an attack spell."
#[test]
fn a_dagger_strikes_a_wizard_next_to_its_wielder() {
    let mut state = facing(&[], &[]);
    state.wizards[0].items = vec![card("dagger")];
    assert!(
        !legal(&state, 0, &Action::Wield(card("dagger"))),
        "three squares away"
    );
    place(&mut state, 1, Pos(1, 2));
    decide(&mut state, 0, Action::Wield(card("dagger")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(life(&state, 1), 13);
    assert_eq!(state.wizards[0].items, [card("dagger")], "kept");
    assert!(
        !legal(&state, 0, &Action::Wield(card("dagger"))),
        "one attack"
    );
}

// Wizardblade: "Item, weapon. Attack a wizard in or next to your square: 4 damage." l.329;
// l.134: "Casting an attack spell counts as his one attack for the turn."
#[test]
fn a_wizardblade_strikes_for_four_as_the_turns_attack() {
    let mut state = facing(&["fire_darts"], &[]);
    state.wizards[0].items = vec![card("wizardblade")];
    place(&mut state, 1, Pos(0, 2));
    decide(&mut state, 0, Action::Wield(card("wizardblade")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(life(&state, 1), 11);
    assert!(
        !legal(&state, 0, &Action::Cast(card("fire_darts"))),
        "the turn's attack is made"
    );
}

// l.42: "the players ... select three other schools of magic"; Thaumaturgy is complete: every
// card of its list has an effect, so it is offered; its 24 cards (CONTENT.md) with Cantrip's 12
// and two schools' 48 make the 84-card deck.
#[test]
fn every_thaumaturgy_card_is_implemented_and_the_school_is_offered() {
    assert!(School::Thaumaturgy.complete());
    let count: u32 = School::Thaumaturgy
        .deck()
        .iter()
        .map(|(_, n)| u32::from(*n))
        .sum();
    assert_eq!(count, 24);
    for (key, _) in School::Thaumaturgy.deck() {
        assert_ne!(card(key).effect(), Effect::Later, "{key}");
    }
    let options = Options {
        schools: vec![School::Conjuring, School::Mutation, School::Thaumaturgy],
        ..quiet()
    };
    let state = start(4, &options);
    assert_eq!(state.deck.len() + 20, 84);
}

// Every combination of three of the six schools is in the conformance suite's option sets
// (C(6,3) = 20), with the sets played before.
#[test]
fn the_option_sets_cover_every_combination_of_three_schools() {
    let sets = <Game as crate::rules::Ruleset>::option_sets();
    let mut combos: Vec<Vec<School>> = sets
        .iter()
        .map(|o| {
            let mut s = o.schools.clone();
            s.sort();
            s
        })
        .collect();
    combos.sort();
    combos.dedup();
    assert_eq!(combos.len(), 20);
    assert_eq!(sets.len(), 21, "the first-game set twice");
    assert!(sets.iter().all(|o| o.round_limit.is_some()));
}

// The sealed door and the invisible wizard are on the table for everyone: the view, the
// presenter and the picture show them.
#[test]
fn a_sealed_door_and_an_invisible_wizard_show_everywhere() {
    let names: Vec<String> = ["Ann", "Bob"].iter().map(|n| (*n).to_owned()).collect();
    let mut state = facing(&["seal_door", "invisible"], &[]);
    door(&mut state, Pos(0, 2), Dir::East, 1);
    decide(&mut state, 0, Action::Cast(card("seal_door")));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(0, 2), Dir::East)),
    );
    decide(&mut state, 0, Action::Cast(card("invisible")));
    let view = Game::view(&state, Viewer::Seat(1));
    assert_eq!(view["wizards"][0]["invisible"], true);
    let lines = view["board"]["lines"].as_array().unwrap();
    assert!(lines.iter().any(|l| l["sealed"] == true), "{lines:?}");
    let table = Game::present(&state, Viewer::Seat(1), &names);
    let text: Vec<&String> = table.sections.iter().flat_map(|s| &s.lines).collect();
    assert!(text.iter().any(|l| l.contains("invisible")), "{text:#?}");
    assert!(
        text.iter().any(|l| l.starts_with("Sealed blue door")),
        "{text:#?}"
    );
    let svg = Game::picture(&state, Viewer::Seat(1), &names).unwrap();
    assert!(svg.contains("data-sealed=\"true\"") && svg.contains("data-invisible=\"true\""));
}
