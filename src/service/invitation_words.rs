//! What a game is, in words, for someone invited to it: the invitation mail and the
//! invitation page say the same (the ruleset's summary, the seats and who holds them, each
//! option and the clock), so nobody has to read JSON to decide.

use serde::Serialize;
use serde_json::Value;

use super::Services;
use super::deadlines::ClockSettings;
use crate::notify::names::for_strangers;
use crate::store::models::{Game, SeatPlayer};

/// What each game is about, in two sentences from its rulebook (`../shared/rules/`).
pub fn ruleset_summary(ruleset: &str) -> &'static str {
    match ruleset {
        "bag-of-fate" => {
            "Each round every player takes a Character and performs its actions: drawing \
             cards and tokens and completing Element Sets to level up and put Gems into the \
             Bag of Fate. Whoever draws their own Gem from the bag while playing the Wizard \
             wins."
        }
        "garden-gnomes" => {
            "Clans of gnomes fight over the key places of the park before winter: each clan \
             has its own numbers, dice and reinforcements. Every player secretly chooses an \
             objective; battles are rolled with dice."
        }
        "wiz-war" => {
            "Wizards duel in an underground labyrinth with spells from several schools, \
             counter spells answered out of turn, and treasures to steal. Carry off enemy \
             treasure or be the last wizard standing."
        }
        "monsters-and-magic" => {
            "Armies of units and allies fight over an 8×8 map of terrain, temples and \
             structures. Four ways to win: eliminate every opposing unit, hold five temples, \
             garrison 33 spaces, or control the most spaces when time runs out."
        }
        "gnomes-and-wizards" => {
            "Tribes of gnomes and wizards build up their clans with power crystals, assign dice \
             and cast abilities, also in other players' turns, while the ground crumbles over \
             ten rounds. Points for defeated enemies and remaining strength; a solo automaton \
             for one player."
        }
        _ => "",
    }
}

/// A game described for an invitee.
#[derive(Clone, Debug, Serialize)]
pub struct GameInWords {
    pub game_name: String,
    pub summary: &'static str,
    pub short_id: String,
    pub seats: i32,
    /// The seat held for the invitee, if the invitation named one (numbered from 1 here, as
    /// people count).
    pub seat: Option<i32>,
    pub inviter: String,
    /// The players seated so far, by name.
    pub players: Vec<String>,
    pub open_seats: i32,
    /// One line per option: what it is and what this game chose.
    pub options: Vec<String>,
    pub clock: String,
}

/// `game` described for someone `inviter` invited to `seat` (or any free seat).
pub fn describe(
    svc: &Services,
    game: &Game,
    players: &[SeatPlayer],
    inviter: &str,
    seat: Option<i32>,
) -> GameInWords {
    let ruleset = svc.rules.get(&game.ruleset);
    let options = ruleset
        .map(|r| r.option_docs())
        .unwrap_or_default()
        .into_iter()
        .map(|o| {
            let chosen = game.options.get(o.name).unwrap_or(&o.default);
            format!(
                "{}: {} ({})",
                o.name.replace('_', " "),
                value_in_words(chosen),
                o.description
            )
        })
        .collect();
    let seated = i32::try_from(players.len()).unwrap_or(game.seat_count);
    GameInWords {
        game_name: ruleset.map_or(game.ruleset.clone(), |r| r.name().to_owned()),
        summary: ruleset_summary(&game.ruleset),
        short_id: game.id.simple().to_string().chars().take(8).collect(),
        seats: game.seat_count,
        seat: seat.map(|s| s + 1),
        inviter: for_strangers(inviter),
        players: players
            .iter()
            .map(|p| for_strangers(&p.display_name))
            .collect(),
        open_seats: (game.seat_count - seated).max(0),
        options,
        clock: clock_in_words(ClockSettings::of(game).as_ref()),
    }
}

fn value_in_words(v: &Value) -> String {
    match v {
        Value::Bool(true) => "yes".into(),
        Value::Bool(false) => "no".into(),
        Value::Null => "none".into(),
        Value::String(s) => s.clone(),
        Value::Array(items) if items.is_empty() => "none".into(),
        Value::Array(items) => items
            .iter()
            .map(value_in_words)
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

/// The clock as a player reads it.
pub fn clock_in_words(clock: Option<&ClockSettings>) -> String {
    let Some(clock) = clock else {
        return "No clock: the game waits for each player as long as it takes.".into();
    };
    let secs = clock.per_decision_secs;
    let time = if secs % 86_400 == 0 {
        plural(secs / 86_400, "day")
    } else {
        plural((secs + 3599) / 3600, "hour")
    };
    format!(
        "{time} per decision; when time runs out, the game plays a default move for you, and \
         after {} in a row the bot plays your seat until you come back.",
        plural(i64::from(clock.absent_after), "missed decision")
    )
}

fn plural(n: i64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_and_clocks_read_as_words() {
        assert_eq!(value_in_words(&serde_json::json!(true)), "yes");
        assert_eq!(value_in_words(&serde_json::json!([])), "none");
        assert_eq!(
            value_in_words(&serde_json::json!(["fatigue", "home_field"])),
            "fatigue, home_field"
        );
        assert!(clock_in_words(None).starts_with("No clock"));
        let clock: ClockSettings =
            serde_json::from_value(serde_json::json!({"per_decision_secs": 172_800}))
                .unwrap_or_else(|e| panic!("{e}"));
        let words = clock_in_words(Some(&clock));
        assert!(words.starts_with("2 days per decision"), "{words}");
        assert!(
            words.contains("after 2 missed decisions in a row"),
            "{words}"
        );
    }
}
