//! Who is looking at a page, and whether a form came from one of our pages.
//!
//! - The session is a cookie (`turnpost_session`) holding a signed token of purpose
//!   `WebSession`: HttpOnly, SameSite=Lax, `Secure` when the public address is https. It is
//!   opened by a password, a registration, or a sign-in link from a mail (a token of purpose
//!   `SignIn`, bound to the recipient, short-lived; made by `service::mail::sign_in_url`).
//!   Any page's address with `?signin=<token>` opens the session and leads to the same
//!   address without the token ([`without_sign_in`]). The cookie's token carries the
//!   account's token version: "Sign out everywhere" (and the API's logout, and a new
//!   password) raise it, which ends every session at once.
//! - CSRF: every page that shows a form makes sure the browser holds a random `turnpost_csrf`
//!   cookie (HttpOnly, SameSite=Strict) and puts a MAC of it, under the server's secret, in a
//!   hidden field; a POST is accepted only when the field is the MAC of the cookie it came with
//!   (the signed double-submit cookie). Another site can neither read the cookie nor forge the
//!   MAC.

use actix_web::HttpRequest;
use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use chrono::Utc;
use uuid::Uuid;

use crate::auth::Session;
use crate::auth::jwt::Purpose;
use crate::service::Services;

pub const SESSION_COOKIE: &str = "turnpost_session";
pub const CSRF_COOKIE: &str = "turnpost_csrf";
/// How long a web session lasts without signing in again.
pub const SESSION_TTL_SECS: i64 = 14 * 24 * 3600;

/// The session this request's cookie names, if its signature and lifetime are good (whether
/// its token version is still the account's is checked with the account: `pages::me`).
pub fn session_of(req: &HttpRequest, svc: &Services) -> Option<Session> {
    let cookie = req.cookie(SESSION_COOKIE)?;
    svc.jwt
        .verify_session(Purpose::WebSession, cookie.value())
        .ok()
}

fn secure(svc: &Services) -> bool {
    svc.mail.base_url.starts_with("https:")
}

/// The cookie that signs `user` in, at its token version `version`.
pub fn session_cookie(svc: &Services, user: Uuid, version: i32) -> anyhow::Result<Cookie<'static>> {
    let (token, _) = svc.jwt.session(
        Purpose::WebSession,
        user,
        version,
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

/// The `signin` token of a query string, if it has one.
pub fn sign_in_token(query: &str) -> Option<String> {
    let pairs = actix_web::web::Query::<Vec<(String, String)>>::from_query(query).ok()?;
    pairs
        .0
        .into_iter()
        .find(|(k, _)| k == "signin")
        .map(|(_, v)| v)
}

/// `path?query` without its `signin` parameter (the others kept as they were), as a path of
/// this site: where a sign-in link leads once the session is open.
pub fn without_sign_in(path: &str, query: &str) -> String {
    let rest: Vec<&str> = query
        .split('&')
        .filter(|pair| !pair.is_empty() && pair.split('=').next() != Some("signin"))
        .collect();
    let to = if rest.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{}", rest.join("&"))
    };
    local_path(Some(&to))
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
    fn a_sign_in_link_leads_to_its_address_without_the_token() {
        assert_eq!(sign_in_token("signin=a.b.c"), Some("a.b.c".into()));
        assert_eq!(
            sign_in_token("moved=1&signin=a.b-c_"),
            Some("a.b-c_".into())
        );
        assert_eq!(sign_in_token("moved=1"), None);
        assert_eq!(without_sign_in("/", "signin=t"), "/");
        assert_eq!(
            without_sign_in("/games/x", "moved=1&signin=t&a=%20"),
            "/games/x?moved=1&a=%20"
        );
        // Never to another site, whatever the path looks like.
        assert_eq!(without_sign_in("//evil.example/", "signin=t"), "/");
    }

    #[test]
    fn equal_only_when_equal() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}
