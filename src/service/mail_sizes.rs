//! How large game mail gets, measured on random games without a database: the engine plays a
//! seeded random game and every mail a player would get (the start mail, each turn mail, the
//! game-over mail) is written by the same [`Letter::write`] the worker uses and formatted as
//! the message that goes out (headers, both parts, their transfer encoding).
//!
//! `cargo bench --bench mail` prints the table in docs/MAIL.md; a unit test holds every mail of
//! a random game of each ruleset under [`MAIL_LIMIT`].

use chrono::{TimeZone, Utc};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use uuid::Uuid;

use super::mail::Letter;
use crate::notify::{Mail, Notice, transport};
use crate::rules::{self, Viewer, Waiting, present};
use crate::store::models::{Game, SeatPlayer};

/// No mail may be larger (Gmail clips a message at about 102 KB).
pub const MAIL_LIMIT: usize = 100 * 1024;

/// A bound on one random game (every ruleset's games end far sooner).
const MAX_STEPS: usize = 100_000;

/// What was measured on one random game.
#[derive(Clone, Debug, Default)]
pub struct Sizes {
    pub ruleset: &'static str,
    pub seats: usize,
    /// Player decisions in the game.
    pub decisions: usize,
    /// The first mail that asks for a decision: bytes and numbered choices.
    pub first_turn_bytes: usize,
    pub first_turn_choices: usize,
    /// Mails written (start, turn and game-over mails).
    pub mails: usize,
    /// Of those, the mails whose HTML part shows the board as an inline PNG.
    pub pictured: usize,
    pub mean_bytes: usize,
    /// Bytes of all mails' text parts, HTML parts and pictures (PNG, before base64).
    pub part_bytes: [usize; 3],
    pub largest_bytes: usize,
    /// The most numbered choices in any one mail.
    pub most_choices: usize,
    /// The largest mail itself, to look at.
    pub largest: Option<Mail>,
    /// The first mail that asks for a decision, formatted as it goes out (RFC 5322).
    pub first_turn_message: Vec<u8>,
}

/// The options of the measured games: the defaults, but for wiz-war the optional round limit
/// of 30 (the rulebook's game has none, and random play, which seldom wins, would run to
/// thousands of decisions; the mails of a round are the same kind whatever the limit).
pub fn measured_options(ruleset: &str) -> serde_json::Value {
    match ruleset {
        "wiz-war" => serde_json::json!({"round_limit": 30}),
        _ => serde_json::Value::Null,
    }
}

/// Plays one random game of `rules` from `seed` (with [`measured_options`]) with `seats` players named Ann, Bob, …, writing
/// every mail a player gets: the start mail, a turn mail at every decision (or at every
/// `stride`-th one, to keep a debug build quick), and the game-over mail; with the board's
/// picture in the HTML part when `pictures` (the player's setting), in words only otherwise.
pub fn measure(
    rules: &dyn rules::Game,
    seats: usize,
    seed: u64,
    stride: usize,
    pictures: bool,
) -> anyhow::Result<Sizes> {
    let options = rules.normalise_options(&measured_options(rules.id()))?;
    let mut state = rules.new_game(&options, seats)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let names: Vec<String> = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
        .iter()
        .cycle()
        .take(seats)
        .map(|n| n.to_string())
        .collect();
    let players: Vec<SeatPlayer> = names
        .iter()
        .enumerate()
        .map(|(seat, name)| SeatPlayer {
            seat: seat as i32,
            user_id: Uuid::from_u128(seat as u128 + 1),
            display_name: name.clone(),
            vacation: None,
            orders: vec![],
        })
        .collect();
    let at = Utc.with_ymd_and_hms(2026, 11, 24, 12, 0, 0).single();
    let at = at.unwrap_or_default();
    let mut game = Game {
        id: Uuid::from_u128(0x7e57_0000_0000_0000_0000_0000_0000_0001),
        ruleset: rules.id().to_owned(),
        options,
        seat_count: seats as i32,
        status: "active".into(),
        version: 0,
        state: None,
        seed: vec![7; 32],
        seed_sha256: "0".repeat(64),
        to_act: vec![],
        outcome: None,
        created_by: players[0].user_id,
        created_at: at,
        updated_at: at,
        waiting_since: Some(at),
        clock: None,
        robots: vec![],
    };
    // What each seat has not been mailed yet ("since your last mail").
    let mut unseen: Vec<Vec<String>> = vec![vec![]; seats];
    let mut sizes = Sizes {
        ruleset: rules.id(),
        seats,
        ..Sizes::default()
    };
    let mut total = 0;
    let mut started = false;
    for step in 0..MAX_STEPS {
        let waiting = state.waiting();
        if let Waiting::Chance(weights) = &waiting {
            let sum: u64 = weights.iter().map(|w| u64::from(*w)).sum();
            let mut point = rng.random_range(0..sum.max(1));
            let index = weights
                .iter()
                .position(|w| {
                    let w = u64::from(*w);
                    if point < w {
                        true
                    } else {
                        point -= w;
                        false
                    }
                })
                .unwrap_or(0);
            let applied = state
                .apply_chance(index)
                .map_err(|e| anyhow::anyhow!("{e:?}"))?;
            remember(&mut unseen, &applied, &names);
            game.version += 1;
            continue;
        }
        let (notice, acting) = match &waiting {
            Waiting::Players(acting) => (
                if started {
                    Notice::YourTurn
                } else {
                    Notice::GameStarted
                },
                acting.clone(),
            ),
            Waiting::Over(outcome) => {
                game.status = "finished".into();
                game.outcome = Some(serde_json::to_value(outcome)?);
                (Notice::GameOver, vec![])
            }
            Waiting::Chance(_) => unreachable!("handled above"),
        };
        game.to_act = acting.iter().map(|s| *s as i32).collect();
        // The start and game-over mails go to everyone; a turn mail to whoever must act.
        let recipients: Vec<usize> = match notice {
            Notice::YourTurn if step % stride.max(1) != 0 => vec![],
            Notice::YourTurn => acting.clone(),
            _ => (0..seats).collect(),
        };
        for seat in recipients {
            let (mail, message, choices) = write(
                &game,
                state.as_ref(),
                rules,
                &players,
                &names,
                seat,
                notice,
                &mut unseen[seat],
                pictures,
            )?;
            let bytes = message.len();
            sizes.mails += 1;
            sizes.pictured += usize::from(mail.picture.is_some());
            sizes.part_bytes[0] += mail.text.len();
            sizes.part_bytes[1] += mail.html.len();
            sizes.part_bytes[2] += mail.picture.as_ref().map_or(0, Vec::len);
            total += bytes;
            if bytes > sizes.largest_bytes {
                sizes.largest_bytes = bytes;
                sizes.largest = Some(mail);
            }
            sizes.most_choices = sizes.most_choices.max(choices);
            if choices > 0 && sizes.first_turn_bytes == 0 {
                sizes.first_turn_bytes = bytes;
                sizes.first_turn_choices = choices;
                sizes.first_turn_message = message;
            }
        }
        started = true;
        if notice == Notice::GameOver {
            sizes.mean_bytes = total / sizes.mails.max(1);
            return Ok(sizes);
        }
        // A random seat among those acting makes a random legal move.
        let seat = acting[rng.random_range(0..acting.len())];
        let legal = state.legal_actions(seat);
        if legal.is_empty() {
            anyhow::bail!(
                "{}: seat {seat} must act but has no legal action",
                rules.id()
            );
        }
        let action = &legal[rng.random_range(0..legal.len())].action;
        let applied = state
            .apply_json(seat, action)
            .map_err(|e| anyhow::anyhow!("{e:?}"))?;
        remember(&mut unseen, &applied, &names);
        sizes.decisions += 1;
        game.version += 1;
    }
    anyhow::bail!("{}: the game ran past {MAX_STEPS} steps", rules.id())
}

/// Adds an applied action to every seat's "since your last mail", as that seat may see it.
fn remember(unseen: &mut [Vec<String>], applied: &rules::Applied, names: &[String]) {
    for (seat, lines) in unseen.iter_mut().enumerate() {
        let description = if applied.visibility.allows(Viewer::Seat(seat)) {
            &applied.description
        } else {
            &applied.redacted_description
        };
        lines.push(present::name_seats(description, names));
    }
}

/// Writes one mail as the worker would and formats it; returns it, its formatted bytes and its
/// numbered choices.
#[allow(clippy::too_many_arguments)]
fn write(
    game: &Game,
    state: &dyn rules::GameState,
    rules: &dyn rules::Game,
    players: &[SeatPlayer],
    names: &[String],
    seat: usize,
    notice: Notice,
    unseen: &mut Vec<String>,
    pictures: bool,
) -> anyhow::Result<(Mail, Vec<u8>, usize)> {
    // The worker shows the latest 40 entries and counts the rest.
    let keep = unseen.len().saturating_sub(40);
    let since: Vec<String> = unseen.drain(..).skip(keep).collect();
    let letter = Letter {
        notice,
        answer: None,
        recipient: &names[seat],
        to: &format!("{}@example.com", names[seat].to_lowercase()),
        seat: seat as i32,
        game,
        game_name: rules.name(),
        players,
        names,
        state: Some(state),
        talk: None,
        since,
        since_more: keep as i64,
        history: None,
        base_url: "https://turnpost.example.com",
        game_url: "https://turnpost.example.com/games/00000000-0000-0000-0000-000000000001?signin=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIwMDAwMDAwMC0wMDAwLTAwMDAtMDAwMC0wMDAwMDAwMDAwMDEiLCJleHAiOjE4MjYwMDAwMDAsInB1cnBvc2UiOiJzaWduX2luIn0.c2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJlc2ln",
        unsubscribe_url: "https://turnpost.example.com/v1/unsubscribe?token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIwMDAwMDAwMC0wMDAwLTAwMDAtMDAwMC0wMDAwMDAwMDAwMDEiLCJleHAiOjE4MjYwMDAwMDAsInB1cnBvc2UiOiJ1bnN1YnNjcmliZSJ9.c2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJlc2ln",
        thread: "<turnpost.game.7e570000@turnpost.example.com>".into(),
        deadline: None,
        pictures,
        absent: false,
    };
    let mail = letter
        .write(|_| format!("play+{}@turnpost.example.com", "a".repeat(52)))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let choices = if mail.reply_to.is_some() {
        state.choices(seat, names).0.len()
    } else {
        0
    };
    let message = transport::build(
        &mail,
        "Turnpost <turnpost@turnpost.example.com>",
        "<turnpost.0123456789abcdef0123456789abcdef@turnpost.example.com>",
    )?;
    Ok((mail, message.formatted(), choices))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 14: "no mail may exceed 100 KB, and a typical one should be well under 20 KB".
    /// Every mail of one random game of each ruleset, with the board's picture (every 7th turn
    /// mail in this debug build; `cargo bench --bench mail` writes them all) and in words only
    /// (the default setting): none reaches 100 KB, and in words only the mean stays under 18 KB.
    #[test]
    fn no_mail_of_a_random_game_exceeds_100_kb_and_a_typical_one_is_small() {
        let registry = rules::Registry::standard();
        for rules in registry.all() {
            let seats = rules
                .seats(&serde_json::Value::Null)
                .map(|r| 3.clamp(*r.start(), *r.end()))
                .unwrap_or(2);
            for (pictures, stride) in [(true, 7), (false, 1)] {
                let sizes = measure(rules, seats, 1, stride, pictures).unwrap();
                let n = sizes.mails.max(1);
                eprintln!(
                    "{} ({}): {} mails (mean {} B: text {} B, HTML {} B, picture {} B), {} with the board's picture, first turn {} B with {} choices, largest {} B",
                    sizes.ruleset,
                    if pictures { "pictures" } else { "words only" },
                    sizes.mails,
                    sizes.mean_bytes,
                    sizes.part_bytes[0] / n,
                    sizes.part_bytes[1] / n,
                    sizes.part_bytes[2] / n,
                    sizes.pictured,
                    sizes.first_turn_bytes,
                    sizes.first_turn_choices,
                    sizes.largest_bytes
                );
                // To look at a whole message: TURNPOST_MAIL_DIR=/tmp/mails cargo test --lib -- no_mail_of
                if let Some(dir) = std::env::var_os("TURNPOST_MAIL_DIR") {
                    let dir = std::path::PathBuf::from(dir);
                    std::fs::create_dir_all(&dir).unwrap();
                    let kind = if pictures { "picture" } else { "words" };
                    std::fs::write(
                        dir.join(format!("{}-first-turn-{kind}.eml", sizes.ruleset)),
                        &sizes.first_turn_message,
                    )
                    .unwrap();
                    if let Some(mail) = &sizes.largest {
                        std::fs::write(
                            dir.join(format!("{}-largest-{kind}.txt", sizes.ruleset)),
                            &mail.text,
                        )
                        .unwrap();
                    }
                }
                assert!(sizes.mails > seats * 2, "{sizes:?}");
                assert!(sizes.first_turn_choices > 0, "{sizes:?}");
                assert_eq!(sizes.pictured > 0, pictures, "{}", sizes.ruleset);
                assert!(
                    sizes.largest_bytes < MAIL_LIMIT,
                    "{}: a mail of {} bytes",
                    sizes.ruleset,
                    sizes.largest_bytes
                );
                if !pictures {
                    assert!(
                        sizes.mean_bytes < 18 * 1024,
                        "{}: the typical mail takes {} bytes",
                        sizes.ruleset,
                        sizes.mean_bytes
                    );
                }
            }
        }
    }
}
