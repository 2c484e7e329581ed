//! The findings of the fresh fidelity review of 2026-11-28 (docs/reviews/2026-11-28-monsters-and-magic.md):
//! one test each, quoting the rulebook sentence (line numbers of
//! shared/rules/monsters-and-magic.md); each fails on the code before the fix.

use super::super::state::Stop;
use super::*;

/// The moves the figure `figure` may make now.
fn moves_of(state: &State, seat: Seat, figure: u16) -> Vec<Pos> {
    legal(state, seat)
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { figure: f, to } if f == figure => Some(to),
            _ => None,
        })
        .collect()
}

/// Seat 0 plays Fellowship from the hand onto its garrison at d4; the new Hero's id.
fn recruit_hero_at_d4(state: &mut State) -> u16 {
    put_garrison(state, 0, Pos(3, 3));
    let new = state.next_figure;
    decide(
        state,
        0,
        Action::RecruitWith {
            card: id("Fellowship"),
            at: Pos(3, 3),
        },
    );
    assert_eq!(figure_at(state, Pos(3, 3)).map(|f| f.id), Some(new));
    new
}

// R1, l.126: "You may move some, all, or none of your Figures." and l.73: "Figures (Mages,
// Monsters, Armies, and Heroes) have a base Move of 1." — a Hero recruited from the hand
// ("Fellowship … HC Recruit 1 Hero", l.177) during the Movement phase is one of your Figures
// and may move in it (ruling 15).
#[test]
fn a_figure_recruited_in_the_movement_phase_may_move_in_it() {
    let mut state = new_game(2);
    give(&mut state, 0, id("Fellowship"));
    let hero = recruit_hero_at_d4(&mut state);
    assert_eq!(moves_of(&state, 0, hero).len(), 8, "d4 has 8 neighbours");
    move_to(&mut state, 0, hero, Pos(4, 4));
    assert_eq!(state.figure(hero).unwrap().at, Pos(4, 4));
    // It moved: its one move point is spent, as for any figure.
    assert!(moves_of(&state, 0, hero).is_empty());
}

// R1, l.126 and l.73, with ruling 22's stop: a figure recruited before the Declaration phase
// (a recruit card played at the stop) moves in that turn's Movement phase.
#[test]
fn a_figure_recruited_before_the_declaration_phase_moves_in_that_turn() {
    let mut state = new_game(2);
    let cards = spare_cards(&state, 4, &[id("Fellowship")]);
    give(&mut state, 0, id("Fellowship"));
    decide(&mut state, 0, Action::EndMovement);
    chance(&mut state, Action::DrawCard(cards[0]));
    chance(&mut state, Action::RollDie(1));
    chance(&mut state, Action::DrawCard(cards[1]));
    decide(&mut state, 0, Action::StopBefore(Stop::Declaration));
    finish_turn(&mut state, cards[2], cards[3]);
    assert_eq!(state.phase, Phase::Stop(Stop::Declaration));
    let hero = recruit_hero_at_d4(&mut state);
    decide(&mut state, 0, Action::GoOn);
    assert!(matches!(state.phase, Phase::Movement));
    assert_eq!(moves_of(&state, 0, hero).len(), 8);
}

// Games created before edition 1 keep the old ruling 15 (a recruit waits for the next turn),
// so their logs replay as they were played.
#[test]
fn games_created_before_edition_1_keep_their_recruits_still() {
    let mut state = game(2);
    assert_eq!(state.options.edition, 0);
    give(&mut state, 0, id("Fellowship"));
    let hero = recruit_hero_at_d4(&mut state);
    assert!(moves_of(&state, 0, hero).is_empty());
}

// l.148-159: the Recruitment phase comes after the Movement phase, so a figure recruited by
// the Recruit Roll never moves in the turn it arrives (nothing moves any more).
#[test]
fn a_figure_recruited_by_the_recruit_roll_waits_for_the_next_turn() {
    let mut state = new_game(2);
    put_garrison(&mut state, 0, Pos(3, 3));
    let draw = spare_cards(&state, 1, &[])[0];
    decide(&mut state, 0, Action::EndMovement);
    chance(&mut state, Action::DrawCard(draw));
    chance(&mut state, Action::RollDie(3));
    decide(
        &mut state,
        0,
        Action::Recruit {
            figure: FigureKind::Hero,
            at: Pos(3, 3),
        },
    );
    let hero = figure_at(&state, Pos(3, 3)).expect("the recruit at d4");
    assert_eq!(hero.kind, FigureKind::Hero);
    assert!(hero.done);
}

/// Seat 0's second turn, stopped before its Declaration phase (ruling 22), holding `cards`.
fn stopped_before_declaration(state: &mut State, cards: &[&str]) {
    let ids: Vec<CardId> = cards.iter().map(|c| id(c)).collect();
    let spare = spare_cards(state, 4, &ids);
    for &c in &ids {
        give(state, 0, c);
    }
    decide(state, 0, Action::EndMovement);
    chance(state, Action::DrawCard(spare[0]));
    chance(state, Action::RollDie(1));
    chance(state, Action::DrawCard(spare[1]));
    decide(state, 0, Action::StopBefore(Stop::Declaration));
    finish_turn(state, spare[2], spare[3]);
    assert_eq!(state.phase, Phase::Stop(Stop::Declaration));
}

// R5, l.172: "OT = Once on your Turn" and l.94: "You may play (discard) cards from hand at
// your discretion." — at the stop before the Declaration phase the Movement phase is still to
// come: Haste ("OT one target Figure gets +1 MP", l.216) and a force card (Knights, l.195)
// are offered there too, and count in the moves and fights that follow.
#[test]
fn haste_and_force_cards_are_offered_at_the_stop_before_the_declaration_phase() {
    let mut state = new_game(2);
    stopped_before_declaration(&mut state, &["Haste Spell", "Knights"]);
    let actions = legal(&state, 0);
    assert!(
        actions.contains(&Action::Haste { figure: 1 }),
        "{actions:?}"
    );
    assert!(
        actions.contains(&Action::PlayCard(id("Knights"))),
        "{actions:?}"
    );
    decide(&mut state, 0, Action::Haste { figure: 1 });
    decide(&mut state, 0, Action::GoOn);
    assert!(matches!(state.phase, Phase::Movement));
    let hero = state.figure(1).unwrap();
    assert_eq!(
        state.moves_left(hero),
        2,
        "a base Move of 1, +1 from the Haste Spell"
    );
    // Once on your turn: not again in the Movement phase.
    assert!(
        !legal(&state, 0)
            .iter()
            .any(|a| matches!(a, Action::Haste { .. }))
    );
}

// Games created before edition 1 keep the old stop (what the stop after the Movement phase
// offers), so their logs replay as they were played.
#[test]
fn games_created_before_edition_1_keep_the_old_stop() {
    let mut state = game(2);
    stopped_before_declaration(&mut state, &["Haste Spell"]);
    assert!(
        !legal(&state, 0)
            .iter()
            .any(|a| matches!(a, Action::Haste { .. }))
    );
}
