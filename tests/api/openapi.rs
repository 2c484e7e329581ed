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
