//! Who is looking at a page, and whether a form came from one of our pages.
//!
//! - The session is a cookie (`turnpost_session`) holding a signed token of purpose
//!   `WebSession`: HttpOnly, SameSite=Lax, `Secure` when the public address is https. It is
//!   opened by a password, a registration, or a sign-in link from a mail (a token of purpose
//!   `SignIn`, bound to the recipient, short-lived).
//! - CSRF: every page that shows a form makes sure the browser holds a random `turnpost_csrf`
//!   cookie (HttpOnly, SameSite=Strict) and puts a MAC of it, under the server's secret, in a
//!   hidden field; a POST is accepted only when the field is the MAC of the cookie it came with
//!   (the signed double-submit cookie). Another site can neither read the cookie nor forge the
//!   MAC.

use actix_web::HttpRequest;
use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use chrono::Utc;
use uuid::Uuid;

use crate::auth::jwt::Purpose;
use crate::service::Services;

pub const SESSION_COOKIE: &str = "turnpost_session";
pub const CSRF_COOKIE: &str = "turnpost_csrf";
/// How long a web session lasts without signing in again.
pub const SESSION_TTL_SECS: i64 = 14 * 24 * 3600;
/// How long a sign-in link in a mail stays good (a fresh mail brings a fresh link).
pub const SIGN_IN_LINK_TTL_SECS: i64 = 72 * 3600;

/// The signed-in user of this request, if any.
pub fn user_of(req: &HttpRequest, svc: &Services) -> Option<Uuid> {
    let cookie = req.cookie(SESSION_COOKIE)?;
    svc.jwt
        .check(Purpose::WebSession, cookie.value())
        .ok()
        .map(|c| c.sub)
}

fn secure(svc: &Services) -> bool {
    svc.mail.base_url.starts_with("https:")
}

/// The cookie that signs `user` in.
pub fn session_cookie(svc: &Services, user: Uuid) -> anyhow::Result<Cookie<'static>> {
    let (token, _) = svc.jwt.sign(
        Purpose::WebSession,
        user,
        None,
        Utc::now(),
        SESSION_TTL_SECS,
    )?;
    Ok(Cookie::build(SESSION_COOKIE, token)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure(svc))
        .max_age(CookieDuration::seconds(SESSION_TTL_SECS))
        .finish())
}

/// The cookie that signs out.
pub fn signed_out_cookie(svc: &Services) -> Cookie<'static> {
    let mut c = Cookie::build(SESSION_COOKIE, "")
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure(svc))
        .finish();
    c.make_removal();
    c
}

/// A sign-in link for `user` that opens `path` (a path of this site).
pub fn sign_in_url(svc: &Services, user: Uuid, path: &str) -> anyhow::Result<String> {
    let (token, _) = svc.jwt.sign(
        Purpose::SignIn,
        user,
        None,
        Utc::now(),
        SIGN_IN_LINK_TTL_SECS,
    )?;
    let sep = if path.contains('?') { '&' } else { '?' };
    Ok(format!("{}{path}{sep}signin={token}", svc.mail.base_url))
}

/// The CSRF seed of this request and the cookie to set when it had none.
pub struct Csrf {
    pub token: String,
    pub new_cookie: Option<Cookie<'static>>,
}

pub fn csrf(req: &HttpRequest, svc: &Services) -> Csrf {
    match req.cookie(CSRF_COOKIE) {
        Some(c) if c.value().len() == 32 => Csrf {
            token: svc.jwt.mac("csrf", c.value()),
            new_cookie: None,
        },
        _ => {
            let seed = Uuid::new_v4().simple().to_string();
            Csrf {
                token: svc.jwt.mac("csrf", &seed),
                new_cookie: Some(
                    Cookie::build(CSRF_COOKIE, seed)
                        .path("/")
                        .http_only(true)
                        .same_site(SameSite::Strict)
                        .secure(secure(svc))
                        .finish(),
                ),
            }
        }
    }
}

/// Whether `field` (the form's hidden token) is the MAC of this request's CSRF cookie.
pub fn csrf_ok(req: &HttpRequest, svc: &Services, field: &str) -> bool {
    let Some(c) = req.cookie(CSRF_COOKIE) else {
        return false;
    };
    let expected = svc.jwt.mac("csrf", c.value());
    !field.is_empty() && constant_time_eq(expected.as_bytes(), field.as_bytes())
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `next` if it is a path of this site (never another host: no `//`, no scheme), else `/`.
pub fn local_path(next: Option<&str>) -> String {
    match next {
        Some(p)
            if p.starts_with('/')
                && !p.starts_with("//")
                && !p.contains('\\')
                && !p.chars().any(char::is_control) =>
        {
            p.to_owned()
        }
        _ => "/".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_paths_are_followed_after_sign_in() {
        assert_eq!(local_path(Some("/games/x")), "/games/x");
        assert_eq!(local_path(Some("//evil.example/")), "/");
        assert_eq!(local_path(Some("https://evil.example/")), "/");
        assert_eq!(local_path(Some("/\\evil.example")), "/");
        assert_eq!(local_path(Some("/a\nb")), "/");
        assert_eq!(local_path(None), "/");
    }

    #[test]
    fn equal_only_when_equal() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}
