//! Mutation: one rule test per card, each quoting the card text (ours: CONTENT.md gives only
//! the names, and the Forms' numbers) and the rulebook sentence its effect follows
//! (shared/rules/wiz-war.md, by line), and the rule of one transformation at a time (l.323).

use super::*;
use crate::rules::wiz_war::board::EdgeKind;
use crate::rules::wiz_war::cards::{Effect, FORMS, School};
use crate::rules::wiz_war::{changes, flow};

fn form_name(state: &State, seat: Seat) -> Option<&'static str> {
    state.form(seat).map(|f| f.name)
}

fn punches(state: &State, seat: Seat) -> Vec<Action> {
    Game::legal_actions(state, seat)
        .into_iter()
        .filter(|a| matches!(a, Action::Punch(_)))
        .collect()
}

/// The chance step now is a roll of the four-sided die, faces 1-4, weight 1 each.
fn die_is_rolled(state: &State) {
    match Game::next(state) {
        Next::Chance(c) => assert_eq!(
            c.outcomes,
            (1..=4).map(|n| (Action::Roll(n), 1)).collect::<Vec<_>>()
        ),
        other => panic!("expected the die, got {other:?}"),
    }
}

// Disease: "Attack, curse, temporary. The target sickens: when time passes on its turn it takes
// 1 damage and has 1 movement point fewer that turn. Lasts turns equal to its energy."
// l.309: "Curse: An attack with lingering effects on its target." l.88: "Remove Energy: The
// active player removes one energy token from each of his maintained temporary spells".
#[test]
fn disease_hurts_and_slows_its_target_when_time_passes_on_its_turn() {
    let mut state = facing(&["disease", "energy_4"], &[]);
    decide(&mut state, 0, Action::Cast(card("disease")));
    decide(&mut state, 0, target_wizard(1));
    decide(&mut state, 0, Action::Boost(card("energy_4")));
    assert_eq!(state.spells[0].tokens, 4, "lasts turns equal to its energy");
    assert_eq!(
        life(&state, 1),
        15,
        "nothing before time passes on its turn"
    );
    flow::end_turn(&mut state);
    assert_eq!(state.turn.seat, 1);
    assert_eq!(life(&state, 1), 14, "1 damage when time passes on its turn");
    assert_eq!(state.turn.movement, 2, "1 movement point fewer");
    assert_eq!(
        state.spells[0].tokens, 4,
        "its tokens go on the caster's turn"
    );
    flow::end_turn(&mut state);
    assert_eq!((state.turn.seat, state.spells[0].tokens), (0, 3));
    assert_eq!(state.turn.movement, 3, "the caster is not sick");
}

// Heave-Ho: "Attack. Seize a wizard in or next to your square and hurl it energy + 1 squares
// straight away from you (if it is in your square, you choose the direction), never around a
// corner: 2 damage, and 2 more if a wall, door or object in its way stops it short."
// l.192: "Adjacent: The wizard may play this card only on a target that is in the same square
// as himself or an adjacent square." l.505 (Waterbolt): "If the target is in your square, you
// choose which direction to knock it back. The target cannot be knocked back around a corner."
#[test]
fn heave_ho_hurls_an_adjacent_wizard_and_a_wall_stops_it_hard() {
    let far = facing(&["heave_ho"], &[]);
    assert!(
        !Game::legal_actions(&far, 0).contains(&Action::Cast(card("heave_ho"))),
        "three squares away: out of reach"
    );
    let mut state = facing(&["heave_ho"], &[]);
    place(&mut state, 1, Pos(1, 2));
    decide(&mut state, 0, Action::Cast(card("heave_ho")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(state.pos(1), Some(Pos(3, 2)), "energy 1: 2 squares away");
    assert_eq!(life(&state, 1), 13, "2 damage");

    let mut walled = facing(&["heave_ho"], &[]);
    place(&mut walled, 1, Pos(1, 2));
    wall(&mut walled, Pos(2, 2), Dir::East);
    decide(&mut walled, 0, Action::Cast(card("heave_ho")));
    decide(&mut walled, 0, target_wizard(1));
    assert_eq!(walled.pos(1), Some(Pos(2, 2)), "stopped by the wall");
    assert_eq!(life(&walled, 1), 11, "2 damage and 2 more");

    let mut same = facing(&["heave_ho"], &[]);
    place(&mut same, 1, Pos(0, 2));
    decide(&mut same, 0, Action::Cast(card("heave_ho")));
    let legal = Game::legal_actions(&same, 0);
    for d in Dir::ALL {
        assert!(legal.contains(&Action::Target(Target::WizardToward(1, d))));
    }
    decide(
        &mut same,
        0,
        Action::Target(Target::WizardToward(1, Dir::South)),
    );
    assert_eq!(same.pos(1), Some(Pos(0, 4)));
}

// Gnome Form: "... 2 movement points a turn, and when an attack (a spell, punch, thrown item or
// weapon) is aimed at you, the four-sided die is rolled: on 1-2 it misses you." CONTENT.md:
// "Gnome (move 2, evades on 1-2)"; l.21: the game has "1 Four-sided Die".
#[test]
fn a_gnome_evades_attacks_on_one_or_two() {
    let mut state = facing(&["fire_darts"], &["gnome_form"]);
    turn_of(&mut state, 1);
    decide(&mut state, 1, Action::Cast(card("gnome_form")));
    assert_eq!(form_name(&state, 1), Some("Gnome"));
    assert_eq!(state.turn.movement, 2, "move 2");
    turn_of(&mut state, 0);
    decide(&mut state, 0, Action::Cast(card("fire_darts")));
    decide(&mut state, 0, target_wizard(1));
    die_is_rolled(&state);
    assert_eq!(life(&state, 1), 15, "nothing before the roll");
    chance(&mut state, Action::Roll(2));
    assert_eq!(life(&state, 1), 15, "missed");
    assert!(
        state.discard.contains(&card("fire_darts")),
        "the spell is spent"
    );
    // A punch rolled 3 hits.
    state.turn.attacked = false;
    place(&mut state, 1, Pos(1, 2));
    decide(&mut state, 0, Action::Punch(1));
    die_is_rolled(&state);
    chance(&mut state, Action::Roll(3));
    assert_eq!(life(&state, 1), 14);
    assert_eq!(waiting_for(&state), [0]);
}

// Stretch: "Your limbs stretch: for the rest of this turn your punches, and your spells that
// reach a wizard in or next to your square, also reach a wizard up to energy + 1 squares away
// in a straight, open line." l.192 (adjacent range) is what it stretches.
#[test]
fn stretch_lets_punches_reach_further_this_turn() {
    let mut state = facing(&["stretch"], &[]);
    place(&mut state, 1, Pos(2, 2));
    assert!(punches(&state, 0).is_empty(), "two squares away");
    decide(&mut state, 0, Action::Cast(card("stretch")));
    assert_eq!(state.turn.reach, 2, "energy 1 + 1");
    assert_eq!(punches(&state, 0), [Action::Punch(1)]);
    decide(&mut state, 0, Action::Punch(1));
    assert_eq!(life(&state, 1), 14);
    // Not round a wall.
    let mut walled = facing(&["stretch"], &[]);
    place(&mut walled, 1, Pos(2, 2));
    wall(&mut walled, Pos(1, 2), Dir::East);
    decide(&mut walled, 0, Action::Cast(card("stretch")));
    assert!(punches(&walled, 0).is_empty());
    // It lasts the turn only.
    flow::end_turn(&mut state);
    assert_eq!(state.turn.reach, 0);
}

// Adrenaline: "Your heart races: gain energy + 1 movement points this turn, and discard all your
// stun tokens." l.97: "Spend Movement Points (usually 3)"; l.90: "Remove Stun: If the active
// player has any stun tokens, he discards one of them".
#[test]
fn adrenaline_gives_movement_and_shakes_off_stun_tokens() {
    let mut state = facing(&["adrenaline"], &[]);
    state.wizards[0].stun = 2;
    decide(&mut state, 0, Action::Cast(card("adrenaline")));
    assert_eq!(state.turn.movement, 3 + 2);
    assert_eq!(state.wizards[0].stun, 0);
}

// Big Man Form: "... 3 movement points a turn, and your punches deal 3 damage." CONTENT.md:
// "Big Man (move 3, punch 3)".
#[test]
fn big_man_form_moves_three_and_punches_for_three() {
    let mut state = facing(&["big_man_form"], &[]);
    place(&mut state, 1, Pos(1, 2));
    decide(&mut state, 0, Action::Cast(card("big_man_form")));
    assert_eq!(form_name(&state, 0), Some("Big Man"));
    assert_eq!(state.turn.movement, 3);
    decide(&mut state, 0, Action::Punch(1));
    assert_eq!(life(&state, 1), 12);
    flow::end_turn(&mut state);
    flow::end_turn(&mut state);
    assert_eq!(state.turn.movement, 3);
}

// Extra Arms: "Temporary. Two more arms sprout: while this lasts (turns equal to its energy) you
// may punch once more each turn, even after your attack." l.286-288: "A player casts the
// "Extra Arms" spell and places it face-up in his play area with 1 energy token on it ...
// During his next turn, he removes the energy token and discards the card."
#[test]
fn extra_arms_give_one_more_punch_and_end_as_the_rulebook_example_says() {
    let mut state = facing(&["extra_arms"], &[]);
    place(&mut state, 1, Pos(1, 2));
    decide(&mut state, 0, Action::Cast(card("extra_arms")));
    assert_eq!(state.spells[0].tokens, 1, "1 energy token on it");
    assert_eq!(
        state.hand_total(0),
        1,
        "the card is considered part of his hand"
    );
    decide(&mut state, 0, Action::Punch(1));
    assert_eq!(punches(&state, 0), [Action::Punch(1)], "once more");
    decide(&mut state, 0, Action::Punch(1));
    assert_eq!(life(&state, 1), 13);
    assert!(punches(&state, 0).is_empty(), "only once more");
    flow::end_turn(&mut state);
    flow::end_turn(&mut state);
    assert_eq!(state.turn.seat, 0);
    assert!(
        state.spells.is_empty(),
        "his next turn: token removed, card discarded"
    );
    assert!(state.discard.contains(&card("extra_arms")));
    // Its printed energy value: "The energy value of "3" at the bottom of the card" (l.290).
    assert_eq!(card("extra_arms").energy_value(), 3);
}

// Golem Form: "... 2 movement points a turn, your punches deal 2 damage, and you take 2 less
// damage from every hit." CONTENT.md: "Golem (move 2, punch 2, takes 2 less damage)".
#[test]
fn golem_form_moves_two_punches_two_and_takes_two_less_damage() {
    let mut state = facing(&["golem_form"], &["fire_darts"]);
    place(&mut state, 1, Pos(1, 2));
    decide(&mut state, 0, Action::Cast(card("golem_form")));
    assert_eq!(form_name(&state, 0), Some("Golem"));
    assert_eq!(state.turn.movement, 2, "the form's 2 points this turn");
    decide(&mut state, 0, Action::Punch(1));
    assert_eq!(life(&state, 1), 13, "punch 2");
    turn_of(&mut state, 1);
    decide(&mut state, 1, Action::Cast(card("fire_darts")));
    decide(&mut state, 1, target_wizard(0));
    assert_eq!(life(&state, 0), 15, "2 fire damage, 2 less");
    changes::hurt(&mut state, 0, 5, Some(1), false);
    assert_eq!(life(&state, 0), 12);
}

// Mad Dash: "You run like mad: gain 3 x energy movement points this turn; the dash uses up your
// attack for this turn." l.97-98: "Spend Movement Points (usually 3)", "Make One Attack".
#[test]
fn mad_dash_trades_the_attack_for_movement() {
    let mut state = facing(&["mad_dash", "energy_4"], &[]);
    place(&mut state, 1, Pos(1, 2));
    decide(&mut state, 0, Action::Cast(card("mad_dash")));
    decide(&mut state, 0, Action::Boost(card("energy_4")));
    assert_eq!(state.turn.movement, 3 + 12);
    assert!(state.turn.attacked);
    assert!(punches(&state, 0).is_empty(), "no attack after the dash");
}

// Slime Form: "... 3 movement points a turn, and you ooze under doors: you may pass any door,
// whatever its colour (never a wall)." CONTENT.md: "Slime (move 3)", "doors pass only their own
// colour's wizard".
#[test]
fn a_slime_oozes_under_doors_of_any_colour_not_walls() {
    let mut state = facing(&["slime_form"], &[]);
    state.board.edge_mut(Pos(0, 2), Dir::East).unwrap().kind = EdgeKind::Door(1);
    wall(&mut state, Pos(0, 2), Dir::South);
    assert!(!state.may_cross(0, Pos(0, 2), Dir::East), "blue's door");
    decide(&mut state, 0, Action::Cast(card("slime_form")));
    assert_eq!(form_name(&state, 0), Some("Slime"));
    assert_eq!(state.turn.movement, 3);
    assert!(state.may_cross(0, Pos(0, 2), Dir::East));
    assert!(
        !state.may_cross(0, Pos(0, 2), Dir::South),
        "a wall still stops it"
    );
    decide(&mut state, 0, Action::Move(Dir::East));
    assert_eq!(state.pos(0), Some(Pos(1, 2)));
}

// Strength: "Temporary. Your muscles swell: while this lasts (turns equal to its energy) your
// punches deal 2 more damage." l.255: a temporary spell "remains in play for a limited number
// of turns, usually equal to the spell's energy."
#[test]
fn strength_adds_two_to_punches_while_it_lasts() {
    let mut state = facing(&["strength"], &[]);
    place(&mut state, 1, Pos(1, 2));
    decide(&mut state, 0, Action::Cast(card("strength")));
    decide(&mut state, 0, Action::Punch(1));
    assert_eq!(life(&state, 1), 12, "1 + 2");
    flow::end_turn(&mut state);
    flow::end_turn(&mut state);
    assert!(state.spells.is_empty(), "energy 1: one turn");
    assert_eq!(state.punch_damage(0), (1, 0));
}

// Wallivore: "Your jaws grow to eat stone: eat a stone wall on a side of your square (a created
// stone wall too; never an outer wall, a door or a wall of earth): it is destroyed, and you
// regain 1 life (up to 20)." l.192 (adjacent range); l.403: "If a door or wall is destroyed,
// place a destroyed wall marker on that door or wall".
#[test]
fn wallivore_eats_a_wall_of_your_square() {
    let mut state = facing(&["wallivore"], &[]);
    wall(&mut state, Pos(0, 2), Dir::East);
    wall(&mut state, Pos(2, 2), Dir::East);
    state.wizards[0].life = 10;
    decide(&mut state, 0, Action::Cast(card("wallivore")));
    let legal = Game::legal_actions(&state, 0);
    assert!(legal.contains(&Action::Target(Target::Square(Pos(0, 2)))));
    assert!(
        !legal.contains(&Action::Target(Target::Square(Pos(2, 2)))),
        "only the walls of its own square"
    );
    decide(&mut state, 0, Action::Target(Target::Square(Pos(0, 2))));
    decide(
        &mut state,
        0,
        Action::Target(Target::Side(Pos(0, 2), Dir::East)),
    );
    assert!(state.board.edge(Pos(0, 2), Dir::East).unwrap().destroyed);
    assert_eq!(life(&state, 0), 11);
    // Never an outer wall: the room's west rim stays out of reach.
    let rim = facing(&["wallivore"], &[]);
    assert!(
        !Game::legal_actions(&rim, 0).contains(&Action::Cast(card("wallivore"))),
        "no stone wall on its square but the outer wall"
    );
}

// Werewolf Form: "... 4 movement points a turn, and your punches deal a roll of the four-sided
// die (1-4)." CONTENT.md: "Werewolf (move 4, punch d4)"; the rulebook's opening: "transforming
// herself into a swift and savage werewolf".
#[test]
fn werewolf_form_moves_four_and_punches_for_the_die() {
    let mut state = facing(&["werewolf_form"], &[]);
    place(&mut state, 1, Pos(1, 2));
    decide(&mut state, 0, Action::Move(Dir::South));
    decide(&mut state, 0, Action::Move(Dir::North));
    assert_eq!(state.turn.movement, 1);
    decide(&mut state, 0, Action::Cast(card("werewolf_form")));
    assert_eq!(form_name(&state, 0), Some("Werewolf"));
    assert_eq!(state.turn.movement, 2, "one more point, as the form has 4");
    decide(&mut state, 0, Action::Punch(1));
    die_is_rolled(&state);
    chance(&mut state, Action::Roll(4));
    assert_eq!(life(&state, 1), 11);
    flow::end_turn(&mut state);
    flow::end_turn(&mut state);
    assert_eq!(state.turn.movement, 4, "move 4");
}

// l.323: "Transformation: A physical transformation into another form. A wizard or creature may
// only be affected by one transformation at a time - any transformation cast on a wizard or
// creature cancels any previous transformation affecting it." Mist Body ("Your body turns to
// mist") is one too.
#[test]
fn one_transformation_at_a_time() {
    let mut state = facing(&["golem_form", "werewolf_form", "mist_body"], &[]);
    decide(&mut state, 0, Action::Cast(card("golem_form")));
    assert_eq!(form_name(&state, 0), Some("Golem"));
    decide(&mut state, 0, Action::Cast(card("werewolf_form")));
    assert_eq!(form_name(&state, 0), Some("Werewolf"));
    assert_eq!(state.spells.len(), 1, "the Golem Form was cancelled");
    assert_eq!(state.spells[0].card, card("werewolf_form"));
    assert!(state.discard.contains(&card("golem_form")));
    assert_eq!(state.turn.movement, 4, "3 - 1 (golem) + 2 (werewolf)");
    decide(&mut state, 0, Action::Cast(card("mist_body")));
    assert_eq!(form_name(&state, 0), None, "mist, not a werewolf");
    assert_eq!(state.spells.len(), 1);
    assert_eq!(state.spells[0].card, card("mist_body"));
    assert_eq!(state.turn.movement, 3);
    assert!(card("mist_body").has_trait(crate::rules::wiz_war::cards::Trait::Transformation));
}

// How a transformation ends, as a maintained spell: l.259: "The caster may end the spell at any
// time during his turn, at which point the spell is discarded from play." l.274: "Some Magic
// cards can also end maintained spells. Once a maintained spell is ended, it is discarded from
// play." l.276: "Any effects from the spell immediately end". Dispel: "End any temporary or permanent
// spell in play."
#[test]
fn a_transformation_ends_with_its_spell() {
    let mut state = facing(&["golem_form"], &["dispel"]);
    decide(&mut state, 0, Action::Cast(card("golem_form")));
    let id = state.spells[0].id;
    turn_of(&mut state, 1);
    decide(&mut state, 1, Action::Cast(card("dispel")));
    decide(&mut state, 1, Action::Target(Target::Spell(id)));
    assert_eq!(form_name(&state, 0), None, "Dispel ended it");
    assert!(state.spells.is_empty());
    // The caster ends it: back to 3 movement points a turn, the points left adjusted.
    let mut own = facing(&["werewolf_form"], &[]);
    decide(&mut own, 0, Action::Cast(card("werewolf_form")));
    assert_eq!(own.turn.movement, 4);
    let id = own.spells[0].id;
    decide(&mut own, 0, Action::EndSpell(id));
    assert_eq!((form_name(&own, 0), own.turn.movement), (None, 3));
    assert!(own.discard.contains(&card("werewolf_form")));
}

// Featherweight (Mutation x2): "Counter. Play when an attack spell is cast at you: you float
// off unharmed (it is cancelled) and drift 2 squares straight away from the attacker, stopping
// at a barrier." l.501: "Featherweight: If the attack originates in your square, you choose
// which direction to move."
#[test]
fn featherweight_floats_off_unharmed() {
    let mut state = facing(&["heave_ho"], &["featherweight"]);
    place(&mut state, 1, Pos(1, 2));
    decide(&mut state, 0, Action::Cast(card("heave_ho")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(waiting_for(&state), [1]);
    decide(&mut state, 1, Action::Counter(card("featherweight")));
    assert_eq!(life(&state, 1), 15);
    assert_eq!(state.pos(1), Some(Pos(3, 2)));
}

// l.42: "the players ... select three other schools of magic"; Mutation is complete: every
// card of its list has an effect (Energy 4 and 5 are energy), so it is offered, and its 24
// cards with Cantrip's 12 and two schools' 48 make the 84-card deck.
#[test]
fn every_mutation_card_is_implemented_and_the_school_is_offered() {
    assert!(School::Mutation.complete());
    let count: u32 = School::Mutation
        .deck()
        .iter()
        .map(|(_, n)| u32::from(*n))
        .sum();
    assert_eq!(count, 24);
    for (key, _) in School::Mutation.deck() {
        assert_ne!(card(key).effect(), Effect::Later, "{key}");
    }
    for f in FORMS {
        let c = card(f.card);
        assert_eq!(c.effect(), Effect::Transform, "{}", f.name);
        assert!(School::Mutation.deck().iter().any(|(k, _)| *k == f.card));
    }
    let options = Options {
        schools: vec![School::Alchemy, School::Elemental, School::Mutation],
        ..quiet()
    };
    let state = start(3, &options);
    assert_eq!(state.deck.len() + 15, 84);
}

// l.323's transformations are on the table for everyone: the view, the presenter (players, the
// board key, the punch choice), the log and the picture name the form a wizard has taken (the
// rulebook's "5 Plastic Transformed Wizard Figures", l.17).
#[test]
fn a_transformed_wizard_shows_everywhere() {
    use crate::rules::Viewer;
    let names: Vec<String> = ["Ann", "Bob"].iter().map(|n| (*n).to_owned()).collect();
    let mut state = facing(&["werewolf_form"], &["gnome_form"]);
    place(&mut state, 1, Pos(1, 2));
    turn_of(&mut state, 1);
    decide(&mut state, 1, Action::Cast(card("gnome_form")));
    turn_of(&mut state, 0);
    decide(&mut state, 0, Action::Cast(card("werewolf_form")));
    assert!(
        state
            .events
            .contains(&"Seat 0 took the form of a Werewolf.".to_owned())
    );
    let view = Game::view(&state, Viewer::Seat(1));
    assert_eq!(view["wizards"][0]["form"], "Werewolf");
    assert_eq!(view["wizards"][1]["form"], "Gnome");
    let table = Game::present(&state, Viewer::Seat(1), &names);
    let lines: Vec<&String> = table.sections.iter().flat_map(|s| &s.lines).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("in Werewolf form (4 movement points, punches d4)")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("A = Ann (red, a werewolf)"))
    );
    let actions = Game::legal_actions(&state, 0);
    let groups = Game::choices(&state, 0, &actions, &names);
    let labels: Vec<&String> = groups
        .iter()
        .flat_map(|g| &g.choices)
        .map(|c| &c.label)
        .collect();
    assert!(
        labels
            .iter()
            .any(|l| l.contains("(d4 damage; a gnome misses on 1-2 of the die)")),
        "{labels:#?}"
    );
    let svg = Game::picture(&state, Viewer::Seat(1), &names).unwrap();
    assert!(svg.contains("data-form=\"Werewolf\"") && svg.contains("data-form=\"Gnome\""));
    assert!(svg.contains("Werewolf: move 4, punch d4"), "the legend");
    assert!(
        svg.contains("transformed: Werewolf (4 movement points, punches d4)"),
        "the tooltip"
    );
    decide(&mut state, 0, Action::Punch(1));
    let said = Game::describe(&state, Actor::Chance, &Action::Roll(2), Viewer::Seat(1));
    assert_eq!(said, "Seat 1 rolled 2 and evaded Seat 0's attack");
    chance(&mut state, Action::Roll(2));
    assert_eq!(life(&state, 1), 15);
    assert!(state.needs.is_empty(), "a missed punch rolls no d4");
}

// The picture's legend line of a form fits its narrow panel: "Gnome: move 2, punch 1, evades
// 1-2" ran past it, so the usual 1-damage punch is left out (CONTENT.md: "Gnome (move 2,
// evades on 1–2)", "Golem (move 2, punch 2, takes 2 less damage)").
#[test]
fn a_forms_legend_names_only_what_the_form_changes() {
    let form = |name: &str| FORMS.iter().find(|f| f.name == name).unwrap();
    assert_eq!(form("Gnome").short_words(), "move 2, evades 1-2");
    assert_eq!(form("Golem").short_words(), "move 2, punch 2, -2 damage");
    assert_eq!(form("Werewolf").short_words(), "move 4, punch d4");
}
