//! The presenter: the table and the choices as people read them.

use super::*;
use crate::rules::{ChoiceGroup, Presented, Viewer};

fn names() -> Vec<String> {
    vec!["Ann".into(), "Bob".into(), "Cat".into(), "Dan".into()]
}

/// The text a person reads: headline, sections, then the numbered choices.
fn render(p: &Presented, groups: &[ChoiceGroup]) -> String {
    let mut out = format!("{}\n", p.headline);
    for s in &p.sections {
        out.push_str(&format!("\n== {} ==\n", s.title));
        for l in &s.lines {
            out.push_str(l);
            out.push('\n');
        }
    }
    if !groups.is_empty() {
        out.push_str("\n== Your choices ==\n");
    }
    for g in groups {
        if !g.title.is_empty() {
            out.push_str(&format!("{}:\n", g.title));
        }
        for c in &g.choices {
            out.push_str(&format!("  {}. {}\n", c.number, c.label));
        }
    }
    out
}

fn table(state: &State, viewer: Viewer) -> Presented {
    Game::present(state, viewer, &names())
}

fn groups(state: &State, seat: Seat) -> Vec<ChoiceGroup> {
    let actions = legal(state, seat);
    Game::choices(state, seat, &actions, &names())
}

fn full(state: &State, seat: Seat) -> String {
    render(&table(state, Viewer::Seat(seat)), &groups(state, seat))
}

/// Two players mid-game: Ann (Turquefoss) has a Clan out, Secret cards in hand and is moving
/// and attacking; Bob (Imblasham) has a Clan next to hers.
fn mid_game() -> State {
    let mut state = start(2);
    // Bob's Leader next to Ann's (tile 1), so that one tile holds four units.
    state.unit_mut(unit(1, 0)).unwrap().tile = Some(1);
    let leader0 = state.unit(unit(0, 0)).unwrap().tile.unwrap();
    let leader1 = state.unit(unit(1, 0)).unwrap().tile.unwrap();
    let next0 = state.geometry().adjacent(leader0)[0];
    put(&mut state, unit(0, 1), next0);
    put(&mut state, unit(1, 1), next0);
    put(&mut state, unit(1, 2), leader1);
    state.players[0].hand = vec![24, 33];
    state.players[1].hand = vec![30];
    state.unseen.retain(|c| ![24, 33, 30].contains(c));
    state.players[0].units[1].innate_charge = 3;
    state.players[0].units[0].learned = Some(0);
    state.players[0].units[0].learned_charge = 1;
    state.unseen.retain(|&c| c != 0);
    state.players[0].units[0].horns = 2;
    state.players[1].units[1].hp = 7;
    // One more die for the active Clan.
    state.dice = vec![None; 5];
    state.assigned = vec![false; 5];
    state.to_roll = vec![0, 1, 2, 3, 4];
    roll_and_keep(
        &mut state,
        0,
        &[
            Face::MoveAttack,
            Face::MoveAttack,
            Face::Horn,
            Face::Crystal,
            Face::Shield,
        ],
    );
    if waiting_for(&state) == vec![1] {
        decide(&mut state, 1, Action::Pass);
    }
    state
}

fn lcg(x: &mut u64) -> u64 {
    *x = x
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *x >> 33
}

/// A seeded random game, played until `stop` holds (or it ends); each state passed to `each`.
fn play_until(
    options: &Options,
    seats: usize,
    seed: u64,
    stop: impl Fn(&State) -> bool,
    mut each: impl FnMut(&State),
) -> State {
    let mut rng = seed.wrapping_add(3);
    let mut state = Game::new_game(options, seats).unwrap();
    for _ in 0..100_000 {
        each(&state);
        if stop(&state) {
            break;
        }
        match Game::next(&state) {
            Next::Over(_) => break,
            Next::Chance(c) => {
                let a = c.pick(lcg(&mut rng) % c.total_weight()).unwrap().clone();
                Game::apply(&mut state, Actor::Chance, &a).unwrap();
            }
            Next::Players(seats) => {
                let seat = seats[(lcg(&mut rng) as usize) % seats.len()];
                let legal = legal(&state, seat);
                // Prefer ending steps now and then so the game moves on.
                let a = legal[(lcg(&mut rng) as usize) % legal.len()].clone();
                Game::apply(&mut state, Actor::Seat(seat), &a).unwrap();
            }
        }
    }
    state
}

/// `mid_game` with the dice assigned: Ann's Act step.
fn acting() -> State {
    let mut state = mid_game();
    for (face, slot) in [
        (Face::MoveAttack, 1),
        (Face::MoveAttack, 1),
        (Face::Horn, 0),
        (Face::Shield, 1),
    ] {
        decide(&mut state, 0, Action::Assign { face, slot });
    }
    assert_eq!(step_of(&state), Step::Act);
    state
}

/// The numbers of the actions matching `f`, from 1.
fn numbers_of(state: &State, seat: Seat, f: impl Fn(&Action) -> bool) -> Vec<usize> {
    legal(state, seat)
        .iter()
        .enumerate()
        .filter(|(_, a)| f(a))
        .map(|(i, _)| i + 1)
        .collect()
}

fn group_numbers(groups: &[ChoiceGroup], title_starts: &str) -> Vec<usize> {
    let matching: Vec<&ChoiceGroup> = groups
        .iter()
        .filter(|g| g.title.starts_with(title_starts))
        .collect();
    assert_eq!(
        matching.len(),
        1,
        "one group titled {title_starts:?} in {groups:#?}"
    );
    let mut n: Vec<usize> = matching[0].choices.iter().map(|c| c.number).collect();
    n.sort_unstable();
    n
}

fn diagram(state: &State, viewer: Viewer) -> Vec<String> {
    table(state, viewer)
        .sections
        .into_iter()
        .find(|s| s.title == "Board")
        .map(|s| {
            assert!(s.diagram, "the board is a monospace diagram");
            s.lines
        })
        .unwrap()
}

#[test]
fn prints_a_mid_game_table_and_choices() {
    let state = acting();
    let text = full(&state, 0);
    println!("{text}");
    println!("({} bytes)", text.len());
}

#[test]
fn players_are_named_never_seat_numbers() {
    let state = acting();
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        let seat_groups = match viewer {
            Viewer::Seat(s) => groups(&state, s),
            _ => Vec::new(),
        };
        let text = render(&table(&state, viewer), &seat_groups);
        assert!(text.contains("Ann") && text.contains("Bob"), "{text}");
        assert!(!text.to_lowercase().contains("seat "), "{text}");
    }
    let p = table(&state, Viewer::Seat(0));
    assert_eq!(
        p.headline,
        "Your turn, Ann (round 1 of 10): move and attack, one unit at a time."
    );
    let bob = table(&state, Viewer::Seat(1));
    assert_eq!(
        bob.headline,
        "Round 1 of 10 — Ann's turn: moving and attacking."
    );
    let players = &p.sections[0];
    assert_eq!(players.title, "Players");
    assert!(players.lines[0].starts_with("Ann (you) [A], Gnome Tribe of Turquefoss: 25 points"));
    assert!(players.lines[1].starts_with("Bob [B], Wizard Tribe of Imblasham: 32 points"));
    assert!(players.lines[1].contains("1 Secret card in hand"));
}

#[test]
fn your_hand_shows_card_texts_and_other_hands_stay_hidden() {
    let state = acting();
    let ann = full(&state, 0);
    assert!(ann.contains("== Your hand (Secret cards) =="));
    assert!(ann.contains(
        "Ambush: Secret: no charge, used once. Deal 3 damage to an enemy unit on the caster's tile"
    ));
    assert!(ann.contains("Sleep Powder: Secret: no charge, used once."));
    assert!(!ann.contains("Escape Route"), "Bob's card shows to Ann");
    let bob = full(&state, 1);
    assert!(bob.contains("Escape Route: Secret: no charge, used once. Move an ally unit"));
    assert!(!bob.contains("Ambush") && !bob.contains("Sleep Powder"));
    // Issue 18, reference text: every unit's abilities with their full text, the others'
    // too, so that a player never needs the docs to know what a unit can do.
    for text in [&ann, &bob] {
        assert!(text.contains(
            "innate Wind-up Rush, charged (3/3), ready to cast: Charge 3. Make an extra attack"
        ));
    }
}

#[test]
fn the_spectator_sees_no_hand() {
    let state = acting();
    let p = table(&state, Viewer::Spectator);
    let text = render(&p, &[]);
    assert!(
        p.sections.iter().all(|s| !s.title.contains("hand")),
        "{text}"
    );
    for card in ["Ambush", "Sleep Powder", "Escape Route"] {
        assert!(!text.contains(card), "{card} shows to a spectator");
    }
    assert!(!text.contains("(you)"));
    assert!(text.contains("2 Secret cards in hand") && text.contains("1 Secret card in hand"));
    // Everyone (after the game) sees every hand.
    let all = render(&table(&state, Viewer::Everyone), &[]);
    assert!(all.contains("Ann's hand") && all.contains("Escape Route"));
}

#[test]
fn the_board_diagram_draws_every_tile_and_its_units() {
    let state = acting();
    let lines = diagram(&state, Viewer::Seat(0));
    // The 2-player hexagon: 4 rows of triangles, 4 lines each, under the top border.
    assert_eq!(lines.len(), 1 + 4 * 4, "{}", lines.join("\n"));
    let text = lines.join("\n");
    for t in state.geometry().ids() {
        let p = state.geometry().tile(t).unwrap();
        let id = if p.up {
            format!("/{t:>2}\\")
        } else {
            format!("\\{t:>2}/")
        };
        assert!(text.contains(&id), "tile {t} is missing:\n{text}");
    }
    // Ann's Leader is on tile 0 (pointing up): its tag is in the line under the number.
    let leader = state.unit(unit(0, 0)).unwrap().tile.unwrap();
    assert_eq!(leader, 0);
    let (row, col) = lines
        .iter()
        .enumerate()
        .find_map(|(i, l)| l.find("/ 0\\").map(|c| (i, c)))
        .unwrap();
    assert_eq!(&lines[row + 1][col - 1..col + 5], "/ AL \\", "{text}");
    // Tile 1 (pointing down) holds four units: the first tag and +3.
    assert!(text.contains("\\A1+3/"), "{text}");
    // Crystal mines are starred, the key says so.
    assert!(text.contains('*'));
    let p = table(&state, Viewer::Seat(0));
    let key = p.sections.iter().find(|s| s.title == "Key").unwrap();
    assert!(
        key.lines
            .iter()
            .any(|l| l.starts_with("* crystal mine") && l.contains("tiles 7, 8, 9, 14, 15 and 16"))
    );
    assert!(key.lines[0].contains("A = Ann") && key.lines[0].contains("B = Bob"));
}

#[test]
fn every_shape_fits_a_mail_line() {
    use super::super::Shape;
    for shape in [
        Shape::Standard,
        Shape::Broad,
        Shape::Long,
        // Boards of the players' own, up to the largest allowed.
        Shape::Hexagon([3, 1, 3, 3, 1, 3]),
        Shape::Hexagon([3, 3, 3, 3, 3, 3]),
        Shape::Hexagon([7, 2, 0, 7, 2, 0]),
        Shape::Hexagon([2, 5, 2, 2, 5, 2]),
    ] {
        let options = Options {
            shape,
            ..Options::default()
        };
        for seats in Game::seats(&options) {
            let state = start_with(&options, seats);
            let lines = diagram(&state, Viewer::Spectator);
            let rows = state.geometry().tiles.iter().map(|p| p.row).max().unwrap();
            assert!(
                lines.len() == 4 * (rows as usize + 1)
                    || lines.len() == 4 * (rows as usize + 1) + 1,
                "{shape:?} {seats}: {} lines",
                lines.len()
            );
            for l in &lines {
                assert!(l.chars().count() <= 72, "{shape:?} {seats}: {l:?}");
            }
            let text = lines.join("\n");
            let last = state.geometry().len() - 1;
            assert!(text.contains(&format!("{last:>2}")), "{shape:?} {seats}");
        }
    }
}

#[test]
fn dice_are_grouped_by_face() {
    let state = mid_game();
    assert_eq!(step_of(&state), Step::Assign);
    let g = groups(&state, 0);
    for (face, title) in [
        (Face::MoveAttack, "Assign a move/attack die"),
        (Face::Shield, "Assign a shield die"),
        (Face::Horn, "Assign a horn die"),
    ] {
        let expected = numbers_of(
            &state,
            0,
            |a| matches!(a, Action::Assign { face: f, .. } if *f == face),
        );
        assert_eq!(group_numbers(&g, title), expected, "{title}");
    }
    let horn = g
        .iter()
        .find(|g| g.title.starts_with("Assign a horn die"))
        .unwrap();
    assert!(
        horn.choices[0]
            .label
            .starts_with("AL Grand Tinkerer Quartzbeard on tile 0")
    );
    assert!(horn.choices[0].label.contains("2 horns"));
}

#[test]
fn moves_are_grouped_by_unit_attacks_by_target_casts_by_ability() {
    let state = acting();
    let g = groups(&state, 0);
    let moves = numbers_of(&state, 0, |a| matches!(a, Action::Move { slot: 1, .. }));
    assert_eq!(
        group_numbers(&g, "Move your A1 Toy Masters (on tile 1, 6 spaces left)"),
        moves
    );
    let attacks = numbers_of(
        &state,
        0,
        |a| matches!(a, Action::Attack { slot: 1, target, .. } if *target == unit(1, 1)),
    );
    assert_eq!(
        group_numbers(
            &g,
            "Attack Bob's B1 Storm Callers (tile 1, HP 7, defense 1) with your A1"
        ),
        attacks
    );
    let with_dice = g
        .iter()
        .find(|g| g.title.starts_with("Attack Bob's B1"))
        .unwrap();
    let labels: Vec<&str> = with_dice.choices.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        labels,
        vec![
            "power 4: 4 damage",
            "power 5 (adding 1 die): 5 damage",
            "power 6 (adding 2 dice): 6 damage"
        ]
    );
    let ambush = numbers_of(
        &state,
        0,
        |a| matches!(a, Action::Cast(c) if c.source == super::super::Source::Secret(24)),
    );
    assert_eq!(ambush.len(), 3);
    assert_eq!(group_numbers(&g, "Cast the Secret card Ambush"), ambush);
    // The step's end comes last.
    let last = g.last().unwrap();
    assert_eq!(last.title, "End this step");
    assert_eq!(
        last.choices[0].number,
        numbers_of(&state, 0, |a| *a == Action::EndActions)[0]
    );
}

#[test]
fn a_reaction_window_asks_the_other_player() {
    let mut state = acting();
    decide(
        &mut state,
        0,
        Action::Attack {
            slot: 1,
            target: unit(1, 1),
            dice: 2,
        },
    );
    assert_eq!(waiting_for(&state), vec![1]);
    let bob = table(&state, Viewer::Seat(1));
    assert_eq!(
        bob.headline,
        "Your decision, Bob: cast an ability or pass (before Ann's A1 Toy Masters' attack on \
         your B1 Storm Callers resolves)."
    );
    let ann = table(&state, Viewer::Seat(0));
    assert!(
        ann.headline.starts_with("Bob may cast an ability or pass"),
        "{}",
        ann.headline
    );
    let turn = render(&ann, &[]);
    assert!(turn.contains(
        "Attack declared: your A1 Toy Masters attacks Bob's B1 Storm Callers on tile 1 with power 6"
    ));
    let g = groups(&state, 1);
    assert_eq!(g[0].title, "Answer");
    assert_eq!(g[0].choices[0].label, "Pass: cast nothing now");
    assert!(
        g.iter()
            .any(|g| g.title.starts_with("Cast the Secret card Escape Route"))
    );
}

#[test]
fn drawn_cards_show_only_to_the_drawer() {
    let mut state = acting();
    decide(&mut state, 0, Action::EndActions);
    if waiting_for(&state) == vec![1] {
        decide(&mut state, 1, Action::Pass);
    }
    decide(&mut state, 0, Action::DrawCards { slot: 0 });
    let g = groups(&state, 0);
    assert_eq!(g[0].title, "Draw card 1 of 2 from");
    decide(&mut state, 0, Action::DrawFrom(super::super::Deck::Secret));
    chance(&mut state, Action::DrawCard(25));
    decide(&mut state, 0, Action::DrawFrom(super::super::Deck::Learned));
    chance(&mut state, Action::DrawCard(5));
    let ann = full(&state, 0);
    assert!(
        ann.contains("Sneak Attack: Secret: no charge, used once."),
        "{ann}"
    );
    assert!(ann.contains("Arcane Missile (Learned): Charge 4."), "{ann}");
    let keep = groups(&state, 0);
    assert_eq!(
        keep[0].title,
        "Keep one card (the other goes under its deck)"
    );
    assert!(keep[0].choices[0].label.starts_with("Sneak Attack"));
    for viewer in [Viewer::Seat(1), Viewer::Spectator] {
        let other = render(&table(&state, viewer), &[]);
        assert!(!other.contains("Sneak Attack") && !other.contains("Arcane Missile"));
        assert!(other.contains("Ann is drawing two ability cards to keep one: 2 drawn so far."));
    }
}

#[test]
fn solo_shows_the_automaton() {
    let state = start(1);
    let text = full(&state, 0);
    assert!(text.contains("== The automaton =="), "{text}");
    assert!(text.contains("The automaton [X], Wizard Tribe of Imblasham"));
    assert!(text.contains("XL Archmage Vellicent on tile"));
    assert!(text.contains("Goal: defeat all 7 automaton units (defeated so far: 0)"));
    assert!(
        !text.contains("innate Chain Lightning"),
        "the automaton never casts"
    );
    let board = diagram(&state, Viewer::Seat(0)).join("\n");
    assert!(board.contains("XL"), "{board}");
}

#[test]
fn the_leaders_are_placed_by_name() {
    let mut state = Game::new_game(
        &Options {
            tribes: vec![Tribe::Turquefoss, Tribe::Imblasham],
            ..Options::default()
        },
        2,
    )
    .unwrap();
    while !matches!(state.phase, Phase::Leaders) {
        let a = match Game::next(&state) {
            Next::Chance(c) if matches!(state.phase, Phase::FirstPlayer) => {
                let _ = c;
                Action::FirstPlayer(1)
            }
            Next::Chance(c) => c.outcomes[0].0.clone(),
            other => panic!("{other:?}"),
        };
        Game::apply(&mut state, Actor::Chance, &a).unwrap();
    }
    let bob = table(&state, Viewer::Seat(1));
    assert_eq!(
        bob.headline,
        "Your turn, Bob: place your Leader on a start tile."
    );
    assert_eq!(
        table(&state, Viewer::Seat(0)).headline,
        "Bob is placing their Leader on a start tile."
    );
    let g = groups(&state, 1);
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].title, "Place your Leader on a start tile");
    assert_eq!(g[0].choices.len(), legal(&state, 1).len());
    let key = render(&bob, &[]);
    assert!(key.contains("Leader start tiles:"));
}

/// Random games over the option sets: every action numbered once on one line, and the size
/// of a seat's table and choices.
#[test]
fn random_games_number_every_choice_and_stay_small() {
    let mut largest = (0usize, String::new());
    let mut most_choices = (0usize, String::new());
    let mut sets = Game::option_sets();
    sets.truncate(9);
    for (k, options) in sets.iter().enumerate() {
        for seats in Game::seats(options) {
            let mut count = 0usize;
            play_until(
                options,
                seats,
                k as u64 * 10 + seats as u64,
                |_| false,
                |state| {
                    count += 1;
                    if !count.is_multiple_of(3) {
                        return;
                    }
                    let Next::Players(deciders) = Game::next(state) else {
                        return;
                    };
                    for seat in deciders {
                        let actions = legal(state, seat);
                        let g = Game::choices(state, seat, &actions, &names());
                        let mut numbers: Vec<usize> = g
                            .iter()
                            .flat_map(|g| g.choices.iter().map(|c| c.number))
                            .collect();
                        numbers.sort_unstable();
                        assert_eq!(numbers, (1..=actions.len()).collect::<Vec<_>>());
                        for c in g.iter().flat_map(|g| &g.choices) {
                            assert!(!c.label.is_empty() && !c.label.contains('\n'));
                        }
                        assert!(
                            g.iter().all(|g| !g.title.starts_with("Other choices")),
                            "{g:#?}"
                        );
                        let text = render(&table(state, Viewer::Seat(seat)), &g);
                        assert!(!text.to_lowercase().contains("seat "), "{text}");
                        if text.len() > largest.0 {
                            largest = (text.len(), text);
                        }
                        if actions.len() > most_choices.0 {
                            most_choices = (actions.len(), full(state, seat));
                        }
                    }
                },
            );
        }
    }
    println!("largest presentation: {} bytes", largest.0);
    println!("most choices: {}", most_choices.0);
    assert!(largest.0 < 40_000, "{}", largest.1);
}

#[test]
fn the_game_over_headline_names_the_winner() {
    let state = play_until(&Options::default(), 2, 11, |_| false, |_| {});
    assert!(state.result.is_some());
    let p = table(&state, Viewer::Seat(0));
    assert!(p.headline.starts_with("Game over. "), "{}", p.headline);
    assert!(
        !p.headline.to_lowercase().contains("seat "),
        "{}",
        p.headline
    );
    let text = render(&p, &[]);
    assert!(text.contains("Final scores: Ann "), "{text}");
}

#[test]
#[ignore]
fn prints_one_state_of_each_kind() {
    let mut seen: Vec<String> = Vec::new();
    let options = Options {
        variants: vec![Variant::TemporaryAlliances, Variant::EmpoweringCall],
        ..Options::default()
    };
    for seed in 0..6 {
        play_until(
            &options,
            3,
            seed,
            |_| false,
            |state| {
                let Next::Players(deciders) = Game::next(state) else {
                    return;
                };
                let Some(&seat) = deciders.first() else {
                    return;
                };
                let kind = format!(
                    "{:?} {} {} {} {}",
                    state.step().map(std::mem::discriminant),
                    state.window.is_some(),
                    state.falls.is_empty(),
                    state.offer.is_some(),
                    state.draw.is_some()
                );
                if seen.contains(&kind) {
                    return;
                }
                seen.push(kind);
                let g = groups(state, seat);
                let p = table(state, Viewer::Seat(seat));
                println!("---- seat {seat}: {}", p.headline);
                let text = render(
                    &Presented {
                        headline: String::new(),
                        sections: p
                            .sections
                            .into_iter()
                            .filter(|s| s.title == "This turn")
                            .collect(),
                    },
                    &g,
                );
                println!("{text}");
            },
        );
    }
}

/// The largest table + choices and the most choices over many random games (run by hand:
/// `cargo test --lib rules::gnomes_and_wizards::tests::present::measure -- --ignored --nocapture`).
#[test]
#[ignore]
fn measure_sizes() {
    let mut largest = (0usize, String::new());
    let mut most_choices = 0usize;
    for options in &Game::option_sets() {
        for seats in Game::seats(options) {
            for seed in 0..10 {
                play_until(
                    options,
                    seats,
                    seed,
                    |_| false,
                    |state| {
                        let Next::Players(deciders) = Game::next(state) else {
                            return;
                        };
                        for seat in deciders {
                            let actions = legal(state, seat);
                            most_choices = most_choices.max(actions.len());
                            let g = Game::choices(state, seat, &actions, &names());
                            let text = render(&table(state, Viewer::Seat(seat)), &g);
                            if text.len() > largest.0 {
                                largest = (text.len(), text);
                            }
                        }
                    },
                );
            }
        }
    }
    println!("{}", largest.1);
    println!(
        "largest presentation: {} bytes; most choices: {most_choices}",
        largest.0
    );
}
