//! The reply commands about a seat or its player (issue 35): everything a player can do on the
//! game page or through the API, done by mail. RESIGN asks first (its answer's reply address
//! takes CONFIRM), ABORT votes, BACK ends an absence, AWAY starts or ends a vacation, MUTE and
//! UNMUTE this game's mail, SUBSCRIBE and UNSUBSCRIBE all game mail, TELL writes to one
//! player privately, HELP lists them all.
//!
//! A reply acts on the game of the mail it answers and on nothing else; a command that is not
//! about one game (AWAY, SUBSCRIBE, UNSUBSCRIBE) says what it changed in all of them. Each runs
//! inside the transaction that records the inbound message (the seat use cases in a savepoint,
//! so a refusal undoes their part and the answer still goes out).

use chrono::{DateTime, Duration, NaiveTime, Utc};

use super::inbound_verdicts::Verdict;
use super::seats;
use super::views::Vacation;
use super::{Result, ServiceError, Services, messages};
use crate::auth::reply::{Confirm, ReplyTicket};
use crate::notify::reply_text::{self, Away, Command};
use crate::notify::{Answer, Compose, Notice, Show};
use crate::store::clocks as store_clocks;
use crate::store::models::{Game, GameStatus, SeatPlayer, User};
use crate::store::{self, Conn};

/// A RESIGN's question may be answered for this many days after it was asked.
pub const CONFIRM_DAYS: i64 = 2;
/// The longest `AWAY <days>` (the yearly allowance caps it further).
const MAX_AWAY_DAYS: u32 = seats::VACATION_DAYS_PER_YEAR.unsigned_abs();

/// Every command, with one example each, as HELP lists them.
pub const HELP: &[(&str, &str)] = &[
    (
        "3",
        "plays your choice number 3 (or write the choice's notation, shown [in brackets], or its words)",
    ),
    (
        "move west (then end-move on the next line)",
        "several choices, one a line, played in order as one turn: after the first line, name each by its notation or words",
    ),
    (
        "ORDERS",
        "your standing orders in this game and those it offers (ORDERS <id> <id> sets them, an order that takes a list with the list after its id, as in ORDERS characters oracle queen; ORDERS OFF clears them; nobody else sees them)",
    ),
    ("STATUS", "this game again: the table and your choices"),
    ("HISTORY", "the game's log, as you may see it"),
    ("SAY Well played!", "writes to the whole table"),
    (
        "TELL Bea Shall we gang up on Cyril?",
        "writes to one player, privately",
    ),
    (
        "AWAY 3",
        "a vacation of 3 days from now, in all your games (the clocks stand still; AWAY UNTIL 2026-12-24 works too)",
    ),
    ("AWAY OFF", "ends your vacation now"),
    (
        "BACK",
        "plays your seat yourself again after the bot played it while you were absent",
    ),
    (
        "MUTE",
        "no more mail from this game (UNMUTE: its mail again)",
    ),
    (
        "UNSUBSCRIBE",
        "no more game mail at all (SUBSCRIBE: all game mail again; SUBSCRIBE TURNS: only the mail that asks for your decisions)",
    ),
    (
        "ABORT",
        "votes to abandon the game; it is abandoned when every player votes so",
    ),
    ("RESIGN", "leaves the game, after you CONFIRM it"),
    ("HELP", "this list"),
];

/// Whether [`run`] carries out `command` (the others are the inbound module's own).
pub fn handles(command: Command) -> bool {
    !matches!(command, Command::Status | Command::History)
}

/// An answer about the game of `ticket` to its seat.
fn answered(ticket: &ReplyTicket, verdict: &str, lines: Vec<String>, show: Show) -> Compose {
    Compose {
        answer: Some(Answer {
            verdict: verdict.to_owned(),
            lines,
            show,
            since: None,
            confirm: None,
            commands: true,
        }),
        ..Compose::notice(i32::from(ticket.seat), Notice::Answer)
    }
}

fn done(ticket: &ReplyTicket, verdict: &str, lines: Vec<String>) -> (Verdict, Compose) {
    (
        Verdict::Command,
        answered(ticket, verdict, lines, Show::None),
    )
}

fn refused(ticket: &ReplyTicket, verdict: &str, lines: Vec<String>) -> (Verdict, Compose) {
    (
        Verdict::Refused,
        answered(ticket, &format!("Refused: {verdict}"), lines, Show::None),
    )
}

/// A seat use case's refusal, in words for the answer; other errors go up.
fn refusal(ticket: &ReplyTicket, e: ServiceError) -> Result<(Verdict, Compose)> {
    match e {
        ServiceError::NotNow(why) | ServiceError::Invalid(why) => {
            Ok(refused(ticket, &why, vec!["Nothing was changed.".into()]))
        }
        ServiceError::WrongStatus(status) => Ok(refused(
            ticket,
            &format!("the game is {status}"),
            vec!["Nothing was changed.".into()],
        )),
        ServiceError::NotAPlayer => Ok(refused(
            ticket,
            "you no longer hold this seat",
            vec!["Nothing was changed.".into()],
        )),
        e => Err(e),
    }
}

fn day_of(at: DateTime<Utc>) -> String {
    at.format("%a %-d %b %Y, %H:%M UTC").to_string()
}

/// Carries out `command` from `user`, the holder of `ticket`'s seat; `text` is the reply's
/// new text (TELL reads its name and message there).
pub async fn run(
    svc: &Services,
    conn: &mut Conn,
    user: &User,
    command: Command,
    ticket: &ReplyTicket,
    text: &str,
) -> Result<(Verdict, Compose)> {
    match command {
        Command::Help => help(svc, conn, ticket).await,
        Command::Resign => ask_resign(conn, ticket).await,
        Command::Confirm => confirm(svc, conn, user, ticket).await,
        Command::Abort => match seats::abort_in(svc, conn, user.id, ticket.game).await {
            Ok(view) if view.status == GameStatus::Abandoned.as_str() => Ok(done(
                ticket,
                "Voted to abort: the game is abandoned",
                vec!["Every player still in the game voted to abort, so it ends here.".into()],
            )),
            Ok(_) => Ok(done(
                ticket,
                "Voted to abort",
                vec![
                    "The game is abandoned when every player still in it has voted to abort; \
                     until then it goes on, and your seat is yours to play."
                        .into(),
                ],
            )),
            Err(e) => refusal(ticket, e),
        },
        Command::Back => match seats::back_in(svc, conn, user.id, ticket.game).await {
            Ok(_) => Ok((
                Verdict::Command,
                answered(
                    ticket,
                    "Back: you play your seat again",
                    vec![
                        "The bot no longer plays for you in this game: its next decision for \
                         your seat is yours, by mail or on the page."
                            .into(),
                    ],
                    Show::Status,
                ),
            )),
            Err(e) => refusal(ticket, e),
        },
        Command::Away(away) => go_away(svc, conn, user, ticket, away).await,
        Command::Mute | Command::Unmute => {
            let mute = command == Command::Mute;
            let changed =
                store::mutes::set(conn, ticket.game, user.id, mute, svc.clock.now()).await?;
            let (verdict, line) = match (mute, changed) {
                (true, true) => (
                    "Muted: no more mail from this game",
                    "You will get no mail from this game but the answers to your own \
                     replies; its deadlines still run. Reply UNMUTE to a mail of this game to \
                     have its mail again. Your other games are not changed.",
                ),
                (true, false) => (
                    "This game was muted already",
                    "Reply UNMUTE to a mail of this game to have its mail again.",
                ),
                (false, true) => (
                    "Unmuted: this game's mail comes again",
                    "Your other games are not changed.",
                ),
                (false, false) => (
                    "This game was not muted",
                    "Its mail comes as your preference says.",
                ),
            };
            Ok(done(ticket, verdict, vec![line.into()]))
        }
        Command::Subscribe | Command::Unsubscribe => {
            let only_turns = command == Command::Subscribe && subscribes_to_turns(text);
            let (preference, verdict, line) = if only_turns {
                (
                    "turns",
                    "Subscribed: turn mail only, in all your games",
                    "You will get a mail when it is your turn to decide, in all your games, and \
                     no other game mail (reply SUBSCRIBE for all of it).",
                )
            } else if command == Command::Subscribe {
                (
                    "all",
                    "Subscribed: all game mail, in all your games",
                    "You will get every game mail again (turns, table talk, the end of each \
                     game) in all your games. To get fewer, choose on your settings page; to \
                     quiet one game, reply MUTE to its mail.",
                )
            } else {
                (
                    "none",
                    "Unsubscribed: no more game mail, in all your games",
                    "You will get no more game mail in any of your games (only the answers to \
                     your own replies). Your games go on: play them on their pages. To have the \
                     mail again, reply SUBSCRIBE to any game mail; to quiet one game only, \
                     reply MUTE to its mail instead.",
                )
            };
            store::users::set_preference(conn, user.id, preference).await?;
            Ok(done(ticket, verdict, vec![line.into()]))
        }
        Command::Tell => tell(svc, conn, user, ticket, text).await,
        Command::Status | Command::History => Ok(refused(
            ticket,
            "not a seat command",
            vec!["Reply HELP for the commands.".into()],
        )),
    }
}

/// Whether the SUBSCRIBE line of `text` asks for turn mail only (`SUBSCRIBE TURNS`).
fn subscribes_to_turns(text: &str) -> bool {
    let line = text.trim_start().lines().next().unwrap_or("");
    let mut words = line.split_whitespace();
    words.next();
    words
        .next()
        .is_some_and(|w| w.trim_end_matches(['.', '!']).eq_ignore_ascii_case("turns"))
}

/// HELP: every command with an example, and what the game is about.
async fn help(svc: &Services, conn: &mut Conn, ticket: &ReplyTicket) -> Result<(Verdict, Compose)> {
    let game = store::games::get(conn, ticket.game)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    let mut lines = vec![
        "Write one of these on the first line of your reply to a mail of this game (in any \
         case); everything below it is ignored. A reply acts on this game only."
            .to_owned(),
    ];
    lines.extend(
        HELP.iter()
            .map(|(example, what)| format!("  {example}: {what}")),
    );
    let name = svc
        .rules
        .get(&game.ruleset)
        .map_or(game.ruleset.as_str(), |r| r.name());
    let summary = super::invitation_words::ruleset_summary(&game.ruleset);
    if !summary.is_empty() {
        lines.push(String::new());
        lines.push(format!("{name}: {summary}"));
    }
    Ok((
        Verdict::Command,
        Compose {
            answer: Some(Answer {
                verdict: "Help".into(),
                lines,
                show: Show::Status,
                since: Some(i64::from(ticket.version)),
                confirm: None,
                commands: true,
            }),
            ..Compose::notice(i32::from(ticket.seat), Notice::Answer)
        },
    ))
}

/// The seat's standing in an active game: whether it may still resign.
async fn ask_resign(conn: &mut Conn, ticket: &ReplyTicket) -> Result<(Verdict, Compose)> {
    let game = store::games::get(conn, ticket.game)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    if game.status() != GameStatus::Active {
        return Ok(refused(
            ticket,
            &format!("the game is {}", game.status),
            vec!["There is nothing to resign from.".into()],
        ));
    }
    let seats = store_clocks::seat_clocks(conn, game.id).await?;
    let seat = i32::from(ticket.seat);
    if seats
        .iter()
        .any(|s| s.seat == seat && s.resigned_at.is_some())
    {
        return Ok(refused(
            ticket,
            "you have already resigned from this game",
            vec![],
        ));
    }
    let then = if game.seat_count == 2 {
        "the other player wins"
    } else {
        "the bot plays your seat to the end of the game"
    };
    let mut compose = answered(
        ticket,
        "Do you really want to resign?",
        vec![
            format!(
                "To resign from this game, reply CONFIRM to this mail within {CONFIRM_DAYS} \
                 days: then {then}."
            ),
            "Any other answer, or none, keeps you in the game.".into(),
        ],
        Show::None,
    );
    if let Some(a) = compose.answer.as_mut() {
        a.confirm = Some(Confirm::Resign);
    }
    Ok((Verdict::Command, compose))
}

/// CONFIRM: does what the answered mail asked, if it asked and is recent enough.
async fn confirm(
    svc: &Services,
    conn: &mut Conn,
    user: &User,
    ticket: &ReplyTicket,
) -> Result<(Verdict, Compose)> {
    match ticket.confirm {
        None => Ok(refused(
            ticket,
            "nothing to confirm",
            vec![
                "CONFIRM answers a question, such as the one RESIGN asks: reply RESIGN first, \
                 then CONFIRM to its answer."
                    .into(),
            ],
        )),
        Some(Confirm::Resign) if ticket.age_days(chrono::Utc::now()) > CONFIRM_DAYS => Ok(refused(
            ticket,
            "that question is too old",
            vec![format!(
                "A RESIGN is confirmed within {CONFIRM_DAYS} days. You are still in the game: \
                 reply RESIGN again if you mean it."
            )],
        )),
        Some(Confirm::Resign) => match seats::resign_in(svc, conn, user.id, ticket.game).await {
            Ok(view) => {
                let line = if view.status == GameStatus::Finished.as_str() {
                    "The game is over: the other player wins."
                } else {
                    "The bot plays your seat to the end of the game. You can still read the \
                     table talk and the game's page."
                };
                Ok(done(ticket, "Resigned", vec![line.into()]))
            }
            Err(e) => refusal(ticket, e),
        },
    }
}

/// AWAY: a vacation from now, for all the player's games, or its end.
async fn go_away(
    svc: &Services,
    conn: &mut Conn,
    user: &User,
    ticket: &ReplyTicket,
    away: Away,
) -> Result<(Verdict, Compose)> {
    let now = svc.clock.now();
    let until = match away {
        Away::Unreadable => {
            return Ok(refused(
                ticket,
                "AWAY needs a number of days or a date",
                vec![
                    "Write AWAY 3 (3 days from now), AWAY UNTIL 2026-12-24 (until that day \
                     begins, UTC) or AWAY OFF (back now)."
                        .into(),
                ],
            ));
        }
        Away::Off => {
            let away_now = store_clocks::vacation(conn, user.id)
                .await?
                .and_then(|(from, until, _, _)| from.zip(until))
                .is_some_and(|(from, until)| from <= now && now < until);
            if !away_now {
                return Ok(refused(
                    ticket,
                    "you are not away",
                    vec!["You have no vacation now, so nothing was changed.".into()],
                ));
            }
            return match seats::set_vacation_in(svc, conn, user.id, None).await {
                Ok(view) => Ok(done(
                    ticket,
                    "Welcome back: your vacation is over, in all your games",
                    vec![format!(
                        "Your clocks run again in all your games from now. Vacation days left \
                         this year: {}.",
                        view.days_left
                    )],
                )),
                Err(e) => refusal(ticket, e),
            };
        }
        Away::Days(0) => {
            return Ok(refused(
                ticket,
                "a vacation lasts at least a day",
                vec!["Write AWAY 1 or more; AWAY OFF ends a vacation.".into()],
            ));
        }
        Away::Days(n) if n > MAX_AWAY_DAYS => {
            return Ok(refused(
                ticket,
                &format!("at most {MAX_AWAY_DAYS} days a year"),
                vec!["Nothing was changed.".into()],
            ));
        }
        Away::Days(n) => now + Duration::days(i64::from(n)),
        Away::Until(date) => date.and_time(NaiveTime::MIN).and_utc(),
    };
    let wanted = Vacation { from: now, until };
    match seats::set_vacation_in(svc, conn, user.id, Some(wanted)).await {
        Ok(view) => Ok(done(
            ticket,
            &format!("Away until {}, in all your games", day_of(until)),
            vec![
                "Your clocks stand still in all your games until then: no default move is \
                 played for you, and your deadlines move by the time you are away."
                    .into(),
                format!(
                    "Vacation days left this year: {}. Reply AWAY OFF when you are back early.",
                    view.days_left
                ),
            ],
        )),
        Err(e) => refusal(ticket, e),
    }
}

/// The seat of the player a TELL names at the start of `rest`, and the message after it: the
/// longest display name that starts it (a name of several words too), else the one player
/// whose name's first word it starts with.
fn addressee<'a>(
    players: &'a [SeatPlayer],
    me: i32,
    rest: &'a str,
) -> std::result::Result<(&'a SeatPlayer, &'a str), String> {
    let others: Vec<&SeatPlayer> = players.iter().filter(|p| p.seat != me).collect();
    let lower = rest.to_lowercase();
    let ends_name = |after: &str| after.chars().next().is_none_or(|c| !c.is_alphanumeric());
    let whole = others
        .iter()
        .filter(|p| {
            let name = p.display_name.to_lowercase();
            !name.is_empty()
                && lower.starts_with(&name)
                && lower.get(name.len()..).is_some_and(ends_name)
        })
        .max_by_key(|p| p.display_name.len());
    if let Some(p) = whole {
        let cut = p.display_name.to_lowercase().len();
        return Ok((p, rest.get(cut..).unwrap_or("")));
    }
    let first = rest.split_whitespace().next().unwrap_or("");
    let word = reply_text::normalise(first);
    let matching: Vec<&&SeatPlayer> = others
        .iter()
        .filter(|p| {
            !word.is_empty()
                && reply_text::normalise(&p.display_name)
                    .split(' ')
                    .next()
                    .is_some_and(|w| w == word)
        })
        .collect();
    let names = || {
        others
            .iter()
            .map(|p| p.display_name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match matching.as_slice() {
        [p] => Ok((p, rest.trim_start().get(first.len()..).unwrap_or(""))),
        [] => Err(format!(
            "\"{}\" is not a player of this game; the others are: {}.",
            first.chars().take(40).collect::<String>(),
            names()
        )),
        _ => Err(format!(
            "\"{}\" names several players: write the whole name ({}).",
            first.chars().take(40).collect::<String>(),
            names()
        )),
    }
}

/// TELL <player> <text>: a private message to one player of this game.
async fn tell(
    svc: &Services,
    conn: &mut Conn,
    user: &User,
    ticket: &ReplyTicket,
    text: &str,
) -> Result<(Verdict, Compose)> {
    let text = text.trim_start();
    let rest = text
        .get(4..)
        .filter(|_| {
            text.get(..4)
                .is_some_and(|h| h.eq_ignore_ascii_case("tell"))
        })
        .unwrap_or("")
        .trim_start_matches(':')
        .trim_start();
    let Some((game, players)) = store::games::get_with_players(conn, ticket.game).await? else {
        return Err(ServiceError::NotFound("game"));
    };
    let me = i32::from(ticket.seat);
    let (to, message) = match addressee(&players, me, rest) {
        Ok(found) => found,
        Err(why) => return Ok(refused(ticket, "whom to tell?", vec![why])),
    };
    let body = match messages::clean_body(message.trim_start_matches([':', ',']).trim()) {
        Ok(b) => b,
        Err(e) => {
            return Ok(refused(
                ticket,
                "nothing to send",
                vec![format!(
                    "Write the message after the name: TELL {} <text>. ({e}.)",
                    to.display_name
                )],
            ));
        }
    };
    let sent = format!("Sent privately to {}", to.display_name);
    match messages::post_in(svc, conn, user.id, game.id, Some(i64::from(to.seat)), &body).await {
        Ok(_) => Ok((Verdict::Posted, answered(ticket, &sent, vec![], Show::None))),
        Err(ServiceError::RateLimited { detail, .. }) => Ok(refused(
            ticket,
            "too many messages",
            vec![format!("Not sent: {detail}.")],
        )),
        Err(e) => refusal(ticket, e),
    }
}

/// Why a seat's reply was not played when the game does not wait for it: what will come
/// instead (no promise of a mail that will not come).
pub async fn not_your_decision(conn: &mut Conn, game: &Game, seat: i32) -> Result<Vec<String>> {
    if !game.robots.contains(&seat) {
        return Ok(vec![
            "Your reply was not played; you will get a mail when it is your turn.".into(),
        ]);
    }
    let seats = store_clocks::seat_clocks(conn, game.id).await?;
    let clock = seats.iter().find(|s| s.seat == seat);
    Ok(vec![match clock {
        Some(s) if s.resigned_at.is_some() => {
            "Your reply was not played: you resigned, and the bot plays your seat to the end \
             of the game."
                .into()
        }
        Some(s) if s.absent_since.is_some() => {
            "Your reply was not played: you are marked absent, and the bot plays your seat. \
             Reply BACK to play it yourself again; your next turn then comes by mail."
                .into()
        }
        _ => "Your reply was not played: the bot plays this seat.".into(),
    }])
}

#[cfg(test)]
mod tests {
    use super::*;
    use uuid::Uuid;

    fn player(seat: i32, name: &str) -> SeatPlayer {
        SeatPlayer {
            seat,
            user_id: Uuid::new_v4(),
            display_name: name.into(),
            vacation: None,
            orders: vec![],
        }
    }

    #[test]
    fn subscribe_turns_asks_for_turn_mail_only() {
        assert!(subscribes_to_turns("SUBSCRIBE TURNS"));
        assert!(subscribes_to_turns("  subscribe turns.\r\n\r\n> quoted"));
        assert!(!subscribes_to_turns("SUBSCRIBE"));
        assert!(!subscribes_to_turns("SUBSCRIBE\nturns"));
        assert!(!subscribes_to_turns("SUBSCRIBE ALL"));
    }

    #[test]
    fn tell_finds_the_player_by_name_or_first_name() {
        let players = [
            player(0, "Alma"),
            player(1, "Bea Lin"),
            player(2, "Bea"),
            player(3, "Cyril"),
        ];
        let to =
            |rest: &str| addressee(&players, 0, rest).map(|(p, m)| (p.seat, m.trim().to_owned()));
        assert_eq!(to("Cyril: hello"), Ok((3, ": hello".into())));
        assert_eq!(to("cyril hello there"), Ok((3, "hello there".into())));
        // The longest whole name wins.
        assert_eq!(to("Bea Lin psst"), Ok((1, "psst".into())));
        assert_eq!(to("Bea psst"), Ok((2, "psst".into())));
        // Not oneself, not a stranger.
        assert!(to("Alma hi").is_err());
        assert!(to("Dora hi").is_err());
        // A name is a whole word.
        assert!(to("Cyrils hi").is_err());
    }
}
