//! Issue 19, "Limits and browsers": cursor pagination with a bounded page size on every list,
//! the same shape everywhere (`{<items>, next}`, `?cursor=&limit=`).

use serde_json::{Value, json};

use crate::system_tests::helpers::{Player, TestApp, spawn_app};

/// Walks a list `limit` at a time from its first page; returns the ids in order and the
/// number of pages. Bounded: a list that never ends fails the test.
async fn walk(
    app: &TestApp,
    who: &Player,
    path: &str,
    key: &str,
    limit: usize,
) -> (Vec<String>, usize) {
    let sep = if path.contains('?') { '&' } else { '?' };
    let mut ids = vec![];
    let mut cursor: Option<String> = None;
    for pages in 1..=50 {
        let url = match &cursor {
            Some(c) => format!("{path}{sep}limit={limit}&cursor={c}"),
            None => format!("{path}{sep}limit={limit}"),
        };
        let page = app.get(&url, who).await.expect(200);
        let items = page[key].as_array().expect("a list").clone();
        assert!(items.len() <= limit, "a page holds at most `limit`: {page}");
        ids.extend(
            items
                .iter()
                .map(|g| g["id"].as_str().expect("id").to_owned()),
        );
        match &page["next"] {
            Value::Null => return (ids, pages),
            Value::String(next) => {
                assert_eq!(items.len(), limit, "only a full page has a next page");
                cursor = Some(next.clone());
            }
            other => panic!("next is a string or null, not {other}"),
        }
    }
    panic!("{path} did not end within 50 pages");
}

fn once_each(ids: &[String]) -> bool {
    let mut sorted = ids.to_vec();
    sorted.sort();
    sorted.dedup();
    sorted.len() == ids.len()
}

async fn open_game(app: &TestApp, who: &Player, bots: i64) -> Value {
    app.post(
        "/v1/games",
        who,
        &json!({"ruleset": "bag-of-fate", "seats": 2, "bots": bots}),
    )
    .await
    .expect(201)
}

#[tokio::test]
async fn my_games_come_a_page_at_a_time_newest_first_each_once() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let mut created = vec![];
    for _ in 0..5 {
        created.push(
            open_game(&app, &ann, 0).await["id"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    // Bob's own game is not Ann's.
    open_game(&app, &bob, 0).await;
    let newest_first: Vec<String> = created.iter().rev().cloned().collect();

    let (ids, pages) = walk(&app, &ann, "/v1/me/games", "games", 2).await;
    assert_eq!(ids, newest_first);
    assert_eq!(pages, 3);
    // Exactly a page's worth: the page says there is no next, no empty page follows.
    let (ids, pages) = walk(&app, &ann, "/v1/me/games", "games", 5).await;
    assert_eq!((ids.len(), pages), (5, 1));
    // Without `limit`: the default page (50) holds them all.
    let all = app.get("/v1/me/games", &ann).await.expect(200);
    assert_eq!(all["games"].as_array().unwrap().len(), 5);
    assert_eq!(all["next"], Value::Null);

    // The order is by keys that do not change: a game that starts (and so changes) and a new
    // game made while a client walks the list neither move nor hide what is still to come.
    let first = app.get("/v1/me/games?limit=2", &ann).await.expect(200);
    let next = first["next"].as_str().unwrap().to_owned();
    app.post(&format!("/v1/games/{}/join", created[0]), &bob, &json!({}))
        .await
        .expect(200);
    let newer = open_game(&app, &ann, 0).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut seen: Vec<String> = first["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect();
    let mut cursor = next;
    for _ in 0..10 {
        let page = app
            .get(&format!("/v1/me/games?limit=2&cursor={cursor}"), &ann)
            .await
            .expect(200);
        seen.extend(
            page["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_str().unwrap().to_owned()),
        );
        match page["next"].as_str() {
            Some(n) => cursor = n.to_owned(),
            None => break,
        }
    }
    assert_eq!(seen, newest_first, "nothing lost, nothing repeated");
    assert!(!seen.contains(&newer));

    // A filter by status, with its own pages.
    let active = app
        .get("/v1/me/games?status=active", &ann)
        .await
        .expect(200);
    let active: Vec<&str> = active["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(active, [created[0].as_str()]);
    let (open, _) = walk(&app, &ann, "/v1/me/games?status=open,finished", "games", 2).await;
    assert_eq!(open.len(), 5);
    assert!(!open.contains(&created[0]));
    app.get("/v1/me/games?status=won", &ann)
        .await
        .expect_problem(400, "malformed-request");
}

#[tokio::test]
async fn my_turns_come_a_page_at_a_time_longest_wait_first() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    // Games against the bot start at once and wait on Ann alone.
    let mut waiting = vec![];
    for _ in 0..5 {
        let game = open_game(&app, &ann, 1).await;
        assert_eq!(game["status"], "active");
        if game["to_act"] == json!([0]) {
            waiting.push(game["id"].as_str().unwrap().to_owned());
        }
    }
    assert!(!waiting.is_empty());
    let (ids, pages) = walk(&app, &ann, "/v1/me/turns", "games", 2).await;
    assert_eq!(ids, waiting, "longest wait first, each once");
    assert_eq!(pages, waiting.len().div_ceil(2));
    assert!(once_each(&ids));
}

#[tokio::test]
async fn every_list_pages_the_same_way_and_refuses_what_it_did_not_give() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    for _ in 0..3 {
        open_game(&app, &ann, 0).await;
    }
    for i in 0..3 {
        app.post(
            "/v1/me/tokens",
            &ann,
            &json!({"name": format!("bot {i}"), "scopes": ["read"]}),
        )
        .await
        .expect(201);
    }
    // The open games (for Bob to join), and Ann's tokens: the same shape.
    let (open, pages) = walk(&app, &bob, "/v1/games", "games", 2).await;
    assert_eq!((open.len(), pages), (3, 2));
    assert!(once_each(&open));
    let (tokens, pages) = walk(&app, &ann, "/v1/me/tokens", "tokens", 2).await;
    assert_eq!((tokens.len(), pages), (3, 2));
    assert!(once_each(&tokens));

    for list in [
        "/v1/games",
        "/v1/me/games",
        "/v1/me/turns",
        "/v1/me/tokens",
        "/v1/me/webhooks",
    ] {
        for bad in ["nonsense", "12_notauuid", "_", "1764000000000000"] {
            app.get(&format!("{list}?cursor={bad}"), &ann)
                .await
                .expect_problem(400, "malformed-request");
        }
        for limit in ["0", "201", "-1", "many"] {
            app.get(&format!("{list}?limit={limit}"), &ann)
                .await
                .expect_problem(400, "malformed-request");
        }
        app.get(&format!("{list}?limit=200"), &ann)
            .await
            .expect(200);
        app.get(&format!("{list}?page=2"), &ann)
            .await
            .expect_problem(400, "malformed-request");
    }
}
