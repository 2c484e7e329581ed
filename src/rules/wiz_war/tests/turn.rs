//! The turn, hands and draws, objects and treasures, death and victory, hidden information.

use super::*;
use crate::rules::wiz_war::state::Phase;
use crate::rules::{Viewer, Visibility};

// "Deal five cards from the Magic deck facedown to each player." "Each player sets his life
// tracker to "15"." Deck: "White Cantrip + 3 schools = 84".
#[test]
fn set_up_deals_five_cards_by_chance_from_an_84_card_deck() {
    let mut state = Game::new_game(&quiet(), 2).unwrap();
    assert_eq!(state.deck.len(), 84);
    for s in 0..2 {
        chance(&mut state, Action::Colour(s));
    }
    for s in 0..2 {
        chance(&mut state, Action::PlaceSector(s));
        chance(&mut state, Action::TurnSector(0));
    }
    let Next::Chance(c) = Game::next(&state) else {
        panic!()
    };
    assert_eq!(c.total_weight(), 84, "weighted by copies left");
    assert!(c.outcomes.contains(&(Action::Draw(card("fireball")), 3)));
    for _ in 0..10 {
        chance(&mut state, Action::Draw(card("fireball")));
        if state
            .deck
            .iter()
            .filter(|&&c| c == card("fireball"))
            .count()
            == 0
        {
            break;
        }
    }
    assert_eq!(state.wizards[0].hand.len() + state.wizards[1].hand.len(), 3);
    assert_eq!(state.wizards[0].life, 15);
    assert_eq!(state.wizards[0].at, state.board.home(0));
}

// "Make One Attack (but not during the first turn)"; "The active wizard may play one attack
// spell during his turn ... He may not attack with a weapon or punch an opponent in the same
// turn in which he played an attack spell."
#[test]
fn one_attack_a_turn_and_none_in_the_first() {
    let mut state = duel(&["fireball", "mental_force"], &[]);
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(1, 2));
    state.turn.first = true;
    let legal = Game::legal_actions(&state, 0);
    assert!(!legal.contains(&Action::Cast(card("fireball"))));
    assert!(!legal.contains(&Action::Punch(1)));
    let err = illegal(&state, 0, Action::Cast(card("fireball")));
    assert_eq!(
        err,
        RuleError::Illegal("no attack in a wizard's first turn".to_owned())
    );
    state.turn.first = false;
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, target_wizard(1));
    let legal = Game::legal_actions(&state, 0);
    assert!(!legal.contains(&Action::Cast(card("mental_force"))));
    assert!(!legal.contains(&Action::Punch(1)));
}

// "Discard Cards: The active player may discard any number of cards from his hand." "Draw
// Cards: The active player may draw up to two cards so long as he never exceeds his maximum
// hand size".
#[test]
fn discard_then_draw_up_to_two() {
    let mut state = duel(&["fireball", "zot", "fog", "dispel", "add"], &[]);
    decide(&mut state, 0, Action::EndMove);
    decide(&mut state, 0, Action::Discard(card("add")));
    decide(&mut state, 0, Action::DrawCard);
    chance(&mut state, Action::Draw(card("shield")));
    assert!(
        !Game::legal_actions(&state, 0).contains(&Action::Discard(card("zot"))),
        "discarding comes before drawing"
    );
    decide(&mut state, 0, Action::DrawCard);
    chance(&mut state, Action::Draw(card("teleport")));
    assert!(!Game::legal_actions(&state, 0).contains(&Action::DrawCard));
    assert_eq!(state.wizards[0].hand.len(), 6);
    decide(&mut state, 0, Action::EndTurn);
    assert_eq!(state.turn.seat, 1);
}

// "If a player has more cards in his hand than his maximum hand size ... he must immediately
// discard down"; "Carried items and maintained spells count toward a player's maximum hand
// size".
#[test]
fn over_the_hand_limit_discard_down_at_once() {
    let mut state = duel(
        &[
            "fireball", "zot", "fog", "dispel", "add", "shield", "teleport",
        ],
        &[],
    );
    // Over the limit without picking anything up (that needs room first, l.365): an item
    // carried on top of a full hand, as Absorb Spell or a Thought Steal can leave it.
    state.wizards[0].items = vec![card("large_rock")];
    assert_eq!(state.hand_total(0), 8);
    assert_eq!(waiting_for(&state), vec![0]);
    let legal = Game::legal_actions(&state, 0);
    assert!(legal.contains(&Action::Discard(card("zot"))));
    assert!(legal.contains(&Action::Drop(card("large_rock"))));
    assert!(!legal.contains(&Action::EndMove));
    decide(&mut state, 0, Action::Discard(card("zot")));
    assert!(Game::legal_actions(&state, 0).contains(&Action::EndMove));
}

/// What `viewer` is shown of `actor`'s `action` in the log, as the twin check compares it.
fn entry_seen(state: &State, actor: Actor, action: &Action, viewer: Viewer) -> String {
    crate::rules::conformance::log_entry::<Game>(state, actor, action, viewer)
}

/// Two hands of 8 (over the hand limit of 7) whose first cards, sorted, differ (Zot, Shield).
const EIGHT: [[&str; 8]; 2] = [
    [
        "add", "dispel", "fireball", "fog", "shield", "teleport", "zot", "zot",
    ],
    [
        "add", "add", "dispel", "fireball", "fireball", "fog", "shield", "teleport",
    ],
];

// "If a player has more cards in his hand than his maximum hand size (as a result of casting a
// spell, killing a wizard, etc)., he must immediately discard down to his maximum hand size."
// (l.116) and "Players may look at their cards, but must keep them secret." (l.48) Ruling 31:
// the move a deadline makes over the hand limit must not depend on which cards are held. The
// old default discarded the first card of the sorted hand, which told everyone that no card of
// the hand sorts before it: these two hands gave different log entries.
#[test]
fn a_deadline_over_the_hand_limit_tells_the_others_nothing_of_the_hand() {
    let (mut seen, mut firsts) = (Vec::new(), Vec::new());
    for hand in EIGHT {
        let mut state = duel(&hand, &[]);
        firsts.push(state.wizards[0].hand[0]);
        assert_eq!(state.hand_total(0), 8);
        assert_eq!(waiting_for(&state), vec![0]);
        let default = Game::default_action(&state, 0).unwrap();
        assert!(Game::legal_actions(&state, 0).contains(&default));
        let entries: Vec<String> = [Viewer::Seat(1), Viewer::Spectator]
            .into_iter()
            .map(|v| entry_seen(&state, Actor::Seat(0), &default, v))
            .collect();
        Game::apply(&mut state, Actor::Seat(0), &default).unwrap();
        let asked = match Game::next(&state) {
            Next::Players(seats) => format!("{seats:?}"),
            Next::Chance(_) => "chance".to_owned(),
            Next::Over(_) => "over".to_owned(),
        };
        seen.push((entries, asked));
    }
    assert_ne!(
        firsts[0], firsts[1],
        "the sorted hands begin with different cards"
    );
    assert_eq!(seen[0], seen[1]);
}

// l.116, as above. Ruling 31: `discard_at_random` is offered over the hand limit (so that the
// default is a listed action); chance draws the card, each card of the hand alike with its
// copies counted, and it is discarded face up as a chosen one is.
#[test]
fn discard_at_random_draws_the_card_by_chance_and_discards_it_face_up() {
    let mut state = duel(&EIGHT[0], &[]);
    assert_eq!(
        Game::default_action(&state, 0),
        Some(Action::DiscardAtRandom)
    );
    let entry = entry_seen(
        &state,
        Actor::Seat(0),
        &Action::DiscardAtRandom,
        Viewer::Seat(1),
    );
    assert!(
        entry.contains("Seat 0 discards a card from their hand at random"),
        "{entry}"
    );
    decide(&mut state, 0, Action::DiscardAtRandom);
    assert!(Game::legal_actions(&state, 0).is_empty());
    let Next::Chance(c) = Game::next(&state) else {
        panic!("a chance step draws the card")
    };
    assert_eq!(c.total_weight(), 8);
    assert!(
        c.outcomes
            .contains(&(Action::RandomDiscard(card("zot")), 2))
    );
    assert!(
        c.outcomes
            .contains(&(Action::RandomDiscard(card("add")), 1))
    );
    let drawn = Action::RandomDiscard(card("zot"));
    assert_eq!(
        Game::visibility(&state, Actor::Chance, &drawn),
        Visibility::Public
    );
    let told = Game::describe(&state, Actor::Chance, &drawn, Viewer::Spectator);
    assert_eq!(told, "Seat 0 discards Zot, drawn at random from their hand");
    chance(&mut state, drawn);
    assert_eq!(state.wizards[0].hand.len(), 7);
    assert_eq!(
        state.wizards[0]
            .hand
            .iter()
            .filter(|&&c| c == card("zot"))
            .count(),
        1
    );
    assert!(state.discard.contains(&card("zot")));
    assert!(state.needs.is_empty());
    assert_eq!(waiting_for(&state), vec![0]);
    assert!(Game::legal_actions(&state, 0).contains(&Action::EndMove));
    assert!(!Game::legal_actions(&state, 0).contains(&Action::DiscardAtRandom));
}

// l.116 applies to every player, not only the active one: a wizard over the limit in another's
// turn discards at random at its deadline, and the turn goes on. With no card in hand (items
// and spells over the limit) nothing is drawn at random: the default drops the first carried
// item, which everyone sees already.
#[test]
fn discard_at_random_out_of_turn_and_not_from_an_empty_hand() {
    let mut state = duel(&["fireball"], &EIGHT[1]);
    assert_eq!(waiting_for(&state), vec![1]);
    assert_eq!(
        Game::default_action(&state, 1),
        Some(Action::DiscardAtRandom)
    );
    decide(&mut state, 1, Action::DiscardAtRandom);
    chance(&mut state, Action::RandomDiscard(card("fireball")));
    assert_eq!(state.wizards[1].hand.len(), 7);
    assert_eq!(waiting_for(&state), vec![0]);

    let mut state = duel(&[], &[]);
    state.wizards[0].items = ["large_rock"; 8].map(card).to_vec();
    assert_eq!(waiting_for(&state), vec![0]);
    let legal = Game::legal_actions(&state, 0);
    assert!(!legal.contains(&Action::DiscardAtRandom));
    assert_eq!(
        Game::default_action(&state, 0),
        Some(Action::Drop(card("large_rock")))
    );
}

// "Picking up a treasure immediately ends the Move and Cast phase"; "Dropping an enemy treasure
// in a wizard's home base square earns that wizard 1 victory point (while the treasure remains
// in the square)." "The first player to score 2 victory points wins the game."
#[test]
fn stolen_treasures_score_while_they_stay_and_two_points_win() {
    let mut state = start(2, &quiet());
    state.turn.first = false;
    let red = state.treasures.iter().position(|t| t.owner == 0).unwrap();
    let at = state.treasures[red].at.unwrap();
    place(&mut state, 0, at);
    // Seat 0 may carry its own treasure too.
    decide(&mut state, 0, Action::PickUpTreasure(red));
    assert_eq!(state.phase, Phase::DiscardAndDraw);
    decide(&mut state, 0, Action::EndTurn);
    // Blue takes a red treasure home.
    let red2 = state.treasures.iter().rposition(|t| t.owner == 0).unwrap();
    let at = state.treasures[red2].at.unwrap();
    place(&mut state, 1, at);
    decide(&mut state, 1, Action::PickUpTreasure(red2));
    decide(&mut state, 1, Action::EndTurn);
    decide(&mut state, 0, Action::EndMove);
    decide(&mut state, 0, Action::EndTurn);
    let home = state.board.home(1).unwrap();
    place(&mut state, 1, home);
    decide(&mut state, 1, Action::DropTreasure);
    assert_eq!(state.points(1), 1);
    decide(&mut state, 1, Action::PickUpTreasure(red2));
    assert_eq!(state.points(1), 0, "the point is lost when it leaves");
    state.phase = Phase::MoveAndCast;
    decide(&mut state, 1, Action::DropTreasure);
    state.wizards[1].kills = 1;
    decide(&mut state, 1, Action::EndMove);
    match Game::next(&state) {
        Next::Over(o) => assert_eq!(o.winners, vec![1]),
        other => panic!("expected the end, got {other:?}"),
    }
}

// "Killing Enemy Wizards: Each time a player kills an enemy wizard, that player scores 1
// victory point." "His wizard is the only wizard still alive on the game board." CONTENT: "a
// killed wizard is removed, drops its treasure and items, and its killer scores".
#[test]
fn a_kill_scores_and_the_dead_drop_what_they_carry() {
    let mut state = start(3, &quiet());
    open_room(&mut state);
    give(&mut state, 0, &["fireball"]);
    give(&mut state, 1, &[]);
    give(&mut state, 2, &[]);
    state.turn.first = false;
    state
        .treasures
        .push(crate::rules::wiz_war::state::Treasure { owner: 2, at: None });
    let t = state.treasures.len() - 1;
    state.wizards[1].treasure = Some(t);
    state.wizards[1].items = vec![card("large_rock")];
    state.wizards[1].life = 5;
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, target_wizard(1));
    assert!(!state.alive(1));
    assert_eq!(state.wizards[0].kills, 1);
    assert_eq!(state.treasures[t].at, Some(Pos(3, 2)));
    assert!(
        state
            .objects
            .iter()
            .any(|o| o.card == card("large_rock") && o.at == Pos(3, 2))
    );
    assert!(
        matches!(Game::next(&state), Next::Players(_)),
        "two wizards still alive"
    );
    state.wizards[2].life = 1;
    crate::rules::wiz_war::changes::hurt(&mut state, 2, 5, Some(0), false);
    crate::rules::wiz_war::flow::advance(&mut state);
    match Game::next(&state) {
        Next::Over(o) => assert_eq!(o.winners, vec![0]),
        other => panic!("expected the end, got {other:?}"),
    }
}

// "Spells cannot create objects in a player's home base square or in any square containing an
// object, treasure, or creature."
#[test]
fn creations_never_in_a_home_base_or_occupied_square() {
    let mut state = duel(&["stone_block"], &[]);
    place(&mut state, 0, Pos(1, 2));
    place(&mut state, 1, Pos(3, 2));
    decide(&mut state, 0, Action::Cast(card("stone_block")));
    let legal = Game::legal_actions(&state, 0);
    assert!(
        !legal.contains(&Action::Target(Target::Square(Pos(2, 2)))),
        "home base"
    );
    assert!(
        !legal.contains(&Action::Target(Target::Square(Pos(3, 2)))),
        "occupied"
    );
    assert!(
        !legal.contains(&Action::Target(Target::Square(Pos(1, 2)))),
        "the caster's square"
    );
    assert!(legal.contains(&Action::Target(Target::Square(Pos(4, 2)))));
}

// "Players may look at their cards, but must keep them secret."
#[test]
fn hands_and_draws_are_hidden_from_others() {
    let mut state = duel(&["fireball"], &["zot"]);
    let v = Game::view(&state, Viewer::Seat(1)).to_string();
    assert!(v.contains("zot") && !v.contains("\"fireball\""));
    decide(&mut state, 0, Action::EndMove);
    decide(&mut state, 0, Action::DrawCard);
    let draw = Action::Draw(card("teleport"));
    assert_eq!(
        Game::visibility(&state, Actor::Chance, &draw),
        Visibility::Seats(vec![0])
    );
    let seen = Game::describe(&state, Actor::Chance, &draw, Viewer::Seat(1));
    assert!(!seen.contains("Teleport"), "{seen}");
    assert_eq!(
        Game::redact(&state, Actor::Chance, &draw).to_string(),
        r#"{"draw":"hidden"}"#
    );
}

// CONTENT stand-in: "a stunned wizard may move or attack but not both, and casts nothing".
#[test]
fn a_stunned_wizard_casts_nothing() {
    let mut state = duel(&["fireball", "teleport"], &[]);
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(1, 2));
    state.turn.stunned = true;
    let legal = Game::legal_actions(&state, 0);
    assert!(!legal.iter().any(|a| matches!(a, Action::Cast(_))));
    assert!(legal.contains(&Action::Punch(1)));
    decide(&mut state, 0, Action::Punch(1));
    assert!(
        !Game::legal_actions(&state, 0)
            .iter()
            .any(|a| matches!(a, Action::Move(_)))
    );
}

// "the players ... select three other schools of magic"; only complete schools are offered.
#[test]
fn options_choose_three_available_schools() {
    use crate::rules::wiz_war::cards::School;
    let json: Options =
        serde_json::from_value(serde_json::json!({"ask_every_affected_wizard": true})).unwrap();
    assert_eq!(json.schools, Options::default().schools);
    assert!(serde_json::from_value::<Options>(serde_json::json!({"colour": 1})).is_err());
    let two = Options {
        schools: vec![School::Alchemy, School::Elemental],
        ..Options::default()
    };
    assert!(Game::new_game(&two, 2).is_err());
    let conjuring = Options {
        schools: vec![School::Alchemy, School::Elemental, School::Conjuring],
        ..Options::default()
    };
    let state = Game::new_game(&conjuring, 2).expect("Conjuring is complete");
    assert_eq!(state.deck.len(), 84, "12 Cantrip + 3 x 24");
    let mutation = Options {
        schools: vec![School::Conjuring, School::Mentalism, School::Mutation],
        ..Options::default()
    };
    let state = Game::new_game(&mutation, 2).expect("Mutation is complete");
    assert_eq!(state.deck.len(), 84, "12 Cantrip + 3 x 24");
    let thaumaturgy = Options {
        schools: vec![School::Alchemy, School::Elemental, School::Thaumaturgy],
        ..Options::default()
    };
    let state = Game::new_game(&thaumaturgy, 2).expect("Thaumaturgy is complete");
    assert_eq!(state.deck.len(), 84, "12 Cantrip + 3 x 24");
    let cantrip = Options {
        schools: vec![School::Alchemy, School::Elemental, School::Cantrip],
        ..Options::default()
    };
    assert!(
        Game::new_game(&cantrip, 2)
            .unwrap_err()
            .0
            .contains("not available")
    );
    assert!(Game::new_game(&Options::default(), 1).is_err());
    assert!(Game::new_game(&Options::default(), 5).is_err());
}
