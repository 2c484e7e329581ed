//! "Bad input — malformed JSON, unknown fields, unknown ruleset, wrong seat count, a body over
//! the size limit, a forged or expired JWT — gets a 4xx problem+json, never a 5xx, and writes
//! nothing."

use reqwest::Method;
use serde_json::{Value, json};

use crate::system_tests::helpers::spawn_app;

async fn rows(app: &crate::system_tests::helpers::TestApp) -> Vec<i64> {
    let mut counts = vec![];
    for t in [
        "users",
        "games",
        "seats",
        "game_events",
        "outbox",
        "idempotency_keys",
    ] {
        counts.push(app.count(t).await);
    }
    counts
}

#[tokio::test]
async fn bad_input_gets_problem_json_and_writes_nothing() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let before = rows(&app).await;

    // Malformed JSON.
    app.raw_post(
        "/v1/games",
        Some(&ann.token),
        "application/json",
        b"{\"ruleset\": ".to_vec(),
    )
    .await
    .expect_problem(400, "malformed-request");
    app.raw_post(
        "/v1/auth/register",
        None,
        "application/json",
        b"[1,2,3]".to_vec(),
    )
    .await
    .expect_problem(400, "malformed-request");
    // Not JSON at all.
    app.raw_post(
        "/v1/games",
        Some(&ann.token),
        "text/plain",
        b"hello".to_vec(),
    )
    .await
    .expect_problem(415, "unsupported-media-type");
    // Unknown fields.
    app.post(
        "/v1/games",
        &ann,
        &json!({"ruleset": "bag-of-fate", "seats": 3, "colour": "red"}),
    )
    .await
    .expect_problem(400, "malformed-request");
    // Unknown ruleset.
    app.post("/v1/games", &ann, &json!({"ruleset": "chess", "seats": 2}))
        .await
        .expect_problem(422, "unknown-ruleset");
    // Wrong seat counts.
    for seats in [0, 1, 6, -3, 1_000_000] {
        app.post(
            "/v1/games",
            &ann,
            &json!({"ruleset": "bag-of-fate", "seats": seats}),
        )
        .await
        .expect_problem(422, "invalid-seat-count");
    }
    // Bad options.
    app.post(
        "/v1/games",
        &ann,
        &json!({"ruleset": "bag-of-fate", "seats": 3, "options": {"turbo": true}}),
    )
    .await
    .expect_problem(422, "invalid-request");
    // A body over the size limit (64 KiB by default).
    let huge =
        json!({"ruleset": "bag-of-fate", "seats": 3, "options": {"pad": "x".repeat(70_000)}});
    app.raw_post(
        "/v1/games",
        Some(&ann.token),
        "application/json",
        serde_json::to_vec(&huge).unwrap(),
    )
    .await
    .expect_problem(413, "payload-too-large");
    // Bad path and query parameters.
    app.get("/v1/games/not-a-uuid", &ann)
        .await
        .expect_problem(400, "malformed-request");
    app.get("/v1/games?limit=0", &ann)
        .await
        .expect_problem(400, "malformed-request");
    app.get("/v1/games?limit=abc", &ann)
        .await
        .expect_problem(400, "malformed-request");
    app.get(&format!("/v1/games/{}", uuid::Uuid::new_v4()), &ann)
        .await
        .expect_problem(404, "not-found");

    assert_eq!(rows(&app).await, before, "bad input wrote something");

    // The optional body of a join is optional, not ignored: a wrong one is refused.
    let game = app
        .post(
            "/v1/games",
            &ann,
            &json!({"ruleset": "bag-of-fate", "seats": 3}),
        )
        .await
        .expect(201);
    let bob = app.register("Bob").await;
    let before = rows(&app).await;
    let join = format!("/v1/games/{}/join", game["id"].as_str().unwrap_or_default());
    app.post(&join, &bob, &json!({"seat": "two"}))
        .await
        .expect_problem(400, "malformed-request");
    app.raw_post(&join, Some(&bob.token), "text/plain", b"2".to_vec())
        .await
        .expect_problem(415, "unsupported-media-type");
    assert_eq!(rows(&app).await, before, "a refused join wrote something");
}

#[tokio::test]
async fn forged_expired_or_missing_tokens_are_401() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let body = json!({"ruleset": "bag-of-fate", "seats": 3});

    // Missing.
    app.request(Method::POST, "/v1/games", None, Some(&body), &[])
        .await
        .expect_problem(401, "unauthorized");
    // Garbage.
    app.request(Method::POST, "/v1/games", Some("garbage"), Some(&body), &[])
        .await
        .expect_problem(401, "unauthorized");
    // Forged: a valid token's claims signed with another key.
    let forged = turnpost::auth::Jwt::new(b"some other key entirely, not ours!", 3600)
        .issue(ann.id, 0, chrono::Utc::now())
        .unwrap()
        .0;
    app.request(Method::POST, "/v1/games", Some(&forged), Some(&body), &[])
        .await
        .expect_problem(401, "unauthorized");
    // Tampered: our token with its payload changed.
    let mut parts: Vec<String> = ann.token.split('.').map(str::to_owned).collect();
    parts[1] = parts[1].chars().rev().collect();
    app.request(
        Method::POST,
        "/v1/games",
        Some(&parts.join(".")),
        Some(&body),
        &[],
    )
    .await
    .expect_problem(401, "unauthorized");
    // "alg: none".
    let none = format!(
        "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.{}.",
        ann.token.split('.').nth(1).unwrap()
    );
    app.request(Method::GET, "/v1/me", Some(&none), None, &[])
        .await
        .expect_problem(401, "unauthorized");

    assert_eq!(app.count("games").await, 0);
}

#[tokio::test]
async fn expired_tokens_are_refused() {
    // Tokens that expired a second after they were issued.
    let app = crate::system_tests::helpers::spawn_app_with(|s| s.jwt_ttl_secs = -10).await;
    let old = app.register_as("Old", "old@example.test").await;
    let problem = app
        .request(Method::GET, "/v1/me", Some(&old.token), None, &[])
        .await
        .expect_problem(401, "unauthorized");
    assert!(problem["detail"].as_str().unwrap().contains("expired"));
}

#[tokio::test]
async fn unknown_routes_and_methods_are_problems() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    app.get("/v1/nothing-here", &ann)
        .await
        .expect_problem(404, "not-found");
    let r = app
        .request(Method::DELETE, "/v1/rulesets", Some(&ann.token), None, &[])
        .await;
    assert!(r.status.is_client_error());
    assert!(r.content_type.starts_with("application/problem+json"));
}

/// Issue 20: "a token for a user that no longer exists gets 500 on create and join" — it is
/// 401 now, and nothing is written.
#[tokio::test]
async fn a_token_whose_account_does_not_exist_is_401_on_create_and_join() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let game = app
        .post(
            "/v1/games",
            &ann,
            &json!({"ruleset": "bag-of-fate", "seats": 2}),
        )
        .await
        .expect(201);
    let id = game["id"].as_str().expect("id");
    // A well-signed token for an account that was never created (or was deleted since).
    let jwt = app.jwt();
    let (token, _) = jwt
        .issue(uuid::Uuid::new_v4(), 0, chrono::Utc::now())
        .expect("sign");
    let before = rows(&app).await;
    let body = json!({"ruleset": "bag-of-fate", "seats": 2});
    for (path, body) in [
        ("/v1/games".to_owned(), body),
        (format!("/v1/games/{id}/join"), json!({})),
    ] {
        let problem = app
            .request(Method::POST, &path, Some(&token), Some(&body), &[])
            .await
            .expect_problem(401, "unauthorized");
        assert!(
            problem["detail"]
                .as_str()
                .unwrap_or("")
                .contains("does not exist"),
            "{path}: {problem}"
        );
    }
    assert_eq!(rows(&app).await, before, "nothing was written");
}

/// To JSON Schema, which the OpenAPI document is written in, `2.0` is an integer ("a number
/// with a zero fractional part", JSON Schema 2020-12 validation §6.1.1): a client whose JSON
/// writer keeps the `.0` of its doubles sends bodies the document accepts, so the server must
/// read them. Before, serde refused `{"seat": 2.0}` with 400. A fraction is still refused.
#[tokio::test]
async fn integral_floats_are_integers_as_the_document_says() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let game = app
        .raw_post(
            "/v1/games",
            Some(&ann.token),
            "application/json",
            br#"{"ruleset": "bag-of-fate", "seats": 2.0}"#.to_vec(),
        )
        .await
        .expect(201);
    assert_eq!(game["seats"].as_array().map(Vec::len), Some(2));
    let join = format!("/v1/games/{}/join", game["id"].as_str().unwrap_or_default());
    app.raw_post(
        &join,
        Some(&bob.token),
        "application/json",
        br#"{"seat": 1.5}"#.to_vec(),
    )
    .await
    .expect_problem(400, "malformed-request");
    let joined = app
        .raw_post(
            &join,
            Some(&bob.token),
            "application/json",
            br#"{"seat": 1.0}"#.to_vec(),
        )
        .await
        .expect(200);
    assert_eq!(joined["status"], "active");
    assert_eq!(joined["seats"][1]["display_name"], "Bob");

    // The submission's version, and numbers inside the action itself.
    let id = game["id"].as_str().unwrap_or_default();
    let seat = joined["to_act"][0].as_u64().unwrap_or_default() as usize;
    let player = [&ann, &bob][seat];
    let state = app
        .get(&format!("/v1/games/{id}/state"), player)
        .await
        .expect(200);
    let action = state["legal_actions"][0]["action"].clone();
    let mut text = serde_json::to_string(&json!({
        "expected_version": state["version"],
        "actions": [action],
    }))
    .unwrap_or_default();
    // Every integer in the body written as a double: `7` → `7.0`.
    text = integers_as_doubles(&text);
    assert!(text.contains(".0"), "{text}");
    let done = app
        .raw_post(
            &format!("/v1/games/{id}/actions"),
            Some(&player.token),
            "application/json",
            text.into_bytes(),
        )
        .await
        .expect(200);
    assert!(
        done["version"].as_i64() > state["version"].as_i64(),
        "{done}"
    );
}

/// `text` (compact JSON) with every integer outside strings written with `.0`.
fn integers_as_doubles(text: &str) -> String {
    let mut out = String::new();
    let (mut in_string, mut escaped) = (false, false);
    let mut number = String::new();
    let end = |number: &mut String, out: &mut String| {
        if !number.is_empty() {
            out.push_str(number);
            if !number.contains(['.', 'e', 'E']) {
                out.push_str(".0");
            }
            number.clear();
        }
    };
    for c in text.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c.is_ascii_digit()
            || (c == '-' && number.is_empty())
            || (!number.is_empty() && matches!(c, '-' | '+' | '.' | 'e' | 'E'))
        {
            number.push(c);
        } else {
            end(&mut number, &mut out);
            in_string = c == '"';
            out.push(c);
        }
    }
    end(&mut number, &mut out);
    out
}

/// A listed action in other spellings: a unit action with a null argument, an argument with
/// an unknown field.
fn respellings(listed: &[Value], version: &Value) -> Vec<Value> {
    let mut out = vec![];
    for action in listed {
        match action {
            Value::String(name) => out.push(json!({ name.clone(): null })),
            Value::Object(fields) => {
                for (name, argument) in fields {
                    if let Value::Object(inner) = argument {
                        let mut inner = inner.clone();
                        inner.insert("expected_version".into(), version.clone());
                        out.push(json!({ name.clone(): inner }));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Issue 43: "Action bodies are normalised rather than matched as listed (`{"end_move": null}`
/// and unknown fields are accepted as the listed action)." A listed action in another
/// spelling is refused (422 `illegal-action`, the listed form named) and changes nothing;
/// the action as listed plays.
#[tokio::test]
async fn an_action_in_another_spelling_than_listed_is_refused() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let players = [ann, bob];
    let id = app.start_game("bag-of-fate", &players, json!({})).await;
    let mut refused = 0;
    for _ in 0..40 {
        let record = app
            .get(&format!("/v1/games/{id}"), &players[0])
            .await
            .expect(200);
        let Some(seat) = record["to_act"][0].as_u64() else {
            break;
        };
        let player = &players[seat as usize];
        let state = app
            .get(&format!("/v1/games/{id}/state"), player)
            .await
            .expect(200);
        let version = state["version"].clone();
        let listed: Vec<Value> = state["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["action"].clone())
            .collect();
        for action in respellings(&listed, &version) {
            let problem = app
                .post(
                    &format!("/v1/games/{id}/actions"),
                    player,
                    &json!({"expected_version": version, "actions": [action]}),
                )
                .await
                .expect_problem(422, "illegal-action");
            assert!(
                problem["detail"].as_str().unwrap().contains("as listed"),
                "{action}: {problem}"
            );
            refused += 1;
        }
        let now = app
            .get(&format!("/v1/games/{id}"), player)
            .await
            .expect(200);
        assert_eq!(
            now["version"], version,
            "a refused spelling changed nothing"
        );
        app.post(
            &format!("/v1/games/{id}/actions"),
            player,
            &json!({"expected_version": version, "actions": [listed[0]]}),
        )
        .await
        .expect(200);
        if refused >= 3 {
            break;
        }
    }
    assert!(refused > 0, "some listed action could be spelled otherwise");
}
