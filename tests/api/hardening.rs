//! Issue 20, the parts of a server safe to put on the internet that HTTP shows: headers on
//! every response, 405 with `Allow`, connections that never send their body, and logs that
//! keep no token.

use std::process::Stdio;
use std::time::{Duration, Instant};

use reqwest::header::{ALLOW, CACHE_CONTROL, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::system_tests::helpers::{ServeProcess, spawn_app, spawn_app_with};
use crate::system_tests::smtp::SmtpServer;

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
            "the API docs page (Swagger UI)",
            client
                .get(format!("{}/docs/", app.base))
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
        } else if i % 2 == 0 {
            // Its whole head, and not one byte of the body it announces.
            "POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
             Content-Length: 100\r\n\r\n"
                .to_owned()
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

/// "verification, invitation and unsubscribe tokens are written in clear to the access log
/// (full query strings)": a real `turnpost serve`, logging at debug level and sending its mail
/// by SMTP, is sent every kind of link with a token in its query (made-up ones, and a real
/// verification link from its own mail); its log names the paths and never a token, neither
/// in the access log nor in what the mail and database drivers log.
#[tokio::test]
async fn no_token_reaches_the_log() {
    let smtp = SmtpServer::start();
    let logs = tempfile::tempdir().expect("temp dir");
    let log_path = logs.path().join("server.log");
    let log = std::fs::File::create(&log_path).expect("log file");
    let server = ServeProcess::start(
        &[
            ("TURNPOST_SMTP_URL", smtp.url()),
            ("TURNPOST_MAIL_POLL_MS", "50".into()),
            ("RUST_LOG", "debug".into()),
        ],
        Stdio::from(log.try_clone().expect("log file")),
        Stdio::from(log),
    )
    .await;
    let base = server.base.clone();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");

    let marker = format!("SECRETMARKER{}", uuid::Uuid::new_v4().simple());
    let game = uuid::Uuid::new_v4();
    for (method, path) in [
        ("GET", format!("/v1/email/verify?token={marker}")),
        ("GET", format!("/v1/unsubscribe?token={marker}")),
        ("POST", format!("/v1/unsubscribe?token={marker}")),
        ("GET", format!("/v1/invitations/accept?token={marker}")),
        ("GET", format!("/verify?token={marker}")),
        ("GET", format!("/confirm?token={marker}")),
        ("GET", format!("/?signin={marker}")),
        ("GET", format!("/games/{game}?signin={marker}&x=1")),
    ] {
        let method: reqwest::Method = method.parse().expect("method");
        client
            .request(method, format!("{base}{path}"))
            .send()
            .await
            .expect("send");
    }
    // A real confirmation link, from the mail the server sends: its page, then the token
    // exchanged for the account.
    client
        .post(format!("{base}/v1/auth/register"))
        .json(
            &json!({"email": "ann@example.test", "password": "correct horse battery",
                      "display_name": "Ann"}),
        )
        .send()
        .await
        .expect("register");
    let (token, _) = confirm_by_mail(&client, &base, &smtp, "ann@example.test").await;

    // Issue 20: "The access log of a whole game with invitations, verification and
    // unsubscribe contains no token". Ann invites Bob by mail, Bob accepts through the link,
    // they play by the API, and Bob unsubscribes through his turn mail's link.
    let mut tokens = vec![token.clone()];
    let login: Value = client
        .post(format!("{base}/v1/auth/login"))
        .json(&json!({"email": "ann@example.test", "password": "correct horse battery"}))
        .send()
        .await
        .expect("login")
        .json()
        .await
        .expect("a session");
    let ann = login["token"].as_str().expect("a token").to_owned();
    let created: Value = client
        .post(format!("{base}/v1/games"))
        .bearer_auth(&ann)
        .json(&json!({"ruleset": "bag-of-fate", "seats": 2}))
        .send()
        .await
        .expect("create")
        .json()
        .await
        .expect("a game");
    let game = created["id"].as_str().expect("an id").to_owned();
    let invited = client
        .post(format!("{base}/v1/games/{game}/invitations"))
        .bearer_auth(&ann)
        .json(&json!({"email": "bob@example.test"}))
        .send()
        .await
        .expect("invite");
    assert_eq!(invited.status(), 201);
    let mails = smtp
        .wait_for("the invitation", |got| {
            got.iter()
                .any(|m| m.to.iter().any(|t| t == "bob@example.test"))
        })
        .await;
    let invitation = mails
        .iter()
        .find(|m| m.to.iter().any(|t| t == "bob@example.test"))
        .expect("the invitation")
        .body_text();
    let join = link_tokens(&invitation, "token=")
        .into_iter()
        .next()
        .expect("a join link");
    client
        .post(format!("{base}/v1/auth/register"))
        .json(
            &json!({"email": "bob@example.test", "password": "correct horse battery",
                      "display_name": "Bob"}),
        )
        .send()
        .await
        .expect("register");
    let (bob_link, bob) = confirm_by_mail(&client, &base, &smtp, "bob@example.test").await;
    tokens.push(bob_link);
    let shown = client
        .get(format!("{base}/v1/invitations/accept?token={join}"))
        .send()
        .await
        .expect("show the invitation");
    assert_eq!(shown.status(), 200);
    let accepted = client
        .post(format!("{base}/v1/invitations/accept"))
        .bearer_auth(&bob)
        .json(&json!({"token": join}))
        .send()
        .await
        .expect("accept");
    assert_eq!(accepted.status(), 200);
    // A few moves, ending on Bob's turn: his latest turn mail is still wanted, so it is sent
    // (the worker drops turn mails answered before they went out).
    for moves in 0..20 {
        let state: Value = client
            .get(format!("{base}/v1/games/{game}/state"))
            .bearer_auth(&ann)
            .send()
            .await
            .expect("state")
            .json()
            .await
            .expect("a state");
        let Some(seat) = state["to_act"][0].as_u64() else {
            break;
        };
        if moves >= 3 && seat == 1 {
            break;
        }
        let who = if seat == 0 { &ann } else { &bob };
        let mine: Value = client
            .get(format!("{base}/v1/games/{game}/state"))
            .bearer_auth(who)
            .send()
            .await
            .expect("state")
            .json()
            .await
            .expect("a state");
        let played = client
            .post(format!("{base}/v1/games/{game}/actions"))
            .bearer_auth(who)
            .json(&json!({"actions": [mine["legal_actions"][0]["action"]]}))
            .send()
            .await
            .expect("play");
        assert_eq!(played.status(), 200);
    }
    let turn = smtp
        .wait_for("a turn mail to Bob", |got| {
            got.iter().any(|m| {
                m.to.iter().any(|t| t == "bob@example.test")
                    && m.body_text().contains("/v1/unsubscribe?token=")
            })
        })
        .await;
    let turn = turn
        .iter()
        .rev()
        .find(|m| {
            m.to.iter().any(|t| t == "bob@example.test")
                && m.body_text().contains("/v1/unsubscribe?token=")
        })
        .expect("a turn mail")
        .body_text();
    let unsubscribe = link_tokens(
        &turn[turn.find("/v1/unsubscribe?").unwrap_or(0)..],
        "token=",
    )
    .into_iter()
    .next()
    .expect("an unsubscribe link");
    let done = client
        .post(format!("{base}/v1/unsubscribe?token={unsubscribe}"))
        .send()
        .await
        .expect("unsubscribe");
    assert!(done.status().is_success(), "{}", done.status());
    // Every token the game put in a mail or an answer.
    tokens.extend([ann, bob]);
    for mail in smtp.received() {
        let text = mail.body_text();
        tokens.extend(link_tokens(&text, "token="));
        tokens.extend(link_tokens(&text, "signin="));
    }
    assert!(tokens.len() > 6, "{tokens:?}");

    server.terminate().await;
    let logged = std::fs::read_to_string(&log_path).expect("the log");
    // The signed part of each token (after the header every token shares), in pieces short
    // enough to survive a mail encoding's line breaks.
    let mut pieces: Vec<String> = vec![];
    for token in &tokens {
        let secret = token.split_once('.').map_or(token.as_str(), |(_, s)| s);
        pieces.extend(
            (0..secret.len().saturating_sub(24))
                .step_by(8)
                .map(|i| secret[i..i + 24].to_owned()),
        );
    }
    assert!(pieces.len() > 20, "{tokens:?}");
    for line in logged.lines() {
        assert!(!line.contains(&marker), "a token in the log: {line}");
        assert!(!line.contains("token="), "a query in the log: {line}");
        assert!(!line.contains("signin="), "a query in the log: {line}");
        for piece in &pieces {
            assert!(
                !line.contains(piece.as_str()),
                "a piece of a token in the log: {line}"
            );
        }
    }
    // The access log did its work: the paths are there.
    for path in [
        "/v1/email/verify",
        "/v1/unsubscribe",
        "/v1/invitations/accept",
        "/verify",
        "/confirm",
    ] {
        assert!(
            logged.contains(&format!(" {path} ")),
            "{path} is not logged:\n{logged}"
        );
    }
}

/// Follows the confirmation link mailed to `email` as its owner would: its page (a GET, which
/// creates nothing), then its token for the account. The link's token and the session's.
async fn confirm_by_mail(
    client: &reqwest::Client,
    base: &str,
    smtp: &SmtpServer,
    email: &str,
) -> (String, String) {
    let confirmation = |m: &crate::system_tests::smtp::Received| {
        m.to.iter().any(|t| t == email) && m.body_text().contains("/confirm?token=")
    };
    let mails = smtp
        .wait_for("the confirmation mail", |got| got.iter().any(confirmation))
        .await;
    let text = mails
        .iter()
        .find(|m| confirmation(m))
        .expect("the confirmation mail")
        .body_text();
    let token = link_tokens(&text, "/confirm?token=")
        .into_iter()
        .next()
        .expect("a confirmation link");
    let page = client
        .get(format!("{base}/confirm?token={token}"))
        .send()
        .await
        .expect("the confirmation page");
    assert!(page.status().is_success(), "{}", page.status());
    let made: Value = client
        .post(format!("{base}/v1/auth/confirm"))
        .json(&json!({ "token": token }))
        .send()
        .await
        .expect("confirm")
        .json()
        .await
        .expect("an account");
    let session = made["token"].as_str().expect("a session token").to_owned();
    (token, session)
}

/// The values of every `<key>…` query parameter in `text` (a mail's links).
fn link_tokens(text: &str, key: &str) -> Vec<String> {
    text.match_indices(key)
        .map(|(at, _)| {
            text[at + key.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '%'))
                .collect::<String>()
        })
        .filter(|t| t.len() > 16)
        .collect()
}
