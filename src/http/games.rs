//! `/v1/games`: create, join, read, act, and read the log.

use super::body::Body;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::Deserialize;
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::auth::AuthUser;
use super::problem::{ApiError, Problem};
use crate::service::deadlines::ClockSettings;
use crate::service::limits::Submitter;
use crate::service::submit::{self, Idempotency};
use crate::service::views::{EventPage, GameExport, GameList, GameView, StateView, SubmitResult};
use crate::service::{Services, games};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// A ruleset id from `GET /v1/rulesets`.
    #[schema(min_length = 1)]
    pub ruleset: String,
    /// Number of seats, within the ruleset's range (`GET /v1/rulesets`; the document says each
    /// ruleset's range with its default options, which some options narrow: 422 then).
    pub seats: i64,
    /// The ruleset's options, an object: `<Ruleset>Options` for the ruleset (`WizWarOptions`
    /// for `wiz-war`; also served by `GET /v1/rulesets/{id}`); omitted or `null` for the
    /// defaults. Some options depend on each other and on `seats` in ways a schema cannot say
    /// (their descriptions do): 422 then.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub options: Value,
    /// The clock: omitted or `null` for none (a friendly game without deadlines).
    #[serde(default)]
    #[schema(value_type = Option<crate::service::deadlines::ClockSettings>)]
    pub clock: Option<Value>,
    /// How many seats the built-in bot takes (the last ones; default 0), 0 to `seats - 1`. With
    /// `seats - 1` bots the game starts at once: one person can try a ruleset alone.
    #[serde(default)]
    pub bots: i64,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinGame {
    /// The seat to take, 0 to the game's seats less one; the lowest free seat when omitted.
    #[serde(default)]
    #[schema(minimum = 0)]
    pub seat: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitActions {
    /// The version the client saw; 409 if the game has moved on.
    #[serde(default)]
    pub expected_version: Option<i64>,
    /// Actions, each exactly as listed in `legal_actions` (`action`), or by its notation as
    /// `{"notation": "move b3 b2"}` (`legal_actions[].notation`, matched without regard to case
    /// or spacing); applied in order, all or nothing. Between two of them, a forced choice
    /// (a seat's only legal action) that the next one does not name is played first, as the
    /// service plays it (log kind `forced`).
    #[schema(min_items = 1)]
    pub actions: Vec<Value>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// The `next` of the previous page.
    pub cursor: Option<String>,
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct EventsQuery {
    /// Entries with `seq` greater than this (default 0).
    pub after: Option<i64>,
    /// Page size, 1 to 1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<i64>,
    /// Long-poll: when there is no entry after `after` yet, hold the answer up to this many
    /// seconds (0 to 30, default 0: answer at once) and answer as soon as one is committed, or
    /// with an empty page when the time is up. The answer may so take `wait` seconds: give the
    /// HTTP client a read timeout longer than that.
    #[param(minimum = 0, maximum = 30)]
    pub wait: Option<u64>,
}

/// The longest long-poll: 30 s, what RFC 6202 (§5.5) finds works in most networks (proxies and
/// NATs drop idle connections after a minute or less).
pub const MAX_WAIT_SECS: u64 = 30;

pub(crate) fn clamp_limit(limit: Option<i64>, default: i64, max: i64) -> Result<i64, ApiError> {
    match limit {
        None => Ok(default),
        Some(n) if (1..=max).contains(&n) => Ok(n),
        Some(_) => Err(ApiError::bad_request(format!(
            "limit must be between 1 and {max}"
        ))),
    }
}

/// A JSON body that may be left out (no body at all); one that is sent is read as strictly as
/// `web::Json` (400, 413, 415), never silently ignored as `Option<web::Json<_>>` would.
pub struct OptionalJson<T>(pub Option<T>);

impl<T: serde::de::DeserializeOwned + 'static> actix_web::FromRequest for OptionalJson<T> {
    type Error = actix_web::Error;
    type Future = futures_util::future::LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let headers = req.headers();
        let empty = match headers.get(header::CONTENT_LENGTH) {
            Some(length) => length.as_bytes() == b"0",
            None => !headers.contains_key(header::TRANSFER_ENCODING),
        };
        if empty {
            return Box::pin(std::future::ready(Ok(OptionalJson(None))));
        }
        let json = super::body::Body::<T>::from_request(req, payload);
        Box::pin(async move { Ok(OptionalJson(Some(json.await?.into_inner()))) })
    }
}

/// A JSON body and its strong `ETag`: the game's version and a digest of exactly these bytes
/// (for a view, the caller's own), quoted.
fn tagged(version: i64, body: &impl serde::Serialize) -> Result<(String, Vec<u8>), ApiError> {
    use sha2::{Digest, Sha256};
    let json = serde_json::to_vec(body)
        .map_err(|e| ApiError::from(crate::service::ServiceError::Unexpected(e.into())))?;
    let digest = Sha256::digest(&json);
    Ok((format!("\"{version}-{}\"", hex::encode(&digest[..8])), json))
}

/// `status` with a tagged JSON body.
fn json_with_tag(
    mut builder: actix_web::HttpResponseBuilder,
    version: i64,
    body: &impl serde::Serialize,
) -> Result<HttpResponse, ApiError> {
    let (tag, json) = tagged(version, body)?;
    Ok(builder
        .insert_header((header::ETAG, tag))
        .content_type(header::ContentType::json())
        .body(json))
}

/// A tagged JSON answer, or `304 Not Modified` with no body when `If-None-Match` names its
/// tag: a client that polls learns in a few bytes that nothing it may see has changed.
fn conditional(
    req: &HttpRequest,
    version: i64,
    body: &impl serde::Serialize,
) -> Result<HttpResponse, ApiError> {
    let (tag, json) = tagged(version, body)?;
    let matches = req
        .headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == "*" || t == tag);
    let mut builder = if matches {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    builder.insert_header((header::ETAG, tag));
    if matches {
        return Ok(builder.finish());
    }
    Ok(builder.content_type(header::ContentType::json()).body(json))
}

/// Create a game; the caller takes seat 0.
#[utoipa::path(
    tag = "games",
    operation_id = "createGame",
    request_body = CreateGame,
    responses(
        (status = 201, description = "Created", body = GameView,
            headers(
                ("Location" = String, description = "The game's address"),
                ("ETag" = String, description = "As `getGame` gives it for this record"),
            )),
        (status = 422, description = "`unknown-ruleset`, `invalid-seat-count`, or `invalid-request`: bad options, clock or bots", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/games")]
pub async fn create(
    svc: web::Data<Services>,
    user: AuthUser,
    body: Body<CreateGame>,
) -> Result<HttpResponse, ApiError> {
    let table = games::NewTable {
        options: body.options.clone(),
        clock: ClockSettings::parse(body.clock.as_ref())?,
        bots: body.bots,
    };
    let game = games::create(&svc, user.id, &body.ruleset, body.seats, &table).await?;
    let mut created = HttpResponse::Created();
    created.insert_header((header::LOCATION, format!("/v1/games/{}", game.id)));
    json_with_tag(created, game.version, &game)
}

/// Open games, oldest first.
#[utoipa::path(
    tag = "games",
    operation_id = "listGames",
    params(ListQuery),
    responses(
        (status = 200, description = "A page of games", body = GameList),
        (status = 400, description = "`malformed-request`: `cursor` is not one this list gave, or `limit` is not between 1 and 200", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/games")]
pub async fn list(
    svc: web::Data<Services>,
    _user: AuthUser,
    query: web::Query<ListQuery>,
) -> Result<web::Json<GameList>, ApiError> {
    let limit = clamp_limit(query.limit, 50, 200)?;
    Ok(web::Json(
        games::list_open(&svc, query.cursor.as_deref(), limit).await?,
    ))
}

/// Take a seat. The game starts by itself when the last seat is taken.
#[utoipa::path(
    tag = "games",
    operation_id = "joinGame",
    request_body(content = Option<JoinGame>, description = "Optional; none or `{}` takes the lowest free seat"),
    params(("id" = Uuid, Path, description = "Game id")),
    responses(
        (status = 200, description = "Seated", body = GameView,
            headers(("ETag" = String, description = "As `getGame` gives it for this record"))),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`seat-unavailable`: the seat is taken or the caller is seated already; `game-status`: the game is not open", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid-request`: no such seat", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/games/{id}/join")]
pub async fn join(
    svc: web::Data<Services>,
    user: AuthUser,
    id: web::Path<Uuid>,
    body: OptionalJson<Option<JoinGame>>,
) -> Result<HttpResponse, ApiError> {
    // No body, `null` and `{}` all take the lowest free seat.
    let seat = body.0.flatten().and_then(|b| b.seat);
    let game = games::join(&svc, user.id, id.into_inner(), seat).await?;
    json_with_tag(HttpResponse::Ok(), game.version, &game)
}

/// A game's public record.
#[utoipa::path(
    tag = "games",
    operation_id = "getGame",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("If-None-Match" = Option<String>, Header, description = "An `ETag` of an earlier answer: 304 while it is still the answer"),
    ),
    responses(
        (status = 200, description = "The game", body = GameView,
            headers(("ETag" = String, description = "The game's version and a digest of this answer, quoted: `\"<version>-<16 hex digits>\"`"))),
        (status = 304, description = "Not modified: `If-None-Match` names this answer's `ETag`; no body",
            headers(("ETag" = String, description = "The same `ETag`"))),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/games/{id}")]
pub async fn get(
    req: HttpRequest,
    svc: web::Data<Services>,
    _user: AuthUser,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let game = games::get(&svc, id.into_inner()).await?;
    conditional(&req, game.version, &game)
}

/// The caller's view of the game and, when it is their decision, the legal actions.
#[utoipa::path(
    tag = "games",
    operation_id = "getGameState",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("If-None-Match" = Option<String>, Header, description = "An `ETag` of an earlier answer: 304 while it is still the answer"),
    ),
    responses(
        (status = 200, description = "The caller's view", body = StateView,
            headers(("ETag" = String, description = "The game's version and a digest of this answer (the caller's own view), quoted: `\"<version>-<16 hex digits>\"`"))),
        (status = 304, description = "Not modified: `If-None-Match` names this answer's `ETag`; no body",
            headers(("ETag" = String, description = "The same `ETag`"))),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/games/{id}/state")]
pub async fn state(
    req: HttpRequest,
    svc: web::Data<Services>,
    user: AuthUser,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let state = games::state(&svc, user.id, id.into_inner()).await?;
    conditional(&req, state.version, &state)
}

/// Submit actions, applied atomically. Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "games",
    operation_id = "submitActions",
    request_body = SubmitActions,
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retries with the same key and body return the first response; another body is 422"),
    ),
    responses(
        (status = 200, description = "Applied", body = SubmitResult),
        (status = 403, description = "`not-a-player`: the caller holds no seat; `not-your-decision`: not the caller's decision now", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`version-conflict`: stale `expected_version` (with `current_version`); `game-status`: the game is not active", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`illegal-action`: an illegal action, or one not written exactly as `legal_actions` lists it (`{\"end_move\": null}` for `\"end_move\"`, an unknown field), with `action_index` and the reason; `idempotency-key-reused`: the key came with another body; `invalid-request`: no actions", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate-limited`: more submissions than the API token (or the account's sessions together) may make a minute (`TURNPOST_SUBMISSIONS_PER_TOKEN_PER_MIN`, 1,200 by default); `Retry-After` (and `retry_after`) says in how many seconds to try again", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = i64, description = "Seconds to wait"), ("RateLimit-Remaining" = i64, description = "0: nothing left now"), ("RateLimit-Reset" = i64, description = "Seconds until the next submission is allowed"))),
    ),
    security(("bearer" = []))
)]
#[post("/games/{id}/actions")]
pub async fn actions(
    svc: web::Data<Services>,
    user: AuthUser,
    req: HttpRequest,
    id: web::Path<Uuid>,
    body: Body<SubmitActions>,
) -> Result<web::Json<SubmitResult>, ApiError> {
    let idempotency = idempotency_key(&req, &body.0)?;
    svc.limits.submission(match user.token {
        Some(token) => Submitter::Token(token),
        None => Submitter::Account(user.id),
    })?;
    let result = submit::submit(
        &svc,
        user.id,
        id.into_inner(),
        body.expected_version,
        &body.actions,
        idempotency.as_ref(),
    )
    .await?;
    Ok(web::Json(result))
}

/// The request's `Idempotency-Key`, with the fingerprint of its method, path and body.
pub(crate) fn idempotency_key(
    req: &HttpRequest,
    body: &impl serde::Serialize,
) -> Result<Option<Idempotency>, ApiError> {
    let Some(value) = req.headers().get("Idempotency-Key") else {
        return Ok(None);
    };
    let key = value
        .to_str()
        .ok()
        .map(str::trim)
        .filter(|k| !k.is_empty() && k.len() <= 255)
        .ok_or_else(|| {
            ApiError::bad_request("Idempotency-Key must be 1 to 255 visible ASCII characters")
        })?;
    // The parsed body, re-serialised: the same request in other whitespace is the same request.
    let canonical = serde_json::to_vec(body).map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(Some(Idempotency::new(
        key.to_owned(),
        "POST",
        req.path(),
        &canonical,
    )))
}

/// The game's log, redacted for the caller. With `wait` (a long-poll, at most 30 seconds), an
/// empty page is held back until an entry after `after` is committed (on any server process)
/// or `wait` seconds pass: the answer may take that long.
#[utoipa::path(
    tag = "games",
    operation_id = "listGameEvents",
    params(("id" = Uuid, Path, description = "Game id"), EventsQuery),
    responses(
        (status = 200, description = "A page of the log", body = EventPage),
        (status = 400, description = "`malformed-request`: a parameter could not be read, `after` is below 0, `limit` is not between 1 and 1000, or `wait` is over 30", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/games/{id}/events")]
pub async fn events(
    svc: web::Data<Services>,
    live: web::Data<crate::web::live::Live>,
    user: AuthUser,
    id: web::Path<Uuid>,
    query: web::Query<EventsQuery>,
) -> Result<web::Json<EventPage>, ApiError> {
    let limit = clamp_limit(query.limit, 100, 1000)?;
    let after = query.after.unwrap_or(0);
    if after < 0 {
        return Err(ApiError::bad_request(
            "`after` must be a seq: a whole number, 0 or more",
        ));
    }
    let wait = query.wait.unwrap_or(0);
    if wait > MAX_WAIT_SECS {
        return Err(ApiError::bad_request(format!(
            "wait must be between 0 and {MAX_WAIT_SECS} seconds"
        )));
    }
    let id = id.into_inner();
    // Listen before reading, so an entry committed after the read is heard of.
    let mut rx = (wait > 0).then(|| live.subscribe());
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(wait);
    loop {
        let page = games::events(&svc, user.id, id, after, limit).await?;
        let Some(rx) = rx.as_mut().filter(|_| page.entries.is_empty()) else {
            return Ok(web::Json(page));
        };
        // Until an announcement of this game (or a lag: then look again), or the end. A
        // second's look now and then covers an announcement lost with its process.
        loop {
            let until =
                deadline.min(tokio::time::Instant::now() + std::time::Duration::from_secs(1));
            match tokio::time::timeout_at(until, rx.recv()).await {
                Ok(Ok(m)) if m.game == id => break,
                Ok(Ok(_)) => {}
                Ok(Err(_)) => break,
                Err(_) => break,
            }
        }
        if tokio::time::Instant::now() >= deadline {
            return Ok(web::Json(
                games::events(&svc, user.id, id, after, limit).await?,
            ));
        }
    }
}

/// A game that is over (finished or abandoned), as one document: ruleset, options, players,
/// times, outcome, the revealed seed with its published SHA-256, and the whole log with
/// nothing redacted. Any signed-in account may export any game that is over, as it may read
/// its log.
#[utoipa::path(
    tag = "games",
    operation_id = "exportGame",
    params(("id" = Uuid, Path, description = "Game id")),
    responses(
        (status = 200, description = "The game's record", body = GameExport),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game-status`: the game is not over yet (open or active)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/games/{id}/export")]
pub async fn export(
    svc: web::Data<Services>,
    _user: AuthUser,
    id: web::Path<Uuid>,
) -> Result<web::Json<GameExport>, ApiError> {
    Ok(web::Json(
        crate::service::export::game(&svc, id.into_inner()).await?,
    ))
}
