//! Issue 42: "Where the project's tables would be sharded by `game_id` when one primary is not
//! enough (Citus), … a test checks that every query on the submission path filters by
//! `game_id`."
//!
//! The statements a submission sends are recorded (diesel's instrumentation, for the task that
//! runs the submission only): with and without an `Idempotency-Key`, a game not yet cached and
//! then cached (`service::hot`). Every statement that reads or writes a table holding a
//! `game_id` column (or `games` itself) must filter on the game's key, with the game's id among
//! its parameters: a sharded database routes it to the one shard that holds the game. Tables
//! without a game (accounts, idempotency keys) are what Citus would keep as reference or
//! separately distributed tables; docs/OPERATIONS.md lists them.

use std::sync::{Arc, Mutex};

use diesel::connection::{Instrumentation, InstrumentationEvent, set_default_instrumentation};
use serde_json::{Value, json};
use turnpost::service::submit::{Idempotency, submit};

use crate::system_tests::ha_cluster::texts;
use crate::system_tests::helpers::spawn_app;

tokio::task_local! {
    /// The statements of the task that runs this (the submission under test).
    static RECORDING: Arc<Mutex<Vec<String>>>;
}

/// Records a statement's text and parameters for the task being recorded, if any.
fn recorder() -> Option<Box<dyn Instrumentation>> {
    Some(Box::new(|event: InstrumentationEvent<'_>| {
        if let InstrumentationEvent::StartQuery { query, .. } = event {
            let _ = RECORDING.try_with(|r| r.lock().unwrap().push(query.to_string()));
        }
    }))
}

/// The words of a statement, lower-case, without quotes: `"games"."id"` is `games . id`.
fn words(sql: &str) -> Vec<String> {
    let mut out = vec![];
    let mut word = String::new();
    for c in sql.chars() {
        if c.is_alphanumeric() || c == '_' || c == '$' {
            word.push(c.to_ascii_lowercase());
        } else {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            if !c.is_whitespace() && c != '"' {
                out.push(c.to_string());
            }
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The tables a statement reads or writes (after FROM, JOIN, INTO, UPDATE).
fn tables(words: &[String]) -> Vec<String> {
    words
        .windows(2)
        .filter(|w| matches!(w[0].as_str(), "from" | "join" | "into" | "update"))
        // Not a subquery's parenthesis.
        .filter(|w| w[1].starts_with(|c: char| c.is_ascii_alphabetic()))
        .map(|w| w[1].clone())
        .collect()
}

/// Whether a statement filters on the game's key: `game_id = $n` or `games.id = $n` (maybe
/// qualified), or passes the game to the turn-saving function as its first argument.
fn names_the_game(words: &[String]) -> bool {
    let by_key = words.windows(3).enumerate().any(|(i, w)| {
        let column = match w[0].as_str() {
            "game_id" => true,
            // `games.id`, or a bare `id` in a statement on `games` alone.
            "id" => {
                (i >= 2 && words[i - 1] == "." && words[i - 2] == "games")
                    || tables(words).iter().all(|t| t == "games")
            }
            _ => false,
        };
        column && w[1] == "=" && w[2].starts_with('$')
    });
    let saves_turn = words
        .windows(3)
        .any(|w| w[0] == "turnpost_save_turn" && w[1] == "(" && w[2] == "$1");
    by_key || saves_turn
}

#[tokio::test]
async fn ha_every_query_of_a_submission_names_its_game() {
    set_default_instrumentation(recorder).expect("install the recorder");
    let app = spawn_app().await;
    let players = [app.register("Ann").await, app.register("Bob").await];
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    // Services of its own over the same database: its connections are opened after the
    // recorder was installed, and nothing of it is cached yet.
    let mut settings = app.settings.clone();
    settings.migrate = false;
    let svc = turnpost::app::services(&settings, &app.database_url)
        .await
        .expect("services");
    let keyed: Vec<String> = texts(
        &app.database_url,
        "SELECT DISTINCT table_name::text AS v FROM information_schema.columns \
         WHERE table_schema = 'public' AND column_name = 'game_id' \
         UNION SELECT 'games'",
    )
    .await
    .expect("the tables keyed by game");
    assert!(keyed.len() >= 5, "{keyed:?}");

    let mut statements = vec![];
    for round in 0..4 {
        let state = app
            .get(&format!("/v1/games/{game}/state"), &players[0])
            .await
            .expect(200);
        let seat =
            usize::try_from(state["to_act"][0].as_i64().expect("a seat to act")).expect("seat");
        let mine = app
            .get(&format!("/v1/games/{game}/state"), &players[seat])
            .await
            .expect(200);
        let action: Value = mine["legal_actions"][0]["action"].clone();
        let version = mine["version"].as_i64().expect("version");
        let body = json!({"expected_version": version, "actions": [action.clone()]});
        // Rounds 2 and 3 go through the idempotent path (the lock and the stored answer).
        let idempotency = (round >= 2).then(|| {
            Idempotency::new(
                format!("key-{round}"),
                "POST",
                &format!("/v1/games/{game}/actions"),
                body.to_string().as_bytes(),
            )
        });
        let recorded = Arc::new(Mutex::new(vec![]));
        RECORDING
            .scope(
                Arc::clone(&recorded),
                submit(
                    &svc,
                    players[seat].id,
                    game,
                    Some(version),
                    &[action],
                    idempotency.as_ref(),
                ),
            )
            .await
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
        let recorded = recorded.lock().unwrap().clone();
        assert!(
            recorded.iter().any(|s| s.contains("turnpost_save_turn")),
            "round {round} saved no turn: {recorded:#?}"
        );
        statements.extend(recorded);
    }

    let game_text = game.to_string();
    let mut unkeyed_tables = std::collections::BTreeSet::new();
    for statement in &statements {
        let (sql, binds) = statement
            .split_once("-- binds:")
            .unwrap_or((statement.as_str(), ""));
        let words = words(sql);
        let touched = tables(&words);
        if touched.iter().any(|t| keyed.contains(t)) {
            assert!(
                names_the_game(&words) && binds.contains(&game_text),
                "a statement of the submission path on a table keyed by game does not filter \
                 on the game's key: {statement}"
            );
        } else {
            unkeyed_tables.extend(touched);
        }
    }
    // What the submission path reads and writes beside the game's own rows.
    eprintln!(
        "submission path: {} statements; tables without a game: {unkeyed_tables:?}",
        statements.len()
    );
}

#[test]
fn statements_are_read_as_words() {
    let w = words(r#"SELECT "games"."id" FROM "games" WHERE ("games"."id" = $1)"#);
    assert!(names_the_game(&w));
    assert_eq!(tables(&w), vec!["games"]);
    let w = words(r#"SELECT * FROM "seats" INNER JOIN "users" ON x WHERE "seats"."game_id" = $1"#);
    assert!(names_the_game(&w));
    assert_eq!(tables(&w), vec!["seats", "users"]);
    let w = words(r#"SELECT * FROM "game_events" WHERE "game_events"."seq" = $1"#);
    assert!(!names_the_game(&w));
    let w =
        words(r#"UPDATE "users" SET x = 1 WHERE "users"."id" = $1 AND y IN (SELECT 1 FROM games)"#);
    assert!(!names_the_game(&w), "an id of users is not the game's");
}
