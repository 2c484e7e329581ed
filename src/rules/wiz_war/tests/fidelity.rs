//! The findings of the fidelity review (shared/audits/2026-11-23-wiz-war.md), one test each:
//! every test quotes the rulebook sentence it checks (shared/rules/wiz-war.md, by line) and
//! failed on the code the review read.

use super::*;
use crate::rules::Viewer;
use crate::rules::wiz_war::board::{Created, EdgeKind};
use crate::rules::wiz_war::cast;
use crate::rules::wiz_war::state::{How, Object, Phase, Spell};

/// Seat 0 at (0,2) and seat 1 at (3,2) in an open room, seat 0 to act.
fn facing(hand0: &[&str], hand1: &[&str]) -> State {
    let mut state = duel(hand0, hand1);
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    state
}

fn spell_in_play(state: &mut State, caster: Seat, key: &str, target: Target) -> u32 {
    let id = state.new_id();
    state.spells.push(Spell {
        id,
        card: card(key),
        caster,
        energy: 1,
        tokens: 3,
        target,
    });
    id
}

fn object(state: &mut State, key: &str, at: Pos) -> u32 {
    let id = state.new_id();
    state.objects.push(Object {
        id,
        card: card(key),
        at,
        cracks: 0,
        spell: None,
    });
    id
}

// l.371: "Any number of dropped objects may occupy the same square. Any wizard in the same
// square as a dropped object may pick it up as noted above." The review: a dropped Blood Shard
// was never picked up again (its card lacked the mobile trait).
#[test]
fn a_dropped_blood_shard_can_be_picked_up_again() {
    let mut state = facing(&[], &[]);
    state.wizards[0].items = vec![card("blood_shard")];
    decide(&mut state, 0, Action::Drop(card("blood_shard")));
    let id = state
        .objects
        .iter()
        .find(|o| o.card == card("blood_shard"))
        .map(|o| o.id)
        .unwrap();
    // The log names what was picked up, as it named what was dropped (it said "object #n").
    let seen = Game::describe(
        &state,
        Actor::Seat(0),
        &Action::PickUp(id),
        Viewer::Spectator,
    );
    assert!(seen.ends_with("picks up Blood Shard"), "{seen}");
    decide(&mut state, 0, Action::PickUp(id));
    assert_eq!(state.wizards[0].items, vec![card("blood_shard")]);
    // Every item card, dropped, is an object that can be picked up.
    for def in crate::rules::wiz_war::cards::CARDS {
        if def.kind == crate::rules::wiz_war::cards::Kind::Item {
            let o = Object {
                id: 0,
                card: CardId::by_key(def.key).unwrap(),
                at: Pos(0, 0),
                cracks: 0,
                spell: None,
            };
            assert!(o.mobile(), "a dropped {} cannot be picked up", def.key);
        }
    }
}

// l.232: "If a wizard targets a wall, door, or corridor, he must have line of sight to the
// target itself (instead of its square)." l.234: "Line of sight may be traced through objects
// ... as long as their Magic card does not say that they 'fill the entire square'." Fog beyond
// a wall fills the square behind it, not the line of sight to the wall.
#[test]
fn fog_or_a_stone_block_behind_a_wall_does_not_hide_the_wall() {
    for filler in ["fog", "stone_block"] {
        let mut state = facing(&["destroy_wall"], &[]);
        place(&mut state, 1, Pos(9, 4));
        wall(&mut state, Pos(2, 2), Dir::East);
        let id = object(&mut state, filler, Pos(3, 2));
        assert!(
            state
                .sight_for(0)
                .sees_side(Pos(0, 2), Pos(2, 2), Dir::East),
            "{filler} behind the wall hides it"
        );
        let sides = cast::targets(&state, 0, card("destroy_wall"), How::Cast, Some(Pos(2, 2)));
        assert!(sides.contains(&(Target::Side(Pos(2, 2), Dir::East), false)));
        // In front of the wall it still fills the line of sight.
        state.objects.retain(|o| o.id != id);
        object(&mut state, filler, Pos(1, 2));
        assert!(
            !state
                .sight_for(0)
                .sees_side(Pos(0, 2), Pos(2, 2), Dir::East),
            "{filler} in front of the wall does not hide it"
        );
    }
}

// CONTENT.md: "Werewolf (move 4, punch d4)"; l.21: the game has "1 Four-sided Die". The review:
// the Werewolf's d4 punch was stored as 0 (and so punched for 1).
#[test]
fn a_werewolf_punches_for_a_roll_of_the_four_sided_die() {
    let werewolf = crate::rules::wiz_war::cards::FORMS
        .iter()
        .position(|f| f.name == "Werewolf")
        .unwrap();
    let mut state = facing(&[], &[]);
    place(&mut state, 1, Pos(1, 2));
    state.wizards[0].form = Some(u8::try_from(werewolf).unwrap());
    decide(&mut state, 0, Action::Punch(1));
    match Game::next(&state) {
        Next::Chance(c) => assert_eq!(
            c.outcomes,
            (1..=4).map(|n| (Action::Roll(n), 1)).collect::<Vec<_>>()
        ),
        other => panic!("expected the die, got {other:?}"),
    }
    assert_eq!(life(&state, 1), 15, "no damage before the roll");
    chance(&mut state, Action::Roll(4));
    assert_eq!(life(&state, 1), 11);
    assert!(state.turn.attacked);
    assert_eq!(waiting_for(&state), vec![0]);
}

// l.69: "Players continue taking turns around the table until one player wins the game." Our
// optional turn limit counts rounds round the table: after a death a round has fewer turns,
// and the message names the rounds actually played. The review: the limit counted 30 turns
// per seat, so after a death the game ran past 30 rounds while saying "30 rounds".
#[test]
fn the_turn_limit_counts_rounds_after_deaths_too() {
    let limit = 5;
    let options = Options {
        round_limit: Some(limit),
        ..Options::default()
    };
    let mut state = start(3, &options);
    state.wizards[2].at = None;
    let mut turns = [0u32; 3];
    let mut guard = 0;
    while !state.is_over() {
        let s = state.turn.seat;
        turns[s] += 1;
        assert!(state.round() <= limit);
        if Game::legal_actions(&state, s).contains(&Action::EndMove) {
            decide(&mut state, s, Action::EndMove);
        }
        decide(&mut state, s, Action::EndTurn);
        guard += 1;
        assert!(guard < 1000);
    }
    assert_eq!(turns, [limit, limit, 0]);
    match &state.phase {
        Phase::Over { summary, .. } => {
            assert!(summary.contains(&format!("({limit} rounds)")), "{summary}")
        }
        other => panic!("expected the end, got {other:?}"),
    }
}

// Astral Projection: "for the rest of this turn, the range and sight of your spells are traced
// from a square you can see" (our text); l.190: "Caster: The wizard may play this card only on
// himself." The review: Lightning Bolt flew from the body, not the projection.
#[test]
fn lightning_bolt_flies_from_the_astral_projection() {
    let mut state = duel(&["astral_projection", "lightning_bolt"], &[]);
    place(&mut state, 0, Pos(0, 0));
    place(&mut state, 1, Pos(4, 4));
    decide(&mut state, 0, Action::Cast(card("astral_projection")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(4, 0))));
    assert_eq!(state.turn.cast_from, Some(Pos(4, 0)));
    decide(&mut state, 0, Action::Cast(card("lightning_bolt")));
    decide(&mut state, 0, Action::Target(Target::Direction(Dir::South)));
    assert_eq!(life(&state, 1), 12, "the bolt from (4,0) south hit (4,4)");
    assert_eq!(state.wizards[1].stun, 1);
}

// l.242: "If casting a spell or checking line of sight through a portal or off the edge of the
// map using wraparound movement, the two connected squares are treated as directly adjacent."
// Nothing limits a line to one such connection: a line may pass two.
#[test]
fn sight_passes_two_links() {
    let mut state = start(4, &Options::default());
    open_inside(&mut state);
    // Walls cross the board along its middle lines: its four quarters meet only through the
    // exits on its rim, which wrap round to the opposite edge.
    for i in 0..10 {
        wall(&mut state, Pos(4, i), Dir::East);
        wall(&mut state, Pos(i, 4), Dir::South);
    }
    let sight = state.sight_for(0);
    // From the north-west quarter, a line through the north exit of c1 enters the board again
    // from the south (the south-west quarter), and through the west exit of a8 enters it again
    // from the east: it reaches the south-east quarter.
    let (a, b) = (Pos(3, 1), Pos(8, 5));
    assert!(!sight.sees_directly(a, b));
    assert!(!sight.sees_one_link(a, b));
    assert!(sight.sees_square(a, b), "seen through two links");
    assert!(sight.sees_square(b, a), "and back");
    // The walls of the quarters still stop lines that do not pass the exits.
    assert!(!sight.sees_square(Pos(3, 1), Pos(8, 8)));
}

// l.150: "To play an item card, the player places it faceup in his play area. The item is now
// being carried by the player's wizard." Shatter cast at an item a wizard carries is an attack
// spell cast at that wizard: Full Shield, Shield and Absorb Spell answer it. The review: they
// could not.
#[test]
fn shield_full_shield_and_absorb_answer_shatter_on_an_item() {
    let mut state = facing(&["shatter"], &["absorb_spell", "full_shield", "shield"]);
    state.wizards[1].items = vec![card("speedstone")];
    decide(&mut state, 0, Action::Cast(card("shatter")));
    decide(
        &mut state,
        0,
        Action::Target(Target::Item(1, card("speedstone"))),
    );
    assert_eq!(waiting_for(&state), vec![1]);
    let legal = Game::legal_actions(&state, 1);
    for key in ["absorb_spell", "full_shield", "shield"] {
        assert!(
            legal.contains(&Action::Counter(card(key))),
            "{key}: {legal:?}"
        );
    }
    decide(&mut state, 1, Action::Counter(card("absorb_spell")));
    assert_eq!(state.wizards[1].items, vec![card("speedstone")]);
    assert!(state.wizards[1].hand.contains(&card("shatter")));
}

// l.192: "Adjacent: The wizard may play this card only on a target that is in the same square
// as himself or an adjacent square. The target must also be within the wizard's line of
// sight." The review: Pick Lock opened only doors on the caster's own square.
#[test]
fn pick_lock_opens_a_door_of_an_adjacent_square() {
    let mut state = facing(&["pick_lock"], &[]);
    place(&mut state, 1, Pos(9, 4));
    state.board.edge_mut(Pos(1, 2), Dir::East).unwrap().kind = EdgeKind::Door(1);
    decide(&mut state, 0, Action::Cast(card("pick_lock")));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(1, 2), Dir::East)),
    );
    decide(&mut state, 0, Action::Move(Dir::East));
    decide(&mut state, 0, Action::Move(Dir::East));
    assert_eq!(state.pos(0), Some(Pos(2, 2)));
    // A door two squares away is not adjacent.
    let mut state = facing(&["pick_lock"], &[]);
    place(&mut state, 1, Pos(9, 4));
    state.board.edge_mut(Pos(2, 2), Dir::East).unwrap().kind = EdgeKind::Door(1);
    assert!(!Game::legal_actions(&state, 0).contains(&Action::Cast(card("pick_lock"))));
}

// l.365: "If a wizard picks up an object that would take the player above his maximum hand
// size, then he must first discard a card, end a maintained spell, or drop a carried item to
// make room for the object." The review: the object was picked up first, the room made after.
#[test]
fn a_full_hand_must_first_make_room_to_pick_up() {
    let hand = [
        "zot",
        "dispel",
        "fireball",
        "teleport",
        "meditate",
        "mental_force",
        "brain_burn",
    ];
    let mut state = facing(&hand, &[]);
    let id = object(&mut state, "speedstone", Pos(0, 2));
    assert_eq!(state.hand_total(0), 7);
    let legal = Game::legal_actions(&state, 0);
    assert!(!legal.contains(&Action::PickUp(id)), "{legal:?}");
    assert!(legal.contains(&Action::Discard(card("zot"))));
    decide(&mut state, 0, Action::Discard(card("zot")));
    decide(&mut state, 0, Action::PickUp(id));
    assert_eq!(state.hand_total(0), 7);
    assert_eq!(state.over_limit(), None);
    // With room to spare, no card is offered for discarding in move and cast.
    let mut state = facing(&["zot"], &[]);
    let id = object(&mut state, "speedstone", Pos(0, 2));
    let legal = Game::legal_actions(&state, 0);
    assert!(legal.contains(&Action::PickUp(id)));
    assert!(!legal.contains(&Action::Discard(card("zot"))));
}

// l.309: "Fire: A spell that creates fire in some significant fashion. Fire and water spells
// can often cancel each other out." l.327 says the same of water. Our ruling: water puts fire
// out. The review: fire and water never cancelled.
#[test]
fn water_puts_out_fire() {
    // Flood: the fire spells in the caster's sector end.
    let mut state = facing(&["flood"], &[]);
    let wall_spell = spell_in_play(
        &mut state,
        1,
        "wall_of_fire",
        Target::Side(Pos(1, 2), Dir::East),
    );
    state.board.edge_mut(Pos(1, 2), Dir::East).unwrap().created = Some(Created {
        card: card("wall_of_fire"),
        spell: wall_spell,
        cracks: 0,
    });
    spell_in_play(&mut state, 1, "fire_clock", Target::Wizard(0));
    let far = spell_in_play(
        &mut state,
        1,
        "wall_of_fire",
        Target::Side(Pos(8, 2), Dir::East),
    );
    decide(&mut state, 0, Action::Cast(card("flood")));
    let left: Vec<u32> = state.spells.iter().map(|s| s.id).collect();
    assert_eq!(
        left,
        vec![far],
        "only the fire in the other sector burns on"
    );
    assert!(
        state
            .board
            .edge(Pos(1, 2), Dir::East)
            .unwrap()
            .created
            .is_none()
    );
    // Waterbolt: a Fire Clock on its target goes out.
    let mut state = facing(&["waterbolt"], &[]);
    spell_in_play(&mut state, 0, "fire_clock", Target::Wizard(1));
    decide(&mut state, 0, Action::Cast(card("waterbolt")));
    decide(&mut state, 0, target_wizard(1));
    assert!(state.spells.is_empty());
    assert!(state.discard.contains(&card("fire_clock")));
}

// l.511: "With 'Fireball' he also plays 'Around the Corner', which allows him to bend 'Fireball'
// around the corner." l.196: Around the Corner is played with the spell; nothing limits it to
// attack spells at wizards. The review: it bent only attack spells aimed at wizards.
#[test]
fn around_the_corner_bends_a_spell_at_a_square() {
    let mut state = duel(&["teleport", "around_the_corner"], &[]);
    place(&mut state, 0, Pos(0, 0));
    place(&mut state, 1, Pos(9, 4));
    wall(&mut state, Pos(1, 1), Dir::South);
    assert!(!state.sight_for(0).sees_square(Pos(0, 0), Pos(2, 2)));
    decide(&mut state, 0, Action::Cast(card("teleport")));
    let legal = Game::legal_actions(&state, 0);
    assert!(legal.contains(&Action::Target(Target::Square(Pos(2, 2)))));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(2, 2))));
    assert_eq!(state.pos(0), Some(Pos(2, 2)));
    assert!(
        state.wizards[0].hand.is_empty(),
        "Around the Corner is spent"
    );
    assert!(state.discard.contains(&card("around_the_corner")));
}

// l.69: "Players continue taking turns around the table until one player wins the game." l.477:
// "The player who accomplishes either of the following conditions immediately wins the game".
// No turn limit by default (the option `round_limit` adds one).
#[test]
fn there_is_no_turn_limit_by_default() {
    assert_eq!(Options::default().round_limit, None);
    let mut state = start(2, &Options::default());
    for _ in 0..2 * 40 {
        let s = state.turn.seat;
        if Game::legal_actions(&state, s).contains(&Action::EndMove) {
            decide(&mut state, s, Action::EndMove);
        }
        decide(&mut state, s, Action::EndTurn);
    }
    assert!(!state.is_over());
    assert_eq!(state.round(), 41);
    let bad = Options {
        round_limit: Some(0),
        ..Options::default()
    };
    assert!(Game::new_game(&bad, 2).is_err());
}

// l.488: "The player only receives a victory point in this manner when he reduces another
// wizard's life total to '0' or less with an attack (see page 15)." Stone Spikes and a Wall of
// Fire are creations, not attacks: a wizard they kill scores nobody a point.
#[test]
fn a_creation_that_kills_scores_no_point() {
    for key in ["stone_spikes", "wall_of_fire"] {
        let mut state = facing(&[], &[]);
        place(&mut state, 1, Pos(9, 4));
        let spell = spell_in_play(&mut state, 1, key, Target::Square(Pos(1, 2)));
        if key == "stone_spikes" {
            state.objects.push(Object {
                id: 900,
                card: card(key),
                at: Pos(1, 2),
                cracks: 0,
                spell: Some(spell),
            });
        } else {
            state.board.edge_mut(Pos(0, 2), Dir::East).unwrap().created = Some(Created {
                card: card(key),
                spell,
                cracks: 0,
            });
        }
        state.wizards[0].life = 1;
        decide(&mut state, 0, Action::Move(Dir::East));
        assert!(!state.alive(0), "{key} killed");
        assert_eq!(state.wizards[1].kills, 0, "{key} scored");
        // The last wizard alive still wins (l.480), but not by a point.
        assert!(state.is_over());
        assert_eq!(state.points(1), 0);
    }
}

// l.48: "Players may look at their cards, but must keep them secret." By default a window asks
// every other living wizard, whatever its hand holds.
#[test]
fn windows_ask_every_wizard_by_default() {
    assert!(Options::default().ask_every_affected_wizard);
    let mut state = start(3, &Options::default());
    open_room(&mut state);
    give(&mut state, 0, &["fireball"]);
    give(&mut state, 1, &[]);
    give(&mut state, 2, &[]);
    state.turn.first = false;
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    place(&mut state, 2, Pos(4, 4));
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(
        waiting_for(&state),
        vec![1],
        "asked though it holds no counter"
    );
    decide(&mut state, 1, Action::Pass);
    assert_eq!(waiting_for(&state), vec![2]);
    decide(&mut state, 2, Action::Pass);
    assert_eq!(life(&state, 1), 10);
}

// l.290: "Note: The energy value of "3" at the bottom of the card is ignored in this example
// because the player is choosing to use this card's effect instead of using it to boost
// another spell." l.146: "Some Magic cards display an energy value in the lower-middle area of
// the card. Players can spend these cards for their energy value instead of playing them for
// their effect."
#[test]
fn a_spell_card_showing_an_energy_value_boosts_another_spell() {
    assert_eq!(card("extra_arms").energy_value(), 3, "the l.290 example");
    assert_eq!(card("fireball").energy_value(), 3);
    let mut state = facing(&["mental_force", "fireball"], &[]);
    decide(&mut state, 0, Action::Cast(card("mental_force")));
    Game::apply(&mut state, Actor::Seat(0), &target_wizard(1)).unwrap();
    decide(&mut state, 0, Action::Boost(card("fireball")));
    assert_eq!(life(&state, 1), 15 - 5, "energy 3 + 2 damage");
    assert!(state.discard.contains(&card("fireball")));
    assert!(state.wizards[0].hand.is_empty());
}

// l.146: "Players can spend these cards for their energy value instead of playing them for
// their effect." (A card cannot be both the spell and its own energy.)
#[test]
fn a_spell_is_never_boosted_by_its_own_card() {
    let mut state = facing(&["mental_force"], &[]);
    decide(&mut state, 0, Action::Cast(card("mental_force")));
    Game::apply(&mut state, Actor::Seat(0), &target_wizard(1)).unwrap();
    assert_eq!(
        Game::legal_actions(&state, 0),
        [Action::NoBoost, Action::CancelCast]
    );
    // With a second copy, the other copy may fuel it.
    let mut two = facing(&["mental_force", "mental_force"], &[]);
    decide(&mut two, 0, Action::Cast(card("mental_force")));
    Game::apply(&mut two, Actor::Seat(0), &target_wizard(1)).unwrap();
    assert!(Game::legal_actions(&two, 0).contains(&Action::Boost(card("mental_force"))));
}

// l.297: "Normally, a spell's energy is "1". However, when a player casts a spell, he may also
// discard one energy card to fuel the spell, which replaces that spell's energy." Any spell,
// not only those whose effect reads its energy: a boosted attack is past a Shield ("an attack
// spell of energy 3 or less").
#[test]
fn any_spell_may_be_boosted() {
    // Unboosted (energy 1), the Shield can answer it: a window asks seat 1.
    let mut plain = facing(&["drop_object", "energy_4"], &["shield"]);
    decide(&mut plain, 0, Action::Cast(card("drop_object")));
    decide(&mut plain, 0, target_wizard(1));
    decide(&mut plain, 0, Action::NoBoost);
    assert_eq!(waiting_for(&plain), [1]);
    // Boosted to 4, it is past the Shield: nobody can answer, it resolves at once.
    let mut state = facing(&["drop_object", "energy_4"], &["shield"]);
    decide(&mut state, 0, Action::Cast(card("drop_object")));
    decide(&mut state, 0, target_wizard(1));
    let legal = Game::legal_actions(&state, 0);
    assert!(
        legal.contains(&Action::Boost(card("energy_4"))),
        "{legal:?}"
    );
    decide(&mut state, 0, Action::Boost(card("energy_4")));
    assert!(
        state.stack.is_empty(),
        "Shield cannot answer an attack of energy 4"
    );
    assert!(state.discard.contains(&card("drop_object")));
    // A neutral spell whose effect does not read its energy may be boosted too.
    let mut dispel = facing(&["dispel", "energy_5"], &[]);
    let id = spell_in_play(&mut dispel, 1, "fog", Target::Square(Pos(4, 4)));
    decide(&mut dispel, 0, Action::Cast(card("dispel")));
    decide(&mut dispel, 0, Action::Target(Target::Spell(id)));
    assert!(Game::legal_actions(&dispel, 0).contains(&Action::Boost(card("energy_5"))));
}
