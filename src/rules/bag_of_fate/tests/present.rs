//! The presenter: the table and the numbered choices as people read them.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::rules::{ChoiceGroup, Presented, Viewer};

fn names() -> Vec<String> {
    ["Ann", "Bob", "Cat", "Dan", "Eve"]
        .iter()
        .map(|n| (*n).to_owned())
        .collect()
}

/// Everything a viewer reads, as one text.
fn text(p: &Presented) -> String {
    let mut out = format!("{}\n", p.headline);
    for section in &p.sections {
        out.push_str(&format!("\n== {} ==\n", section.title));
        for line in &section.lines {
            out.push_str(&format!("{line}\n"));
        }
    }
    out
}

fn choices_text(groups: &[ChoiceGroup]) -> String {
    let mut out = String::new();
    for group in groups {
        out.push_str(&format!("\n{}\n", group.title));
        for c in &group.choices {
            out.push_str(&format!("  {:>2}. {}\n", c.number, c.label));
        }
    }
    out
}

fn present(state: &State, viewer: Viewer) -> Presented {
    Game::present(state, viewer, &names())
}

fn choices_of(state: &State, seat: Seat) -> Vec<ChoiceGroup> {
    let actions = Game::legal_actions(state, seat);
    Game::choices(state, seat, &actions, &names())
}

fn section<'a>(p: &'a Presented, title_start: &str) -> Option<&'a crate::rules::Section> {
    p.sections.iter().find(|s| s.title.starts_with(title_start))
}

/// The numbers of the group whose title starts with `title_start`.
fn group_numbers(groups: &[ChoiceGroup], title_start: &str) -> Vec<usize> {
    groups
        .iter()
        .find(|g| g.title.starts_with(title_start))
        .map(|g| g.choices.iter().map(|c| c.number).collect())
        .unwrap_or_default()
}

fn number_of(state: &State, seat: Seat, action: &Action) -> usize {
    Game::legal_actions(state, seat)
        .iter()
        .position(|a| a == action)
        .unwrap()
        + 1
}

fn label_of(groups: &[ChoiceGroup], number: usize) -> String {
    groups
        .iter()
        .flat_map(|g| &g.choices)
        .find(|c| c.number == number)
        .map(|c| c.label.clone())
        .unwrap()
}

/// A three-player game in its first round: Bob (the Queen) has played and turned in a set of
/// Flowers; Ann took the Hunter, drew a card and a Level-Up token, and must play two cards.
/// Cat is still to play.
fn mid_game() -> State {
    let mut state = start_with(
        &[
            [card(Potions, 2), card(Snails, 1), card(Mushrooms, 3)],
            [card(Flowers, 1), card(Crystals, 3), card(Crystals, 3)],
            [card(Potions, 1), card(Potions, 1), card(Snails, 2)],
        ],
        &[1, 0, 2],
    );
    lay_out(&mut state, 0, &[card(Snails, 2), card(Potions, 1)]);
    keep_tokens(&mut state, 0, &[Snails]);
    add_gems(&mut state, 0, 2);
    state.players[0].level = 2;
    lay_out(&mut state, 1, &[card(Crystals, 2), card(Flowers, 3)]);
    keep_tokens(&mut state, 1, &[Flowers]);
    add_gems(&mut state, 1, 1);
    lay_out(&mut state, 2, &[card(Mushrooms, 2)]);
    for c in [card(Potions, 1), card(Crystals, 1)] {
        assert!(take(&mut state.deck, &c));
        put(&mut state.discards, c);
    }
    // Bob: the Queen draws and plays, then turns in Flowers (3-icon card + token).
    choose(&mut state, 1, Character::Queen);
    draw_card(&mut state, card(Snails, 3));
    play(&mut state, 1, 1);
    decide(&mut state, 1, Action::TurnIn(Flowers));
    decide(&mut state, 1, Action::AddCard(card(Flowers, 3)));
    decide(&mut state, 1, Action::AddToken);
    // Ann: the Hunter draws a card and a token, then plays two cards.
    choose(&mut state, 0, Character::Hunter);
    draw_card(&mut state, card(Crystals, 1));
    draw_token(&mut state, Token::LevelUp);
    assert_eq!(waiting_for(&state), vec![0]);
    state
}

// Issue 14: "the players by display name (never "Seat 2")".
#[test]
fn players_are_named_and_never_seat_numbers() {
    let state = mid_game();
    for viewer in [
        Viewer::Seat(0),
        Viewer::Seat(1),
        Viewer::Spectator,
        Viewer::Everyone,
    ] {
        let shown = text(&present(&state, viewer));
        for name in ["Ann", "Bob", "Cat"] {
            assert!(
                shown.contains(name),
                "{name} missing for {viewer:?}:\n{shown}"
            );
        }
        assert!(!shown.contains("Seat "), "{shown}");
    }
    let groups = choices_text(&choices_of(&state, 0));
    assert!(!groups.contains("Seat "), "{groups}");
    let p = present(&state, Viewer::Seat(0));
    assert_eq!(
        p.headline,
        "Your turn, Ann (the Hunter): play a card from your hand, face up (2 to play)."
    );
    assert_eq!(
        present(&state, Viewer::Seat(2)).headline,
        "Ann (the Hunter) is playing a card from their hand."
    );
    let players = section(&p, "Players").unwrap();
    // Ruling 19: the round number is in the view, and the table shows it.
    assert_eq!(players.title, "Players, in the turn order of round 1");
    assert_eq!(players.lines.len(), 3);
    assert!(
        players.lines[0].starts_with("1. Bob: level 2"),
        "{:?}",
        players.lines
    );
    assert!(players.lines[0].ends_with("done as the Queen (1)"));
    assert!(players.lines[1].starts_with("2. Ann (you): level 3, 6 gems in supply and 2 in"));
    assert!(players.lines[1].contains("4 cards in hand"));
    assert!(players.lines[1].ends_with("playing now as the Hunter (6)"));
    assert!(players.lines[2].ends_with("still to play"));
}

// "You may look at your own cards, but keep them secret from the other players."
#[test]
fn only_the_viewer_sees_their_own_hand_with_card_texts() {
    let state = mid_game();
    let ann = present(&state, Viewer::Seat(0));
    let hand = section(&ann, "Your hand").unwrap();
    assert_eq!(hand.title, "Your hand (4 cards, only you see them)");
    assert!(
        hand.lines.contains(
            &"Mushrooms card (3 icons): 3 toward a Mushrooms set of 6 (+1 level and +1 gem into \
          the Bag of Fate)"
                .to_string()
        )
    );
    assert!(
        hand.lines
            .iter()
            .any(|l| l.starts_with("Potions card (2 icons): 2 toward a Potions set"))
    );
    // Bob holds two 3-icon Crystals cards: nobody else reads them.
    let bob = present(&state, Viewer::Seat(1));
    let bob_hand = section(&bob, "Your hand").unwrap();
    assert_eq!(
        bob_hand.lines[1],
        "Crystals card (3 icons) ×2: 3 toward a Crystals set of 7 (+3 gems into the Bag of Fate)"
    );
    for viewer in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Spectator] {
        let shown = text(&present(&state, viewer));
        assert!(
            !shown.contains("Crystals card (3 icons)"),
            "{viewer:?}:\n{shown}"
        );
        assert!(!shown.contains("Mushrooms card (3 icons)") || viewer == Viewer::Seat(0));
    }
    // The spectator sees hand sizes but no hand.
    let spectator = present(&state, Viewer::Spectator);
    assert!(section(&spectator, "Your hand").is_none());
    assert!(section(&spectator, "Hands").is_none());
    assert!(
        text(&spectator)
            .contains("Ann: level 3, 6 gems in supply and 2 in the Bag of Fate, 4 cards in hand")
    );
    // Everyone (after the game) sees every hand.
    let everyone = present(&state, Viewer::Everyone);
    let hands = section(&everyone, "Hands").unwrap();
    assert!(
        hands
            .lines
            .contains(&"Bob: Flowers card (1 icon), Crystals card (3 icons) ×2".to_string())
    );
}

// The public table: face-up cards by element, the bag, the piles, the characters.
#[test]
fn the_public_table_shows_sets_bag_piles_and_characters() {
    let state = mid_game();
    let p = present(&state, Viewer::Spectator);
    let face_up = section(&p, "Face up").unwrap();
    assert_eq!(
        face_up.lines,
        vec![
            "Ann: Potions 1-icon card = 1 of 3; Snails 2-icon card + 1 token = 3 of 5",
            "Bob: Snails 3-icon card = 3 of 5; Crystals 2-icon card = 2 of 7",
            "Cat: Mushrooms 2-icon card = 2 of 6",
        ]
    );
    let bag = section(&p, "The Bag of Fate").unwrap();
    assert_eq!(bag.title, "The Bag of Fate (32 tokens)");
    assert!(bag.lines.contains(
        &"Element tokens (1 icon each): Potions 5, Flowers 4, Snails 4, Mushrooms 5, Crystals 5."
            .to_string()
    ));
    assert!(
        bag.lines
            .contains(&"Gems: Ann 2, Bob 1, Cat 0.".to_string())
    );
    // No odds for a spectator.
    assert!(!bag.lines.iter().any(|l| l.starts_with("Your chance")));
    let cards = section(&p, "Cards").unwrap();
    // Bob's Flowers set went to the discard pile.
    assert!(
        cards.lines.contains(
            &"Discard pile (3 cards, face up): Potions card (1 icon), Flowers card (3 icons), \
          Crystals card (1 icon)."
                .to_string()
        )
    );
    assert!(
        cards
            .lines
            .contains(&"Element tokens used in sets (out of the game): 1.".to_string())
    );
    let characters = section(&p, "Characters").unwrap();
    assert_eq!(characters.lines.len(), 7);
    assert_eq!(
        characters.lines[0],
        "Queen (1): draw 1 card, play 1 card. Taken by Bob."
    );
    assert!(characters.lines[6].starts_with("Wizard (7): draw tokens equal to your level"));
    assert!(characters.lines[6].ends_with("Available."));
    let ann = present(&state, Viewer::Seat(0));
    let bag = section(&ann, "The Bag of Fate").unwrap();
    assert!(
        bag.lines.contains(
            &"Your chance as the Wizard: 2 of your gems among 32 tokens, 3 draws at level 3: \
          about 18%."
                .to_string()
        )
    );
}

// Playing a card: one choice per card in hand, with what it does to the player's sets.
#[test]
fn cards_to_play_are_grouped_with_their_effect() {
    let state = mid_game();
    let groups = choices_of(&state, 0);
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].title, "Play a card from your hand, face up");
    assert_eq!(group_numbers(&groups, "Play a card"), vec![1, 2, 3, 4, 5]);
    // Ruling 20: the last is a card at random, labelled as such.
    assert_eq!(
        label_of(&groups, 5),
        "Play a card at random: chance draws it from your hand (what a deadline plays)"
    );
    // The hand is Potions 2, Snails 1, Mushrooms 3, Crystals 1.
    assert_eq!(
        label_of(&groups, 1),
        "Potions card (2 icons): your Potions 1 → 3 of 3, set ready"
    );
    assert_eq!(
        label_of(&groups, 2),
        "Snails card (1 icon): your Snails 3 → 4 of 5"
    );
    // Two cards alike are one choice: the card is played, not a place in the hand.
    let mut state = start(2);
    choose(&mut state, 0, Character::Queen);
    draw_card(&mut state, card(Potions, 1));
    let groups = choices_of(&state, 0);
    assert_eq!(
        label_of(&groups, 2),
        "Flowers card (1 icon): your Flowers 0 → 1 of 4"
    );
}

#[test]
fn characters_are_offered_with_their_actions() {
    let mut state = mid_game();
    play(&mut state, 0, 0);
    play(&mut state, 0, 0);
    // Ann's Potions set is ready: she turns it in, then the turn passes to Cat.
    let groups = choices_of(&state, 0);
    let turn_in = number_of(&state, 0, &Action::TurnIn(Potions));
    let end = number_of(&state, 0, &Action::EndTurn);
    assert_eq!(group_numbers(&groups, "Turn in a set"), vec![turn_in]);
    assert_eq!(
        label_of(&groups, turn_in),
        "Potions: you show 3 of the 3 needed, for +1 gem into the Bag of Fate"
    );
    assert_eq!(group_numbers(&groups, "Or"), vec![end]);
    assert_eq!(label_of(&groups, end), "End your turn");
    decide(&mut state, 0, Action::EndTurn);
    assert_eq!(waiting_for(&state), vec![2]);
    let p = present(&state, Viewer::Seat(2));
    assert_eq!(p.headline, "Your turn, Cat: choose a character.");
    let groups = choices_of(&state, 2);
    assert_eq!(groups.len(), 1);
    assert!(groups[0].title.starts_with("Choose a character"));
    let labels: Vec<&str> = groups[0].choices.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels.len(), 5, "{labels:?}");
    assert_eq!(
        labels[0],
        "Oracle (2): look at the top 3 cards of the deck, keep 1, discard the others, play 1 card"
    );
    assert_eq!(
        labels[2],
        "Apprentice (4): draw tokens equal to your level (1 token at your level 1)"
    );
    assert!(labels[4].starts_with("Wizard (7): "));
    assert!(labels[4].ends_with("Your chance: none (you have no gem in the Bag of Fate yet)"));
    assert_eq!(
        groups[0]
            .choices
            .iter()
            .map(|c| c.number)
            .collect::<Vec<_>>(),
        (1..=5).collect::<Vec<_>>()
    );
}

// The Oracle's look is the Oracle's secret.
#[test]
fn only_the_oracle_sees_the_cards_looked_at() {
    let mut state = start(2);
    choose(&mut state, 0, Character::Oracle);
    draw_card(&mut state, card(Snails, 3));
    draw_card(&mut state, card(Crystals, 2));
    draw_card(&mut state, card(Snails, 3));
    let oracle = present(&state, Viewer::Seat(0));
    let looked = section(&oracle, "The cards you are looking at").unwrap();
    assert_eq!(looked.lines.len(), 3);
    assert!(looked.lines[1].starts_with("Crystals card (2 icons): 2 toward"));
    let groups = choices_of(&state, 0);
    assert_eq!(group_numbers(&groups, "Keep one"), vec![1, 2, 3]);
    assert_eq!(label_of(&groups, 3), "Snails card (3 icons): the same as 1");
    let other = present(&state, Viewer::Seat(1));
    assert!(section(&other, "The cards").is_none());
    let shown = text(&other);
    assert!(!shown.contains("Crystals card (2 icons)"), "{shown}");
    assert!(shown.contains("Ann (the Oracle) is looking at 3 cards from the deck."));
}

// The Trader's three steps, each its own group, and the "Or" choices.
#[test]
fn the_trade_is_offered_step_by_step() {
    let mut state = start(3);
    lay_out(&mut state, 2, &[card(Mushrooms, 2)]);
    keep_tokens(&mut state, 2, &[Flowers, Flowers]);
    lay_out(&mut state, 1, &[card(Snails, 1)]);
    choose(&mut state, 0, Character::Trader);
    draw_card(&mut state, card(Crystals, 3));
    play(&mut state, 0, 3);
    let groups = choices_of(&state, 0);
    assert_eq!(group_numbers(&groups, "Trade with"), vec![1, 2]);
    assert_eq!(label_of(&groups, 1), "Bob: Snails card (1 icon)");
    assert_eq!(
        label_of(&groups, 2),
        "Cat: Mushrooms card (2 icons), Flowers token ×2"
    );
    // The trade is made, not offered (ruling 13): no "Don't trade".
    assert!(groups.iter().all(|g| g.title != "Or"));
    decide(&mut state, 0, Action::TradeWith(2));
    let groups = choices_of(&state, 0);
    assert_eq!(groups[0].title, "Take from Cat");
    assert_eq!(
        label_of(&groups, 1),
        "Mushrooms card (2 icons): your Mushrooms 0 → 2 of 6"
    );
    let shown = text(&present(&state, Viewer::Seat(1)));
    assert!(
        shown.contains("Trading with Cat: choosing what to take."),
        "{shown}"
    );
    decide(&mut state, 0, Action::TradeTake(Item::Token(Flowers)));
    let groups = choices_of(&state, 0);
    assert_eq!(
        groups[0].title,
        "Give Cat in return for their Flowers token"
    );
    assert_eq!(
        label_of(&groups, 1),
        "Crystals card (3 icons): your Crystals 3 → 0 of 7"
    );
    assert_eq!(group_numbers(&groups, "Or"), vec![2]);
    assert!(label_of(&groups, 2).starts_with("Cancel"));
}

// "You may use any mix of cards and tokens to complete a set."
#[test]
fn building_a_set_shows_what_each_item_does() {
    let mut state = start(2);
    lay_out(&mut state, 0, &[card(Snails, 3), card(Snails, 1)]);
    keep_tokens(&mut state, 0, &[Snails, Snails]);
    choose(&mut state, 0, Character::Queen);
    draw_card(&mut state, card(Crystals, 1));
    play(&mut state, 0, 3);
    decide(&mut state, 0, Action::TurnIn(Snails));
    decide(&mut state, 0, Action::AddCard(card(Snails, 3)));
    let p = present(&state, Viewer::Seat(1));
    let set = section(&p, "Set being turned in").unwrap();
    assert_eq!(
        set.lines[0],
        "Ann is turning in a set of Snails: 3 of 5 icons so far."
    );
    assert_eq!(set.lines[1], "In the set: Snails card (3 icons).");
    let groups = choices_of(&state, 0);
    assert_eq!(
        groups[0].title,
        "Add to the Snails set (3 of 5 icons so far)"
    );
    // Snails 1 (card), Snails 1 (card again: the hand's Snails 1 was not played), token.
    let add_card = number_of(&state, 0, &Action::AddCard(card(Snails, 1)));
    let add_token = number_of(&state, 0, &Action::AddToken);
    let cancel = number_of(&state, 0, &Action::CancelSet);
    assert_eq!(group_numbers(&groups, "Add to"), vec![add_card, add_token]);
    assert_eq!(label_of(&groups, add_card), "Snails card (1 icon): 4 of 5");
    assert_eq!(
        label_of(&groups, add_token),
        "a Snails token (you have 2): 4 of 5"
    );
    assert_eq!(group_numbers(&groups, "Or"), vec![cancel]);
    decide(&mut state, 0, Action::AddToken);
    let groups = choices_of(&state, 0);
    let add_token = number_of(&state, 0, &Action::AddToken);
    assert_eq!(
        label_of(&groups, add_token),
        "a Snails token (you have 1): completes it, +2 gems into the Bag of Fate"
    );
}

#[test]
fn the_end_of_the_game_names_the_winner() {
    let mut state = start(2);
    add_gems(&mut state, 0, 1);
    choose(&mut state, 0, Character::Wizard);
    draw_token(&mut state, Token::Gem(0));
    assert_eq!(
        present(&state, Viewer::Seat(1)).headline,
        "Game over: Ann drew their own gem as the Wizard and won."
    );
    assert_eq!(
        present(&state, Viewer::Seat(0)).headline,
        "Game over: you won, Ann! You drew your own gem as the Wizard."
    );
    let p = present(&state, Viewer::Spectator);
    let players = section(&p, "Players").unwrap();
    assert!(
        players.lines[0].ends_with("won as the Wizard (7)"),
        "{:?}",
        players.lines
    );
    assert!(choices_of(&state, 0).is_empty());
}

#[test]
fn set_up_is_described() {
    let state = Game::new_game(&Options::default(), 3).unwrap();
    assert_eq!(
        present(&state, Viewer::Spectator).headline,
        "Setting up: dealing 3 cards to each player."
    );
    let mut state = state;
    for element in [Potions, Flowers, Snails] {
        for _ in 0..3 {
            draw_card(&mut state, card(element, 1));
        }
    }
    assert_eq!(
        present(&state, Viewer::Seat(0)).headline,
        "Setting up: drawing turn markers for the turn order (space 1 next)."
    );
}

/// Random games: every presentation stays small, every choice list is complete.
#[test]
fn presentations_stay_small_in_random_games() {
    let mut largest = 0;
    let mut most_choices = 0;
    for seats in 2..=5 {
        for seed in 0..3 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut state = Game::new_game(&Options::default(), seats).unwrap();
            for _ in 0..5_000 {
                for viewer in (0..seats).map(Viewer::Seat).chain([Viewer::Spectator]) {
                    let mut size = text(&present(&state, viewer)).len();
                    if let Viewer::Seat(seat) = viewer {
                        let actions = Game::legal_actions(&state, seat);
                        let groups = choices_of(&state, seat);
                        let mut numbers: Vec<usize> = groups
                            .iter()
                            .flat_map(|g| &g.choices)
                            .map(|c| c.number)
                            .collect();
                        numbers.sort_unstable();
                        assert_eq!(numbers, (1..=actions.len()).collect::<Vec<_>>());
                        most_choices = most_choices.max(actions.len());
                        size += choices_text(&groups).len();
                        assert!(!choices_text(&groups).contains("Seat "));
                    }
                    assert!(!text(&present(&state, viewer)).contains("Seat "));
                    largest = largest.max(size);
                }
                let (actor, action) = match Game::next(&state) {
                    Next::Over(_) => break,
                    Next::Chance(chance) => {
                        let point = rng.random_range(0..chance.total_weight());
                        (Actor::Chance, chance.pick(point).cloned().unwrap())
                    }
                    Next::Players(players) => {
                        let seat = players[0];
                        let legal = Game::legal_actions(&state, seat);
                        let action = legal[rng.random_range(0..legal.len())].clone();
                        (Actor::Seat(seat), action)
                    }
                };
                Game::apply(&mut state, actor, &action).unwrap();
            }
        }
    }
    println!("largest presentation with choices: {largest} bytes; most choices: {most_choices}");
    assert!(largest < 20_000, "{largest} bytes");
}

/// Prints a mid-game table and choices for a look:
/// `cargo test --lib rules::bag_of_fate::tests::present -- --nocapture`.
#[test]
fn print_a_mid_game_presentation() {
    let state = mid_game();
    let p = present(&state, Viewer::Seat(0));
    let groups = choices_of(&state, 0);
    let shown = format!("{}\nYour choices:{}", text(&p), choices_text(&groups));
    println!("{shown}\n({} bytes)", shown.len());
    assert!(shown.len() < 8_000);
}
