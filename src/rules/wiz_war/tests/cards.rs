//! One test per card of Cantrip, Alchemy, Elemental and Mentalism not covered by the rulebook's
//! examples; each quotes the card text it checks (our own text, docs/rules/wiz-war.md).

use super::*;
use crate::rules::wiz_war::board::EdgeKind;
use crate::rules::wiz_war::state::{Object, Phase, Spell, Treasure};
use crate::rules::wiz_war::{changes, flow};
use crate::rules::{Viewer, Visibility};

/// Seat 0 at (0,2) and seat 1 at (3,2) in an open room, seat 0 to act.
fn facing(hand0: &[&str], hand1: &[&str]) -> State {
    let mut state = duel(hand0, hand1);
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    state
}

fn cast(state: &mut State, key: &str, target: Target) {
    decide(state, 0, Action::Cast(card(key)));
    decide(state, 0, Action::Target(target));
}

fn maintained(state: &mut State, seat: Seat, key: &str, target: Target) -> u32 {
    let id = state.new_id();
    state.spells.push(Spell {
        id,
        card: card(key),
        caster: seat,
        energy: 1,
        tokens: 1,
        target,
    });
    id
}

fn next_turn_of(state: &mut State, seat: Seat) {
    loop {
        let s = state.turn.seat;
        if Game::legal_actions(state, s).contains(&Action::EndMove) {
            decide(state, s, Action::EndMove);
        }
        decide(state, s, Action::EndTurn);
        if state.turn.seat == seat {
            return;
        }
    }
}

// Drop Object: "The target wizard drops its treasure and every item it carries into its square."
#[test]
fn drop_object() {
    let mut state = facing(&["drop_object"], &[]);
    state.treasures.push(Treasure { owner: 0, at: None });
    state.wizards[1].treasure = Some(0);
    state.wizards[1].items = vec![card("speedstone")];
    cast(&mut state, "drop_object", Target::Wizard(1));
    assert_eq!(state.treasures[0].at, Some(Pos(3, 2)));
    assert!(state.wizards[1].items.is_empty());
    assert!(
        state
            .objects
            .iter()
            .any(|o| o.card == card("speedstone") && o.at == Pos(3, 2))
    );
}

// Create Wall: "Raise a stone wall on an open border line you can see. It takes 5 cracks to
// destroy and lasts while you maintain it." Destroy Wall: "Destroy a stone wall you can see".
#[test]
fn create_wall_and_destroy_wall() {
    let mut state = facing(&["create_wall", "destroy_wall"], &[]);
    cast(&mut state, "create_wall", Target::Square(Pos(1, 2)));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(1, 2), Dir::East)),
    );
    assert!(!state.sight_for(0).sees_square(Pos(0, 2), Pos(3, 2)));
    assert_eq!(state.hand_total(0), 2, "maintained");
    cast(&mut state, "destroy_wall", Target::Square(Pos(1, 2)));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(1, 2), Dir::East)),
    );
    assert!(state.spells.is_empty(), "the created wall's spell ended");
    assert!(state.sight_for(0).sees_square(Pos(0, 2), Pos(3, 2)));
    // A stone wall of the board.
    let mut state = facing(&["destroy_wall"], &[]);
    wall(&mut state, Pos(1, 2), Dir::East);
    cast(&mut state, "destroy_wall", Target::Square(Pos(1, 2)));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(1, 2), Dir::East)),
    );
    assert!(state.board.edge(Pos(1, 2), Dir::East).unwrap().destroyed);
}

// Dispel: "End any temporary or permanent spell in play."
#[test]
fn dispel() {
    let mut state = facing(&["dispel"], &[]);
    let id = maintained(&mut state, 1, "mist_body", Target::None);
    cast(&mut state, "dispel", Target::Spell(id));
    assert!(state.spells.is_empty());
    assert!(state.discard.contains(&card("mist_body")));
}

// Pick Lock: "Choose a door on a side of your square: for the rest of this turn you may pass
// through it, whatever its colour."
#[test]
fn pick_lock() {
    let mut state = facing(&["pick_lock"], &[]);
    state.board.edge_mut(Pos(0, 2), Dir::East).unwrap().kind = EdgeKind::Door(1);
    assert!(!state.may_cross(0, Pos(0, 2), Dir::East));
    cast(&mut state, "pick_lock", Target::Side(Pos(0, 2), Dir::East));
    assert!(state.may_cross(0, Pos(0, 2), Dir::East));
    decide(&mut state, 0, Action::Move(Dir::East));
}

// Fool's Gold: "while you maintain this, nobody can pick it up."
#[test]
fn fools_gold() {
    let mut state = facing(&["fools_gold"], &[]);
    state.treasures.push(Treasure {
        owner: 0,
        at: Some(Pos(1, 2)),
    });
    cast(&mut state, "fools_gold", Target::Treasure(0));
    decide(&mut state, 0, Action::Move(Dir::East));
    assert!(!Game::legal_actions(&state, 0).contains(&Action::PickUpTreasure(0)));
}

// Stone Dead: "it gets stun tokens equal to this spell's energy (at most 3)."
#[test]
fn stone_dead() {
    let mut state = facing(&["stone_dead", "energy_5"], &[]);
    cast(&mut state, "stone_dead", Target::Wizard(1));
    decide(&mut state, 0, Action::Boost(card("energy_5")));
    assert_eq!(state.wizards[1].stun, 3);
}

// Add: "spend two energy cards at once; the spell's energy is their sum."
#[test]
fn add() {
    let mut state = facing(&["mental_force", "add", "energy_4", "energy_5"], &[]);
    cast(&mut state, "mental_force", Target::Wizard(1));
    decide(
        &mut state,
        0,
        Action::BoostAdd(card("energy_4"), card("energy_5")),
    );
    assert_eq!(life(&state, 1), 15 - 11);
    assert!(state.discard.contains(&card("add")));
}

/// Seat 0 maintains Homonculus and stands on a Large Rock (object 50).
fn homonculus_on_a_rock() -> State {
    let mut state = facing(&["homonculus"], &[]);
    decide(&mut state, 0, Action::Cast(card("homonculus")));
    state.objects.push(Object {
        id: 50,
        card: card("large_rock"),
        at: Pos(0, 2),
        cracks: 0,
        spell: None,
    });
    state
}

// Homonculus: "while you maintain it, picking up an object costs you no movement point."
#[test]
fn homonculus() {
    let mut state = homonculus_on_a_rock();
    decide(&mut state, 0, Action::PickUp(50));
    assert_eq!(state.turn.movement, 3);
}

/// With Homonculus a pick-up costs nothing, so dropping the item again and picking it up went
/// round without end (the object gets a new id each time, so no state repeats): dropping an
/// item picked up this turn takes the pick-up back, and the bot does not while it has another
/// choice. An item carried from before may be dropped as ever.
#[test]
fn dropping_what_was_picked_up_this_turn_takes_it_back() {
    let mut state = homonculus_on_a_rock();
    let drop_rock = Action::Drop(card("large_rock"));
    let drop_stone = Action::Drop(card("speedstone"));
    assert!(!WizWar::takes_back(&state, 0, &drop_rock));
    decide(&mut state, 0, Action::PickUp(50));
    state.wizards[0].items.push(card("speedstone"));
    assert!(WizWar::takes_back(&state, 0, &drop_rock));
    assert!(!WizWar::takes_back(&state, 0, &drop_stone));
    let mut next = state.clone();
    flow::end_turn(&mut next);
    assert!(next.turn.picked_up.is_empty(), "a new turn forgets");
}

// Blood Shard: "Attack a wizard in or next to your square: 3 damage, and you regain 1 life."
#[test]
fn blood_shard() {
    let mut state = facing(&["blood_shard"], &[]);
    place(&mut state, 1, Pos(1, 2));
    state.wizards[0].life = 10;
    decide(&mut state, 0, Action::Play(card("blood_shard")));
    decide(&mut state, 0, Action::Wield(card("blood_shard")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!((life(&state, 0), life(&state, 1)), (11, 12));
    assert_eq!(
        state.wizards[0].items,
        vec![card("blood_shard")],
        "a weapon is kept"
    );
}

// Boomstone: "it explodes for 4 damage and is used up."
#[test]
fn boomstone() {
    let mut state = facing(&[], &[]);
    state.wizards[0].items = vec![card("boomstone")];
    decide(&mut state, 0, Action::Throw(card("boomstone")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(life(&state, 1), 11);
    assert!(state.wizards[0].items.is_empty() && state.discard.contains(&card("boomstone")));
}

// Brainstone: "you may draw up to 3 cards in your discard and draw phase."
#[test]
fn brainstone() {
    let mut state = facing(&[], &[]);
    state.wizards[0].items = vec![card("brainstone")];
    decide(&mut state, 0, Action::EndMove);
    for _ in 0..3 {
        decide(&mut state, 0, Action::DrawCard);
        let Next::Chance(c) = Game::next(&state) else {
            panic!()
        };
        let first = c.outcomes[0].0.clone();
        chance(&mut state, first);
    }
    assert!(!Game::legal_actions(&state, 0).contains(&Action::DrawCard));
}

// Lifestone: "when time passes on your turn you regain 1 life (up to 20)."
#[test]
fn lifestone() {
    let mut state = facing(&[], &[]);
    state.wizards[0].items = vec![card("lifestone")];
    state.wizards[0].life = 20;
    next_turn_of(&mut state, 0);
    assert_eq!(life(&state, 0), 20);
    state.wizards[0].life = 10;
    next_turn_of(&mut state, 0);
    assert_eq!(life(&state, 0), 11);
}

// Mightstone: "your punches deal 2 more damage."
#[test]
fn mightstone() {
    let mut state = facing(&[], &[]);
    state.wizards[0].items = vec![card("mightstone")];
    place(&mut state, 1, Pos(0, 2));
    decide(&mut state, 0, Action::Punch(1));
    assert_eq!(life(&state, 1), 12);
}

// Null Powder: "every spell that wizard maintains ends. The powder is used up."
#[test]
fn null_powder() {
    let mut state = facing(&[], &[]);
    state.wizards[0].items = vec![card("null_powder")];
    maintained(&mut state, 1, "mist_body", Target::None);
    decide(&mut state, 0, Action::Throw(card("null_powder")));
    decide(&mut state, 0, target_wizard(1));
    assert!(state.spells.is_empty());
    assert!(state.discard.contains(&card("null_powder")));
}

// Powerstone: "every spell you cast has 1 more energy."
#[test]
fn powerstone() {
    let mut state = facing(&["mental_force"], &[]);
    state.wizards[0].items = vec![card("powerstone")];
    cast(&mut state, "mental_force", Target::Wizard(1));
    assert_eq!(life(&state, 1), 15 - 4, "energy 2: 2 + 2");
}

// Speedstone: "you have 1 more movement point each turn." Spellstone: "your maximum hand size
// is 8."
#[test]
fn speedstone_and_spellstone() {
    let mut state = facing(&[], &[]);
    state.wizards[0].items = vec![card("speedstone"), card("spellstone")];
    assert_eq!(state.hand_limit(0), 8);
    next_turn_of(&mut state, 0);
    assert_eq!(state.turn.movement, 4);
}

// Universal Solvent: "Dissolve a wall, door or object on the board next to you, even one
// immune to damage (never an outer wall)."
#[test]
fn universal_solvent() {
    let mut state = facing(&["wall_of_earth", "universal_solvent"], &[]);
    cast(&mut state, "wall_of_earth", Target::Square(Pos(0, 2)));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(0, 2), Dir::East)),
    );
    let legal_before: Vec<Action> = {
        decide(&mut state, 0, Action::Cast(card("universal_solvent")));
        Game::legal_actions(&state, 0)
    };
    assert!(
        !legal_before.contains(&Action::Target(Target::Side(Pos(0, 2), Dir::West))),
        "outer"
    );
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(0, 2), Dir::East)),
    );
    assert!(
        state
            .board
            .edge(Pos(0, 2), Dir::East)
            .unwrap()
            .created
            .is_none()
    );
    assert!(state.spells.is_empty());
}

// Visionstone: "While you carry it, doors do not block your line of sight."
#[test]
fn visionstone() {
    let mut state = facing(&[], &[]);
    state.board.edge_mut(Pos(1, 2), Dir::East).unwrap().kind = EdgeKind::Door(1);
    assert!(!state.sight_for(0).sees_square(Pos(0, 2), Pos(3, 2)));
    state.wizards[0].items = vec![card("visionstone")];
    assert!(state.sight_for(0).sees_square(Pos(0, 2), Pos(3, 2)));
}

// Flood: "every other wizard in it takes 2 damage and drops the treasure it carries."
#[test]
fn flood() {
    let mut state = facing(&["flood"], &[]);
    state.treasures.push(Treasure { owner: 0, at: None });
    state.wizards[1].treasure = Some(0);
    decide(&mut state, 0, Action::Cast(card("flood")));
    assert_eq!(life(&state, 1), 13);
    assert_eq!(state.treasures[0].at, Some(Pos(3, 2)));
    // Not in another sector.
    let mut state = facing(&["flood"], &[]);
    place(&mut state, 1, Pos(6, 2));
    decide(&mut state, 0, Action::Cast(card("flood")));
    assert_eq!(life(&state, 1), 15);
}

// Wall of Fire: "a wizard who moves across takes 4 fire damage. It does not block sight."
#[test]
fn wall_of_fire() {
    let mut state = facing(&["wall_of_fire"], &[]);
    cast(&mut state, "wall_of_fire", Target::Square(Pos(2, 2)));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(2, 2), Dir::East)),
    );
    assert!(state.sight_for(0).sees_square(Pos(0, 2), Pos(3, 2)));
    state.turn.seat = 1;
    state.turn.movement = 3;
    flow::decide(&mut state, 1, &Action::Move(Dir::West)).unwrap();
    assert_eq!(life(&state, 1), 11);
}

// Fog: "it blocks line of sight through that square, not movement."
#[test]
fn fog() {
    let mut state = facing(&["fog"], &[]);
    cast(&mut state, "fog", Target::Square(Pos(1, 2)));
    assert!(!state.sight_for(0).sees_square(Pos(0, 2), Pos(3, 2)));
    assert!(Game::legal_actions(&state, 0).contains(&Action::Move(Dir::East)));
}

// Mist Body: "you may move through walls and doors, but never an outer wall."
#[test]
fn mist_body() {
    let mut state = facing(&["mist_body"], &[]);
    wall(&mut state, Pos(0, 2), Dir::North);
    decide(&mut state, 0, Action::Cast(card("mist_body")));
    assert!(Game::legal_actions(&state, 0).contains(&Action::Move(Dir::North)));
    place(&mut state, 0, Pos(0, 0));
    assert!(!Game::legal_actions(&state, 0).contains(&Action::Move(Dir::North)));
}

// Windrider: "gain energy + 2 movement points this turn."
#[test]
fn windrider() {
    let mut state = facing(&["windrider"], &[]);
    decide(&mut state, 0, Action::Cast(card("windrider")));
    assert_eq!(state.turn.movement, 6);
}

// Fire Clock: "it gets energy + 1 tokens, and when its last token is removed the target takes
// 6 fire damage."
#[test]
fn fire_clock() {
    let mut state = facing(&["fire_clock"], &[]);
    cast(&mut state, "fire_clock", Target::Wizard(1));
    assert_eq!(state.spells[0].tokens, 2);
    next_turn_of(&mut state, 0);
    assert_eq!(life(&state, 1), 15);
    next_turn_of(&mut state, 0);
    assert_eq!(life(&state, 1), 9);
    assert!(state.spells.is_empty());
}

// Brain Burn: "The target takes 1 damage per card in its hand."
#[test]
fn brain_burn() {
    let mut state = facing(&["brain_burn"], &["zot", "fog", "add", "dispel"]);
    cast(&mut state, "brain_burn", Target::Wizard(1));
    decide(&mut state, 1, Action::Pass);
    assert_eq!(life(&state, 1), 11);
}

// Powerthrust: "A wizard in or next to your square takes 3 x energy damage."
#[test]
fn powerthrust() {
    let mut state = facing(&["powerthrust"], &[]);
    assert!(!Game::legal_actions(&state, 0).contains(&Action::Cast(card("powerthrust"))));
    place(&mut state, 1, Pos(1, 2));
    cast(&mut state, "powerthrust", Target::Wizard(1));
    assert_eq!(life(&state, 1), 12);
}

// Psychic Storm: "Every other wizard takes 2 damage."
#[test]
fn psychic_storm() {
    let mut state = start(3, &quiet());
    give(&mut state, 0, &["psychic_storm"]);
    give(&mut state, 1, &[]);
    give(&mut state, 2, &[]);
    state.turn.first = false;
    decide(&mut state, 0, Action::Cast(card("psychic_storm")));
    assert_eq!(
        (life(&state, 0), life(&state, 1), life(&state, 2)),
        (15, 13, 13)
    );
}

// Share Life: "You and the target wizard each get the average of your two life totals (you get
// the half point)."
#[test]
fn share_life() {
    let mut state = facing(&["share_life"], &[]);
    state.wizards[0].life = 4;
    cast(&mut state, "share_life", Target::Wizard(1));
    assert_eq!((life(&state, 0), life(&state, 1)), (10, 9));
}

// Thought Steal: "Take one card at random from the target's hand into yours."
#[test]
fn thought_steal() {
    let mut state = facing(&["thought_steal"], &["zot", "fog", "fog"]);
    cast(&mut state, "thought_steal", Target::Wizard(1));
    decide(&mut state, 1, Action::Pass);
    let Next::Chance(c) = Game::next(&state) else {
        panic!()
    };
    assert_eq!(
        c.outcomes,
        vec![
            (Action::Steal(card("zot")), 1),
            (Action::Steal(card("fog")), 2)
        ]
    );
    let steal = Action::Steal(card("zot"));
    assert_eq!(
        Game::visibility(&state, Actor::Chance, &steal),
        Visibility::Seats(vec![0, 1])
    );
    assert!(!Game::describe(&state, Actor::Chance, &steal, Viewer::Spectator).contains("Zot"));
    chance(&mut state, steal);
    assert_eq!(state.wizards[0].hand, vec![card("zot")]);
}

// Pain Link: "whenever you take damage the target takes the same."
#[test]
fn pain_link() {
    let mut state = facing(&["pain_link"], &[]);
    cast(&mut state, "pain_link", Target::Wizard(1));
    changes::hurt(&mut state, 0, 3, Some(1), false);
    assert_eq!((life(&state, 0), life(&state, 1)), (12, 12));
}

// Teleport: "Move your wizard to a square you can see that no object fills."
#[test]
fn teleport() {
    let mut state = facing(&["teleport"], &[]);
    cast(&mut state, "teleport", Target::Square(Pos(4, 4)));
    assert_eq!(state.wizards[0].at, Some(Pos(4, 4)));
}

// Astral Projection: "for the rest of this turn, the range and sight of your spells are traced
// from a square you can see."
#[test]
fn astral_projection() {
    let mut state = facing(&["astral_projection", "mental_force"], &[]);
    for x in 0..3 {
        wall(&mut state, Pos(x, 0), Dir::South);
    }
    place(&mut state, 0, Pos(0, 0));
    place(&mut state, 1, Pos(3, 4));
    assert!(!Game::legal_actions(&state, 0).contains(&Action::Cast(card("mental_force"))));
    cast(&mut state, "astral_projection", Target::Square(Pos(3, 0)));
    cast(&mut state, "mental_force", Target::Wizard(1));
    assert_eq!(life(&state, 1), 12);
}

// Meditate: "Draw energy + 1 cards (then discard down to your hand limit)."
#[test]
fn meditate() {
    let mut state = facing(&["meditate"], &[]);
    decide(&mut state, 0, Action::Cast(card("meditate")));
    chance(&mut state, Action::Draw(card("zot")));
    chance(&mut state, Action::Draw(card("fog")));
    assert_eq!(state.wizards[0].hand.len(), 2);
    assert_eq!(state.phase, Phase::MoveAndCast);
}

// Shatter: "Shatter one item carried by a wizard you can see: it is discarded."
#[test]
fn shatter() {
    let mut state = facing(&["shatter"], &[]);
    state.wizards[1].items = vec![card("speedstone")];
    cast(&mut state, "shatter", Target::Item(1, card("speedstone")));
    assert!(state.wizards[1].items.is_empty());
    assert!(state.discard.contains(&card("speedstone")));
}

// Shield: "Play when an attack spell of energy 3 or less is cast at you: it is cancelled."
#[test]
fn shield() {
    let mut state = facing(&["mental_force", "energy_4"], &["shield"]);
    cast(&mut state, "mental_force", Target::Wizard(1));
    decide(&mut state, 0, Action::Boost(card("energy_4")));
    assert_eq!(life(&state, 1), 9, "energy 4 gets through: no window");
    let mut state = facing(&["mental_force"], &["shield"]);
    cast(&mut state, "mental_force", Target::Wizard(1));
    decide(&mut state, 1, Action::Counter(card("shield")));
    assert_eq!(life(&state, 1), 15);
}
