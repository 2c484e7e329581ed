//! Table talk (DESIGN.md, "messages"): players of a game write to the whole table or privately
//! to one seat; the recipients who take all game mail get it by mail, composed by the worker
//! from the stored message. A private message is only ever read by its sender and its
//! recipient: every read filters by who is asking, and the mail names the recipient.
//!
//! One use case, [`post_in`], serves the API and replies by mail. A sender may post at most
//! [`PER_MINUTE`] messages a minute and [`PER_DAY`] a day in one game.

use chrono::{DateTime, Duration, Utc};
use diesel_async::AsyncConnection;
use uuid::Uuid;

use super::game_views::{seat_number, seat_of};
use super::submit::Idempotency;
use super::views::{MessagePage, MessageView};
use super::{Result, ServiceError, Services};
use crate::notify::Compose;
use crate::store::idempotency::Claim;
use crate::store::messages::{Message, NewMessage};
use crate::store::models::GameStatus;
use crate::store::{self, Conn};

/// The version announced on the games' channel when something other than a turn changed
/// (a message was posted): pages that follow the game look again.
pub const LOOK_AGAIN: i64 = -1;
/// The longest message, in characters (the database checks it too).
pub const MAX_CHARS: usize = 2000;
/// Messages one sender may post in one game within a minute…
pub const PER_MINUTE: usize = 10;
/// …and within a day.
pub const PER_DAY: usize = 100;

/// A message's text as stored: line ends as `\n`, trimmed, not empty, at most [`MAX_CHARS`]
/// characters, and no control characters but newlines and tabs.
pub fn clean_body(body: &str) -> Result<String> {
    let body = body.replace("\r\n", "\n").replace('\r', "\n");
    let body = body.trim();
    if body.is_empty() {
        return Err(ServiceError::Invalid("the message is empty".into()));
    }
    let chars = body.chars().count();
    if chars > MAX_CHARS {
        return Err(ServiceError::Invalid(format!(
            "the message has {chars} characters; at most {MAX_CHARS} are allowed"
        )));
    }
    if body
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err(ServiceError::Invalid(
            "the message contains control characters".into(),
        ));
    }
    Ok(body.to_owned())
}

/// Seconds until a sender whose latest messages in a game were sent at `recent` (newest
/// first, at least those of the last day up to [`PER_DAY`]) may post again at `now`; `None`
/// if they may now.
pub fn retry_after(recent: &[DateTime<Utc>], now: DateTime<Utc>) -> Option<i64> {
    let windows = [
        (PER_MINUTE, Duration::minutes(1)),
        (PER_DAY, Duration::days(1)),
    ];
    windows
        .iter()
        .filter_map(|(most, window)| super::limits::wait_for_window(recent, *most, *window, now))
        .max()
}

fn view(m: &Message, from_name: String) -> MessageView {
    MessageView {
        id: m.id,
        from_seat: m.from_seat,
        from_name,
        to_seat: m.to_seat,
        body: m.body.clone(),
        created_at: m.created_at,
    }
}

/// `POST /v1/games/{id}/messages`: one transaction; a retry with the same
/// `Idempotency-Key` and body returns the first message.
pub async fn post(
    svc: &Services,
    user: Uuid,
    game_id: Uuid,
    to_seat: Option<i64>,
    body: &str,
    idempotency: Option<&Idempotency>,
) -> Result<MessageView> {
    let body = clean_body(body)?;
    let mut conn = svc.conn().await?;
    conn.transaction::<_, ServiceError, _>(async |conn| {
        if let Some(idem) = idempotency {
            match store::idempotency::claim(conn, user, &idem.key, &idem.request_sha256).await? {
                Claim::Fresh => {}
                Claim::Replay { body, .. } => {
                    return serde_json::from_value(body)
                        .map_err(|e| ServiceError::Unexpected(e.into()));
                }
                Claim::Mismatch => return Err(ServiceError::IdempotencyMismatch),
            }
        }
        let message = post_in(svc, conn, user, game_id, to_seat, &body).await?;
        if let Some(idem) = idempotency {
            let saved = serde_json::to_value(&message).map_err(anyhow::Error::from)?;
            store::idempotency::save(conn, user, &idem.key, 201, &saved).await?;
        }
        Ok(message)
    })
    .await
}

/// Posts `body` (already [`clean_body`]) from `user` to the table (`to_seat` `None`) or to one
/// seat, inside the caller's transaction, and queues its mail: to every other seated player
/// for the table, to the recipient for a private message (each only if their preference is
/// `all` and their address is verified).
pub(crate) async fn post_in(
    svc: &Services,
    conn: &mut Conn,
    user: Uuid,
    game_id: Uuid,
    to_seat: Option<i64>,
    body: &str,
) -> Result<MessageView> {
    let (game, players) = store::games::get_with_players(conn, game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    let seat = seat_of(&players, user).ok_or(ServiceError::NotAPlayer)?;
    if !matches!(game.status(), GameStatus::Open | GameStatus::Active) {
        return Err(ServiceError::WrongStatus(game.status.clone()));
    }
    let ids: Vec<Uuid> = players.iter().map(|p| p.user_id).collect();
    let users = store::users::by_ids(conn, &ids).await?;
    let to = match to_seat {
        None => None,
        Some(s) => {
            let s = seat_number(&game, s, "to_seat")?;
            if s == seat {
                return Err(ServiceError::Invalid(
                    "that is your own seat: write to the table or to another seat".into(),
                ));
            }
            let holder = players
                .iter()
                .find(|p| p.seat == s)
                .ok_or_else(|| ServiceError::Invalid(format!("seat {s} is empty")))?;
            if users.iter().any(|u| u.id == holder.user_id && u.is_bot) {
                return Err(ServiceError::Invalid(format!(
                    "seat {s} is the built-in bot's: nobody would read it"
                )));
            }
            Some((s, holder.user_id))
        }
    };
    store::messages::lock_sender(conn, game.id, seat).await?;
    let now = svc.clock.now();
    let recent = store::messages::sent_since(
        conn,
        game.id,
        user,
        now - Duration::days(1),
        i64::try_from(PER_DAY).unwrap_or(i64::MAX),
    )
    .await?;
    if let Some(secs) = retry_after(&recent, now) {
        return Err(ServiceError::RateLimited {
            retry_after_secs: secs,
            detail: format!(
                "at most {PER_MINUTE} messages a minute and {PER_DAY} a day in one game; \
                 try again in {secs} s"
            ),
        });
    }
    let message = store::messages::insert(
        conn,
        NewMessage {
            game_id: game.id,
            from_seat: seat,
            from_user: user,
            to_seat: to.map(|t| t.0),
            to_user: to.map(|t| t.1),
            body,
            created_at: now,
        },
    )
    .await?;
    let notices: Vec<(i32, Compose)> = players
        .iter()
        .filter(|p| p.user_id != user)
        .filter(|p| to.is_none_or(|(s, u)| p.seat == s && p.user_id == u))
        .map(|p| (p.seat, Compose::message(p.seat, message.id)))
        .collect();
    let rows = super::mail::game_mail(svc, &game, &players, &users, &notices)?;
    store::outbox::enqueue(conn, &rows).await?;
    // Open game pages look again (at commit); each shows only what its reader may read.
    store::games::notify(conn, game.id, LOOK_AGAIN).await?;
    let name = players
        .iter()
        .find(|p| p.seat == seat)
        .map(|p| p.display_name.clone())
        .unwrap_or_default();
    Ok(view(&message, name))
}

/// The name of the player at `from_seat`, if they wrote privately to `to_user` from that
/// seat: a private answer by mail goes back only to the person who wrote (not to whoever
/// took the seat over since).
pub(crate) async fn private_writer(
    conn: &mut Conn,
    game_id: Uuid,
    from_seat: i32,
    to_user: Uuid,
) -> Result<Option<String>> {
    let Some((_, players)) = store::games::get_with_players(conn, game_id).await? else {
        return Ok(None);
    };
    let Some(holder) = players.iter().find(|p| p.seat == from_seat) else {
        return Ok(None);
    };
    let wrote =
        store::messages::has_written(conn, game_id, holder.user_id, from_seat, to_user).await?;
    Ok(wrote.then(|| holder.display_name.clone()))
}

/// `GET /v1/games/{id}/messages`: the messages the caller may read, oldest first, after the
/// message `cursor`. Only the game's players may read its talk.
pub async fn list(
    svc: &Services,
    user: Uuid,
    game_id: Uuid,
    cursor: Option<&str>,
    limit: i64,
) -> Result<MessagePage> {
    let after = super::cursor::decode_seq(cursor)?.unwrap_or(0);
    let mut conn = svc.conn().await?;
    let (_, players) = store::games::get_with_players(&mut conn, game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    seat_of(&players, user).ok_or(ServiceError::NotAPlayer)?;
    // One row more than the page, to know whether there is a page after it.
    let rows = store::messages::page_for(&mut conn, game_id, user, after, limit + 1).await?;
    let (rows, next) = super::cursor::page(rows, limit, |(m, _)| m.id.to_string());
    Ok(MessagePage {
        messages: rows
            .into_iter()
            .filter(|(m, _)| m.visible_to(user))
            .map(|(m, name)| view(&m, name))
            .collect(),
        next,
    })
}

/// The latest `limit` messages `user` may read in a game, oldest first (the game page's
/// table talk). The caller has checked that `user` holds a seat.
pub async fn latest(
    svc: &Services,
    user: Uuid,
    game_id: Uuid,
    limit: i64,
) -> Result<Vec<MessageView>> {
    let mut conn = svc.conn().await?;
    let mut rows = store::messages::latest_for(&mut conn, game_id, user, limit).await?;
    rows.reverse();
    Ok(rows
        .into_iter()
        .filter(|(m, _)| m.visible_to(user))
        .map(|(m, name)| view(&m, name))
        .collect())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_trimmed_bounded_and_printable() {
        assert_eq!(clean_body("  hello\r\nthere \n").unwrap(), "hello\nthere");
        assert!(clean_body(" \n\t ").is_err());
        assert!(clean_body(&"é".repeat(MAX_CHARS)).is_ok());
        assert!(clean_body(&"é".repeat(MAX_CHARS + 1)).is_err());
        assert!(clean_body("a\0b").is_err());
        assert!(clean_body("a\tb").is_ok());
    }

    #[test]
    fn the_rate_limit_counts_a_minute_and_a_day() {
        let now = Utc::now();
        let ago = |secs: i64| now - Duration::seconds(secs);
        assert_eq!(retry_after(&[], now), None);
        // Nine in the last minute: one more is fine.
        let nine: Vec<_> = (0..9).map(|i| ago(i * 5)).collect();
        assert_eq!(retry_after(&nine, now), None);
        // Ten: wait until the oldest of them is a minute old.
        let ten: Vec<_> = (0..10).map(|i| ago(i * 5)).collect();
        assert_eq!(retry_after(&ten, now), Some(15));
        // Ten, the oldest over a minute ago: fine.
        let spread: Vec<_> = (0..10).map(|i| ago(i * 7)).collect();
        assert_eq!(retry_after(&spread, now), None);
        // A hundred within the day, the oldest 23 hours ago: wait an hour.
        let day: Vec<_> = (0..100).map(|i| ago(600 + i * 828)).collect();
        assert_eq!(retry_after(&day, now), Some(86_400 - (600 + 99 * 828)));
    }
}
