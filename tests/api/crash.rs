//! Issue 20, acceptance: "The crash-safety run stays at 0 acknowledged submissions lost (a
//! test that SIGKILLs the server under load and checks every acknowledged entry, in CI at a
//! small scale)". A real `turnpost serve` is loaded by a few clients at once, killed with
//! SIGKILL in the middle, and started again on the same database and data directory. Every
//! submission it answered 2xx is in the log, where its answer said; every game refolds to its
//! snapshot with a contiguous log whose length is the game's version (so nothing half-written
//! survived); and the restarted server plays on.

use std::sync::Arc;
use std::time::Duration;

use crate::system_tests::ha_load::{
    Client, Tally, assert_all_in_log, play_all, replay_all, stop_all, wait_acked,
};
use crate::system_tests::helpers::ServeProcess;

/// Clients playing at once, each its own games.
const CLIENTS: usize = 4;
/// The server is killed once this many submissions were acknowledged (or after `LOAD_FOR`).
const KILL_AFTER_ACKS: usize = 120;
const LOAD_FOR: Duration = Duration::from_secs(20);

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
    let tally = Arc::new(Tally::new(CLIENTS));
    let clients = Client::sign_up_all(
        &http,
        std::slice::from_ref(&server.base),
        &server.database_url,
        &tally,
        CLIENTS,
    )
    .await;
    let running = play_all(&clients, &tally);
    wait_acked(&tally, KILL_AFTER_ACKS, LOAD_FOR).await;
    // Mid-load: the clients have requests in flight.
    server.kill();
    stop_all(&tally, running).await;
    let acks = tally.acks.lock().unwrap().clone();
    assert!(
        acks.len() >= KILL_AFTER_ACKS / 2,
        "only {} submissions acknowledged before the kill",
        acks.len()
    );

    server.start_again().await;

    // Every acknowledged submission is the entry right after the version it expected.
    assert_all_in_log(&server.database_url, &acks).await;
    // Every game refolds to its snapshot; its log is contiguous and as long as its version.
    let games = tally.games.lock().unwrap().len();
    let replayed = replay_all(&server.database_url, server.data_dir.path());
    assert!(replayed >= games, "{replayed} games replayed of {games}");

    // The restarted server plays on where the clients left off.
    let again = Tally::new(1);
    let c = clients[0].on(&server.base);
    // Bounded: a couple of seconds of play is plenty.
    let _ = tokio::time::timeout(Duration::from_secs(2), c.play(&again)).await;
    assert!(
        again.acked() > 0,
        "the restarted server acknowledged nothing ({} before the kill)",
        acks.len()
    );
    server.terminate().await;
}
