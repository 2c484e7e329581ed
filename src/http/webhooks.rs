//! `/v1/me/webhooks`: URLs that receive the account's `your-turn` and `game-over` events
//! (`service::webhooks`).

use super::body::Body;
use actix_web::{HttpResponse, delete, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::auth::AuthUser;
use super::games::{ListQuery, clamp_limit};
use super::problem::{ApiError, Problem};
use crate::service::Services;
use crate::service::webhooks::{self, DeliveryView, Event, NewWebhookView, WebhookView};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateWebhook {
    /// Where deliveries go: an `http` or `https` URL of a public host (unless the server
    /// allows private addresses), without a user name or password or fragment, up to 2,000
    /// characters; its host must resolve, to public addresses only (unless the server allows
    /// private ones): 422 otherwise.
    #[schema(
        max_length = 2000,
        pattern = "^[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*(:[0-9]{1,4})?([/?][!-\"$-~]*)?$"
    )]
    pub url: String,
    /// The events to deliver: `your-turn`, `game-over`; every event when left out or empty.
    #[serde(default)]
    pub events: Vec<Event>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct WebhookList {
    /// Newest first.
    pub webhooks: Vec<WebhookView>,
    /// Cursor for the next page (`?cursor=`), `null` on the last page.
    pub next: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DeliveryList {
    /// Newest first.
    pub deliveries: Vec<DeliveryView>,
    /// Cursor for the next page (`?cursor=`), `null` on the last page.
    pub next: Option<String>,
}

/// Register a webhook: the account's `your-turn` and `game-over` events are `POST`ed to its URL
/// as JSON, signed with its secret (`Turnpost-Signature: t=<unix>,v1=<hex HMAC-SHA256 of
/// "<t>.<body>">`), with the event's id in `Turnpost-Event-Id`. The secret is in this answer
/// only. A hook registered with an API token stops when that token is revoked.
#[utoipa::path(
    tag = "me",
    operation_id = "createWebhook",
    request_body = CreateWebhook,
    responses(
        (status = 201, description = "Registered; `secret` is shown this once", body = NewWebhookView),
        (status = 403, description = "`insufficient-scope`: the caller is an API token without the scope `account`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`not-now`: the account already has 10 webhooks; delete one first", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid-request`: the URL is not http(s), carries a user name or password, does not resolve, or points at a loopback, private, link-local or other non-public address or at the service itself", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/me/webhooks")]
pub async fn create(
    svc: web::Data<Services>,
    user: AuthUser,
    body: Body<CreateWebhook>,
) -> Result<HttpResponse, ApiError> {
    let made = webhooks::create(&svc, user.id, user.token, &body.url, &body.events).await?;
    Ok(HttpResponse::Created().json(made))
}

/// The caller's webhooks (never their secrets), with their delivery counts.
#[utoipa::path(
    tag = "me",
    operation_id = "listWebhooks",
    params(ListQuery),
    responses(
        (status = 200, description = "A page of the caller's webhooks", body = WebhookList),
        (status = 403, description = "`insufficient-scope`: the caller is an API token without the scope `account`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid-request`: `cursor` is not one this list gave", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/me/webhooks")]
pub async fn list(
    svc: web::Data<Services>,
    user: AuthUser,
    query: web::Query<ListQuery>,
) -> Result<web::Json<WebhookList>, ApiError> {
    let limit = clamp_limit(query.limit, 50, 200)?;
    let (webhooks, next) = webhooks::list(&svc, user.id, query.cursor.as_deref(), limit).await?;
    Ok(web::Json(WebhookList { webhooks, next }))
}

/// Delete one of the caller's webhooks, with the deliveries still queued for it.
#[utoipa::path(
    tag = "me",
    operation_id = "deleteWebhook",
    params(("id" = Uuid, Path, description = "The webhook's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 403, description = "`insufficient-scope`: the caller is an API token without the scope `account`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: the caller has no webhook with this id", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[delete("/me/webhooks/{id}")]
pub async fn remove(
    svc: web::Data<Services>,
    user: AuthUser,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    webhooks::delete(&svc, user.id, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The deliveries of one of the caller's webhooks, newest first: what was sent, how often it
/// was tried, and why the last attempt failed. For debugging a receiver.
#[utoipa::path(
    tag = "me",
    operation_id = "listWebhookDeliveries",
    params(("id" = Uuid, Path, description = "The webhook's id"), ListQuery),
    responses(
        (status = 200, description = "A page of the webhook's deliveries", body = DeliveryList),
        (status = 403, description = "`insufficient-scope`: the caller is an API token without the scope `account`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: the caller has no webhook with this id", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid-request`: `cursor` is not one this list gave", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/me/webhooks/{id}/deliveries")]
pub async fn deliveries(
    svc: web::Data<Services>,
    user: AuthUser,
    id: web::Path<Uuid>,
    query: web::Query<ListQuery>,
) -> Result<web::Json<DeliveryList>, ApiError> {
    let limit = clamp_limit(query.limit, 50, 200)?;
    let (deliveries, next) = webhooks::deliveries(
        &svc,
        user.id,
        id.into_inner(),
        query.cursor.as_deref(),
        limit,
    )
    .await?;
    Ok(web::Json(DeliveryList { deliveries, next }))
}
