//! Errors as `application/problem+json` (RFC 9457) with a stable `type` per kind of problem.
//! The cause chain of unexpected errors is logged, never shown to the client.

use actix_web::http::StatusCode;
use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, ResponseError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::service::ServiceError;

/// Base of every problem `type`; the last segment names the problem.
pub const PROBLEM_BASE: &str = "https://turnpost.dev/problems/";

/// Every problem `type` the API answers (the last segment after [`PROBLEM_BASE`]), its status
/// and its meaning: the catalog published in the OpenAPI document. A test checks that every
/// slug given to [`ApiError::new`] is here.
pub const PROBLEM_TYPES: &[(&str, u16, &str)] = &[
    (
        "malformed-request",
        400,
        "the body, a parameter or a header could not be read",
    ),
    (
        "bad-request",
        400,
        "another malformed request (the status says which)",
    ),
    (
        "unauthorized",
        401,
        "no bearer token, a bad or expired one, a wrong secret, a token whose account does not exist, a session revoked by a logout or a new password, or a revoked API token",
    ),
    ("invalid-credentials", 401, "wrong email or password"),
    (
        "insufficient-scope",
        403,
        "the caller's API token lacks the scope the request needs (`read`, `play` or `account`)",
    ),
    ("not-a-player", 403, "the caller holds no seat in this game"),
    (
        "wrong-password",
        403,
        "the current password given to change it is wrong",
    ),
    (
        "not-invited",
        403,
        "the invitation was sent to an address that is not the caller's",
    ),
    (
        "not-your-decision",
        403,
        "the caller's seat is not to act now",
    ),
    (
        "not-found",
        404,
        "no such game, account, invitation or route",
    ),
    (
        "invalid-link",
        404,
        "a signed link (address verification, registration, invitation, unsubscribe) that no mail gave out: altered, forged, expired, used already (a registration's), or made void since (a changed address); it names nothing that can be used",
    ),
    (
        "method-not-allowed",
        405,
        "the route does not take that method",
    ),
    (
        "version-conflict",
        409,
        "stale `expected_version`; `current_version` says the game's",
    ),
    (
        "game-status",
        409,
        "not possible in the game's (or the address's) status",
    ),
    (
        "seat-unavailable",
        409,
        "the seat is taken, or the caller is seated already",
    ),
    (
        "not-now",
        409,
        "not possible now (already done, or not in that state)",
    ),
    (
        "email-taken",
        409,
        "the address got an account after the confirmation link was sent (another registration of it was confirmed first)",
    ),
    (
        "request-timeout",
        408,
        "the request's body did not arrive within the deadline",
    ),
    ("payload-too-large", 413, "the body is over the limit"),
    (
        "unsupported-media-type",
        415,
        "the body's `Content-Type` is not one the route reads",
    ),
    (
        "invalid-request",
        422,
        "well-formed but not acceptable; `detail` says why",
    ),
    (
        "weak-password",
        422,
        "the new password is too easy to guess (a common one, a word, a pattern); `detail` says why",
    ),
    ("unknown-ruleset", 422, "no ruleset has that id"),
    (
        "invalid-seat-count",
        422,
        "the seat count is outside the ruleset's range",
    ),
    (
        "illegal-action",
        422,
        "an action the rules refuse; `action_index` says which",
    ),
    (
        "idempotency-key-reused",
        422,
        "the `Idempotency-Key` came before with another request",
    ),
    (
        "rate-limited",
        429,
        "too many requests; wait `retry_after` (`Retry-After`) seconds",
    ),
    (
        "internal",
        500,
        "a fault on the server's side; it has been logged",
    ),
    (
        "unavailable",
        503,
        "the database is not reachable or did not answer in time (`TURNPOST_DB_WAIT_SECS`, \
         `TURNPOST_DB_STATEMENT_TIMEOUT_SECS`, `TURNPOST_REQUEST_TIMEOUT_SECS`), or the server is \
         stopping; try again after `retry_after` (`Retry-After`) seconds",
    ),
];

/// An RFC 9457 problem document.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Problem {
    /// Stable identifier of the kind of problem, e.g. `https://turnpost.dev/problems/version-conflict`
    /// (the document's description lists them all).
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    /// What went wrong with this request, for a person.
    pub detail: String,
    /// For `version-conflict`: the game's current version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_version: Option<i64>,
    /// For `illegal-action`: the index of the refused action in `actions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_index: Option<usize>,
    /// For `rate-limited` and `unavailable`: seconds to wait before trying again (also the
    /// `Retry-After` header).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<i64>,
}

/// An error on its way to the client.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub slug: &'static str,
    pub title: &'static str,
    pub detail: String,
    pub current_version: Option<i64>,
    pub action_index: Option<usize>,
    /// Sent as `Retry-After` (seconds) too.
    pub retry_after: Option<i64>,
}

impl ApiError {
    pub fn new(
        status: StatusCode,
        slug: &'static str,
        title: &'static str,
        detail: impl Into<String>,
    ) -> Self {
        ApiError {
            status,
            slug,
            title,
            detail: detail.into(),
            current_version: None,
            action_index: None,
            retry_after: None,
        }
    }

    pub fn bad_request(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "malformed-request",
            "Malformed request",
            detail,
        )
    }

    pub fn unauthorized(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "Authentication required",
            detail,
        )
    }

    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not-found", "Not found", detail)
    }

    pub fn problem(&self) -> Problem {
        Problem {
            kind: format!("{PROBLEM_BASE}{}", self.slug),
            title: self.title.into(),
            status: self.status.as_u16(),
            detail: self.detail.clone(),
            current_version: self.current_version,
            action_index: self.action_index,
            retry_after: self.retry_after,
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.slug, self.detail)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let body = serde_json::to_string(&self.problem()).unwrap_or_else(|_| "{}".into());
        let mut response = HttpResponse::build(self.status);
        response.insert_header(ContentType(
            "application/problem+json".parse().unwrap_or(mime_json()),
        ));
        if let Some(secs) = self.retry_after {
            response.insert_header((actix_web::http::header::RETRY_AFTER, secs.to_string()));
            if self.status == StatusCode::TOO_MANY_REQUESTS {
                // The rate-limit fields of the IETF draft (draft-ietf-httpapi-ratelimit-headers):
                // nothing left now, the next one allowed in `secs`.
                response.insert_header(("RateLimit-Remaining", "0"));
                response.insert_header(("RateLimit-Reset", secs.to_string()));
            }
        }
        response.body(body)
    }
}

fn mime_json() -> actix_web::mime::Mime {
    actix_web::mime::APPLICATION_JSON
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        use StatusCode as S;
        let e = e.classified();
        let detail = e.to_string();
        match e {
            ServiceError::BadCursor(_) => ApiError::bad_request(detail),
            ServiceError::Invalid(_) => ApiError::new(
                S::UNPROCESSABLE_ENTITY,
                "invalid-request",
                "Invalid request",
                detail,
            ),
            ServiceError::WeakPassword(_) => ApiError::new(
                S::UNPROCESSABLE_ENTITY,
                "weak-password",
                "Password too easy to guess",
                detail,
            ),
            ServiceError::UnknownRuleset(_) => ApiError::new(
                S::UNPROCESSABLE_ENTITY,
                "unknown-ruleset",
                "Unknown ruleset",
                detail,
            ),
            ServiceError::InvalidSeats(_) => ApiError::new(
                S::UNPROCESSABLE_ENTITY,
                "invalid-seat-count",
                "Invalid seat count",
                detail,
            ),
            ServiceError::EmailTaken => ApiError::new(
                S::CONFLICT,
                "email-taken",
                "Email already registered",
                detail,
            ),
            ServiceError::BadCredentials => ApiError::new(
                S::UNAUTHORIZED,
                "invalid-credentials",
                "Invalid credentials",
                detail,
            ),
            ServiceError::NotFound(_) => ApiError::not_found(detail),
            ServiceError::UnknownAccount | ServiceError::Revoked | ServiceError::BadToken(_) => {
                ApiError::unauthorized(detail)
            }
            ServiceError::InsufficientScope(_) => ApiError::new(
                S::FORBIDDEN,
                "insufficient-scope",
                "Token lacks the scope",
                detail,
            ),
            ServiceError::WrongPassword => ApiError::new(
                S::FORBIDDEN,
                "wrong-password",
                "Wrong current password",
                detail,
            ),
            ServiceError::NotInvited(_) => ApiError::new(
                S::FORBIDDEN,
                "not-invited",
                "Invitation sent to another address",
                detail,
            ),
            ServiceError::NotAPlayer => ApiError::new(
                S::FORBIDDEN,
                "not-a-player",
                "Not a player of this game",
                detail,
            ),
            ServiceError::NotYourDecision => ApiError::new(
                S::FORBIDDEN,
                "not-your-decision",
                "Not your decision",
                detail,
            ),
            ServiceError::VersionConflict { actual, .. } => ApiError {
                current_version: Some(actual),
                ..ApiError::new(
                    S::CONFLICT,
                    "version-conflict",
                    "Stale expected_version",
                    detail,
                )
            },
            ServiceError::IllegalAction { index, .. } => ApiError {
                action_index: Some(index),
                ..ApiError::new(
                    S::UNPROCESSABLE_ENTITY,
                    "illegal-action",
                    "Illegal action",
                    detail,
                )
            },
            ServiceError::SeatUnavailable(_) => {
                ApiError::new(S::CONFLICT, "seat-unavailable", "Seat unavailable", detail)
            }
            ServiceError::WrongStatus(_) => ApiError::new(
                S::CONFLICT,
                "game-status",
                "Not possible in this game's status",
                detail,
            ),
            ServiceError::NotNow(_) => {
                ApiError::new(S::CONFLICT, "not-now", "Not possible now", detail)
            }
            ServiceError::InvalidLink => ApiError::new(
                S::NOT_FOUND,
                "invalid-link",
                "Invalid or expired link",
                detail,
            ),
            ServiceError::RateLimited {
                retry_after_secs, ..
            } => ApiError {
                retry_after: Some(retry_after_secs),
                ..ApiError::new(
                    S::TOO_MANY_REQUESTS,
                    "rate-limited",
                    "Too many requests",
                    detail,
                )
            },
            ServiceError::IdempotencyMismatch => ApiError::new(
                S::UNPROCESSABLE_ENTITY,
                "idempotency-key-reused",
                "Idempotency-Key reused",
                detail,
            ),
            ServiceError::Unavailable(cause) => {
                // Expected while the database restarts: one line, without a backtrace.
                tracing::warn!(error = format!("{cause:#}"), "service unavailable");
                ApiError {
                    retry_after: Some(crate::service::RETRY_AFTER_UNAVAILABLE_SECS),
                    ..ApiError::new(
                        S::SERVICE_UNAVAILABLE,
                        "unavailable",
                        "Service unavailable",
                        "the database is not reachable or did not answer in time, or the \
                         server is stopping; try again shortly",
                    )
                }
            }
            ServiceError::Unexpected(cause) => {
                tracing::error!(error = ?cause, "unexpected error");
                ApiError::new(
                    S::INTERNAL_SERVER_ERROR,
                    "internal",
                    "Internal error",
                    "something went wrong on our side; it has been logged",
                )
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::store::DbError;
    use diesel::result::DatabaseErrorKind;

    fn db_error(kind: DatabaseErrorKind, message: &str) -> DbError {
        DbError::DatabaseError(kind, Box::new(message.to_owned()))
    }

    fn assert_unavailable(api: &ApiError) {
        assert_eq!(api.status, StatusCode::SERVICE_UNAVAILABLE, "{api}");
        assert_eq!(api.slug, "unavailable");
        assert_eq!(
            api.retry_after,
            Some(crate::service::RETRY_AFTER_UNAVAILABLE_SECS)
        );
        let response = api.error_response();
        assert_eq!(
            response.headers().get(actix_web::http::header::RETRY_AFTER),
            Some(&actix_web::http::header::HeaderValue::from(
                crate::service::RETRY_AFTER_UNAVAILABLE_SECS
            ))
        );
    }

    #[test]
    fn a_lost_database_connection_is_503_with_retry_after() {
        // What diesel-async reports when the connection closed under a query, and what
        // PostgreSQL says when it ends a session because it is going away.
        for error in [
            db_error(DatabaseErrorKind::UnableToSendCommand, "connection closed"),
            db_error(DatabaseErrorKind::ClosedConnection, "connection closed"),
            db_error(
                DatabaseErrorKind::Unknown,
                "terminating connection due to unexpected postmaster exit",
            ),
            db_error(
                DatabaseErrorKind::Unknown,
                "terminating connection due to administrator command",
            ),
            db_error(
                DatabaseErrorKind::Unknown,
                "the database system is shutting down",
            ),
        ] {
            assert_unavailable(&ApiError::from(ServiceError::from(error)));
        }
        // Wrapped on its way (as the workers and some use cases do).
        let wrapped = anyhow::Error::new(db_error(
            DatabaseErrorKind::UnableToSendCommand,
            "connection closed",
        ))
        .context("claiming the outbox");
        assert_unavailable(&ApiError::from(ServiceError::Unexpected(wrapped)));
        // The pool could not connect.
        assert_unavailable(&ApiError::from(ServiceError::Unavailable(anyhow::anyhow!(
            "database pool: connection refused"
        ))));
    }

    #[test]
    fn other_database_errors_stay_500() {
        let api = ApiError::from(ServiceError::from(db_error(
            DatabaseErrorKind::Unknown,
            "division by zero",
        )));
        assert_eq!(api.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(api.retry_after, None);
        let api = ApiError::from(ServiceError::from(DbError::NotFound));
        assert_eq!(api.status, StatusCode::INTERNAL_SERVER_ERROR);
    }
}
