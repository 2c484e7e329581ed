//! The suite on the toy: the sound toy passes, and each flaw makes it fail with a message that
//! names the violation and the seed.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::toy::{MAX_STEPS, Sound, Toy, flaw};
use super::{Config, Secrets, Stats, check, parse_count, playout};

/// A short run: every flaw below shows in the first playouts.
fn quick() -> Config {
    Config {
        playouts: 20,
        first_seed: 0,
        ..Config::new(MAX_STEPS)
    }
}

/// Runs the suite on `R`, expecting it to fail; returns the message.
fn failure<R: Secrets>(config: &Config, expected: &str) -> String {
    let Err(payload) = catch_unwind(AssertUnwindSafe(|| check::<R>(config))) else {
        panic!("the suite passed a flawed ruleset; expected a failure containing {expected:?}");
    };
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_else(|| "(not a String)".to_owned());
    assert!(
        message.contains(expected)
            && message.contains("seed")
            && message.contains("TURNPOST_SEED="),
        "expected a failure containing {expected:?} that names the seed, got:\n{message}"
    );
    message
}

/// The seed a failure message names.
fn seed_of(message: &str) -> u64 {
    let after = message.split("TURNPOST_SEED=").nth(1).unwrap_or_default();
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no seed in {message}"))
}

#[test]
fn the_sound_toy_passes_for_every_seat_count_and_option_set() {
    let config = Config::new(MAX_STEPS);
    let report = check::<Sound>(&config);
    let covered: Vec<(String, usize)> = report
        .runs
        .iter()
        .map(|r| (r.options.to_string(), r.seats))
        .collect();
    let expected = [r#"{"hand":3,"target":15}"#, r#"{"hand":1,"target":6}"#]
        .into_iter()
        .flat_map(|o| (2..=4).map(move |n| (o.to_owned(), n)))
        .collect::<Vec<_>>();
    assert_eq!(covered, expected);
    for run in &report.runs {
        assert_eq!(run.playouts, config.playouts);
        assert!(run.longest <= MAX_STEPS);
    }
    let Stats {
        full_states,
        planted_states,
        planted_actions,
        rejections,
        json_parsed,
        json_listed,
        twins,
        twin_actions,
        imagined,
        notations,
        forced_twins: _,
    } = report.stats;
    assert!(full_states > 0 && planted_states > 0 && planted_actions > 0 && rejections > 0);
    assert!(notations > 0);
    assert!(twins > 0 && twin_actions > twins && imagined > 0);
    // The random JSON gets past deserialisation to `apply`, sometimes as a listed action.
    assert!(json_parsed > json_listed && json_listed > 0);
}

#[test]
fn a_seed_replays_the_same_playout() {
    let options = Default::default();
    let json = serde_json::to_value(&options).unwrap_or_default();
    let config = quick();
    let play = |seed| {
        playout::play::<Sound>(
            &config,
            &options,
            &json,
            3,
            seed,
            &mut Stats::default(),
            &mut 0,
        )
    };
    let (a, b, c) = (play(7), play(7), play(8));
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn parse_count_reads_whole_numbers() {
    assert_eq!(parse_count("TURNPOST_PLAYOUTS", None), None);
    assert_eq!(parse_count("TURNPOST_PLAYOUTS", Some(" 500 ")), Some(500));
    assert_eq!(parse_count("TURNPOST_SEED", Some("0")), Some(0));
    let refused =
        |v: &'static str| catch_unwind(|| parse_count("TURNPOST_PLAYOUTS", Some(v))).is_err();
    assert!(refused("0") && refused("many") && refused("-3"));
}

#[test]
fn a_view_showing_other_hands_fails() {
    failure::<Toy<{ flaw::VIEW_SHOWS_HANDS }>>(&quick(), "is shown a secret of seat");
}

#[test]
fn a_view_outside_its_published_schema_fails() {
    failure::<Toy<{ flaw::VIEW_OFF_SCHEMA }>>(&quick(), "does not match its published schema");
}

/// The API answers with `Ruleset::view_text`, written from the typed view without building a
/// JSON value: it must be the view, field for field.
#[test]
fn a_view_text_other_than_the_view_fails() {
    failure::<Toy<{ flaw::VIEW_TEXT_DIFFERS }>>(&quick(), "is not the view's JSON");
}

#[test]
fn a_redacted_draw_naming_the_card_fails() {
    failure::<Toy<{ flaw::REDACT_SHOWS_CARD }>>(&quick(), "the redacted form of Draw");
}

#[test]
fn a_description_naming_a_hidden_card_fails() {
    failure::<Toy<{ flaw::DESCRIBE_SHOWS_CARD }>>(&quick(), "shows its hidden payload");
}

#[test]
fn a_public_draw_fails() {
    failure::<Toy<{ flaw::DRAW_IS_PUBLIC }>>(&quick(), "visibility is Public");
}

#[test]
fn accepting_an_unlisted_action_fails_reproducibly() {
    let config = quick();
    let message = failure::<Toy<{ flaw::PLAY_IGNORES_ROLL }>>(&config, "not listed");
    // The failing seed alone, as TURNPOST_SEED would play it, fails the same way.
    let seed = seed_of(&message);
    let again = failure::<Toy<{ flaw::PLAY_IGNORES_ROLL }>>(
        &Config {
            first_seed: seed,
            playouts: 1,
            ..config
        },
        "not listed",
    );
    assert_eq!(message, again);
}

#[test]
fn accepting_an_action_out_of_turn_fails() {
    failure::<Toy<{ flaw::ANY_SEAT_PLAYS }>>(&quick(), "listed for another seat (out of turn)");
}

#[test]
fn a_game_that_never_ends_fails_on_the_bound() {
    failure::<Toy<{ flaw::NEVER_ENDS }>>(&quick(), "did not end within max_steps = 206");
}

#[test]
fn apply_depending_on_a_global_counter_fails() {
    failure::<Toy<{ flaw::GLOBAL_COUNTER }>>(&quick(), "apply is not deterministic");
}

#[test]
fn a_field_the_snapshot_skips_fails() {
    failure::<Toy<{ flaw::UNSAVED_FIELD }>>(&quick(), "does not survive a JSON round trip");
}

#[test]
fn a_refused_action_that_changes_the_state_fails() {
    failure::<Toy<{ flaw::REJECT_MUTATES }>>(&quick(), "but changed the state");
}

#[test]
fn a_panic_in_apply_fails_with_the_seed() {
    failure::<Toy<{ flaw::PANICS_ON_STRANGER }>>(&quick(), "index out of bounds");
}

#[test]
fn listing_actions_for_a_seat_not_to_act_fails() {
    failure::<Toy<{ flaw::LISTS_FOR_IDLE }>>(&quick(), "is not to act");
}

#[test]
fn secrets_hooks_that_plant_nothing_fail() {
    let Err(payload) = catch_unwind(|| check::<Toy<{ flaw::PLANTS_NOTHING }>>(&quick())) else {
        panic!("the suite passed hooks that plant nothing");
    };
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(message.contains("proved nothing"), "{message}");
    check::<Toy<{ flaw::PLANTS_NOTHING }>>(&Config {
        expect_secrets: false,
        ..quick()
    });
}

// The two flaws below give a hand away without showing any card of it, so no planted marker
// shows them: only the twins (the same game with the hand re-dealt) tell.

#[test]
fn a_move_made_without_asking_fails() {
    let message = failure::<Toy<{ flaw::PASSES_WITHOUT_ASKING }>>(
        &quick(),
        "whether a decision is asked depends on seat",
    );
    assert!(message.contains("Roll"), "{message}");
}

#[test]
fn a_description_telling_the_rest_of_the_hand_fails() {
    failure::<Toy<{ flaw::PLAY_TELLS_THE_REST }>>(&quick(), "as Seat(");
}

/// A deadline's move is seen by all like any other: a default that plays the lowest card the
/// roll allows tells everyone that the hand holds no lower one. With the hand re-dealt, the
/// default plays another card, and the log entry differs.
#[test]
fn a_default_action_that_plays_the_first_card_fails() {
    let message = failure::<Toy<{ flaw::DEFAULT_PLAYS_THE_FIRST_CARD }>>(
        &quick(),
        "(the default action at a deadline)",
    );
    assert!(message.contains("Play"), "{message}");
}

/// Issue 39: "a deadline's default must not depend on a secret's order" — nor be a hidden
/// choice anyone can work out. A pass logged for its seat alone, played at every deadline
/// whatever the hand, changes the seat's view the same way in every twin.
#[test]
fn a_hidden_default_that_is_the_same_whatever_the_hand_fails() {
    let message = failure::<Toy<{ flaw::HIDDEN_DEFAULT_PASS }>>(&quick(), "hidden choice");
    assert!(message.contains("Pass"), "{message}");
}

/// The bot's look-ahead (`Ruleset::imagine`) that keeps the rivals' hands plays on what its
/// player cannot see: the twin with a rival's hand re-dealt gives another imagined state.
#[test]
fn a_look_ahead_that_knows_the_rivals_hands_fails() {
    let message = failure::<Toy<{ flaw::IMAGINES_THE_TRUTH }>>(&quick(), "depends on seat");
    assert!(message.contains("Ruleset::imagine"), "{message}");
}

/// One that deals the seat's own hand anew forgets what the seat holds: it sees another hand.
#[test]
fn a_look_ahead_that_forgets_its_own_hand_fails() {
    failure::<Toy<{ flaw::IMAGINES_ITS_OWN_HAND }>>(
        &quick(),
        "sees what it imagines (Ruleset::imagine) otherwise than the true state",
    );
}

/// The service plays a lone choice without asking (issue 36): where that choice is lone only
/// because of the hand (no card the roll allows), playing it tells everyone so.
#[test]
fn a_lone_pass_played_without_asking_fails() {
    let message = failure::<Toy<{ flaw::FORCES_THE_LONE_PASS }>>(&quick(), "is forced");
    assert!(message.contains("keeps_asking"), "{message}");
}

/// "Each ruleset defines a short, unique, stable text for each of its legal actions."
#[test]
fn a_notation_shared_by_two_choices_fails() {
    failure::<Toy<{ flaw::NOTATION_WITHOUT_THE_CARD }>>(&quick(), "does not name it alone");
}

#[test]
fn hands_are_dealt_anew_from_the_same_cards_whoever_held_them() {
    // Fisher–Yates from the back over the sorted cards [1, 2, 3, 4, 5]: picks 0, 0, 0, 0 swap
    // the last place with the first each time.
    let deal = |mut a: Vec<u8>, mut b: Vec<u8>, mut pool: Vec<u8>| {
        let mut pick = |_: usize| 0;
        crate::rules::deal_anew(&mut [&mut a, &mut b], &mut pool, &mut pick);
        (a, b, pool)
    };
    let dealt = deal(vec![5, 1], vec![3], vec![2, 4]);
    assert_eq!(dealt, deal(vec![2, 4], vec![1], vec![3, 5]));
    assert_eq!((dealt.0.len(), dealt.1.len(), dealt.2.len()), (2, 1, 2));
    let mut all: Vec<u8> = [dealt.0, dealt.1, dealt.2].concat();
    all.sort_unstable();
    assert_eq!(all, vec![1, 2, 3, 4, 5]);
}

#[test]
fn twins_are_made_alike_or_at_random() {
    let mut picks = [0, 0, 2, 2, 1, 1, 0].into_iter();
    let mut pick = |n: usize| picks.next().unwrap_or(0).min(n.saturating_sub(1));
    // 0: swap each card at random: the first with the pool's first, the others kept (pick 2).
    let (mut hand, mut pool) = (vec![1, 2, 3], vec![7, 8]);
    assert!(super::redeal(&mut hand, &mut pool, &mut pick));
    assert_eq!((hand, pool), (vec![7, 2, 3], vec![1, 8]));
    // 1: alike; 1: like a pool card, the first (a 5): as many 5s as the pool has.
    let (mut hand, mut pool) = (vec![1, 2, 3], vec![5, 9, 5]);
    assert!(super::redeal(&mut hand, &mut pool, &mut pick));
    assert_eq!((hand, pool), (vec![5, 5, 3], vec![1, 9, 2]));
}

#[test]
fn markers_are_counted_in_keys_strings_and_numbers() {
    let view = serde_json::json!({
        "4242": [4242, -14242, 42, 1.5, "a4242b", { "x": i64::MIN }],
        "y": u64::MAX,
    });
    assert_eq!(super::secrets::markers(&view, "4242"), 4);
    assert_eq!(super::secrets::markers(&view, "-9223372036854775808"), 1);
    assert_eq!(super::secrets::markers(&view, "18446744073709551615"), 1);
    assert_eq!(super::secrets::markers(&view, "zz"), 0);
}

#[test]
fn the_shards_of_a_run_play_its_seeds_once_each() {
    let run = Config {
        playouts: 10,
        first_seed: 7,
        ..Config::new(MAX_STEPS)
    };
    let whole: Vec<u64> = run.seeds().collect();
    assert_eq!(whole, (7..17).collect::<Vec<_>>());
    let mut shards: Vec<u64> = (0..3)
        .flat_map(|i| run.clone().shard(i, 3).seeds().collect::<Vec<_>>())
        .collect();
    shards.sort_unstable();
    assert_eq!(shards, whole);
    // The seed a lone playout (`TURNPOST_SEED`) names is in the first shard, none in the others.
    let lone = Config {
        playouts: 1,
        first_seed: 17,
        ..Config::new(MAX_STEPS)
    };
    assert_eq!(lone.clone().shard(0, 2).seeds().collect::<Vec<_>>(), [17]);
    assert_eq!(lone.shard(1, 2).seeds().count(), 0);
}

#[test]
fn a_shard_without_seeds_plays_nothing_and_passes() {
    let report = check::<Toy<{ flaw::NONE }>>(
        &Config {
            playouts: 1,
            ..quick()
        }
        .shard(1, 2),
    );
    assert!(report.runs.iter().all(|run| run.playouts == 0));
    // The report says so, not "0 playouts of 18446744073709551615..=0 actions".
    let text = report.to_string();
    assert!(text.contains("no playouts in this run"), "{text}");
    let max = usize::MAX.to_string();
    assert!(!text.contains(max.as_str()), "{text}");
}

#[test]
fn a_spread_option_set_plays_each_seed_at_one_seat_count() {
    // The toy has two option sets and the seat counts 2, 3 and 4: the first set plays every
    // seed at every count, the second (index 1, spread) seed s at count 2 + s mod 3.
    let config = Config {
        playouts: 7,
        first_seed: 0,
        ..Config::new(MAX_STEPS)
    }
    .spread_from(1);
    let report = check::<Sound>(&config);
    let played: Vec<(String, usize, u64)> = report
        .runs
        .iter()
        .map(|r| (r.options.to_string(), r.seats, r.playouts))
        .collect();
    let (full, spread) = (r#"{"hand":3,"target":15}"#, r#"{"hand":1,"target":6}"#);
    assert_eq!(
        played,
        [
            (full.to_owned(), 2, 7),
            (full.to_owned(), 3, 7),
            (full.to_owned(), 4, 7),
            // Seeds 0, 3, 6 at 2 seats; 1, 4 at 3; 2, 5 at 4.
            (spread.to_owned(), 2, 3),
            (spread.to_owned(), 3, 2),
            (spread.to_owned(), 4, 2),
        ]
    );
    assert_eq!(
        (0..7)
            .filter(|&s| config.plays_at(1, &[2, 3, 4], 3, s))
            .collect::<Vec<_>>(),
        [1, 4]
    );
    assert!((0..7).all(|s| config.plays_at(0, &[2, 3, 4], 3, s)));
    // A lone seed (`TURNPOST_SEED=5`) plays the spread set at the count the full run gave it.
    let lone = Config {
        playouts: 1,
        first_seed: 5,
        ..config
    };
    let runs = check::<Sound>(&lone).runs;
    let spread_options: serde_json::Value = serde_json::from_str(spread).unwrap();
    let lone_spread: Vec<usize> = runs
        .iter()
        .filter(|r| r.options == spread_options && r.playouts > 0)
        .map(|r| r.seats)
        .collect();
    assert_eq!(lone_spread, [4]);
}
