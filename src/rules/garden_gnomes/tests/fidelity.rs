//! Issue 18: the findings of the 2026-11-24 fidelity review, each checked against the rulebook.

use serde_json::json;

use super::*;
use crate::rules::Viewer;
use crate::rules::garden_gnomes::Reinforcements;

const RED_FOUR_ACORNS: u16 = 3;

// "It is possible for 2 players to play the game, but then each player will need to play 2
// (or 3) Clans separately, and the combined point-total for your clans will determine the
// winner." (l.231) Also in a game created with the default (basic) scoring.
#[test]
fn two_players_are_decided_by_combined_points_even_with_basic_scoring() {
    let mut state = started(&Options::default(), 2, &[Red, Green, Blue, Yellow], Red);
    assert_eq!(state.scoring, Scoring::Advanced);
    clear_board(&mut state);
    // Red (seat 0) completes its one objective; Green (seat 1) has far more points.
    for clan in &mut state.clans {
        clan.kept = vec![];
    }
    set_kept(&mut state, Red, &[RED_FOUR_ACORNS]);
    set_kept(&mut state, Green, &[8]);
    give(&mut state, Red, Token::Acorn, 3);
    place(&mut state, Red, NORTH_OAK, 1);
    give(&mut state, Green, Token::Berry, 20);
    end_movements(&mut state);
    let outcome = over(&state);
    // Seat 0: Red 20 + 15 own tokens, Blue 15; seat 1: Green 40 + 15, Yellow 15.
    assert_eq!(outcome.scores, Some(vec![50, 70]));
    assert_eq!(outcome.winners, vec![1]);
}

// "When moving your Gnomes, you can only move through territories in which you already have
// Gnomes, or territories that are empty. Therefore it is possible to block off other
// players." (l.117) A gnome that steps into a blockade does not open it for the rest of the clan.
#[test]
fn a_blockade_cannot_be_opened_from_inside_one_movement() {
    let mut state = rulebook_table();
    place(&mut state, Red, RED_HOME, 2);
    // Green holds all three ways out of Red Home.
    for t in [NORTH_OAK, TOADSTOOL, HEDGE_BERRIES] {
        place(&mut state, Green, t, 1);
    }
    let red = clan_index(&state, Red);
    assert_eq!(
        state.destinations(red, RED_HOME),
        vec![NORTH_OAK, HEDGE_BERRIES, TOADSTOOL]
    );
    decide(
        &mut state,
        0,
        Action::Move {
            from: RED_HOME,
            to: TOADSTOOL,
        },
    );
    // Red now has a gnome in the Toadstool too, but had none there when its movement began.
    assert_eq!(
        state.destinations(red, RED_HOME),
        vec![NORTH_OAK, HEDGE_BERRIES, TOADSTOOL]
    );
    let err = illegal(
        &state,
        Actor::Seat(0),
        Action::Move {
            from: RED_HOME,
            to: FROG,
        },
    );
    assert!(
        err.to_string().contains("cannot reach Frog Statue"),
        "{err}"
    );
    // A territory it shared with Green when its movement began stays open to it.
    let mut shared = rulebook_table();
    place(&mut shared, Red, RED_HOME, 1);
    place(&mut shared, Red, TOADSTOOL, 1);
    place(&mut shared, Green, TOADSTOOL, 1);
    assert!(shared.destinations(red, RED_HOME).contains(&FROG));
}

// "You may wish to play with only 2 objectives to keep the game length under an hour." (l.83)
#[test]
fn the_short_game_keeps_two_objectives() {
    let options: Options = serde_json::from_value(json!({"short_game": true})).unwrap();
    for seats in 3..=4 {
        let state = dealt(&options, seats, &[Red, Green, Blue, Yellow], Red);
        assert_eq!(state.keep, 2);
    }
    let long_and_short = json!({"short_game": true, "extra_objectives": 1});
    let options: Options = serde_json::from_value(long_and_short).unwrap();
    assert!(Game::new_game(&options, 3).is_err());
}

// "Remove any casualties from the board." (l.147) "for each 6 they rolled, remove one Gnome less from
// the board." (l.71) "After all combat has been resolved, each player collects 1 token matching each
// Territory they occupy. [...] pass the first player token to the next player in clockwise
// order and begin the next round." (l.181) The rules do these without anyone deciding, so the log
// line of the action that set them off tells them.
#[test]
fn battle_results_loot_and_the_new_round_are_in_the_log() {
    // Reinforcements placed by the rules too (not the default), so they are in this line.
    let options = Options {
        reinforcements: Reinforcements::All,
        ..Options::default()
    };
    let mut state = started(&options, 3, &[Blue, Red, Green], Blue);
    clear_board(&mut state);
    place(&mut state, Blue, FROG, 2);
    place(&mut state, Red, FROG, 3);
    place(&mut state, Green, NORTH_OAK, 1);
    end_movements(&mut state);
    let log = |state: &State, v: u8| {
        Game::describe(state, Actor::Chance, &Action::Roll(v), Viewer::Spectator)
    };
    // Blue rolls 6 and 1 against Red; Red hits Blue twice (5, 6) and misses once.
    roll(&mut state, &[6, 1, 5, 6]);
    let line = log(&state, 2);
    assert_eq!(
        line,
        "The Red clan rolled 2 against the Blue clan. Combat round 1 at Frog Statue: Blue loses \
         1 gnome, Red loses 1 gnome (Blue's 6s saved 1 gnome)"
    );
    roll(&mut state, &[2]);
    // Round 2 of the battle: Blue misses, Red kills the last Blue gnome.
    roll(&mut state, &[1, 5]);
    let line = log(&state, 1);
    for part in [
        "Combat round 2 at Frog Statue: Blue loses 1 gnome, Red loses none",
        "The battle at Frog Statue is over: Red holds it",
        "Loot: Green (Seat 2) takes 1 acorn",
        "Red (Seat 1) takes the first player token",
        "Round 2 begins",
        "Red (Seat 1) puts 3 gnomes onto Red Home",
    ] {
        assert!(line.contains(part), "{part:?} not in {line:?}");
    }
    // The view no longer promises per-round losses it never had.
    let view = Game::view(&state, Viewer::Spectator);
    assert!(view["combat"].is_null() || view["combat"].get("losses").is_none());
}

// "When at least one player have completed all of his/her Objectives the game ends." (l.189)
// The rulebook has no other end: no round limit unless the players ask for one.
#[test]
fn there_is_no_round_limit_by_default() {
    assert_eq!(Options::default().round_limit, None);
    let mut state = started(&Options::default(), 3, &[Red, Green, Blue], Red);
    for _ in 0..25 {
        end_movements(&mut state);
    }
    assert_eq!(state.round, 26);
    assert!(matches!(Game::next(&state), Next::Players(_)));
}

// Ruling 13 and review bug 3: a round limit, when the players set one, is 1 to 1000 (what the
// comments, the docs and the validation all say).
#[test]
fn a_round_limit_is_one_to_a_thousand() {
    for (limit, ok) in [(0, false), (1, true), (1000, true), (1001, false)] {
        let options: Options = serde_json::from_value(json!({ "round_limit": limit })).unwrap();
        assert_eq!(
            Game::new_game(&options, 3).is_ok(),
            ok,
            "round_limit {limit}"
        );
    }
}

// Ruling 13: when no clan can ever complete its objectives (the food they need is no longer in
// the supply, and food is never lost), the rulebook's end can no longer come; the game ends and
// the advanced scores decide.
#[test]
fn the_game_ends_when_the_food_needed_is_gone() {
    let mut state = started(&Options::default(), 3, &[Red, Green, Blue], Red);
    // Everyone kept food objectives (the lowest-numbered of their own cards).
    state.supply.retain(|(t, _)| matches!(t, Token::Gnome(_)));
    end_movements(&mut state);
    ended_as_nobody_can_complete(&state);
}

// "At the start of each round, each player may put Gnomes from his/ her reserve onto the
// board." (l.109) The rulebook's "may" is the default: each clan says how many, in turn order, with
// one choice per number (all, fewer, none).
#[test]
fn reinforcements_may_be_fewer_or_none() {
    assert_eq!(Options::default().reinforcements, Reinforcements::Choose);
    let mut state = kept(&Options::default(), 3, &[Red, Green, Blue], Red);
    assert_eq!(waiting_for(&state), vec![0]);
    assert_eq!(
        Game::legal_actions(&state, 0),
        (0..=3).rev().map(Action::Reinforce).collect::<Vec<_>>()
    );
    decide(&mut state, 0, Action::Reinforce(1));
    decide(&mut state, 1, Action::Reinforce(0));
    decide(&mut state, 2, Action::Reinforce(1));
    assert_eq!(gnomes(&state, Red, RED_HOME), 1);
    assert_eq!(gnomes(&state, Green, GREEN_HOME), 0);
    // Green has nothing on the board, so it has nothing to move: Red, then Blue.
    decide(&mut state, 0, Action::EndMovement);
    assert_eq!(state.mover(), Some(clan_index(&state, Blue)));
    assert!(
        illegal(&state, Actor::Seat(2), Action::Reinforce(1))
            .to_string()
            .contains("start of a round")
    );
}

// Ruling 8: `"reinforcements":"all"` stays as an option: every clan puts all of them on
// without being asked.
#[test]
fn reinforcements_all_places_them_without_asking() {
    let options = Options {
        reinforcements: Reinforcements::All,
        ..Options::default()
    };
    let state = started(&options, 3, &[Red, Green, Blue], Red);
    assert!(matches!(state.phase, Phase::Movement { .. }));
    assert_eq!(gnomes(&state, Red, RED_HOME), 3);
    assert_eq!(gnomes(&state, Green, GREEN_HOME), 2);
}

// "You may either move onto the chosen territory or move away from the chosen territory." (l.131)
// After the same move twice, both are still open, and the prompt says so.
#[test]
fn the_movement_prompt_after_a_repeated_move_offers_both_ways() {
    let mut state = rulebook_table();
    place(&mut state, Red, RED_HOME, 3);
    place(&mut state, Red, TOADSTOOL, 1);
    for _ in 0..2 {
        decide(
            &mut state,
            0,
            Action::Move {
                from: RED_HOME,
                to: NORTH_OAK,
            },
        );
    }
    let prompt = Game::view(&state, Viewer::Seat(0))["prompt"].clone();
    assert!(
        prompt
            .as_str()
            .unwrap()
            .ends_with("(all moves must now start in Red Home or end in North Oak (acorns))"),
        "{prompt}"
    );
    let legal = Game::legal_actions(&state, 0);
    assert!(legal.contains(&Action::Move {
        from: TOADSTOOL,
        to: NORTH_OAK
    }));
    assert!(legal.contains(&Action::Move {
        from: RED_HOME,
        to: HEDGE_BERRIES
    }));
    let text = Game::present(
        &state,
        Viewer::Seat(0),
        &["Ann".into(), "Bob".into(), "Cy".into(), "Di".into()],
    );
    assert!(!format!("{text:?}").contains("spreading out from"));
}

// The clan cards ("Total Number of Gnomes in the clan, Die roll needed to kill your Gnomes,
// Number of reinforcements per turn", l.61-69; White's +1, Blue's revive, l.71) and what each
// territory gives are in every view, in words.
#[test]
fn the_view_carries_the_text_of_every_clan_card_and_territory() {
    let state = started(
        &Options::default(),
        6,
        &[Red, Green, Yellow, Black, White, Blue],
        Red,
    );
    let view = Game::view(&state, Viewer::Spectator);
    for clan in view["clans"].as_array().unwrap() {
        let text = clan["card_text"].as_str().unwrap();
        assert!(text.contains("killed by a die of"), "{text}");
        match clan["colour"].as_str().unwrap() {
            "white" => assert!(text.contains("adds 1 to every die")),
            "blue" => assert!(text.contains("for each 6 it rolls")),
            _ => {}
        }
    }
    let territories = view["territories"].as_array().unwrap();
    assert_eq!(
        territories[0]["text"],
        "home of Red (its reinforcements arrive here); loot: 1 Red gnome token a round to the \
         clan holding it"
    );
    assert!(
        territories[12]["text"]
            .as_str()
            .unwrap()
            .starts_with("statue")
    );
}
