//! Issue 19, item 8: the example bot (`examples/selfplay_bot.py`) plays a whole game against
//! itself through a client generated from `openapi/openapi.yaml`, with API tokens and the
//! account event stream, as examples/README.md tells a client author to run it.

use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;

use crate::system_tests::helpers::spawn_app;

const TOOLS: &str = "install the generator with `python3 -m pip install -r .ci/python-requirements.txt` \
     (`.ci/run` does)";

/// Runs a program to the end (at most `limit`), without blocking the test's runtime, which
/// serves the API the program talks to.
async fn run(cmd: &mut tokio::process::Command, limit: Duration) -> std::process::Output {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}; {TOOLS}"));
    tokio::time::timeout(limit, child.wait_with_output())
        .await
        .unwrap_or_else(|_| panic!("{cmd:?} did not finish within {limit:?}"))
        .expect("wait for the program")
}

#[tokio::test]
async fn the_example_bot_plays_a_whole_game_through_a_generated_client() {
    let app = spawn_app().await;
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().expect("temp dir");
    let client = dir.path().join("client");

    // The command of examples/README.md, with its configuration file.
    let generated = run(
        tokio::process::Command::new("python3").args([
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            &format!("{root}/openapi/openapi.yaml"),
            "--output-path",
            &client.to_string_lossy(),
            "--config",
            &format!("{root}/examples/client-config.yaml"),
        ]),
        Duration::from_secs(120),
    )
    .await;
    assert!(
        generated.status.success(),
        "the client was not generated ({TOOLS}):\n{}\n{}",
        String::from_utf8_lossy(&generated.stdout),
        String::from_utf8_lossy(&generated.stderr)
    );

    // Two addresses registered for the bot; it gets the tokens of their confirmation links (as
    // its operator would copy them from the mail) and confirms them itself.
    let mut links = vec![];
    for i in 0..2 {
        let email = format!("bot{i}-{}@example.test", uuid::Uuid::new_v4().simple());
        app.request(
            reqwest::Method::POST,
            "/v1/auth/register",
            None,
            Some(
                &serde_json::json!({"email": email, "password": "bot password for tests",
                                    "display_name": format!("Bot{i}")}),
            ),
            &[],
        )
        .await
        .expect(202);
        links.push(
            app.confirmation_token(&email)
                .await
                .expect("a confirmation link"),
        );
    }
    let played = run(
        tokio::process::Command::new("python3")
            .args([
                &format!("{root}/examples/selfplay_bot.py"),
                "--base-url",
                &app.base,
                "--ruleset",
                "bag-of-fate",
                "--confirm-token",
                &links[0],
                "--confirm-token",
                &links[1],
                "--seed",
                "7",
                "--timeout",
                "240",
            ])
            .env("PYTHONPATH", &client),
        Duration::from_secs(300),
    )
    .await;
    let stdout = String::from_utf8_lossy(&played.stdout);
    let stderr = String::from_utf8_lossy(&played.stderr);
    assert!(
        played.status.success(),
        "the bot did not finish its game:\n{stdout}\n{stderr}"
    );
    let summary: Value = stdout
        .lines()
        .last()
        .and_then(|line| serde_json::from_str(line).ok())
        .unwrap_or_else(|| panic!("no JSON summary line:\n{stdout}\n{stderr}"));
    assert_eq!(summary["status"], "finished", "{summary}");
    let game = summary["game"].as_str().expect("game id");

    // Both seats played, through their API tokens (each one used), and every seat action in
    // the log is one the bot sent or a lone choice the service played (kind `forced`): the
    // built-in bot played nothing for them.
    let sent: Vec<i64> = summary["actions"]
        .as_array()
        .expect("actions per seat")
        .iter()
        .map(|n| n.as_i64().expect("a count"))
        .collect();
    assert!(sent.iter().all(|&n| n > 0), "{summary}");
    let logged = app
        .count_where(
            "game_events",
            &format!("game_id = '{game}' AND actor = 'seat' AND kind = 'action'"),
        )
        .await;
    assert_eq!(logged, sent.iter().sum::<i64>(), "{summary}");
    assert_eq!(
        app.count_where(
            "api_tokens",
            "last_used_at IS NOT NULL AND revoked_at IS NULL \
             AND scopes @> ARRAY['play', 'read'] AND cardinality(scopes) = 2"
        )
        .await,
        2
    );
    assert_eq!(
        app.count_where("games", &format!("id = '{game}' AND status = 'finished'"))
            .await,
        1
    );
}
