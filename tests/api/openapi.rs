//! The OpenAPI document is generated from the code and checked in; this fails on drift.

use crate::system_tests::helpers::spawn_app;

#[test]
fn checked_in_openapi_matches_the_code() {
    let generated = turnpost::http::openapi_yaml().unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.yaml");
    let checked_in = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        generated == checked_in,
        "openapi/openapi.yaml is out of date: run `cargo run -- openapi > openapi/openapi.yaml`"
    );
}

#[tokio::test]
async fn served_document_and_docs_ui() {
    let app = spawn_app().await;
    let served: serde_json::Value = app
        .client
        .get(format!("{}/openapi.json", app.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let generated = turnpost::http::document();
    assert_eq!(served, generated);
    for path in [
        "/v1/games/{id}/actions",
        "/v1/auth/register",
        "/v1/me/turns",
    ] {
        assert!(served["paths"].get(path).is_some(), "{path} missing");
    }
    let ui = app
        .client
        .get(format!("{}/docs/", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(ui.status(), 200);
    assert!(ui.text().await.unwrap().contains("swagger"));
    let health = app
        .client
        .get(format!("{}/healthz", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);
    let ready: serde_json::Value = app
        .client
        .get(format!("{}/readyz", app.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(ready["database"], true);
}

/// What a generator needs of the document, checked on the generated JSON: every response has
/// a description (OpenAPI 3.1 requires one; the health and several game responses had none),
/// every operation a unique camelCase `operationId`, and every `$ref` names a schema that
/// exists. And what a client needs: every error response is problem+json and names the
/// problem types it carries, and every route taking a bearer token documents 401.
#[test]
fn the_document_is_valid_for_generators() {
    let doc = turnpost::http::document();
    let slugs: Vec<&str> = turnpost::http::problem::PROBLEM_TYPES
        .iter()
        .map(|(slug, _, _)| *slug)
        .collect();
    let mut ids = std::collections::BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"].as_str().unwrap_or_default();
            assert!(
                id.starts_with(|c: char| c.is_ascii_lowercase())
                    && id.chars().all(|c| c.is_ascii_alphanumeric()),
                "{method} {path}: operationId {id:?} is not camelCase"
            );
            assert!(ids.insert(id.to_owned()), "operationId {id} is used twice");
            let responses = op["responses"].as_object().unwrap();
            for (status, response) in responses {
                let d = response["description"].as_str().unwrap_or_default();
                assert!(
                    !d.trim().is_empty(),
                    "{method} {path} {status}: a response needs a description"
                );
                if status.starts_with(['4', '5']) && path.starts_with("/v1/") {
                    assert!(
                        response["content"]
                            .get("application/problem+json")
                            .is_some(),
                        "{method} {path} {status}: errors are problem+json"
                    );
                    assert!(
                        slugs.iter().any(|s| d.contains(&format!("`{s}`"))),
                        "{method} {path} {status}: the description names no problem type: {d}"
                    );
                }
            }
            if op.get("security").is_some() {
                assert!(responses.contains_key("401"), "{method} {path}: no 401");
            }
        }
    }
    fn refs(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => {
                if let Some(r) = m.get("$ref").and_then(|r| r.as_str()) {
                    out.push(r.to_owned());
                }
                m.values().for_each(|v| refs(v, out));
            }
            serde_json::Value::Array(a) => a.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }
    let mut all = vec![];
    refs(&doc, &mut all);
    for r in all {
        let name = r
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("unexpected $ref {r}"));
        assert!(
            doc["components"]["schemas"].get(name).is_some(),
            "$ref {r} names no schema"
        );
    }
}

/// Every problem type the code can answer is in the catalog the document publishes: the slug
/// of every `ApiError::new(status, "slug", …)` in the sources.
#[test]
fn every_problem_type_is_in_the_catalog() {
    let catalog: Vec<&str> = turnpost::http::problem::PROBLEM_TYPES
        .iter()
        .map(|(slug, _, _)| *slug)
        .collect();
    let mut found = 0;
    let mut dirs = vec![std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src"
    ))];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap_or_default();
            for call in source.split("ApiError::new(").skip(1) {
                // The status, then the slug: the first string literal of the call.
                let slug = call.split('"').nth(1).unwrap_or_default();
                assert!(
                    catalog.contains(&slug),
                    "{}: problem type {slug:?} is not in PROBLEM_TYPES",
                    path.display()
                );
                found += 1;
            }
        }
    }
    assert!(found > 10, "found only {found} ApiError::new calls");
}

const VALIDATORS: &str = "install the validators with `python3 -m pip install -r .ci/python-requirements.txt` \
     (`.ci/run` does)";

fn run(program: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}; {VALIDATORS}"))
}

/// openapi-spec-validator accepts the checked-in document, with nothing on stderr.
#[test]
fn openapi_spec_validator_accepts_the_document() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.yaml");
    let out = run("python3", &["-m", "openapi_spec_validator", path]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("No module named openapi_spec_validator"),
        "openapi-spec-validator is not installed: {VALIDATORS}"
    );
    assert!(
        out.status.success() && stdout.trim_end().ends_with(": OK") && stderr.trim().is_empty(),
        "openapi-spec-validator refuses openapi/openapi.yaml:\n{stdout}\n{stderr}"
    );
}

/// openapi-python-client generates a client from the checked-in document with no error and
/// no warning (a warning means an endpoint or a type left out), and the client imports.
#[test]
fn openapi_python_client_generates_a_whole_client() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.yaml");
    let Ok(dir) = tempfile::tempdir() else {
        panic!("no temporary directory")
    };
    // No post hooks: formatting the client with ruff is no part of the check. The generator
    // knows no NDJSON (`exportMyGames`); told to take it as text, the client hands back the
    // body, one document per line, as a client author would configure it.
    let config = dir.path().join("config.yaml");
    assert!(
        std::fs::write(
            &config,
            "post_hooks: []\ncontent_type_overrides:\n  application/x-ndjson: text/plain\n"
        )
        .is_ok()
    );
    let (config, client) = (
        config.to_string_lossy(),
        dir.path().join("client").to_string_lossy().into_owned(),
    );
    let out = run(
        "python3",
        &[
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            path,
            "--output-path",
            &client,
            "--config",
            &config,
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("No module named openapi_python_client"),
        "openapi-python-client is not installed: {VALIDATORS}"
    );
    let said = format!("{stdout}\n{stderr}");
    assert!(
        out.status.success() && !said.to_lowercase().contains("warning") && !said.contains("rror"),
        "openapi-python-client did not take openapi/openapi.yaml cleanly:\n{said}"
    );
    let import = run(
        "python3",
        &[
            "-c",
            "import sys; sys.path.insert(0, sys.argv[1]); \
             from turnpost_api_client import AuthenticatedClient; \
             from turnpost_api_client.api.games import list_games, submit_actions, join_game; \
             from turnpost_api_client.api.mail import receive_inbound_mail; \
             from turnpost_api_client.models import Problem",
            &client,
        ],
    );
    assert!(
        import.status.success(),
        "the generated client does not import:\n{}",
        String::from_utf8_lossy(&import.stderr)
    );
}

/// `createGame`: what the document lets through (`seats` within each ruleset's range with its
/// default options, `bots` below `seats`; JSON Schema's `if`/`then` on `ruleset`) is exactly
/// what the server creates. Found by schemathesis: `seats` was any integer in the document.
/// Each game the bots fill starts at once, the solo one (one seat) too.
#[tokio::test]
async fn create_game_seat_bounds_in_the_document_are_the_servers() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let doc = turnpost::http::document();
    let schema = serde_json::json!({
        "$ref": "#/components/schemas/CreateGame",
        "components": doc["components"],
    });
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let ids: Vec<String> =
        doc["components"]["schemas"]["CreateGame"]["properties"]["ruleset"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect();
    assert!(ids.len() >= 5, "{ids:?}");
    let mut created = 0;
    for id in &ids {
        for seats in 0..=7_i64 {
            let mut bots = vec![0, seats - 1, seats];
            bots.retain(|b| *b >= 0);
            bots.dedup();
            for b in bots {
                let body = serde_json::json!({"ruleset": id, "seats": seats, "bots": b});
                let documented = validator.is_valid(&body);
                let reply = app.post("/v1/games", &ann, &body).await;
                let status = reply.status.as_u16();
                assert!(matches!(status, 201 | 422), "{body}: {}", reply.text);
                assert_eq!(
                    documented,
                    status == 201,
                    "{body}: the document says {documented}, the server {status}: {}",
                    reply.text
                );
                created += usize::from(status == 201);
                // A game whose creator's seat fills it (a solo game) starts at once. Found
                // by this test: its creation was a 409, the stored version a step behind.
                if status == 201 && seats == b + 1 {
                    assert_eq!(reply.body["status"], "active", "{body}: {}", reply.text);
                }
            }
        }
    }
    assert!(created > 20, "{created}");
}

/// `createGame`'s `options`: an object or null, and for each ruleset its `<Ruleset>Options`,
/// with the rulesets' own bounds. What that schema refuses the server refuses, and what it
/// takes the server creates, but for the rules no schema can state (schemathesis.toml): the
/// last case. Found by schemathesis: `options` was any JSON value (`0.0`) in the document; by
/// this test: the server took `[]` as options, and created open Wiz-War games with two schools
/// that could never start.
#[tokio::test]
async fn create_game_options_in_the_document_are_the_servers() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let doc = turnpost::http::document();
    let validator = |component: &str| {
        let schema = serde_json::json!({
            "$ref": format!("#/components/schemas/{component}"),
            "components": doc["components"],
        });
        jsonschema::draft202012::new(&schema).unwrap()
    };
    let create = validator("CreateGame");
    let documented = |ruleset: &str, body: &serde_json::Value| {
        let options = &body["options"];
        create.is_valid(body)
            && (options.is_null()
                || validator(&format!(
                    "{}Options",
                    turnpost::rules::schema::component_prefix(ruleset)
                ))
                .is_valid(options))
    };
    let j = |v: serde_json::Value| v;
    let cases = [
        ("bag-of-fate", 2, j(serde_json::Value::Null), true),
        ("bag-of-fate", 2, j(serde_json::json!({})), true),
        ("bag-of-fate", 2, j(serde_json::json!(0.0)), false),
        ("bag-of-fate", 2, j(serde_json::json!([])), false),
        (
            "bag-of-fate",
            2,
            j(serde_json::json!({"schools": []})),
            false,
        ),
        (
            "wiz-war",
            2,
            j(
                serde_json::json!({"schools": ["conjuring", "mutation", "thaumaturgy"], "round_limit": 1000}),
            ),
            true,
        ),
        (
            "wiz-war",
            2,
            j(serde_json::json!({"schools": ["alchemy", "mutation"]})),
            false,
        ),
        (
            "wiz-war",
            2,
            j(serde_json::json!({"schools": ["alchemy", "alchemy", "mutation"]})),
            false,
        ),
        (
            "wiz-war",
            2,
            j(serde_json::json!({"schools": ["cantrip", "alchemy", "mutation"]})),
            false,
        ),
        (
            "wiz-war",
            2,
            j(serde_json::json!({"round_limit": 0})),
            false,
        ),
        (
            "wiz-war",
            2,
            j(serde_json::json!({"round_limit": 1001})),
            false,
        ),
        (
            "garden-gnomes",
            2,
            j(serde_json::json!({"clans_per_player": 3, "extra_objectives": 3})),
            true,
        ),
        (
            "garden-gnomes",
            2,
            j(serde_json::json!({"short_game": true})),
            true,
        ),
        (
            "garden-gnomes",
            2,
            j(serde_json::json!({"clans_per_player": 4})),
            false,
        ),
        (
            "garden-gnomes",
            2,
            j(serde_json::json!({"extra_objectives": 6})),
            false,
        ),
        (
            "garden-gnomes",
            2,
            j(serde_json::json!({"short_game": true, "extra_objectives": 1})),
            false,
        ),
        (
            "garden-gnomes",
            2,
            j(serde_json::json!({"round_limit": 0})),
            false,
        ),
        (
            "monsters-and-magic",
            2,
            j(serde_json::json!({"hand_size": 10, "permanent_cards": 0})),
            true,
        ),
        (
            "monsters-and-magic",
            2,
            j(serde_json::json!({"hand_size": 0})),
            false,
        ),
        (
            "monsters-and-magic",
            2,
            j(serde_json::json!({"hand_size": 11})),
            false,
        ),
        (
            "monsters-and-magic",
            2,
            j(serde_json::json!({"permanent_cards": 11})),
            false,
        ),
        (
            "gnomes-and-wizards",
            2,
            j(serde_json::json!({"tribes": ["imblasham", "betrumour"]})),
            true,
        ),
        (
            "gnomes-and-wizards",
            2,
            j(serde_json::json!({"tribes": ["imblasham", "imblasham"]})),
            false,
        ),
        (
            "gnomes-and-wizards",
            2,
            j(
                serde_json::json!({"tribes": ["imblasham", "betrumour", "turquefoss", "achrinnolder", "imblasham"]}),
            ),
            false,
        ),
    ];
    for (ruleset, seats, options, accepted) in cases {
        let body = serde_json::json!({"ruleset": ruleset, "seats": seats, "options": options});
        assert_eq!(
            documented(ruleset, &body),
            accepted,
            "the document on {body}"
        );
        let reply = app.post("/v1/games", &ann, &body).await;
        let status = reply.status.as_u16();
        assert_eq!(
            status,
            if accepted { 201 } else { 422 },
            "{body}: {}",
            reply.text
        );
    }
    // What no schema can state: one tribe per seat (the seat count is another field).
    let body = serde_json::json!({"ruleset": "gnomes-and-wizards", "seats": 3,
        "options": {"tribes": ["imblasham", "betrumour"]}});
    assert!(documented("gnomes-and-wizards", &body));
    let reply = app.post("/v1/games", &ann, &body).await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.text);
}

/// Bodies on the edge of what `setMailPreferences`, `createApiToken`, `createGame` (its clock)
/// and `register` take: the
/// document accepts each exactly when the server does. Found by schemathesis: `{}` and
/// `{"mail": null}` (nothing to change), a token name of spaces, a token with no scope, a clock
/// of one second a decision, an invitation to seat -1, and an empty display name were valid
/// in the document and 422 from the server.
#[tokio::test]
async fn edge_bodies_the_document_accepts_are_the_ones_the_server_takes() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let doc = turnpost::http::document();
    let valid = |component: &str, body: &serde_json::Value| {
        let schema = serde_json::json!({
            "$ref": format!("#/components/schemas/{component}"),
            "components": doc["components"],
        });
        jsonschema::draft202012::new(&schema)
            .unwrap()
            .is_valid(body)
    };
    let j = |v: serde_json::Value| v;
    let cases = [
        (
            "CreateApiToken",
            "POST",
            "/v1/me/tokens",
            j(serde_json::json!({"name": "no scope", "scopes": []})),
        ),
        (
            "CreateGame",
            "POST",
            "/v1/games",
            j(
                serde_json::json!({"ruleset": "bag-of-fate", "seats": 2, "clock": {"per_decision_secs": 3599}}),
            ),
        ),
        (
            "CreateGame",
            "POST",
            "/v1/games",
            j(
                serde_json::json!({"ruleset": "bag-of-fate", "seats": 2, "clock": {"per_decision_secs": 3600, "reminders_secs": [59]}}),
            ),
        ),
        (
            "CreateGame",
            "POST",
            "/v1/games",
            j(
                serde_json::json!({"ruleset": "bag-of-fate", "seats": 2, "clock": {"per_decision_secs": 3600, "absent_after": 0}}),
            ),
        ),
        (
            "CreateGame",
            "POST",
            "/v1/games",
            j(
                serde_json::json!({"ruleset": "bag-of-fate", "seats": 2, "clock": {"per_decision_secs": 1209600, "reminders_secs": [60, 6393600], "absent_after": 10, "bank": {"initial_secs": 0, "credit_secs": 0, "cap_secs": 5184000}}}),
            ),
        ),
        (
            "SetPreferences",
            "PUT",
            "/v1/me/preferences",
            j(serde_json::json!({})),
        ),
        (
            "SetPreferences",
            "PUT",
            "/v1/me/preferences",
            j(serde_json::json!({"mail": null})),
        ),
        (
            "SetPreferences",
            "PUT",
            "/v1/me/preferences",
            j(serde_json::json!({"mail": null, "pictures": null})),
        ),
        (
            "SetPreferences",
            "PUT",
            "/v1/me/preferences",
            j(serde_json::json!({"pictures": true})),
        ),
        (
            "SetPreferences",
            "PUT",
            "/v1/me/preferences",
            j(serde_json::json!({"mail": "turns", "pictures": null})),
        ),
        (
            "CreateApiToken",
            "POST",
            "/v1/me/tokens",
            j(serde_json::json!({"name": "   ", "scopes": ["read"]})),
        ),
        (
            "CreateApiToken",
            "POST",
            "/v1/me/tokens",
            j(serde_json::json!({"name": "a\u{7}", "scopes": ["read"]})),
        ),
        (
            "CreateApiToken",
            "POST",
            "/v1/me/tokens",
            j(serde_json::json!({"name": "x".repeat(101), "scopes": ["read"]})),
        ),
        (
            "CreateApiToken",
            "POST",
            "/v1/me/tokens",
            j(serde_json::json!({"name": "x".repeat(100), "scopes": ["read"]})),
        ),
        (
            "CreateApiToken",
            "POST",
            "/v1/me/tokens",
            j(serde_json::json!({"name": " my bot ", "scopes": ["read"]})),
        ),
        (
            "RegisterRequest",
            "POST",
            "/v1/auth/register",
            j(
                serde_json::json!({"email": "e1@example.test", "password": "correct horse battery", "display_name": ""}),
            ),
        ),
        (
            "RegisterRequest",
            "POST",
            "/v1/auth/register",
            j(
                serde_json::json!({"email": "e2@example.test", "password": "correct horse battery", "display_name": "\u{3000}"}),
            ),
        ),
        (
            "RegisterRequest",
            "POST",
            "/v1/auth/register",
            j(
                serde_json::json!({"email": "e3@example.test", "password": "correct horse battery", "display_name": "x".repeat(65)}),
            ),
        ),
        (
            "RegisterRequest",
            "POST",
            "/v1/auth/register",
            j(
                serde_json::json!({"email": "e4@example.test", "password": "correct horse battery", "display_name": "Zoë"}),
            ),
        ),
    ];
    // Seats below 0 in an open game of Ann's.
    let game = app
        .post(
            "/v1/games",
            &ann,
            &serde_json::json!({"ruleset": "bag-of-fate", "seats": 2}),
        )
        .await
        .expect(201)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let invite = format!("/v1/games/{game}/invitations");
    let cases = cases.into_iter().chain([
        (
            "Invite",
            "POST",
            invite.as_str(),
            j(serde_json::json!({"email": "cara@example.test", "seat": -1})),
        ),
        (
            "Invite",
            "POST",
            invite.as_str(),
            j(serde_json::json!({"email": "cara@example.test", "seat": 1})),
        ),
    ]);
    for (component, method, path, body) in cases {
        let documented = valid(component, &body);
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let reply = app
            .request(method, path, Some(&ann.token), Some(&body), &[])
            .await;
        let status = reply.status.as_u16();
        assert!(
            matches!(status, 200 | 201 | 202 | 422),
            "{body}: {}",
            reply.text
        );
        assert_eq!(
            documented,
            status != 422,
            "{component} {body}: the document says {documented}, the server {status}: {}",
            reply.text
        );
    }
}
