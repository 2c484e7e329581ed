//! `turnpost serve` stops by itself on SIGTERM (what `docker stop`, systemd and the load
//! generator send): the mail worker first, then the HTTP server, then the process exits 0.

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::helpers::fresh_database;

#[tokio::test]
async fn serve_stops_cleanly_on_sigterm() {
    let database_url = fresh_database().await;
    let data_dir = tempfile::tempdir().expect("temp dir");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_turnpost"))
        .arg("serve")
        .env("DATABASE_URL", &database_url)
        .env("TURNPOST_DATA_DIR", data_dir.path())
        .env("TURNPOST_ADDR", format!("127.0.0.1:{port}"))
        .env("TURNPOST_JWT_SECRET", "x".repeat(40))
        .env("RUST_LOG", "warn")
        .env_remove("TURNPOST_SMTP_URL")
        .stdin(Stdio::null())
        .spawn()
        .expect("start turnpost serve");
    let client = reqwest::Client::new();
    let mut ready = false;
    for _ in 0..600 {
        if let Ok(r) = client
            .get(format!("http://127.0.0.1:{port}/readyz"))
            .send()
            .await
            && r.status() == 200
        {
            ready = true;
            break;
        }
        if child.try_wait().expect("poll the child").is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ready, "turnpost serve did not become ready");

    let pid = libc::pid_t::try_from(child.id()).expect("pid");
    // SAFETY: kill(2) on the child we spawned and have not reaped.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    for _ in 0..300 {
        if let Some(status) = child.try_wait().expect("poll the child") {
            assert!(status.success(), "exit status {status}");
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("turnpost serve was still running 30 s after SIGTERM");
}
