//! The presenter: the table and the choices as people read them.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::rules::{ChoiceGroup, Presented, Viewer};

fn names() -> Vec<String> {
    ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
        .iter()
        .map(|n| (*n).to_string())
        .collect()
}

fn present(state: &State, viewer: Viewer) -> Presented {
    Game::present(state, viewer, &names())
}

fn choices(state: &State, seat: Seat) -> Vec<ChoiceGroup> {
    let actions = Game::legal_actions(state, seat);
    Game::choices(state, seat, &actions, &names())
}

/// Everything a person reads, as plain text (as a mail would show it).
fn text(p: &Presented, groups: &[ChoiceGroup]) -> String {
    let mut out = format!("{}\n", p.headline);
    for s in &p.sections {
        out.push_str(&format!("\n== {} ==\n", s.title));
        for line in &s.lines {
            out.push_str(&format!("{line}\n"));
        }
    }
    if !groups.is_empty() {
        out.push_str("\n== Your choices ==\n");
    }
    for g in groups {
        out.push_str(&format!("{}:\n", g.title));
        for c in &g.choices {
            out.push_str(&format!("  {:>3}. {}\n", c.number, c.label));
        }
    }
    out
}

/// Whether `text` names an objective card ("objective 12").
fn names_a_card(text: &str) -> bool {
    text.match_indices("objective ").any(|(at, m)| {
        text[at + m.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    })
}

fn section<'a>(p: &'a Presented, title: &str) -> Option<&'a crate::rules::Section> {
    p.sections.iter().find(|s| s.title.starts_with(title))
}

fn numbers_of(groups: &[ChoiceGroup], title: &str) -> Vec<usize> {
    let group = groups.iter().find(|g| g.title == title);
    let group = group.unwrap_or_else(|| panic!("no group {title:?} in {groups:#?}"));
    group.choices.iter().map(|c| c.number).collect()
}

/// The rulebook's four players in round 2: Ann (Red, first), Bob (Green), Cat (Blue), Dan
/// (Yellow), with gnomes around the park, some tokens looted, and Ann moving; she has moved
/// one gnome from Red Home to North Oak.
fn midgame() -> State {
    let mut state = rulebook_table();
    state.round = 2;
    place(&mut state, Red, RED_HOME, 3);
    place(&mut state, Red, TOADSTOOL, 2);
    place(&mut state, Red, HEDGE_BERRIES, 1);
    place(&mut state, Green, GREEN_HOME, 2);
    place(&mut state, Green, EAST_ORCHARD, 2);
    place(&mut state, Blue, BLUE_HOME, 1);
    place(&mut state, Blue, GNOME_KING, 2);
    place(&mut state, Yellow, YELLOW_HOME, 2);
    place(&mut state, Yellow, FROG, 1);
    place(&mut state, Yellow, BRAMBLE_PATCH, 1);
    give(&mut state, Red, Token::Berry, 1);
    give(&mut state, Green, Token::Apple, 1);
    give(&mut state, Yellow, Token::Berry, 1);
    give(&mut state, Red, Token::Gnome(Blue), 1);
    let i = clan_index(&state, Blue);
    crate::rules::garden_gnomes::state::take_one(&mut state.clans[i].tokens, Token::Gnome(Blue));
    decide(
        &mut state,
        0,
        Action::Move {
            from: RED_HOME,
            to: NORTH_OAK,
        },
    );
    state
}

#[test]
fn players_are_named_and_seats_are_not() {
    let state = midgame();
    for viewer in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Spectator] {
        let p = present(&state, viewer);
        let all = text(&p, &choices(&state, 0));
        for name in ["Ann", "Bob", "Cat", "Dan"] {
            assert!(all.contains(name), "{name} missing from {all}");
        }
        assert!(!all.contains("Seat "), "a seat number in {all}");
        assert!(!all.contains("seat "), "a seat number in {all}");
    }
    let p = present(&state, Viewer::Seat(0));
    assert_eq!(
        p.headline,
        "Your turn, Ann: move your Red gnomes, every further move must start at Red Home or \
         end at North Oak (round 2)."
    );
    let players = section(&p, "Players").unwrap();
    assert!(players.lines[0].starts_with("Ann (you) - Red: 6 gnomes on the board"));
    assert!(players.lines[1].starts_with("Bob - Green: "));
    assert!(!players.lines[1].contains("(you)"));
    assert_eq!(
        present(&state, Viewer::Seat(1)).headline,
        "Round 2: Red (Ann) is moving, every further move must start at Red Home or end at \
         North Oak."
    );
}

#[test]
fn each_seat_reads_its_own_objectives_and_nobody_elses() {
    let state = midgame();
    let red = &state.clans[clan_index(&state, Red)];
    let green = &state.clans[clan_index(&state, Green)];
    let red_text: Vec<String> = red
        .kept
        .iter()
        .map(|&id| crate::rules::garden_gnomes::data::describe_objective(id))
        .collect();
    let p = present(&state, Viewer::Seat(0));
    let own = section(&p, "Your objectives").unwrap();
    assert_eq!(own.title, "Your objectives (Red clan, secret)");
    let all = text(&p, &[]);
    for (id, line) in red.kept.iter().zip(&red_text) {
        // "objective 0 (3 acorns, 2 berries)" reads "objective 0 (your clan's own): 3 acorns…"
        let needs = line.split_once('(').unwrap().1.trim_end_matches(')');
        assert!(
            own.lines
                .iter()
                .any(|l| l.contains(&format!("objective {id} ")) && l.contains(needs)),
            "{line} missing from {own:?}"
        );
    }
    assert!(all.contains("Together (each token serves one objective only) they need: 5 acorns"));
    // Only one objectives section, and nothing of Green's cards (ids 5-9).
    assert_eq!(
        p.sections
            .iter()
            .filter(|s| s.title.contains("objectives"))
            .count(),
        1
    );
    for id in &green.kept {
        assert!(!all.contains(&format!("objective {id} ")), "{all}");
    }
    assert!(!all.contains("Green's own"));
    // A spectator sees no objectives at all; after the game, everyone's would show.
    let spectator = present(&state, Viewer::Spectator);
    assert!(section(&spectator, "Your objectives").is_none());
    assert!(!names_a_card(&text(&spectator, &[])));
    let everyone = present(&state, Viewer::Everyone);
    assert_eq!(
        everyone
            .sections
            .iter()
            .filter(|s| s.title.starts_with("Objectives of"))
            .count(),
        4
    );
}

#[test]
fn the_park_diagram_shows_each_territory_and_its_gnomes() {
    let state = midgame();
    let p = present(&state, Viewer::Spectator);
    let park = section(&p, "The park").unwrap();
    assert!(park.diagram);
    // Five rows of cells, each: names, loot, gnomes.
    let find = |needle: &str| {
        park.lines
            .iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("{needle} not in {:#?}", park.lines))
    };
    let top = find("Red Home");
    assert_eq!(
        park.lines[top],
        "              Red Home      North Oak     Green Home"
    );
    assert_eq!(
        park.lines[top + 1],
        "              Red token     acorn         Green token"
    );
    assert_eq!(
        park.lines[top + 2],
        "              R2            R1            G2"
    );
    // Toadstool Statue, under North Oak, holds 2 Red gnomes.
    let toadstool = find("Toadstool Statue");
    let column = park.lines[toadstool].find("Toadstool").unwrap();
    assert_eq!(column, 28);
    assert_eq!(
        park.lines[toadstool + 2].get(column..column + 2),
        Some("R2")
    );
    // The bottom row and the statues in the middle.
    let row = &park.lines[find("Gnome King Statue")];
    assert!(row.starts_with("Blue Home     Gnome King Statue"));
    assert!(row.contains("Frog Statue   Yellow Home"));
    let bottom = find("White Home");
    assert!(park.lines[bottom + 2].trim().is_empty() || park.lines[bottom + 2].contains('-'));
    for line in &park.lines {
        assert!(line.chars().count() <= 72, "too wide: {line:?}");
    }
    assert!(park.lines.iter().any(|l| l.contains("R Red (Ann)")));
    assert!(park.lines.iter().any(|l| l.contains("touch")));
}

#[test]
fn moves_are_grouped_by_the_territory_they_leave() {
    let state = midgame();
    let actions = Game::legal_actions(&state, 0);
    let groups = choices(&state, 0);
    // After one move Red Home -> North Oak: moves from Red Home anywhere, or onto North Oak.
    let from_home: Vec<usize> = actions
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a, Action::Move { from: RED_HOME, .. }))
        .map(|(k, _)| k + 1)
        .collect();
    assert!(!from_home.is_empty());
    assert_eq!(
        numbers_of(&groups, "Move one gnome from Red Home (2 there) to"),
        from_home
    );
    let toadstool = groups
        .iter()
        .find(|g| g.title == "Move one gnome from Toadstool Statue (2 there) to")
        .unwrap();
    assert_eq!(toadstool.choices.len(), 1);
    assert_eq!(toadstool.choices[0].label, "North Oak (1 of yours there)");
    let end = groups.iter().find(|g| g.title == "Finish moving").unwrap();
    assert_eq!(end.choices[0].number, actions.len());
    assert_eq!(
        end.choices[0].label,
        "End the Red clan's movement (1 gnome moved)"
    );
    // A destination held by another clan says a battle follows.
    let home = groups
        .iter()
        .find(|g| g.title.starts_with("Move one gnome from Red Home"))
        .unwrap();
    assert!(
        home.choices
            .iter()
            .any(|c| c.label == "Green Home (battle with 2 Green)")
    );

    // Once gathering, the moves left are listed by origin under the one destination.
    let mut state = state;
    decide(
        &mut state,
        0,
        Action::Move {
            from: TOADSTOOL,
            to: NORTH_OAK,
        },
    );
    let groups = choices(&state, 0);
    assert_eq!(groups[0].title, "Move one more gnome onto North Oak, from");
    let labels: Vec<&str> = groups[0].choices.iter().map(|c| c.label.as_str()).collect();
    assert!(labels.contains(&"Red Home (2 there)"), "{labels:?}");
}

#[test]
fn attacks_are_grouped_by_the_clan_attacked() {
    let mut state = rulebook_table();
    place(&mut state, Red, FROG, 3);
    place(&mut state, Green, FROG, 3);
    place(&mut state, Blue, FROG, 2);
    end_movements(&mut state);
    attack(&mut state, Red, Blue, 1);
    let actions = Game::legal_actions(&state, 0);
    let groups = choices(&state, 0);
    let at = |target: Colour| -> Vec<usize> {
        actions
            .iter()
            .enumerate()
            .filter(|(_, a)| matches!(a, Action::Attack { target: t, .. } if *t == target))
            .map(|(k, _)| k + 1)
            .collect()
    };
    assert_eq!(
        numbers_of(
            &groups,
            "Attack Green (Bob): 3 gnomes here, each of your dice kills one on 4+"
        ),
        at(Green)
    );
    assert_eq!(
        numbers_of(
            &groups,
            "Attack Blue (Cat): 2 gnomes here, each of your dice kills one on 5+"
        ),
        at(Blue)
    );
    assert_eq!(
        groups[0].choices[0].label,
        "with 2 dice (all you have left)"
    );
    assert_eq!(groups[0].choices[1].label, "with 1 die");
    let p = present(&state, Viewer::Seat(0));
    assert_eq!(
        p.headline,
        "Your turn, Ann: choose whom your 2 dice attack at Frog Statue (round 1, Red clan)."
    );
    let battle = section(&p, "Battle").unwrap();
    assert!(
        battle
            .lines
            .iter()
            .any(|l| l == "Red attacks Blue with 1 die.")
    );
    assert!(
        section(&p, "The park")
            .unwrap()
            .lines
            .iter()
            .any(|l| l.contains("*Frog Statue"))
    );
}

#[test]
fn objectives_to_keep_are_grouped_by_clan_and_shown_only_to_their_player() {
    // Two players with two clans each: Ann runs Red and Blue, Bob Green and Yellow.
    let state = dealt(&Options::default(), 2, &[Red, Green, Blue, Yellow], Red);
    let actions = Game::legal_actions(&state, 0);
    let groups = choices(&state, 0);
    let of = |colour: Colour| -> Vec<usize> {
        let clan = &state.clans[clan_index(&state, colour)];
        actions
            .iter()
            .enumerate()
            .filter(|(_, a)| matches!(a, Action::KeepObjective(id) if clan.offered.contains(id)))
            .map(|(k, _)| k + 1)
            .collect()
    };
    assert_eq!(
        numbers_of(&groups, "Keep an objective for your Red clan (0 of 3 kept)"),
        of(Red)
    );
    assert_eq!(
        numbers_of(
            &groups,
            "Keep an objective for your Blue clan (0 of 3 kept)"
        ),
        of(Blue)
    );
    assert_eq!(
        groups[0].choices[0].label,
        "objective 0 (your clan's own): 3 acorns, 2 berries"
    );
    let p = present(&state, Viewer::Seat(0));
    assert_eq!(
        p.headline,
        "Your turn, Ann: secretly keep your objectives (3 more for Red, 3 more for Blue). Bob \
         is choosing too."
    );
    let all = text(&p, &groups);
    assert!(all.contains("Your objectives (Red clan, secret)"));
    assert!(all.contains("Your objectives (Blue clan, secret)"));
    assert!(!all.contains("Green clan, secret") && !all.contains("Green's own"));
    let spectator = present(&state, Viewer::Spectator);
    assert_eq!(
        spectator.headline,
        "Ann and Bob are secretly choosing objectives to keep."
    );
    assert!(!names_a_card(&text(&spectator, &[])));
}

#[test]
fn the_end_names_the_winner() {
    let mut state = rulebook_table();
    set_kept(&mut state, Green, &[8]);
    give(&mut state, Green, Token::Apple, 4);
    end_movements(&mut state);
    let p = present(&state, Viewer::Seat(0));
    assert_eq!(
        p.headline,
        "Game over: Green (Bob) completed all objectives first and won."
    );
    assert!(
        section(&p, "Players")
            .unwrap()
            .lines
            .iter()
            .any(|l| l == "Bob: Winner.")
    );
    assert!(choices(&state, 1).is_empty());
}

/// Random games: every state reads without a seat number, and the sizes stay small.
#[test]
fn random_games_read_well_and_stay_small() {
    let mut largest = (0, String::new());
    let mut most_choices = 0;
    for (seats, options) in
        (2..=6).flat_map(|n| Game::option_sets().into_iter().map(move |o| (n, o)))
    {
        for seed in 0..4u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed * 10 + seats as u64);
            let mut state = Game::new_game(&options, seats).unwrap();
            for _ in 0..MAX_ACTIONS_HERE {
                let (actor, action) = match Game::next(&state) {
                    Next::Over(_) => break,
                    Next::Chance(chance) => {
                        let point = rng.random_range(0..chance.total_weight());
                        (Actor::Chance, chance.pick(point).cloned().unwrap())
                    }
                    Next::Players(waiting) => {
                        let seat = waiting[rng.random_range(0..waiting.len())];
                        let legal = Game::legal_actions(&state, seat);
                        let all =
                            text(&present(&state, Viewer::Seat(seat)), &choices(&state, seat));
                        assert!(!all.contains("Seat "), "{all}");
                        let spectator = text(&present(&state, Viewer::Spectator), &[]);
                        assert!(!names_a_card(&spectator), "{spectator}");
                        if all.len() > largest.0 {
                            largest = (all.len(), all);
                        }
                        most_choices = most_choices.max(legal.len());
                        let k = rng.random_range(0..legal.len());
                        (Actor::Seat(seat), legal[k].clone())
                    }
                };
                Game::apply(&mut state, actor, &action).unwrap();
            }
        }
    }
    println!(
        "largest presentation + choices: {} bytes; most choices: {most_choices}\n{}",
        largest.0, largest.1
    );
    assert!(largest.0 < 20_000, "{}", largest.1);
}

const MAX_ACTIONS_HERE: usize = 1_500;

#[test]
fn print_a_midgame_presentation() {
    let state = midgame();
    let p = present(&state, Viewer::Seat(0));
    let groups = choices(&state, 0);
    let all = text(&p, &groups);
    println!("{all}");
    println!("({} bytes)", all.len());
    let mut battle = rulebook_table();
    place(&mut battle, Red, FROG, 3);
    place(&mut battle, Green, FROG, 3);
    place(&mut battle, Blue, FROG, 2);
    place(&mut battle, Yellow, FROG, 1);
    end_movements(&mut battle);
    attack(&mut battle, Red, Blue, 1);
    println!(
        "{}",
        text(&present(&battle, Viewer::Seat(0)), &choices(&battle, 0))
    );
    let dealt = dealt(&Options::default(), 3, &[Red, Green, Blue], Red);
    println!(
        "{}",
        text(&present(&dealt, Viewer::Seat(0)), &choices(&dealt, 0))
    );
}
