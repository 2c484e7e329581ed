//! The load of the tests that kill something under it (issue 42's, and issue 20's `crash`):
//! clients that register two players each and, once all have, play two-seat games of
//! bag-of-fate through a server (or a balancer) until told to stop, going on through 503s and
//! lost answers; what they were answered, and when, is tallied. And the checks after: every
//! acknowledged move is in its game's log; every game refolds.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use diesel::sql_types::{BigInt, Jsonb, Nullable};
use diesel_async::{AsyncConnection, AsyncPgConnection};
use serde_json::{Value, json};
use tokio::task::JoinHandle;
use uuid::Uuid;

/// A move the server answered 200.
#[derive(Debug, Clone)]
pub struct Ack {
    pub game: Uuid,
    pub seat: i32,
    pub expected_version: i64,
    pub action: Value,
}

/// An answer 500 or above, or none at all.
#[derive(Debug, Clone)]
pub struct Failure {
    /// 0 for no answer (the connection was closed before one).
    pub status: u16,
    pub what: String,
    /// Whether the request was sent before the kill and answered after it.
    pub in_flight_at_kill: bool,
}

/// What all clients saw.
#[derive(Default)]
pub struct Tally {
    pub acks: Mutex<Vec<Ack>>,
    pub games: Mutex<Vec<Uuid>>,
    /// Every answer 500 or above (503 included), and every request not answered.
    pub failures: Mutex<Vec<Failure>>,
    /// Requests that got no answer at all.
    pub unanswered: AtomicUsize,
    /// Requests sent and not answered yet.
    pub in_flight: AtomicUsize,
    /// Requests sent so far.
    pub sent: AtomicUsize,
    /// When the kill began (a process is told to die), and how many requests were in flight
    /// then.
    pub killed_at: Mutex<Option<(Instant, usize)>>,
    /// When the killed process was gone, and how many requests were sent between the two.
    pub dead_at: Mutex<Option<(Instant, usize)>>,
    sent_at_kill: AtomicUsize,
    /// Per client: how long after the kill began its first request sent after the killed
    /// process was gone was answered 2xx.
    pub recovered: Mutex<Vec<Option<Duration>>>,
    /// Clients that finished signing up.
    pub signed_up: AtomicUsize,
    pub stop: AtomicBool,
}

impl Tally {
    pub fn new(clients: usize) -> Tally {
        Tally {
            recovered: Mutex::new(vec![None; clients]),
            ..Tally::default()
        }
    }

    pub fn acked(&self) -> usize {
        self.acks.lock().unwrap().len()
    }

    /// Notes the beginning of a kill (call right before it): the requests in flight now.
    /// Every client must have signed up: signing up does not go on through failures (its
    /// requests must all be served), so a kill while a client signs up fails the test with
    /// a 502 or 503 that says nothing of what the kill cost.
    pub fn killing(&self) {
        let clients = self.recovered.lock().unwrap().len();
        let signed_up = self.signed_up.load(Ordering::SeqCst);
        assert_eq!(
            signed_up, clients,
            "a kill while clients are signing up ({signed_up} of {clients} signed up)"
        );
        self.sent_at_kill
            .store(self.sent.load(Ordering::SeqCst), Ordering::SeqCst);
        *self.killed_at.lock().unwrap() =
            Some((Instant::now(), self.in_flight.load(Ordering::SeqCst)));
    }

    /// Notes the end of a kill (call when the process is gone): the requests sent meanwhile
    /// were in flight at the kill too.
    pub fn killed(&self) {
        let meanwhile = self.sent.load(Ordering::SeqCst) - self.sent_at_kill.load(Ordering::SeqCst);
        *self.dead_at.lock().unwrap() = Some((Instant::now(), meanwhile));
    }

    /// The requests in flight at the kill: in flight when it began, or sent before the
    /// process was gone.
    pub fn in_flight_at_kill(&self) -> usize {
        self.killed_at.lock().unwrap().map_or(0, |(_, n)| n)
            + self.dead_at.lock().unwrap().map_or(0, |(_, n)| n)
    }

    /// Waits until every client was served again after the kill, or `most`.
    pub async fn wait_recovered(&self, most: Duration) {
        let started = Instant::now();
        while started.elapsed() < most && self.recovered.lock().unwrap().iter().any(Option::is_none)
        {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

pub struct Client {
    n: usize,
    http: reqwest::Client,
    base: String,
    tokens: Vec<String>,
}

/// An answer below 500, or `None` for one above (counted) or none at all.
type Answer = Option<(u16, Value)>;

impl Client {
    async fn call(
        &self,
        tally: &Tally,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let sent = Instant::now();
        let mut req = self.http.request(method, format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        tally.sent.fetch_add(1, Ordering::SeqCst);
        tally.in_flight.fetch_add(1, Ordering::SeqCst);
        let answer = async {
            let res = req.send().await?;
            let status = res.status().as_u16();
            Ok::<_, reqwest::Error>((status, res.text().await?))
        }
        .await;
        tally.in_flight.fetch_sub(1, Ordering::SeqCst);
        let killed = tally.killed_at.lock().unwrap().map(|(at, _)| at);
        // A request sent before the killed process was gone may have reached it.
        let dead = tally.dead_at.lock().unwrap().map(|(at, _)| at);
        let in_flight_at_kill = killed.is_some() && dead.is_none_or(|d| sent < d);
        let (status, text) = match answer {
            Ok(answer) => answer,
            Err(e) => {
                tally.unanswered.fetch_add(1, Ordering::Relaxed);
                tally.failures.lock().unwrap().push(Failure {
                    status: 0,
                    what: format!(
                        "{path}: no answer: {e}: {:?}",
                        std::error::Error::source(&e)
                    ),
                    in_flight_at_kill,
                });
                return None;
            }
        };
        if status >= 500 {
            tally.failures.lock().unwrap().push(Failure {
                status,
                what: format!("{path}: {text}"),
                in_flight_at_kill,
            });
            return None;
        }
        if status < 300
            && let Some(killed) = killed
            && dead.is_some_and(|d| sent > d)
        {
            let mut recovered = tally.recovered.lock().unwrap();
            recovered[self.n].get_or_insert(killed.elapsed());
        }
        Some((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
    }

    /// Registers two players and confirms them with the links mailed to them (read from the
    /// outbox over `database_url`), before anything is killed: every request must be served.
    pub async fn sign_up(
        http: reqwest::Client,
        base: String,
        database_url: &str,
        n: usize,
        tally: &Tally,
    ) -> Client {
        let mut c = Client {
            n,
            http,
            base,
            tokens: vec![],
        };
        for seat in 0..2 {
            let email = format!("ha-{n}-{seat}-{}@example.test", Uuid::new_v4().simple());
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
        tally.signed_up.fetch_add(1, Ordering::SeqCst);
        c
    }

    /// Signs up `clients` clients at once, client `n` on `bases[n % bases.len()]`, and
    /// returns when all have (so that nothing is killed while one signs up).
    pub async fn sign_up_all(
        http: &reqwest::Client,
        bases: &[String],
        database_url: &str,
        tally: &Arc<Tally>,
        clients: usize,
    ) -> Vec<Arc<Client>> {
        let signing: Vec<_> = (0..clients)
            .map(|n| {
                let (http, base) = (http.clone(), bases[n % bases.len()].clone());
                let (url, tally) = (database_url.to_owned(), Arc::clone(tally));
                tokio::spawn(async move { Client::sign_up(http, base, &url, n, &tally).await })
            })
            .collect();
        let mut signed = vec![];
        for s in signing {
            signed.push(Arc::new(s.await.expect("a client signs up")));
        }
        signed
    }

    /// A new two-seat game with both players seated, or `None` if a request was not served.
    pub async fn new_game(&self, tally: &Tally) -> Option<Uuid> {
        let (status, body) = self
            .call(
                tally,
                reqwest::Method::POST,
                "/v1/games",
                Some(&self.tokens[0]),
                Some(json!({"ruleset": "bag-of-fate", "seats": 2})),
            )
            .await?;
        assert_eq!(status, 201, "{body}");
        let id: Uuid = body["id"].as_str().expect("id").parse().expect("uuid");
        tally.games.lock().unwrap().push(id);
        // Joining is tried again until it is served: a game nobody joins is never played.
        for _ in 0..600 {
            if tally.stop.load(Ordering::Relaxed) {
                return None;
            }
            match self
                .call(
                    tally,
                    reqwest::Method::POST,
                    &format!("/v1/games/{id}/join"),
                    Some(&self.tokens[1]),
                    Some(json!({})),
                )
                .await
            {
                Some((200, _)) => return Some(id),
                // Joined by an attempt whose answer was lost: play it if it is active.
                Some((409, _)) => return Some(id),
                Some((status, body)) => panic!("join: {status} {body}"),
                None => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
        None
    }

    /// One turn of game `id`: the seat to act reads its state and takes a legal action (the
    /// `pick`th, cycling), expecting the version it read.
    pub async fn turn(&self, tally: &Tally, id: Uuid, pick: &mut usize) -> Turn {
        let Some((200, state)) = self
            .call(
                tally,
                reqwest::Method::GET,
                &format!("/v1/games/{id}/state"),
                Some(&self.tokens[0]),
                None,
            )
            .await
        else {
            return Turn::Unserved;
        };
        let Some(seat) = state["to_act"][0]
            .as_i64()
            .filter(|_| state["status"] == "active")
        else {
            return Turn::Over;
        };
        let token = &self.tokens[usize::try_from(seat).expect("seat")];
        let Some((200, mine)) = self
            .call(
                tally,
                reqwest::Method::GET,
                &format!("/v1/games/{id}/state"),
                Some(token),
                None,
            )
            .await
        else {
            return Turn::Unserved;
        };
        let legal = mine["legal_actions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if legal.is_empty() {
            return Turn::Idle;
        }
        *pick = pick.wrapping_mul(31).wrapping_add(7);
        let action = legal[*pick % legal.len()]["action"].clone();
        let version = mine["version"].as_i64().expect("version");
        match self
            .call(
                tally,
                reqwest::Method::POST,
                &format!("/v1/games/{id}/actions"),
                Some(token),
                Some(json!({"expected_version": version, "actions": [action]})),
            )
            .await
        {
            Some((200, _)) => {
                tally.acks.lock().unwrap().push(Ack {
                    game: id,
                    seat: i32::try_from(seat).expect("seat"),
                    expected_version: version,
                    action,
                });
                Turn::Moved
            }
            // Nothing changed (a move whose answer was lost may have been taken).
            Some((409 | 422, _)) => Turn::Refused,
            Some((status, body)) => panic!("move: {status} {body}"),
            None => Turn::Unserved,
        }
    }

    /// Plays until told to stop, through whatever the server answers; every 200 to a move
    /// is an `Ack`. Games that end are followed by new ones.
    pub async fn play(&self, tally: &Tally) {
        let mut game = None;
        let mut pick = self.n;
        // Bounded: the tests stop the clients well before this.
        for _ in 0..20_000 {
            if tally.stop.load(Ordering::Relaxed) {
                return;
            }
            let Some(id) = game else {
                game = self.new_game(tally).await;
                if game.is_none() {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                continue;
            };
            match self.turn(tally, id, &mut pick).await {
                Turn::Moved | Turn::Refused | Turn::Idle => {}
                Turn::Over => game = None,
                Turn::Unserved => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    /// Plays `moves` acknowledged moves one after the other (or panics after many tries, or
    /// when a request is not served or a move refused): for tests that need to know which
    /// moves came before a moment and which after.
    pub async fn play_moves(&self, tally: &Tally, moves: usize) -> Vec<Ack> {
        let before = tally.acked();
        let mut game = Some(self.new_game(tally).await.expect("a new game"));
        let mut pick = self.n;
        for _ in 0..moves * 20 {
            if tally.acked() >= before + moves {
                break;
            }
            let Some(id) = game else {
                game = self.new_game(tally).await;
                continue;
            };
            match self.turn(tally, id, &mut pick).await {
                Turn::Moved | Turn::Idle => {}
                Turn::Over => game = None,
                Turn::Refused => panic!("a move refused in game {id}"),
                Turn::Unserved => panic!("a request not served in game {id}"),
            }
        }
        let acks = tally.acks.lock().unwrap();
        assert_eq!(acks.len(), before + moves, "moves played");
        acks[before..].to_vec()
    }

    /// The bearer token of the player in `seat` (0 or 1).
    pub fn token(&self, seat: usize) -> &str {
        &self.tokens[seat]
    }

    /// The same players on another server (the one before it was started again, say).
    pub fn on(&self, base: &str) -> Client {
        Client {
            n: self.n,
            http: self.http.clone(),
            base: base.to_owned(),
            tokens: self.tokens.clone(),
        }
    }
}

/// Every client plays (`Client::play`) until `stop_all`.
pub fn play_all(clients: &[Arc<Client>], tally: &Arc<Tally>) -> Vec<JoinHandle<()>> {
    clients
        .iter()
        .map(|c| {
            let (c, tally) = (Arc::clone(c), Arc::clone(tally));
            tokio::spawn(async move { c.play(&tally).await })
        })
        .collect()
}

/// Tells the clients to stop and waits for each (a minute at most).
pub async fn stop_all(tally: &Tally, running: Vec<JoinHandle<()>>) {
    tally.stop.store(true, Ordering::Relaxed);
    for r in running {
        tokio::time::timeout(Duration::from_secs(60), r)
            .await
            .expect("a client stops")
            .expect("a client");
    }
}

/// Waits until `tally` counts `acks` acknowledged moves, or `most`; how many it counts.
pub async fn wait_acked(tally: &Tally, acks: usize, most: Duration) -> usize {
    let started = Instant::now();
    while tally.acked() < acks && started.elapsed() < most {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tally.acked()
}

/// What one turn came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// A move acknowledged (an `Ack`).
    Moved,
    /// The move was refused (409, 422): nothing changed.
    Refused,
    /// The seat read had no legal action (the state changed between the two reads).
    Idle,
    /// The game is over.
    Over,
    /// A request was answered 5xx or not at all.
    Unserved,
}

#[derive(diesel::QueryableByName)]
struct Entry {
    #[diesel(sql_type = Nullable<diesel::sql_types::Int4>)]
    seat: Option<i32>,
    #[diesel(sql_type = Jsonb)]
    action: Value,
}

/// The log entry of each ack in the database at `url`: `Some` when it is there (and is that
/// move), `None` when the log has no entry at its place.
pub async fn entries(url: &str, acks: &[Ack]) -> Vec<Option<()>> {
    let mut conn = AsyncPgConnection::establish(url).await.expect("connect");
    let mut found = vec![];
    for ack in acks {
        let query = diesel::sql_query(
            "SELECT seat, action FROM game_events WHERE game_id = $1 AND seq = $2",
        )
        .bind::<diesel::sql_types::Uuid, _>(ack.game)
        .bind::<BigInt, _>(ack.expected_version + 1);
        let entry: Option<Entry> = diesel_async::RunQueryDsl::get_result(query, &mut conn)
            .await
            .map(Some)
            .or_else(|e| match e {
                diesel::result::Error::NotFound => Ok(None),
                e => Err(e),
            })
            .expect("read the log");
        found.push(entry.map(|entry| {
            assert_eq!(entry.seat, Some(ack.seat), "{ack:?}");
            assert_eq!(entry.action, ack.action, "{ack:?}");
        }));
    }
    found
}

/// Every acknowledged move is the entry right after the version it expected.
pub async fn assert_all_in_log(url: &str, acks: &[Ack]) {
    let found = entries(url, acks).await;
    let missing: Vec<&Ack> = acks
        .iter()
        .zip(&found)
        .filter(|(_, f)| f.is_none())
        .map(|(a, _)| a)
        .collect();
    assert!(
        missing.is_empty(),
        "{} of {} acknowledged moves are not in the log: {missing:?}",
        missing.len(),
        acks.len()
    );
}

/// `turnpost replay --all` over `url`: every game refolds to its snapshot with a contiguous
/// log as long as its version. Returns how many games it replayed.
pub fn replay_all(url: &str, data_dir: &std::path::Path) -> usize {
    let out = crate::system_tests::helpers::turnpost_command()
        .args(["replay", "--all"])
        .env("DATABASE_URL", url)
        .env("TURNPOST_DATA_DIR", data_dir)
        .env("TURNPOST_JWT_SECRET", "x".repeat(40))
        .env("RUST_LOG", "warn")
        .env_remove("TURNPOST_CONFIG")
        .output()
        .expect("turnpost replay --all");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && report.contains("; 0 do not"),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    report
        .lines()
        .last()
        .and_then(|line| line.split(" games replayed").next()?.trim().parse().ok())
        .unwrap_or_else(|| panic!("{report}"))
}

/// A kill while a client signs up is refused (`Tally::killing`): such a test used to fail
/// with the 502 of a registration that the kill cut, which looked like the balancer's fault.
#[test]
#[should_panic(expected = "a kill while clients are signing up (1 of 2 signed up)")]
fn a_kill_before_every_client_signed_up_is_refused() {
    let tally = Tally::new(2);
    tally.signed_up.fetch_add(1, Ordering::SeqCst);
    tally.killing();
}
