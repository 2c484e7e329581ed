//! Issue 42, acceptance: "One of two servers behind the load balancer is killed under load:
//! no acknowledged move lost, no 5xx from the balancer beyond the in-flight requests of the
//! killed process (counted)."
//!
//! HAProxy runs `deploy/haproxy.cfg` as documented, in front of two `turnpost serve`
//! processes over one database. The bound is checked as: every request that failed was
//! already sent when the server was killed, and there are no more of them than the killed
//! server had in flight (its connections from the balancer from the kill until it was gone,
//! counted from `/proc/net/tcp`, and the requests sent meanwhile). A request in the hands of the
//! killed server fails one of two ways: 502, or its connection is closed without an answer;
//! both are counted as failed.
//!
//! And "no stream [lost] for more than a reconnect": a game's event stream through the
//! balancer, whose server is killed, resumes through the balancer on the other server with
//! every entry once.
//!
//! The clients all sign up before the load starts (`Tally::killing` refuses a kill before):
//! when the kill came while some still signed up, their registration or confirmation was cut
//! like any request in flight, and the test failed with a 502 that looked like the balancer's
//! or the confirmation's fault.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::Value;
use uuid::Uuid;

use crate::system_tests::ha_cluster::{Group, Scratch, free_port, installed, tail};
use crate::system_tests::ha_load::{
    Client, Tally, Turn, assert_all_in_log, play_all, replay_all, stop_all, wait_acked,
};
use crate::system_tests::helpers::ServeProcess;
use crate::system_tests::streams::SseClient;

const CLIENTS: usize = 20;
/// The server is killed once this many moves were acknowledged (or after `LOAD_FOR`).
const KILL_AFTER_ACKS: usize = 150;
const LOAD_FOR: Duration = Duration::from_secs(20);
/// Every client must be served again within this after the kill (the health checks take a
/// dead server out within 2 s; meanwhile its new connections are redispatched).
const RECOVERY_BOUND: Duration = Duration::from_secs(10);

/// HAProxy running `deploy/haproxy.cfg` as documented, in front of two servers.
pub struct Balancer {
    pub base: String,
    /// HAProxy's log (its standard output and error).
    pub log: PathBuf,
    _haproxy: Group,
    _scratch: Scratch,
}

impl Balancer {
    /// Starts HAProxy in front of `servers`, and waits (at most 30 s) until it serves
    /// `/readyz`.
    pub async fn start(servers: [&ServeProcess; 2]) -> Balancer {
        assert!(
            installed("haproxy"),
            "haproxy is not installed (`.ci/run` installs it)"
        );
        let scratch = Scratch::new("balancer");
        let port = free_port();
        let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/haproxy.cfg");
        let address = |base: &str| base.trim_start_matches("http://").to_owned();
        let log = scratch.path().join("haproxy.log");
        let haproxy = Group::spawn(
            Command::new("haproxy")
                .arg("-f")
                .arg(&config)
                .arg("-db")
                .env("TURNPOST_LISTEN", format!("127.0.0.1:{port}"))
                .env("TURNPOST_SERVER_1", address(&servers[0].base))
                .env("TURNPOST_SERVER_2", address(&servers[1].base))
                .stdin(std::process::Stdio::null()),
            &log,
        );
        let base = format!("http://127.0.0.1:{port}");
        let http = reqwest::Client::new();
        let started = Instant::now();
        loop {
            if let Ok(r) = http.get(format!("{base}/readyz")).send().await
                && r.status() == 200
            {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the balancer did not serve /readyz:\n{}",
                tail(&log)
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Balancer {
            base,
            log,
            _haproxy: haproxy,
            _scratch: scratch,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ha_balancer_losing_one_of_two_servers_loses_no_acknowledged_move() {
    let first = ServeProcess::start(
        &[],
        std::process::Stdio::null(),
        std::process::Stdio::null(),
    )
    .await;
    let mut second = first.beside(&[]).await;
    let balancer = Balancer::start([&first, &second]).await;
    let (base, log) = (balancer.base.clone(), balancer.log.clone());
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("client");

    // Everyone signs up first (through the balancer: 40 registrations and confirmations),
    // then plays.
    let tally = Arc::new(Tally::new(CLIENTS));
    let clients = Client::sign_up_all(
        &http,
        std::slice::from_ref(&base),
        &first.database_url,
        &tally,
        CLIENTS,
    )
    .await;
    let running = play_all(&clients, &tally);
    let acked_before = wait_acked(&tally, KILL_AFTER_ACKS, LOAD_FOR).await;
    assert!(
        acked_before >= KILL_AFTER_ACKS / 3,
        "only {acked_before} moves acknowledged before the kill"
    );

    // The killed server's requests in flight: its connections from the balancer (one for
    // each request, `http-server-close`) from the kill until it is gone; and, to be sure
    // of the bound, every request sent from the kill until then.
    tally.killing();
    let held = kill_counting(&mut second);
    tally.killed();
    let on_killed = held + tally.dead_at.lock().unwrap().map_or(0, |(_, n)| n);
    tally.wait_recovered(RECOVERY_BOUND).await;
    // More play on the server that is left.
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop_all(&tally, running).await;

    let acks = tally.acks.lock().unwrap().clone();
    let failures = tally.failures.lock().unwrap().clone();
    let in_flight = tally.in_flight_at_kill();
    let recovered = tally.recovered.lock().unwrap().clone();
    eprintln!(
        "balancer: {} moves acknowledged ({acked_before} before the kill); {} requests \
         failed ({} answered 5xx, {} closed without an answer); the killed server held \
         {held} requests from the kill until it was gone ({on_killed} with every request \
         sent meanwhile, {in_flight} in flight on both); every client served again within \
         {:.1} s",
        acks.len(),
        failures.len(),
        failures.iter().filter(|f| f.status >= 500).count(),
        failures.iter().filter(|f| f.status == 0).count(),
        recovered
            .iter()
            .flatten()
            .max()
            .copied()
            .unwrap_or(RECOVERY_BOUND)
            .as_secs_f64()
    );
    let late: Vec<String> = failures
        .iter()
        .filter(|f| !f.in_flight_at_kill)
        .map(|f| format!("{} {}", f.status, f.what))
        .collect();
    assert!(
        late.is_empty(),
        "5xx, or no answer, for requests sent after the kill: {late:#?}\n{}",
        tail(&log)
    );
    assert!(
        failures.len() <= on_killed,
        "{} requests failed, {on_killed} were in flight on the killed server: {failures:#?}",
        failures.len()
    );
    assert!(
        recovered.iter().all(Option::is_some),
        "clients not served again within {RECOVERY_BOUND:?}: {recovered:?}"
    );
    assert!(
        acks.len() > acked_before,
        "no move acknowledged after the kill"
    );
    assert_all_in_log(&first.database_url, &acks).await;
    let games = tally.games.lock().unwrap().len();
    let replayed = replay_all(&first.database_url, first.data_dir.path());
    assert!(replayed >= games, "{replayed} games replayed of {games}");
    first.terminate().await;
}

/// The established TCP connections whose server end is `port` of this machine
/// (`/proc/net/tcp`), by their other end: the balancer's connections to a Turnpost server
/// listening there.
fn connections_to(port: u16) -> Vec<String> {
    let table = std::fs::read_to_string("/proc/net/tcp").expect("/proc/net/tcp");
    table
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let local = fields.get(1)?.rsplit(':').next()?;
            (fields.get(3) == Some(&"01") && u16::from_str_radix(local, 16).ok() == Some(port))
                .then(|| fields[2].to_owned())
        })
        .collect()
}

/// SIGKILL for `server`, watching its port until it is gone: how many connections from the
/// balancer it held meanwhile. Those in flight at the kill, and those the kernel still took
/// into its listen queue while it died (a dying process's socket takes connections until
/// it is closed); it answers none of them.
fn kill_counting(server: &mut ServeProcess) -> usize {
    let port = port_of(server);
    let mut held: HashSet<String> = connections_to(port).into_iter().collect();
    let pid = libc::pid_t::try_from(server.child.id()).expect("pid");
    // SAFETY: kill(2) on a child of this process that has not been reaped.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0);
    while server
        .child
        .try_wait()
        .expect("poll the killed server")
        .is_none()
    {
        held.extend(connections_to(port));
    }
    held.len()
}

/// The port a server listens on.
fn port_of(server: &ServeProcess) -> u16 {
    server
        .base
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .expect("a port")
}

/// Which of `servers` holds the balancer's one long connection (a stream): the one with a
/// connection from the balancer all through half a second (health checks and other requests
/// come and go within milliseconds).
async fn holder(servers: &[ServeProcess; 2]) -> usize {
    let ports: Vec<u16> = servers.iter().map(port_of).collect();
    let mut least = [usize::MAX; 2];
    for _ in 0..10 {
        for (n, port) in ports.iter().enumerate() {
            least[n] = least[n].min(connections_to(*port).len());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let holding: Vec<usize> = (0..2).filter(|n| least[*n] > 0).collect();
    assert_eq!(
        holding.len(),
        1,
        "the stream is on exactly one server: {least:?}"
    );
    holding[0]
}

/// Reads a game stream's events until `until` (the entry with that `seq` is read), or until
/// the stream ends or `within` passes. Entries are appended to `seen`; whether the game's
/// `end` came is returned.
async fn read_entries(
    stream: &mut SseClient,
    seen: &mut Vec<Value>,
    until: Option<i64>,
    within: Duration,
) -> bool {
    let deadline = Instant::now() + within;
    loop {
        if until.is_some_and(|v| seen.last().is_some_and(|e| e["seq"].as_i64() >= Some(v))) {
            return false;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let Some((id, event, data)) = stream.next_event(left).await else {
            return false;
        };
        if event == "end" {
            return true;
        }
        assert_eq!(event, "entry");
        assert_eq!(id.as_deref(), Some(data["seq"].to_string().as_str()));
        seen.push(data);
    }
}

/// The version of `game`, read through `base`.
async fn version(base: &str, token: &str, game: Uuid) -> i64 {
    let record: Value = crate::system_tests::helpers::http_client()
        .get(format!("{base}/v1/games/{game}"))
        .bearer_auth(token)
        .send()
        .await
        .expect("the game")
        .json()
        .await
        .expect("the game's record");
    record["version"].as_i64().expect("a version")
}

/// Issue 42: "losing one server loses … no stream for more than a reconnect". A game's
/// event stream is read through the balancer while moves are taken (through the balancer
/// too); the server that holds the stream is killed; the client reconnects through the
/// balancer with `Last-Event-ID`, lands on the other server, and has every entry of the log
/// once, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ha_balancer_a_stream_whose_server_is_killed_resumes_through_the_balancer_losing_nothing() {
    let first = ServeProcess::start(
        &[],
        std::process::Stdio::null(),
        std::process::Stdio::null(),
    )
    .await;
    let second = first.beside(&[]).await;
    let mut servers = [first, second];
    let balancer = Balancer::start([&servers[0], &servers[1]]).await;
    let base = balancer.base.clone();
    let tally = Arc::new(Tally::new(1));
    let client = Arc::new(
        Client::sign_up(
            crate::system_tests::helpers::http_client(),
            base.clone(),
            &servers[0].database_url,
            0,
            &tally,
        )
        .await,
    );
    let game = client.new_game(&tally).await.expect("a game");
    let mut pick = 0;
    for _ in 0..3 {
        assert_eq!(client.turn(&tally, game, &mut pick).await, Turn::Moved);
    }
    let token = client.token(0).to_owned();
    let path = format!("/v1/games/{game}/stream");
    let mut stream = SseClient::open(&base, &path, &token, None).await;
    let mut seen = vec![];
    let now = version(&base, &token, game).await;
    assert!(!read_entries(&mut stream, &mut seen, Some(now), Duration::from_secs(20)).await);
    assert_eq!(seen.len(), usize::try_from(now).unwrap(), "the log so far");
    let on = holder(&servers).await;

    // Moves go on through the balancer, before, during and after the kill (a move whose
    // server dies is tried again).
    let mover = {
        let (client, tally) = (Arc::clone(&client), Arc::clone(&tally));
        tokio::spawn(async move {
            let mut over = false;
            while !tally.stop.load(Ordering::Relaxed) && !over {
                over = client.turn(&tally, game, &mut pick).await == Turn::Over;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    };
    // Some of them live on the stream.
    let live = now + 3;
    assert!(!read_entries(&mut stream, &mut seen, Some(live), Duration::from_secs(20)).await);
    assert!(
        seen.len() >= usize::try_from(live).unwrap(),
        "live entries: {seen:?}"
    );

    let killed = Instant::now();
    servers[on].kill();
    // The stream breaks (what reached the client before is kept); then the client
    // reconnects through the balancer with the id of the last entry it got.
    let ended = read_entries(&mut stream, &mut seen, None, Duration::from_secs(30)).await;
    let broke_after = killed.elapsed();
    assert!(
        !ended,
        "the game ended before its stream's server was killed"
    );
    assert!(
        broke_after < Duration::from_secs(10),
        "the stream did not break when its server died ({broke_after:?})"
    );
    let last = seen.last().expect("entries")["seq"].to_string();
    let mut stream = SseClient::open(&base, &path, &token, Some(&last)).await;
    let reconnected_after = killed.elapsed();
    assert_eq!(holder(&servers).await, 1 - on, "the new stream's server");

    // A few more moves, then the log to its end.
    let more = version(&base, &token, game).await + 3;
    let ended = read_entries(&mut stream, &mut seen, Some(more), Duration::from_secs(20)).await;
    tally.stop.store(true, Ordering::Relaxed);
    mover.await.expect("the mover");
    let v = version(&base, &token, game).await;
    if !ended {
        read_entries(&mut stream, &mut seen, Some(v), Duration::from_secs(20)).await;
    }

    let seqs: Vec<i64> = seen.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
    let expected: Vec<i64> = (1..=v).collect();
    assert_eq!(seqs, expected, "every entry once, in order");
    // Exactly as the events list shows them to the same player.
    let listed: Value = crate::system_tests::helpers::http_client()
        .get(format!("{base}/v1/games/{game}/events?limit=1000"))
        .bearer_auth(&token)
        .send()
        .await
        .expect("the events")
        .json()
        .await
        .expect("a page");
    assert_eq!(Value::Array(seen), listed["entries"]);
    eprintln!(
        "balancer stream: {v} entries, each once; the stream broke {:.2} s after its server \
         was killed and was open again on the other {:.2} s after the kill; {} of the \
         mover's requests were not served (and tried again)",
        broke_after.as_secs_f64(),
        reconnected_after.as_secs_f64(),
        tally.failures.lock().unwrap().len(),
    );
}
