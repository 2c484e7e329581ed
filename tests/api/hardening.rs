//! Issue 20, the parts of a server safe to put on the internet that HTTP shows: headers on
//! every response, 405 with `Allow`, and connections that never send their body.

use std::time::{Duration, Instant};

use reqwest::header::{ALLOW, CACHE_CONTROL, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::{spawn_app, spawn_app_with};

/// "Security headers on every response (`X-Content-Type-Options`, `Referrer-Policy`,
/// `Cache-Control: no-store` on token responses, CSP and `frame-ancestors` on HTML)".
#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let login = client
        .post(format!("{}/v1/auth/login", app.base))
        .json(&json!({"email": ann.email, "password": "correct horse battery"}))
        .send()
        .await
        .expect("login");
    let responses = [
        ("login", login),
        (
            "healthz",
            client
                .get(format!("{}/healthz", app.base))
                .send()
                .await
                .expect("get"),
        ),
        (
            "an API error",
            client
                .get(format!("{}/v1/nothing", app.base))
                .send()
                .await
                .expect("get"),
        ),
        (
            "a page",
            client
                .get(format!("{}/signin", app.base))
                .send()
                .await
                .expect("get"),
        ),
        (
            "a missing page",
            client
                .get(format!("{}/no-such-page", app.base))
                .send()
                .await
                .expect("get"),
        ),
    ];
    for (what, r) in responses {
        let h = r.headers();
        assert_eq!(
            h.get(X_CONTENT_TYPE_OPTIONS).map(|v| v.to_str().ok()),
            Some(Some("nosniff")),
            "{what}"
        );
        assert!(
            h.get(REFERRER_POLICY).is_some(),
            "{what}: no Referrer-Policy"
        );
        assert!(
            h.get(CACHE_CONTROL)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.contains("no-store")),
            "{what}: {:?}",
            h.get(CACHE_CONTROL)
        );
        if what.contains("page") {
            let csp = h
                .get("content-security-policy")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default();
            assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
        }
    }
}

/// "405 with `Allow` for known paths" (it was 404); an unknown path stays 404.
#[tokio::test]
async fn a_wrong_method_on_a_known_path_is_405_with_allow() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let client = reqwest::Client::new();
    let game = uuid::Uuid::new_v4();
    let cases = [
        (
            reqwest::Method::DELETE,
            "/v1/games".to_owned(),
            "GET, POST",
            true,
        ),
        (
            reqwest::Method::PUT,
            format!("/v1/games/{game}/actions"),
            "POST",
            true,
        ),
        (
            reqwest::Method::GET,
            format!("/v1/games/{game}/join"),
            "POST",
            true,
        ),
        (
            reqwest::Method::GET,
            format!("/games/{game}/act"),
            "POST",
            false,
        ),
        (
            reqwest::Method::DELETE,
            "/signin".to_owned(),
            "GET, POST",
            false,
        ),
    ];
    for (method, path, allow, api) in cases {
        let r = client
            .request(method.clone(), format!("{}{path}", app.base))
            .bearer_auth(&ann.token)
            .send()
            .await
            .expect("send");
        assert_eq!(r.status(), 405, "{method} {path}");
        assert_eq!(
            r.headers().get(ALLOW).and_then(|v| v.to_str().ok()),
            Some(allow),
            "{method} {path}"
        );
        let kind = r
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let body = r.text().await.expect("body");
        if api {
            assert!(
                kind.starts_with("application/problem+json"),
                "{path}: {kind}"
            );
            let problem: serde_json::Value = serde_json::from_str(&body).expect("json");
            assert!(
                problem["type"]
                    .as_str()
                    .unwrap_or("")
                    .ends_with("method-not-allowed"),
                "{problem}"
            );
        } else {
            assert!(kind.starts_with("text/html"), "{path}: {kind}");
        }
    }
    let r = client
        .delete(format!("{}/v1/no-such-thing", app.base))
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 404);
}

/// Reads what the server sends until it closes the connection, or `None` if it is still open
/// after `wait`.
async fn until_closed(stream: &mut TcpStream, wait: Duration) -> Option<String> {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let end = Instant::now() + wait;
    loop {
        let left = end.checked_duration_since(Instant::now())?;
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return Some(String::from_utf8_lossy(&got).into_owned()),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => return None,
        }
    }
}

/// "A connection that sends headers and never its body is held forever": with a 1-second
/// deadline, 200 such connections (and some that never finish their headers) are answered
/// 408 and closed, and the server still answers everybody else.
#[tokio::test]
async fn connections_that_never_send_their_body_are_closed_after_the_deadline() {
    let app = spawn_app_with(|s| s.body_timeout_secs = 1).await;
    let addr = app.base.trim_start_matches("http://").to_owned();
    let started = Instant::now();
    let mut held = Vec::new();
    for i in 0..200 {
        let mut s = TcpStream::connect(&addr).await.expect("connect");
        let head = if i % 20 == 0 {
            // Never finishes its head.
            "POST /v1/auth/login HTTP/1.1\r\nHost: x\r\n".to_owned()
        } else {
            "POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
             Content-Length: 100\r\n\r\n{\"email\":"
                .to_owned()
        };
        s.write_all(head.as_bytes()).await.expect("write");
        held.push(s);
    }
    // The server answers others meanwhile.
    let ann = app.register("Ann").await;
    app.get("/v1/me", &ann).await.expect(200);
    let mut timeouts = 0;
    for (i, s) in held.iter_mut().enumerate() {
        let got = until_closed(s, Duration::from_secs(15))
            .await
            .unwrap_or_else(|| panic!("connection {i} still open after {:?}", started.elapsed()));
        if got.starts_with("HTTP/1.1 408") {
            timeouts += 1;
        }
    }
    assert!(
        timeouts >= 190,
        "{timeouts} of 200 connections were answered 408 before being closed"
    );
}
