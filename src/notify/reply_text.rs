//! Reading a player's answer from the top of a reply: the new text above the quoted mail and
//! the signature, and in it a choice's number, its words, or a command. Pure.
//!
//! Mail clients quote in their own ways (see the corpus in the tests, after discourse's
//! email_reply_trimmer): `>` lines, "On … wrote:" in several languages (possibly wrapped over
//! two lines), Outlook's "-----Original Message-----" and "From:/Sent:" blocks, underscores;
//! a signature starts at "-- " or a "Sent from my …" line. Everything from there on is ignored.

/// What the top of a reply asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A choice by its number.
    Number(usize),
    /// A choice by its words (matched against the choices by the caller).
    Words(String),
    Command(Command),
    /// `SAY <text>`: a message to the whole table (the text after SAY, with the lines under
    /// it), not a choice.
    Say(String),
    /// Nothing to read above the quote.
    Empty,
}

/// The commands a player may type instead of a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// The commands, and the current choices.
    Help,
    /// My view of the table again, with my choices.
    Status,
    /// The log, as I may see it.
    History,
    /// No more game mail, in any game.
    Unsubscribe,
    /// Game mail again, in every game (undoes UNSUBSCRIBE).
    Subscribe,
    /// Leave the game: asks for CONFIRM first.
    Resign,
    /// The answer to RESIGN's question.
    Confirm,
    /// A vote to abandon the game.
    Abort,
    /// I am back: play my seat again after an absence.
    Back,
    /// A vacation for all my games, or its end.
    Away(Away),
    /// No more mail from this game (answers to my own mail still come).
    Mute,
    /// This game's mail again.
    Unmute,
    /// `TELL <player> <text>`: a private message to one player (the caller reads the name
    /// and the text from the reply's new text).
    Tell,
}

/// What `AWAY` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Away {
    /// `AWAY 3`, `AWAY 3 days`: from now, for this many days.
    Days(u32),
    /// `AWAY UNTIL 2026-12-24`: until the start of that day (UTC).
    Until(chrono::NaiveDate),
    /// `AWAY OFF`: the vacation ends now.
    Off,
    /// `AWAY` with words it cannot read: the answer says how to write it.
    Unreadable,
}

impl Command {
    /// The commands that are a word alone (`please` may follow).
    pub const ALL: [(&'static str, Command); 11] = [
        ("HELP", Command::Help),
        ("STATUS", Command::Status),
        ("HISTORY", Command::History),
        ("UNSUBSCRIBE", Command::Unsubscribe),
        ("SUBSCRIBE", Command::Subscribe),
        ("RESIGN", Command::Resign),
        ("CONFIRM", Command::Confirm),
        ("ABORT", Command::Abort),
        ("BACK", Command::Back),
        ("MUTE", Command::Mute),
        ("UNMUTE", Command::Unmute),
    ];
}

/// `AWAY`'s words after the command: `3`, `3 days`, `until 2026-12-24`, `off`.
fn read_away(rest: &[&str]) -> Away {
    let lower: Vec<String> = rest
        .iter()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-')
                .to_ascii_lowercase()
        })
        .filter(|w| !w.is_empty() && w != "please" && w != "for")
        .collect();
    match lower
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["off"] | ["end"] | ["stop"] => Away::Off,
        [n] | [n, "day" | "days"] => n.parse().map_or(Away::Unreadable, Away::Days),
        ["until", date] => chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d")
            .map_or(Away::Unreadable, Away::Until),
        _ => Away::Unreadable,
    }
}

/// Phrases that end the new text when a line starts with one (lower case).
const QUOTE_HEADERS: &[&str] = &[
    "-----original message-----",
    "----- original message -----",
    "-------- original message --------",
    "-------- message d'origine --------",
    "-------- ursprüngliche nachricht --------",
    "________________________________",
    "begin forwarded message:",
    "---------- forwarded message ---------",
];

/// A line starting a signature or a client's tag line (lower case).
const SIGNATURE_STARTS: &[&str] = &[
    "sent from my ",
    "sent from mail for windows",
    "sent from outlook",
    "get outlook for ",
    "sent with proton mail",
    "von meinem iphone gesendet",
    "envoyé de mon ",
];

/// "On <date>, <someone> wrote:" and its translations: how the line starts and the verb in
/// it (lower case); the line (or it and the next, when the client wrapped it) ends with ':'.
const WROTE: &[(&str, &str)] = &[
    ("on ", " wrote"),
    ("am ", " schrieb "),
    ("le ", " a écrit"),
    ("el ", " escribió"),
    ("op ", " schreef"),
    ("op ", " geschreven"),
    ("il ", " ha scritto"),
    ("em ", " escreveu"),
];

/// Whether `line` (with the next one, for headers wrapped by the client) opens the quote.
fn opens_quote(line: &str, next: Option<&str>) -> bool {
    let lower = line.trim().to_lowercase();
    if lower.starts_with('>') || QUOTE_HEADERS.iter().any(|h| lower.starts_with(h)) {
        return true;
    }
    // Outlook: "From: …" followed by "Sent: …" / "Date: …" (and the same in German, French).
    let next_lower = next.map(|n| n.trim().to_lowercase()).unwrap_or_default();
    if ["from:", "von:", "de :", "de:"]
        .iter()
        .any(|p| lower.starts_with(p))
        && [
            "sent:",
            "date:",
            "gesendet:",
            "envoyé :",
            "envoyé:",
            "to:",
            "an:",
        ]
        .iter()
        .any(|p| next_lower.starts_with(p))
    {
        return true;
    }
    let joined = format!("{lower} {next_lower}");
    WROTE.iter().any(|(start, verb)| {
        lower.starts_with(start)
            && lower.len() < 300
            && ((lower.contains(verb) && lower.ends_with(':'))
                || (joined.contains(verb) && next_lower.ends_with(':')))
    })
}

fn starts_signature(line: &str) -> bool {
    let trimmed_end = line.trim_end_matches(['\r', '\n']);
    if trimmed_end == "-- " || trimmed_end == "--" || trimmed_end == "—" {
        return true;
    }
    let lower = line.trim().to_lowercase();
    SIGNATURE_STARTS.iter().any(|s| lower.starts_with(s))
}

/// The new text of a reply: every line above the quoted mail and the signature.
pub fn new_text(body: &str) -> String {
    let lines: Vec<&str> = body.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if opens_quote(line, lines.get(i + 1).copied()) || starts_signature(line) {
            break;
        }
        out.push(*line);
    }
    out.join("\n").trim().to_owned()
}

/// `ORDERS` on the first line of a reply: standing orders to show, clear or set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Orders {
    /// `ORDERS`: the orders in force and those offered.
    Show,
    /// `ORDERS OFF` (or `NONE`, `CLEAR`): none any more.
    Off,
    /// `ORDERS <id> <id> …` (spaces or commas between; an order that takes an argument is its
    /// id and the words after it: `ORDERS characters oracle queen`): these, replacing any
    /// before. The words are grouped into orders by the service (`service::orders::checked`).
    Set(Vec<String>),
}

/// The standing-orders command on the first line of a reply's new text, if it is one.
pub fn orders(body: &str) -> Option<Orders> {
    let text = new_text(body);
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let mut words = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty());
    let first = words.next()?.trim_end_matches(':');
    if !first.eq_ignore_ascii_case("orders") {
        return None;
    }
    let rest: Vec<String> = words.map(|w| w.to_lowercase()).collect();
    Some(match rest.as_slice() {
        [] => Orders::Show,
        [one] if ["off", "none", "clear"].contains(&one.as_str()) => Orders::Off,
        _ => Orders::Set(rest),
    })
}

/// The most lines of a reply read as choices: a whole turn, with room to spare.
pub const MAX_LINES: usize = 40;

/// The non-empty lines of a reply's new text, trimmed, at most [`MAX_LINES`]: a turn, one
/// choice a line.
pub fn lines(body: &str) -> Vec<String> {
    new_text(body)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(MAX_LINES)
        .map(str::to_owned)
        .collect()
}

/// The answer in a reply's body: the first non-empty line of its new text.
pub fn answer(body: &str) -> Answer {
    let text = new_text(body);
    let Some(line) = text.lines().map(str::trim).find(|l| !l.is_empty()) else {
        return Answer::Empty;
    };
    if let Some(said) = said(&text) {
        return Answer::Say(said);
    }
    read_line(line)
}

/// The message of a new text whose first word is `SAY` (as `SAY`, `say:` …): all that
/// follows it.
fn said(text: &str) -> Option<String> {
    let text = text.trim_start();
    let head = text.get(..3)?;
    let rest = &text[3..];
    let ends_word = rest
        .chars()
        .next()
        .is_none_or(|c| c.is_whitespace() || c == ':');
    (head.eq_ignore_ascii_case("say") && ends_word)
        .then(|| rest.trim_start_matches(':').trim().to_owned())
}

/// One line as a number, a command or words.
pub fn read_line(line: &str) -> Answer {
    let line = line.trim();
    let words: Vec<&str> = line
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .collect();
    if let Some((first, rest)) = words.split_first() {
        if first.eq_ignore_ascii_case("away") {
            // The date keeps its dashes: read the line's own words, not the trimmed ones.
            let raw: Vec<&str> = line.split_whitespace().skip(1).collect();
            return Answer::Command(Command::Away(read_away(&raw)));
        }
        if first.eq_ignore_ascii_case("tell") && !rest.is_empty() {
            return Answer::Command(Command::Tell);
        }
        // `SUBSCRIBE TURNS`: turn mail only (the command reads its word again).
        if first.eq_ignore_ascii_case("subscribe")
            && matches!(rest, [w] if w.eq_ignore_ascii_case("turns"))
        {
            return Answer::Command(Command::Subscribe);
        }
        for (word, command) in Command::ALL {
            if first.eq_ignore_ascii_case(word)
                && rest.iter().all(|w| w.eq_ignore_ascii_case("please"))
            {
                return Answer::Command(command);
            }
        }
    }
    // "3", "#3", "3.", "3)", "3 - Choose the Queen", "Number 3", "choice 3".
    let unprefixed = strip_word(strip_word(line, "number"), "choice");
    let unprefixed = unprefixed.trim_start_matches(['#', '(', '[']).trim_start();
    let digits: String = unprefixed
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    if !digits.is_empty() {
        let rest = &unprefixed[digits.len()..];
        let ends_number = rest
            .chars()
            .next()
            .is_none_or(|c| c.is_whitespace() || ".):]-–,!".contains(c));
        if ends_number && let Ok(n) = digits.parse::<usize>() {
            return Answer::Number(n);
        }
    }
    Answer::Words(line.to_owned())
}

fn strip_word<'a>(line: &'a str, word: &str) -> &'a str {
    match line.get(..word.len()) {
        Some(head) if head.eq_ignore_ascii_case(word) => line[word.len()..].trim_start(),
        _ => line,
    }
}

/// Words in a canonical form for matching a typed choice: lower case, letters and digits
/// separated by single spaces.
pub fn normalise(words: &str) -> String {
    words
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A corpus of replies as clients write them (shape after discourse's
    /// email_reply_trimmer): (name, body, the new text that must remain, the answer).
    const CORPUS: &[(&str, &str, &str, Answer)] = &[
        (
            "gmail",
            "3\r\n\r\nOn Mon, 24 Nov 2026 at 10:02, Turnpost <play+abc@turnpost.example> wrote:\r\n> Ann, it is your turn.\r\n>    1. Choose the Queen\r\n",
            "3",
            Answer::Number(3),
        ),
        (
            "gmail wrapped attribution",
            "12\n\nOn Mon, 24 Nov 2026 at 10:02, Turnpost <\nplay+abc@turnpost.example> wrote:\n\n> 1. x\n",
            "12",
            Answer::Number(12),
        ),
        (
            "apple mail with signature",
            "  7.  \n\nSent from my iPhone\n\n> On 24 Nov 2026, at 10:02, Turnpost wrote:\n> 1. x\n",
            "7.",
            Answer::Number(7),
        ),
        (
            "outlook top posting",
            "STATUS\r\n\r\n________________________________\r\nFrom: Turnpost <play@turnpost.example>\r\nSent: Monday, November 24, 2026 10:02\r\nTo: Ann\r\n 1. Choose the Queen\r\n",
            "STATUS",
            Answer::Command(Command::Status),
        ),
        (
            "outlook original message",
            "history please\n-----Original Message-----\nFrom: Turnpost\n 2. Draw\n",
            "history please",
            Answer::Command(Command::History),
        ),
        (
            "german",
            "Choose the Queen (1)\n\nAm 24.11.2026 um 10:02 schrieb Turnpost <play@turnpost.example>:\n> 1. Choose the Queen (1)\n",
            "Choose the Queen (1)",
            Answer::Words(String::new()),
        ),
        (
            "french",
            "help\n\nLe lun. 24 nov. 2026 à 10:02, Turnpost <play@turnpost.example> a écrit :\n> 1. x\n",
            "help",
            Answer::Command(Command::Help),
        ),
        (
            "signature dash dash",
            "#4\n-- \nAnn Example\n+1 555 0100\n",
            "#4",
            Answer::Number(4),
        ),
        (
            "quote only (nothing new)",
            "> 1. Choose the Queen\n> 2. Choose the King\n",
            "",
            Answer::Empty,
        ),
        (
            "copied choice line",
            "   5. Play Fire (2 icons)\n\nOn Tue, Turnpost wrote:\n> 5. Play Fire (2 icons)\n",
            "5. Play Fire (2 icons)",
            Answer::Number(5),
        ),
        ("number words", "Number 2\n", "Number 2", Answer::Number(2)),
        (
            "unsubscribe",
            "unsubscribe!\n",
            "unsubscribe!",
            Answer::Command(Command::Unsubscribe),
        ),
    ];

    #[test]
    fn the_corpus_keeps_only_the_new_text_and_reads_the_answer() {
        for (name, body, kept, expected) in CORPUS {
            assert_eq!(new_text(body), *kept, "{name}: new text");
            let got = answer(body);
            match expected {
                Answer::Words(_) => assert_eq!(got, Answer::Words((*kept).to_owned()), "{name}"),
                other => assert_eq!(&got, other, "{name}"),
            }
        }
    }

    #[test]
    fn commands_are_whole_words_and_numbers_stand_alone() {
        assert_eq!(read_line("STATUS"), Answer::Command(Command::Status));
        assert_eq!(read_line("status."), Answer::Command(Command::Status));
        assert_eq!(read_line("History"), Answer::Command(Command::History));
        // A choice that starts with a command's word is a choice, not the command.
        assert_eq!(
            read_line("help the wizard"),
            Answer::Words("help the wizard".into())
        );
        assert_eq!(read_line("3rd card"), Answer::Words("3rd card".into()));
        assert_eq!(read_line("(3)"), Answer::Number(3));
        assert_eq!(read_line("choice 11"), Answer::Number(11));
        assert_eq!(
            read_line("99999999999999999999999"),
            Answer::Words("99999999999999999999999".into())
        );
    }

    #[test]
    fn say_takes_the_rest_of_the_new_text() {
        assert_eq!(
            answer("SAY Well played!\nSee you.\n\nOn Tue, Turnpost wrote:\n> 1. x\n"),
            Answer::Say("Well played!\nSee you.".into())
        );
        assert_eq!(answer("say: hi"), Answer::Say("hi".into()));
        assert_eq!(answer("Say"), Answer::Say(String::new()));
        // A word that only starts with "say" is not the command.
        assert_eq!(answer("Sayings"), Answer::Words("Sayings".into()));
        assert_eq!(answer("3\nsay hi"), Answer::Number(3));
    }

    #[test]
    fn seat_commands_are_read_with_their_words() {
        for (line, command) in [
            ("RESIGN", Command::Resign),
            ("confirm", Command::Confirm),
            ("Abort.", Command::Abort),
            ("back please", Command::Back),
            ("MUTE", Command::Mute),
            ("unmute", Command::Unmute),
            ("Subscribe", Command::Subscribe),
            ("SUBSCRIBE TURNS", Command::Subscribe),
            ("AWAY 3", Command::Away(Away::Days(3))),
            ("away for 3 days.", Command::Away(Away::Days(3))),
            ("AWAY OFF", Command::Away(Away::Off)),
            (
                "away until 2026-12-24",
                Command::Away(Away::Until(
                    chrono::NaiveDate::from_ymd_opt(2026, 12, 24).unwrap(),
                )),
            ),
            ("AWAY next week", Command::Away(Away::Unreadable)),
            ("AWAY", Command::Away(Away::Unreadable)),
            ("TELL Bea good move", Command::Tell),
        ] {
            assert_eq!(read_line(line), Answer::Command(command), "{line}");
        }
        // A lone TELL names nobody: it is words, as before.
        assert_eq!(read_line("tell"), Answer::Words("tell".into()));
        assert_eq!(
            read_line("back the wizard"),
            Answer::Words("back the wizard".into())
        );
    }

    #[test]
    fn words_normalise_for_matching() {
        assert_eq!(
            normalise("  Choose the QUEEN (1): draw!"),
            "choose the queen 1 draw"
        );
        assert_eq!(normalise("—"), "");
    }
}
