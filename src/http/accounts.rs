//! `/v1/auth`: register, confirm, log in and log out.

use super::body::Body;
use actix_web::{HttpRequest, HttpResponse, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::auth::AuthUser;
use super::problem::{ApiError, Problem};
use crate::service::views::UserView;
use crate::service::{Services, registration, sessions, users};
use crate::web::client::client_of;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegisterRequest {
    pub email: String,
    /// 8 to 1024 characters, not too easy to guess (`weak-password`).
    #[schema(min_length = 8, max_length = 1024)]
    pub password: String,
    /// 1 to 64 characters, shown to other players: no control characters, and not only
    /// spaces (leading and trailing spaces are dropped).
    #[schema(min_length = 1, max_length = 64)]
    pub display_name: String,
}

/// What registering answers, the same whether or not the address has an account.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RegistrationAccepted {
    /// Always `confirmation-sent`.
    pub status: String,
    pub detail: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConfirmRequest {
    /// The token of the link in the confirmation mail (`…/confirm?token=<token>`).
    pub token: String,
}

/// The new account and a login token.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RegisterResponse {
    pub token: String,
    pub expires_at: DateTime<Utc>,
    pub user: UserView,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoginRequest {
    pub email: String,
    pub password: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TokenResponse {
    /// A bearer token: send `Authorization: Bearer <token>`.
    pub token: String,
    pub expires_at: DateTime<Utc>,
}

/// Register: the answer is the same whether or not the address has an account (so nobody can
/// find out who has one), and the mail says the rest. A free address gets a link that
/// creates the account (`confirmAccount`, good for 24 hours, once); an address that has an
/// account gets a mail saying how to sign in, and nothing is created. Until the link is used,
/// logging in answers as for an address without an account.
#[utoipa::path(
    tag = "auth",
    operation_id = "register",
    request_body = RegisterRequest,
    responses(
        (status = 202, description = "Accepted: a mail is on its way to the address (a confirmation link, or, for an address that has an account, how to sign in); the same answer either way", body = RegistrationAccepted),
        (status = 422, description = "`invalid-request`: invalid email, password or name; `weak-password`: the password is too easy to guess (a common one, a word, a pattern), `detail` says why", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate-limited`: too many registrations from the client's address; `Retry-After` (and `retry_after`) says in how many seconds to try again", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = i64, description = "Seconds to wait before trying again"))),
    )
)]
#[post("/auth/register")]
pub async fn register(
    req: HttpRequest,
    svc: web::Data<Services>,
    body: Body<RegisterRequest>,
) -> Result<HttpResponse, ApiError> {
    let client = client_of(&req, &svc);
    registration::register(
        &svc,
        client,
        &body.email,
        &body.password,
        &body.display_name,
        "/",
    )
    .await?;
    Ok(HttpResponse::Accepted().json(accepted()))
}

/// The answer of every registration.
pub fn accepted() -> RegistrationAccepted {
    RegistrationAccepted {
        status: "confirmation-sent".into(),
        detail: registration::ACCEPTED_DETAIL.into(),
    }
}

/// Confirm a registration: the token of the mailed link for the new account and a login
/// token. A link is good once, for 24 hours.
#[utoipa::path(
    tag = "auth",
    operation_id = "confirmAccount",
    request_body = ConfirmRequest,
    responses(
        (status = 201, description = "The account is made (its address confirmed by the link); here is a token", body = RegisterResponse),
        (status = 404, description = "`invalid-link`: no registration has this token: altered, expired, or used already", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`email-taken`: the address got an account since this link was sent (another registration of it was confirmed first); sign in with that one", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/auth/confirm")]
pub async fn confirm(
    svc: web::Data<Services>,
    body: Body<ConfirmRequest>,
) -> Result<HttpResponse, ApiError> {
    let r = registration::confirm(&svc, &body.token).await?.registered;
    Ok(HttpResponse::Created().json(RegisterResponse {
        token: r.token,
        expires_at: r.expires_at,
        user: r.user,
    }))
}

/// Exchange email and password for a token.
#[utoipa::path(
    tag = "auth",
    operation_id = "logIn",
    request_body = LoginRequest,
    responses(
        (status = 200, description = "Logged in", body = TokenResponse),
        (status = 401, description = "`invalid-credentials`: wrong email or password", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate-limited`: too many attempts from the client's address or for this account; `Retry-After` (and `retry_after`) says in how many seconds to try again", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = i64, description = "Seconds to wait before trying again"))),
    )
)]
#[post("/auth/login")]
pub async fn login(
    req: HttpRequest,
    svc: web::Data<Services>,
    body: Body<LoginRequest>,
) -> Result<web::Json<TokenResponse>, ApiError> {
    let client = client_of(&req, &svc);
    let (token, expires_at) = users::login(&svc, client, &body.email, &body.password).await?;
    Ok(web::Json(TokenResponse { token, expires_at }))
}

/// Log out everywhere: revokes every session of the caller's account (all its bearer tokens,
/// this one included, and its web sessions). Log in again for a new token.
#[utoipa::path(
    tag = "auth",
    operation_id = "logOut",
    responses(
        (status = 204, description = "Logged out: every token of the account issued so far is refused from now on (by other server processes within 10 seconds)"),
    ),
    security(("bearer" = []))
)]
#[post("/auth/logout")]
pub async fn logout(svc: web::Data<Services>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    sessions::log_out_everywhere(&svc, user.id).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangePassword {
    /// The current password; ignored (may be empty) for an account that has none yet: one
    /// made by accepting an invitation by mail, which signs in by the links in its mail.
    pub current_password: String,
    /// 8 to 1024 characters, not too easy to guess (`weak-password`).
    #[schema(min_length = 8, max_length = 1024)]
    pub new_password: String,
}

/// Change the password: needs the current one (an account made by mail sets its first one
/// without). Every session of the account ends (all its
/// bearer tokens, this one included, and its web sessions); the answer is a new token.
#[utoipa::path(
    tag = "me",
    operation_id = "changePassword",
    request_body = ChangePassword,
    responses(
        (status = 200, description = "Changed; the old tokens are refused from now on, use this one", body = TokenResponse),
        (status = 403, description = "`wrong-password`: `current_password` is wrong", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid-request`: the new password is under 8 or over 1024 characters; `weak-password`: it is too easy to guess, `detail` says why", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate-limited`: too many password attempts from the client's address or for this account (counted with logins); `Retry-After` (and `retry_after`) says in how many seconds to try again", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = i64, description = "Seconds to wait before trying again"))),
    ),
    security(("bearer" = []))
)]
#[post("/me/password")]
pub async fn change_password(
    req: HttpRequest,
    svc: web::Data<Services>,
    user: AuthUser,
    body: Body<ChangePassword>,
) -> Result<web::Json<TokenResponse>, ApiError> {
    let client = client_of(&req, &svc);
    let (token, expires_at) = users::change_password(
        &svc,
        client,
        user.id,
        &body.current_password,
        &body.new_password,
    )
    .await?;
    Ok(web::Json(TokenResponse { token, expires_at }))
}
