//! Mail-related routes: address verification, preferences, one-click unsubscribe (RFC 8058),
//! invitations by email.

use super::body::Body;
use actix_web::{HttpResponse, get, post, put, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::auth::AuthUser;
use super::problem::{ApiError, Problem};
use crate::service::views::{GameView, InvitationView, PreferencesView, UserView};
use crate::service::{Services, invitations, users};

#[derive(Debug, Deserialize, IntoParams)]
pub struct TokenQuery {
    /// The signed token from the link.
    pub token: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Accepted {
    pub status: String,
}

/// Send the address-verification mail again.
#[utoipa::path(
    tag = "mail",
    operation_id = "resendVerificationMail",
    responses(
        (status = 202, description = "Queued", body = Accepted),
        (status = 404, description = "`not-found`: the account no longer exists", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game-status`: the address is verified already", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate-limited`: the account was sent its daily number of verification mails; `Retry-After` (and `retry_after`) says in how many seconds one more may go", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = i64, description = "Seconds to wait before trying again"))),
    ),
    security(("bearer" = []))
)]
#[post("/me/email/verification")]
pub async fn resend_verification(
    svc: web::Data<Services>,
    user: AuthUser,
) -> Result<HttpResponse, ApiError> {
    users::resend_verification(&svc, user.id).await?;
    Ok(HttpResponse::Accepted().json(Accepted {
        status: "queued".into(),
    }))
}

/// Confirm an address with the signed link from the verification mail (no login needed).
#[utoipa::path(
    tag = "mail",
    operation_id = "verifyEmail",
    params(TokenQuery),
    responses(
        (status = 200, description = "Verified", body = UserView),
        (status = 400, description = "`malformed-request`: no token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`invalid-link`: a link no mail gave out (altered, forged or expired), or one made void since", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/email/verify")]
pub async fn verify_email(
    svc: web::Data<Services>,
    query: web::Query<TokenQuery>,
) -> Result<web::Json<UserView>, ApiError> {
    Ok(web::Json(users::view(
        &users::verify_email(&svc, &query.token).await?,
    )))
}

/// At least one of `mail` and `pictures`, not `null`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetPreferences {
    /// `all` (every game mail), `turns` (only "your turn"), `none`; left as it is when absent.
    #[schema(pattern = "^(all|turns|none)$")]
    pub mail: Option<String>,
    /// Whether game mail shows the board as a picture too (off for a new account: the board is
    /// then in words only, and a mail about half as large); left as it is when absent.
    pub pictures: Option<bool>,
}

/// The caller's mail preference.
#[utoipa::path(
    tag = "mail",
    operation_id = "getMailPreferences",
    responses(
        (status = 200, description = "The preference", body = PreferencesView),
        (status = 404, description = "`not-found`: the account no longer exists", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[get("/me/preferences")]
pub async fn preferences(
    svc: web::Data<Services>,
    user: AuthUser,
) -> Result<web::Json<PreferencesView>, ApiError> {
    Ok(web::Json(users::preferences(&svc, user.id).await?))
}

/// Set which game mail the caller gets.
#[utoipa::path(
    tag = "mail",
    operation_id = "setMailPreferences",
    request_body = SetPreferences,
    responses(
        (status = 200, description = "The new preference", body = PreferencesView),
        (status = 404, description = "`not-found`: the account no longer exists", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid-request`: `mail` not `all`, `turns` or `none`, or neither `mail` nor `pictures` given", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[put("/me/preferences")]
pub async fn set_preferences(
    svc: web::Data<Services>,
    user: AuthUser,
    body: Body<SetPreferences>,
) -> Result<web::Json<PreferencesView>, ApiError> {
    Ok(web::Json(
        users::set_preferences(&svc, user.id, body.mail.as_deref(), body.pictures).await?,
    ))
}

/// The unsubscribe page behind a mail's link: a button that POSTs (opening the link
/// changes nothing, so link scanners cannot unsubscribe anyone).
#[utoipa::path(
    tag = "mail",
    operation_id = "showUnsubscribePage",
    params(TokenQuery),
    responses((status = 200, description = "A confirmation page", body = String, content_type = "text/html"))
)]
#[get("/unsubscribe")]
pub async fn unsubscribe_page(query: web::Query<TokenQuery>) -> HttpResponse {
    let token: String = query
        .token
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect();
    HttpResponse::Ok().content_type("text/html; charset=utf-8").body(format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Unsubscribe</title></head><body>\
         <form method=\"post\" action=\"/v1/unsubscribe?token={token}\">\
         <input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\">\
         <p>Stop all game mail from Turnpost?</p><button type=\"submit\">Unsubscribe</button></form></body></html>"
    ))
}

/// One-click unsubscribe (RFC 8058): POST to the `List-Unsubscribe` URL; no login needed.
#[utoipa::path(
    tag = "mail",
    operation_id = "unsubscribe",
    params(TokenQuery),
    responses(
        (status = 200, description = "Unsubscribed", body = Accepted),
        (status = 400, description = "`malformed-request`: no token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`invalid-link`: a link no mail gave out (altered or forged)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/unsubscribe")]
pub async fn unsubscribe(
    svc: web::Data<Services>,
    query: web::Query<TokenQuery>,
) -> Result<web::Json<Accepted>, ApiError> {
    users::unsubscribe(&svc, &query.token).await?;
    Ok(web::Json(Accepted {
        status: "unsubscribed".into(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Invite {
    pub email: String,
    /// The seat to offer, 0 to the game's seats less one; the lowest free seat at acceptance
    /// when omitted.
    #[serde(default)]
    #[schema(minimum = 0)]
    pub seat: Option<i64>,
}

/// Invite an address to an open game (callers must hold a seat in it).
#[utoipa::path(
    tag = "games",
    operation_id = "inviteByMail",
    request_body = Invite,
    params(("id" = Uuid, Path, description = "Game id")),
    responses(
        (status = 201, description = "Invitation mailed", body = InvitationView),
        (status = 403, description = "`not-a-player`: the caller holds no seat in this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`not-found`: no such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`seat-unavailable`: the seat is taken; `game-status`: the game is not open", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid-request`: not an address, or no such seat", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate-limited`: the caller sent its daily number of invitations, or the address (which no account has confirmed) received its daily number; `Retry-After` (and `retry_after`) says in how many seconds one more may go", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = i64, description = "Seconds to wait before trying again"))),
    ),
    security(("bearer" = []))
)]
#[post("/games/{id}/invitations")]
pub async fn invite(
    svc: web::Data<Services>,
    user: AuthUser,
    id: web::Path<Uuid>,
    body: Body<Invite>,
) -> Result<HttpResponse, ApiError> {
    let inv = invitations::invite(&svc, user.id, id.into_inner(), &body.email, body.seat).await?;
    Ok(HttpResponse::Created().json(inv))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct InvitationDetails {
    pub invitation: InvitationView,
    pub game: GameView,
}

/// What a join link invites to (no login needed).
#[utoipa::path(
    tag = "games",
    operation_id = "showInvitation",
    params(TokenQuery),
    responses(
        (status = 200, description = "The invitation and its game", body = InvitationDetails),
        (status = 400, description = "`malformed-request`: no token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`invalid-link`: a link no mail gave out (altered, forged or expired); `not-found`: the invitation or its game is gone", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/invitations/accept")]
pub async fn show_invitation(
    svc: web::Data<Services>,
    query: web::Query<TokenQuery>,
) -> Result<web::Json<InvitationDetails>, ApiError> {
    let (invitation, game) = invitations::show(&svc, &query.token).await?;
    Ok(web::Json(InvitationDetails { invitation, game }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AcceptInvitation {
    pub token: String,
}

/// Accept an invitation: the caller takes the invited seat. Only the account whose address
/// the invitation was sent to may accept it; if that address is not confirmed yet, accepting
/// confirms it (the link was mailed there).
#[utoipa::path(
    tag = "games",
    operation_id = "acceptInvitation",
    request_body = AcceptInvitation,
    responses(
        (status = 200, description = "Seated", body = GameView),
        (status = 400, description = "`malformed-request`: a malformed body", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`not-invited`: the invitation was sent to another address than the caller's account's", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`invalid-link`: a link no mail gave out (altered, forged or expired); `not-found`: the game is gone", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`seat-unavailable`: the invitation was accepted already, the seat is taken or the caller is seated already; `game-status`: the game is not open", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid-request`: the invited seat does not exist", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/invitations/accept")]
pub async fn accept_invitation(
    svc: web::Data<Services>,
    user: AuthUser,
    body: Body<AcceptInvitation>,
) -> Result<web::Json<GameView>, ApiError> {
    Ok(web::Json(
        invitations::accept(&svc, user.id, &body.token).await?,
    ))
}
