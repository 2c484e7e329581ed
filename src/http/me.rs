//! `/v1/me`: the caller's account and games.

use actix_web::{get, web};

use super::auth::AuthUser;
use super::problem::{ApiError, Problem};
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

/// Games in which the caller holds a seat, most recently changed first.
#[utoipa::path(
    tag = "me",
    operation_id = "listMyGames",
    responses((status = 200, description = "The caller's games", body = GameList)),
    security(("bearer" = []))
)]
#[get("/me/games")]
pub async fn my_games(
    svc: web::Data<Services>,
    user: AuthUser,
) -> Result<web::Json<GameList>, ApiError> {
    Ok(web::Json(games::mine(&svc, user.id).await?))
}

/// Active games waiting on the caller, longest wait first.
#[utoipa::path(
    tag = "me",
    operation_id = "listMyTurns",
    responses((status = 200, description = "The games waiting on the caller", body = GameList)),
    security(("bearer" = []))
)]
#[get("/me/turns")]
pub async fn my_turns(
    svc: web::Data<Services>,
    user: AuthUser,
) -> Result<web::Json<GameList>, ApiError> {
    Ok(web::Json(games::my_turns(&svc, user.id).await?))
}
