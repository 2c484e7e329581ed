//! Issue 19, item 5: webhooks. "A webhook endpoint on loopback receives each event once with a
//! valid signature, and receives it after being down for a while."
//!
//! The receiver is a tiny HTTP server on 127.0.0.1 in the test; the server under test is told
//! that loopback is allowed (`webhooks.allow_private`), and retries fast.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hmac::{Hmac, KeyInit, Mac};
use reqwest::Method;
use serde_json::{Value, json};
use sha2::Sha256;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::system_tests::games::acting;
use crate::system_tests::helpers::{Player, TestApp, spawn_app, spawn_app_with};

/// One request the receiver got, and the status it answered.
#[derive(Clone, Debug)]
struct Received {
    headers: HashMap<String, String>,
    body: Vec<u8>,
    answered: u16,
}

/// A receiver on a loopback port: it answers 503 to its first `fail_first` requests, then 200,
/// and keeps every request.
struct Receiver {
    got: Arc<Mutex<Vec<Received>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Receiver {
    async fn start(port: u16, fail_first: usize) -> Receiver {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .await
            .expect("bind the receiver's port again");
        let got: Arc<Mutex<Vec<Received>>> = Arc::default();
        let kept = got.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((mut socket, _)) = listener.accept().await else {
                    return;
                };
                let Some((headers, body)) = read_request(&mut socket).await else {
                    continue;
                };
                let answered = {
                    let mut got = kept.lock().unwrap();
                    let answered = if got.len() < fail_first { 503 } else { 200 };
                    got.push(Received {
                        headers,
                        body,
                        answered,
                    });
                    answered
                };
                let reason = if answered == 200 {
                    "OK"
                } else {
                    "Service Unavailable"
                };
                let _ = socket
                    .write_all(
                        format!(
                            "HTTP/1.1 {answered} {reason}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                        )
                        .as_bytes(),
                    )
                    .await;
                let _ = socket.shutdown().await;
            }
        });
        Receiver { got, task }
    }

    fn received(&self) -> Vec<Received> {
        self.got.lock().unwrap().clone()
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Reads one HTTP/1.1 request (head and a `content-length` body, 1 MB at most).
async fn read_request(
    socket: &mut tokio::net::TcpStream,
) -> Option<(HashMap<String, String>, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        if buf.len() > 1 << 20 {
            return None;
        }
        let n = tokio::time::timeout(Duration::from_secs(5), socket.read(&mut chunk))
            .await
            .ok()?
            .ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let mut headers = HashMap::new();
    let mut lines = head.split("\r\n");
    let request_line = lines.next()?.to_owned();
    headers.insert(":request".to_owned(), request_line);
    for line in lines {
        if let Some((k, v)) = line.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_owned());
        }
    }
    let length: usize = headers.get("content-length")?.parse().ok()?;
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let n = tokio::time::timeout(Duration::from_secs(5), socket.read(&mut chunk))
            .await
            .ok()?
            .ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    body.truncate(length);
    Some((headers, body))
}

/// A loopback port nobody listens on (bound, then let go).
async fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    listener.local_addr().unwrap().port()
}

/// The receiver's check of `Turnpost-Signature: t=<unix>,v1=<hex>`, written here from the
/// documented recipe (not with the server's code): HMAC-SHA256 under the secret of
/// "<t>.<body>", and a `t` within five minutes.
fn signature_is_valid(secret: &str, header: &str, body: &[u8]) -> bool {
    let mut t = None;
    let mut v1 = None;
    for part in header.split(',') {
        match part.split_once('=') {
            Some(("t", v)) => t = Some(v.to_owned()),
            Some(("v1", v)) => v1 = hex::decode(v).ok(),
            _ => {}
        }
    }
    let (Some(t), Some(v1)) = (t, v1) else {
        return false;
    };
    let Ok(at) = t.parse::<i64>() else {
        return false;
    };
    if (chrono::Utc::now().timestamp() - at).abs() > 300 {
        return false;
    }
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(t.as_bytes());
    mac.update(b".");
    mac.update(body);
    mac.verify_slice(&v1).is_ok()
}

/// `owner`'s account, acting through the API token `secret`.
fn as_token(owner: &Player, secret: &str) -> Player {
    Player {
        token: secret.to_owned(),
        ..owner.clone()
    }
}

async fn delete(app: &TestApp, who: &Player, hook: &str) -> crate::system_tests::helpers::Reply {
    app.request(
        Method::DELETE,
        &format!("/v1/me/webhooks/{hook}"),
        Some(&who.token),
        None,
        &[],
    )
    .await
}

async fn deliveries(app: &TestApp, who: &Player, hook: &str) -> Vec<Value> {
    app.get(&format!("/v1/me/webhooks/{hook}/deliveries"), who)
        .await
        .expect(200)["deliveries"]
        .as_array()
        .unwrap()
        .clone()
}

fn fast_hooks(s: &mut turnpost::config::Settings) {
    s.webhooks.allow_private = true;
    s.webhooks.retry_base_ms = 150;
    s.webhooks.retry_max_secs = 1;
    s.webhooks.poll_ms = 50;
    s.webhooks.timeout_secs = 5;
    // Enough attempts that nothing is given up while the receiver is down in these tests.
    s.webhooks.max_attempts = 40;
}

#[tokio::test]
async fn a_loopback_hook_receives_each_event_once_signed_even_after_being_down() {
    let app = spawn_app_with(fast_hooks).await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;

    // Ann's bot registers the hook with its own token (scope `account` manages hooks).
    let token = app
        .post(
            "/v1/me/tokens",
            &ann,
            &json!({"name": "bot", "scopes": ["read", "play", "account"]}),
        )
        .await
        .expect(201);
    let bot = as_token(&ann, token["secret"].as_str().unwrap());
    let port = free_port().await;
    let made = app
        .post(
            "/v1/me/webhooks",
            &bot,
            &json!({"url": format!("http://127.0.0.1:{port}/turnpost?bot=1")}),
        )
        .await
        .expect(201);
    let secret = made["secret"].as_str().unwrap().to_owned();
    let hook = made["id"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("whsec_"), "{secret}");
    assert_eq!(made["events"], json!(["your-turn", "game-over"]));
    assert_eq!(made["token"], token["id"]);
    assert_eq!(made["active"], true);
    // The secret is shown once: not in the list, and not stored in any column.
    let list = app.get("/v1/me/webhooks", &ann).await.expect(200);
    assert_eq!(list["webhooks"].as_array().unwrap().len(), 1);
    assert!(!list.to_string().contains(&secret));
    assert_eq!(
        app.count_where(
            "webhooks",
            &format!("position('{secret}' in (webhooks.*)::text) > 0")
        )
        .await,
        0
    );

    // The game: Ann's turns come while the receiver is down (nobody listens on its port).
    let players = [ann.clone(), bob.clone()];
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    // Each time Ann comes to wait anew is one `your-turn`; her second wait is enough.
    let mut ann_turns = 0;
    let mut last = None;
    for _ in 0..200 {
        let (seat, state) = acting(&app, game, &players).await;
        if seat == 0 && last != Some(0) {
            ann_turns += 1;
            if ann_turns == 2 {
                break;
            }
        }
        last = Some(seat);
        let action = state["legal_actions"][0]["action"].clone();
        app.post(
            &format!("/v1/games/{game}/actions"),
            &players[seat],
            &json!({"expected_version": state["version"], "actions": [action]}),
        )
        .await
        .expect(200);
    }
    assert_eq!(ann_turns, 2, "Ann's turn came twice");
    // Bob resigns: the two-seat game is over.
    app.post(&format!("/v1/games/{game}/resign"), &bob, &json!({}))
        .await
        .expect(200);

    // The deliveries are queued and tried, and fail while the receiver is down.
    let mut tried = false;
    for _ in 0..200 {
        let rows = deliveries(&app, &ann, &hook).await;
        if rows
            .iter()
            .any(|d| d["event"] == "game-over" && d["attempts"].as_i64().unwrap() >= 2)
        {
            assert!(rows.iter().all(|d| d["status"] == "pending"), "{rows:?}");
            assert!(rows.iter().any(|d| d["last_error"].is_string()), "{rows:?}");
            tried = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        tried,
        "the deliveries were tried while the receiver was down"
    );
    let queued = deliveries(&app, &ann, &hook).await;
    let your_turns = queued.iter().filter(|d| d["event"] == "your-turn").count();
    assert!(your_turns >= 2, "{queued:?}");
    assert_eq!(
        queued.iter().filter(|d| d["event"] == "game-over").count(),
        1
    );
    // Bob has no hook: nothing is queued for him.
    assert_eq!(app.count("webhook_deliveries").await, queued.len() as i64);

    // The receiver comes up, and still fails its first answer: everything arrives after it.
    let receiver = Receiver::start(port, 1).await;
    let mut done = false;
    for _ in 0..300 {
        let rows = deliveries(&app, &ann, &hook).await;
        if rows.iter().all(|d| d["status"] == "delivered") {
            done = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(done, "{:?}", deliveries(&app, &ann, &hook).await);
    let got = receiver.received();
    let ok: Vec<&Received> = got.iter().filter(|r| r.answered == 200).collect();
    // Each event once: as many 200s as deliveries, no event id twice.
    assert_eq!(ok.len(), queued.len(), "{got:?}");
    let mut ids: Vec<&str> = ok
        .iter()
        .map(|r| r.headers["turnpost-event-id"].as_str())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), ok.len(), "an event was delivered twice");
    // The one answered 503 came again, and was accepted then.
    let refused = got.iter().find(|r| r.answered == 503).expect("a 503");
    assert!(ids.contains(&refused.headers["turnpost-event-id"].as_str()));
    for r in &got {
        assert_eq!(
            r.headers[":request"], "POST /turnpost?bot=1 HTTP/1.1",
            "{r:?}"
        );
        assert_eq!(r.headers["content-type"], "application/json");
        assert!(
            signature_is_valid(&secret, &r.headers["turnpost-signature"], &r.body),
            "{r:?}"
        );
        // Any change to the body breaks the signature.
        let mut altered = r.body.clone();
        altered.push(b' ');
        assert!(!signature_is_valid(
            &secret,
            &r.headers["turnpost-signature"],
            &altered
        ));
        let body: Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(body["id"], r.headers["turnpost-event-id"].as_str());
        assert_eq!(body["type"], r.headers["turnpost-event"].as_str());
        assert_eq!(body["data"]["game"], game.to_string());
        match body["type"].as_str().unwrap() {
            "your-turn" => {
                assert_eq!(body["data"]["seat"], 0);
                assert_eq!(body["data"]["ruleset"], "bag-of-fate");
            }
            "game-over" => {
                assert_eq!(body["data"]["status"], "finished");
                assert!(body["data"]["outcome"].is_object(), "{body}");
            }
            other => panic!("unexpected event {other}"),
        }
    }
    let game_overs = ok
        .iter()
        .filter(|r| r.headers["turnpost-event"] == "game-over")
        .count();
    assert_eq!(game_overs, 1);
    // The first your-turn is the version Ann was first to act at: it says what to send.
    let hooks = app.get("/v1/me/webhooks", &ann).await.expect(200);
    let listed = &hooks["webhooks"][0];
    assert_eq!(listed["delivered"], ok.len());
    assert!(listed["failed_attempts"].as_i64().unwrap() >= 2, "{listed}");
    assert_eq!(listed["given_up"], 0);
    assert!(listed["last_delivery_at"].is_string());

    // Revoking the token stops its hook: no more deliveries are queued for it.
    app.request(
        Method::DELETE,
        &format!("/v1/me/tokens/{}", token["id"].as_str().unwrap()),
        Some(&ann.token),
        None,
        &[],
    )
    .await
    .expect(204);
    let before = app.count("webhook_deliveries").await;
    let second = app.start_game("bag-of-fate", &players, json!({})).await;
    app.post(&format!("/v1/games/{second}/resign"), &bob, &json!({}))
        .await
        .expect(200);
    assert_eq!(app.count("webhook_deliveries").await, before);
    let hooks = app.get("/v1/me/webhooks", &ann).await.expect(200);
    assert_eq!(hooks["webhooks"][0]["active"], false);
}

#[tokio::test]
async fn hooks_to_private_or_odd_urls_are_refused_and_need_the_account_scope() {
    let app = spawn_app().await;
    let ann = app.register("Ann").await;
    for url in [
        "http://127.0.0.1:9/hook",
        "http://[::1]/hook",
        "http://10.1.2.3/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://localhost:8080/hook",
        "http://turnpost.test/v1/games",
        "ftp://example.com/hook",
        "https://user:password@example.com/hook",
        "not a url",
    ] {
        let problem = app
            .post("/v1/me/webhooks", &ann, &json!({"url": url}))
            .await
            .expect_problem(422, "invalid-request");
        assert!(
            problem["detail"]
                .as_str()
                .unwrap()
                .starts_with("the webhook URL"),
            "{url}: {problem}"
        );
    }
    // An unknown event is a malformed body.
    app.post(
        "/v1/me/webhooks",
        &ann,
        &json!({"url": "https://hooks.example.com/", "events": ["everything"]}),
    )
    .await
    .expect_problem(400, "malformed-request");
    assert_eq!(app.count("webhooks").await, 0);

    // A token without `account` may neither register nor list hooks.
    let token = app
        .post(
            "/v1/me/tokens",
            &ann,
            &json!({"name": "player", "scopes": ["read", "play"]}),
        )
        .await
        .expect(201);
    let player = as_token(&ann, token["secret"].as_str().unwrap());
    app.post(
        "/v1/me/webhooks",
        &player,
        &json!({"url": "https://hooks.example.com/"}),
    )
    .await
    .expect_problem(403, "insufficient-scope");
    app.get("/v1/me/webhooks", &player)
        .await
        .expect_problem(403, "insufficient-scope");
}

#[tokio::test]
async fn a_session_hook_is_the_accounts_and_deleting_it_drops_its_queue() {
    let app = spawn_app_with(fast_hooks).await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let port = free_port().await;
    // Only game-over: the turns are not queued.
    let made = app
        .post(
            "/v1/me/webhooks",
            &bob,
            &json!({"url": format!("http://127.0.0.1:{port}/"), "events": ["game-over"]}),
        )
        .await
        .expect(201);
    let hook = made["id"].as_str().unwrap().to_owned();
    assert_eq!(made["token"], Value::Null);
    let players = [ann.clone(), bob.clone()];
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    let (seat, state) = acting(&app, game, &players).await;
    let action = state["legal_actions"][0]["action"].clone();
    app.post(
        &format!("/v1/games/{game}/actions"),
        &players[seat],
        &json!({"expected_version": state["version"], "actions": [action]}),
    )
    .await
    .expect(200);
    assert_eq!(app.count("webhook_deliveries").await, 0);
    app.post(&format!("/v1/games/{game}/resign"), &ann, &json!({}))
        .await
        .expect(200);
    let rows = deliveries(&app, &bob, &hook).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["event"], "game-over");
    // Another account sees neither the hook nor its deliveries.
    app.get(&format!("/v1/me/webhooks/{hook}/deliveries"), &ann)
        .await
        .expect_problem(404, "not-found");
    delete(&app, &ann, &hook)
        .await
        .expect_problem(404, "not-found");
    delete(&app, &bob, &hook).await.expect(204);
    assert_eq!(app.count("webhook_deliveries").await, 0);
    let list = app.get("/v1/me/webhooks", &bob).await.expect(200);
    assert_eq!(list["webhooks"], json!([]));
    assert_eq!(list["next"], Value::Null);
    delete(&app, &bob, &hook)
        .await
        .expect_problem(404, "not-found");
}

#[tokio::test]
async fn a_server_that_allows_no_private_address_delivers_nothing_there() {
    // Registered on a server that allows loopback (and delivers nothing itself); delivered by
    // its twin over the same database, which allows no private address: as if the hook's name
    // had been pointed at an internal address after it was registered.
    let app = spawn_app_with(|s| {
        fast_hooks(s);
        s.webhooks.worker_in_serve = false;
    })
    .await;
    let _guarded = app
        .twin_with(|s| {
            s.webhooks.allow_private = false;
            s.webhooks.worker_in_serve = true;
        })
        .await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let port = free_port().await;
    let receiver = Receiver::start(port, 0).await;
    let mut hooks = vec![];
    for (url, why) in [
        (format!("http://127.0.0.1:{port}/a"), "loopback"),
        (format!("http://localhost:{port}/b"), "localhost"),
    ] {
        let made = app
            .post(
                "/v1/me/webhooks",
                &ann,
                &json!({"url": url, "events": ["game-over"]}),
            )
            .await
            .expect(201);
        hooks.push((made["id"].as_str().unwrap().to_owned(), why));
    }
    let players = [ann.clone(), bob.clone()];
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    app.post(&format!("/v1/games/{game}/resign"), &bob, &json!({}))
        .await
        .expect(200);
    for (hook, why) in &hooks {
        let mut refused = None;
        for _ in 0..200 {
            let rows = deliveries(&app, &ann, hook).await;
            if let Some(error) = rows.first().and_then(|d| d["last_error"].as_str()) {
                assert_eq!(rows[0]["status"], "pending", "{rows:?}");
                refused = Some(error.to_owned());
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let refused = refused.expect("an attempt");
        assert!(refused.contains(why), "{refused}");
    }
    assert!(receiver.received().is_empty(), "{:?}", receiver.received());
}
