//! The presenter: the table and the choices in words, as a player reads them by mail.

use super::*;
use crate::rules::{ChoiceGroup, Presented, Viewer};

fn names() -> Vec<String> {
    vec!["Ann".into(), "Bob".into(), "Cid".into(), "Dee".into()]
}

fn present(state: &State, viewer: Viewer) -> Presented {
    Game::present(state, viewer, &names())
}

fn choices(state: &State, seat: Seat) -> Vec<ChoiceGroup> {
    Game::choices(state, seat, &legal(state, seat), &names())
}

/// Everything a viewer reads, as one text.
fn text(p: &Presented) -> String {
    let mut out = format!("{}\n", p.headline);
    for s in &p.sections {
        out.push_str(&format!("\n== {}\n", s.title));
        for l in &s.lines {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

fn choices_text(groups: &[ChoiceGroup]) -> String {
    let mut out = String::new();
    for g in groups {
        out.push_str(&format!("\n{}\n", g.title));
        let labels: Vec<String> = g
            .choices
            .iter()
            .map(|c| format!("{}. {}", c.number, c.label))
            .collect();
        out.push_str(&format!("  {}\n", labels.join(" · ")));
    }
    out
}

fn section<'a>(p: &'a Presented, title: &str) -> &'a crate::rules::Section {
    p.sections
        .iter()
        .find(|s| s.title == title)
        .unwrap_or_else(|| panic!("no section {title:?} in {p:#?}"))
}

fn group<'a>(groups: &'a [ChoiceGroup], title: &str) -> &'a ChoiceGroup {
    groups
        .iter()
        .find(|g| g.title == title)
        .unwrap_or_else(|| panic!("no group {title:?} in {groups:#?}"))
}

/// A small deterministic generator (xorshift), as in `playout.rs`.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// One step of a seeded random game: a chance outcome by weight, or a random legal action
/// (ending the movement a third of the time, so turns go by).
fn step(state: &mut State, dice: &mut Dice) {
    match Game::next(state) {
        Next::Over(_) => {}
        Next::Chance(c) => {
            let total: u32 = c.outcomes.iter().map(|(_, w)| *w).sum();
            let mut point = dice.below(total as usize) as u32;
            let mut pick = c.outcomes[0].0.clone();
            for (a, w) in &c.outcomes {
                if point < *w {
                    pick = a.clone();
                    break;
                }
                point -= w;
            }
            Game::apply(state, Actor::Chance, &pick).unwrap();
        }
        Next::Players(seats) => {
            let seat = seats[dice.below(seats.len())];
            let actions = legal(state, seat);
            let action = if actions.contains(&Action::EndMovement) && dice.below(3) == 0 {
                Action::EndMovement
            } else {
                actions[dice.below(actions.len())].clone()
            };
            Game::apply(state, Actor::Seat(seat), &action).unwrap();
        }
    }
}

/// A seeded 2-player game with the rulebook's options, played until seat 0 is in its
/// Movement phase at turn `turn` or later.
fn mid_game(seed: u64, turn: u32) -> State {
    mid_game_where(seed, turn, |_| true)
        .unwrap_or_else(|| panic!("seed {seed}: no mid-game state for seat 0 at turn {turn}"))
}

fn mid_game_where(seed: u64, turn: u32, wanted: impl Fn(&State) -> bool) -> Option<State> {
    let mut dice = Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut state = Game::new_game(&Options::default(), 2).unwrap();
    for _ in 0..20_000 {
        if state.turn >= turn
            && state.current == 0
            && matches!(state.phase, Phase::Movement)
            && state.draws == 0
            && state.pending.is_none()
            && legal(&state, 0).len() > 12
            && wanted(&state)
        {
            return Some(state);
        }
        if state.is_over() {
            return None;
        }
        step(&mut state, &mut dice);
    }
    None
}

#[test]
fn players_are_named_and_seats_are_not() {
    let state = mid_game(7, 9);
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        let all = format!(
            "{}{}",
            text(&present(&state, viewer)),
            choices_text(&choices(&state, 0))
        );
        assert!(all.contains("Ann") && all.contains("Bob"), "{all}");
        assert!(!all.contains("Seat 0") && !all.contains("Seat 1"), "{all}");
    }
    let seat0 = present(&state, Viewer::Seat(0));
    assert!(section(&seat0, "Players").lines[0].contains("Ann (you)"));
    assert!(
        seat0
            .headline
            .starts_with("Your turn, Ann: move figures, play cards or use powers"),
        "{}",
        seat0.headline
    );
    let seat1 = present(&state, Viewer::Seat(1));
    assert!(
        seat1.headline.starts_with("Ann is moving"),
        "{}",
        seat1.headline
    );
}

// "These cards are kept hidden from your opponents."
#[test]
fn a_hand_shows_its_card_texts_to_its_owner_only() {
    let mut state = game(2);
    give(&mut state, 0, id("Paladin"));
    give(&mut state, 1, id("Dragon Slayer"));
    let ann = text(&present(&state, Viewer::Seat(0)));
    let bob = text(&present(&state, Viewer::Seat(1)));
    let spectator = text(&present(&state, Viewer::Spectator));
    assert!(
        ann.contains("Paladin: Your Heroes get +2F in Plains"),
        "{ann}"
    );
    assert!(!ann.contains("Dragon Slayer"), "{ann}");
    assert!(
        bob.contains("Dragon Slayer: Your Heroes get +2F vs. Monsters"),
        "{bob}"
    );
    assert!(!bob.contains("Paladin"), "{bob}");
    // Others see only the size of a hand.
    assert!(bob.contains("A Ann, to play: corner a1; 1 Hero; 1 Garrison on the map; hand 1 card"));
    assert!(!spectator.contains("Paladin") && !spectator.contains("Dragon Slayer"));
    let p = present(&state, Viewer::Spectator);
    assert!(
        p.sections.iter().all(|s| !s.title.contains("hand")),
        "{p:#?}"
    );
    assert!(
        present(&state, Viewer::Seat(0))
            .sections
            .iter()
            .any(|s| s.title.starts_with("Your hand (1 of at most 5"))
    );
}

#[test]
fn the_board_is_eight_by_eight_with_pieces_on_their_squares() {
    let mut state = game(2);
    // The test map: terrain by column (a Plains, b Forest, c Mountains, d Badlands, …),
    // structures by (x + y) mod 8 (Village, Town, City, Castle, Ruins, Mine, Temple, Tower).
    let monster = put_figure(&mut state, 1, FigureKind::Monster, Pos(3, 5));
    put_garrison(&mut state, 1, Pos(3, 5));
    let p = present(&state, Viewer::Seat(0));
    let board = section(&p, "Board");
    assert!(board.diagram);
    // Header, rule, 8 rows, rule, header.
    assert_eq!(board.lines.len(), 12, "{:#?}", board.lines);
    assert!(board.lines[0].trim_start().starts_with("a "));
    assert!(board.lines[0].trim_end().ends_with('h'));
    let rows: Vec<&String> = board.lines[2..10].iter().collect();
    for (i, row) in rows.iter().enumerate() {
        let number = 8 - i;
        assert!(row.starts_with(&format!("{number:>2} |")), "{row}");
        assert_eq!(row.matches('|').count(), 9, "{row}");
        assert!(row.len() <= 72, "{row}");
    }
    let cells =
        |row: &str| -> Vec<String> { row.split('|').map(|c| c.trim().to_owned()).collect() };
    // a1: Plains, Village, Ann's Hero and Garrison; h8: Badlands, (7 + 7) mod 8 = 6: Temple.
    assert_eq!(cells(rows[7])[1], "pv Ah#");
    assert_eq!(cells(rows[0])[8], "b* Bh#");
    // d6 = [3,5]: Badlands, (3+5) mod 8 = 0: Village; Bob's Monster and Garrison.
    assert_eq!(cells(rows[2])[4], "bv Bx#");
    let key = text(&p);
    assert!(key.contains("(A Ann, you; B Bob)"), "{key}");
    assert!(state.figure(monster).is_some());
}

// "Figures are moved 1 at a time, 1 space at a time."
#[test]
fn moves_are_grouped_by_the_figure_that_moves() {
    let mut state = game(2);
    let mage = put_figure(&mut state, 0, FigureKind::Mage, Pos(3, 3));
    put_garrison(&mut state, 1, Pos(4, 4));
    let actions = legal(&state, 0);
    let groups = choices(&state, 0);
    let numbers_of = |figure: u16| -> Vec<usize> {
        actions
            .iter()
            .enumerate()
            .filter(|(_, a)| matches!(a, Action::Move { figure: f, .. } if *f == figure))
            .map(|(i, _)| i + 1)
            .collect()
    };
    let hero = group(&groups, "Hero 1 at a1 moves to (1 move point left):");
    assert_eq!(
        hero.choices.iter().map(|c| c.number).collect::<Vec<_>>(),
        numbers_of(1)
    );
    let labels: Vec<&str> = hero.choices.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["b1", "a2", "b2"]);
    let mage_group = group(
        &groups,
        &format!("Mage {mage} at d4 moves to (1 move point left):"),
    );
    assert_eq!(
        mage_group
            .choices
            .iter()
            .map(|c| c.number)
            .collect::<Vec<_>>(),
        numbers_of(mage)
    );
    assert!(
        mage_group
            .choices
            .iter()
            .any(|c| c.label == "e5 (attack Bob)")
    );
    let end = actions
        .iter()
        .position(|a| *a == Action::EndMovement)
        .unwrap()
        + 1;
    assert_eq!(group(&groups, "Finish moving:").choices[0].number, end);
}

// "Alter Terrain OT change Terrain Type of 1 Target Tile": 192 choices in 4 groups.
#[test]
fn long_power_lists_are_grouped_and_stay_small() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Alter Terrain"));
    give_permanent(&mut state, 0, id("Empire"));
    give(&mut state, 0, id("Haste Spell"));
    let actions = legal(&state, 0);
    let groups = choices(&state, 0);
    // Item 4 of issue 18: Alter Terrain is two small steps, the square (eight groups of
    // eight, by row) and then its terrain, not 192 entries.
    for row in 1..=8 {
        let g = group(
            &groups,
            &format!(
                "Alter Terrain: change the terrain of a square in row {row} (then choose the \
                 new terrain):"
            ),
        );
        assert_eq!(g.choices.len(), 8);
        for c in &g.choices {
            assert!(
                matches!(&actions[c.number - 1], Action::AlterTerrain { at } if at.1 + 1 == row)
            );
        }
    }
    assert!(
        actions
            .iter()
            .filter(|a| matches!(a, Action::AlterTerrain { .. }))
            .count()
            == 64
    );
    decide(&mut state, 0, Action::AlterTerrain { at: Pos(3, 5) });
    let groups2 = choices(&state, 0);
    let g = group(
        &groups2,
        "Alter Terrain: the new terrain of d6 (now Badlands):",
    );
    let labels: Vec<&str> = g.choices.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "Plains",
            "Forest",
            "Mountains",
            "Cancel (Alter Terrain is not used)"
        ]
    );
    state.pending = None;
    let haste = group(
        &groups,
        "Haste Spell (plays the card from your hand): +1 move point this turn for:",
    );
    assert_eq!(haste.choices[0].label, "Hero 1 at a1");
    let mut numbers: Vec<usize> = groups
        .iter()
        .flat_map(|g| g.choices.iter().map(|c| c.number))
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=actions.len()).collect::<Vec<_>>());
    let size = format!("{:?}{:?}", present(&state, Viewer::Seat(0)), groups).len();
    assert!(size < 20_000, "{size} bytes for {} choices", actions.len());
}

#[test]
fn combat_shows_both_sides_and_groups_the_force_cards() {
    let mut state = game(2);
    give(&mut state, 0, id("Paladin"));
    give(&mut state, 0, id("Treants"));
    put_garrison(&mut state, 1, Pos(1, 1));
    decide(
        &mut state,
        0,
        Action::Move {
            figure: 1,
            to: Pos(1, 1),
        },
    );
    // "Attacker and Defender both roll 2D6 each." first; then the cards.
    chance(&mut state, Action::Roll2d6(7));
    chance(&mut state, Action::Roll2d6(8));
    let p = present(&state, Viewer::Seat(0));
    assert!(
        p.headline.starts_with(
            "Your turn, Ann: your Hero attacks Bob's Garrison at b2 (totals now 7 against 6)"
        ),
        "{}",
        p.headline
    );
    let turn = text(&p);
    assert!(
        turn.contains(
            "Attacker: Ann's Hero with force +0. Defender: Bob's Garrison with force -2."
        ),
        "{turn}"
    );
    let groups = choices(&state, 0);
    let cards = group(&groups, "Play a card for this fight:");
    // b2 is a Forest: the Paladin (Plains) adds nothing; done is always there.
    let labels: Vec<&str> = cards.choices.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        labels,
        ["Done: no more cards now (the fight is settled when both sides are done in a row)"]
    );
    assert!(
        turn.contains("Ann rolled 7; Bob rolled 8. Totals now: 7 against 6."),
        "{turn}"
    );
}

#[test]
fn the_end_of_the_game_names_the_winner() {
    let mut state = game(2);
    state.phase = Phase::Over(crate::rules::Outcome {
        winners: vec![1],
        scores: None,
        summary: "Seat 1 occupies 5 Temples at the beginning of its turn and wins.".into(),
    });
    let p = present(&state, Viewer::Seat(0));
    assert_eq!(
        p.headline,
        "Game over: Bob wins. Bob occupies 5 Temples at the beginning of its turn and wins."
    );
}

/// Every decision of some seeded games: each action numbered once, one-line labels, and the
/// size of the table plus choices.
#[test]
fn every_choice_is_numbered_once_and_mail_stays_small() {
    let mut largest = (0usize, 0usize, String::new());
    let mut most = (0usize, 0usize);
    // The same tables as text: headline, section lines, numbered choice labels.
    let mut largest_text = 0usize;
    let mut most_alter_terrain = 0usize;
    for seats in 2..=4 {
        for seed in 0..4u64 {
            let mut dice = Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            let options = Options {
                realignment: seed % 2 == 1,
                ..Options::default()
            };
            let mut state = Game::new_game(&options, seats).unwrap();
            for _ in 0..3_000 {
                if let Next::Players(deciding) = Game::next(&state) {
                    for &seat in &deciding {
                        let actions = legal(&state, seat);
                        let groups = Game::choices(&state, seat, &actions, &names());
                        let mut numbers: Vec<usize> = groups
                            .iter()
                            .flat_map(|g| g.choices.iter().map(|c| c.number))
                            .collect();
                        numbers.sort_unstable();
                        assert_eq!(numbers, (1..=actions.len()).collect::<Vec<_>>());
                        for g in &groups {
                            assert!(!g.title.contains('\n'));
                            assert!(g.choices.iter().all(|c| !c.label.contains('\n')));
                        }
                        let p = Game::present(&state, Viewer::Seat(seat), &names());
                        let size = format!("{p:?}{groups:?}").len();
                        let text: usize = p.headline.len()
                            + p.sections
                                .iter()
                                .map(|s| {
                                    s.title.len()
                                        + s.lines.iter().map(|l| l.len() + 1).sum::<usize>()
                                })
                                .sum::<usize>()
                            + groups
                                .iter()
                                .map(|g| {
                                    g.title.len()
                                        + g.choices.iter().map(|c| c.label.len() + 6).sum::<usize>()
                                })
                                .sum::<usize>();
                        largest_text = largest_text.max(text);
                        most_alter_terrain = most_alter_terrain.max(
                            actions
                                .iter()
                                .filter(|a| matches!(a, Action::AlterTerrain { .. }))
                                .count(),
                        );
                        if size > largest.0 {
                            largest = (size, actions.len(), p.headline.clone());
                        }
                        if actions.len() > most.0 {
                            most = (actions.len(), size);
                        }
                        assert!(size < 40_000, "{size} bytes");
                    }
                }
                if state.is_over() {
                    break;
                }
                step(&mut state, &mut dice);
            }
        }
    }
    println!(
        "largest presentation + choices: {} bytes ({} choices; {}); most choices: {} ({} bytes); \
         largest as text: {largest_text} bytes; most Alter Terrain choices at once: \
         {most_alter_terrain}",
        largest.0, largest.1, largest.2, most.0, most.1
    );
}

/// Prints a mid-game table and choices for seat 0, to read
/// (`cargo test --lib rules::monsters_and_magic::tests::present -- --nocapture`).
#[test]
fn prints_a_mid_game_presentation() {
    // A turn with an attack on offer and a power to use.
    let wanted = |s: &State| {
        let groups = choices(s, 0);
        let attack = groups
            .iter()
            .any(|g| g.choices.iter().any(|c| c.label.contains("(attack")));
        let power = groups.iter().any(|g| {
            !g.title.contains("moves to")
                && !g.title.starts_with("Play")
                && !g.title.starts_with("Finish")
        });
        attack && power
    };
    let state = (0..50u64)
        .find_map(|seed| mid_game_where(seed, 15, wanted))
        .unwrap();
    let p = present(&state, Viewer::Seat(0));
    let groups = choices(&state, 0);
    let shown = format!("{}{}", text(&p), choices_text(&groups));
    println!("{shown}");
    println!(
        "({} bytes as text; {} bytes as the suite measures; {} choices)",
        shown.len(),
        format!("{p:?}{groups:?}").len(),
        legal(&state, 0).len()
    );
    assert!(shown.len() < 20_000);
}

// "Polymorph OT Transform 1 of your Figures into another Type"; "6+ Gain 1 Figure of your
// Choice": grouped by what they make, and by square.
#[test]
fn polymorph_and_a_free_recruit_are_grouped_by_what_they_make() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Polymorph"));
    let army_id = put_figure(&mut state, 0, FigureKind::Army, Pos(2, 2));
    let groups = choices(&state, 0);
    let army = group(&groups, "Polymorph: turn into an Army:");
    assert_eq!(army.choices.len(), 1);
    assert_eq!(army.choices[0].label, "Hero 1 at a1");
    let mage = group(&groups, "Polymorph: turn into a Mage:");
    let labels: Vec<&str> = mage.choices.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        labels,
        ["Hero 1 at a1".to_owned(), format!("Army {army_id} at c3")]
    );

    let mut state = game(2);
    // The Hero leaves its Garrison, so a recruit has a place to go.
    decide(
        &mut state,
        0,
        Action::Move {
            figure: 1,
            to: Pos(1, 1),
        },
    );
    decide(&mut state, 0, Action::EndMovement);
    let draw = spare_cards(&state, 1, &[])[0];
    chance(&mut state, Action::DrawCard(draw));
    chance(&mut state, Action::RollDie(6));
    let p = present(&state, Viewer::Seat(0));
    assert!(
        p.headline
            .starts_with("Your turn, Ann: you rolled 6; place a figure of your choice"),
        "{}",
        p.headline
    );
    let bob = present(&state, Viewer::Seat(1));
    assert!(
        bob.headline
            .starts_with("Ann rolled 6 and places a figure of their choice")
    );
    let groups = choices(&state, 0);
    let a1 = group(
        &groups,
        "Recruit a figure of your choice on your Garrison at a1:",
    );
    let labels: Vec<&str> = a1.choices.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["a Mage", "a Hero", "a Monster", "an Army"]);
}
