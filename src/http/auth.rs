//! The bearer-token extractor: every route but register, login and health needs one.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use uuid::Uuid;

use super::problem::ApiError;
use crate::service::Services;

/// The authenticated caller.
#[derive(Clone, Copy, Debug)]
pub struct AuthUser {
    pub id: Uuid,
}

impl FromRequest for AuthUser {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(authenticate(req))
    }
}

fn authenticate(req: &HttpRequest) -> Result<AuthUser, ApiError> {
    let Some(svc) = req.app_data::<web::Data<Services>>() else {
        return Err(ApiError::unauthorized("authentication is not configured"));
    };
    let header = req
        .headers()
        .get(actix_web::http::header::AUTHORIZATION)
        .ok_or_else(|| ApiError::unauthorized("send `Authorization: Bearer <token>`"))?;
    let token = header
        .to_str()
        .ok()
        .and_then(|h| {
            h.strip_prefix("Bearer ")
                .or_else(|| h.strip_prefix("bearer "))
        })
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            ApiError::unauthorized("the Authorization header must be `Bearer <token>`")
        })?;
    let id = svc.jwt.verify(token).map_err(|e| {
        let why = match e.kind() {
            jsonwebtoken::errors::ErrorKind::ExpiredSignature => {
                "the token has expired; log in again"
            }
            _ => "the token is not valid",
        };
        ApiError::unauthorized(why)
    })?;
    Ok(AuthUser { id })
}
