//! Live updates for programs: server-sent events for one game's log and for the caller's
//! account (`service::streams` says what they send). Each is fed by this process's
//! `LISTEN turnpost_games` ([`Live`]), so a move taken on any server process reaches a stream
//! on any other; an announcement only makes the stream read the database again, so a stream
//! never sends what was not committed, and a reconnect with `Last-Event-ID` resumes exactly
//! where the client stopped reading.
//!
//! Authentication is the `Authorization` header only (a session or an API token with the
//! scope `read`): a token in a query string would land in proxy and access logs. Browsers'
//! `EventSource`, which cannot set headers, is served by the web pages' own stream.

use std::time::Duration;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};
use futures_util::stream;
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;
use utoipa::IntoParams;
use uuid::Uuid;

use super::auth::AuthUser;
use super::problem::{ApiError, Problem};
use crate::service::Services;
use crate::service::stream_slots::StreamSlot;
use crate::service::streams::{self, AccountWatch};
use crate::web::client::client_of;
use crate::web::live::Live;

/// How long one stream lasts at most; the client reconnects (with `Last-Event-ID`), which
/// lets a deployment move connections between processes.
const LIFETIME: Duration = Duration::from_secs(3600);

/// Log entries read at once.
const PAGE: i64 = 200;

/// How an idle stream shows that it is alive (`TURNPOST_STREAM_HEARTBEAT_SECS`).
#[derive(Clone, Copy, Debug)]
pub struct StreamConfig {
    pub heartbeat: Duration,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct StreamQuery {
    /// Start after this `seq` (default 0: the whole log); `Last-Event-ID` wins when sent.
    pub after: Option<i64>,
}

/// The `Last-Event-ID` header, if sent.
fn last_event_id(req: &HttpRequest) -> Result<Option<&str>, ApiError> {
    match req.headers().get("Last-Event-ID") {
        None => Ok(None),
        Some(v) => v
            .to_str()
            .map(|s| Some(s.trim()))
            .map_err(|_| ApiError::bad_request("Last-Event-ID must be visible ASCII")),
    }
}

fn event_stream<S>(body: S) -> HttpResponse
where
    S: futures_util::Stream<Item = Result<web::Bytes, actix_web::Error>> + 'static,
{
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body)
}

/// `data:` lines for one JSON value (serialised JSON has no newline, but be exact anyway).
fn data_lines(out: &mut String, json: &str) {
    for line in json.split('\n') {
        out.push_str("data: ");
        out.push_str(line);
        out.push('\n');
    }
}

/// The last event of every stream when the server stops: reconnect (to another process, or to
/// this one once it is back) with `Last-Event-ID`.
const RECONNECT: &str = "event: reconnect\ndata: {}\n\n";

/// A slot for one more stream of `user` (429 with `Retry-After` past the limits).
fn slot(req: &HttpRequest, svc: &Services, user: uuid::Uuid) -> Result<StreamSlot, ApiError> {
    Ok(svc.streams.take(user, client_of(req, svc))?)
}

/// What to do after a wait for the next announcement.
enum Woken {
    /// Read the database again.
    Look,
    /// Nothing happened for a heartbeat: say so, and read again (an announcement may have
    /// been lost with the process that was to send it).
    Heartbeat,
    /// The stream's time is up, or this process no longer listens.
    End,
    /// The server is stopping: send [`RECONNECT`] and end.
    Stopping,
}

/// Waits for an announcement about `game`, a heartbeat or the end.
async fn wait(
    rx: &mut tokio::sync::broadcast::Receiver<crate::web::live::Moved>,
    slot: &mut StreamSlot,
    heartbeat: Duration,
    deadline: Instant,
    game: Uuid,
) -> Woken {
    loop {
        let until = deadline.min(Instant::now() + heartbeat);
        let next = tokio::select! {
            next = tokio::time::timeout_at(until, rx.recv()) => next,
            () = slot.closing() => return Woken::Stopping,
        };
        match next {
            Ok(Ok(m)) if m.game == game => return Woken::Look,
            Ok(Ok(_)) => {}
            Ok(Err(RecvError::Lagged(_))) => return Woken::Look,
            Ok(Err(RecvError::Closed)) => return Woken::End,
            Err(_) if Instant::now() >= deadline => return Woken::End,
            Err(_) => return Woken::Heartbeat,
        }
    }
}

/// One game's log as it grows, redacted for the caller as `GET /v1/games/{id}/events`
/// redacts it.
///
/// Each log entry is one event `entry` whose `id` is its `seq` and whose data is the entry
/// (`EventView`). Reconnect with `Last-Event-ID` (or `?after=`): the stream goes on after that
/// entry, so no entry is lost or repeated. Idle streams get a comment line (`: heartbeat`)
/// every `TURNPOST_STREAM_HEARTBEAT_SECS`. Once the game is over and its last entry sent, the
/// stream sends `event: end` and closes. A stream lasts an hour at most; reconnect. When the
/// server stops, every stream sends `event: reconnect` and closes: reconnect (with
/// `Last-Event-ID`) after the `retry` time. An account may hold `TURNPOST_STREAMS_PER_ACCOUNT`
/// streams (20), a client address `TURNPOST_STREAMS_PER_ADDRESS` (60); beyond, 429.
///
/// Only the `Authorization` header authenticates (a token in the query string is refused),
/// so no secret ever reaches an access log.
#[utoipa::path(
    tag = "games",
    operation_id = "streamGameEvents",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("Last-Event-ID" = Option<i64>, Header, description = "The `seq` of the last entry received: the stream continues after it"),
        StreamQuery,
    ),
    responses(
        (status = 200, description = "A `text/event-stream` of `entry` events (data: `EventView`, id: its `seq`), `: heartbeat` comments, and a final `end` event once the game is over", content_type = "text/event-stream", body = String),
        (status = 400, description = "`malformed-request`: `after` or `Last-Event-ID` is not a whole number of at least 0", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate-limited`: the account, the client address or the server holds as many streams as it may (`TURNPOST_STREAMS_PER_ACCOUNT`, `TURNPOST_STREAMS_PER_ADDRESS`, `TURNPOST_STREAMS_MAX`); close one or wait `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = i64, description = "Seconds to wait before trying again"))),
    ),
    security(("bearer" = []))
)]
#[get("/games/{id}/stream")]
pub async fn game_stream(
    req: HttpRequest,
    svc: web::Data<Services>,
    live: web::Data<Live>,
    config: web::Data<StreamConfig>,
    user: AuthUser,
    id: web::Path<Uuid>,
    query: web::Query<StreamQuery>,
) -> Result<HttpResponse, ApiError> {
    let game = id.into_inner();
    // `after` must be a seq even when Last-Event-ID wins over it.
    let given = query.after.unwrap_or(0);
    let after = match last_event_id(&req)? {
        Some(last) => last.parse::<i64>().ok(),
        None => Some(given),
    }
    .filter(|n| *n >= 0 && given >= 0)
    .ok_or_else(|| {
        ApiError::bad_request("`after` and Last-Event-ID must be a seq: a whole number, 0 or more")
    })?;
    let slot = slot(&req, &svc, user.id)?;
    // Listen before the first read, so nothing committed after it goes unheard.
    let rx = live.subscribe();
    // The first read answers 404 for an unknown game before the stream starts.
    let first = streams::log_after(&svc, user.id, game, after, PAGE).await?;
    let heartbeat = config.heartbeat;
    let deadline = Instant::now() + LIFETIME;
    struct Feed {
        svc: web::Data<Services>,
        rx: tokio::sync::broadcast::Receiver<crate::web::live::Moved>,
        cursor: i64,
        read: Option<(crate::service::views::EventPage, bool)>,
        look: bool,
        ended: bool,
        slot: StreamSlot,
    }
    let feed = Feed {
        svc,
        rx,
        slot,
        cursor: after,
        read: Some(first),
        look: false,
        ended: false,
    };
    let user = user.id;
    let body = stream::unfold(
        (feed, Some("retry: 2000\n\n".to_owned())),
        move |(mut feed, hello)| async move {
            if let Some(hello) = hello {
                return Some((Ok(web::Bytes::from(hello)), (feed, None)));
            }
            loop {
                if feed.ended {
                    return None;
                }
                if feed.look {
                    feed.look = false;
                    match streams::log_after(&feed.svc, user, game, feed.cursor, PAGE).await {
                        Ok(read) => feed.read = Some(read),
                        Err(error) => {
                            // The client reconnects with Last-Event-ID and loses nothing.
                            tracing::warn!(%game, %error, "a game stream stopped");
                            return None;
                        }
                    }
                }
                if let Some((page, over)) = feed.read.take() {
                    let mut chunk = String::new();
                    for entry in &page.entries {
                        let Ok(json) = serde_json::to_string(entry) else {
                            continue;
                        };
                        chunk.push_str(&format!("id: {}\nevent: entry\n", entry.seq));
                        data_lines(&mut chunk, &json);
                        chunk.push('\n');
                        feed.cursor = entry.seq;
                    }
                    // A full page: read on at once.
                    feed.look = page.next.is_some();
                    if over && page.next.is_none() {
                        chunk.push_str("event: end\ndata: {}\n\n");
                        feed.ended = true;
                    }
                    if !chunk.is_empty() {
                        return Some((Ok(web::Bytes::from(chunk)), (feed, None)));
                    }
                    continue;
                }
                match wait(&mut feed.rx, &mut feed.slot, heartbeat, deadline, game).await {
                    Woken::Look => feed.look = true,
                    Woken::Heartbeat => {
                        feed.look = true;
                        let beat = web::Bytes::from_static(b": heartbeat\n\n");
                        return Some((Ok(beat), (feed, None)));
                    }
                    Woken::Stopping => {
                        feed.ended = true;
                        return Some((
                            Ok(web::Bytes::from_static(RECONNECT.as_bytes())),
                            (feed, None),
                        ));
                    }
                    Woken::End => return None,
                }
            }
        },
    );
    Ok(event_stream(body))
}

/// The caller's notices as they happen: `your-turn` (a game waits on the caller's seat; data
/// `TurnNotice`), `game-over` (one of the caller's games ended; `GameOverNotice`) and
/// `invitation` (an invitation to an open game was mailed to the caller's address;
/// `InvitationNotice`).
///
/// On connecting, the stream first sends the present: a `your-turn` for every game waiting on
/// the caller now and an `invitation` for every pending one. With `Last-Event-ID` it also
/// sends the `game-over` of every game that ended since (a little before) that event. Event
/// ids are stable: `<micros>.<game>.<version>` names one turn of one game, so a client that
/// reconnects may see an id again (drop it) but misses none. Turns and ends arrive as they are
/// committed; invitations within a heartbeat. Idle streams get `: heartbeat` comment lines.
/// A stream lasts an hour at most; reconnect. When the server stops it sends `event: reconnect`
/// and closes. The same limits as a game stream's apply (429 beyond). Authenticated by the
/// `Authorization` header only.
#[utoipa::path(
    tag = "me",
    operation_id = "streamMyEvents",
    params(
        ("Last-Event-ID" = Option<String>, Header, description = "The `id` of the last event received: ends since then are sent too"),
    ),
    responses(
        (status = 200, description = "A `text/event-stream` of `your-turn`, `game-over` and `invitation` events and `: heartbeat` comments", content_type = "text/event-stream", body = String),
        (status = 400, description = "`malformed-request`: `Last-Event-ID` is not an id this stream sent", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate-limited`: the account, the client address or the server holds as many streams as it may (`TURNPOST_STREAMS_PER_ACCOUNT`, `TURNPOST_STREAMS_PER_ADDRESS`, `TURNPOST_STREAMS_MAX`); close one or wait `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = i64, description = "Seconds to wait before trying again"))),
    ),
    security(("bearer" = []))
)]
#[get("/me/stream")]
pub async fn my_stream(
    req: HttpRequest,
    svc: web::Data<Services>,
    live: web::Data<Live>,
    config: web::Data<StreamConfig>,
    user: AuthUser,
) -> Result<HttpResponse, ApiError> {
    let resume = match last_event_id(&req)? {
        Some(last) => {
            Some(streams::resume_time(last).map_err(|e| ApiError::bad_request(e.to_string()))?)
        }
        None => None,
    };
    let slot = slot(&req, &svc, user.id)?;
    let rx = live.subscribe();
    let mut watch = AccountWatch::open(&svc, user.id, resume).await?;
    let first = watch.look(&svc).await?;
    let heartbeat = config.heartbeat;
    let deadline = Instant::now() + LIFETIME;
    let body = stream::unfold(
        (svc, rx, watch, Some(first), true, Some(slot)),
        move |(svc, mut rx, mut watch, mut ready, hello, mut slot)| async move {
            // Taken once the last event is sent: the stream is over.
            let held = slot.as_mut()?;
            loop {
                if let Some(notices) = ready.take() {
                    let mut chunk = String::new();
                    if hello {
                        chunk.push_str("retry: 2000\n\n");
                    }
                    for n in &notices {
                        chunk.push_str(&format!("id: {}\nevent: {}\n", n.id, n.event));
                        data_lines(&mut chunk, &n.data.to_string());
                        chunk.push('\n');
                    }
                    if !chunk.is_empty() {
                        return Some((
                            Ok(web::Bytes::from(chunk)),
                            (svc, rx, watch, None, false, slot),
                        ));
                    }
                }
                let woken = loop {
                    let until = deadline.min(Instant::now() + heartbeat);
                    let next = tokio::select! {
                        next = tokio::time::timeout_at(until, rx.recv()) => next,
                        () = held.closing() => break Woken::Stopping,
                    };
                    match next {
                        Ok(Ok(m)) => match watch.concerns(&svc, m.game).await {
                            Ok(true) => break Woken::Look,
                            Ok(false) => {}
                            Err(error) => {
                                tracing::warn!(%error, "an account stream stopped");
                                return None;
                            }
                        },
                        Ok(Err(RecvError::Lagged(_))) => break Woken::Look,
                        Ok(Err(RecvError::Closed)) => break Woken::End,
                        Err(_) if Instant::now() >= deadline => break Woken::End,
                        Err(_) => break Woken::Heartbeat,
                    }
                };
                match woken {
                    Woken::End => return None,
                    Woken::Stopping => {
                        let last = web::Bytes::from_static(RECONNECT.as_bytes());
                        return Some((Ok(last), (svc, rx, watch, None, false, None)));
                    }
                    _ => {}
                }
                match watch.look(&svc).await {
                    Ok(notices) => ready = Some(notices),
                    Err(error) => {
                        tracing::warn!(%error, "an account stream stopped");
                        return None;
                    }
                }
                if let Woken::Heartbeat = woken
                    && ready.as_ref().is_some_and(Vec::is_empty)
                {
                    let beat = web::Bytes::from_static(b": heartbeat\n\n");
                    return Some((Ok(beat), (svc, rx, watch, None, false, slot)));
                }
            }
        },
    );
    Ok(event_stream(body))
}
