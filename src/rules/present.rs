//! What a person reads: the output of each ruleset's presenter (DESIGN.md, "Players first").
//!
//! A presenter is pure like the rest of the engine: it turns a viewer's view of the state into
//! a short text for people (a headline, headed sections, a fixed-width board diagram) and
//! groups a seat's legal actions into numbered choices. Mail and web pages render the same
//! [`Presented`] and [`ChoiceGroup`]s; the API keeps the JSON.
//!
//! Numbers are the actions' positions in `legal_actions`, from 1, so an answer by mail, a
//! button on a page and an index into the API's list all mean the same action. Groups may order
//! and title the choices as the game reads best (by unit, by card, by square).
//!
//! Presenters may write seats as `Seat 2` (as `describe` does): [`name_seats`] puts the
//! players' names in at the erased layer. Diagrams should use names or initials directly,
//! since a replacement would move their columns.

use serde::Serialize;

/// The table as one viewer may see it, in words.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Presented {
    /// Whose turn it is and what they are doing, in one line ("Ann is choosing a character.").
    pub headline: String,
    /// The table: players (scores, resources, levels), your hand with card texts, the board.
    pub sections: Vec<Section>,
}

/// One headed block of a presentation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Section {
    pub title: String,
    pub lines: Vec<String>,
    /// A fixed-width diagram (a board): shown in a monospace block, lines kept as they are.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub diagram: bool,
}

impl Section {
    pub fn new(title: impl Into<String>, lines: Vec<String>) -> Self {
        Section {
            title: title.into(),
            lines,
            diagram: false,
        }
    }

    pub fn diagram(title: impl Into<String>, lines: Vec<String>) -> Self {
        Section {
            title: title.into(),
            lines,
            diagram: true,
        }
    }
}

/// Choices with something in common ("Move the Mage at c3 to", "Play a card").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ChoiceGroup {
    /// What the group's choices share; empty for a plain list.
    pub title: String,
    pub choices: Vec<Choice>,
}

/// One numbered choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Choice {
    /// The action's position in `legal_actions`, from 1: the number a player answers with.
    pub number: usize,
    /// The choice in words, short where the group's title says the rest ("to b4").
    pub label: String,
}

/// `text` with every `Seat <n>` replaced by the name of seat n, where there is one.
/// Descriptions and prompts name seats that way; people are called by their names. (Lower-case
/// "seat n" is left alone: it names a place at the table, as in "took seat 2".)
pub fn name_seats(text: &str, names: &[String]) -> String {
    if !text.contains("eat ") {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("eat ") {
        // "Seat ", as a word of its own.
        let start = at.saturating_sub(1);
        let head = rest.get(start..at).unwrap_or("");
        let word_start = start == 0
            || !rest
                .get(..start)
                .and_then(|s| s.chars().next_back())
                .is_some_and(|c| c.is_alphanumeric());
        let digits: String = rest
            .get(at + 4..)
            .unwrap_or("")
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        let name = if head == "S" && word_start && !digits.is_empty() {
            digits
                .parse::<usize>()
                .ok()
                .and_then(|n| names.get(n))
                .filter(|n| !n.is_empty())
        } else {
            None
        };
        match name {
            Some(name) => {
                out.push_str(rest.get(..start).unwrap_or(""));
                out.push_str(name);
                rest = rest.get(at + 4 + digits.len()..).unwrap_or("");
            }
            None => {
                out.push_str(rest.get(..at + 4).unwrap_or(""));
                rest = rest.get(at + 4..).unwrap_or("");
            }
        }
    }
    out.push_str(rest);
    out
}

/// A seat's name for a presenter: the player's name, or `Seat n` when there is none.
pub fn seat_name(names: &[String], seat: usize) -> String {
    names
        .get(seat)
        .filter(|n| !n.is_empty())
        .cloned()
        .unwrap_or_else(|| format!("Seat {seat}"))
}

/// A seat's name with " (you)" after it when the viewer sits there.
pub fn you(names: &[String], viewer: crate::rules::Viewer, seat: usize) -> String {
    let name = seat_name(names, seat);
    if viewer == crate::rules::Viewer::Seat(seat) {
        format!("{name} (you)")
    } else {
        name
    }
}

/// One group of every action, labelled with its description: the fallback grouping.
pub fn plain_list(labels: impl IntoIterator<Item = String>) -> Vec<ChoiceGroup> {
    vec![ChoiceGroup {
        title: String::new(),
        choices: labels
            .into_iter()
            .enumerate()
            .map(|(i, label)| Choice {
                number: i + 1,
                label,
            })
            .collect(),
    }]
}

/// Makes `groups` number every action of a list of `count` exactly once: choices out of range
/// or repeated are dropped, empty groups removed, and any action left out is added under
/// "Other choices" with `label_of` (a presenter's slip must never hide a legal action).
pub fn complete(
    mut groups: Vec<ChoiceGroup>,
    count: usize,
    label_of: impl Fn(usize) -> String,
) -> Vec<ChoiceGroup> {
    let mut seen = vec![false; count];
    for group in &mut groups {
        group.choices.retain(|c| {
            c.number >= 1
                && seen
                    .get_mut(c.number - 1)
                    .is_some_and(|s| !std::mem::replace(s, true))
        });
    }
    groups.retain(|g| !g.choices.is_empty());
    let missing: Vec<Choice> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| !**s)
        .map(|(i, _)| Choice {
            number: i + 1,
            label: label_of(i),
        })
        .collect();
    if !missing.is_empty() {
        groups.push(ChoiceGroup {
            title: "Other choices".into(),
            choices: missing,
        });
    }
    groups
}

/// The presentation with every text run through [`name_seats`] (diagrams are left alone).
pub fn with_names(mut presented: Presented, names: &[String]) -> Presented {
    presented.headline = name_seats(&presented.headline, names);
    for section in &mut presented.sections {
        section.title = name_seats(&section.title, names);
        if !section.diagram {
            for line in &mut section.lines {
                *line = name_seats(line, names);
            }
        }
    }
    presented
}

/// The groups with every title and label run through [`name_seats`].
pub fn groups_with_names(mut groups: Vec<ChoiceGroup>, names: &[String]) -> Vec<ChoiceGroup> {
    for group in &mut groups {
        group.title = name_seats(&group.title, names);
        for choice in &mut group.choices {
            choice.label = name_seats(&choice.label, names);
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        vec!["Ann".into(), "Bob".into(), String::new()]
    }

    #[test]
    fn seats_become_names_as_whole_words_only() {
        let n = names();
        assert_eq!(
            name_seats("Seat 0 chose the Queen", &n),
            "Ann chose the Queen"
        );
        assert_eq!(
            name_seats("Seat 1 took a card from Seat 0's hand", &n),
            "Bob took a card from Ann's hand"
        );
        assert_eq!(name_seats("Ann took seat 1", &n), "Ann took seat 1");
        // No name for seat 2 (empty) or seat 7 (no such seat): left as it was.
        assert_eq!(name_seats("Seat 2 and Seat 7", &n), "Seat 2 and Seat 7");
        assert_eq!(name_seats("Reseat 1 is a word", &n), "Reseat 1 is a word");
        assert_eq!(name_seats("Seat 10", &n), "Seat 10");
        assert_eq!(name_seats("Seat", &n), "Seat");
        assert_eq!(name_seats("ünïcödé Seat 0 ✓", &n), "ünïcödé Ann ✓");
    }

    #[test]
    fn completing_groups_keeps_every_action_once() {
        let groups = vec![
            ChoiceGroup {
                title: "A".into(),
                choices: vec![
                    Choice {
                        number: 2,
                        label: "two".into(),
                    },
                    Choice {
                        number: 2,
                        label: "again".into(),
                    },
                    Choice {
                        number: 9,
                        label: "out of range".into(),
                    },
                ],
            },
            ChoiceGroup {
                title: "empty".into(),
                choices: vec![],
            },
        ];
        let done = complete(groups, 3, |i| format!("action {}", i + 1));
        let numbers: Vec<Vec<usize>> = done
            .iter()
            .map(|g| g.choices.iter().map(|c| c.number).collect())
            .collect();
        assert_eq!(numbers, vec![vec![2], vec![1, 3]]);
        assert_eq!(done[1].title, "Other choices");
        assert_eq!(done[1].choices[1].label, "action 3");
    }
}
