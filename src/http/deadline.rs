//! A deadline for request bodies. actix-web waits for a body as long as the client keeps the
//! connection open, so a client that sends its headers and never its body holds a connection
//! and a file descriptor for ever (2,000 such clients held 2,000). Every request's body must
//! now arrive whole within [`BodyTimeout`] (`TURNPOST_BODY_TIMEOUT_SECS`) of its head: past
//! it, the body ends in an error, the request is answered 408 `request-timeout` and the
//! connection is closed. The head has the same time (`client_request_timeout`).

use std::pin::Pin;
use std::time::Duration;

use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::middleware::Next;
use actix_web::{HttpMessage, web};
use futures_util::{Stream, StreamExt};

/// How long a request's body may take, as app data.
#[derive(Clone, Copy, Debug)]
pub struct BodyTimeout(pub Duration);

/// The error a body gets when its time is up (recognised by the JSON error handler).
pub fn timed_out() -> PayloadError {
    PayloadError::Io(std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        "the request body did not arrive in time",
    ))
}

/// Whether a payload error is this deadline's.
pub fn is_timeout(e: &PayloadError) -> bool {
    matches!(e, PayloadError::Io(io) if io.kind() == std::io::ErrorKind::TimedOut)
}

/// Middleware: the request's payload, ending with [`timed_out`] once the deadline passes.
pub async fn body_deadline(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let limit = req
        .app_data::<web::Data<BodyTimeout>>()
        .map_or(Duration::from_secs(20), |t| t.0);
    let deadline = tokio::time::Instant::now() + limit;
    let payload = req.take_payload();
    let timed = futures_util::stream::unfold(Some(payload), move |state| async move {
        let mut payload = state?;
        match tokio::time::timeout_at(deadline, payload.next()).await {
            Ok(Some(item)) => Some((item, Some(payload))),
            Ok(None) => None,
            // Time is up: one error, then the end.
            Err(_) => Some((Err(timed_out()), None)),
        }
    });
    let boxed: Pin<Box<dyn Stream<Item = Result<web::Bytes, PayloadError>>>> = Box::pin(timed);
    req.set_payload(Payload::from(boxed));
    next.call(req).await
}
