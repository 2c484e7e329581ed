//! `turnpost serve` over its private PostgreSQL cluster (no `DATABASE_URL`), from outside:
//! the cluster demands its generated password; `turnpost migrate`, `replay` and `worker` on the
//! same data directory leave it running; when the postmaster is killed, requests are 503 with
//! `Retry-After` (never 500), `/readyz` answers its readiness document with 503, and the
//! watchdog brings the cluster back; a SIGTERM to the server stops the cluster it started.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use diesel_async::{AsyncConnection, AsyncPgConnection};
use serde_json::{Value, json};

use crate::system_tests::streams::{Sse, SseClient};

/// A `turnpost` command on `data_dir`, with no `DATABASE_URL`: the private cluster.
fn turnpost(data_dir: &Path) -> Command {
    let mut cmd = crate::system_tests::helpers::turnpost_command();
    cmd.env_remove("DATABASE_URL")
        .env_remove("TURNPOST_SMTP_URL")
        .env_remove("TURNPOST_CONFIG")
        .env("TURNPOST_DATA_DIR", data_dir)
        .env("TURNPOST_JWT_SECRET", "x".repeat(40))
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null());
    cmd
}

/// A running `turnpost serve`, killed (with its cluster) if the test fails half-way.
struct Serve {
    child: Child,
    base: String,
    pg: PathBuf,
}

impl Drop for Serve {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if let Some(pid) = postmaster_pid(&self.pg) {
            // SAFETY: kill(2); the pid is the test's own cluster's postmaster.
            unsafe { libc::kill(pid, libc::SIGQUIT) };
        }
    }
}

/// Line `n` (from 1) of the cluster's `postmaster.pid`.
fn pidfile_line(pg: &Path, n: usize) -> Option<String> {
    let text = std::fs::read_to_string(pg.join("postmaster.pid")).ok()?;
    text.lines().nth(n - 1).map(|line| line.trim().to_owned())
}

fn postmaster_pid(pg: &Path) -> Option<libc::pid_t> {
    pidfile_line(pg, 1)?.parse().ok()
}

fn alive(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    let exists = unsafe { libc::kill(pid, 0) } == 0;
    exists
        && !std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            stat.rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
        })
}

async fn get(client: &reqwest::Client, url: String, token: &str) -> reqwest::Response {
    client
        .get(url)
        .bearer_auth(token)
        .send()
        .await
        .expect("the server answers")
}

/// `turnpost serve` over its private cluster in `data` (with `env` on top), once `/readyz`
/// says 200.
async fn serve_private(data: &Path, env: &[(&str, &str)]) -> Serve {
    // As root, PostgreSQL runs as `postgres`, which must be able to enter the data dir.
    std::fs::set_permissions(data, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod the data dir");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = turnpost(data)
        .arg("serve")
        .env("TURNPOST_ADDR", format!("127.0.0.1:{port}"))
        .envs(env.iter().copied())
        .spawn()
        .expect("start turnpost serve");
    let mut serve = Serve {
        child,
        base: format!("http://127.0.0.1:{port}"),
        pg: data.join("pg"),
    };
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        if let Ok(r) = client.get(format!("{}/readyz", serve.base)).send().await
            && r.status() == 200
        {
            break;
        }
        assert!(
            serve.child.try_wait().expect("poll").is_none(),
            "turnpost serve exited"
        );
        assert!(Instant::now() < deadline, "turnpost serve was not ready");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    serve
}

/// Pat's account on `serve`, made by `turnpost account create` beside the running server (it
/// attaches to the server's private cluster; the mail a registration sends is read by nobody
/// here); the session token.
async fn register_pat(_client: &reqwest::Client, serve: &Serve) -> String {
    let data = serve.pg.parent().expect("the data dir").to_owned();
    let made = tokio::task::spawn_blocking(move || {
        let mut child = turnpost(&data)
            .args([
                "account",
                "create",
                "--email",
                "pat@example.test",
                "--name",
                "Pat",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("run turnpost account create");
        std::io::Write::write_all(
            child.stdin.as_mut().expect("stdin"),
            b"correct horse battery\n",
        )
        .expect("write the password");
        child.wait_with_output().expect("wait")
    })
    .await
    .expect("join");
    assert!(made.status.success(), "turnpost account create failed");
    // The JSON is the last line (the log, at warn here, shares standard output).
    let created: Value = String::from_utf8_lossy(&made.stdout)
        .lines()
        .last()
        .and_then(|line| serde_json::from_str(line).ok())
        .expect("a JSON answer");
    assert_eq!(created["user"]["email"], "pat@example.test");
    created["token"].as_str().expect("a token").to_owned()
}

#[tokio::test]
async fn private_cluster_is_secured_shared_and_restarted() {
    let data = tempfile::tempdir().expect("temp dir");
    let mut serve = serve_private(data.path(), &[]).await;
    let client = reqwest::Client::new();
    let token = register_pat(&client, &serve).await;
    let me = format!("{}/v1/me", serve.base);
    assert_eq!(get(&client, me.clone(), &token).await.status(), 200);

    // The cluster refuses a connection without its password, and takes one with it.
    let pg_port = pidfile_line(&serve.pg, 4).expect("the cluster's port");
    let anonymous = format!("postgres://postgres@127.0.0.1:{pg_port}/postgres");
    assert!(
        AsyncPgConnection::establish(&anonymous).await.is_err(),
        "a connection without the password is refused"
    );
    let password =
        std::fs::read_to_string(serve.pg.join("turnpost.password")).expect("the password file");
    let mode = std::fs::metadata(serve.pg.join("turnpost.password"))
        .expect("the password file")
        .permissions();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
        0o600
    );
    let with_password = format!(
        "postgres://postgres:{}@127.0.0.1:{pg_port}/postgres",
        password.trim()
    );
    AsyncPgConnection::establish(&with_password)
        .await
        .expect("a connection with the password");
    unprivileged_user_is_refused(&serve.pg, &pg_port);

    // One-shot commands on the same data directory attach and leave the server running.
    let postmaster = postmaster_pid(&serve.pg).expect("the postmaster");
    let migrate = turnpost(data.path())
        .arg("migrate")
        .output()
        .expect("run turnpost migrate");
    assert!(
        migrate.status.success(),
        "{}",
        String::from_utf8_lossy(&migrate.stderr)
    );
    // No such game: it fails, but only after using the database.
    let replay = turnpost(data.path())
        .args(["replay", "00000000-0000-0000-0000-000000000000"])
        .output()
        .expect("run turnpost replay");
    assert!(!replay.status.success());
    // A worker attaches (it registers in turnpost.clients) and leaves it running on Ctrl-C.
    let mut worker = turnpost(data.path())
        .arg("worker")
        .spawn()
        .expect("start turnpost worker");
    let clients = serve.pg.join("turnpost.clients");
    let worker_entry = format!("{}-", worker.id());
    let deadline = Instant::now() + Duration::from_secs(60);
    while !std::fs::read_dir(&clients)
        .into_iter()
        .flatten()
        .flatten()
        .any(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .starts_with(&worker_entry)
        })
    {
        assert!(
            worker.try_wait().expect("poll").is_none(),
            "the worker exited"
        );
        assert!(Instant::now() < deadline, "the worker did not attach");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let worker_pid = libc::pid_t::try_from(worker.id()).expect("pid");
    // SAFETY: kill(2) on the child we spawned and have not reaped.
    assert_eq!(unsafe { libc::kill(worker_pid, libc::SIGINT) }, 0);
    let deadline = Instant::now() + Duration::from_secs(60);
    let stopped = loop {
        if let Some(status) = worker.try_wait().expect("poll") {
            break status;
        }
        assert!(Instant::now() < deadline, "the worker did not stop");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(stopped.success(), "{stopped}");
    assert!(alive(postmaster), "the commands left PostgreSQL running");
    assert_eq!(postmaster_pid(&serve.pg), Some(postmaster));
    assert_eq!(get(&client, me.clone(), &token).await.status(), 200);

    // The postmaster dies: 503 with Retry-After meanwhile, never 500, until the watchdog
    // has started it again.
    // SAFETY: kill(2) on the test's own cluster's postmaster.
    assert_eq!(unsafe { libc::kill(postmaster, libc::SIGKILL) }, 0);
    // Issue 20: "SIGKILL of the postmaster: the server answers 200 again within 10 s, without
    // a restart" (the watchdog looks every 2 s; crash recovery of a small cluster is quick).
    let killed = Instant::now();
    let deadline = killed + Duration::from_secs(10);
    let mut outage = 0;
    loop {
        let ready = client
            .get(format!("{}/readyz", serve.base))
            .send()
            .await
            .expect("/readyz answers");
        let ready_status = ready.status().as_u16();
        if ready_status == 503 {
            outage += 1;
            assert!(ready.headers().contains_key("retry-after"));
            let content_type = ready.headers()["content-type"].to_str().unwrap_or("");
            assert!(
                content_type.starts_with("application/json"),
                "{content_type}"
            );
            let body: Value = ready.json().await.expect("the readiness document");
            assert_eq!(body["status"], "unavailable", "{body}");
            assert_eq!(body["database"], false, "{body}");
        } else {
            assert_eq!(ready_status, 200);
        }
        let answer = get(&client, me.clone(), &token).await;
        let status = answer.status().as_u16();
        if status == 503 {
            outage += 1;
            let retry = answer.headers().get("retry-after").cloned();
            let problem: Value = answer.json().await.expect("a problem document");
            assert!(retry.is_some(), "503 without Retry-After: {problem}");
            assert_eq!(
                problem["type"], "https://turnpost.dev/problems/unavailable",
                "{problem}"
            );
        } else {
            let body = answer.text().await.unwrap_or_default();
            assert_eq!(status, 200, "during the outage: {body}");
        }
        if status == 200 && ready_status == 200 && postmaster_pid(&serve.pg) != Some(postmaster) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the server did not answer 200 again within 10 s of the postmaster's SIGKILL"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(outage > 0, "the outage was seen");
    eprintln!(
        "200 again {:.1} s after the postmaster's SIGKILL",
        killed.elapsed().as_secs_f64()
    );
    let restarted = postmaster_pid(&serve.pg).expect("a new postmaster");
    assert!(alive(restarted));
    assert_eq!(
        pidfile_line(&serve.pg, 4).as_deref(),
        Some(pg_port.as_str()),
        "restarted on the same port"
    );

    // The server started the cluster, so stopping the server stops it.
    let pid = libc::pid_t::try_from(serve.child.id()).expect("pid");
    // SAFETY: kill(2) on the child we spawned and have not reaped.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let deadline = Instant::now() + Duration::from_secs(60);
    while serve.child.try_wait().expect("poll").is_none() {
        assert!(Instant::now() < deadline, "turnpost serve did not stop");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while alive(restarted) {
        assert!(Instant::now() < deadline, "the cluster outlived its server");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The postmaster and its children (the backends), stopped with SIGSTOP until thawed (or
/// dropped: a failing test leaves no frozen cluster behind).
struct Frozen(Vec<libc::pid_t>);

impl Frozen {
    fn freeze(postmaster: libc::pid_t) -> Frozen {
        let mut pids = vec![postmaster];
        for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
                continue;
            };
            let parent = std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| {
                    let (_, rest) = stat.rsplit_once(')')?;
                    rest.split_whitespace().nth(1)?.parse::<libc::pid_t>().ok()
                });
            if parent == Some(postmaster) {
                pids.push(pid);
            }
        }
        for &pid in &pids {
            // SAFETY: kill(2) on the test's own cluster's processes.
            unsafe { libc::kill(pid, libc::SIGSTOP) };
        }
        Frozen(pids)
    }
}

impl Drop for Frozen {
    fn drop(&mut self) {
        for &pid in &self.0 {
            // SAFETY: as above.
            unsafe { libc::kill(pid, libc::SIGCONT) };
        }
    }
}

/// Issue 43: "with PostgreSQL stopped by SIGSTOP for 40 s, every request and `/readyz` waited
/// 40 s; no 503", and "SIGTERM waits 30 s while a stream is open; under a supervisor that kills
/// sooner (Docker's default is 10 s) the private cluster is left running". Acceptance: a frozen
/// database gives 503 within the documented timeout (`TURNPOST_REQUEST_TIMEOUT_SECS`, here 3)
/// and `/readyz` within a second; SIGTERM with open streams exits within 10 s, each stream
/// told to reconnect, the private cluster stopped.
#[tokio::test]
async fn a_frozen_database_is_503_and_sigterm_with_open_streams_stops_all_within_10_s() {
    const REQUEST_TIMEOUT_SECS: u64 = 3;
    let data = tempfile::tempdir().expect("temp dir");
    let timeout = REQUEST_TIMEOUT_SECS.to_string();
    let mut serve = serve_private(
        data.path(),
        &[
            ("TURNPOST_REQUEST_TIMEOUT_SECS", timeout.as_str()),
            ("TURNPOST_DB_WAIT_SECS", "2"),
        ],
    )
    .await;
    let client = reqwest::Client::new();
    let token = register_pat(&client, &serve).await;
    let me = format!("{}/v1/me", serve.base);
    assert_eq!(get(&client, me.clone(), &token).await.status(), 200);

    let postmaster = postmaster_pid(&serve.pg).expect("the postmaster");
    let frozen = Frozen::freeze(postmaster);
    // The documented timeout, and a margin for a loaded machine; a hang fails the request.
    let bounded = reqwest::Client::builder()
        .timeout(Duration::from_secs(REQUEST_TIMEOUT_SECS + 7))
        .build()
        .expect("a client");
    let reads = bounded.get(&me).bearer_auth(&token).send();
    let writes = bounded
        .post(format!("{}/v1/games", serve.base))
        .bearer_auth(&token)
        .json(&json!({"ruleset": "bag-of-fate", "seats": 2}))
        .send();
    let (read, write) = tokio::join!(reads, writes);
    for answer in [read, write] {
        let answer = answer.expect("an answer within the request timeout");
        assert_eq!(answer.status(), 503);
        assert!(answer.headers().contains_key("retry-after"));
        // Issue 43: the deadline's answer carries the headers every other answer does.
        let header = |name: &str| {
            answer
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        assert_eq!(header("x-content-type-options").as_deref(), Some("nosniff"));
        assert_eq!(header("referrer-policy").as_deref(), Some("no-referrer"));
        assert_eq!(header("cache-control").as_deref(), Some("no-store"));
        assert!(header("content-type").is_some_and(|t| t.starts_with("application/problem+json")));
        let problem: Value = answer.json().await.expect("a problem document");
        assert_eq!(problem["type"], "https://turnpost.dev/problems/unavailable");
    }
    let ready = reqwest::Client::builder()
        .timeout(Duration::from_secs(1))
        .build()
        .expect("a client")
        .get(format!("{}/readyz", serve.base))
        .send()
        .await
        .expect("/readyz answers within a second");
    assert_eq!(ready.status(), 503);
    assert!(ready.headers().contains_key("retry-after"));
    let health = bounded
        .get(format!("{}/healthz", serve.base))
        .send()
        .await
        .expect("/healthz answers");
    assert_eq!(health.status(), 200);
    drop(frozen);
    let deadline = Instant::now() + Duration::from_secs(60);
    while get(&client, me.clone(), &token).await.status() != 200 {
        assert!(Instant::now() < deadline, "the server did not recover");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Two open streams, then SIGTERM: each is told to reconnect, and the server and its
    // cluster are gone within Docker's 10 s.
    let mut streams = vec![
        SseClient::open(&serve.base, "/v1/me/stream", &token, None).await,
        SseClient::open(&serve.base, "/v1/me/stream", &token, None).await,
    ];
    let postmaster = postmaster_pid(&serve.pg).expect("the postmaster");
    let pid = libc::pid_t::try_from(serve.child.id()).expect("pid");
    // SAFETY: kill(2) on the child we spawned and have not reaped.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let signalled = Instant::now();
    for stream in &mut streams {
        let mut told = false;
        while let Some(item) = stream.next(Duration::from_secs(10)).await {
            if let Sse::Event { event, .. } = item
                && event == "reconnect"
            {
                told = true;
                break;
            }
        }
        assert!(told, "the stream was told to reconnect");
    }
    let within = signalled + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = serve.child.try_wait().expect("poll") {
            break status;
        }
        assert!(
            Instant::now() < within,
            "turnpost serve ran on 10 s after SIGTERM"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(status.success(), "{status}");
    while alive(postmaster) {
        assert!(
            Instant::now() < within,
            "the cluster ran on 10 s after the server's SIGTERM"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!(
        "server and cluster stopped {:.1} s after SIGTERM",
        signalled.elapsed().as_secs_f64()
    );
}

/// "An unprivileged local user cannot connect to the private cluster": as `nobody` (when the
/// tests run as root, as CI does), the password file cannot be read and a connection without
/// it is refused, over TCP and over the cluster's socket directory.
fn unprivileged_user_is_refused(pg: &std::path::Path, port: &str) {
    use std::process::Command;
    let as_nobody = |args: &[&str]| {
        Command::new("runuser")
            .args(["-u", "nobody", "--"])
            .args(args)
            .env("PGCONNECT_TIMEOUT", "5")
            .output()
    };
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 || as_nobody(&["true"]).map_or(true, |o| !o.status.success())
    {
        eprintln!("not root, or no runuser: the unprivileged-user check is left out");
        return;
    }
    let password_file = pg.join("turnpost.password");
    let read = as_nobody(&["cat", password_file.to_str().expect("a UTF-8 path")]).expect("cat");
    assert!(
        !read.status.success() && read.stdout.is_empty(),
        "nobody read the cluster's password"
    );
    let Ok(psql) = which_psql() else {
        eprintln!("no psql: the unprivileged connection check is left out");
        return;
    };
    // The postmaster's pid file names its socket directory on its fifth line.
    let mut hosts = vec!["127.0.0.1".to_owned()];
    hosts.extend(pidfile_line(pg, 5).filter(|d| !d.is_empty()));
    for host in &hosts {
        let out = as_nobody(&[
            &psql, "-w", "-h", host, "-p", port, "-U", "postgres", "-d", "postgres", "-c",
            "SELECT 1",
        ])
        .expect("psql");
        assert!(
            !out.status.success(),
            "nobody connected to the private cluster through {host}"
        );
        eprintln!(
            "as nobody through {host}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
}

fn which_psql() -> Result<String, ()> {
    let out = std::process::Command::new("sh")
        .args([
            "-c",
            "command -v psql || ls /usr/lib/postgresql/*/bin/psql | tail -n 1",
        ])
        .output()
        .map_err(|_| ())?;
    let path = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .to_owned();
    if path.is_empty() { Err(()) } else { Ok(path) }
}
