//! Issue 19, item 4: live updates for programs. Server-sent events for one game's log
//! (resumable with `Last-Event-ID`, redacted as the events list is, with heartbeats) and for
//! an account (your turn, game over), fed by `LISTEN turnpost_games` so that a move taken on
//! one server process reaches a stream on another; long-poll on the events list.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use uuid::Uuid;

use crate::system_tests::helpers::{Player, ServeProcess, TestApp, http_client, spawn_app_with};

/// One thing read from an event stream.
#[derive(Debug, Clone, PartialEq)]
pub enum Sse {
    Event {
        id: Option<String>,
        event: String,
        data: String,
    },
    Comment(String),
}

/// A `text/event-stream` being read, block by block.
pub struct SseClient {
    res: reqwest::Response,
    buf: String,
}

impl SseClient {
    /// `GET base+path` with the bearer `token` (and `Last-Event-ID` when given); 200 expected.
    pub async fn open(base: &str, path: &str, token: &str, last_event_id: Option<&str>) -> Self {
        let mut req = http_client()
            .get(format!("{base}{path}"))
            .bearer_auth(token);
        if let Some(id) = last_event_id {
            req = req.header("Last-Event-ID", id);
        }
        let res = req.send().await.expect("the stream answers");
        assert_eq!(res.status(), 200, "stream {path}");
        assert_eq!(
            res.headers()["content-type"].to_str().unwrap(),
            "text/event-stream"
        );
        SseClient {
            res,
            buf: String::new(),
        }
    }

    /// The next event or comment, or `None` if nothing comes within `within` (or the stream
    /// ends).
    pub async fn next(&mut self, within: Duration) -> Option<Sse> {
        let until = tokio::time::Instant::now() + within;
        loop {
            while let Some(end) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..end + 2).collect();
                if let Some(item) = parse_block(&block) {
                    return Some(item);
                }
            }
            match tokio::time::timeout_at(until, self.res.chunk()).await {
                Ok(Ok(Some(bytes))) => self.buf.push_str(std::str::from_utf8(&bytes).unwrap()),
                _ => return None,
            }
        }
    }

    /// The next event (comments skipped) within `within`.
    pub async fn next_event(
        &mut self,
        within: Duration,
    ) -> Option<(Option<String>, String, Value)> {
        let until = Instant::now() + within;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.next(left).await? {
                Sse::Event { id, event, data } => {
                    return Some((id, event, serde_json::from_str(&data).expect("JSON data")));
                }
                Sse::Comment(_) => {}
            }
        }
    }
}

fn parse_block(block: &str) -> Option<Sse> {
    let mut id = None;
    let mut event = "message".to_owned();
    let mut data: Vec<&str> = Vec::new();
    let mut comment = None;
    for line in block.lines() {
        if let Some(c) = line.strip_prefix(':') {
            comment = Some(c.trim().to_owned());
        } else if let Some(v) = line.strip_prefix("id: ") {
            id = Some(v.to_owned());
        } else if let Some(v) = line.strip_prefix("event: ") {
            event = v.to_owned();
        } else if let Some(v) = line.strip_prefix("data: ") {
            data.push(v);
        }
    }
    if !data.is_empty() {
        Some(Sse::Event {
            id,
            event,
            data: data.join("\n"),
        })
    } else {
        comment.map(Sse::Comment)
    }
}

/// Registers `name` on the server at `base`.
async fn register(base: &str, database_url: &str, name: &str) -> Player {
    let email = format!("{name}-{}@example.test", Uuid::new_v4().simple());
    crate::system_tests::helpers::register_on(&http_client(), base, database_url, name, &email)
        .await
}

async fn call(method: reqwest::Method, url: String, who: &Player, body: Option<Value>) -> Value {
    let mut req = http_client().request(method, url).bearer_auth(&who.token);
    if let Some(b) = body {
        req = req.json(&b);
    }
    let res = req.send().await.unwrap();
    let status = res.status();
    let text = res.text().await.unwrap();
    assert!(status.is_success(), "{status}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// A two-seat bag-of-fate game between `players` on the server at `base`.
async fn start(base: &str, players: &[Player; 2]) -> Uuid {
    let game = call(
        reqwest::Method::POST,
        format!("{base}/v1/games"),
        &players[0],
        Some(json!({"ruleset": "bag-of-fate", "seats": 2})),
    )
    .await;
    let id: Uuid = game["id"].as_str().unwrap().parse().unwrap();
    call(
        reqwest::Method::POST,
        format!("{base}/v1/games/{id}/join"),
        &players[1],
        Some(json!({})),
    )
    .await;
    id
}

/// The seat to act takes its first legal action; the game's new version.
async fn act(base: &str, game: Uuid, players: &[Player; 2]) -> i64 {
    let record = call(
        reqwest::Method::GET,
        format!("{base}/v1/games/{game}"),
        &players[0],
        None,
    )
    .await;
    let seat = record["to_act"][0].as_u64().expect("someone to act") as usize;
    let state = call(
        reqwest::Method::GET,
        format!("{base}/v1/games/{game}/state"),
        &players[seat],
        None,
    )
    .await;
    let action = state["legal_actions"][0]["action"].clone();
    let done = call(
        reqwest::Method::POST,
        format!("{base}/v1/games/{game}/actions"),
        &players[seat],
        Some(json!({"expected_version": state["version"], "actions": [action]})),
    )
    .await;
    done["version"].as_i64().unwrap()
}

async fn version(app: &TestApp, game: Uuid, who: &Player) -> i64 {
    app.get(&format!("/v1/games/{game}"), who).await.expect(200)["version"]
        .as_i64()
        .unwrap()
}

/// Reads `entry` events until the one with `seq`; every entry read, in order.
async fn entries_until(stream: &mut SseClient, seq: i64) -> Vec<Value> {
    let mut got = Vec::new();
    while got
        .last()
        .is_none_or(|e: &Value| e["seq"].as_i64().unwrap() < seq)
    {
        let (id, event, data) = stream
            .next_event(Duration::from_secs(20))
            .await
            .unwrap_or_else(|| panic!("entry {seq} did not come; got {got:?}"));
        assert_eq!(event, "entry");
        assert_eq!(id.as_deref(), Some(data["seq"].to_string().as_str()));
        got.push(data);
    }
    got
}

#[tokio::test]
async fn a_game_stream_resumes_after_a_disconnect_without_losing_or_repeating_an_entry() {
    let app = spawn_app_with(|s| s.stream_heartbeat_secs = 1).await;
    let players = [app.register("Ann").await, app.register("Bob").await];
    let game = start(&app.base, &players).await;
    let watcher = app.register("Cid").await;
    let path = format!("/v1/games/{game}/stream");

    // A spectator (entries redacted for a spectator) reads the log so far, and one live move.
    let mut stream = SseClient::open(&app.base, &path, &watcher.token, None).await;
    let mut seen = entries_until(&mut stream, version(&app, game, &watcher).await).await;
    let v = act(&app.base, game, &players).await;
    seen.extend(entries_until(&mut stream, v).await);

    // Idle: heartbeats, as comment lines.
    match stream.next(Duration::from_secs(5)).await {
        Some(Sse::Comment(c)) => assert_eq!(c, "heartbeat"),
        other => panic!("expected a heartbeat, got {other:?}"),
    }

    // Disconnect; the game goes on meanwhile.
    let last = seen.last().unwrap()["seq"].to_string();
    drop(stream);
    for _ in 0..3 {
        act(&app.base, game, &players).await;
    }
    let mut stream = SseClient::open(&app.base, &path, &watcher.token, Some(&last)).await;
    let v = version(&app, game, &watcher).await;
    seen.extend(entries_until(&mut stream, v).await);
    // And live again after the reconnect.
    let v = act(&app.base, game, &players).await;
    seen.extend(entries_until(&mut stream, v).await);

    let seqs: Vec<i64> = seen.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
    let expected: Vec<i64> = (1..=v).collect();
    assert_eq!(seqs, expected, "every entry once, in order");
    // Exactly as the events list shows them to the same viewer.
    let listed = app
        .get(&format!("/v1/games/{game}/events?limit=1000"), &watcher)
        .await
        .expect(200);
    assert_eq!(Value::Array(seen), listed["entries"]);

    // A bad Last-Event-ID is refused before the stream starts.
    let bad = http_client()
        .get(format!("{}{path}", app.base))
        .bearer_auth(&watcher.token)
        .header("Last-Event-ID", "x")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
}

#[tokio::test]
async fn streams_take_the_token_from_the_header_only_and_an_api_token_needs_read() {
    let app = spawn_app_with(|_| {}).await;
    let ann = app.register("Ann").await;
    let bob = app.register("Bob").await;
    let game = start(&app.base, &[ann.clone(), bob.clone()]).await;
    // A token in the query string is not read (and so never reaches a log).
    for path in [
        format!("/v1/games/{game}/stream?access_token={}", ann.token),
        format!("/v1/me/stream?access_token={}", ann.token),
    ] {
        let res = http_client()
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert!(
            [400, 401].contains(&res.status().as_u16()),
            "{path}: {}",
            res.status()
        );
    }
    let play_only = app
        .post(
            "/v1/me/tokens",
            &ann,
            &json!({"name": "bot", "scopes": ["play"]}),
        )
        .await
        .expect(201);
    let res = http_client()
        .get(format!("{}/v1/me/stream", app.base))
        .bearer_auth(play_only["secret"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let reader = app
        .post(
            "/v1/me/tokens",
            &ann,
            &json!({"name": "bot", "scopes": ["read"]}),
        )
        .await
        .expect(201);
    let secret = reader["secret"].as_str().unwrap();
    let mut stream =
        SseClient::open(&app.base, &format!("/v1/games/{game}/stream"), secret, None).await;
    let (_, event, _) = stream.next_event(Duration::from_secs(10)).await.unwrap();
    assert_eq!(event, "entry");
}

#[tokio::test]
async fn the_account_stream_tells_of_turns_and_the_end_and_resumes() {
    let app = spawn_app_with(|s| s.stream_heartbeat_secs = 1).await;
    let players = [app.register("Ann").await, app.register("Bob").await];
    let game = start(&app.base, &players).await;
    let record = app
        .get(&format!("/v1/games/{game}"), &players[0])
        .await
        .expect(200);
    let first = record["to_act"][0].as_u64().unwrap() as usize;
    let other = 1 - first;

    // The present first: the seat to act hears of its turn at once, the other of nothing.
    let mut mover = SseClient::open(&app.base, "/v1/me/stream", &players[first].token, None).await;
    let (_, event, data) = mover.next_event(Duration::from_secs(10)).await.unwrap();
    assert_eq!(event, "your-turn");
    assert_eq!(data["game"], game.to_string());
    assert_eq!(data["version"], record["version"]);
    let mut waiter = SseClient::open(&app.base, "/v1/me/stream", &players[other].token, None).await;
    assert!(waiter.next_event(Duration::from_secs(2)).await.is_none());

    // Moves until the other seat must act: it hears of it, with the version to send.
    let mut to_act = first;
    while to_act == first {
        act(&app.base, game, &players).await;
        let r = app
            .get(&format!("/v1/games/{game}"), &players[0])
            .await
            .expect(200);
        to_act = r["to_act"][0].as_u64().unwrap() as usize;
    }
    let v = version(&app, game, &players[0]).await;
    let (id, event, data) = waiter.next_event(Duration::from_secs(10)).await.unwrap();
    assert_eq!(event, "your-turn");
    assert_eq!(data["version"], v);
    let last_id = id.unwrap();
    drop(waiter);

    // The game ends while the other seat is away; back with Last-Event-ID, it hears of it.
    app.post(
        &format!("/v1/games/{game}/resign"),
        &players[first],
        &json!({}),
    )
    .await
    .expect(200);
    let mut waiter = SseClient::open(
        &app.base,
        "/v1/me/stream",
        &players[other].token,
        Some(&last_id),
    )
    .await;
    let (_, event, data) = waiter.next_event(Duration::from_secs(10)).await.unwrap();
    assert_eq!(event, "game-over");
    assert_eq!(data["game"], game.to_string());
    assert_eq!(data["status"], "finished");
    // The mover, connected all along, hears of the end live.
    loop {
        let (_, event, _) = mover
            .next_event(Duration::from_secs(10))
            .await
            .expect("the end");
        if event == "game-over" {
            break;
        }
    }
}

#[tokio::test]
async fn long_poll_returns_early_on_a_move_and_after_wait_without_one() {
    let app = spawn_app_with(|_| {}).await;
    let players = [app.register("Ann").await, app.register("Bob").await];
    let game = start(&app.base, &players).await;
    let v = version(&app, game, &players[0]).await;
    let path = format!("/v1/games/{game}/events?after={v}");

    // Nothing happens: an empty page after `wait`.
    let started = Instant::now();
    let page = app
        .get(&format!("{path}&wait=2"), &players[0])
        .await
        .expect(200);
    let took = started.elapsed();
    assert_eq!(page["entries"], json!([]));
    assert!(took >= Duration::from_secs(2), "{took:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");

    // A move half a second in: answered then, not after 30 s.
    let base = app.base.clone();
    let movers = players.clone();
    let mover = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(500)).await;
        act(&base, game, &movers).await
    });
    let started = Instant::now();
    let page = app
        .get(&format!("{path}&wait=30"), &players[0])
        .await
        .expect(200);
    let took = started.elapsed();
    mover.await.unwrap();
    assert_eq!(page["entries"][0]["seq"], v + 1);
    assert!(took < Duration::from_secs(10), "{took:?}");

    // Bounded: 30 s at most (RFC 6202 §5.5), as the document says.
    app.get(&format!("{path}&wait=31"), &players[0])
        .await
        .expect_problem(400, "malformed-request");
}

#[tokio::test]
async fn a_move_on_one_server_process_reaches_streams_on_another() {
    let one = ServeProcess::start(
        &[],
        std::process::Stdio::null(),
        std::process::Stdio::null(),
    )
    .await;
    // Heartbeats (and their re-reads) far apart: only the announcement can be fast.
    let two = one
        .beside(&[("TURNPOST_STREAM_HEARTBEAT_SECS", "120".to_owned())])
        .await;
    let players = [
        register(&one.base, &one.database_url, "Ann").await,
        register(&one.base, &one.database_url, "Bob").await,
    ];
    let game = start(&one.base, &players).await;
    let record = call(
        reqwest::Method::GET,
        format!("{}/v1/games/{game}", one.base),
        &players[0],
        None,
    )
    .await;
    let v = record["version"].as_i64().unwrap();

    let mut log = SseClient::open(
        &two.base,
        &format!("/v1/games/{game}/stream?after={v}"),
        &players[0].token,
        None,
    )
    .await;
    let mut accounts = Vec::new();
    for p in &players {
        let mut s = SseClient::open(&two.base, "/v1/me/stream", &p.token, None).await;
        // Drain the present (one of the two has a turn now).
        while s.next_event(Duration::from_millis(500)).await.is_some() {}
        accounts.push(s);
    }

    let started = Instant::now();
    let moved = act(&one.base, game, &players).await;
    let got = entries_until(&mut log, moved).await;
    assert_eq!(got[0]["seq"], v + 1);
    assert!(started.elapsed() < Duration::from_secs(10));

    let after = call(
        reqwest::Method::GET,
        format!("{}/v1/games/{game}", one.base),
        &players[0],
        None,
    )
    .await;
    let next = after["to_act"][0].as_u64().unwrap() as usize;
    let (_, event, data) = accounts[next]
        .next_event(Duration::from_secs(10))
        .await
        .expect("a your-turn from the other process");
    assert_eq!(event, "your-turn");
    assert_eq!(data["version"], moved);
}

/// What opening a stream answered: status, `Retry-After`, and the response (kept open).
async fn try_open(
    base: &str,
    path: &str,
    who: &Player,
) -> (u16, Option<String>, reqwest::Response) {
    let res = http_client()
        .get(format!("{base}{path}"))
        .bearer_auth(&who.token)
        .send()
        .await
        .expect("the stream answers");
    let retry = res
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    (res.status().as_u16(), retry, res)
}

/// Issue 43: "one account opened 1,000 streams in 1.1 s; with a lower file limit, 1,460 streams
/// took every descriptor and new connections, health checks included, timed out." Streams
/// past the per-account and per-address caps are refused 429 with `Retry-After`; a closed
/// stream gives its slot back; `/healthz` answers throughout.
#[tokio::test]
async fn streams_past_the_per_account_and_per_address_caps_are_refused_and_health_answers() {
    let app = spawn_app_with(|s| {
        s.limits.streams_per_account = 3;
        s.limits.streams_per_address = 4;
        // A stream whose client left is noticed at its next write.
        s.stream_heartbeat_secs = 1;
    })
    .await;
    let ann = register(&app.base, &app.database_url, "Ann").await;
    let bob = register(&app.base, &app.database_url, "Bob").await;
    let game = start(&app.base, &[ann.clone(), bob.clone()]).await;
    let game_stream = format!("/v1/games/{game}/stream");

    // Ann's three streams, game and account streams counted together.
    let mut open = vec![];
    for path in [game_stream.as_str(), "/v1/me/stream", game_stream.as_str()] {
        let (status, _, res) = try_open(&app.base, path, &ann).await;
        assert_eq!(status, 200, "{path}");
        open.push(res);
    }
    for path in [game_stream.as_str(), "/v1/me/stream"] {
        let (status, retry, res) = try_open(&app.base, path, &ann).await;
        assert_eq!(status, 429, "{path}");
        let secs: i64 = retry.expect("Retry-After").parse().unwrap();
        assert!(secs > 0);
        let problem: Value = res.json().await.unwrap();
        assert_eq!(
            problem["type"],
            "https://turnpost.dev/problems/rate-limited"
        );
        assert!(
            problem["detail"].as_str().unwrap().contains("this account"),
            "{problem}"
        );
    }
    let health = http_client()
        .get(format!("{}/healthz", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);

    // Bob, from the same address: one more stream fits the address's four, the next not.
    let (status, _, bobs) = try_open(&app.base, &game_stream, &bob).await;
    assert_eq!(status, 200);
    let (status, retry, res) = try_open(&app.base, "/v1/me/stream", &bob).await;
    assert_eq!(status, 429);
    assert!(retry.is_some());
    let problem: Value = res.json().await.unwrap();
    assert!(
        problem["detail"].as_str().unwrap().contains("your address"),
        "{problem}"
    );

    // A stream that ends gives its slot back (the server notices the closed connection).
    drop(open.pop());
    drop(bobs);
    let mut reopened = false;
    for _ in 0..200 {
        let (status, _, res) = try_open(&app.base, "/v1/me/stream", &ann).await;
        if status == 200 {
            reopened = true;
            open.push(res);
            break;
        }
        assert_eq!(status, 429);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(reopened, "a closed stream's slot came back");
    let health = http_client()
        .get(format!("{}/healthz", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);
}
