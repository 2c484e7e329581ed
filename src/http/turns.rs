//! A turn planned before it is sent, and answered in advance: previewing actions, and the
//! caller's standing orders (DESIGN.md, "Pace: a turn per reply").

use actix_web::{get, post, put, web};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::auth::AuthUser;
use super::body::Body;
use super::problem::{ApiError, Problem};
use crate::service::orders::{self, OrdersView};
use crate::service::preview::{self, PreviewResult};
use crate::service::{ServiceError, Services};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PreviewActions {
    /// The actions to try, as `submitActions` takes them (an action as listed, or
    /// `{"notation": "..."}`), in order.
    #[schema(min_items = 1)]
    pub actions: Vec<Value>,
}

/// Preview actions: the caller's view and choices after them, as if submitted; nothing is
/// written. It stops, revealing nothing, before a chance step, another seat's decision or the
/// end of the game (`stopped`, with `applied` saying how many of the actions it got through).
/// Confirm a plan by submitting the same actions with `expected_version` = `version`.
#[utoipa::path(
    tag = "games",
    operation_id = "previewActions",
    request_body = PreviewActions,
    params(("id" = Uuid, Path, description = "Game id")),
    responses(
        (status = 200, description = "The caller's game after the actions", body = PreviewResult),
        (status = 403, description = "`not-a-player`: the caller holds no seat; `not-your-decision`: not the caller's decision now", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game-status`: the game is not active", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`illegal-action`: an illegal action, or one not written exactly as `legal_actions` lists it (`{\"end_move\": null}` for `\"end_move\"`, an unknown field), with `action_index` and the reason; `invalid-request`: no actions", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/games/{id}/actions/preview")]
pub async fn preview_actions(
    svc: web::Data<Services>,
    user: AuthUser,
    id: web::Path<Uuid>,
    body: Body<PreviewActions>,
) -> Result<web::Json<PreviewResult>, ApiError> {
    if body.actions.is_empty() {
        return Err(ServiceError::Invalid("actions must not be empty".into()).into());
    }
    Ok(web::Json(
        preview::preview(&svc, user.id, id.into_inner(), &body.actions).await?,
    ))
}

/// The caller's standing orders in a game, and those its ruleset offers. Only the seat's own
/// player sees them.
#[utoipa::path(
    tag = "games",
    operation_id = "getStandingOrders",
    params(("id" = Uuid, Path, description = "Game id")),
    responses(
        (status = 200, description = "The caller's standing orders", body = OrdersView),
        (status = 403, description = "`not-a-player`: the caller holds no seat in this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/games/{id}/orders")]
pub async fn get_orders(
    svc: web::Data<Services>,
    user: AuthUser,
    id: web::Path<Uuid>,
) -> Result<web::Json<OrdersView>, ApiError> {
    Ok(web::Json(
        orders::get(&svc, user.id, id.into_inner()).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetOrders {
    /// The standing orders to follow (of `available`), each its id, followed by what it takes
    /// if it takes anything (an `argument` in `available`): `["play-lone-choices",
    /// "characters oracle queen"]`; `[]` clears them.
    #[schema(max_items = 32)]
    pub orders: Vec<String>,
}

/// Set the caller's standing orders in a game (replacing any before). Each decision an order
/// makes is the caller's own action in the log; nobody else can see the orders. If one answers
/// the decision the caller faces now, it is played at once.
#[utoipa::path(
    tag = "games",
    operation_id = "setStandingOrders",
    request_body = SetOrders,
    params(("id" = Uuid, Path, description = "Game id")),
    responses(
        (status = 200, description = "The caller's standing orders now", body = OrdersView),
        (status = 403, description = "`not-a-player`: the caller holds no seat in this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game-status`: the game is over", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid-request`: an id the ruleset does not offer, an argument an order does not take or a bad one (an unknown name: the known ones are listed)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[put("/games/{id}/orders")]
pub async fn set_orders(
    svc: web::Data<Services>,
    user: AuthUser,
    id: web::Path<Uuid>,
    body: Body<SetOrders>,
) -> Result<web::Json<OrdersView>, ApiError> {
    if body.orders.len() > 32 {
        return Err(ServiceError::Invalid("at most 32 standing orders".into()).into());
    }
    Ok(web::Json(
        orders::set(&svc, user.id, id.into_inner(), &body.orders).await?,
    ))
}
