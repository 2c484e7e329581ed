//! Cross-origin requests from browsers (issue 19): the pages of the origins in
//! `TURNPOST_CORS_ORIGINS` may call the API; every other origin gets no CORS header, so a
//! browser keeps the answer from its page. With no origin configured the middleware is not
//! there at all, and nothing about the answers changes.
//!
//! The API authenticates by the `Authorization` header, never by a cookie, so no credentials
//! are allowed cross-origin (no `Access-Control-Allow-Credentials`): a page of an allowed
//! origin sends the bearer token it holds, and the players' web pages (which do use a session
//! cookie) cannot be read by another origin even when it is allowed.

use actix_cors::Cors;
use actix_web::http::{Method, header};

/// The methods the API uses (`HEAD` and `GET` are simple; listed for clarity).
pub const METHODS: [Method; 5] = [
    Method::GET,
    Method::HEAD,
    Method::POST,
    Method::PUT,
    Method::DELETE,
];

/// The request headers a client of the API sends, besides the CORS-safelisted ones.
pub const REQUEST_HEADERS: [&str; 5] = [
    "authorization",
    "content-type",
    "idempotency-key",
    "if-none-match",
    "last-event-id",
];

/// The response headers a browser client needs to read.
pub const EXPOSED_HEADERS: [&str; 4] = ["etag", "location", "retry-after", "allow"];

/// How long a browser may keep a preflight's answer (seconds).
pub const MAX_AGE_SECS: usize = 600;

/// The middleware for `origins` (each already in the form browsers send; see
/// [`crate::config::cors`]).
pub fn middleware(origins: &[String]) -> Cors {
    let mut cors = Cors::default()
        .allowed_methods(METHODS)
        .allowed_headers(REQUEST_HEADERS.map(header::HeaderName::from_static))
        .expose_headers(EXPOSED_HEADERS.map(header::HeaderName::from_static))
        .max_age(MAX_AGE_SECS);
    for origin in origins {
        cors = cors.allowed_origin(origin);
    }
    cors
}
