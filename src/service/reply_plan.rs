//! A reply's lines as a turn (DESIGN.md, "Pace: a turn per reply"): each line a choice, read
//! in order against the game as it would be after the lines before it, on a copy of the state
//! (nothing is written here). The first line may name its choice by the number the answered
//! mail showed; every later line by its notation or its words (a number would mean a list the
//! player never saw). Forced choices between lines are played as the service plays them
//! (`Play::run_forced_before`), so a turn need not spell them out. Reading stops at the first
//! line that is not a choice at that point, and before any line that would follow something
//! the player could not have seen when writing: a chance step, another seat's decision, the
//! end of the game. Pure: the caller submits the actions found, as one submission.

use serde_json::Value;

use crate::notify::reply_text::{self, Answer};
use crate::rules::present::name_seats;
use crate::rules::{ChoiceGroup, GameState, LegalAction, Waiting, notation};

/// What a reply's lines come to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    /// The actions to submit, in order (the lines' choices, not the forced ones between them).
    pub actions: Vec<Value>,
    /// What each played line chose, in words, with its notation.
    pub played: Vec<Chosen>,
    /// Forced choices the service will play between the lines, in words.
    pub forced: Vec<String>,
    /// Why reading stopped before the last line, if it did.
    pub stopped: Option<Stop>,
}

/// One line's choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    /// The line's number in the reply's new text (from 1, blank lines not counted).
    pub line: usize,
    /// The choice's number in the answered mail (the first line only), if named so.
    pub number: Option<usize>,
    pub label: String,
    pub notation: String,
}

/// Why lines were left unplayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// This line is not one of the choices at that point: why.
    NotAChoice {
        line: usize,
        text: String,
        why: String,
    },
    /// The lines from `line` on were not read: what came first that the player had not seen.
    Unseen { line: usize, what: Unseen },
}

/// What a line would have followed that its writer could not have seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unseen {
    Chance,
    Others,
    Over,
}

impl Stop {
    /// The sentence the answer mail says.
    pub fn explain(&self, lines: usize) -> String {
        match self {
            Stop::NotAChoice { line, text, why } => format!(
                "Line {line} (\"{}\") was not played: {why}{}",
                text.chars().take(80).collect::<String>(),
                if *line < lines {
                    " Nothing after it was played either."
                } else {
                    ""
                }
            ),
            Stop::Unseen { line, what } => {
                let (which, they) = if *line >= lines {
                    (format!("Line {line} was"), "it follows")
                } else {
                    (format!("Lines {line} to {lines} were"), "they follow")
                };
                let why = match what {
                    Unseen::Chance => {
                        format!("{they} a roll or a draw whose result you had not seen")
                    }
                    Unseen::Others => {
                        "another player decides first, and you had not seen what".into()
                    }
                    Unseen::Over => "the game is over".into(),
                };
                format!("{which} not played: {why}. Send them again once you have seen it.")
            }
        }
    }
}

/// Reads `lines` (the non-empty lines of a reply's new text) as `seat`'s choices in `state`.
/// `names`: the players' names by seat, for the words.
pub fn plan(state: &dyn GameState, seat: usize, names: &[String], lines: &[String]) -> Plan {
    let mut plan = Plan::default();
    let mut game = state.clone_box();
    for (i, text) in lines.iter().enumerate() {
        let line = i + 1;
        if i > 0 {
            if let Err(what) = play_forced_between(game.as_mut(), seat, names, text, &mut plan) {
                plan.stopped = Some(Stop::Unseen { line, what });
                return plan;
            }
            match game.waiting() {
                Waiting::Players(seats) if seats.contains(&seat) => {}
                Waiting::Players(_) => {
                    plan.stopped = Some(Stop::Unseen {
                        line,
                        what: Unseen::Others,
                    });
                    return plan;
                }
                Waiting::Chance(_) => {
                    plan.stopped = Some(Stop::Unseen {
                        line,
                        what: Unseen::Chance,
                    });
                    return plan;
                }
                Waiting::Over(_) => {
                    plan.stopped = Some(Stop::Unseen {
                        line,
                        what: Unseen::Over,
                    });
                    return plan;
                }
            }
        }
        let (legal, groups) = game.choices(seat, names);
        let found = pick_line(text, i == 0, &legal, &groups);
        let index = match found {
            Ok(index) => index,
            Err(why) => {
                plan.stopped = Some(Stop::NotAChoice {
                    line,
                    text: text.clone(),
                    why,
                });
                return plan;
            }
        };
        let Some(chosen) = legal.get(index) else {
            return plan;
        };
        if let Err(e) = game.apply_json(seat, &chosen.action) {
            plan.stopped = Some(Stop::NotAChoice {
                line,
                text: text.clone(),
                why: format!("{}.", name_seats(&e.to_string(), names)),
            });
            return plan;
        }
        let by_number = matches!(reply_text::read_line(text), Answer::Number(n) if n == index + 1)
            && i == 0
            && words_in(text) == 1;
        plan.actions.push(chosen.action.clone());
        plan.played.push(Chosen {
            line,
            number: by_number.then_some(index + 1),
            label: label_of(&groups, index + 1)
                .unwrap_or_else(|| name_seats(&chosen.description, names)),
            notation: chosen.notation.clone(),
        });
    }
    plan
}

/// Plays on `game` the forced choices the service would play before the line `text` of `seat`
/// (`Play::run_forced_before`): every waiting seat's lone choice, unless it is `seat`'s and
/// `text` names it. `Err` when the game then waits for chance or is over.
fn play_forced_between(
    game: &mut dyn GameState,
    seat: usize,
    names: &[String],
    text: &str,
    plan: &mut Plan,
) -> Result<(), Unseen> {
    let named = |f: &LegalAction| pick_line(text, false, std::slice::from_ref(f), &[]).is_ok();
    for _ in 0..1_000 {
        match game.waiting() {
            Waiting::Players(_) => {}
            Waiting::Chance(_) => return Err(Unseen::Chance),
            Waiting::Over(_) => return Err(Unseen::Over),
        }
        let Some((s, f)) = game.next_forced(seat, &named) else {
            return Ok(());
        };
        if game.apply_json(s, &f.action).is_err() {
            return Ok(());
        }
        if s == seat {
            plan.forced.push(name_seats(&f.description, names));
        }
    }
    Ok(())
}

fn words_in(text: &str) -> usize {
    text.split_whitespace().count()
}

/// The choice's label as the mail shows it: its group's title and its own words.
pub fn label_of(groups: &[ChoiceGroup], number: usize) -> Option<String> {
    groups.iter().find_map(|g| {
        g.choices.iter().find(|c| c.number == number).map(|c| {
            if g.title.is_empty() {
                c.label.clone()
            } else {
                format!("{} {}", g.title.trim_end_matches(':'), c.label)
            }
        })
    })
}

/// The index of the legal action one line names: by its notation, its words, or (on the first
/// line only) its number. A line that starts with a number but has more words is read as words
/// first ("1 acorn, 1 apple" names the objective of that name, not choice 1).
pub fn pick_line(
    text: &str,
    first: bool,
    legal: &[LegalAction],
    groups: &[ChoiceGroup],
) -> Result<usize, String> {
    let text = text.trim();
    let notations: Vec<String> = legal.iter().map(|a| a.notation.clone()).collect();
    let by_notation = notation::find(text, &notations);
    if let Ok(index) = by_notation {
        return Ok(index);
    }
    let answer = reply_text::read_line(text);
    match answer {
        Answer::Number(n) if words_in(text) > 1 => match by_words(text, legal, groups) {
            Ok(index) => Ok(index),
            Err(_) if first => by_number(n, legal.len()),
            Err(why) => Err(why),
        },
        Answer::Number(n) if first => by_number(n, legal.len()),
        Answer::Number(_) => Err(
            "only the first line may name a choice by its number (the numbers after it would \
             be of a list you have not seen): name it by its notation or its words."
                .into(),
        ),
        Answer::Words(words) => by_words(&words, legal, groups).map_err(|why| match by_notation {
            Err(notation::Miss::Unknown { closest }) if !closest.is_empty() => {
                format!("{why} The closest notations: {}.", closest.join(", "))
            }
            _ => why,
        }),
        Answer::Empty => Err("the line is empty.".into()),
        Answer::Command(_) => Err("a command is not a choice.".into()),
        Answer::Say(_) => Err("a message is not a choice.".into()),
    }
}

fn by_number(n: usize, count: usize) -> Result<usize, String> {
    if (1..=count).contains(&n) {
        Ok(n - 1)
    } else {
        Err(format!(
            "there is no choice {n}: your choices are numbered 1 to {count}."
        ))
    }
}

/// The choice whose words are `words`: its label, its group title and label, or its
/// description; exactly, else as the only choice that contains them.
fn by_words(words: &str, legal: &[LegalAction], groups: &[ChoiceGroup]) -> Result<usize, String> {
    let wanted = reply_text::normalise(words);
    if wanted.is_empty() {
        return Err("the line has no words to read.".into());
    }
    let mut forms: Vec<(usize, String)> = vec![];
    for (i, a) in legal.iter().enumerate() {
        forms.push((i, reply_text::normalise(&a.description)));
        if let Some(label) = label_of(groups, i + 1) {
            forms.push((i, reply_text::normalise(&label)));
        }
    }
    for g in groups {
        for c in &g.choices {
            forms.push((c.number.saturating_sub(1), reply_text::normalise(&c.label)));
        }
    }
    let matching = |exact: bool| {
        let mut found: Vec<usize> = forms
            .iter()
            .filter(|(_, f)| {
                if exact {
                    *f == wanted
                } else {
                    f.contains(&wanted)
                }
            })
            .map(|(i, _)| *i)
            .filter(|i| *i < legal.len())
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    };
    let exact = matching(true);
    if let [one] = exact.as_slice() {
        return Ok(*one);
    }
    let shown = words.chars().take(80).collect::<String>();
    match matching(false).as_slice() {
        [one] => Ok(*one),
        [] => Err(format!(
            "\"{shown}\" matches none of your choices: answer with a number or a notation."
        )),
        many => Err(format!(
            "\"{shown}\" matches {} choices ({}): answer with a number or a notation.",
            many.len(),
            many.iter()
                .take(8)
                .map(|i| (i + 1).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}
