//! The OpenAPI document is generated from the code and checked in; this fails on drift.

use crate::helpers::spawn_app;

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
    let generated = serde_json::to_value(turnpost::http::openapi()).unwrap();
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
/// every operation a unique `operationId`, and every `$ref` names a schema that exists.
#[test]
fn the_document_is_valid_for_generators() {
    let doc = serde_json::to_value(turnpost::http::openapi()).unwrap();
    let mut ids = std::collections::BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"].as_str().unwrap_or_default();
            assert!(!id.is_empty(), "{method} {path} has no operationId");
            assert!(ids.insert(id.to_owned()), "operationId {id} is used twice");
            for (status, response) in op["responses"].as_object().unwrap() {
                let d = response["description"].as_str().unwrap_or_default();
                assert!(
                    !d.trim().is_empty(),
                    "{method} {path} {status}: a response needs a description"
                );
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
