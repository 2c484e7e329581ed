//! Issue 20, acceptance: "The crash-safety run stays at 0 acknowledged submissions lost (a
//! test that SIGKILLs the server under load and checks every acknowledged entry, in CI at a
//! small scale)". A real `turnpost serve` is loaded by a few clients at once, killed with
//! SIGKILL in the middle, and started again on the same database and data directory. Every
//! submission it answered 2xx is in the log, where its answer said; every game refolds to its
//! snapshot with a contiguous log whose length is the game's version (so nothing half-written
//! survived); and the restarted server plays on.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use diesel::sql_types::{BigInt, Jsonb, Nullable};
use diesel_async::{AsyncConnection, AsyncPgConnection};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::system_tests::helpers::ServeProcess;

/// Clients playing at once, each its own games.
const CLIENTS: usize = 4;
/// The server is killed once this many submissions were acknowledged (or after `LOAD_FOR`).
const KILL_AFTER_ACKS: usize = 120;
const LOAD_FOR: Duration = Duration::from_secs(20);
/// The most requests one client sends (every loop is bounded).
const MOST_REQUESTS: usize = 5_000;

/// A submission the server answered 200.
#[derive(Debug)]
struct Ack {
    game: Uuid,
    seat: i32,
    expected_version: i64,
    action: Value,
}

struct Client {
    http: reqwest::Client,
    base: String,
    tokens: Vec<String>,
}

impl Client {
    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Result<(u16, Value), reqwest::Error> {
        let mut req = self.http.request(method, format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await?;
        let status = res.status().as_u16();
        let body = res.json().await.unwrap_or(Value::Null);
        Ok((status, body))
    }

    /// Registers two players (each confirmed by the link mailed to it).
    async fn sign_up(http: reqwest::Client, base: String, database_url: &str, n: usize) -> Client {
        let mut c = Client {
            http,
            base,
            tokens: vec![],
        };
        for seat in 0..2 {
            let email = format!("crash-{n}-{seat}-{}@example.test", Uuid::new_v4().simple());
            let player = crate::system_tests::helpers::register_on(
                &c.http,
                &c.base,
                database_url,
                &format!("P{n}{seat}"),
                &email,
            )
            .await;
            c.tokens.push(player.token);
        }
        c
    }

    /// A new two-seat game with both players seated.
    async fn new_game(&self) -> Result<Uuid, reqwest::Error> {
        let (status, body) = self
            .call(
                reqwest::Method::POST,
                "/v1/games",
                Some(&self.tokens[0]),
                Some(json!({"ruleset": "bag-of-fate", "seats": 2})),
            )
            .await?;
        assert_eq!(status, 201, "{body}");
        let id: Uuid = body["id"].as_str().expect("id").parse().expect("uuid");
        let (status, body) = self
            .call(
                reqwest::Method::POST,
                &format!("/v1/games/{id}/join"),
                Some(&self.tokens[1]),
                Some(json!({})),
            )
            .await?;
        assert_eq!(status, 200, "{body}");
        Ok(id)
    }

    /// Plays until the server stops answering (or the bound): every 200 is an `Ack`. Games
    /// that end are followed by new ones.
    async fn play(&self, acked: &AtomicUsize, games: &mut Vec<Uuid>, acks: &mut Vec<Ack>) {
        let mut game = match self.new_game().await {
            Ok(g) => g,
            Err(_) => return,
        };
        games.push(game);
        let mut pick = 0usize;
        for _ in 0..MOST_REQUESTS {
            let Ok((status, state)) = self
                .call(
                    reqwest::Method::GET,
                    &format!("/v1/games/{game}/state"),
                    Some(&self.tokens[0]),
                    None,
                )
                .await
            else {
                return;
            };
            if status != 200 {
                return;
            }
            if state["status"] != "active" {
                match self.new_game().await {
                    Ok(g) => {
                        game = g;
                        games.push(g);
                        continue;
                    }
                    Err(_) => return,
                }
            }
            let Some(seat) = state["to_act"][0].as_i64() else {
                return;
            };
            let seat_index = usize::try_from(seat).expect("seat");
            let token = &self.tokens[seat_index];
            let Ok((status, mine)) = self
                .call(
                    reqwest::Method::GET,
                    &format!("/v1/games/{game}/state"),
                    Some(token),
                    None,
                )
                .await
            else {
                return;
            };
            let legal = mine["legal_actions"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            if status != 200 || legal.is_empty() {
                return;
            }
            pick = pick.wrapping_mul(31).wrapping_add(7);
            let action = legal[pick % legal.len()]["action"].clone();
            let version = mine["version"].as_i64().expect("version");
            match self
                .call(
                    reqwest::Method::POST,
                    &format!("/v1/games/{game}/actions"),
                    Some(token),
                    Some(json!({"expected_version": version, "actions": [action]})),
                )
                .await
            {
                Ok((200, _)) => {
                    acks.push(Ack {
                        game,
                        seat: i32::try_from(seat).expect("seat"),
                        expected_version: version,
                        action,
                    });
                    acked.fetch_add(1, Ordering::Relaxed);
                }
                // Another answer changed nothing; a lost connection is an unknown outcome.
                Ok((409 | 422, _)) => {}
                _ => return,
            }
        }
    }
}

#[derive(diesel::QueryableByName)]
struct Entry {
    #[diesel(sql_type = Nullable<diesel::sql_types::Int4>)]
    seat: Option<i32>,
    #[diesel(sql_type = Jsonb)]
    action: Value,
}

#[tokio::test]
async fn sigkill_under_load_loses_no_acknowledged_submission() {
    let mut server = ServeProcess::start(
        &[],
        std::process::Stdio::null(),
        std::process::Stdio::null(),
    )
    .await;
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .expect("client");
    let mut clients = vec![];
    for n in 0..CLIENTS {
        clients.push(Arc::new(
            Client::sign_up(http.clone(), server.base.clone(), &server.database_url, n).await,
        ));
    }

    let acked = Arc::new(AtomicUsize::new(0));
    let mut running = vec![];
    for c in &clients {
        let (c, acked) = (Arc::clone(c), Arc::clone(&acked));
        running.push(tokio::spawn(async move {
            let (mut games, mut acks) = (vec![], vec![]);
            c.play(&acked, &mut games, &mut acks).await;
            (games, acks)
        }));
    }
    let started = Instant::now();
    while acked.load(Ordering::Relaxed) < KILL_AFTER_ACKS && started.elapsed() < LOAD_FOR {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Mid-load: the clients have requests in flight.
    server.kill();
    let (mut games, mut acks) = (vec![], vec![]);
    for r in running {
        let (g, a) = r.await.expect("a client");
        games.extend(g);
        acks.extend(a);
    }
    assert!(
        acks.len() >= KILL_AFTER_ACKS / 2,
        "only {} submissions acknowledged before the kill",
        acks.len()
    );

    server.start_again().await;

    // Every acknowledged submission is the entry right after the version it expected.
    let mut conn = AsyncPgConnection::establish(&server.database_url)
        .await
        .expect("connect");
    for ack in &acks {
        let query = diesel::sql_query(
            "SELECT seat, action FROM game_events WHERE game_id = $1 AND seq = $2",
        )
        .bind::<diesel::sql_types::Uuid, _>(ack.game)
        .bind::<BigInt, _>(ack.expected_version + 1);
        let entry: Entry = diesel_async::RunQueryDsl::get_result(query, &mut conn)
            .await
            .unwrap_or_else(|e| panic!("acknowledged {ack:?} is not in the log: {e}"));
        assert_eq!(entry.seat, Some(ack.seat), "{ack:?}");
        assert_eq!(entry.action, ack.action, "{ack:?}");
    }

    // Every game refolds to its snapshot; its log is contiguous and as long as its version.
    games.sort();
    games.dedup();
    for game in &games {
        let out = crate::system_tests::helpers::turnpost_command()
            .args(["replay", &game.to_string()])
            .env("DATABASE_URL", &server.database_url)
            .env("TURNPOST_DATA_DIR", server.data_dir.path())
            .env("TURNPOST_JWT_SECRET", "x".repeat(40))
            .env("RUST_LOG", "warn")
            .env_remove("TURNPOST_CONFIG")
            .output()
            .expect("turnpost replay");
        assert!(
            out.status.success(),
            "game {game}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    // The restarted server plays on where the clients left off.
    let c = Client {
        http,
        base: server.base.clone(),
        tokens: clients[0].tokens.clone(),
    };
    let before = acks.len();
    let (mut more, mut more_games) = (vec![], vec![]);
    let counted = AtomicUsize::new(0);
    // Bounded: a couple of seconds of play is plenty.
    let _ = tokio::time::timeout(
        Duration::from_secs(2),
        c.play(&counted, &mut more_games, &mut more),
    )
    .await;
    assert!(
        !more.is_empty(),
        "the restarted server acknowledged nothing ({before} before the kill)"
    );
    server.terminate().await;
}
