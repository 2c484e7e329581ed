//! Notation: a short, unique, stable text for each legal action, like chess's algebraic
//! notation (DESIGN.md, "Pace: a turn per reply"). A player writes it in a reply, a client
//! sends it as `{"notation": "..."}`, and the log shows it.
//!
//! A ruleset gives it with [`crate::rules::Ruleset::notation`]; by default it is read off the
//! action's JSON ([`from_json`]): the variant's name and its values in order
//! (`{"move": {"from": "b3", "to": "b2"}}` is `move b3 b2`, `"end_turn"` is `end-turn`). The
//! parse is "the legal action whose notation matches": [`find`] compares [`key`]s, which forgive
//! case and spacing, and refuses an unknown or ambiguous text with the closest notations.
//! Pure and total.

use serde_json::Value;

/// The notation read off an action's JSON: strings in lower case with `_` as `-`, numbers as
/// written, an array of plain values as one word joined by `,` (a position `[3,4]` is `3,4`),
/// an object's values in order, each variant's name before its content. `null` is left out.
pub fn from_json(action: &Value) -> String {
    let mut words = Vec::new();
    push_words(action, &mut words);
    words.join(" ")
}

fn push_words(value: &Value, words: &mut Vec<String>) {
    match value {
        Value::Null => {}
        Value::Bool(b) => words.push(if *b { "yes" } else { "no" }.into()),
        Value::Number(n) => words.push(n.to_string()),
        Value::String(s) => words.push(word(s)),
        Value::Array(items) if items.iter().all(is_plain) && !items.is_empty() => words.push(
            items
                .iter()
                .map(|v| {
                    let mut w = Vec::new();
                    push_words(v, &mut w);
                    w.join("")
                })
                .collect::<Vec<_>>()
                .join(","),
        ),
        Value::Array(items) => items.iter().for_each(|v| push_words(v, words)),
        Value::Object(map) if map.len() == 1 => {
            // An enum variant: its name, then what it carries.
            for (name, inner) in map {
                words.push(word(name));
                push_words(inner, words);
            }
        }
        Value::Object(map) => map.values().for_each(|v| push_words(v, words)),
    }
}

fn is_plain(value: &Value) -> bool {
    matches!(value, Value::Number(_) | Value::String(_) | Value::Bool(_))
}

/// One word of a notation: lower case, with `_` and spaces as `-` (a card named "Magic
/// Gate" is `magic-gate`); what [`from_json`] makes of a string, for rulesets' own notations.
pub fn word(text: &str) -> String {
    text.trim().to_lowercase().replace(['_', ' '], "-")
}

/// What a notation is matched by: lower case, `-`, `_` and runs of spaces as one space, no
/// space around `,`, trimmed. `Cast  Fireball` and `cast fireball`, `b3-b2` and `b3 b2`,
/// `3, 4` and `3,4` have the same key.
pub fn key(text: &str) -> String {
    let spaced: String = text
        .trim()
        .to_lowercase()
        .chars()
        .map(|c| {
            if c == '-' || c == '_' || c.is_whitespace() {
                ' '
            } else {
                c
            }
        })
        .collect();
    let joined = spaced.split_whitespace().collect::<Vec<_>>().join(" ");
    joined.replace(" ,", ",").replace(", ", ",")
}

/// Why a text names no legal action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Miss {
    /// No notation matches; the closest notations (at most 5), best first.
    Unknown { closest: Vec<String> },
    /// Several notations match (a ruleset bug the conformance suite catches).
    Ambiguous { matches: Vec<String> },
}

impl Miss {
    /// One sentence for a person: what was wrong and what they might have meant.
    pub fn explain(&self, text: &str) -> String {
        let text: String = text.chars().take(80).collect();
        match self {
            Miss::Unknown { closest } if closest.is_empty() => {
                format!("\"{text}\" is not the notation of any of your choices.")
            }
            Miss::Unknown { closest } => format!(
                "\"{text}\" is not the notation of any of your choices; the closest: {}.",
                closest.join(", ")
            ),
            Miss::Ambiguous { matches } => format!(
                "\"{text}\" is the notation of several choices ({}).",
                matches.join(", ")
            ),
        }
    }
}

/// The index of the notation in `notations` that `text` names (by [`key`]).
pub fn find(text: &str, notations: &[String]) -> Result<usize, Miss> {
    let wanted = key(text);
    let found: Vec<usize> = notations
        .iter()
        .enumerate()
        .filter(|(_, n)| key(n) == wanted)
        .map(|(i, _)| i)
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(Miss::Unknown {
            closest: closest(&wanted, notations),
        }),
        many => Err(Miss::Ambiguous {
            matches: many
                .iter()
                .filter_map(|&i| notations.get(i).cloned())
                .collect(),
        }),
    }
}

/// Up to five of `notations` nearest to `wanted` (a key) by edit distance, nearest first; only
/// those within half their length, so that a stray word suggests nothing.
fn closest(wanted: &str, notations: &[String]) -> Vec<String> {
    let mut scored: Vec<(usize, &String)> = notations
        .iter()
        .map(|n| (distance(wanted, &key(n)), n))
        .filter(|(d, n)| *d <= n.chars().count().max(wanted.chars().count()) / 2)
        .collect();
    scored.sort_by_key(|(d, _)| *d);
    scored.into_iter().take(5).map(|(_, n)| n.clone()).collect()
}

/// Levenshtein distance in characters, bounded in work by the two lengths (notations are short;
/// a text over 200 characters is cut there).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(200).collect();
    let b: Vec<char> = b.chars().take(200).collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row.first().copied().unwrap_or(0);
        if let Some(first) = row.first_mut() {
            *first = i + 1;
        }
        for (j, cb) in b.iter().enumerate() {
            let above = row.get(j + 1).copied().unwrap_or(usize::MAX - 1);
            let left = row.get(j).copied().unwrap_or(usize::MAX - 1);
            let cost = usize::from(ca != cb);
            let best = (diagonal + cost).min(above + 1).min(left + 1);
            diagonal = above;
            if let Some(cell) = row.get_mut(j + 1) {
                *cell = best;
            }
        }
    }
    row.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn actions_read_as_their_variant_and_values() {
        assert_eq!(from_json(&json!("end_turn")), "end-turn");
        assert_eq!(from_json(&json!({"play": 17})), "play 17");
        assert_eq!(
            from_json(&json!({"move": {"from": "b3", "to": "b2"}})),
            "move b3 b2"
        );
        assert_eq!(
            from_json(&json!({"move": {"figure": 3, "to": [2, 4]}})),
            "move 3 2,4"
        );
        assert_eq!(from_json(&json!({"boost_add": [4, 9]})), "boost-add 4,9");
        assert_eq!(
            from_json(&json!({"target": {"wizard": 1}})),
            "target wizard 1"
        );
        // Fields in the order serde_json keeps them (by name): stable, if not always natural;
        // a ruleset whose actions read badly so gives its own notation.
        assert_eq!(
            from_json(&json!({"attack": {"target": {"clan": 1, "slot": 0}, "dice": 2}})),
            "attack 2 1 0"
        );
    }

    #[test]
    fn keys_forgive_case_and_spacing() {
        assert_eq!(key("  Cast   Fireball "), "cast fireball");
        assert_eq!(key("b3-b2"), key("B3 b2"));
        assert_eq!(key("move 3 2, 4"), key("move 3 2,4"));
        assert_eq!(key("end_turn"), "end turn");
    }

    #[test]
    fn find_names_one_or_says_what_was_close() {
        let notations: Vec<String> = ["move b3 b2", "move b3 c3", "end-turn"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(find("END TURN", &notations), Ok(2));
        assert_eq!(find("move b3-c3", &notations), Ok(1));
        match find("move b3 b1", &notations) {
            Err(Miss::Unknown { closest }) => {
                assert_eq!(closest.first().map(String::as_str), Some("move b3 b2"))
            }
            other => panic!("expected an unknown notation, got {other:?}"),
        }
        match find("hello world, how are you", &notations) {
            Err(Miss::Unknown { closest }) => assert!(closest.is_empty(), "{closest:?}"),
            other => panic!("expected an unknown notation, got {other:?}"),
        }
        let twice: Vec<String> = vec!["pass".into(), "Pass".into()];
        assert!(matches!(find("pass", &twice), Err(Miss::Ambiguous { .. })));
    }
}
