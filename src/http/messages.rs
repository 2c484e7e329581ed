//! `/v1/games/{id}/messages`: table talk, to the whole table or privately to one seat.

use super::body::Body;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::auth::AuthUser;
use super::games::{ListQuery, clamp_limit, idempotency_key};
use super::problem::{ApiError, Problem};
use crate::service::views::{MessagePage, MessageView};
use crate::service::{Services, messages};

#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PostMessage {
    /// The seat to write to privately; omitted or `null` for the whole table.
    #[serde(default)]
    pub to_seat: Option<i64>,
    /// The text: trimmed, 1 to 2000 characters.
    #[schema(min_length = 1, max_length = 2000)]
    pub body: String,
}

/// Write to the table, or privately to one seat. Only the game's players may write, while the
/// game is open or active; the recipients whose mail preference is `all` get it by mail.
/// At most 10 messages a minute and 100 a day per player and game. Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "games",
    operation_id = "postMessage",
    request_body = PostMessage,
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retries with the same key and body return the first response; another body is 422"),
    ),
    responses(
        (status = 201, description = "Posted", body = MessageView),
        (status = 403, description = "`not-a-player`: the caller holds no seat in this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game-status`: the game is over", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid-request`: empty or too long, no such seat, the caller's own seat; `idempotency-key-reused`: the key came with another body", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate-limited`: too many messages; wait `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = i64, description = "Seconds to wait"))),
    ),
    security(("bearer" = []))
)]
#[post("/games/{id}/messages")]
pub async fn post(
    svc: web::Data<Services>,
    user: AuthUser,
    req: HttpRequest,
    id: web::Path<Uuid>,
    body: Body<PostMessage>,
) -> Result<HttpResponse, ApiError> {
    let idempotency = idempotency_key(&req, &body.0)?;
    let message = messages::post(
        &svc,
        user.id,
        id.into_inner(),
        body.to_seat,
        &body.body,
        idempotency.as_ref(),
    )
    .await?;
    Ok(HttpResponse::Created().json(message))
}

/// The table talk the caller may read, oldest first: messages to the table, the caller's
/// own, and those written to the caller privately. Only the game's players may read it.
#[utoipa::path(
    tag = "games",
    operation_id = "listMessages",
    params(("id" = Uuid, Path, description = "Game id"), ListQuery),
    responses(
        (status = 200, description = "A page of messages", body = MessagePage),
        (status = 403, description = "`not-a-player`: the caller holds no seat in this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
        (status = 400, description = "`malformed-request`: `cursor` is not one this list gave, or `limit` is not between 1 and 200", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/games/{id}/messages")]
pub async fn list(
    svc: web::Data<Services>,
    user: AuthUser,
    id: web::Path<Uuid>,
    query: web::Query<ListQuery>,
) -> Result<web::Json<MessagePage>, ApiError> {
    let limit = clamp_limit(query.limit, 50, 200)?;
    Ok(web::Json(
        messages::list(
            &svc,
            user.id,
            id.into_inner(),
            query.cursor.as_deref(),
            limit,
        )
        .await?,
    ))
}
