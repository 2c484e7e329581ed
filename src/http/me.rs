//! `/v1/me`: the caller's account and games.

use actix_web::{get, web};
use utoipa::IntoParams;

use super::auth::AuthUser;
use super::games::{ListQuery, clamp_limit};
use super::problem::{ApiError, Problem};
use crate::service::export;
use crate::service::games::GameStatus;
use crate::service::views::{GameExport, GameList, UserView};
use crate::service::{Services, games, users};

/// The caller's account.
#[utoipa::path(
    tag = "me",
    operation_id = "getMe",
    responses(
        (status = 200, description = "The account", body = UserView),
        (status = 401, description = "`unauthorized`: no token, a bad or expired one, or the account no longer exists", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/me")]
pub async fn me(svc: web::Data<Services>, user: AuthUser) -> Result<web::Json<UserView>, ApiError> {
    let u = users::current(&svc, user.id)
        .await?
        .ok_or_else(|| ApiError::unauthorized("this account no longer exists"))?;
    Ok(web::Json(users::view(&u)))
}

/// `GET /v1/me/games`: a page of the caller's games.
#[derive(Debug, serde::Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct MyGamesQuery {
    /// The `next` of the previous page (asked with the same `status`).
    pub cursor: Option<String>,
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
    /// Only games of these statuses, comma-separated (`open`, `active`, `finished`,
    /// `abandoned`); all when omitted.
    pub status: Option<String>,
}

/// The statuses of a `status` filter.
fn statuses(filter: Option<&str>) -> Result<Vec<GameStatus>, ApiError> {
    let Some(filter) = filter else {
        return Ok(vec![]);
    };
    filter
        .split(',')
        .map(str::trim)
        .map(|s| {
            GameStatus::parse(s).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "status {s:?} is not one of open, active, finished, abandoned"
                ))
            })
        })
        .collect()
}

/// Games in which the caller holds a seat, newest first (by creation), a page at a time.
#[utoipa::path(
    tag = "me",
    operation_id = "listMyGames",
    params(MyGamesQuery),
    responses(
        (status = 200, description = "A page of the caller's games", body = GameList),
        (status = 400, description = "`malformed-request`: `cursor` is not one this list gave, `limit` is not between 1 and 200, or `status` names no status", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/me/games")]
pub async fn my_games(
    svc: web::Data<Services>,
    user: AuthUser,
    query: web::Query<MyGamesQuery>,
) -> Result<web::Json<GameList>, ApiError> {
    let limit = clamp_limit(query.limit, 50, 200)?;
    let statuses = statuses(query.status.as_deref())?;
    Ok(web::Json(
        games::mine(&svc, user.id, &statuses, query.cursor.as_deref(), limit).await?,
    ))
}

/// Active games waiting on the caller, longest wait first, a page at a time.
#[utoipa::path(
    tag = "me",
    operation_id = "listMyTurns",
    params(ListQuery),
    responses(
        (status = 200, description = "A page of the games waiting on the caller", body = GameList),
        (status = 400, description = "`malformed-request`: `cursor` is not one this list gave, or `limit` is not between 1 and 200", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/me/turns")]
pub async fn my_turns(
    svc: web::Data<Services>,
    user: AuthUser,
    query: web::Query<ListQuery>,
) -> Result<web::Json<GameList>, ApiError> {
    let limit = clamp_limit(query.limit, 50, 200)?;
    Ok(web::Json(
        games::my_turns(&svc, user.id, query.cursor.as_deref(), limit).await?,
    ))
}

/// Games per page of `GET /v1/me/games/export`: what it holds in memory at a time.
pub const EXPORT_PAGE: i64 = 10;

/// The caller's games that are over (finished or abandoned), newest first, as NDJSON: one
/// `GameExport` document (as `exportGame` gives it) per line. Streamed a few games at a time,
/// so an account with many games costs the server no more memory than one with few; if the
/// server fails midway the connection is cut before the end of the body, never closed as if
/// complete.
#[utoipa::path(
    tag = "me",
    operation_id = "exportMyGames",
    responses(
        (status = 200, description = "NDJSON: one `GameExport` document (the schema of `exportGame`'s answer) per line, each line ending in `\\n`; an empty body for an account without a game that is over", body = String, content_type = "application/x-ndjson"),
    ),
    security(("bearer" = []))
)]
#[get("/me/games/export")]
pub async fn export_my_games(
    svc: web::Data<Services>,
    user: AuthUser,
) -> Result<actix_web::HttpResponse, ApiError> {
    // The first page before the answer starts: a failure now is still a problem.
    let (first, next) = export::of_user(&svc, user.id, None, EXPORT_PAGE).await?;
    enum Step {
        Send(Vec<GameExport>, Option<String>),
        Fetch(String),
        Done,
    }
    let user = user.id;
    let lines = futures_util::stream::unfold(Step::Send(first, next), move |step| {
        let svc = svc.clone();
        async move {
            let (docs, next) = match step {
                Step::Done => return None,
                Step::Send(docs, next) => (docs, next),
                Step::Fetch(cursor) => {
                    match export::of_user(&svc, user, Some(&cursor), EXPORT_PAGE).await {
                        Ok(page) => page,
                        Err(e) => {
                            tracing::error!(error = %e, "exporting an account's games");
                            let cut = std::io::Error::other("the export failed midway");
                            return Some((Err(actix_web::Error::from(cut)), Step::Done));
                        }
                    }
                }
            };
            let mut chunk = Vec::new();
            for doc in &docs {
                if let Err(e) = serde_json::to_writer(&mut chunk, doc) {
                    let cut = std::io::Error::other(e);
                    return Some((Err(actix_web::Error::from(cut)), Step::Done));
                }
                chunk.push(b'\n');
            }
            let then = next.map_or(Step::Done, Step::Fetch);
            Some((Ok(actix_web::web::Bytes::from(chunk)), then))
        }
    });
    Ok(actix_web::HttpResponse::Ok()
        .content_type("application/x-ndjson")
        .streaming(lines))
}
