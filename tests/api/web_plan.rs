//! Issue 36, item 5: a turn planned on the game page, step by step with the board after each
//! (nothing written), undone, then confirmed as one submission, in a real browser (Chromium over
//! WebDriver); the other player's open page follows in one update.

use std::time::Duration;

use serde_json::{Value, json};
use uuid::Uuid;

use crate::system_tests::browser::Driver;
use crate::system_tests::helpers::{Player, TestApp};

async fn record(app: &TestApp, game: Uuid, who: &Player) -> Value {
    app.get(&format!("/v1/games/{game}"), who).await.expect(200)
}

/// A session cookie for `who`, as the sign-in page would set it (the mail link signs in
/// elsewhere: web.rs).
async fn sign_in(
    app: &TestApp,
    b: &crate::system_tests::browser::Browser,
    who: &Player,
    game: Uuid,
) {
    b.goto(&format!("{}/signin?next=/games/{game}", app.base))
        .await;
    let email = b.wait_for("#email").await;
    b.type_into(&email, &who.email).await;
    let password = b.wait_for("#password").await;
    b.type_into(&password, "correct horse battery").await;
    let submit = b.wait_for("form[action='/signin'] button").await;
    b.click(&submit).await;
    b.wait_for("#game").await;
}

#[tokio::test]
async fn a_turn_is_planned_undone_in_part_and_confirmed_as_one_submission() {
    let app = crate::system_tests::helpers::spawn_app().await;
    let players = vec![app.register("ann").await, app.register("bob").await];
    let game = app.start_game("wiz-war", &players, json!({})).await;
    let r = record(&app, game, &players[0]).await;
    let seat = r["to_act"][0].as_u64().expect("someone acts") as usize;
    let (me, other) = (&players[seat], &players[1 - seat]);
    let version = r["version"].as_i64().unwrap();

    let driver = Driver::start().await;
    let watcher = driver.browser().await;
    sign_in(&app, &watcher, other, game).await;
    // The other player's page: every version it shows, in order.
    watcher
        .script(
            "window.__versions = []; setInterval(function () { var g = \
             document.getElementById('game'); var v = g && g.getAttribute('data-version'); \
             var seen = window.__versions; if (seen[seen.length - 1] !== v) { seen.push(v); } \
             }, 10); return 1",
        )
        .await;

    let b = driver.browser().await;
    sign_in(&app, &b, me, game).await;
    let start = b.wait_for("a.plan-start").await;
    b.click(&start).await;
    b.wait_for(".plan").await;
    // Three steps, each chosen from the page; after each the page shows the plan so far.
    let mut planned = 0;
    for _ in 0..12 {
        if planned == 3 {
            break;
        }
        let buttons = b
            .find_all(".choices form[method='get'] button.choice")
            .await;
        if buttons.is_empty() {
            break;
        }
        // The first choice that is not an ending (a move, a card) keeps the turn going.
        let mut chosen = buttons[0].clone();
        for button in &buttons {
            let html = b.outer_html(button).await;
            if !html.contains("end") {
                chosen = button.clone();
                break;
            }
        }
        b.click(&chosen).await;
        planned += 1;
        for _ in 0..200 {
            if b.find_all(".plan-steps li").await.len() == planned {
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert_eq!(b.find_all(".plan-steps li").await.len(), planned);
        if b.find(".plan .notice").await.is_some() {
            break; // the plan stops here (a draw, another's decision)
        }
    }
    assert!(planned >= 2, "a plan of several steps ({planned})");
    // Nothing is written while planning.
    assert_eq!(
        record(&app, game, me).await["version"].as_i64().unwrap(),
        version
    );
    // The page with its plan, to be looked at (target/screenshots/web-plan.png).
    let shots = concat!(env!("CARGO_MANIFEST_DIR"), "/target/screenshots");
    let _ = std::fs::create_dir_all(shots);
    let _ = std::fs::write(format!("{shots}/web-plan.png"), b.screenshot().await);
    let undo = b.wait_for("a.undo").await;
    b.click(&undo).await;
    for _ in 0..200 {
        if b.find_all(".plan-steps li").await.len() == planned - 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let steps = b.find_all(".plan-steps li").await;
    assert_eq!(steps.len(), planned - 1, "one step undone");
    let confirm = b.wait_for("button.confirm").await;
    b.click(&confirm).await;
    // One submission: the version moves once, and every step is in the log at that commit.
    let mut after = version;
    for _ in 0..400 {
        after = record(&app, game, me).await["version"].as_i64().unwrap();
        if after > version {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(after > version, "the plan was confirmed");
    let log = app
        .get(
            &format!("/v1/games/{game}/events?after={version}&limit=100"),
            me,
        )
        .await
        .expect(200);
    let entries = log["entries"].as_array().unwrap();
    let mine: Vec<&Value> = entries
        .iter()
        .filter(|e| e["actor"]["seat"] == json!(seat) && e["kind"] == "action")
        .collect();
    assert_eq!(mine.len(), planned - 1, "{log}");
    let at: Vec<&Value> = entries.iter().map(|e| &e["at"]).collect();
    assert!(
        at.windows(2).all(|w| w[0] == w[1]),
        "the steps are one submission (one commit time): {at:?}"
    );
    // The other page went from the old version to the new one in one update.
    let new = after.to_string();
    for _ in 0..400 {
        let seen = watcher.script("return window.__versions").await;
        if seen
            .as_array()
            .is_some_and(|v| v.last() == Some(&json!(new)))
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let seen = watcher.script("return window.__versions").await;
    assert_eq!(
        seen,
        json!([version.to_string(), new]),
        "the other page updated once"
    );
    b.close().await;
    watcher.close().await;
}
