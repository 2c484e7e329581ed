//! Set-up: seats, random clans and first player, dealing and the simultaneous objective choice,
//! reinforcements.

use super::*;
use crate::rules::garden_gnomes::data::{clan_objectives, objective};

// "3–6 seats, and the 2-player variant" (issue 5): 2 to 6 seats; anything else is refused.
#[test]
fn two_to_six_players() {
    for seats in 2..=6 {
        assert!(Game::new_game(&Options::default(), seats).is_ok());
    }
    for seats in [0, 1, 7] {
        assert!(Game::new_game(&Options::default(), seats).is_err());
    }
    let bad = Options {
        clans_per_player: 4,
        ..Options::default()
    };
    assert!(Game::new_game(&bad, 2).is_err());
}

// "Randomly determine who will go first as well as who will play as each of the clans."
#[test]
fn clans_and_first_player_are_chance_steps() {
    let mut state = Game::new_game(&Options::default(), 3).unwrap();
    let first = outcomes(&state);
    assert_eq!(first.len(), 6);
    assert!(first.iter().all(|(_, w)| *w == 1));
    chance(&mut state, Action::AssignClan(Blue));
    assert_eq!(outcomes(&state).len(), 5);
    assert!(!outcomes(&state).contains(&(Action::AssignClan(Blue), 1)));
    chance(&mut state, Action::AssignClan(Red));
    chance(&mut state, Action::AssignClan(Black));
    assert_eq!(
        outcomes(&state),
        vec![
            (Action::FirstPlayer(Blue), 1),
            (Action::FirstPlayer(Red), 1),
            (Action::FirstPlayer(Black), 1)
        ]
    );
    chance(&mut state, Action::FirstPlayer(Black));
    assert_eq!(state.first, 2);
    assert_eq!(state.clans[0].colour, Some(Blue));
    // With six clans the last colour is not drawn: only one is left.
    let state = dealt(
        &Options::default(),
        6,
        &[Red, Green, Yellow, Black, White],
        Red,
    );
    assert_eq!(state.clans[5].colour, Some(Blue));
}

// "Give each player the Objectives and cubes, matching their clan color, as well as 3 random
// neutral Objectives." Each neutral card is a chance step over the cards not yet dealt.
#[test]
fn each_clan_is_dealt_its_own_and_three_neutral_objectives() {
    let mut state = Game::new_game(&Options::default(), 3).unwrap();
    for c in [Red, Green, Blue] {
        chance(&mut state, Action::AssignClan(c));
    }
    chance(&mut state, Action::FirstPlayer(Green));
    assert_eq!(outcomes(&state).len(), 18);
    chance(&mut state, Action::DealObjective(40));
    assert_eq!(outcomes(&state).len(), 17);
    assert!(state.clans[0].offered.contains(&40));
    while matches!(state.phase, Phase::DealingObjectives) {
        let next = outcomes(&state)[0].0.clone();
        chance(&mut state, next);
    }
    for (clan, colour) in state.clans.iter().zip([Red, Green, Blue]) {
        assert_eq!(clan.offered.len(), 8);
        let own = clan_objectives(colour);
        assert_eq!(own.len(), 5);
        assert!(own.iter().all(|id| clan.offered.contains(id)));
        let neutral = clan
            .offered
            .iter()
            .filter(|&&id| objective(id).unwrap().clan.is_none())
            .count();
        assert_eq!(neutral, 3);
    }
    assert_eq!(state.neutral_deck.len(), 9);
}

// "Each player now chooses 3 of the 8 Objectives and discards the rest." All choose at the
// same time; a player who has chosen no longer has a decision to make.
#[test]
fn objectives_are_chosen_simultaneously() {
    let mut state = dealt(&Options::default(), 4, &[Red, Green, Blue, Yellow], Red);
    assert_eq!(waiting_for(&state), vec![0, 1, 2, 3]);
    let offered = state.clans[2].offered.clone();
    assert_eq!(
        Game::legal_actions(&state, 2),
        offered
            .iter()
            .map(|&id| Action::KeepObjective(id))
            .collect::<Vec<_>>()
    );
    for &id in &offered[..3] {
        decide(&mut state, 2, Action::KeepObjective(id));
    }
    assert_eq!(waiting_for(&state), vec![0, 1, 3]);
    assert!(Game::legal_actions(&state, 2).is_empty());
    assert_eq!(
        illegal(&state, Actor::Seat(2), Action::KeepObjective(offered[3])),
        RuleError::NotYourDecision
    );
    // Another seat cannot keep a card it was not dealt.
    assert!(matches!(
        illegal(&state, Actor::Seat(0), Action::KeepObjective(offered[4])),
        RuleError::Illegal(_)
    ));
    for seat in [3, 0, 1] {
        for _ in 0..3 {
            let keep = Game::legal_actions(&state, seat)[0].clone();
            decide(&mut state, seat, keep);
        }
    }
    assert_eq!(state.round, 1);
    for clan in &state.clans {
        assert_eq!(clan.kept.len(), 3);
        assert_eq!(clan.discarded.len(), 5);
        assert!(clan.offered.is_empty());
    }
}

// "the standard is: 3 Objectives for 3-4 Player games, and 2 Objectives for 5-6 Player
// games." "Depending on how long you wish your games to last you can pick a higher number of
// Objectives"
#[test]
fn objectives_kept_depend_on_the_number_of_clans() {
    let keep = |seats, extra, clans_per_player| {
        let options = Options {
            extra_objectives: extra,
            clans_per_player,
            ..Options::default()
        };
        Game::new_game(&options, seats).unwrap().keep
    };
    assert_eq!(keep(3, 0, 2), 3);
    assert_eq!(keep(4, 0, 2), 3);
    assert_eq!(keep(5, 0, 2), 2);
    assert_eq!(keep(6, 0, 2), 2);
    assert_eq!(keep(4, 1, 2), 4);
    assert_eq!(keep(6, 3, 2), 5);
    // The 2-player variant counts clans: 4 clans keep 3, 6 clans keep 2.
    assert_eq!(keep(2, 0, 2), 3);
    assert_eq!(keep(2, 0, 3), 2);
}

// "It is possible for 2 players to play the game, but then each player will need to play 2
// (or 3) Clans separately"
#[test]
fn two_players_run_several_clans_each() {
    let options = Options {
        clans_per_player: 3,
        ..Options::default()
    };
    let mut state = dealt(
        &options,
        2,
        &[Red, Green, Yellow, Black, White, Blue],
        Yellow,
    );
    let seats: Vec<Seat> = state.clans.iter().map(|c| c.seat).collect();
    assert_eq!(seats, vec![0, 1, 0, 1, 0, 1]);
    // Seat 0 keeps 2 objectives for each of Red, Yellow and White, in any order.
    assert_eq!(Game::legal_actions(&state, 0).len(), 24);
    let red_card = state.clans[0].offered[0];
    decide(&mut state, 0, Action::KeepObjective(red_card));
    let second = state.clans[0].offered[0];
    decide(&mut state, 0, Action::KeepObjective(second));
    assert_eq!(
        Game::legal_actions(&state, 0).len(),
        16,
        "Red has kept its 2"
    );
    for _ in 0..4 {
        let keep = Game::legal_actions(&state, 0)[0].clone();
        decide(&mut state, 0, keep);
    }
    assert_eq!(waiting_for(&state), vec![1]);
    for _ in 0..6 {
        let keep = Game::legal_actions(&state, 1)[0].clone();
        decide(&mut state, 1, keep);
    }
    // Reinforcements from the first player clan, then movement: Yellow, run by seat 0; then
    // Black (seat 1).
    reinforce_all(&mut state);
    assert_eq!(waiting_for(&state), vec![0]);
    decide(&mut state, 0, Action::EndMovement);
    assert_eq!(waiting_for(&state), vec![1]);
}

// "At the start of each round, each player may put Gnomes from his/ her reserve onto the
// board. Reinforcements are always put onto your home territory."
#[test]
fn reinforcements_go_onto_the_home_territory() {
    let mut state = started(&Options::default(), 4, &[Red, Green, Blue, Yellow], Red);
    assert_eq!(gnomes(&state, Red, RED_HOME), 3);
    assert_eq!(gnomes(&state, Green, GREEN_HOME), 2);
    assert_eq!(gnomes(&state, Blue, BLUE_HOME), 1);
    assert_eq!(gnomes(&state, Yellow, YELLOW_HOME), 2);
    // Only gnomes from the reserve: Blue (7 gnomes) with 7 on the board gets none.
    place(&mut state, Blue, BLUE_HOME, 0);
    place(&mut state, Blue, FROG, 7);
    end_movements(&mut state);
    roll_until_round(&mut state, 2);
    assert_eq!(gnomes(&state, Blue, BLUE_HOME), 0);
    assert_eq!(gnomes(&state, Red, RED_HOME), 6);
}

/// Rolls 1s (which kill nobody... except on a White clan's die) until `round` starts.
fn roll_until_round(state: &mut State, round: u32) {
    while state.round < round {
        chance(state, Action::Roll(1));
    }
    reinforce_all(state);
}
