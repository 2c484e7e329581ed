//! The players' web pages: server-rendered with minijinja (the engine the mail uses), one
//! small script and one style sheet served by Turnpost itself (no CDN: it works offline),
//! sessions opened from the links in mail, CSRF tokens on every form, and a live stream per
//! game. Pages call the same use cases (`service`) as the JSON API.
//!
//! The files read one way, bottom floor first (a file uses only the floors below it; this
//! file, the entrance, renders and routes):
//!
//! 1. `session.rs`: the session cookie, sign-in links, CSRF; `live.rs`: `LISTEN
//!    turnpost_games`, fanned out to the pages' event streams (and the API's); `client.rs`: who
//!    is asking, for the rate limits (the API's too).
//! 2. `pages.rs`: home, sign-in, registration, the game page, its log and its live stream, and
//!    the helpers the other pages share.
//! 3. `tables.rs`: the new-game form and joining; `account.rs`: verification and settings;
//!    `invitations.rs`: the invitation page (Accept, Decline, registering by its link).
//!
//! `templates/`, `assets/`: the pages, the style sheet and the script.

pub mod account;
pub mod client;
pub mod invitations;
pub mod live;
pub mod pages;
pub mod session;
pub mod tables;

use std::sync::OnceLock;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, ContentType};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{HttpResponse, ResponseError, web};
use minijinja::Environment;
use serde::Serialize;

use crate::service::{ServiceError, Services};

const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("templates/base.html")),
    ("home.html", include_str!("templates/home.html")),
    ("signin.html", include_str!("templates/signin.html")),
    ("register.html", include_str!("templates/register.html")),
    ("confirm.html", include_str!("templates/confirm.html")),
    ("game.html", include_str!("templates/game.html")),
    ("log.html", include_str!("templates/log.html")),
    ("error.html", include_str!("templates/error.html")),
    ("message.html", include_str!("templates/message.html")),
    ("resign.html", include_str!("templates/resign.html")),
    ("settings.html", include_str!("templates/settings.html")),
    ("new_game.html", include_str!("templates/new_game.html")),
    ("invitation.html", include_str!("templates/invitation.html")),
];

const STYLE: &str = include_str!("assets/app.css");
const SCRIPT: &str = include_str!("assets/app.js");

fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        for (name, source) in TEMPLATES {
            if let Err(e) = env.add_template(name, source) {
                // Compiled into the binary; a broken template is caught by the tests.
                tracing::error!(template = name, error = %e, "bad page template");
            }
        }
        env
    })
}

/// `name` rendered with `context` (HTML auto-escaped).
pub fn render(name: &str, context: &impl Serialize) -> Result<String, PageError> {
    let ctx = minijinja::Value::from(minijinja::value::Serde(context));
    env()
        .get_template(name)
        .and_then(|t| t.render(&ctx))
        .map_err(|e| PageError::internal(anyhow::anyhow!("rendering {name}: {e}")))
}

/// An HTML page response with the headers every page carries.
pub fn html(status: StatusCode, body: String) -> HttpResponse {
    let mut r = HttpResponse::build(status);
    security_headers(&mut r);
    r.content_type(ContentType::html()).body(body)
}

/// What an HTML page may load and who may frame it: scripts and styles from this site only
/// (style attributes are allowed: the pages and Swagger UI set some), pictures from this site
/// or inline, no framing by any site.
const PAGE_POLICY: &str = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; \
     frame-ancestors 'none'; form-action 'self'; base-uri 'none'";

fn security_headers(r: &mut actix_web::HttpResponseBuilder) {
    r.insert_header((header::CONTENT_SECURITY_POLICY, PAGE_POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "same-origin"))
        .insert_header((header::X_FRAME_OPTIONS, "DENY"))
        .insert_header((header::CACHE_CONTROL, "no-store"));
}

/// A page that explains what went wrong (never JSON): status, title, message, and where to go.
#[derive(Debug)]
pub struct PageError {
    pub status: StatusCode,
    pub title: String,
    pub message: String,
    /// Offer the sign-in form (an expired link, a page that needs a session).
    pub sign_in: bool,
    pub next: Option<String>,
}

impl PageError {
    pub fn new(status: StatusCode, title: &str, message: impl Into<String>) -> Self {
        PageError {
            status,
            title: title.to_owned(),
            message: message.into(),
            sign_in: false,
            next: None,
        }
    }

    pub fn not_found() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "Not found",
            "There is no such page. The link may be mistyped, or the game may be gone.",
        )
    }

    pub fn internal(e: anyhow::Error) -> Self {
        if crate::service::caused_by_lost_connection(&e) {
            return ServiceError::Unavailable(e).into();
        }
        tracing::error!(error = %e, "page failed");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Something went wrong",
            "Something went wrong on our side; it has been logged. Please try again.",
        )
    }

    pub fn forbidden_form() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "This form has expired",
            "The form did not carry a valid security token (it may be from an old page or \
             another site). Nothing was changed. Go back, reload the page and try again.",
        )
    }
}

impl std::fmt::Display for PageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.title, self.message)
    }
}

impl ResponseError for PageError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let body = render(
            "error.html",
            &serde_json::json!({
                "title": self.title,
                "message": self.message,
                "status": self.status.as_u16(),
                "sign_in": self.sign_in,
                "next": self.next,
            }),
        )
        .unwrap_or_else(|_| format!("<!doctype html><title>{}</title>", self.status));
        let mut response = html(self.status, body);
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(
                actix_web::http::header::RETRY_AFTER,
                actix_web::http::header::HeaderValue::from(
                    crate::service::RETRY_AFTER_UNAVAILABLE_SECS,
                ),
            );
        }
        response
    }
}

impl From<ServiceError> for PageError {
    fn from(e: ServiceError) -> Self {
        use ServiceError as E;
        match e.classified() {
            E::NotFound(what) => Self::new(
                StatusCode::NOT_FOUND,
                "Not found",
                format!("There is no such {what}."),
            ),
            E::NotAPlayer => Self::new(
                StatusCode::FORBIDDEN,
                "Not your game",
                "You do not hold a seat in this game, so you cannot act in it.",
            ),
            E::NotYourDecision => Self::new(
                StatusCode::CONFLICT,
                "Not your decision",
                "It is not your decision now. Nothing was changed.",
            ),
            E::WrongStatus(s) => Self::new(
                StatusCode::CONFLICT,
                if s == "finished" {
                    "Game over"
                } else {
                    "Not now"
                },
                format!("The game is {s}. Nothing was changed."),
            ),
            E::InvalidLink => Self::new(
                StatusCode::BAD_REQUEST,
                "This link is not valid",
                "The link is not valid or has expired.",
            ),
            E::Unavailable(_) => Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "Try again in a moment",
                "The service is briefly unavailable. Nothing was lost; please try again.",
            ),
            E::RateLimited { detail, .. } => Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                "Not so fast",
                format!("Nothing was changed: {detail}."),
            ),
            E::Unexpected(e) => Self::internal(e),
            other => Self::new(StatusCode::BAD_REQUEST, "Not accepted", other.to_string()),
        }
    }
}

impl From<anyhow::Error> for PageError {
    fn from(e: anyhow::Error) -> Self {
        Self::internal(e)
    }
}

/// Middleware: a page's address with `?signin=<token>` (the links in mail) opens a session
/// for the link's user and leads to the same address without the token; an expired or
/// altered link gets an error page and no session. Other requests pass through.
pub async fn sign_in_links(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if req.method() == Method::GET
        && is_page_path(req.path())
        && let Some(token) = session::sign_in_token(req.query_string())
        && let Some(svc) = req.app_data::<web::Data<Services>>().cloned()
    {
        let to = session::without_sign_in(req.path(), req.query_string());
        let res = pages::sign_in_by_link(&svc, &token, &to)
            .await
            .unwrap_or_else(|e| e.error_response());
        return Ok(req.into_response(res));
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

/// Every HTML response gets the page policy and may not be framed, whoever made it (the
/// pages set them themselves; this covers Swagger UI under `/docs/` and anything added later).
pub async fn html_policy(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let mut res = next.call(req).await?.map_into_boxed_body();
    let is_html = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if is_html && !res.headers().contains_key(header::CONTENT_SECURITY_POLICY) {
        let h = res.headers_mut();
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            header::HeaderValue::from_static(PAGE_POLICY),
        );
        h.insert(
            header::X_FRAME_OPTIONS,
            header::HeaderValue::from_static("DENY"),
        );
    }
    Ok(res)
}

/// The page routes' paths and methods, as [`routes`] registers them (a request with another
/// method is answered 405 with `Allow`: `crate::http::methods`).
pub const PAGE_METHODS: &[(&str, &[&str])] = &[
    ("/", &["GET"]),
    ("/signin", &["GET", "POST"]),
    ("/signin/mail", &["POST"]),
    ("/signout", &["POST"]),
    ("/register", &["GET", "POST"]),
    ("/confirm", &["GET", "POST"]),
    ("/verify", &["GET"]),
    ("/settings", &["GET", "POST"]),
    ("/settings/verification", &["POST"]),
    ("/settings/vacation", &["POST"]),
    ("/settings/password", &["POST"]),
    ("/games/new", &["GET", "POST"]),
    ("/games/{id}/join", &["POST"]),
    ("/games/{id}/invite", &["POST"]),
    ("/invitation", &["GET", "POST"]),
    ("/invitations/{id}/{what}", &["POST"]),
    ("/games/{id}/seat/{what}", &["POST"]),
    ("/games/{id}", &["GET"]),
    ("/games/{id}/act", &["POST"]),
    ("/games/{id}/say", &["POST"]),
    ("/games/{id}/log", &["GET"]),
    ("/games/{id}/live", &["GET"]),
    ("/assets/app.css", &["GET"]),
    ("/assets/app.js", &["GET"]),
];

/// The page routes (everything outside `/v1`, `/docs`, `/healthz`, `/readyz`).
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(pages::home))
        .route("/signin", web::get().to(pages::sign_in_page))
        .route("/signin", web::post().to(pages::sign_in))
        .route("/signin/mail", web::post().to(pages::mail_sign_in_link))
        .route("/signout", web::post().to(pages::sign_out))
        .route("/register", web::get().to(pages::register_page))
        .route("/register", web::post().to(pages::register))
        .route("/confirm", web::get().to(pages::confirm_page))
        .route("/confirm", web::post().to(pages::confirm))
        .route("/verify", web::get().to(account::verify))
        .route("/settings", web::get().to(account::settings))
        .route("/settings", web::post().to(account::save_settings))
        .route(
            "/settings/verification",
            web::post().to(account::resend_verification),
        )
        .route("/settings/vacation", web::post().to(account::vacation))
        .route("/settings/password", web::post().to(account::password))
        .route("/games/new", web::get().to(tables::new_game_page))
        .route("/games/new", web::post().to(tables::create))
        .route("/games/{id}/join", web::post().to(tables::join))
        .route("/games/{id}/invite", web::post().to(invitations::invite))
        .route("/invitation", web::get().to(invitations::show))
        .route("/invitation", web::post().to(invitations::answer))
        .route(
            "/invitations/{id}/{what}",
            web::post().to(invitations::answer_by_id),
        )
        .route(
            "/games/{id}/seat/{what}",
            web::post().to(tables::seat_action),
        )
        .route("/games/{id}", web::get().to(pages::game))
        .route("/games/{id}/act", web::post().to(pages::act))
        .route("/games/{id}/orders", web::post().to(pages::set_orders))
        .route("/games/{id}/say", web::post().to(pages::say))
        .route("/games/{id}/log", web::get().to(pages::log))
        .route("/games/{id}/live", web::get().to(pages::live))
        .route("/assets/app.css", web::get().to(style))
        .route("/assets/app.js", web::get().to(script));
}

async fn style() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/css; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(STYLE)
}

async fn script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(SCRIPT)
}

/// Whether a request is for a page (not the API): errors for it are pages, not problems.
pub fn is_page_path(path: &str) -> bool {
    !(path.starts_with("/v1/")
        || path == "/v1"
        || path.starts_with("/docs")
        || path == "/openapi.json"
        || path == "/healthz"
        || path == "/readyz")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_template_renders_and_escapes() {
        let evil = "<script>x</script>";
        let mut ctx = serde_json::json!({
            "me": {"display_name": evil}, "csrf": "t", "title": evil, "message": evil,
            "status": 404, "sign_in": true, "next": "/games/x", "error": evil,
            "turns": [], "mine": [], "open": [], "finished": [],
            "game": {"id": "id", "name": evil, "short_id": "abc", "status": "open",
                     "version": 3, "seed_sha256": "ff", "seed": null, "inviter": evil,
                     "game_name": evil, "summary": evil, "seats": 3, "seat": 2,
                     "players": [evil], "open_seats": 1, "clock": evil, "options": [evil]},
            "who": "newcomer", "token": "t", "here": "/invitation?token=t", "email": evil,
            "display_name": evil, "expires_at": "soon", "can_invite": true, "my_invitation": "i",
            "players": [{"seat": 0, "name": evil, "you": true, "to_act": true}],
            "picture": null,
            "log": [evil], "log_more": 2, "waiting_for": [evil], "outcome": null,
            "link": "/", "link_text": evil, "mail": "all", "saved": true, "sent": true,
        });
        ctx["rulesets"] = serde_json::json!([{"id": "x", "name": evil, "summary": evil,
            "min_seats": 1, "max_seats": 2, "options": [{"name": evil, "description": evil,
            "kind": "json", "value": evil, "checked": false}]}]);
        ctx["presented"] = serde_json::json!({"headline": evil, "sections": [{"title": evil,
            "lines": [evil], "diagram": true}]});
        ctx["choices"] = serde_json::json!([{"title": evil, "choices": [{"number": 1,
            "label": evil, "notation": evil, "target": "a1"}]}]);
        // (In parts: one `json!` this deep reaches the macro's recursion limit.)
        ctx["invitations"] = serde_json::json!([{"id": "i", "game_id": "g", "expires_at": "soon",
            "who": evil, "seat": 1, "until": "soon", "game": {"game_name": evil,
            "short_id": "abc", "inviter": evil, "seat": 2, "players": [evil]}}]);
        ctx["waiting"] = serde_json::json!(true);
        ctx["plan"] = serde_json::json!({"steps": [{"notation": evil, "label": evil}],
            "joined": evil, "problem": evil, "stopped": evil, "undo": "/", "cancel": "/"});
        ctx["orders"] = serde_json::json!([{"id": evil, "description": evil, "on": true}]);
        for (name, _) in TEMPLATES {
            let html = render(name, &ctx).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!html.contains(evil), "{name} does not escape");
        }
    }

    #[test]
    fn api_paths_keep_their_problem_errors() {
        assert!(!is_page_path("/v1/games"));
        assert!(!is_page_path("/healthz"));
        assert!(is_page_path("/"));
        assert!(is_page_path("/games/abc"));
        assert!(is_page_path("/nowhere"));
    }
}
