//! `POST /v1/inbound/mail`: inbound mail handed over by a relay or a mail provider's inbound
//! webhook, as the raw RFC 5322 message. The same use case as the built-in SMTP listener.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, post, web};
use futures_util::StreamExt;

use super::problem::{ApiError, Problem};
use crate::service::Services;
use crate::service::inbound::{self, Received};
use crate::service::sender::Arrival;

/// Hand over one inbound message (a reply to a turn mail).
///
/// The body is the whole message as received (`Content-Type: message/rfc822`, or
/// `application/octet-stream`). Authenticate
/// with `Authorization: Bearer <TURNPOST_INBOUND_SECRET>`. The recipient (the reply address
/// with its token) is read from `Delivered-To`, `X-Original-To`, `To` or `Cc`. The answer says
/// what became of the message; every message that names a game is answered by mail, and a
/// message delivered twice (same Message-ID) is acted on once.
#[utoipa::path(
    tag = "mail",
    operation_id = "receiveInboundMail",
    request_body(content = Vec<u8>, content_type = "application/octet-stream", description = "The raw message, sent as `message/rfc822` or `application/octet-stream`"),
    responses(
        (status = 200, description = "Received, with its verdict", body = Received),
        (status = 400, description = "`malformed-request`: the body could not be read", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`unauthorized`: missing or wrong inbound secret", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "`payload-too-large`: over `TURNPOST_INBOUND_MAX_BYTES`", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "`unsupported-media-type`: neither `message/rfc822` nor `application/octet-stream`", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
#[post("/inbound/mail")]
pub async fn receive_mail(
    svc: web::Data<Services>,
    req: HttpRequest,
    mut body: web::Payload,
) -> Result<web::Json<Received>, ApiError> {
    let given = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .unwrap_or("");
    if !inbound::secret_matches(&svc.inbound, given) {
        return Err(ApiError::unauthorized(
            "send Authorization: Bearer <TURNPOST_INBOUND_SECRET> (inbound mail over HTTP is \
             off while the secret is unset)",
        ));
    }
    let content_type = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let content_type = content_type.to_ascii_lowercase();
    // `message/rfc822` says what it is; `application/octet-stream` is what generated clients
    // and many webhooks send for raw bytes (and the only raw type generators accept).
    if !content_type.starts_with("message/rfc822")
        && !content_type.starts_with("application/octet-stream")
    {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported-media-type",
            "Unsupported media type",
            "send the raw message as Content-Type: message/rfc822 (or application/octet-stream)",
        ));
    }
    let limit = svc.inbound.max_bytes;
    let mut raw = web::BytesMut::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| ApiError::bad_request(format!("reading the body: {e}")))?;
        if raw.len() + chunk.len() > limit {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload-too-large",
                "Payload too large",
                format!("inbound messages are limited to {limit} bytes"),
            ));
        }
        raw.extend_from_slice(&chunk);
    }
    Ok(web::Json(
        inbound::receive(&svc, &raw, Arrival::Http, &[]).await?,
    ))
}
