//! Issue 42, acceptance: "One of two servers behind the load balancer is killed under load:
//! no acknowledged move lost, no 5xx from the balancer beyond the in-flight requests of the
//! killed process (counted)."
//!
//! HAProxy runs `deploy/haproxy.cfg` as documented, in front of two `turnpost serve`
//! processes over one database. The clients cannot tell which server holds a request, so
//! the bound is checked as: every request that failed was already sent when the server was
//! killed, and there are no more of them than requests then in flight (on both servers). A
//! request in the hands of the killed server fails one of two ways: 502, or its connection is
//! closed without an answer; both are counted as failed.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::system_tests::ha_cluster::{Group, Scratch, free_port, installed, tail};
use crate::system_tests::ha_load::{Client, Tally, assert_all_in_log, replay_all};
use crate::system_tests::helpers::ServeProcess;

const CLIENTS: usize = 20;
/// The server is killed once this many moves were acknowledged (or after `LOAD_FOR`).
const KILL_AFTER_ACKS: usize = 150;
const LOAD_FOR: Duration = Duration::from_secs(20);
/// Every client must be served again within this after the kill (the health checks take a
/// dead server out within 2 s; meanwhile its new connections are redispatched).
const RECOVERY_BOUND: Duration = Duration::from_secs(10);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "since registration confirms by a second request, its confirmation through HAProxy \
            answers 502 (an incomplete response from the server); to be mended (session 26 note)"]
async fn ha_balancer_losing_one_of_two_servers_loses_no_acknowledged_move() {
    assert!(
        installed("haproxy"),
        "haproxy is not installed (`.ci/run` installs it)"
    );
    let first = ServeProcess::start(
        &[],
        std::process::Stdio::null(),
        std::process::Stdio::null(),
    )
    .await;
    let mut second = first.beside(&[]).await;
    let scratch = Scratch::new("balancer");
    let port = free_port();
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/haproxy.cfg");
    let address = |base: &str| base.trim_start_matches("http://").to_owned();
    let log = scratch.path().join("haproxy.log");
    let _haproxy = Group::spawn(
        Command::new("haproxy")
            .arg("-f")
            .arg(&config)
            .arg("-db")
            .env("TURNPOST_LISTEN", format!("127.0.0.1:{port}"))
            .env("TURNPOST_SERVER_1", address(&first.base))
            .env("TURNPOST_SERVER_2", address(&second.base))
            .stdin(std::process::Stdio::null()),
        &log,
    );
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("client");
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

    let tally = Arc::new(Tally::new(CLIENTS));
    let mut running = vec![];
    for n in 0..CLIENTS {
        let (http, base, tally) = (http.clone(), base.clone(), Arc::clone(&tally));
        let database_url = first.database_url.clone();
        running.push(tokio::spawn(async move {
            let client = Client::sign_up(http, base, &database_url, n, &tally).await;
            client.play(&tally).await;
        }));
    }
    let started = Instant::now();
    while tally.acked() < KILL_AFTER_ACKS && started.elapsed() < LOAD_FOR {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let acked_before = tally.acked();
    assert!(
        acked_before >= KILL_AFTER_ACKS / 3,
        "only {acked_before} moves acknowledged before the kill"
    );

    tally.killing();
    second.kill();
    tally.killed();
    tally.wait_recovered(RECOVERY_BOUND).await;
    // More play on the server that is left.
    tokio::time::sleep(Duration::from_secs(2)).await;
    tally.stop.store(true, Ordering::Relaxed);
    for r in running {
        tokio::time::timeout(Duration::from_secs(60), r)
            .await
            .expect("a client stops")
            .expect("a client");
    }

    let acks = tally.acks.lock().unwrap().clone();
    let failures = tally.failures.lock().unwrap().clone();
    let in_flight = tally.in_flight_at_kill();
    let recovered = tally.recovered.lock().unwrap().clone();
    eprintln!(
        "balancer: {} moves acknowledged ({acked_before} before the kill); {} requests \
         failed ({} answered 5xx, {} closed without an answer), {in_flight} requests in \
         flight at the kill; every client served again within {:.1} s",
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
        failures.len() <= in_flight,
        "{} requests failed, {in_flight} were in flight: {failures:#?}",
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
