//! `GET /v1/rulesets/{id}`: a ruleset with the JSON Schemas of its options, actions and view.

use serde_json::Value;

use crate::system_tests::helpers::spawn_app;

#[tokio::test]
async fn a_ruleset_serves_the_schemas_of_its_content() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let ruleset = app.get("/v1/rulesets/wiz-war", &ann).await.expect(200);
    assert_eq!(ruleset["id"], "wiz-war");
    assert_eq!(ruleset["min_seats"], 2);
    assert_eq!(ruleset["max_seats"], 4);
    assert!(ruleset["options"].is_array());
    let schemas = &ruleset["schemas"];
    for part in ["options", "action", "view"] {
        assert!(
            schemas[part].is_object(),
            "no {part} schema: {}",
            schemas[part]
        );
    }
    // The schemas say what the game sends: a move and the cards by their keys.
    let action = schemas["action"].to_string();
    assert!(
        action.contains("\"move\"") && action.contains("\"fireball\""),
        "{action}"
    );
    // The same schemas are the OpenAPI document's components.
    let doc = turnpost::http::document();
    let components = &doc["components"]["schemas"];
    for name in [
        "WizWarOptions",
        "WizWarAction",
        "WizWarView",
        "WizWarCardId",
        "WizWarActionMove",
    ] {
        assert!(components[name].is_object(), "no component {name}");
    }
    assert_eq!(
        components["WizWarCardId"],
        schemas["action"]["$defs"]["CardId"]
    );

    // A live game's view and legal actions validate against the served schemas.
    let game = app
        .start_game("wiz-war", &[ann.clone(), bob.clone()], Value::Null)
        .await;
    let (seat, state) = crate::system_tests::games::acting(&app, game, &[ann, bob]).await;
    let validator = |part: &str| {
        jsonschema::draft202012::new(&schemas[part])
            .unwrap_or_else(|e| panic!("the {part} schema does not compile: {e}"))
    };
    let view = validator("view");
    assert!(view.is_valid(&state["view"]), "{}", state["view"]);
    let action = validator("action");
    let legal = state["legal_actions"].as_array().expect("legal actions");
    assert!(!legal.is_empty(), "seat {seat} has no legal action");
    for entry in legal {
        assert!(action.is_valid(&entry["action"]), "{}", entry["action"]);
    }
    assert!(!action.is_valid(&serde_json::json!({"move": "up"})));
}

#[tokio::test]
async fn an_unknown_ruleset_is_not_found() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    app.get("/v1/rulesets/chess", &ann)
        .await
        .expect_problem(404, "not-found");
}
