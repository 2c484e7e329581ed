//! `/v1/me/tokens`: personal API tokens for bots and tools (`service::api_tokens`).

use super::body::Body;
use actix_web::{HttpResponse, delete, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::auth::AuthUser;
use super::games::{ListQuery, clamp_limit};
use super::problem::{ApiError, Problem};
use crate::service::Services;
use crate::service::api_tokens::{self, ApiTokenView, NewApiTokenView, Scope};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateApiToken {
    /// What the token is for, 1 to 100 characters ("my bot", "the CLI"): no control
    /// characters, and not only spaces (leading and trailing spaces are dropped).
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    /// At least one of `read` (every GET), `play` (create, join and play games, talk, invite)
    /// and `account` (settings, password, logout, tokens).
    #[schema(min_items = 1)]
    pub scopes: Vec<Scope>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ApiTokenList {
    /// Newest first, revoked ones too (with `revoked_at`).
    pub tokens: Vec<ApiTokenView>,
    /// Cursor for the next page (`?cursor=`), `null` on the last page.
    pub next: Option<String>,
}

/// Make a personal API token. Its secret is in this answer only: keep it. Send it as
/// `Authorization: Bearer <secret>`; it works until it is revoked, for what its scopes allow.
#[utoipa::path(
    tag = "me",
    operation_id = "createApiToken",
    request_body = CreateApiToken,
    responses(
        (status = 201, description = "Made; `secret` is shown this once", body = NewApiTokenView,
            headers(("Cache-Control" = String, description = "`no-store`"))),
        (status = 403, description = "`insufficient-scope`: the caller is an API token without the scope `account`, or asked for a scope it does not hold itself", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`not-now`: the account already has 20 tokens that work; revoke one first", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid-request`: no scope, or a name that is empty, over 100 characters or with control characters", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/me/tokens")]
pub async fn create(
    svc: web::Data<Services>,
    user: AuthUser,
    body: Body<CreateApiToken>,
) -> Result<HttpResponse, ApiError> {
    let made = api_tokens::create(&svc, user.id, user.scopes, &body.name, &body.scopes).await?;
    Ok(HttpResponse::Created().json(made))
}

/// The caller's API tokens (never their secrets), with when each was last used.
#[utoipa::path(
    tag = "me",
    operation_id = "listApiTokens",
    params(ListQuery),
    responses(
        (status = 200, description = "A page of the caller's tokens", body = ApiTokenList),
        (status = 403, description = "`insufficient-scope`: the caller is an API token without the scope `account`", body = Problem, content_type = "application/problem+json"),
        (status = 400, description = "`malformed-request`: `cursor` is not one this list gave, or `limit` is not between 1 and 200", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/me/tokens")]
pub async fn list(
    svc: web::Data<Services>,
    user: AuthUser,
    query: web::Query<ListQuery>,
) -> Result<web::Json<ApiTokenList>, ApiError> {
    let limit = clamp_limit(query.limit, 50, 200)?;
    let (tokens, next) = api_tokens::list(&svc, user.id, query.cursor.as_deref(), limit).await?;
    Ok(web::Json(ApiTokenList { tokens, next }))
}

/// Revoke one of the caller's API tokens: its next request, in any server process, gets 401.
/// Revoking a revoked token again is not an error.
#[utoipa::path(
    tag = "me",
    operation_id = "revokeApiToken",
    params(("id" = Uuid, Path, description = "The token's id")),
    responses(
        (status = 204, description = "Revoked"),
        (status = 403, description = "`insufficient-scope`: the caller is an API token without the scope `account`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: the caller has no token with this id", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[delete("/me/tokens/{id}")]
pub async fn revoke(
    svc: web::Data<Services>,
    user: AuthUser,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    api_tokens::revoke(&svc, user.id, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}
