//! Issue 19, "Limits and browsers": CORS for the origins in `TURNPOST_CORS_ORIGINS`.
//! Acceptance: "CORS preflight from an allowed and a refused origin."

use reqwest::Method;
use serde_json::json;

use crate::system_tests::helpers::{TestApp, spawn_app, spawn_app_with};

const ALLOWED: &str = "https://play.example";
const OTHER_ALLOWED: &str = "http://localhost:3000";
const REFUSED: &str = "https://evil.example";

async fn with_origins() -> TestApp {
    spawn_app_with(|s| {
        s.cors_origins =
            turnpost::config::cors::parse_origins(&format!("{ALLOWED}, {OTHER_ALLOWED}"))
                .expect("origins");
    })
    .await
}

/// The raw answer (headers included) to a request with these headers.
async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
) -> reqwest::Response {
    let mut req = app.client.request(method, format!("{}{path}", app.base));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.expect("send")
}

fn header(res: &reqwest::Response, name: &str) -> Option<String> {
    res.headers()
        .get(name)
        .map(|v| v.to_str().expect("ascii").to_owned())
}

fn listed(res: &reqwest::Response, name: &str) -> Vec<String> {
    header(res, name)
        .unwrap_or_default()
        .split(',')
        .map(|s| s.trim().to_ascii_lowercase())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A preflight as a browser sends it before a submission with a bearer token and a key.
async fn preflight(app: &TestApp, origin: &str) -> reqwest::Response {
    send(
        app,
        Method::OPTIONS,
        "/v1/games/00000000-0000-4000-8000-000000000000/actions",
        &[
            ("Origin", origin),
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "authorization, content-type, idempotency-key",
            ),
        ],
    )
    .await
}

#[tokio::test]
async fn a_preflight_from_an_allowed_origin_is_answered_with_what_the_api_uses() {
    let app = with_origins().await;
    for origin in [ALLOWED, OTHER_ALLOWED] {
        let res = preflight(&app, origin).await;
        assert!(res.status().is_success(), "{}", res.status());
        assert_eq!(
            header(&res, "access-control-allow-origin").as_deref(),
            Some(origin)
        );
        let methods = listed(&res, "access-control-allow-methods");
        for m in ["get", "post", "put", "delete"] {
            assert!(methods.contains(&m.to_owned()), "{m} in {methods:?}");
        }
        let headers = listed(&res, "access-control-allow-headers");
        for h in [
            "authorization",
            "content-type",
            "idempotency-key",
            "if-none-match",
            "last-event-id",
        ] {
            assert!(headers.contains(&h.to_owned()), "{h} in {headers:?}");
        }
        assert!(header(&res, "access-control-max-age").is_some());
        // Bearer tokens, not cookies: no credentials cross-origin.
        assert_eq!(header(&res, "access-control-allow-credentials"), None);
        assert!(
            listed(&res, "vary").contains(&"origin".to_owned()),
            "a cache keeps answers apart by origin"
        );
    }

    // The actual request: the origin is echoed and the headers a client reads are exposed.
    let ann = app.register("Ann").await;
    let res = app
        .client
        .post(format!("{}/v1/games", app.base))
        .bearer_auth(&ann.token)
        .header("Origin", ALLOWED)
        .json(&json!({"ruleset": "bag-of-fate", "seats": 2}))
        .send()
        .await
        .expect("send");
    assert_eq!(res.status().as_u16(), 201);
    assert_eq!(
        header(&res, "access-control-allow-origin").as_deref(),
        Some(ALLOWED)
    );
    let exposed = listed(&res, "access-control-expose-headers");
    for h in ["etag", "location", "retry-after"] {
        assert!(exposed.contains(&h.to_owned()), "{h} in {exposed:?}");
    }
    // An error is readable by the allowed page too (a problem, with the origin).
    let res = send(
        &app,
        Method::GET,
        "/v1/no-such-thing",
        &[("Origin", ALLOWED)],
    )
    .await;
    assert_eq!(res.status().as_u16(), 404);
    assert_eq!(
        header(&res, "access-control-allow-origin").as_deref(),
        Some(ALLOWED)
    );
}

#[tokio::test]
async fn a_refused_origin_gets_no_cors_headers() {
    let app = with_origins().await;
    let res = preflight(&app, REFUSED).await;
    assert_eq!(res.status().as_u16(), 400);
    for h in [
        "access-control-allow-origin",
        "access-control-allow-methods",
        "access-control-allow-headers",
        "access-control-allow-credentials",
    ] {
        assert_eq!(header(&res, h), None, "{h}");
    }
    assert!(
        header(&res, "content-type")
            .unwrap_or_default()
            .starts_with("application/problem+json")
    );
    let problem: serde_json::Value = res.json().await.expect("a problem");
    assert_eq!(problem["status"], 400);
    assert_eq!(problem["title"], "Cross-origin request refused");

    // A look-alike is another origin: the comparison is exact.
    for near in [
        "https://play.example.evil.test",
        "http://play.example",
        "https://play.example:8443",
    ] {
        let res = preflight(&app, near).await;
        assert_eq!(res.status().as_u16(), 400, "{near}");
        assert_eq!(header(&res, "access-control-allow-origin"), None, "{near}");
    }

    // An allowed origin asking for a header the API does not take is refused as well.
    let res = send(
        &app,
        Method::OPTIONS,
        "/v1/me",
        &[
            ("Origin", ALLOWED),
            ("Access-Control-Request-Method", "GET"),
            ("Access-Control-Request-Headers", "x-something-else"),
        ],
    )
    .await;
    assert_eq!(res.status().as_u16(), 400);
    assert_eq!(header(&res, "access-control-allow-origin"), None);

    // A simple request from a refused origin is served (CORS is the browser's to enforce; a
    // program that sends an Origin is not hindered) but carries no Allow-Origin, so a browser
    // keeps the answer from the refused page.
    let ann = app.register("Ann").await;
    let res = app
        .client
        .get(format!("{}/v1/me", app.base))
        .bearer_auth(&ann.token)
        .header("Origin", REFUSED)
        .send()
        .await
        .expect("send");
    assert_eq!(res.status().as_u16(), 200);
    assert_eq!(header(&res, "access-control-allow-origin"), None);
    assert_eq!(header(&res, "access-control-allow-credentials"), None);
}

#[tokio::test]
async fn without_configured_origins_there_are_no_cors_headers_at_all() {
    let app = spawn_app().await;
    assert!(app.settings.cors_origins.is_empty());
    let res = preflight(&app, ALLOWED).await;
    for h in [
        "access-control-allow-origin",
        "access-control-allow-methods",
        "access-control-allow-headers",
        "access-control-expose-headers",
        "access-control-max-age",
    ] {
        assert_eq!(header(&res, h), None, "{h}");
    }
    // As before CORS existed: the route does not take OPTIONS.
    assert_eq!(res.status().as_u16(), 405);
    let res = send(&app, Method::GET, "/healthz", &[("Origin", ALLOWED)]).await;
    assert_eq!(res.status().as_u16(), 200);
    assert_eq!(header(&res, "access-control-allow-origin"), None);
    assert_eq!(header(&res, "access-control-expose-headers"), None);
}
