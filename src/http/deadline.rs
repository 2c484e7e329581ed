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

/// How long a request may take until its answer starts, as app data (`None`: no limit).
#[derive(Clone, Copy, Debug)]
pub struct RequestTimeout(pub Option<Duration>);

/// Middleware: a request whose answer has not started within [`RequestTimeout`] (and the
/// `wait` of a long poll) is answered
/// 503 `unavailable` with `Retry-After` (issue 43: a frozen database held every request until
/// it woke). What the request was doing is dropped: a transaction in flight is rolled back by
/// PostgreSQL when its connection, found broken, is closed; one whose commit was already
/// sent may still commit, as after any lost answer (an `Idempotency-Key` tells).
pub async fn request_deadline(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    let limit = req
        .app_data::<web::Data<RequestTimeout>>()
        .and_then(|t| t.0);
    let Some(limit) = limit else {
        return next
            .call(req)
            .await
            .map(ServiceResponse::map_into_boxed_body);
    };
    // A long poll (`GET /v1/games/{id}/events?wait=`) waits that long on purpose.
    let asked = form_urlencoded::parse(req.query_string().as_bytes())
        .find(|(k, _)| k == "wait")
        .and_then(|(_, v)| v.parse::<u64>().ok())
        .unwrap_or(0)
        .min(super::games::MAX_WAIT_SECS);
    let limit = limit + Duration::from_secs(asked);
    // (The request cannot be kept for the answer: routing needs it unshared. The 503 goes out
    // as an error, which actix answers with the problem document, `Retry-After` included; the
    // middlewares outside this one see no response to add their headers to, so the error
    // carries the security headers itself.)
    let path = req.path().to_owned();
    match tokio::time::timeout(limit, next.call(req)).await {
        Ok(answer) => answer.map(ServiceResponse::map_into_boxed_body),
        Err(_) => {
            tracing::warn!(path = %path, "a request timed out");
            Err(TimedOut(super::problem::ApiError::from(
                crate::service::ServiceError::Unavailable(anyhow::anyhow!(
                    "no answer within {} s",
                    limit.as_secs_f32()
                )),
            ))
            .into())
        }
    }
}

/// The deadline's 503: the problem document with the headers every answer carries.
#[derive(Debug)]
struct TimedOut(super::problem::ApiError);

impl std::fmt::Display for TimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

impl actix_web::ResponseError for TimedOut {
    fn status_code(&self) -> actix_web::http::StatusCode {
        self.0.status_code()
    }

    fn error_response(&self) -> actix_web::HttpResponse {
        let mut response = self.0.error_response();
        super::add_security_headers(response.headers_mut());
        response
    }
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use actix_web::dev::Service;
    use actix_web::middleware::{DefaultHeaders, from_fn};
    use actix_web::{App, HttpResponse, test, web};

    use super::{RequestTimeout, request_deadline};

    /// Issue 43: "the 503 of the request deadline lacks the security headers". The deadline's
    /// answer is an error, which passes the headers' middleware untouched (as here, where it
    /// sits outside, as in the server); the response made of it carries them all the same.
    #[actix_web::test]
    async fn a_timed_out_request_is_503_with_the_security_headers() {
        let app = test::init_service(
            App::new()
                .wrap(from_fn(request_deadline))
                .app_data(web::Data::new(RequestTimeout(Some(Duration::from_millis(
                    50,
                )))))
                .wrap(
                    crate::http::SECURITY_HEADERS
                        .iter()
                        .fold(DefaultHeaders::new(), |headers, (name, value)| {
                            headers.add((name.clone(), *value))
                        }),
                )
                .route(
                    "/slow",
                    web::get().to(|| async {
                        tokio::time::sleep(Duration::from_secs(30)).await;
                        HttpResponse::Ok().finish()
                    }),
                ),
        )
        .await;
        let answer = app
            .call(test::TestRequest::get().uri("/slow").to_request())
            .await;
        let Err(error) = answer else {
            panic!("the deadline did not answer");
        };
        let response = error.as_response_error().error_response();
        assert_eq!(response.status(), 503);
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        assert_eq!(header("x-content-type-options").as_deref(), Some("nosniff"));
        assert_eq!(header("referrer-policy").as_deref(), Some("no-referrer"));
        assert_eq!(header("cache-control").as_deref(), Some("no-store"));
        assert!(header("retry-after").is_some());
        assert!(header("content-type").is_some_and(|t| t.starts_with("application/problem+json")));
    }
}
