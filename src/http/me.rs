//! `/v1/me`: the caller's account and games.

use actix_web::{get, web};
use utoipa::IntoParams;

use super::auth::AuthUser;
use super::games::{ListQuery, clamp_limit};
use super::problem::{ApiError, Problem};
use crate::service::games::GameStatus;
use crate::service::views::{GameList, UserView};
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
