//! The bearer-token extractor: every route but register, confirm, login and health needs one. A
//! token is good when its signature and lifetime are, its account exists and it was not
//! revoked since (its token version is still the account's: `service::sessions`, which
//! answers from memory for most requests and asks the database at most every few seconds
//! per account). A personal API token (`tp_…`, `service::api_tokens`) is checked against its
//! row at every request, and must hold the scope the request needs (403 otherwise).

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use futures_util::future::LocalBoxFuture;
use uuid::Uuid;

use super::problem::ApiError;
use crate::service::api_tokens::{self, Scope, Scopes};
use crate::service::{ServiceError, Services, sessions};

/// The authenticated caller.
#[derive(Clone, Copy, Debug)]
pub struct AuthUser {
    pub id: Uuid,
    /// What the caller may do: everything for a session, its scopes for an API token.
    pub scopes: Scopes,
    /// The API token the caller authenticated with; `None` for a session.
    pub token: Option<Uuid>,
}

impl FromRequest for AuthUser {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let svc = req.app_data::<web::Data<Services>>().cloned();
        let bearer = bearer(req).map(str::to_owned);
        let needed = Scope::needed(req.method().as_str(), req.path());
        Box::pin(async move {
            let svc =
                svc.ok_or_else(|| ApiError::unauthorized("authentication is not configured"))?;
            let bearer = bearer?;
            if api_tokens::is_api_token(&bearer) {
                let (id, scopes, token) = api_tokens::authenticate(&svc, &bearer).await?;
                if !scopes.allows(needed) {
                    return Err(ServiceError::InsufficientScope(format!(
                        "this API token lacks the scope `{}` this request needs",
                        needed.as_str()
                    ))
                    .into());
                }
                return Ok(AuthUser {
                    id,
                    scopes,
                    token: Some(token),
                });
            }
            let session = signed_session(&svc, &bearer)?;
            sessions::check(&svc, session.user, session.version).await?;
            Ok(AuthUser {
                id: session.user,
                scopes: Scopes::EVERY,
                token: None,
            })
        })
    }
}

/// The request's bearer token.
fn bearer(req: &HttpRequest) -> Result<&str, ApiError> {
    let header = req
        .headers()
        .get(actix_web::http::header::AUTHORIZATION)
        .ok_or_else(|| ApiError::unauthorized("send `Authorization: Bearer <token>`"))?;
    header
        .to_str()
        .ok()
        .and_then(|h| {
            h.strip_prefix("Bearer ")
                .or_else(|| h.strip_prefix("bearer "))
        })
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| ApiError::unauthorized("the Authorization header must be `Bearer <token>`"))
}

/// The session named by a bearer token, if its signature and lifetime are good.
fn signed_session(svc: &Services, token: &str) -> Result<crate::auth::Session, ApiError> {
    svc.jwt.verify(token).map_err(|e| {
        let why = match e.kind() {
            jsonwebtoken::errors::ErrorKind::ExpiredSignature => {
                "the token has expired; log in again"
            }
            _ => "the token is not valid",
        };
        ApiError::unauthorized(why)
    })
}
