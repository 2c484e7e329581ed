//! Seats beyond playing: come back, resign, vote to abort, take over a seat; vacations.

use super::body::Body;
use actix_web::{HttpResponse, delete, get, post, put, web};
use uuid::Uuid;

use super::auth::AuthUser;
use super::problem::{ApiError, Problem};
use crate::service::Services;
use crate::service::seats::{self, VacationView};
use crate::service::views::GameView;
use crate::service::views::Vacation;

/// Come back after an absence: a seat marked absent (too many timeouts in a row) is played by
/// the bot until its player calls this; then it is theirs again.
#[utoipa::path(
    tag = "games",
    operation_id = "comeBack",
    params(("id" = Uuid, Path, description = "Game id")),
    responses(
        (status = 200, description = "The game", body = GameView),
        (status = 403, description = "`not-a-player`: the caller holds no seat in this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`not-now`: the seat is not absent; `game-status`: the game is not active", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/games/{id}/back")]
pub async fn back(
    svc: web::Data<Services>,
    user: AuthUser,
    id: web::Path<Uuid>,
) -> Result<web::Json<GameView>, ApiError> {
    Ok(web::Json(seats::back(&svc, user.id, *id).await?))
}

/// Resign: in a two-seat game the other player wins at once; otherwise the built-in bot plays
/// the seat to the end (and it may be taken over by someone else).
#[utoipa::path(
    tag = "games",
    operation_id = "resign",
    params(("id" = Uuid, Path, description = "Game id")),
    responses(
        (status = 200, description = "The game", body = GameView),
        (status = 403, description = "`not-a-player`: the caller holds no seat in this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`not-now`: already resigned; `game-status`: the game is not active", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/games/{id}/resign")]
pub async fn resign(
    svc: web::Data<Services>,
    user: AuthUser,
    id: web::Path<Uuid>,
) -> Result<web::Json<GameView>, ApiError> {
    Ok(web::Json(seats::resign(&svc, user.id, *id).await?))
}

/// Vote to abort: when every player still in the game (not a bot, not resigned) has voted,
/// the game is `abandoned`.
#[utoipa::path(
    tag = "games",
    operation_id = "voteToAbort",
    params(("id" = Uuid, Path, description = "Game id")),
    responses(
        (status = 200, description = "The game (status `abandoned` after the last vote)", body = GameView),
        (status = 403, description = "`not-a-player`: the caller holds no seat in this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`not-now`: already voted; `game-status`: the game is not active", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/games/{id}/abort")]
pub async fn abort(
    svc: web::Data<Services>,
    user: AuthUser,
    id: web::Path<Uuid>,
) -> Result<web::Json<GameView>, ApiError> {
    Ok(web::Json(seats::abort(&svc, user.id, *id).await?))
}

/// Take over the seat of an absent or resigned player (such games are listed by
/// `GET /v1/games` beside the open ones). The caller plays it from now on and sees what that
/// seat sees: its hand, and the log as that seat saw it.
#[utoipa::path(
    tag = "games",
    operation_id = "takeOverSeat",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("seat" = i64, Path, description = "The seat to take over"),
    ),
    responses(
        (status = 200, description = "The game", body = GameView),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`seat-unavailable`: the seat has a player or the caller holds a seat; `game-status`: the game is not active", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid-request`: no such seat", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/games/{id}/seats/{seat}/take-over")]
pub async fn take_over(
    svc: web::Data<Services>,
    user: AuthUser,
    path: web::Path<(Uuid, i64)>,
) -> Result<web::Json<GameView>, ApiError> {
    let (id, seat) = *path;
    Ok(web::Json(seats::take_over(&svc, user.id, id, seat).await?))
}

/// The caller's vacation and the vacation days left this year.
#[utoipa::path(
    tag = "me",
    operation_id = "getVacation",
    responses((status = 200, description = "The vacation", body = VacationView)),
    security(("bearer" = []))
)]
#[get("/me/vacation")]
pub async fn vacation(
    svc: web::Data<Services>,
    user: AuthUser,
) -> Result<web::Json<VacationView>, ApiError> {
    Ok(web::Json(seats::vacation(&svc, user.id).await?))
}

/// Set a vacation (30 days a year): the caller's clocks stand still from `from` to `until`,
/// and every deadline of theirs moves by exactly that pause. Other players see it.
#[utoipa::path(
    tag = "me",
    operation_id = "setVacation",
    request_body = Vacation,
    responses(
        (status = 200, description = "The vacation", body = VacationView),
        (status = 404, description = "`not-found`: the account no longer exists", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid-request`: ends before it begins or in the past, or too many days", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[put("/me/vacation")]
pub async fn set_vacation(
    svc: web::Data<Services>,
    user: AuthUser,
    body: Body<Vacation>,
) -> Result<web::Json<VacationView>, ApiError> {
    Ok(web::Json(
        seats::set_vacation(&svc, user.id, Some(body.into_inner())).await?,
    ))
}

/// End the vacation now (the clocks run again from now).
#[utoipa::path(
    tag = "me",
    operation_id = "endVacation",
    responses(
        (status = 200, description = "The vacation, ended", body = VacationView),
        (status = 404, description = "`not-found`: the account no longer exists", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[delete("/me/vacation")]
pub async fn end_vacation(
    svc: web::Data<Services>,
    user: AuthUser,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(seats::set_vacation(&svc, user.id, None).await?))
}
