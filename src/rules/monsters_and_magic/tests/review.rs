//! The findings of the fidelity review of 2026-11-24 (issue 18): one test each, quoting the
//! rulebook sentence; each fails on the code before the fix.

use super::super::state::CombatStep;
use super::super::view::describe;
use super::*;
use crate::rules::Viewer;

/// Seat 0's Hero 1 at a1 attacks an enemy Army of seat 1 at b2 (Plains); both rolls made.
fn rolled_fight(attacker_cards: &[&str], defender_cards: &[&str]) -> State {
    let mut state = game(2);
    set_space(&mut state, Pos(1, 1), Terrain::Plains, Structure::Village);
    put_figure(&mut state, 1, FigureKind::Army, Pos(1, 1));
    for c in attacker_cards {
        give(&mut state, 0, id(c));
    }
    for c in defender_cards {
        give(&mut state, 1, id(c));
    }
    move_to(&mut state, 0, 1, Pos(1, 1));
    chance(&mut state, Action::Roll2d6(7));
    chance(&mut state, Action::Roll2d6(7));
    state
}

// "OT = Once on your Turn" — the defender, in the attacker's turn, cannot use the Artificer
// (review B3).
#[test]
fn the_defender_cannot_use_the_artificer() {
    let mut state = rolled_fight(&["Duelist"], &["Artificer", "Shield Bearers"]);
    decide(&mut state, 0, Action::DoneCards);
    assert_eq!(waiting_for(&state), vec![1]);
    assert_eq!(
        legal(&state, 1),
        vec![Action::PlayCard(id("Shield Bearers")), Action::DoneCards]
    );
}

// "Artificer OT 1 target figure gets +1F" — on your turn, also after seeing the dice.
#[test]
fn the_attacker_may_use_the_artificer_after_the_dice() {
    let mut state = rolled_fight(&["Artificer", "Duelist"], &[]);
    assert!(matches!(&state.phase, Phase::Combat(c) if c.step == CombatStep::AttackerCards));
    decide(&mut state, 0, Action::Artificer { figure: 1 });
    decide(&mut state, 0, Action::DoneCards);
    let report = state.last_combat.clone().unwrap();
    assert_eq!(report.attack_force, 1);
    assert_eq!(report.result, "the attacker wins");
}

// "Summon = Move 1 of your Units of the indicated type to a space adj to the summoning unit.
// This counts as the summoned units move for the turn." — a figure that moved, even for free
// into your Town, cannot then be summoned (review B2).
#[test]
fn a_figure_that_moved_for_free_cannot_be_summoned() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Dragon Riders"));
    // b1 is a Town (see lay_map); seat 0 holds it with a garrison.
    assert_eq!(state.structure(Pos(1, 0)), Some(Structure::Town));
    put_garrison(&mut state, 0, Pos(1, 0));
    let monster = put_figure(&mut state, 0, FigureKind::Monster, Pos(4, 4));
    assert!(
        legal(&state, 0)
            .iter()
            .any(|a| matches!(a, Action::Summon { unit: 1, .. }))
    );
    move_to(&mut state, 0, 1, Pos(1, 0));
    assert_eq!(state.figure(1).unwrap().spent, 0);
    assert!(
        !legal(&state, 0)
            .iter()
            .any(|a| matches!(a, Action::Summon { summoner, unit: 1, .. } if *summoner == monster))
    );
}

// "OT = Once on your Turn" / "Diplomat OT Switch a Permanent Card with one from your hand" —
// a permanent power used this turn and switched into the hand cannot be used again (review
// B4), nor can the Diplomat that switched itself.
#[test]
fn a_used_permanent_power_switched_into_the_hand_is_not_used_again() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Empire"));
    give_permanent(&mut state, 0, id("Diplomat"));
    give(&mut state, 0, id("Paladin"));
    give(&mut state, 0, id("Wings"));
    decide(&mut state, 0, Action::Empire { at: Pos(1, 1) });
    decide(
        &mut state,
        0,
        Action::Diplomat {
            permanent: id("Empire"),
            hand: id("Paladin"),
        },
    );
    assert!(state.players[0].hand.contains(&id("Empire")));
    assert!(
        !legal(&state, 0)
            .iter()
            .any(|a| matches!(a, Action::Empire { .. }))
    );
    // The Diplomat, used, switched into the hand: not again either.
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Diplomat"));
    give(&mut state, 0, id("Paladin"));
    give(&mut state, 0, id("Wings"));
    decide(
        &mut state,
        0,
        Action::Diplomat {
            permanent: id("Diplomat"),
            hand: id("Paladin"),
        },
    );
    assert!(state.players[0].hand.contains(&id("Diplomat")));
    assert!(
        !legal(&state, 0)
            .iter()
            .any(|a| matches!(a, Action::Diplomat { .. }))
    );
}

/// Ends seat 0's movement, draws `draw` and rolls `die` for recruitment.
fn to_recruitment(state: &mut State, draw: CardId, die: u8) {
    decide(state, 0, Action::EndMovement);
    chance(state, Action::DrawCard(draw));
    chance(state, Action::RollDie(die));
}

// "OT = Once on your Turn" and "You may play (discard) cards from hand at your discretion."
// — a recruit card after seeing the Recruit Roll (review gap 3).
#[test]
fn a_recruit_card_may_be_played_after_the_recruit_roll() {
    let mut state = game(2);
    give(&mut state, 0, id("Fellowship"));
    put_garrison(&mut state, 0, Pos(2, 2));
    let card = spare_cards(&state, 1, &[])[0];
    to_recruitment(&mut state, card, 2);
    assert!(matches!(state.phase, Phase::RecruitPlace { roll: 2 }));
    let with = Action::RecruitWith {
        card: id("Fellowship"),
        at: Pos(2, 2),
    };
    assert!(legal(&state, 0).contains(&with));
    decide(&mut state, 0, with);
    // The Hero took the only free garrison: the Army of the roll has nowhere to go.
    assert!(matches!(state.phase, Phase::End));
    assert_eq!(state.figure_count(0, FigureKind::Hero), 2);
}

// "OT = Once on your Turn" — Emperor, Alchemist, Diplomat in the End phase before discarding;
// an Empire garrison after recruiting (review gap 3). Haste, which can no longer move
// anything, is not offered.
#[test]
fn powers_may_be_used_in_the_end_phase() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Empire"));
    give(&mut state, 0, id("Emperor"));
    give(&mut state, 0, id("Alchemist"));
    give(&mut state, 0, id("Haste Spell"));
    put_garrison(&mut state, 0, Pos(2, 2));
    let card = spare_cards(&state, 1, &[])[0];
    to_recruitment(&mut state, card, 2);
    decide(
        &mut state,
        0,
        Action::Recruit {
            figure: FigureKind::Army,
            at: Pos(2, 2),
        },
    );
    assert!(matches!(state.phase, Phase::End));
    let end = legal(&state, 0);
    assert!(end.contains(&Action::PlayCard(id("Emperor"))));
    assert!(end.contains(&Action::Alchemist));
    assert!(end.contains(&Action::Empire { at: Pos(1, 1) }));
    assert!(!end.iter().any(|a| matches!(a, Action::Haste { .. })));
    decide(&mut state, 0, Action::Empire { at: Pos(1, 1) });
    assert_eq!(state.garrison(Pos(1, 1)), Some(0));
    assert!(matches!(state.phase, Phase::End));
    decide(&mut state, 0, Action::Alchemist);
    decide(&mut state, 0, Action::AlchemyDiscard(id("Haste Spell")));
    decide(&mut state, 0, Action::AlchemyDone);
    assert!(is_chance(&state));
}

// "Players roll high on 2D6 to see who goes first." — the log says whose roll it is, and the
// view keeps the rolls (review B5).
#[test]
fn rolls_say_whose_they_are() {
    let mut state = Game::new_game(
        &Options {
            permanent_cards: 0,
            ..Options::default()
        },
        2,
    )
    .unwrap();
    lay_map(&mut state);
    pick_corners(&mut state, 2);
    decide(&mut state, 0, Action::StartFigure(FigureKind::Hero));
    decide(&mut state, 1, Action::StartFigure(FigureKind::Hero));
    let line = describe(&state, Actor::Chance, &Action::Roll2d6(9), Viewer::Seat(1));
    assert_eq!(line, "Seat 0 rolls 9 on 2D6 for the first turn.");
    chance(&mut state, Action::Roll2d6(9));
    chance(&mut state, Action::Roll2d6(4));
    let view = Game::view(&state, Viewer::Seat(1));
    assert_eq!(
        view["first_player_rolls"],
        serde_json::json!([{"seat": 0, "roll": 9}, {"seat": 1, "roll": 4}])
    );
    // In a fight: the attacker's roll, then the defender's.
    set_space(&mut state, Pos(1, 1), Terrain::Plains, Structure::Village);
    put_figure(&mut state, 1, FigureKind::Army, Pos(1, 1));
    move_to(&mut state, 0, 1, Pos(1, 1));
    let line = describe(&state, Actor::Chance, &Action::Roll2d6(5), Viewer::Seat(1));
    assert_eq!(line, "Seat 0 rolls 5 on 2D6 attacking at b2.");
    chance(&mut state, Action::Roll2d6(5));
    let line = describe(&state, Actor::Chance, &Action::Roll2d6(6), Viewer::Seat(1));
    assert_eq!(line, "Seat 1 rolls 6 on 2D6 defending at b2.");
}

// "4. Control the most Map spaces at the end of turn 20X." — the summary says when the
// garrison count broke a tie (CONTENT.md), in plain grammar (review B5).
#[test]
fn the_turn_limit_summary_names_the_tie_break() {
    let mut state = game(2);
    put_figure(&mut state, 0, FigureKind::Army, Pos(3, 3));
    put_garrison(&mut state, 1, Pos(4, 4));
    super::super::flow::finish_on_spaces(&mut state);
    let Phase::Over(o) = &state.phase else {
        panic!("not over")
    };
    assert_eq!(o.winners, vec![1]);
    assert_eq!(
        o.summary,
        "The turn limit is reached: Seat 1 controls the most spaces (2), the tie in spaces \
         broken by Garrisons (2) and wins."
    );
    let mut state = game(2);
    super::super::flow::finish_on_spaces(&mut state);
    let Phase::Over(o) = &state.phase else {
        panic!("not over")
    };
    assert_eq!(
        o.summary,
        "The turn limit is reached: Seat 0 and Seat 1 control the most spaces (1) and as many \
         Garrisons (1), and share the win."
    );
}

// "This counts as the summoned units move for the turn." — a summoned figure shows no move
// points left, even when it entered a terrain a card gives +1 MP for (review B5).
#[test]
fn a_summoned_figure_has_no_move_points_left() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Dragon Riders"));
    give_permanent(&mut state, 0, id("Mountain Guides"));
    let monster = put_figure(&mut state, 0, FigureKind::Monster, Pos(3, 3));
    // c3 is Mountains (column c).
    decide(
        &mut state,
        0,
        Action::Summon {
            summoner: monster,
            unit: 1,
            to: Pos(2, 2),
        },
    );
    let hero = state.figure(1).unwrap();
    assert!(hero.done);
    assert_eq!(state.moves_left(hero), 0);
    let view = Game::view(&state, Viewer::Seat(0));
    let shown = view["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == 1)
        .unwrap()["moves_left"]
        .clone();
    assert_eq!(shown, serde_json::json!(0));
}

// Issue 18: "reference text for every … card in each view, so a player never needs the docs
// to know what a choice does" — the cards of a choice (here the End phase discards) carry
// their rulebook text. The face-up discard pile is named card by card, without the texts: no
// choice takes a card from it, and its texts made a late turn mail over the typical size
// (docs/rules/monsters-and-magic.md, "Reference text").
#[test]
fn offered_cards_carry_their_text_and_the_discard_pile_its_names() {
    let mut state = game(2);
    state.discard.push(id("Knights"));
    let p = Game::present(&state, Viewer::Seat(1), &["Ann".into(), "Bob".into()]);
    let all: Vec<String> = p.sections.iter().flat_map(|s| s.lines.clone()).collect();
    assert!(
        all.iter()
            .any(|l| l.starts_with("Discard pile (1, newest first): Knights")),
        "{all:?}"
    );
    assert!(
        !all.iter()
            .any(|l| l.contains("Your Armies get +1F when Attacking")),
        "{all:?}"
    );
    for c in ["Paladin", "Wings", "Giants", "Dwarves", "Treants", "Druids"] {
        give(&mut state, 0, id(c));
    }
    let card = spare_cards(&state, 1, &[])[0];
    to_recruitment(&mut state, card, 1);
    let card = spare_cards(&state, 1, &[])[0];
    chance(&mut state, Action::DrawCard(card));
    let groups = Game::choices(&state, 0, &legal(&state, 0), &["Ann".into(), "Bob".into()]);
    let discard = groups
        .iter()
        .find(|g| g.title.starts_with("Discard down to"))
        .unwrap();
    assert!(
        discard
            .choices
            .iter()
            .any(|c| c.label == "Wings: Your Monsters get +1 MP"),
        "{:?}",
        discard.choices
    );
}
