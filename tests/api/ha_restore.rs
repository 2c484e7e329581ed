//! Issue 42, acceptance: "Restore: a backup taken, moves made, the backup restored to a point
//! in time into a new cluster; `replay` of every game passes; the moves after that point are
//! absent, the ones before present."
//!
//! A PostgreSQL of the test's own archives its WAL with pgBackRest as `deploy/pgbackrest.conf`
//! and `deploy/postgresql-backup.conf` say (only the paths moved into a scratch directory);
//! the restore is `deploy/restore-check.sh`, the documented procedure, run as it says.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};

use crate::system_tests::ha_cluster::{
    Group, Scratch, bindir, free_port, installed, own_dir, run_bounded, server_command, texts,
};
use crate::system_tests::ha_load::{Client, Tally, assert_all_in_log, entries};
use crate::system_tests::helpers::ServeProcess;

/// Moves played in each phase: before the backup, after it and before the point in time,
/// and after that point.
const MOVES: usize = 12;

/// Stops a PostgreSQL started with `pg_ctl` (by the restore script) when dropped.
struct PgCtlGuard {
    bindir: std::path::PathBuf,
    pgdata: std::path::PathBuf,
    home: std::path::PathBuf,
}

impl Drop for PgCtlGuard {
    fn drop(&mut self) {
        if self.pgdata.join("postmaster.pid").exists() {
            let _ = server_command(
                &self.bindir.join("pg_ctl").to_string_lossy(),
                &self.bindir,
                &self.home,
            )
            .arg("-D")
            .arg(&self.pgdata)
            .args(["-m", "immediate", "-w", "-t", "30", "stop"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
        }
    }
}

/// pgBackRest as the server user, with the repository and its working paths under `base`
/// and the documented configuration file for everything else.
fn backrest_env(cmd: &mut Command, base: &Path, pgdata: &Path, port: u16) {
    cmd.env("PGBACKREST_CONFIG", base.join("pgbackrest.conf"))
        .env("PGBACKREST_STANZA", "turnpost")
        .env("PGBACKREST_REPO1_PATH", base.join("repo"))
        .env("PGBACKREST_LOCK_PATH", base.join("lock"))
        .env("PGBACKREST_LOG_PATH", base.join("log"))
        .env("PGBACKREST_SPOOL_PATH", base.join("spool"))
        .env("PGBACKREST_LOG_LEVEL_FILE", "off")
        .env("PGBACKREST_PG1_PATH", pgdata)
        .env("PGBACKREST_PG1_PORT", port.to_string())
        .env("PGBACKREST_PG1_SOCKET_PATH", base.join("sock"));
}

fn pgbackrest(base: &Path, bindir: &Path, pgdata: &Path, port: u16, args: &[&str]) {
    let mut cmd = server_command("pgbackrest", bindir, base);
    backrest_env(&mut cmd, base, pgdata, port);
    cmd.args(args);
    run_bounded(
        &mut cmd,
        &base.join("pgbackrest.out"),
        Duration::from_secs(120),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ha_restore_to_a_point_in_time_keeps_the_moves_before_it_only() {
    assert!(
        installed("pgbackrest"),
        "pgbackrest is not installed (`.ci/run` installs it)"
    );
    let bindir = bindir(None);
    let scratch = Scratch::new("restore");
    let base = scratch.path().to_path_buf();
    for dir in ["repo", "lock", "log", "spool", "sock"] {
        own_dir(&base.join(dir));
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy");
    std::fs::copy(here.join("pgbackrest.conf"), base.join("pgbackrest.conf"))
        .expect("copy deploy/pgbackrest.conf");
    std::fs::copy(here.join("restore-check.sh"), base.join("restore-check.sh"))
        .expect("copy deploy/restore-check.sh");
    crate::system_tests::ha_cluster::give(&base.join("pgbackrest.conf"));

    // The database server, archiving as documented.
    let pgdata = base.join("data");
    run_bounded(
        server_command(&bindir.join("initdb").to_string_lossy(), &bindir, &base)
            .arg("-D")
            .arg(&pgdata)
            .args(["-A", "trust", "-U", "postgres", "--no-sync"]),
        &base.join("initdb.log"),
        Duration::from_secs(120),
    );
    let conf = pgdata.join("postgresql.conf");
    let mut text = std::fs::read_to_string(&conf).expect("postgresql.conf");
    text.push_str(
        &std::fs::read_to_string(here.join("postgresql-backup.conf"))
            .expect("deploy/postgresql-backup.conf"),
    );
    std::fs::write(&conf, text).expect("write postgresql.conf");
    let port = free_port();
    let mut postgres = server_command(&bindir.join("postgres").to_string_lossy(), &bindir, &base);
    postgres
        .arg("-D")
        .arg(&pgdata)
        .args(["-p", &port.to_string(), "-c", "listen_addresses=127.0.0.1"])
        .arg("-c")
        .arg(format!(
            "unix_socket_directories={}",
            base.join("sock").display()
        ));
    // archive_command runs pgBackRest with the server's environment.
    backrest_env(&mut postgres, &base, &pgdata, port);
    let _server = Group::spawn(&mut postgres, &base.join("postgres.log"));
    let admin = format!("postgres://postgres@127.0.0.1:{port}/postgres");
    let started = Instant::now();
    while texts(&admin, "SELECT 'up' AS v").await.is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "PostgreSQL did not start:\n{}",
            crate::system_tests::ha_cluster::tail(&base.join("postgres.log"))
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    pgbackrest(&base, &bindir, &pgdata, port, &["stanza-create"]);
    pgbackrest(&base, &bindir, &pgdata, port, &["check"]);
    let mut conn = AsyncPgConnection::establish(&admin).await.expect("connect");
    conn.batch_execute("CREATE DATABASE turnpost")
        .await
        .expect("create the database");
    let url = format!("postgres://postgres@127.0.0.1:{port}/turnpost");

    let server = ServeProcess::over(&url, &[]).await;
    let tally = Arc::new(Tally::new(1));
    let client = Client::sign_up(
        crate::system_tests::helpers::http_client(),
        server.base.clone(),
        &url,
        0,
        &tally,
    )
    .await;
    let before_backup = client.play_moves(&tally, MOVES).await;
    pgbackrest(&base, &bindir, &pgdata, port, &["backup", "--type=full"]);
    // pgBackRest restores to a time from a backup whose stop time, in whole seconds, is
    // before it: a point in the second the backup stopped found none ("unable to find backup
    // set with stop time less than …", one run in two).
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before_point = client.play_moves(&tally, MOVES).await;
    // The point in time, by the database's clock, between two commits.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let point = texts(&url, "SELECT now()::text AS v").await.expect("now")[0].clone();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let after_point = client.play_moves(&tally, MOVES).await;
    // Everything written so far reaches the repository (`check` switches to a new WAL
    // segment and waits until it is archived).
    pgbackrest(&base, &bindir, &pgdata, port, &["check"]);
    server.terminate().await;

    // The documented procedure, as the server user: restore into a new data directory up to
    // the point, start it, check that every game refolds.
    let restored = base.join("restored");
    let restored_port = free_port();
    let _restored_server = PgCtlGuard {
        bindir: bindir.clone(),
        pgdata: restored.clone(),
        home: base.clone(),
    };
    let mut restore = server_command("bash", &bindir, &base);
    backrest_env(&mut restore, &base, &restored, port);
    restore
        .arg(base.join("restore-check.sh"))
        .arg(&point)
        .arg(&restored)
        .arg(restored_port.to_string())
        .env("PG_BINDIR", &bindir)
        .env("PGUSER", "postgres")
        .env(
            "TURNPOST",
            crate::system_tests::helpers::turnpost_script(&base),
        )
        .env("RUST_LOG", "warn");
    let log = base.join("restore-check.out");
    run_bounded(&mut restore, &log, Duration::from_secs(300));
    let report = std::fs::read_to_string(&log).expect("the restore's output");
    assert!(report.contains("; 0 do not"), "{report}");

    // The moves before the point are there; the ones after it are not.
    let restored_url = format!("postgres://postgres@127.0.0.1:{restored_port}/turnpost");
    assert_all_in_log(&restored_url, &before_backup).await;
    assert_all_in_log(&restored_url, &before_point).await;
    let later = entries(&restored_url, &after_point).await;
    assert!(
        later.iter().all(Option::is_none),
        "moves after the point in time ({point}) were restored: {:?}",
        after_point
            .iter()
            .zip(&later)
            .filter(|(_, e)| e.is_some())
            .map(|(a, _)| a)
            .collect::<Vec<_>>()
    );
    eprintln!(
        "restore: {} moves before the backup and {} after it restored up to {point}; {} later moves absent",
        before_backup.len(),
        before_point.len(),
        after_point.len()
    );
}
