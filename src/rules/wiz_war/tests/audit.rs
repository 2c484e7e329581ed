//! The audit of 2026-11-28 (docs/reviews/audit-2026-11-28-wiz-war.md): a test per finding
//! fixed, each quoting the rulebook (shared/rules/wiz-war.md, by line) or the card text it
//! follows. The fixes are edition 1's; each test also shows that a game of edition 0 (created
//! before) keeps the old rule, so that its log folds as it did.

use super::*;
use crate::rules::wiz_war::board::Created;
use crate::rules::wiz_war::cards::FORMS;
use crate::rules::wiz_war::state::{Need, Object, Spell};
use crate::rules::{Next, Ruleset};

fn legal(state: &State, seat: Seat, action: &Action) -> bool {
    Game::legal_actions(state, seat).contains(action)
}

/// The same state in a game created before edition 1.
fn edition_0(state: &State) -> State {
    let mut old = state.clone();
    old.options.edition = 0;
    old
}

fn put_object(state: &mut State, key: &str, at: Pos) -> u32 {
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

fn form(name: &str) -> u8 {
    FORMS
        .iter()
        .position(|f| f.name == name)
        .and_then(|i| u8::try_from(i).ok())
        .unwrap()
}

// B1. Pass Through Wall: "Step through a stone wall on a side of your square"; Wallivore: "eat a
// stone wall on a side of your square" (card texts); Astral Projection: "the range and sight of
// your spells are traced from a square you can see". Your square is where your body is: the
// projection moves where spells are traced from, not the wizard.
#[test]
fn after_astral_projection_pass_through_wall_and_wallivore_take_the_bodys_walls() {
    for key in ["pass_through_wall", "wallivore"] {
        let mut state = duel(&["astral_projection", key], &[]);
        place(&mut state, 0, Pos(0, 2));
        place(&mut state, 1, Pos(9, 4));
        wall(&mut state, Pos(0, 2), Dir::South);
        wall(&mut state, Pos(3, 0), Dir::South);
        decide(&mut state, 0, Action::Cast(card("astral_projection")));
        decide(&mut state, 0, Action::Target(Target::Square(Pos(3, 0))));
        assert_eq!(state.turn.cast_from, Some(Pos(3, 0)));
        decide(&mut state, 0, Action::Cast(card(key)));
        let old = edition_0(&state);
        assert!(
            legal(&old, 0, &Action::Target(Target::Square(Pos(3, 0)))),
            "edition 0: the projected square's walls ({key})"
        );
        assert!(
            !legal(&state, 0, &Action::Target(Target::Square(Pos(3, 0)))),
            "{key}: not a wall of the projected square"
        );
        decide(&mut state, 0, Action::Target(Target::Square(Pos(0, 2))));
        decide(
            &mut state,
            0,
            Action::Target(Target::Side(Pos(0, 2), Dir::South)),
        );
        if key == "pass_through_wall" {
            assert_eq!(state.pos(0), Some(Pos(0, 3)), "through the body's wall");
        } else {
            assert!(state.board.edge(Pos(0, 2), Dir::South).unwrap().destroyed);
            assert!(!state.board.edge(Pos(3, 0), Dir::South).unwrap().destroyed);
        }
    }
}

// B2. Teleport: "Move your wizard to a square you can see that no object fills." Fog and a Dust
// Cloud fill their square; a Rosebush ("nobody may move into that square (it does not block
// sight)") fills nothing, and a teleport is no move into a square (ruling 28: Glue "stops
// square-to-square moves (not Teleport or Swap)").
#[test]
fn teleport_goes_to_no_square_an_object_fills() {
    let mut state = facing(&["teleport"], &[]);
    put_object(&mut state, "fog", Pos(2, 0));
    put_object(&mut state, "dust_cloud", Pos(2, 4));
    put_object(&mut state, "rosebush", Pos(1, 0));
    decide(&mut state, 0, Action::Cast(card("teleport")));
    let to = |p: Pos| Action::Target(Target::Square(p));
    assert!(!legal(&state, 0, &to(Pos(2, 0))), "not into Fog");
    assert!(!legal(&state, 0, &to(Pos(2, 4))), "not into a Dust Cloud");
    assert!(legal(&state, 0, &to(Pos(1, 0))), "a Rosebush fills nothing");
    let old = edition_0(&state);
    assert!(legal(&old, 0, &to(Pos(2, 0))) && !legal(&old, 0, &to(Pos(1, 0))));
    decide(&mut state, 0, to(Pos(1, 0)));
    assert_eq!(state.pos(0), Some(Pos(1, 0)));
}

// B3. l.456-458: rotating a sector turns the sector "along with everything on it". The spells
// on it go on naming what they are on: a Fog's square and a created wall's line turn too.
#[test]
fn a_rotated_sector_takes_its_spells_targets_with_it() {
    let mut state = duel(&["fog", "create_wall", "rotate_sector"], &[]);
    place(&mut state, 0, Pos(0, 0));
    place(&mut state, 1, Pos(9, 4));
    decide(&mut state, 0, Action::Cast(card("fog")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(2, 1))));
    decide(&mut state, 0, Action::Cast(card("create_wall")));
    decide(&mut state, 0, Action::Target(Target::Square(Pos(1, 1))));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(1, 1), Dir::East)),
    );
    assert_eq!(state.spells.len(), 2);
    let before = state.clone();
    decide(&mut state, 0, Action::Cast(card("rotate_sector")));
    decide(&mut state, 0, Action::Target(Target::Rotate(0, 1)));
    for s in &state.spells {
        match s.target {
            Target::Square(p) => {
                let fog = state
                    .objects
                    .iter()
                    .find(|o| o.spell == Some(s.id))
                    .unwrap();
                assert_eq!(fog.at, p, "the Fog's spell names the Fog's square");
                assert_ne!(p, Pos(2, 1));
            }
            Target::Side(p, d) => {
                let e = state.board.edge(p, d).unwrap();
                assert_eq!(
                    e.created.map(|c| c.spell),
                    Some(s.id),
                    "the wall's spell names the wall's line"
                );
            }
            other => panic!("unexpected target {other:?}"),
        }
    }
    // Edition 0: the targets stay where they were.
    let mut old = edition_0(&before);
    decide(&mut old, 0, Action::Cast(card("rotate_sector")));
    decide(&mut old, 0, Action::Target(Target::Rotate(0, 1)));
    assert!(
        old.spells
            .iter()
            .any(|s| s.target == Target::Square(Pos(2, 1)))
    );
}

// B4. l.317: "If a wizard carrying a magic stone suffers fire damage, the stone is destroyed."
// A Golem takes 2 less damage from every hit: unboosted Fire Darts (2 fire damage) hurt it not
// at all, so it suffers no fire damage and keeps its stones.
#[test]
fn a_golem_that_takes_no_fire_damage_keeps_its_magic_stones() {
    let mut state = facing(&[], &["fire_darts"]);
    state.wizards[0].form = Some(form("Golem"));
    state.wizards[0].items = vec![card("powerstone")];
    turn_of(&mut state, 1);
    let mut old = edition_0(&state);
    for s in [&mut state, &mut old] {
        decide(s, 1, Action::Cast(card("fire_darts")));
        decide(s, 1, target_wizard(0));
        assert_eq!(life(s, 0), 15, "armour took all of it");
    }
    assert_eq!(state.wizards[0].items, [card("powerstone")]);
    assert!(old.wizards[0].items.is_empty(), "edition 0: lost");
}

// B5. Visionstone: "While you carry it, doors do not block your line of sight." Create Door: "like
// a closed door it blocks movement and sight". A created door is a door.
#[test]
fn a_visionstone_sees_through_a_created_door() {
    let mut state = facing(&[], &[]);
    state.wizards[0].items = vec![card("visionstone")];
    state.board.edge_mut(Pos(1, 2), Dir::East).unwrap().created = Some(Created {
        card: card("create_door"),
        spell: 99,
        cracks: 0,
    });
    assert!(state.sight_for(0).sees_square(Pos(0, 2), Pos(3, 2)));
    assert!(
        !state.sight_for(1).sees_square(Pos(3, 2), Pos(0, 2)),
        "without the stone it blocks"
    );
    assert!(
        !edition_0(&state)
            .sight_for(0)
            .sees_square(Pos(0, 2), Pos(3, 2))
    );
}

// B6. Glue: "it cannot move square to square" (card text). Pass Through Wall steps "into the
// square beyond": a move from square to square.
#[test]
fn a_glued_wizard_cannot_pass_through_a_wall() {
    let mut state = facing(&["pass_through_wall"], &[]);
    wall(&mut state, Pos(0, 2), Dir::East);
    state.spells.push(Spell {
        id: 50,
        card: card("glue"),
        caster: 1,
        energy: 1,
        tokens: 1,
        target: Target::Wizard(0),
    });
    assert!(state.glued(0));
    let cast = Action::Cast(card("pass_through_wall"));
    assert!(!legal(&state, 0, &cast));
    assert!(legal(&edition_0(&state), 0, &cast));
}

// B7. Gnome Form evades "an attack (a spell, punch, thrown item or weapon) ... aimed at it"; an
// item carried is the wizard's, as for counters (l.150: a Full Shield answers spells at "an
// item that is being carried by the player's wizard"). Shatter at a gnome's item is rolled for.
#[test]
fn a_gnome_rolls_to_evade_an_attack_at_its_item() {
    let mut state = facing(&["shatter"], &[]);
    state.wizards[1].form = Some(form("Gnome"));
    state.wizards[1].items = vec![card("mightstone")];
    let mut old = edition_0(&state);
    for s in [&mut state, &mut old] {
        decide(s, 0, Action::Cast(card("shatter")));
        decide(s, 0, Action::Target(Target::Item(1, card("mightstone"))));
    }
    assert!(matches!(
        state.needs.first(),
        Some(Need::Evade { victim: 1, .. })
    ));
    assert!(matches!(Game::next(&state), Next::Chance(_)));
    assert!(old.wizards[1].items.is_empty(), "edition 0: no roll");
}

// B8. l.112: "Once he has either drawn cards or declined to do so, the active player's turn
// immediately ends". After a draw, only the second draw or the end of the turn is left.
#[test]
fn after_a_draw_nothing_but_drawing_or_ending_the_turn() {
    let mut state = facing(&["fireball"], &[]);
    state.wizards[0].items = vec![card("large_rock")];
    state.spells.push(Spell {
        id: 60,
        card: card("strength"),
        caster: 0,
        energy: 1,
        tokens: 1,
        target: Target::None,
    });
    decide(&mut state, 0, Action::EndMove);
    assert!(legal(&state, 0, &Action::Drop(card("large_rock"))));
    decide(&mut state, 0, Action::DrawCard);
    let Next::Chance(c) = Game::next(&state) else {
        panic!("a draw")
    };
    chance(&mut state, c.outcomes[0].0.clone());
    let after = Game::legal_actions(&state, 0);
    assert!(
        after
            .iter()
            .all(|a| matches!(a, Action::DrawCard | Action::EndTurn)),
        "{after:?}"
    );
    let old = Game::legal_actions(&edition_0(&state), 0);
    assert!(old.contains(&Action::Drop(card("large_rock"))) && old.contains(&Action::EndSpell(60)));
}

// Group 2. l.488: "The player only receives a victory point in this manner when he reduces
// another wizard's life total to "0" or less with an attack". l.123 names the card types;
// Backlash is a counter spell, not an attack.
#[test]
fn a_backlash_kill_scores_no_point() {
    let mut state = facing(&["fire_darts"], &["backlash"]);
    state.wizards[0].life = 3;
    let mut old = edition_0(&state);
    for s in [&mut state, &mut old] {
        decide(s, 0, Action::Cast(card("fire_darts")));
        decide(s, 0, target_wizard(1));
        decide(s, 1, Action::Counter(card("backlash")));
        assert!(!s.alive(0));
    }
    assert_eq!(state.wizards[1].kills, 0);
    assert_eq!(old.wizards[1].kills, 1, "edition 0: it scored");
}

// Group 27. l.242: "If casting a spell or checking line of sight through a portal or off the
// edge of the map using wraparound movement, the two connected squares are treated as directly
// adjacent." l.232: a wall or door is targeted with "line of sight to the target itself": a
// wall seen across an exit can be targeted.
#[test]
fn a_wall_seen_across_an_exit_can_be_targeted() {
    let mut state = start(2, &quiet());
    open_inside(&mut state);
    state.turn.first = false;
    give(&mut state, 0, &["fireball"]);
    give(&mut state, 1, &[]);
    // An exit whose far square lies straight on (wraparound to the opposite edge).
    let link = *state
        .board
        .links
        .iter()
        .find(|l| l.heading == l.dir && state.board.exists(l.to.step(l.heading)))
        .unwrap();
    place(&mut state, 0, link.from);
    place(&mut state, 1, link.to);
    // The far square's wall straight on; the direct line back across the board is walled.
    wall(&mut state, link.to, link.heading);
    wall(&mut state, link.from, link.dir.opposite());
    let sight = state.sight_for(0);
    assert!(
        sight.sees_square(link.from, link.to),
        "seen across the exit"
    );
    assert!(sight.sees_side(link.from, link.to, link.heading));
    drop(sight);
    decide(&mut state, 0, Action::Cast(card("fireball")));
    let square = Action::Target(Target::Square(link.to));
    assert!(
        !legal(&edition_0(&state), 0, &square),
        "edition 0: direct only"
    );
    decide(&mut state, 0, square);
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(link.to, link.heading)),
    );
    let e = state.board.edge(link.to, link.heading).unwrap();
    assert_eq!(e.cracks, 1, "Fireball's 5 damage: 1 crack");
}

// Group 43. l.415-417: "If possible, a thrown object lands in the same square as its target. If
// a barrier (such as a wall) is in the way, or if the target fills the entire square, the object
// lands in the square in front of the barrier or target after striking it." l.423: "The yellow
// wizard throws a large rock through a destroyed wall and hits a stone block."
#[test]
fn a_large_rock_thrown_at_a_stone_block_lands_in_front_of_it() {
    let mut state = facing(&[], &[]);
    place(&mut state, 1, Pos(9, 4));
    state.wizards[0].items = vec![card("large_rock")];
    let block = put_object(&mut state, "stone_block", Pos(3, 2));
    decide(&mut state, 0, Action::Throw(card("large_rock")));
    let at_block = Action::Target(Target::Object(block));
    assert!(
        !legal(&edition_0(&state), 0, &at_block),
        "edition 0: wizards only"
    );
    decide(&mut state, 0, at_block);
    let stone = state.objects.iter().find(|o| o.id == block).unwrap();
    assert_eq!(stone.cracks, 1, "3 damage: 1 crack");
    let rock = state
        .objects
        .iter()
        .find(|o| o.card == card("large_rock"))
        .unwrap();
    assert_eq!(rock.at, Pos(2, 2), "the last square it passed through");
    assert!(state.wizards[0].items.is_empty());
}

// Group 50. l.511: "With 'Fireball' he also plays 'Around the Corner', which allows him to bend
// 'Fireball' around the corner." Around the Corner is a neutral spell played with the Fireball;
// Negate Neutral answers a neutral spell, and without its bend the Fireball cannot reach.
#[test]
fn negate_neutral_stops_a_spell_bent_around_the_corner() {
    let mut state = duel(&["fireball", "around_the_corner"], &["negate_neutral"]);
    place(&mut state, 0, Pos(0, 0));
    place(&mut state, 1, Pos(2, 2));
    wall(&mut state, Pos(1, 1), Dir::South);
    assert!(!state.sight_for(0).sees_square(Pos(0, 0), Pos(2, 2)));
    decide(&mut state, 0, Action::Cast(card("fireball")));
    let mut old = edition_0(&state);
    for s in [&mut state, &mut old] {
        decide(s, 0, target_wizard(1));
    }
    assert!(old.stack.is_empty(), "edition 0: nobody could answer");
    assert_eq!(life(&old, 1), 10);
    assert_eq!(waiting_for(&state), [1]);
    decide(&mut state, 1, Action::Counter(card("negate_neutral")));
    assert!(state.stack.is_empty());
    assert_eq!(life(&state, 1), 15, "the Fireball is lost");
    for c in ["fireball", "around_the_corner", "negate_neutral"] {
        assert!(state.discard.contains(&card(c)), "{c} is discarded");
    }
}

// The leak "a card named before it is committed and taken back": at a real table a spell is cast
// by playing its card, and l.249-251 send an instant spell's card to the discard pile once
// played. From edition 1 a named spell is committed: given up, it is discarded (ruling 32), so
// the table never learns a card that stays in the hand, and a deadline (whose default mid-cast
// is to give the cast up) shows nothing but the card already named.
#[test]
fn a_named_spell_given_up_is_discarded_not_taken_back() {
    let mut state = facing(&["fireball", "zot"], &[]);
    decide(&mut state, 0, Action::Cast(card("fireball")));
    assert_eq!(
        <Game as Ruleset>::default_action(&state, 0),
        Some(Action::CancelCast),
        "a deadline gives the cast up"
    );
    let mut old = edition_0(&state);
    decide(&mut state, 0, Action::CancelCast);
    assert_eq!(
        state.wizards[0].hand,
        [card("zot")],
        "the rest of the hand stays hidden"
    );
    assert!(state.discard.contains(&card("fireball")));
    assert!(state.casting.is_none());
    decide(&mut old, 0, Action::CancelCast);
    assert!(old.wizards[0].hand.contains(&card("fireball")), "edition 0");
}
