//! Issue 19, item 3: personal API tokens for bots and tools, with scopes, shown once, stored
//! as hashes, listed with their last use, and revoked at once in every server process.

use reqwest::Method;
use serde_json::{Value, json};

use crate::system_tests::games::acting;
use crate::system_tests::helpers::{Player, TestApp, spawn_app};

/// Makes a token for `owner` (a session or a token with `account`); the whole answer.
async fn make(app: &TestApp, owner: &Player, name: &str, scopes: &[&str]) -> Value {
    app.post(
        "/v1/me/tokens",
        owner,
        &json!({"name": name, "scopes": scopes}),
    )
    .await
    .expect(201)
}

/// `DELETE /v1/me/tokens/{id}` as `who`.
async fn revoke(app: &TestApp, who: &Player, id: &str) -> crate::system_tests::helpers::Reply {
    app.request(
        Method::DELETE,
        &format!("/v1/me/tokens/{id}"),
        Some(&who.token),
        None,
        &[],
    )
    .await
}

/// `owner`'s account, acting through `secret`.
fn as_token(owner: &Player, secret: &Value) -> Player {
    Player {
        token: secret.as_str().expect("a secret").to_owned(),
        ..owner.clone()
    }
}

#[tokio::test]
async fn a_token_is_shown_once_kept_as_a_hash_and_does_what_its_scopes_allow() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;

    let reply = app
        .request(
            Method::POST,
            "/v1/me/tokens",
            Some(&ann.token),
            Some(&json!({"name": "my bot", "scopes": ["read", "play"]})),
            &[],
        )
        .await;
    let made = reply.expect(201);
    let secret = made["secret"]
        .as_str()
        .expect("the secret, this once")
        .to_owned();
    assert!(secret.starts_with("tp_"), "{secret}");
    assert_eq!(made["name"], "my bot");
    assert_eq!(made["scopes"], json!(["read", "play"]));
    assert_eq!(made["last_used_at"], Value::Null);
    // Only the secret's SHA-256 is stored: no column holds the secret itself.
    assert_eq!(
        app.count_where(
            "api_tokens",
            &format!("secret_sha256 = sha256(convert_to('{secret}', 'UTF8'))")
        )
        .await,
        1
    );
    assert_eq!(
        app.count_where(
            "api_tokens",
            &format!("position('{secret}' in (api_tokens.*)::text) > 0")
        )
        .await,
        0,
        "the secret is stored in clear"
    );

    // `read` and `play`: the bot reads, creates a game, and plays in it.
    let bot = as_token(&ann, &made["secret"]);
    let me = app.get("/v1/me", &bot).await.expect(200);
    assert_eq!(me["id"], ann.id.to_string());
    let listed = app.get("/v1/me/tokens", &ann).await.expect(200);
    let tokens = listed["tokens"].as_array().expect("a list");
    assert_eq!(tokens.len(), 1);
    assert!(tokens[0].get("secret").is_none(), "{listed}");
    assert!(!listed.to_string().contains(&secret), "{listed}");
    assert!(
        tokens[0]["last_used_at"].is_string(),
        "its use is recorded: {listed}"
    );
    assert_eq!(listed["next"], Value::Null);

    let game = app
        .start_game("bag-of-fate", &[bot.clone(), bob.clone()], json!({}))
        .await;
    let players = [bot.clone(), bob.clone()];
    let (seat, state) = acting(&app, game, &players).await;
    let body = json!({"expected_version": state["version"], "actions": [state["legal_actions"][0]["action"]]});
    app.post(&format!("/v1/games/{game}/actions"), &players[seat], &body)
        .await
        .expect(200);

    // No `account`: settings, logout and tokens are refused, and nothing changes.
    app.request(
        Method::PUT,
        "/v1/me/preferences",
        Some(&bot.token),
        Some(&json!({"mail": "none"})),
        &[],
    )
    .await
    .expect_problem(403, "insufficient-scope");
    assert_eq!(
        app.get("/v1/me/preferences", &ann).await.expect(200)["mail"],
        "all"
    );
    app.get("/v1/me/tokens", &bot)
        .await
        .expect_problem(403, "insufficient-scope");
    app.post(
        "/v1/me/tokens",
        &bot,
        &json!({"name": "more", "scopes": ["read"]}),
    )
    .await
    .expect_problem(403, "insufficient-scope");
    app.post("/v1/auth/logout", &bot, &json!({}))
        .await
        .expect_problem(403, "insufficient-scope");
    app.get("/v1/me", &ann).await.expect(200);

    // `read` alone: reading works, changing anything is refused before it happens.
    let reader = as_token(
        &ann,
        &make(&app, &ann, "dashboard", &["read"]).await["secret"],
    );
    app.get(&format!("/v1/games/{game}"), &reader)
        .await
        .expect(200);
    let games = app.count("games").await;
    app.post(
        "/v1/games",
        &reader,
        &json!({"ruleset": "bag-of-fate", "seats": 2, "options": {}}),
    )
    .await
    .expect_problem(403, "insufficient-scope");
    assert_eq!(app.count("games").await, games);

    // `account`: may make tokens, but none with a scope it lacks itself.
    let keeper = as_token(
        &ann,
        &make(&app, &ann, "keeper", &["account"]).await["secret"],
    );
    app.post(
        "/v1/me/tokens",
        &keeper,
        &json!({"name": "sub", "scopes": ["account"]}),
    )
    .await
    .expect(201);
    app.post(
        "/v1/me/tokens",
        &keeper,
        &json!({"name": "wider", "scopes": ["play"]}),
    )
    .await
    .expect_problem(403, "insufficient-scope");
    app.get("/v1/me/games", &keeper)
        .await
        .expect_problem(403, "insufficient-scope");
}

#[tokio::test]
async fn a_revoked_or_forged_token_is_refused_at_once_by_every_server_process() {
    let app = spawn_app().await;
    let other_process = app.twin().await;
    let ann = app.register("Ann").await;
    let eve = app.register("Eve").await;
    let made = make(&app, &ann, "bot", &["read", "play"]).await;
    let id = made["id"].as_str().expect("an id").to_owned();
    let bot = as_token(&ann, &made["secret"]);
    app.get("/v1/me", &bot).await.expect(200);
    other_process.get("/v1/me", &bot).await.expect(200);

    // Someone else's id is nobody else's to revoke.
    revoke(&app, &eve, &id)
        .await
        .expect_problem(404, "not-found");
    other_process.get("/v1/me", &bot).await.expect(200);

    revoke(&app, &ann, &id).await.expect(204);
    app.get("/v1/me", &bot)
        .await
        .expect_problem(401, "unauthorized");
    other_process
        .get("/v1/me", &bot)
        .await
        .expect_problem(401, "unauthorized");
    // Again: nothing to do, not an error; the list keeps it, revoked.
    revoke(&app, &ann, &id).await.expect(204);
    let listed = app.get("/v1/me/tokens", &ann).await.expect(200);
    assert!(listed["tokens"][0]["revoked_at"].is_string(), "{listed}");

    // A token with a live id and another secret, and made-up ones.
    let live = make(&app, &ann, "live", &["read"]).await;
    let live_secret = live["secret"].as_str().expect("secret");
    let (head, _) = live_secret.rsplit_once('_').expect("tp_<id>_<secret>");
    for forged in [
        format!("{head}_{}", "A".repeat(43)),
        "tp_nothing".to_owned(),
        format!("tp_{}_x", uuid::Uuid::new_v4().simple()),
    ] {
        app.get("/v1/me", &as_token(&ann, &json!(forged)))
            .await
            .expect_problem(401, "unauthorized");
    }
    app.get("/v1/me", &as_token(&ann, &live["secret"]))
        .await
        .expect(200);
}

#[tokio::test]
async fn bad_token_requests_are_refused_clearly_and_the_live_tokens_are_bounded() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    for (body, status, slug) in [
        (json!({"name": "x", "scopes": []}), 422, "invalid-request"),
        (
            json!({"name": "  ", "scopes": ["read"]}),
            422,
            "invalid-request",
        ),
        (
            json!({"name": "x".repeat(101), "scopes": ["read"]}),
            422,
            "invalid-request",
        ),
        (
            json!({"name": "x", "scopes": ["admin"]}),
            400,
            "malformed-request",
        ),
        (json!({"name": "x"}), 400, "malformed-request"),
    ] {
        app.post("/v1/me/tokens", &ann, &body)
            .await
            .expect_problem(status, slug);
    }
    assert_eq!(app.count("api_tokens").await, 0);

    for i in 0..20 {
        make(&app, &ann, &format!("bot {i}"), &["read"]).await;
    }
    app.post(
        "/v1/me/tokens",
        &ann,
        &json!({"name": "one more", "scopes": ["read"]}),
    )
    .await
    .expect_problem(409, "not-now");
    // Pages of the same shape as every list: `next` until the last.
    let first = app.get("/v1/me/tokens?limit=15", &ann).await.expect(200);
    assert_eq!(first["tokens"].as_array().expect("a list").len(), 15);
    let next = first["next"].as_str().expect("a next page");
    let second = app
        .get(&format!("/v1/me/tokens?limit=15&cursor={next}"), &ann)
        .await
        .expect(200);
    assert_eq!(second["tokens"].as_array().expect("a list").len(), 5);
    assert_eq!(second["next"], Value::Null);
    let mut names: Vec<String> = first["tokens"]
        .as_array()
        .into_iter()
        .chain(second["tokens"].as_array())
        .flatten()
        .map(|t| t["name"].as_str().unwrap_or_default().to_owned())
        .collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 20, "every token once");
    app.get("/v1/me/tokens?cursor=nonsense", &ann)
        .await
        .expect_problem(400, "malformed-request");
}

/// Issue 43: "`POST /v1/me/tokens` takes the same [bidi overrides, a BOM, `a@b`] as token
/// names."
#[tokio::test]
async fn token_names_with_hidden_characters_or_addresses_are_refused() {
    let app = spawn_app().await;
    let owner = app.register("Tess").await;
    for name in ["\u{202E}RTL", "\u{FEFF}bot", "a@b"] {
        app.post(
            "/v1/me/tokens",
            &owner,
            &json!({"name": name, "scopes": ["read"]}),
        )
        .await
        .expect_problem(422, "invalid-request");
    }
    make(&app, &owner, "my bot", &["read"]).await;
}
