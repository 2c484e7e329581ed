//! Issue 20: "the session JWT lives 7 days with no way to log out" — logout and revocation of
//! sessions (a token version per user): `POST /v1/auth/logout`, `POST /v1/me/password`, and
//! "Sign out everywhere" on the pages, each ending every session of the account.

use chrono::Utc;
use reqwest::StatusCode;
use reqwest::header::{COOKIE, LOCATION};
use serde_json::json;
use turnpost::auth::jwt::Purpose;

use crate::system_tests::helpers::{Player, TestApp, spawn_app};
use crate::system_tests::web::{cookie_value, form, plain_client};

/// A second token for `who`, from a login of its own (another device, a bot).
async fn log_in(app: &TestApp, email: &str, password: &str) -> crate::system_tests::helpers::Reply {
    app.request(
        reqwest::Method::POST,
        "/v1/auth/login",
        None,
        Some(&json!({"email": email, "password": password})),
        &[],
    )
    .await
}

fn with_token(who: &Player, token: &str) -> Player {
    Player {
        token: token.to_owned(),
        ..who.clone()
    }
}

#[track_caller]
fn assert_revoked(problem: &serde_json::Value) {
    assert!(
        problem["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("revoked"),
        "{problem}"
    );
}

/// Logout ends every token of the account (this one and the other device's), at once; a
/// new login works; another account's tokens are untouched.
#[tokio::test]
async fn logout_revokes_every_token_of_the_account_and_only_those() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let other = log_in(&app, &ann.email, "correct horse battery")
        .await
        .expect(200);
    let ann2 = with_token(&ann, other["token"].as_str().expect("token"));
    app.get("/v1/me", &ann).await.expect(200);
    app.get("/v1/me", &ann2).await.expect(200);

    let r = app
        .request(
            reqwest::Method::POST,
            "/v1/auth/logout",
            Some(&ann.token),
            None,
            &[],
        )
        .await;
    assert_eq!(r.status, 204);
    for who in [&ann, &ann2] {
        assert_revoked(
            &app.get("/v1/me", who)
                .await
                .expect_problem(401, "unauthorized"),
        );
        // Writes too, not only reads.
        app.post(
            "/v1/games",
            who,
            &json!({"ruleset": "bag-of-fate", "seats": 2}),
        )
        .await
        .expect_problem(401, "unauthorized");
    }
    // Logging out again with a revoked token is refused, not repeated.
    app.request(
        reqwest::Method::POST,
        "/v1/auth/logout",
        Some(&ann.token),
        None,
        &[],
    )
    .await
    .expect_problem(401, "unauthorized");
    app.get("/v1/me", &bob).await.expect(200);
    let fresh = log_in(&app, &ann.email, "correct horse battery")
        .await
        .expect(200);
    let ann3 = with_token(&ann, fresh["token"].as_str().expect("token"));
    app.get("/v1/me", &ann3).await.expect(200);
    // Without a token there is nobody to log out.
    app.request(reqwest::Method::POST, "/v1/auth/logout", None, None, &[])
        .await
        .expect_problem(401, "unauthorized");
}

/// A new password needs the current one and the strength check, ends every session (the old
/// tokens are 401) and answers with a new token; only the new password logs in.
#[tokio::test]
async fn a_new_password_needs_the_old_one_and_ends_every_session() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let change =
        |current: &str, new: &str| json!({"current_password": current, "new_password": new});
    app.post(
        "/v1/me/password",
        &ann,
        &change("wrong guess", "a much longer passphrase 42"),
    )
    .await
    .expect_problem(403, "wrong-password");
    app.post(
        "/v1/me/password",
        &ann,
        &change("correct horse battery", "password"),
    )
    .await
    .expect_problem(422, "weak-password");
    app.post(
        "/v1/me/password",
        &ann,
        &change("correct horse battery", "short"),
    )
    .await
    .expect_problem(422, "invalid-request");
    // Nothing changed so far: the token still works.
    app.get("/v1/me", &ann).await.expect(200);

    let answer = app
        .post(
            "/v1/me/password",
            &ann,
            &change("correct horse battery", "a much longer passphrase 42"),
        )
        .await
        .expect(200);
    let renewed = with_token(&ann, answer["token"].as_str().expect("a new token"));
    assert!(answer["expires_at"].is_string(), "{answer}");
    assert_revoked(
        &app.get("/v1/me", &ann)
            .await
            .expect_problem(401, "unauthorized"),
    );
    app.get("/v1/me", &renewed).await.expect(200);
    log_in(&app, &ann.email, "correct horse battery")
        .await
        .expect_problem(401, "invalid-credentials");
    log_in(&app, &ann.email, "a much longer passphrase 42")
        .await
        .expect(200);
}

/// A tokens' version is checked against the account even when the process has it in memory:
/// a token signed for a version the account never had (a forged-looking `ver`, here made
/// with the server's own key) is refused, and so is an old-style token without a version once
/// the account has logged out.
#[tokio::test]
async fn a_token_of_another_version_is_refused() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    app.get("/v1/me", &ann).await.expect(200);
    let jwt = app.jwt();
    let (ahead, _) = jwt.issue(ann.id, 7, Utc::now()).expect("sign");
    assert_revoked(
        &app.get("/v1/me", &with_token(&ann, &ahead))
            .await
            .expect_problem(401, "unauthorized"),
    );
    // A token without `ver` (issued before versions existed) counts as version 0.
    let (unversioned, _) = jwt
        .sign(Purpose::Session, ann.id, None, Utc::now(), 3600)
        .expect("sign");
    let old = with_token(&ann, &unversioned);
    app.get("/v1/me", &old).await.expect(200);
    app.request(
        reqwest::Method::POST,
        "/v1/auth/logout",
        Some(&ann.token),
        None,
        &[],
    )
    .await;
    app.get("/v1/me", &old)
        .await
        .expect_problem(401, "unauthorized");
}

/// A web session for `who`, opened by a sign-in link as from a mail; the session cookie.
async fn web_session(app: &TestApp, who: &Player) -> String {
    let (token, _) = app
        .jwt()
        .sign(Purpose::SignIn, who.id, None, Utc::now(), 3600)
        .expect("sign");
    let res = plain_client()
        .get(format!("{}/settings?signin={token}", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    cookie_value(&res, "turnpost_session").expect("a session cookie")
}

/// `GET /settings` with the session: 200 (and its CSRF cookie and form token) or where it
/// sends the browser.
async fn settings(app: &TestApp, session: &str) -> Result<(String, String), String> {
    let res = plain_client()
        .get(format!("{}/settings", app.base))
        .header(COOKIE, format!("turnpost_session={session}"))
        .send()
        .await
        .expect("get");
    if res.status() != StatusCode::OK {
        return Err(res
            .headers()
            .get(LOCATION)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned());
    }
    let seed = cookie_value(&res, "turnpost_csrf").expect("a csrf cookie");
    let body = res.text().await.expect("body");
    assert!(body.contains("Sign out everywhere"), "{body}");
    let at = body.find("name=\"csrf\" value=\"").expect("a csrf field") + 19;
    Ok((seed, body[at..at + 32].to_owned()))
}

/// "Sign out everywhere" on the settings page ends the browser's session and the API
/// tokens; the API's logout ends web sessions; plain "Sign out" ends only this browser's.
#[tokio::test]
async fn signing_out_everywhere_on_the_pages_ends_api_tokens_and_the_other_way_round() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let post_sign_out = |session: String, seed: String, fields: Vec<(&'static str, String)>| {
        let base = app.base.clone();
        async move {
            let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            plain_client()
                .post(format!("{base}/signout"))
                .header(
                    COOKIE,
                    format!("turnpost_session={session}; turnpost_csrf={seed}"),
                )
                .header("content-type", "application/x-www-form-urlencoded")
                .body(form(&fields))
                .send()
                .await
                .expect("post")
        }
    };

    // Plain sign-out: this browser only; the API token lives on.
    let first = web_session(&app, &ann).await;
    let (seed, csrf) = settings(&app, &first).await.expect("signed in");
    let res = post_sign_out(first.clone(), seed, vec![("csrf", csrf)]).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    app.get("/v1/me", &ann).await.expect(200);

    // Everywhere: two browsers and the API token.
    let browser = web_session(&app, &ann).await;
    let other_browser = web_session(&app, &ann).await;
    let (seed, csrf) = settings(&app, &browser).await.expect("signed in");
    let res = post_sign_out(
        browser.clone(),
        seed.clone(),
        vec![("csrf", csrf.clone()), ("everywhere", "1".into())],
    )
    .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    for session in [&browser, &other_browser] {
        let to = settings(&app, session).await.expect_err("signed out");
        assert!(to.starts_with("/signin"), "{to}");
    }
    assert_revoked(
        &app.get("/v1/me", &ann)
            .await
            .expect_problem(401, "unauthorized"),
    );

    // A forged form does not sign anybody out.
    let fresh = log_in(&app, &ann.email, "correct horse battery")
        .await
        .expect(200);
    let ann2 = with_token(&ann, fresh["token"].as_str().expect("token"));
    let browser = web_session(&app, &ann).await;
    let res = post_sign_out(
        browser.clone(),
        seed,
        vec![("csrf", "0".repeat(32)), ("everywhere", "1".into())],
    )
    .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    app.get("/v1/me", &ann2).await.expect(200);
    settings(&app, &browser).await.expect("still signed in");

    // The API's logout ends the web session.
    app.request(
        reqwest::Method::POST,
        "/v1/auth/logout",
        Some(&ann2.token),
        None,
        &[],
    )
    .await;
    let to = settings(&app, &browser).await.expect_err("signed out");
    assert!(to.starts_with("/signin"), "{to}");
}
