//! The REST API: actix handlers, one file per resource. Handlers call `service`, never the
//! store. Every error leaves as `application/problem+json`.

pub mod accounts;
pub mod auth;
pub mod body;
pub mod cors;
pub mod deadline;
pub mod games;
pub mod health;
pub mod inbound;
pub mod mail;
pub mod me;
pub mod messages;
pub mod methods;
pub mod openapi;
mod openapi_refine;
pub mod problem;
pub mod rulesets;
pub mod seats;
pub mod streams;
pub mod tokens;
pub mod turns;
pub mod webhooks;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::middleware::{ErrorHandlerResponse, ErrorHandlers};
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use utoipa_actix_web::scope;

pub use openapi::{api_doc, document, finish, openapi, openapi_yaml, swagger_ui};
use problem::ApiError;

/// The headers every answer carries unless it sets its own: nothing is sniffed, no address
/// (with its tokens) leaks to other sites, and nothing is kept by caches (API answers are one
/// user's; tokens are answered).
pub const SECURITY_HEADERS: [(actix_web::http::header::HeaderName, &str); 3] = [
    (actix_web::http::header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (actix_web::http::header::REFERRER_POLICY, "no-referrer"),
    (actix_web::http::header::CACHE_CONTROL, "no-store"),
];

/// Adds the [`SECURITY_HEADERS`] that `headers` does not set already.
pub fn add_security_headers(headers: &mut actix_web::http::header::HeaderMap) {
    for (name, value) in SECURITY_HEADERS {
        if !headers.contains_key(&name) {
            headers.insert(
                name,
                actix_web::http::header::HeaderValue::from_static(value),
            );
        }
    }
}

/// Registers every route on a `UtoipaApp`, collecting the OpenAPI document as it goes.
pub fn routes<T>(app: utoipa_actix_web::UtoipaApp<T>) -> utoipa_actix_web::UtoipaApp<T>
where
    T: actix_web::dev::ServiceFactory<
            actix_web::dev::ServiceRequest,
            Config = (),
            Error = actix_web::Error,
            InitError = (),
        >,
{
    app.service(health::healthz)
        .service(health::readyz)
        .service(
            scope::scope("/v1")
                .service(accounts::register)
                .service(accounts::confirm)
                .service(accounts::login)
                .service(accounts::logout)
                .service(accounts::change_password)
                .service(rulesets::list)
                .service(rulesets::get)
                .service(games::create)
                .service(games::list)
                .service(games::join)
                .service(games::get)
                .service(games::state)
                .service(games::actions)
                .service(turns::preview_actions)
                .service(turns::get_orders)
                .service(turns::set_orders)
                .service(games::events)
                .service(games::export)
                .service(streams::game_stream)
                .service(messages::post)
                .service(messages::list)
                .service(seats::back)
                .service(seats::resign)
                .service(seats::abort)
                .service(seats::take_over)
                .service(seats::vacation)
                .service(seats::set_vacation)
                .service(seats::end_vacation)
                .service(me::me)
                .service(me::my_games)
                .service(me::export_my_games)
                .service(me::my_turns)
                .service(streams::my_stream)
                .service(mail::resend_verification)
                .service(mail::verify_email)
                .service(mail::preferences)
                .service(mail::set_preferences)
                .service(mail::unsubscribe_page)
                .service(mail::unsubscribe)
                .service(mail::invite)
                .service(mail::show_invitation)
                .service(mail::accept_invitation)
                .service(inbound::receive_mail)
                .service(tokens::create)
                .service(tokens::list)
                .service(tokens::revoke)
                .service(webhooks::create)
                .service(webhooks::list)
                .service(webhooks::remove)
                .service(webhooks::deliveries),
        )
}

/// `/docs` → `/docs/`.
pub async fn docs_redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((actix_web::http::header::LOCATION, "/docs/"))
        .finish()
}

/// Error handlers for path and query extraction: problem+json, 400.
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|e, _| ApiError::bad_request(e.to_string()).into())
}

pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|e, _| ApiError::bad_request(e.to_string()).into())
}

/// JSON bodies: at most `limit` bytes; every failure a problem.
pub fn json_config(limit: usize) -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(limit)
        .error_handler(move |err, _req: &HttpRequest| {
            use actix_web::error::JsonPayloadError as J;
            let api = match &err {
                J::OverflowKnownLength { .. } | J::Overflow { .. } => ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "payload-too-large",
                    "Payload too large",
                    format!("the body is over the limit of {limit} bytes"),
                ),
                J::ContentType => ApiError::new(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "unsupported-media-type",
                    "Unsupported media type",
                    "send the body as application/json",
                ),
                J::Payload(p) if deadline::is_timeout(p) => ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "request-timeout",
                    "Request timeout",
                    "the request body did not arrive in time; send it whole, promptly",
                ),
                J::Deserialize(e) => {
                    ApiError::bad_request(format!("the JSON body is not valid here: {e}"))
                }
                other => ApiError::bad_request(other.to_string()),
            };
            api.into()
        })
}

/// Turns every bare error response (404 of an unknown route, 405, a framework 4xx) into
/// problem+json, so clients only ever see one error format.
pub fn problem_errors<B: MessageBody + 'static>() -> ErrorHandlers<B> {
    ErrorHandlers::new().default_handler(|res: ServiceResponse<B>| {
        let content_type = res
            .response()
            .headers()
            .get(actix_web::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        // Already a problem, a page, or a document a handler answers on purpose with an error
        // status (`/readyz`'s 503).
        let answered = ["application/problem+json", "text/html", "application/json"]
            .iter()
            .any(|kind| content_type.starts_with(kind));
        if answered {
            return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
        }
        let status = res.status();
        if crate::web::is_page_path(res.request().path()) {
            // A person's browser gets a page, never JSON.
            let page = match status {
                StatusCode::NOT_FOUND => crate::web::PageError::not_found(),
                s if s.is_client_error() => crate::web::PageError::new(
                    s,
                    "Not accepted",
                    s.canonical_reason()
                        .unwrap_or("The request was not accepted."),
                ),
                s => crate::web::PageError::new(
                    s,
                    "Something went wrong",
                    "Something went wrong on our side; it has been logged.",
                ),
            };
            let (req, bare) = res.into_parts();
            let mut response = page.error_response();
            keep_cors_headers(bare.headers(), response.headers_mut());
            return Ok(ErrorHandlerResponse::Response(
                ServiceResponse::new(req, response).map_into_right_body(),
            ));
        }
        let preflight = res.request().method() == actix_web::http::Method::OPTIONS
            && res
                .request()
                .headers()
                .contains_key(actix_web::http::header::ACCESS_CONTROL_REQUEST_METHOD);
        let api = match status {
            StatusCode::BAD_REQUEST if preflight => ApiError::new(
                status,
                "bad-request",
                "Cross-origin request refused",
                "this origin may not call the API from a browser, or not with this method or \
                 these headers",
            ),
            StatusCode::NOT_FOUND => ApiError::not_found("no such resource"),
            StatusCode::METHOD_NOT_ALLOWED => ApiError::new(
                status,
                "method-not-allowed",
                "Method not allowed",
                "this resource does not accept that method",
            ),
            s if s.is_client_error() => ApiError::new(
                s,
                "bad-request",
                "Bad request",
                s.canonical_reason().unwrap_or("bad request"),
            ),
            s => ApiError::new(
                s,
                "internal",
                "Internal error",
                "something went wrong on our side; it has been logged",
            ),
        };
        let (req, bare) = res.into_parts();
        let mut response: HttpResponse<BoxBody> = api.error_response();
        keep_cors_headers(bare.headers(), response.headers_mut());
        Ok(ErrorHandlerResponse::Response(
            ServiceResponse::new(req, response).map_into_right_body(),
        ))
    })
}

/// The CORS headers (and `Vary`) of a bare error, carried over to the problem that replaces
/// it: a page of an allowed origin can read why it was refused.
fn keep_cors_headers(
    from: &actix_web::http::header::HeaderMap,
    to: &mut actix_web::http::header::HeaderMap,
) {
    for (name, value) in from {
        if name.as_str().starts_with("access-control-") || name == actix_web::http::header::VARY {
            to.append(name.clone(), value.clone());
        }
    }
}
