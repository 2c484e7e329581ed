//! The presenter: the table and the choices as people read them (mail and web pages).

use super::*;
use crate::rules::{ChoiceGroup, Presented, Viewer};

fn names() -> Vec<String> {
    ["Ann", "Bob", "Cat", "Dan"]
        .iter()
        .map(|n| (*n).to_owned())
        .collect()
}

/// The presentation as a mail shows it: headline, sections, numbered choices.
fn render(p: &Presented, groups: &[ChoiceGroup]) -> String {
    let mut out = format!("{}\n", p.headline);
    for s in &p.sections {
        out.push_str(&format!("\n== {} ==\n", s.title));
        for l in &s.lines {
            out.push_str(&format!("{l}\n"));
        }
    }
    if !groups.is_empty() {
        out.push_str("\n== Your choices ==\n");
    }
    for g in groups {
        out.push_str(&format!("{}:\n", g.title));
        for c in &g.choices {
            out.push_str(&format!("  {}. {}\n", c.number, c.label));
        }
    }
    out
}

fn table(state: &State, viewer: Viewer) -> Presented {
    Game::present(state, viewer, &names())
}

fn choices_of(state: &State, seat: Seat) -> (Vec<Action>, Vec<ChoiceGroup>) {
    let actions = Game::legal_actions(state, seat);
    let groups = Game::choices(state, seat, &actions, &names());
    (actions, groups)
}

fn text(state: &State, seat: Seat) -> String {
    let (_, groups) = choices_of(state, seat);
    render(&table(state, Viewer::Seat(seat)), &groups)
}

fn section<'a>(p: &'a Presented, title: &str) -> Option<&'a crate::rules::Section> {
    p.sections.iter().find(|s| s.title.starts_with(title))
}

fn group<'a>(groups: &'a [ChoiceGroup], title: &str) -> &'a ChoiceGroup {
    groups
        .iter()
        .find(|g| g.title.starts_with(title))
        .unwrap_or_else(|| panic!("no group {title:?} in {groups:#?}"))
}

/// Every number from 1 to the number of actions once.
fn assert_numbered(actions: &[Action], groups: &[ChoiceGroup]) {
    let mut numbers: Vec<usize> = groups
        .iter()
        .flat_map(|g| g.choices.iter().map(|c| c.number))
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=actions.len()).collect::<Vec<_>>());
}

/// A small deterministic generator for playouts.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// Plays one step at random (chance by weight); false once the game is over.
fn step(state: &mut State, rng: &mut Lcg) -> bool {
    match Game::next(state) {
        Next::Over(_) => false,
        Next::Chance(c) => {
            let total: u32 = c.outcomes.iter().map(|(_, w)| *w).sum();
            let mut roll = rng.below(total as usize) as u32;
            let mut pick = c.outcomes[0].0.clone();
            for (a, w) in &c.outcomes {
                if roll < *w {
                    pick = a.clone();
                    break;
                }
                roll -= w;
            }
            Game::apply(state, Actor::Chance, &pick).unwrap();
            true
        }
        Next::Players(seats) => {
            let seat = seats[0];
            let legal = Game::legal_actions(state, seat);
            // Prefer doing something to ending the step, so the table fills up (but not
            // spending cards for movement, which would empty the hands).
            let busy: Vec<&Action> = legal
                .iter()
                .filter(|a| {
                    !matches!(
                        a,
                        Action::EndMove | Action::EndTurn | Action::CancelCast | Action::Speed(_)
                    )
                })
                .collect();
            let pick = if !busy.is_empty() && rng.below(3) > 0 {
                busy[rng.below(busy.len())].clone()
            } else {
                legal[rng.below(legal.len())].clone()
            };
            Game::apply(state, Actor::Seat(seat), &pick).unwrap();
            true
        }
    }
}

/// A 4-player game played at random until seat 0 is to move and cast in round `round` or
/// later, with 4 cards or more and a spell in play.
fn mid_game(seed: u64, round: u32) -> Option<State> {
    let mut state = Game::new_game(&quiet(), 4).unwrap();
    let mut rng = Lcg(seed);
    for _ in 0..20_000 {
        let ready = state.turn.number > 4 * (round - 1)
            && state.phase == Phase::MoveAndCast
            && state.casting.is_none()
            && state.stack.is_empty()
            && state.turn.seat == 0
            && state.turn.movement == 3
            && state.wizards[0].hand.len() >= 4
            && !state.spells.is_empty();
        if ready {
            return Some(state);
        }
        if !step(&mut state, &mut rng) {
            return None;
        }
    }
    None
}

use super::super::state::Phase;

#[test]
fn players_are_named_and_no_seat_numbers_show() {
    let state = start(4, &quiet());
    for viewer in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Spectator] {
        let p = table(&state, viewer);
        let groups = match viewer {
            Viewer::Seat(s) => choices_of(&state, s).1,
            _ => Vec::new(),
        };
        let all = render(&p, &groups);
        for n in names() {
            assert!(all.contains(&n), "{n} missing for {viewer:?}:\n{all}");
        }
        assert!(!all.contains("Seat "), "a seat number shows:\n{all}");
        assert!(!all.contains("seat "), "a seat number shows:\n{all}");
    }
    let p = table(&state, Viewer::Seat(0));
    assert!(
        p.headline
            .starts_with("Your turn, Ann (round 1 of 30): move and cast"),
        "{}",
        p.headline
    );
    assert!(p.headline.contains("3 movement points left"));
    assert!(p.headline.contains("first turn: no attack"));
    let bob = table(&state, Viewer::Seat(1));
    assert!(bob.headline.starts_with("Ann's turn"), "{}", bob.headline);
    let players = section(&p, "Players").unwrap();
    assert!(players.lines[0].starts_with("Ann (you): red wizard A at c3; life 15"));
    assert!(players.lines[1].starts_with("Bob: blue wizard B at h3"));
}

#[test]
fn your_hand_shows_card_texts_and_other_hands_stay_hidden() {
    let state = duel(
        &["fireball", "energy_5", "zot"],
        &["mental_force", "brain_burn"],
    );
    let ann = table(&state, Viewer::Seat(0));
    let hand = section(&ann, "Your hand").unwrap();
    let all = hand.lines.join("\n");
    assert!(all.contains("Fireball (Elemental attack spell, boostable, energy value 3): Attack, fire. Hurl a fireball"), "{all}");
    assert!(
        all.contains("Energy 5 (Alchemy/Elemental energy card, energy value 5): Spend for energy"),
        "{all}"
    );
    assert!(all.contains("Zot (Cantrip counter spell"), "{all}");
    let ann_all = text(&state, 0);
    for secret in [
        "Mental Force",
        "Brain Burn",
        "energy + 2 damage",
        "per card in its hand",
    ] {
        assert!(!ann_all.contains(secret), "Bob's {secret} shows to Ann");
    }
    let players = section(&ann, "Players").unwrap();
    assert!(
        players.lines[1].contains("2 cards in hand"),
        "{:?}",
        players.lines
    );
    let bob_all = text(&state, 1);
    assert!(bob_all.contains("Mental Force (Mentalism attack spell"));
    assert!(!bob_all.contains("Fireball"), "Ann's hand shows to Bob");
}

#[test]
fn the_spectator_sees_no_hand() {
    let state = duel(&["fireball", "zot"], &["mental_force"]);
    let p = table(&state, Viewer::Spectator);
    let all = render(&p, &[]);
    assert!(section(&p, "Your hand").is_none());
    assert!(!p.sections.iter().any(|s| s.title.ends_with("hand")));
    for secret in ["Fireball", "Zot", "Mental Force"] {
        assert!(
            !all.contains(secret),
            "{secret} shows to a spectator:\n{all}"
        );
    }
    assert!(all.contains("Ann: red wizard"));
    // Once the game is over, everyone's hand may be shown to everyone.
    let every = table(&state, Viewer::Everyone);
    assert!(section(&every, "Ann's hand").is_some());
    assert!(section(&every, "Bob's hand").is_some());
}

#[test]
fn the_board_diagram_has_the_board_size_and_shows_pieces_at_their_squares() {
    let mut state = start(2, &quiet());
    place(&mut state, 1, Pos(7, 1));
    let p = table(&state, Viewer::Seat(0));
    let board = section(&p, "Board").unwrap();
    assert!(board.diagram);
    assert!(board.title.contains("10 x 5"), "{}", board.title);
    // A header, then a border line and a row line per row, then the last border.
    assert_eq!(
        board.lines.len(),
        1 + 2 * 5 + 1,
        "{}",
        board.lines.join("\n")
    );
    assert_eq!(board.lines[0], "     a   b   c   d   e   f   g   h   i   j");
    assert!(board.lines.iter().all(|l| l.len() <= 72));
    let cell = |x: usize, y: usize| -> String {
        let row = &board.lines[2 + 2 * y];
        row.get(4 + 4 * x..7 + 4 * x).unwrap_or("").to_owned()
    };
    let rows: Vec<&String> = (0..5).map(|y| &board.lines[2 + 2 * y]).collect();
    for (y, row) in rows.iter().enumerate() {
        assert!(row.starts_with(&format!("{:>2} ", y + 1)), "{row}");
    }
    // Ann at her home base c3 (2, 2); Bob moved to h2 (7, 1); blue's home h3 is empty.
    assert_eq!(cell(2, 2), "A* ", "{}", board.lines.join("\n"));
    assert_eq!(cell(7, 1), " B ", "{}", board.lines.join("\n"));
    assert_eq!(cell(7, 2), " * ");
    // Each treasure shows as $ where it lies.
    for t in &state.treasures {
        let at = t.at.unwrap();
        assert!(cell(at.0 as usize, at.1 as usize).contains('$'));
    }
    // The red sector's door (design row 5 "+-+D+"): south of b3, so "-r-" under row 3.
    assert_eq!(
        board.lines[7].get(8..11),
        Some("-r-"),
        "{}",
        board.lines.join("\n")
    );
    let key = section(&p, "Board key").unwrap().lines.join("\n");
    assert!(
        key.contains("A = Ann (you, red) at c3, B = Bob (blue) at h2"),
        "{key}"
    );
    assert!(key.contains("Ann's red sector (a1-e5), home c3"), "{key}");
    assert!(key.contains("c1 north <-> c5 south"), "{key}");
}

#[test]
fn the_board_shows_doors_created_walls_and_the_three_player_gap() {
    let mut state = start(3, &quiet());
    let p = table(&state, Viewer::Seat(0));
    let board = section(&p, "Board").unwrap();
    assert_eq!(board.lines.len(), 1 + 2 * 10 + 1);
    // The gap (f6-j10) is blank.
    for y in 5..10 {
        let row = &board.lines[2 + 2 * y];
        assert!(row.get(24..).unwrap_or("").trim().is_empty(), "{row:?}");
    }
    let key = section(&p, "Board key").unwrap().lines.join("\n");
    assert!(key.contains("Portals: "), "{key}");
    // A created wall shows as ### on its line.
    give(&mut state, 0, &["create_wall"]);
    // Nobody holds a counter, so the spell takes effect at once.
    give(&mut state, 1, &["fireball"]);
    give(&mut state, 2, &["fireball"]);
    state.turn.first = false;
    decide(&mut state, 0, Action::Cast(card("create_wall")));
    let (actions, groups) = choices_of(&state, 0);
    assert_numbered(&actions, &groups);
    let g = group(&groups, "Create Wall: the square beside");
    let n = g.choices.iter().find(|c| c.label == "d3").unwrap().number;
    assert_eq!(actions[n - 1], Action::Target(Target::Square(Pos(3, 2))));
    decide(&mut state, 0, actions[n - 1].clone());
    let (actions, groups) = choices_of(&state, 0);
    assert_numbered(&actions, &groups);
    let g = group(&groups, "Create Wall: which side of d3");
    let open = g
        .choices
        .iter()
        .find(|c| c.label.ends_with("(open)"))
        .unwrap();
    let Action::Target(Target::Side(p, d)) = actions[open.number - 1] else {
        panic!("{:?}", actions[open.number - 1])
    };
    assert_eq!(p, Pos(3, 2));
    let across = match d {
        Dir::North => "d2",
        Dir::East => "e3",
        Dir::South => "d4",
        Dir::West => "c3",
    };
    assert!(
        open.label
            .starts_with(&format!("{} side: the line between ", d.name()))
    );
    assert!(open.label.contains(across), "{}", open.label);
    decide(&mut state, 0, actions[open.number - 1].clone());
    let p = table(&state, Viewer::Seat(1));
    let board = section(&p, "Board").unwrap();
    // Row 3 (y = 2) is diagram line 6, its north border line 5, its south border line 7.
    let drawn: String = match d {
        Dir::North => board.lines[5].get(16..19).unwrap().to_owned(),
        Dir::South => board.lines[7].get(16..19).unwrap().to_owned(),
        Dir::West => board.lines[6].get(15..16).unwrap().to_owned(),
        Dir::East => board.lines[6].get(19..20).unwrap().to_owned(),
    };
    assert!(
        drawn.chars().all(|c| c == '#'),
        "{drawn:?} in\n{}",
        board.lines.join("\n")
    );
    let line = format!(
        "the line between {}",
        if matches!(d, Dir::North | Dir::West) {
            format!("{across} and d3")
        } else {
            format!("d3 and {across}")
        }
    );
    let on = section(&p, "On the board").unwrap().lines.join("\n");
    assert!(
        on.contains(&format!("# Create Wall: {line}, Ann's spell #")),
        "{on}"
    );
    let spells = section(&p, "Spells in play").unwrap().lines.join("\n");
    assert!(
        spells.contains(&format!("Create Wall by Ann on {line}")),
        "{spells}"
    );
}

#[test]
fn moves_and_cards_are_grouped_under_the_right_titles() {
    let mut state = duel(&["fireball", "energy_5", "speedstone"], &["zot"]);
    place(&mut state, 0, Pos(2, 2));
    place(&mut state, 1, Pos(4, 2));
    state.turn.movement = 2;
    let (actions, groups) = choices_of(&state, 0);
    assert_numbered(&actions, &groups);
    let moves = group(&groups, "Move one square from c3 (2 movement points left)");
    let labels: Vec<&str> = moves.choices.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        labels,
        ["north to c2", "east to d3", "south to c4", "west to b3"]
    );
    for c in &moves.choices {
        assert!(matches!(actions[c.number - 1], Action::Move(_)));
    }
    let north = &moves.choices[0];
    assert_eq!(actions[north.number - 1], Action::Move(Dir::North));
    let cast = group(&groups, "Cast a spell");
    assert_eq!(cast.choices.len(), 1);
    assert_eq!(cast.choices[0].label, "Fireball (attack spell)");
    assert_eq!(
        actions[cast.choices[0].number - 1],
        Action::Cast(card("fireball"))
    );
    let play = group(&groups, "Play an item");
    assert_eq!(
        actions[play.choices[0].number - 1],
        Action::Play(card("speedstone"))
    );
    let speed = group(&groups, "Spend an energy card");
    assert_eq!(speed.choices[0].label, "Energy 5 (+5 movement points)");
    let finish = group(&groups, "Finish");
    assert_eq!(actions[finish.choices[0].number - 1], Action::EndMove);
    // The groups read in a fixed order: moves first, the end of the step last.
    assert!(groups[0].title.starts_with("Move"));
    assert_eq!(groups.last().unwrap().title, "Finish");

    // Casting: the target, then the energy.
    decide(&mut state, 0, Action::Cast(card("fireball")));
    let p = table(&state, Viewer::Seat(0));
    assert!(
        p.headline.contains("casting Fireball — choose a target"),
        "{}",
        p.headline
    );
    let (actions, groups) = choices_of(&state, 0);
    assert_numbered(&actions, &groups);
    let targets = group(&groups, "Fireball: target");
    let bob = targets
        .choices
        .iter()
        .find(|c| c.label == "Bob at e3")
        .unwrap();
    assert_eq!(actions[bob.number - 1], target_wizard(1));
    decide(&mut state, 0, target_wizard(1));
    let (actions, groups) = choices_of(&state, 0);
    let energy = group(&groups, "Fireball: its energy");
    let labels: Vec<&str> = energy.choices.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        labels,
        ["Boost with Energy 5: energy 5", "No boost: energy 1"]
    );
    let cancel = group(&groups, "Or change your mind");
    assert_eq!(actions[cancel.choices[0].number - 1], Action::CancelCast);
}

#[test]
fn a_reaction_window_says_who_may_answer() {
    let mut state = duel(&["fireball"], &["full_shield", "zot"]);
    place(&mut state, 0, Pos(0, 2));
    place(&mut state, 1, Pos(3, 2));
    decide(&mut state, 0, Action::Cast(card("fireball")));
    decide(&mut state, 0, target_wizard(1));
    assert_eq!(waiting_for(&state), vec![1]);
    let ann = table(&state, Viewer::Seat(0));
    assert_eq!(
        ann.headline,
        "Reaction window: You cast Fireball at Bob (energy 1). Bob may answer with a counter \
         spell or pass."
    );
    let bob = table(&state, Viewer::Seat(1));
    assert_eq!(
        bob.headline,
        "Reaction window, Bob: Ann cast Fireball at you (energy 1). You may answer with a \
         counter spell or pass."
    );
    assert!(section(&bob, "Reaction window").is_some());
    let (actions, groups) = choices_of(&state, 1);
    assert_numbered(&actions, &groups);
    let g = group(&groups, "Answer Ann's Fireball at you (energy 1)");
    let labels: Vec<&str> = g.choices.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "Counter with Full Shield: cancel it",
            "Counter with Zot: cancel it",
            "Pass (let it take effect)"
        ]
    );
    assert_eq!(actions[g.choices[2].number - 1], Action::Pass);
}

#[test]
fn many_squares_are_grouped_by_row() {
    let mut state = duel(&["teleport"], &[]);
    place(&mut state, 0, Pos(2, 2));
    decide(&mut state, 0, Action::Cast(card("teleport")));
    let (actions, groups) = choices_of(&state, 0);
    assert_numbered(&actions, &groups);
    let row1 = group(&groups, "Teleport: a square in row 1");
    assert_eq!(row1.choices[0].label, "a1");
    assert_eq!(
        actions[row1.choices[0].number - 1],
        Action::Target(Target::Square(Pos(0, 0)))
    );
    assert!(groups.iter().all(|g| g.choices.len() <= 10));
    let size = text(&state, 0).len();
    println!("Teleport: {} choices, {size} bytes", actions.len());
    assert!(size < 20_000);
}

#[test]
fn over_the_hand_limit_out_of_turn() {
    let mut state = duel(
        &[],
        &[
            "zot",
            "zot",
            "shield",
            "fireball",
            "waterbolt",
            "fog",
            "flood",
            "fog",
        ],
    );
    state.wizards[1].hand.sort();
    let p = table(&state, Viewer::Seat(1));
    assert!(
        p.headline
            .starts_with("Your move, Bob: you are over the hand limit (8 of 7)"),
        "{}",
        p.headline
    );
    let (actions, groups) = choices_of(&state, 1);
    assert_numbered(&actions, &groups);
    let g = group(&groups, "Over the hand limit (8 of 7): discard a card");
    // One choice per distinct card, and the card drawn at random (ruling 31).
    assert_eq!(
        g.choices.len(),
        7,
        "one choice per distinct card, and one at random"
    );
    let last = &g.choices[6].label;
    assert!(last.starts_with("A card at random"), "{last}");
    let ann = table(&state, Viewer::Seat(0));
    assert!(
        ann.headline.starts_with("Bob is over the hand limit"),
        "{}",
        ann.headline
    );
}

/// Prints a mid-game table and seat 0's choices, to read (run with --nocapture).
#[test]
fn print_a_mid_game_table_and_choices() {
    let state = (1..120)
        .find_map(|seed| mid_game(seed, 4))
        .expect("a game reaching round 4");
    let all = text(&state, 0);
    println!("{all}");
    println!("({} bytes)", all.len());
    assert!(all.len() < 20_000);
    assert!(!all.contains("Seat "));
    let (actions, groups) = choices_of(&state, 0);
    assert_numbered(&actions, &groups);
}

const SEEDS: u64 = 13;

/// The largest table + choices over random games, and the most choices.
#[test]
fn presentations_stay_small_over_random_games() {
    let (mut biggest, mut most) = (0, 0);
    for seed in 1..SEEDS {
        let seats = 2 + (seed as usize % 3);
        let mut state = Game::new_game(&quiet(), seats).unwrap();
        let mut rng = Lcg(seed);
        for _ in 0..3_000 {
            // Every viewer, at every step (set-up and chance steps too).
            for viewer in [Viewer::Spectator, Viewer::Everyone, Viewer::Seat(seats - 1)] {
                let p = table(&state, viewer);
                assert!(!p.headline.is_empty());
            }
            if let Next::Players(seats) = Game::next(&state) {
                let seat = seats[0];
                let (actions, groups) = choices_of(&state, seat);
                assert_numbered(&actions, &groups);
                let size = text(&state, seat).len();
                biggest = biggest.max(size);
                most = most.max(actions.len());
            }
            if !step(&mut state, &mut rng) {
                break;
            }
        }
    }
    println!("largest presentation: {biggest} bytes; most choices: {most}");
    assert!(biggest < 40_000);
}

#[test]
fn odd_states_never_panic_and_unknown_cards_print_raw() {
    let mut state = duel(&["fireball"], &["zot"]);
    state.wizards[0].hand.push(CardId(4242));
    state.wizards[0].items.push(CardId(4243));
    state.discard.push(CardId(4244));
    state.wizards[1].at = None;
    state.board.slots.clear();
    let p = table(&state, Viewer::Seat(0));
    let all = render(&p, &[]);
    assert!(all.contains("card_4242"), "{all}");
    assert!(all.contains("card_4243"), "{all}");
    for viewer in [Viewer::Seat(7), Viewer::Spectator, Viewer::Everyone] {
        let _ = table(&state, viewer);
    }
    let _ = Game::choices(&state, 9, &[Action::Pass, Action::EndTurn], &[]);
    let empty = Game::choices(&state, 0, &[], &names());
    assert!(empty.is_empty());
}
