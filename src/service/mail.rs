//! Composing mail into the outbox, inside the transaction of the change that causes it.
//! Game mail goes only to verified addresses whose preference wants it; each message shows
//! only the recipient's own view.

use chrono::Utc;
use futures_util::future::BoxFuture;
use serde_json::{Value, json};
use uuid::Uuid;

use super::game_views::{event_view, seat_of, viewer_of};
use super::{Result, ServiceError, Services};
use crate::auth::jwt::Purpose;
use crate::auth::reply::{self, ReplyTicket, TalkTo, choices_fingerprint};
use crate::notify::{self, Compose, Composed, Mail, Notice, Payload, Show, templates};
use crate::rules::{ChoiceGroup, GameState, LegalAction, Viewer, present};
use crate::store;
use crate::store::models::{Event, Game, GameStatus, NewOutbox, OutboxRow, SeatPlayer, User};

/// Where links in mail point, who mail is from and where answers go.
#[derive(Clone, Debug)]
pub struct MailConfig {
    pub base_url: String,
    pub from: String,
    pub link_ttl_secs: i64,
    /// The reply address (`local@domain`); turn mail answers go to `local+<token>@domain`.
    pub reply_to: String,
}

/// Unsubscribe links stay good for a year: mail is read long after it is sent.
const UNSUBSCRIBE_TTL_SECS: i64 = 365 * 24 * 3600;
/// How long the sign-in link in a game mail stays good (a fresh mail brings a fresh link).
pub const GAME_LINK_TTL_SECS: i64 = 72 * 3600;
/// How long the link of a "mail me a sign-in link" mail stays good.
pub const SIGN_IN_MAIL_TTL_SECS: i64 = 3600;
/// At most one sign-in mail per account in this many seconds.
pub const SIGN_IN_MAIL_EVERY_SECS: i64 = 60;

/// The human name of a game's ruleset (its id if it is no longer hosted).
pub(super) fn game_name<'a>(svc: &'a Services, game: &'a Game) -> &'a str {
    svc.rules
        .get(&game.ruleset)
        .map(|g| g.name())
        .unwrap_or(game.ruleset.as_str())
}

pub(super) fn short(id: Uuid) -> String {
    id.simple().to_string().chars().take(8).collect()
}

pub(super) fn outbox_row(
    svc: &Services,
    game: Option<Uuid>,
    user: Option<Uuid>,
    kind: &str,
    mail: Mail,
) -> Result<NewOutbox> {
    Ok(NewOutbox {
        game_id: game,
        user_id: user,
        kind: kind.into(),
        to_address: mail.to.clone(),
        message_id: notify::message_id(
            &format!("turnpost.{}", Uuid::new_v4().simple()),
            &svc.mail.from,
        ),
        payload: serde_json::to_value(&mail).map_err(anyhow::Error::from)?,
    })
}

fn unsubscribe_url(svc: &Services, user: Uuid) -> Result<String> {
    let (token, _) = svc.jwt.sign(
        Purpose::Unsubscribe,
        user,
        None,
        Utc::now(),
        UNSUBSCRIBE_TTL_SECS,
    )?;
    Ok(format!(
        "{}/v1/unsubscribe?token={token}",
        svc.mail.base_url
    ))
}

/// A link that signs `user` in to the web pages and opens `path` (a path of this site),
/// good for `ttl_secs`; and when it expires.
pub fn sign_in_url(
    svc: &Services,
    user: Uuid,
    path: &str,
    ttl_secs: i64,
) -> Result<(String, chrono::DateTime<Utc>)> {
    let (token, expires_at) = svc
        .jwt
        .sign(Purpose::SignIn, user, None, Utc::now(), ttl_secs)?;
    let sep = if path.contains('?') { '&' } else { '?' };
    Ok((
        format!("{}{path}{sep}signin={token}", svc.mail.base_url),
        expires_at,
    ))
}

/// The game's thread root: every mail of a game refers to it.
pub(super) fn thread_id(svc: &Services, game: Uuid) -> String {
    notify::message_id(&format!("turnpost.game.{}", game.simple()), &svc.mail.from)
}

/// Outbox rows for `notices` (seat, what to say) in `game`: small rows that the worker
/// composes when it sends them ([`compose`]), so the submission's transaction writes a few
/// bytes per mail, and the mail shows the table as it is when it goes out. A turn mail whose
/// wait is over by then, or whose version the player was already sent (the start mail shows
/// the first decision), is skipped.
pub fn game_mail(
    svc: &Services,
    game: &Game,
    players: &[SeatPlayer],
    users: &[User],
    notices: &[(i32, Compose)],
) -> Result<Vec<NewOutbox>> {
    let mut rows = vec![];
    for (seat, compose) in notices {
        let seat = *seat;
        let Some(player) = players.iter().find(|p| p.seat == seat) else {
            continue;
        };
        let Some(user) = users.iter().find(|u| u.id == player.user_id) else {
            continue;
        };
        let kind = compose.notice.kind();
        if !receives(user, kind) {
            continue;
        }
        rows.push(NewOutbox {
            game_id: Some(game.id),
            user_id: Some(user.id),
            kind: kind.into(),
            to_address: user.email.clone(),
            message_id: notify::message_id(
                &format!("turnpost.{}", Uuid::new_v4().simple()),
                &svc.mail.from,
            ),
            payload: serde_json::to_value(Payload::Compose {
                compose: compose.clone(),
            })
            .map_err(anyhow::Error::from)?,
        });
    }
    Ok(rows)
}

/// The latest entries shown under "since your last mail"; older ones are counted.
const SINCE_ENTRIES: i64 = 40;
/// The log in a HISTORY answer stays under this, leaving room for the rest and the HTML part.
const HISTORY_BYTES: usize = 40_000;

/// Composes the game mail of an outbox row from the game as it is now.
pub async fn compose(svc: &Services, row: &OutboxRow, compose: &Compose) -> Result<Composed> {
    let (Some(game_id), Some(user_id)) = (row.game_id, row.user_id) else {
        return Ok(Composed::Skip(
            "a game mail without a game or a recipient".into(),
        ));
    };
    let mut conn = svc.conn().await?;
    let Some((game, players)) = store::games::get_with_players(&mut conn, game_id).await? else {
        return Ok(Composed::Skip("the game is gone".into()));
    };
    let Some(user) = store::users::by_id(&mut conn, user_id).await? else {
        return Ok(Composed::Skip("the account is gone".into()));
    };
    let seat = compose.seat;
    // A taken-over seat's notice goes to the player who left it, and shows nothing of it.
    let left = compose.notice == Notice::TakenOver;
    if seat_of(&players, user.id) != Some(seat) && !left {
        return Ok(Composed::Skip("the seat is no longer this player's".into()));
    }
    if compose.notice != Notice::Answer
        && store::mutes::is_muted(&mut conn, game.id, user.id).await?
    {
        return Ok(Composed::Skip("the player muted this game".into()));
    }
    let talk = match (compose.notice, compose.message) {
        (Notice::Message, Some(id)) => match store::messages::get(&mut conn, game.id, id).await? {
            // Never to its sender, and a private message only to the account it was sent to.
            Some((m, from)) if m.visible_to(user.id) && m.from_user != user.id => Some(TalkLine {
                from,
                from_seat: m.from_seat,
                private: m.to_seat.is_some(),
                body: m.body,
            }),
            _ => return Ok(Composed::Skip("the message is not this player's".into())),
        },
        (Notice::Message, None) => {
            return Ok(Composed::Skip("a message mail without its message".into()));
        }
        _ => None,
    };
    // Talk (and answers to it) may come before the game starts: then there is no table.
    let state = match &game.state {
        _ if left => None,
        Some(snapshot) => Some(svc.load_state(&game, snapshot)?),
        None if talk.is_some() || compose.notice == Notice::Answer => None,
        None => return Ok(Composed::Skip("the game has not started".into())),
    };
    let waiting = game.status() == GameStatus::Active && game.to_act.contains(&seat);
    let shown = store::inbound::shown(&mut conn, game.id, user.id)
        .await?
        .unwrap_or(0);
    if compose.notice == Notice::Reminder && !waiting {
        return Ok(Composed::Skip("the seat is no longer waiting".into()));
    }
    if compose.notice == Notice::YourTurn {
        if !waiting {
            return Ok(Composed::Skip("the seat is no longer waiting".into()));
        }
        if shown >= game.version {
            return Ok(Composed::Skip("this version was already mailed".into()));
        }
    }
    let rules = svc
        .rules
        .get(&game.ruleset)
        .ok_or_else(|| ServiceError::UnknownRuleset(game.ruleset.clone()))?;
    let names = names_by_seat(&game, &players);
    let viewer = viewer_of(&game, Some(seat));
    let show = compose.answer.as_ref().map_or(Show::Status, |a| a.show);
    let since = compose
        .answer
        .as_ref()
        .and_then(|a| a.since)
        .unwrap_or(shown);
    // Table talk shows the message and the table, not what happened since the last mail: it
    // does not stand for a turn mail (which is still sent, and says it).
    let (entries, total) = if talk.is_some() || left {
        (vec![], 0)
    } else {
        store::events::latest_after(&mut conn, game.id, since, SINCE_ENTRIES).await?
    };
    let since_lines: Vec<String> = entries
        .iter()
        .map(|e| present::name_seats(&event_view(e, viewer).description, &names))
        .collect();
    let deadline = if game.clock.is_some() {
        store::clocks::deadlines_of(&mut conn, game.id)
            .await?
            .into_iter()
            .find(|d| d.seat == seat)
            .map(|d| d.due_at)
    } else {
        None
    };
    let absent = game.robots.contains(&seat)
        && store::clocks::seat_clocks(&mut conn, game.id)
            .await?
            .iter()
            .any(|s| s.seat == seat && s.absent_since.is_some());
    let history = if show == Show::History && !left {
        let all = store::events::all(&mut conn, game.id).await?;
        Some(history_lines(&all, viewer, &names))
    } else {
        None
    };
    drop(conn);

    let unsubscribe = unsubscribe_url(svc, user.id)?;
    let (game_url, _) = sign_in_url(
        svc,
        user.id,
        &format!("/games/{}", game.id),
        GAME_LINK_TTL_SECS,
    )?;
    let letter = Letter {
        notice: compose.notice,
        answer: compose.answer.as_ref(),
        recipient: &user.display_name,
        to: &user.email,
        seat,
        game: &game,
        game_name: rules.name(),
        players: &players,
        names: &names,
        state: state.as_deref(),
        talk,
        since: since_lines,
        since_more: (total - entries.len() as i64).max(0),
        history,
        base_url: &svc.mail.base_url,
        game_url: &game_url,
        unsubscribe_url: &unsubscribe,
        thread: thread_id(svc, game.id),
        deadline,
        pictures: user.mail_pictures,
        absent,
    };
    let mail = letter
        .write(|ticket| reply::address(&svc.mail.reply_to, &svc.replies.sign(user.id, &ticket)))?;
    // A table-talk mail shows the table but is not the mail that showed this version.
    let shows_turn = show != Show::None && compose.notice != Notice::Message;
    let shown = shows_turn.then_some((game.id, user.id, game.version));
    Ok(Composed::Mail { mail, shown })
}

/// A table-talk message as the mail relaying it shows it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TalkLine {
    /// The sender's display name.
    pub from: String,
    pub from_seat: i32,
    /// Written to the recipient alone (else to the whole table).
    pub private: bool,
    pub body: String,
}

/// Everything a game mail says, gathered: [`Letter::write`] turns it into a message without
/// touching the database (so mail sizes can be measured on random games in a unit test).
pub struct Letter<'a> {
    pub notice: Notice,
    pub answer: Option<&'a notify::Answer>,
    pub recipient: &'a str,
    pub to: &'a str,
    pub seat: i32,
    pub game: &'a Game,
    pub game_name: &'a str,
    pub players: &'a [SeatPlayer],
    pub names: &'a [String],
    /// The rules state (`None` before the game starts: only talk is mailed then).
    pub state: Option<&'a dyn GameState>,
    /// For [`Notice::Message`]: the message relayed.
    pub talk: Option<TalkLine>,
    /// "Since your last mail", described for the recipient.
    pub since: Vec<String>,
    /// Earlier entries not shown.
    pub since_more: i64,
    /// The log, for a HISTORY answer.
    pub history: Option<Vec<String>>,
    pub base_url: &'a str,
    /// The game's page, through a link that signs the recipient in.
    pub game_url: &'a str,
    pub unsubscribe_url: &'a str,
    pub thread: String,
    /// The recipient's deadline for the decision, in a game with a clock.
    pub deadline: Option<chrono::DateTime<Utc>>,
    /// Whether the HTML part shows the board as a picture (the recipient's setting).
    pub pictures: bool,
    /// Whether the recipient is marked absent in this game (the bot plays their seat until
    /// they reply BACK).
    pub absent: bool,
}

/// The grouped choices as the templates show them: each with its number, its words and its
/// notation (the short text a reply may give instead).
fn with_notation(groups: &[ChoiceGroup], legal: &[LegalAction]) -> Value {
    Value::Array(
        groups
            .iter()
            .map(|g| {
                json!({
                    "title": g.title,
                    "choices": g.choices.iter().map(|c| json!({
                        "number": c.number,
                        "label": c.label,
                        "notation": c.number.checked_sub(1).and_then(|i| legal.get(i)).map(|a| a.notation.as_str()),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

impl Letter<'_> {
    /// The mail; `reply_address` signs the reply address for the choices it shows.
    pub fn write(&self, reply_address: impl FnOnce(ReplyTicket) -> String) -> Result<Mail> {
        let game = self.game;
        let seat = self.seat;
        let finished = game.status() == GameStatus::Finished;
        let waiting = game.status() == GameStatus::Active && game.to_act.contains(&seat);
        let viewer = viewer_of(game, Some(seat));
        let show = self.answer.map_or(Show::Status, |a| a.show);
        let presented = self.state.map(|s| s.present(viewer, self.names));
        let picture = self
            .state
            .filter(|_| self.pictures)
            .and_then(|s| s.picture(viewer, self.names));
        let talking = matches!(game.status(), GameStatus::Open | GameStatus::Active);
        let active = game.status() == GameStatus::Active;
        let confirm = self.answer.and_then(|a| a.confirm).filter(|_| active);
        // Mail that names a command takes it by reply, even when it shows no choices; so does
        // the mail that starts a game, for the players who do not act first (one address, many
        // games: a reply to any mail of a game acts on that game).
        let commands = self.answer.is_some_and(|a| a.commands)
            || matches!(
                self.notice,
                Notice::TimedOut | Notice::Absent | Notice::GameStarted
            );
        let (reply_to, choices) = match (usize::try_from(seat), self.state, &self.talk, confirm) {
            (Ok(s), _, None, Some(what)) => {
                let ticket = ReplyTicket::confirm(game.id, s, game.version, what, Utc::now());
                (Some(reply_address(ticket)), Value::Array(vec![]))
            }
            // A reply to table talk posts a message: back to the sender of a private one.
            (Ok(s), _, Some(talk), _) if talking => {
                let to = match (talk.private, u8::try_from(talk.from_seat)) {
                    (true, Ok(from)) => TalkTo::Seat(from),
                    _ => TalkTo::Table,
                };
                let ticket = ReplyTicket::talk(game.id, s, game.version, to, Utc::now());
                (Some(reply_address(ticket)), Value::Array(vec![]))
            }
            (Ok(s), Some(state), None, _) if waiting && show != Show::None => {
                let (legal, groups) = state.choices(s, self.names);
                let ticket = ReplyTicket::new(
                    game.id,
                    s,
                    game.version,
                    choices_fingerprint(legal.iter().map(|a| &a.action)),
                    Utc::now(),
                );
                (Some(reply_address(ticket)), with_notation(&groups, &legal))
            }
            (Ok(s), _, None, _) if commands && active && self.notice != Notice::TakenOver => {
                let none: [serde_json::Value; 0] = [];
                let ticket = ReplyTicket::new(
                    game.id,
                    s,
                    game.version,
                    choices_fingerprint(none.iter()),
                    Utc::now(),
                );
                (Some(reply_address(ticket)), Value::Array(vec![]))
            }
            _ => (None, Value::Array(vec![])),
        };
        let waiting_for: Vec<String> = game
            .to_act
            .iter()
            .filter(|s| **s != seat)
            .map(|s| name_of(self.names, *s))
            .collect();
        let outcome = super::game_views::outcome_view(&game.outcome);
        let (game_name, short_id) = (self.game_name, short(game.id));
        let subject = match (self.notice, self.answer) {
            (Notice::Answer, Some(a)) => format!("{game_name} {short_id}: {}", a.verdict),
            (Notice::GameStarted, _) => format!("{game_name} {short_id}: the game has started"),
            (Notice::GameOver, _) if game.status() == GameStatus::Abandoned => {
                format!("{game_name} {short_id}: the game is abandoned")
            }
            (Notice::GameOver, _) => format!("{game_name} {short_id}: game over"),
            (Notice::TimedOut, _) => format!(
                "{game_name} {short_id}: your time ran out, {}",
                self.recipient
            ),
            (Notice::Absent, _) => format!(
                "{game_name} {short_id}: the bot plays for you, {}",
                self.recipient
            ),
            (Notice::TakenOver, _) => {
                format!("{game_name} {short_id}: someone took over your seat")
            }
            (Notice::Reminder, _) => format!(
                "{game_name} {short_id}: reminder, your turn, {}",
                self.recipient
            ),
            (Notice::Message, _) => match &self.talk {
                Some(t) if t.private => {
                    format!("{game_name} {short_id}: {} writes to you privately", t.from)
                }
                Some(t) => format!("{game_name} {short_id}: {} writes to the table", t.from),
                None => format!("{game_name} {short_id}: table talk"),
            },
            _ => format!("{game_name} {short_id}: your turn, {}", self.recipient),
        };
        let base = self.base_url;
        let ctx = json!({
            "kind": self.notice.kind(),
            "recipient": self.recipient,
            "game_name": game_name,
            "short_id": short_id,
            "game_id": game.id,
            "version": game.version,
            "base_url": base,
            "game_url": self.game_url,
            "log_url": format!("{base}/games/{}/log", game.id),
            "subject": subject,
            "seed_sha256": game.seed_sha256,
            "answer": self.answer,
            "show": show,
            "presented": presented,
            "talk": self.talk,
            "since": self.since,
            "since_more": self.since_more,
            "choices": choices,
            "reply": reply_to.is_some(),
            "waiting_for": waiting_for,
            "deadline": self.deadline.filter(|_| waiting).map(|d| d.format("%a %-d %b %Y, %H:%M UTC").to_string()),
            "waiting": waiting,
            "finished": finished,
            "abandoned": game.status() == GameStatus::Abandoned,
            "robot": active && game.robots.contains(&seat),
            "absent": self.absent,
            "players": self.players
                .iter()
                .map(|p| json!({"seat": p.seat, "name": p.display_name}))
                .collect::<Vec<_>>(),
            "summary": outcome.as_ref().map(|o| present::name_seats(&o.summary, self.names)),
            "winners": outcome
                .map(|o| o.winners.into_iter().map(|w| name_of(self.names, w)).collect::<Vec<_>>())
                .unwrap_or_default(),
            "seed": finished.then(|| hex::encode(&game.seed)),
            "history": self.history,
            "commands": ["HELP", "STATUS", "HISTORY"],
            "unsubscribe_url": self.unsubscribe_url,
        });
        let (text, html) = templates::render("game", &ctx)?;
        let picture = picture
            .filter(|_| html.contains(PICTURE_SLOT))
            .and_then(|svg| notify::picture::mail_png(game.id, &svg));
        let html = match &picture {
            Some(_) => html.replacen(
                PICTURE_SLOT,
                &format!(
                    "<p><img src=\"cid:{}\" alt=\"{}\" style=\"max-width: 100%; height: auto\"></p>",
                    notify::transport::BOARD_CID,
                    crate::rules::picture::escape(
                        presented.as_ref().map_or(game_name, |p| p.headline.as_str())
                    )
                ),
                1,
            ),
            None => html.replacen(PICTURE_SLOT, "", 1),
        };
        Ok(Mail {
            to: self.to.to_owned(),
            subject,
            text,
            html,
            thread: Some(self.thread.clone()),
            unsubscribe: Some(self.unsubscribe_url.to_owned()),
            reply_to,
            picture,
        })
    }
}

/// Where the HTML part shows the board's PNG (replaced after rendering: the picture is left
/// out when it does not render or does not fit the mail's budget).
const PICTURE_SLOT: &str = "<!--board-picture-->";

/// The players' display names by seat ("" for an empty seat).
pub fn names_by_seat(game: &Game, players: &[SeatPlayer]) -> Vec<String> {
    (0..game.seat_count)
        .map(|s| {
            players
                .iter()
                .find(|p| p.seat == s)
                .map(|p| p.display_name.clone())
                .unwrap_or_default()
        })
        .collect()
}

fn name_of(names: &[String], seat: i32) -> String {
    usize::try_from(seat)
        .map(|s| present::seat_name(names, s))
        .unwrap_or_else(|_| format!("seat {seat}"))
}

/// The log as `viewer` may see it, one line per entry; the latest kept when it is long.
fn history_lines(events: &[Event], viewer: Viewer, names: &[String]) -> Vec<String> {
    let mut lines: Vec<String> = vec![];
    let mut size = 0;
    for e in events.iter().rev() {
        let line = format!(
            "{}. {}",
            e.seq,
            present::name_seats(&event_view(e, viewer).description, names)
        );
        size += line.len() + 1;
        if size > HISTORY_BYTES {
            lines.push(format!(
                "({} earlier entries: the whole log is in the API)",
                e.seq
            ));
            break;
        }
        lines.push(line);
    }
    lines.reverse();
    lines
}

/// The worker's composer: game mail from the services.
pub struct GameMail(pub Services);

impl notify::Composer for GameMail {
    fn compose<'a>(
        &'a self,
        row: &'a OutboxRow,
        c: &'a Compose,
    ) -> BoxFuture<'a, anyhow::Result<Composed>> {
        Box::pin(async move { compose(&self.0, row, c).await.map_err(anyhow::Error::from) })
    }

    fn stale<'a>(
        &'a self,
        rows: &'a [(&'a OutboxRow, &'a Compose)],
    ) -> BoxFuture<'a, anyhow::Result<Vec<(i64, String)>>> {
        Box::pin(async move { stale(&self.0, rows).await.map_err(anyhow::Error::from) })
    }
}

/// The turn mails of a claimed batch that [`compose`] would skip, found with two queries for
/// the whole batch: the seat is no longer waiting, the version was already mailed, or a later
/// turn mail to the same player about the same game is in the batch.
async fn stale(svc: &Services, rows: &[(&OutboxRow, &Compose)]) -> Result<Vec<(i64, String)>> {
    let turns: Vec<(&OutboxRow, &Compose, Uuid, Uuid)> = rows
        .iter()
        .filter(|(_, c)| c.notice == Notice::YourTurn)
        .filter_map(|(r, c)| Some((*r, *c, r.game_id?, r.user_id?)))
        .collect();
    if turns.is_empty() {
        return Ok(vec![]);
    }
    let mut ids: Vec<Uuid> = turns.iter().map(|t| t.2).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut conn = svc.conn().await?;
    let waits = store::games::waits(&mut conn, &ids).await?;
    let shown = store::inbound::shown_in(&mut conn, &ids).await?;
    drop(conn);
    let mut stale = vec![];
    for (row, c, game, user) in &turns {
        let Some((_, status, version, to_act)) = waits.iter().find(|w| w.0 == *game) else {
            continue; // compose says what became of the game
        };
        let later = turns
            .iter()
            .any(|t| t.2 == *game && t.3 == *user && t.0.id > row.id);
        let mailed = shown
            .iter()
            .find(|s| s.0 == *game && s.1 == *user)
            .is_some_and(|s| s.2 >= *version);
        let why =
            if GameStatus::parse(status) != Some(GameStatus::Active) || !to_act.contains(&c.seat) {
                "the seat is no longer waiting"
            } else if mailed {
                "this version was already mailed"
            } else if later {
                "a later turn mail to this player is queued"
            } else {
                continue;
            };
        stale.push((row.id, why.to_owned()));
    }
    Ok(stale)
}

/// Whether `user` gets game mail of `kind` now.
pub fn receives(user: &User, kind: &str) -> bool {
    user.email_verified_at.is_some() && notify::wants(&user.mail_preference, kind)
}

/// A mail about the account (no thread, no unsubscribe link, no reply address).
pub(super) fn account_mail(to: &str, subject: String, (text, html): (String, String)) -> Mail {
    Mail {
        to: to.to_owned(),
        subject,
        text,
        html,
        thread: None,
        unsubscribe: None,
        reply_to: None,
        picture: None,
    }
}

/// The address-verification mail for `user`.
pub fn verification_mail(svc: &Services, user: &User) -> Result<NewOutbox> {
    let (token, expires_at) = svc.jwt.sign(
        Purpose::VerifyEmail,
        user.id,
        Some(user.email.clone()),
        Utc::now(),
        svc.mail.link_ttl_secs,
    )?;
    let subject = "Confirm your address for Turnpost".to_owned();
    let ctx = json!({
        "recipient": user.display_name,
        // The page, which also signs the user in; the API's JSON route stays for programs.
        "verify_url": format!("{}/verify?token={token}", svc.mail.base_url),
        "expires_at": expires_at.to_rfc3339(),
        "base_url": svc.mail.base_url,
        "subject": subject,
    });
    let mail = account_mail(
        &user.email,
        subject,
        templates::render("verify_email", &ctx)?,
    );
    outbox_row(svc, None, Some(user.id), VERIFY_EMAIL_KIND, mail)
}

/// The outbox kind of the verification mail.
pub const VERIFY_EMAIL_KIND: &str = "verify_email";

/// The outbox kind of the mail with the link that creates the account.
pub const CONFIRM_KIND: &str = "confirm_registration";
/// The outbox kind of the mail to an address that has an account already.
pub const EXISTS_KIND: &str = "account_exists";

/// The mail of a registration of a free address: the link (its page has the button that
/// creates the account) and the token for programs.
pub fn registration_mail(
    svc: &Services,
    pending: &crate::store::models::PendingRegistration,
    token: &str,
) -> Result<NewOutbox> {
    let subject = "Confirm your Turnpost account".to_owned();
    let ctx = json!({
        "recipient": pending.display_name,
        "confirm_url": format!("{}/confirm?token={token}", svc.mail.base_url),
        "token": token,
        "expires_at": pending.expires_at.format("%Y-%m-%d %H:%M UTC").to_string(),
        "base_url": svc.mail.base_url,
        "subject": subject,
    });
    let mail = account_mail(
        &pending.email,
        subject,
        templates::render(CONFIRM_KIND, &ctx)?,
    );
    // No account yet: the row names none, and goes to the address that asked.
    outbox_row(svc, None, None, CONFIRM_KIND, mail)
}

/// The mail to an address that has an account already, when somebody registers with it:
/// what happened (nothing) and how to sign in.
pub fn account_exists_mail(svc: &Services, user: &User) -> Result<NewOutbox> {
    let subject = "You already have a Turnpost account".to_owned();
    let ctx = json!({
        "recipient": user.display_name,
        "email": user.email,
        "sign_in_url": format!("{}/signin", svc.mail.base_url),
        // An account made by an invitation signs in by mailed links until it has a password.
        "has_password": !user.password_hash.is_empty(),
        "base_url": svc.mail.base_url,
        "subject": subject,
    });
    let mail = account_mail(&user.email, subject, templates::render(EXISTS_KIND, &ctx)?);
    // Whatever the account's preferences or the address's state: it is about the address.
    outbox_row(svc, None, None, EXISTS_KIND, mail)
}

/// The mail of "mail me a sign-in link": a link that signs `user` in and opens `next` (a path
/// of this site; the home page is `/`), good for [`SIGN_IN_MAIL_TTL_SECS`].
pub fn sign_in_mail(svc: &Services, user: &User, next: &str) -> Result<NewOutbox> {
    let (url, expires_at) = sign_in_url(svc, user.id, next, SIGN_IN_MAIL_TTL_SECS)?;
    let subject = "Your sign-in link".to_owned();
    let ctx = json!({
        "recipient": user.display_name,
        "sign_in_url": url,
        "expires_at": expires_at.format("%Y-%m-%d %H:%M UTC").to_string(),
        "base_url": svc.mail.base_url,
        "subject": subject,
    });
    let mail = account_mail(&user.email, subject, templates::render("sign_in", &ctx)?);
    outbox_row(svc, None, Some(user.id), SIGN_IN_KIND, mail)
}

/// The outbox kind of the sign-in mail.
pub const SIGN_IN_KIND: &str = "sign_in";
