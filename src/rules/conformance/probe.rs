//! Random JSON for the rejection probes: arbitrary values, and actions with one part changed.

use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value, json};

/// At most this many words are kept from the actions seen.
const WORDS: usize = 64;

const ODD_STRINGS: [&str; 8] = [
    "",
    " ",
    "null",
    "0",
    "-1",
    "zz_unknown",
    "\u{1F0A1}",
    "\u{0}",
];

/// Keys and strings of an action's JSON: variant and field names, card ids, …
pub(super) fn collect_words(value: &Value, words: &mut Vec<String>) {
    match value {
        Value::String(s) => add_word(s, words),
        Value::Array(items) => items.iter().for_each(|v| collect_words(v, words)),
        Value::Object(map) => {
            for (key, v) in map {
                add_word(key, words);
                collect_words(v, words);
            }
        }
        _ => {}
    }
}

fn add_word(word: &str, words: &mut Vec<String>) {
    if words.len() < WORDS && !words.iter().any(|w| w == word) {
        words.push(word.to_owned());
    }
}

/// Any JSON value, nested up to `depth`, often using the words of real actions.
pub(super) fn arbitrary(rng: &mut ChaCha8Rng, words: &[String], depth: u32) -> Value {
    let kinds = if depth == 0 { 6 } else { 9 };
    match rng.random_range(0..kinds) {
        0 => Value::Null,
        1 => Value::Bool(rng.random()),
        2 => json!(rng.random_range(-3i64..24)),
        3 => odd_number(rng),
        4 => Value::String(word(rng, words)),
        5 => Value::String(text(rng)),
        6 => (0..rng.random_range(0..4))
            .map(|_| arbitrary(rng, words, depth - 1))
            .collect(),
        7 => {
            let mut map = Map::new();
            for _ in 0..rng.random_range(0..4) {
                map.insert(word(rng, words), arbitrary(rng, words, depth - 1));
            }
            Value::Object(map)
        }
        // The shape of an externally tagged enum variant.
        _ => json!({ word(rng, words): arbitrary(rng, words, depth - 1) }),
    }
}

/// `value` with one node changed: a number moved, a string or key swapped for another word, a
/// field added or removed, an element added or removed, or any node replaced by another value.
pub(super) fn mutate(rng: &mut ChaCha8Rng, value: &Value, words: &[String]) -> Value {
    let mut target = Some(rng.random_range(0..count(value)));
    rebuild(rng, value, words, &mut target)
}

fn count(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(count).sum(),
        Value::Object(map) => map.values().map(count).sum(),
        _ => 0,
    }
}

/// Copies `value`, changing the node `target` counts down to (in pre-order).
fn rebuild(
    rng: &mut ChaCha8Rng,
    value: &Value,
    words: &[String],
    target: &mut Option<usize>,
) -> Value {
    match *target {
        Some(0) => {
            *target = None;
            return change(rng, value, words);
        }
        Some(n) => *target = Some(n - 1),
        None => {}
    }
    match value {
        Value::Array(items) => items
            .iter()
            .map(|v| rebuild(rng, v, words, target))
            .collect(),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), rebuild(rng, v, words, target)))
                .collect(),
        ),
        _ => value.clone(),
    }
}

fn change(rng: &mut ChaCha8Rng, value: &Value, words: &[String]) -> Value {
    if rng.random_ratio(1, 5) {
        return arbitrary(rng, words, 2);
    }
    match value {
        Value::Null => arbitrary(rng, words, 1),
        Value::Bool(b) => Value::Bool(!b),
        Value::Number(n) => {
            let i = n.as_i64().unwrap_or(i64::MAX);
            match rng.random_range(0..5) {
                0 => json!(i.wrapping_add(1)),
                1 => json!(i.wrapping_sub(1)),
                2 => json!(i.wrapping_neg()),
                3 => odd_number(rng),
                _ => Value::String(n.to_string()),
            }
        }
        Value::String(s) => match rng.random_range(0..4) {
            0 => Value::String(word(rng, words)),
            1 => Value::String(format!("{s}x")),
            2 => Value::String(s.to_uppercase()),
            _ => Value::String(String::new()),
        },
        Value::Array(items) => {
            let mut items = items.clone();
            match rng.random_range(0..3) {
                0 => items.push(arbitrary(rng, words, 1)),
                1 => {
                    items.pop();
                }
                _ => items.reverse(),
            }
            Value::Array(items)
        }
        Value::Object(map) => {
            let mut map = map.clone();
            let key = map
                .keys()
                .nth(rng.random_range(0..map.len().max(1)))
                .cloned();
            match (rng.random_range(0..3), key) {
                (0, Some(key)) => {
                    map.remove(&key);
                }
                (1, Some(key)) => {
                    // Another field or variant name with the same contents.
                    if let Some(v) = map.remove(&key) {
                        map.insert(word(rng, words), v);
                    }
                }
                _ => {
                    map.insert("zz_unknown".to_owned(), arbitrary(rng, words, 1));
                }
            }
            Value::Object(map)
        }
    }
}

fn odd_number(rng: &mut ChaCha8Rng) -> Value {
    let odd = [
        json!(0),
        json!(-1),
        json!(255),
        json!(256),
        json!(65_536),
        json!(u32::MAX),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(1.5),
        json!(-0.0),
        json!(1e300),
    ];
    odd[rng.random_range(0..odd.len())].clone()
}

/// A word of the actions seen, or an odd string.
fn word(rng: &mut ChaCha8Rng, words: &[String]) -> String {
    match words.choose(rng) {
        Some(w) if rng.random_ratio(3, 4) => w.clone(),
        _ => ODD_STRINGS[rng.random_range(0..ODD_STRINGS.len())].to_owned(),
    }
}

fn text(rng: &mut ChaCha8Rng) -> String {
    (0..rng.random_range(1..12))
        .map(|_| {
            if rng.random_ratio(3, 4) {
                rng.random_range('a'..='z')
            } else {
                rng.random::<char>()
            }
        })
        .collect()
}
