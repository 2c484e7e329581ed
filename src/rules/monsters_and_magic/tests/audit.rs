//! The findings of the independent audit of 2026-11-28
//! (shared/audits/2026-11-28/monsters-and-magic.md; the answers are in
//! docs/reviews/audit-2026-11-28-monsters-and-magic.md): one test each, quoting the rulebook
//! line (of shared/rules/monsters-and-magic.md) it checks; each fails on the code before the
//! fix. Games are of the current edition unless a test says otherwise.

use super::*;
use crate::rules::Viewer;

/// A game of an older edition, for the tests that its log still folds as it did.
fn game_of_edition(edition: u32, seats: usize) -> State {
    game_with(
        Options {
            permanent_cards: 0,
            edition,
            ..Options::default()
        },
        seats,
    )
}

/// Whether `seat` is offered an action of the kind `kind` picks out.
fn offers(state: &State, seat: Seat, kind: impl Fn(&Action) -> bool) -> bool {
    legal(state, seat).iter().any(kind)
}

fn merchant_offered(state: &State, seat: Seat) -> bool {
    offers(state, seat, |a| matches!(a, Action::Merchant { .. }))
}

/// 3 players; seat 0 holds a Merchant, its last unit is the Hero at a1 (no garrison), and it
/// attacks seat 1's garrison at b2 and loses the fight.
fn last_figure_lost(mut state: State) -> State {
    give(&mut state, 0, id("Merchant"));
    state.space_mut(Pos(0, 0)).unwrap().garrison = None;
    put_garrison(&mut state, 1, Pos(1, 1));
    let hero = figure_at(&state, Pos(0, 0)).unwrap().id;
    assert!(merchant_offered(&state, 0));
    move_to(&mut state, 0, hero, Pos(1, 1));
    // 2 against 12 − 2 for the garrison: the Hero is destroyed.
    fight(&mut state, 2, 12);
    assert!(!state.has_units(0));
    state
}

// L1, l.7: "Eliminate all of your opponents Units." with ruling 41 ("A player with no units
// is out of the game"): a player whose last figure falls in its own turn is out at once; its
// turn ends, so the Merchant ("OT Place 1 Garrison on any unoccupied City or Town", l.235)
// cannot bring it back.
#[test]
fn a_player_whose_last_unit_falls_in_its_own_turn_is_out_at_once() {
    let state = last_figure_lost(new_game(3));
    assert!(!state.is_over(), "seats 1 and 2 still have units");
    // Clockwise from a1: seat 0 (a1), seat 2 (h8), seat 1 (h1).
    assert_eq!((state.turn, state.current), (2, 2));
    assert!(matches!(state.phase, Phase::Movement));
    assert!(legal(&state, 0).is_empty());
    assert!(!merchant_offered(&state, 0));
}

// Ruling 41 through the Altar of Sacrifice ("Discard 1 of your figures to draw 2 cards",
// l.224): sacrificing your last unit puts you out at once too; the cards are not drawn.
#[test]
fn sacrificing_your_last_unit_puts_you_out_at_once() {
    let mut state = new_game(3);
    give(&mut state, 0, id("Altar of Sacrifice"));
    state.space_mut(Pos(0, 0)).unwrap().garrison = None;
    let hero = figure_at(&state, Pos(0, 0)).unwrap().id;
    decide(&mut state, 0, Action::Sacrifice { figure: hero });
    assert!(!state.has_units(0));
    assert_eq!((state.turn, state.current), (2, 2));
    assert_eq!(state.draws, 0);
    assert!(state.players[0].hand.is_empty());
}

// Games created before edition 2 keep the old course (the player went on with its turn), so
// their logs fold as they were played.
#[test]
fn games_created_before_edition_2_let_the_turn_go_on() {
    let state = last_figure_lost(game_of_edition(1, 3));
    assert_eq!((state.turn, state.current), (1, 0));
    assert!(merchant_offered(&state, 0));
}

// L2, l.197 "Oracle OT look at one opponents hand" and l.234 "Jester OT Switch hands with
// opponent who has equal or less cards": a player who is out of the game (ruling 41) is no
// opponent any more; its hand is out of play.
#[test]
fn the_jester_and_the_oracle_leave_players_who_are_out_alone() {
    let mut state = new_game(3);
    give(&mut state, 0, id("Jester"));
    give(&mut state, 0, id("Oracle"));
    give(&mut state, 0, id("Paladin"));
    let out = 2;
    let spare = spare_cards(&state, 2, &[]);
    for c in spare {
        give(&mut state, out, c);
    }
    state.figures.retain(|f| f.owner != out);
    for space in &mut state.board {
        if space.garrison == Some(out) {
            space.garrison = None;
        }
    }
    let targets: Vec<Action> = legal(&state, 0)
        .into_iter()
        .filter(|a| matches!(a, Action::Jester { .. } | Action::Oracle { .. }))
        .collect();
    assert_eq!(
        targets,
        vec![Action::Oracle { seat: 1 }, Action::Jester { seat: 1 }]
    );
}

/// Seat 0's Empire actions now.
fn empire_at(state: &State) -> Option<Action> {
    legal(state, 0)
        .into_iter()
        .find(|a| matches!(a, Action::Empire { .. }))
}

// L3, l.247 "Make/Alter/Remove/Duplicate Ally Cards" with l.172 "OT = Once on your Turn":
// with a card duplicated, each copy gives its power once a turn; a permanent Empire used does
// not spend the copy in the hand.
#[test]
fn each_copy_of_a_duplicated_card_is_used_once_a_turn() {
    let mut state = new_game(2);
    give_permanent(&mut state, 0, id("Empire"));
    // The second copy (the variant's duplicate) is in the hand.
    put(&mut state.players[0].hand, id("Empire"));
    let first = empire_at(&state).unwrap();
    decide(&mut state, 0, first);
    assert_eq!(state.players[0].used, vec![id("Empire")]);
    let second = empire_at(&state).expect("the copy in the hand is unused");
    decide(&mut state, 0, second);
    assert!(state.players[0].hand.is_empty(), "the hand copy was played");
    assert_eq!(empire_at(&state), None, "both copies are used");

    // Two permanent copies: twice a turn, and no more.
    let mut state = new_game(2);
    give_permanent(&mut state, 0, id("Empire"));
    state.players[0].permanent.push(id("Empire"));
    let first = empire_at(&state).unwrap();
    decide(&mut state, 0, first);
    let second = empire_at(&state).expect("the second permanent copy");
    decide(&mut state, 0, second);
    assert_eq!(empire_at(&state), None);
    assert_eq!(state.players[0].permanent, vec![id("Empire"); 2]);
}

// L5, l.172 "OT = Once on your Turn": an Oracle played from the hand, drawn back after a
// reshuffle and made permanent by the Diplomat, is the same card: not used twice in a turn.
#[test]
fn a_card_played_from_the_hand_and_made_permanent_is_not_used_again() {
    let mut state = new_game(3);
    give_permanent(&mut state, 0, id("Paladin"));
    give(&mut state, 0, id("Oracle"));
    give(&mut state, 0, id("Diplomat"));
    decide(&mut state, 0, Action::Oracle { seat: 1 });
    assert!(state.discard.contains(&id("Oracle")));
    // The deck ran out, the discard pile became the deck, and the Oracle was drawn again.
    assert!(take(&mut state.discard, id("Oracle")));
    put(&mut state.players[0].hand, id("Oracle"));
    decide(
        &mut state,
        0,
        Action::Diplomat {
            permanent: id("Paladin"),
            hand: id("Oracle"),
        },
    );
    assert_eq!(state.players[0].permanent, vec![id("Oracle")]);
    assert!(!offers(&state, 0, |a| matches!(a, Action::Oracle { .. })));
}

// Row 12, l.77: "It costs nothing to move through a Town you control." — coming back through
// the same Town after a fight is free too (ruling 12).
#[test]
fn coming_back_through_a_town_after_a_fight_costs_nothing() {
    let mut state = new_game(2);
    give_permanent(&mut state, 0, id("Seven League Boots"));
    set_space(&mut state, Pos(1, 1), Terrain::Plains, Structure::Town);
    set_space(&mut state, Pos(2, 2), Terrain::Plains, Structure::Village);
    put_garrison(&mut state, 0, Pos(1, 1));
    put_garrison(&mut state, 1, Pos(2, 2));
    let hero = figure_at(&state, Pos(0, 0)).unwrap().id;
    move_to(&mut state, 0, hero, Pos(1, 1));
    assert_eq!(state.figure(hero).unwrap().spent, 0);
    move_to(&mut state, 0, hero, Pos(2, 2));
    fight(&mut state, 12, 2);
    assert_eq!(state.figure(hero).unwrap().at, Pos(2, 2));
    assert_eq!(state.figure(hero).unwrap().spent, 1);
    move_to(&mut state, 0, hero, Pos(1, 1));
    assert_eq!(
        state.figure(hero).unwrap().spent,
        1,
        "back through the Town for free"
    );
    assert_eq!(state.moves_left(state.figure(hero).unwrap()), 1);
}

// Ruling 12's bound, so that movement always ends: back and forth between two Towns without
// paying a move point in between, the second entry into the same Town costs one.
#[test]
fn a_loop_of_free_moves_pays_on_its_second_entry_into_a_town() {
    let mut state = new_game(2);
    set_space(&mut state, Pos(0, 0), Terrain::Plains, Structure::Town);
    set_space(&mut state, Pos(1, 0), Terrain::Plains, Structure::Town);
    put_garrison(&mut state, 0, Pos(1, 0));
    let hero = figure_at(&state, Pos(0, 0)).unwrap().id;
    move_to(&mut state, 0, hero, Pos(1, 0));
    move_to(&mut state, 0, hero, Pos(0, 0));
    assert_eq!(state.figure(hero).unwrap().spent, 0);
    move_to(&mut state, 0, hero, Pos(1, 0));
    assert_eq!(state.figure(hero).unwrap().spent, 1);
}

// Games created before edition 2 keep the old ruling 12 (each Town free once a turn).
#[test]
fn games_created_before_edition_2_pay_to_come_back_through_a_town() {
    let mut state = game_of_edition(1, 2);
    give_permanent(&mut state, 0, id("Seven League Boots"));
    set_space(&mut state, Pos(1, 1), Terrain::Plains, Structure::Town);
    put_garrison(&mut state, 0, Pos(1, 1));
    let hero = figure_at(&state, Pos(0, 0)).unwrap().id;
    move_to(&mut state, 0, hero, Pos(1, 1));
    move_to(&mut state, 0, hero, Pos(2, 2));
    move_to(&mut state, 0, hero, Pos(1, 1));
    assert_eq!(state.figure(hero).unwrap().spent, 2);
}

// L4, l.136: "Attacker and Defender both roll 2D6 each." — the view's fight shows both rolls
// during the card windows, where they matter.
#[test]
fn the_fight_in_the_view_shows_both_rolls() {
    let mut state = new_game(2);
    give(&mut state, 0, id("Paladin"));
    put_garrison(&mut state, 1, Pos(1, 1));
    let hero = figure_at(&state, Pos(0, 0)).unwrap().id;
    move_to(&mut state, 0, hero, Pos(1, 1));
    chance(&mut state, Action::Roll2d6(7));
    chance(&mut state, Action::Roll2d6(9));
    assert_eq!(waiting_for(&state), vec![0], "the attacker's card window");
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        let view = Game::view(&state, viewer);
        assert_eq!(view["combat"]["attack_roll"], 7);
        assert_eq!(view["combat"]["defence_roll"], 9);
    }
}
