//! The independent audit of 2026-11-28 (shared/audits/2026-11-28/garden-gnomes.md; the
//! answers are in docs/reviews/audit-2026-11-28-garden-gnomes.md): one test per finding
//! fixed, each failing on the code before it.

use super::*;
use crate::rules::Viewer;

/// A 4-seat game of the current edition (Red, Green, Yellow, Black in seat order, Red first)
/// waiting for the objective choice, its neutral objectives dealt by `deal`: at each deal the
/// outcome at that index (wrapping), the index moving on by 7 each time.
fn dealt_by(deal: usize) -> State {
    let options = Game::for_new_game(Options::default());
    let mut state = Game::new_game(&options, 4).unwrap();
    for c in [Red, Green, Yellow, Black] {
        if matches!(state.phase, Phase::AssigningClans) {
            chance(&mut state, Action::AssignClan(c));
        }
    }
    chance(&mut state, Action::FirstPlayer(Red));
    let mut at = deal;
    while matches!(state.phase, Phase::DealingObjectives) {
        let outcomes = outcomes(&state);
        let next = outcomes[at % outcomes.len()].0.clone();
        chance(&mut state, next);
        at += 7;
    }
    assert!(matches!(state.phase, Phase::ChoosingObjectives));
    state
}

fn default_keep(state: &State, seat: Seat) -> u16 {
    match Game::default_action(state, seat) {
        Some(Action::KeepObjective(id)) => id,
        other => panic!("the default at the objective choice is a keep, not {other:?}"),
    }
}

// L1 / GG-1. l.81: "Each player now chooses 3 of the 8 Objectives, and discards the rest."
// The choice is secret (ruling 5); a deadline that keeps for a slow player must not keep a card
// everyone can name. The offer is sorted and a clan's own 5 cards (known to all) come first, so
// "the first listed" was always Red's objective 0, then 1: the others knew Red's objectives.
// Now the objective kept varies with the neutral cards dealt, which only Red's player sees.
#[test]
fn a_deadline_at_the_objective_choice_keeps_no_card_the_others_can_name() {
    let mut kept = Vec::new();
    for deal in 0..12 {
        let state = dealt_by(deal);
        let keep = default_keep(&state, 0);
        assert!(state.clans[0].offered.contains(&keep));
        // The same state, the same default (a retry plays the same).
        assert_eq!(default_keep(&state, 0), keep);
        kept.push(keep);
    }
    let lowest_own = kept.iter().filter(|&&id| id == 0).count();
    kept.sort_unstable();
    kept.dedup();
    assert!(
        kept.len() >= 4,
        "the default kept only {kept:?} over 12 deals"
    );
    assert!(
        lowest_own <= 4,
        "Red's objective 0 was kept {lowest_own} times in 12"
    );
}

// The second deadline of the same player (ruling 17): again a card of the remaining offer, not
// the next own card in order.
#[test]
fn a_second_deadline_keeps_no_card_the_others_can_name_either() {
    let mut seconds = Vec::new();
    for deal in 0..12 {
        let mut state = dealt_by(deal);
        let first = Game::default_action(&state, 0).unwrap();
        decide(&mut state, 0, first);
        let second = default_keep(&state, 0);
        assert!(state.clans[0].offered.contains(&second));
        seconds.push(second);
    }
    seconds.sort_unstable();
    seconds.dedup();
    assert!(seconds.len() >= 4, "{seconds:?}");
}

/// The text of seat 0's objectives section.
fn objectives_text(state: &State) -> String {
    let names: Vec<String> = ["Ann", "Bob", "Cat"].map(String::from).to_vec();
    let p = Game::present(state, Viewer::Seat(0), &names);
    let section = p
        .sections
        .iter()
        .find(|s| s.title.starts_with("Your objectives"))
        .expect("the objectives section");
    section.lines.join("\n")
}

// GG-2. Ruling 13 (when "at least one player have completed all of his/her Objectives", l.189,
// can no longer come, the advanced scores decide) ends a basic game without any round limit,
// which is off by default: the objectives section says so, and names the round limit only when
// one is set.
#[test]
fn the_objectives_section_says_when_advanced_scores_decide_a_basic_game() {
    let state = started(&Options::default(), 3, &[Red, Green, Blue], Red);
    let text = objectives_text(&state);
    assert!(
        text.contains("no clan can still gather what its objectives need"),
        "{text}"
    );
    assert!(!text.contains("round limit"), "{text}");

    let with_limit = Options {
        round_limit: Some(30),
        ..Options::default()
    };
    let state = started(&with_limit, 3, &[Red, Green, Blue], Red);
    let text = objectives_text(&state);
    assert!(text.contains("or at the round limit"), "{text}");
}
