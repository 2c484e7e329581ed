//! The yardstick: pgbench on the same PostgreSQL, at the same concurrency and for the same
//! time, running what one submission does at the storage level — lock the game row, insert a
//! log entry, write the snapshot, insert an outbox row, commit.
//!
//! The tables are copies of Turnpost's own (`CREATE TABLE … (LIKE … INCLUDING ALL)` in a
//! `yardstick` schema, with the same foreign keys), so indexes, constraints and row sizes are
//! the service's, while the service's worker and API never see the rows. The values written
//! are real ones read from the database after the HTTP run (a snapshot, a log entry, a
//! rendered mail), so each transaction writes as many bytes as a submission does.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, bail};
use diesel::QueryableByName;
use diesel::sql_types::Text;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};

use super::stats::{CpuTicks, quantile};

/// What pgbench measured.
pub struct Yardstick {
    pub tps: f64,
    pub transactions: u64,
    pub p50_us: u64,
    pub p95_us: u64,
    pub p99_us: u64,
    pub failed: u64,
    /// The machine's CPU counters when pgbench started and ended.
    pub cpu_start: Option<CpuTicks>,
    pub cpu_end: Option<CpuTicks>,
}

/// Real values to write: a game's snapshot, a log entry's action, a mail's payload.
struct Sample {
    state: String,
    action: String,
    description: String,
    payload: String,
}

#[derive(QueryableByName)]
struct Row {
    #[diesel(sql_type = Text)]
    value: String,
}

async fn one(conn: &mut AsyncPgConnection, sql: &str, fallback: &str) -> String {
    match diesel::sql_query(sql).load::<Row>(conn).await {
        Ok(rows) => rows
            .into_iter()
            .next()
            .map_or(fallback.to_string(), |r| r.value),
        Err(_) => fallback.to_string(),
    }
}

/// Finds `pgbench`: on the PATH, else beside the PostgreSQL server binaries.
pub fn find_pgbench() -> Option<PathBuf> {
    if let Ok(path) = std::env::var("PATH") {
        for dir in std::env::split_paths(&path) {
            let p = dir.join("pgbench");
            if p.is_file() {
                return Some(p);
            }
        }
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("bin/pgbench"))
        .filter(|p| p.is_file())
        .collect();
    found.sort();
    found.pop()
}

/// An SQL string literal that pgbench leaves alone: `E'…'` with every `:` (which pgbench
/// would take for a variable), quote and backslash escaped.
fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str("E'");
    for c in text.chars() {
        match c {
            ':' => out.push_str("\\x3a"),
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// Creates the `yardstick` schema with one game per client and writes the pgbench script.
async fn prepare(database_url: &str, clients: usize, dir: &Path) -> anyhow::Result<PathBuf> {
    let mut conn = AsyncPgConnection::establish(database_url)
        .await
        .context("connecting for the yardstick")?;
    let sample = Sample {
        state: one(
            &mut conn,
            "SELECT state::text AS value FROM games WHERE state IS NOT NULL AND status = 'active' \
             ORDER BY updated_at DESC LIMIT 1",
            r#"{"round":1}"#,
        )
        .await,
        action: one(
            &mut conn,
            "SELECT action::text AS value FROM game_events WHERE actor = 'seat' ORDER BY created_at DESC LIMIT 1",
            r#"{"play":1}"#,
        )
        .await,
        description: one(
            &mut conn,
            "SELECT description AS value FROM game_events WHERE actor = 'seat' ORDER BY created_at DESC LIMIT 1",
            "Seat 0 plays",
        )
        .await,
        payload: one(
            &mut conn,
            "SELECT payload::text AS value FROM outbox WHERE kind = 'your_turn' ORDER BY id DESC LIMIT 1",
            "{}",
        )
        .await,
    };
    conn.batch_execute(
        "DROP SCHEMA IF EXISTS yardstick CASCADE;
         CREATE SCHEMA yardstick;
         CREATE TABLE yardstick.users (LIKE public.users INCLUDING ALL);
         CREATE TABLE yardstick.games (LIKE public.games INCLUDING ALL);
         CREATE TABLE yardstick.game_events (LIKE public.game_events INCLUDING ALL);
         CREATE TABLE yardstick.outbox (LIKE public.outbox INCLUDING ALL);
         ALTER TABLE yardstick.games ADD FOREIGN KEY (created_by) REFERENCES yardstick.users (id);
         ALTER TABLE yardstick.game_events ADD FOREIGN KEY (game_id) REFERENCES yardstick.games (id);
         ALTER TABLE yardstick.outbox ADD FOREIGN KEY (game_id) REFERENCES yardstick.games (id);
         ALTER TABLE yardstick.outbox ADD FOREIGN KEY (user_id) REFERENCES yardstick.users (id);
         INSERT INTO yardstick.users (id, email, display_name, password_hash)
             VALUES ('00000000-0000-4000-8000-000000000000', 'yardstick@loadgen.invalid', 'yardstick', '-');",
    )
    .await
    .context("creating the yardstick schema")?;
    let state = literal(&sample.state);
    // (`state` seeds the games; each transaction then rewrites the snapshot it read.)
    conn.batch_execute(&format!(
        "INSERT INTO yardstick.games (id, ruleset, options, seat_count, status, version, state, seed, seed_sha256, created_by)
         SELECT ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'yardstick', '{{}}', 3, 'active', 0,
                {state}::jsonb, '\\x00', '', '00000000-0000-4000-8000-000000000000'
         FROM generate_series(1, {clients}) AS n;
         ANALYZE yardstick.games;"
    ))
    .await
    .context("creating the yardstick games")?;
    // The lock also reads the snapshot (as the service's does) and hands back the values to
    // write as text, so the writes send them as parameters that PostgreSQL parses each time,
    // as it does the service's (a literal in a prepared statement would be parsed only once).
    let script = format!(
        "-- One submission's storage work (see src/loadgen/yardstick.rs).
\\set n :client_id + 1
BEGIN;
SELECT id AS gid, version + 1 AS seq, state::text AS snap, {action} AS act, {payload} AS mail FROM yardstick.games WHERE id = ('00000000-0000-4000-8000-' || lpad(:n::text, 12, '0'))::uuid FOR UPDATE \\gset
INSERT INTO yardstick.game_events (game_id, seq, actor, seat, kind, action, description, created_at) VALUES (:gid, :seq, 'seat', 0, 'action', :act, {description}, now());
UPDATE yardstick.games SET version = :seq, state = :snap, to_act = '{{1}}', updated_at = now(), waiting_since = now() WHERE id = :gid;
INSERT INTO yardstick.outbox (game_id, user_id, kind, payload, to_address, message_id) VALUES (:gid, '00000000-0000-4000-8000-000000000000', 'your_turn', :mail, 'yardstick@loadgen.invalid', '<yardstick>');
COMMIT;
",
        action = literal(&sample.action),
        description = literal(&sample.description),
        payload = literal(&sample.payload),
    );
    let path = dir.join("yardstick.sql");
    std::fs::write(&path, script).context("writing the pgbench script")?;
    Ok(path)
}

/// Runs pgbench with `clients` clients for `duration` and reads its per-transaction log.
pub async fn run(
    database_url: &str,
    clients: usize,
    duration: Duration,
    dir: &Path,
) -> anyhow::Result<Yardstick> {
    let pgbench =
        find_pgbench().context("pgbench not found (install PostgreSQL's client tools)")?;
    let script = prepare(database_url, clients, dir).await?;
    let prefix = dir.join("pgbench_log");
    let cpu_start = CpuTicks::now();
    let output = tokio::task::spawn_blocking({
        let (url, script, prefix) = (database_url.to_string(), script.clone(), prefix.clone());
        move || {
            // The password goes in the environment: a command line is visible to every user.
            let (url, password) = split_password(&url);
            let mut cmd = Command::new(pgbench);
            if let Some(password) = password {
                cmd.env("PGPASSWORD", password);
            }
            cmd.args(["--no-vacuum", "--protocol=prepared", "--jobs=2"])
                .arg(format!("--client={clients}"))
                .arg(format!("--time={}", duration.as_secs().max(1)))
                .arg(format!("--file={}", script.display()))
                .arg("--log")
                .arg(format!("--log-prefix={}", prefix.display()))
                .arg(url)
                .output()
        }
    })
    .await
    .context("pgbench task")?
    .context("running pgbench")?;
    let cpu_end = CpuTicks::now();
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        bail!(
            "pgbench failed: {}\n{stdout}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let tps = stdout
        .lines()
        .find_map(|l| l.strip_prefix("tps = "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|v| v.parse::<f64>().ok())
        .with_context(|| format!("no tps in pgbench's output:\n{stdout}"))?;
    let failed = stdout
        .lines()
        .find_map(|l| l.strip_prefix("number of failed transactions: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0);
    // Log lines: client_id transaction_no latency_us script_no epoch epoch_us.
    let mut latencies = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("pgbench_log"))
        {
            let text = std::fs::read_to_string(&path)?;
            latencies.extend(
                text.lines()
                    .filter_map(|l| l.split_whitespace().nth(2))
                    .filter_map(|v| v.parse::<u64>().ok()),
            );
            let _ = std::fs::remove_file(&path);
        }
    }
    let mut cleanup = AsyncPgConnection::establish(database_url).await?;
    cleanup
        .batch_execute("DROP SCHEMA IF EXISTS yardstick CASCADE")
        .await?;
    Ok(Yardstick {
        tps,
        transactions: latencies.len() as u64,
        p50_us: quantile(&mut latencies, 0.50).unwrap_or(0),
        p95_us: quantile(&mut latencies, 0.95).unwrap_or(0),
        p99_us: quantile(&mut latencies, 0.99).unwrap_or(0),
        failed,
        cpu_start,
        cpu_end,
    })
}

/// A `postgres://user:password@host/db` URL without its password, and the password
/// (percent-decoded), if it has one.
fn split_password(url: &str) -> (String, Option<String>) {
    let password = url.find("://").and_then(|scheme| {
        let at = url.rfind('@').filter(|at| *at > scheme)?;
        let (_, password) = url[scheme + 3..at].split_once(':')?;
        Some(percent_decode(password))
    });
    (crate::config::redact_url(url), password)
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = (bytes[i] == b'%')
            .then(|| text.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match hex {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::{literal, split_password};

    #[test]
    fn literals_hide_colons_quotes_and_backslashes_from_pgbench() {
        let l = literal(r#"{"a":"it's","b":"\\"}"#);
        assert!(!l[2..].contains(':'), "{l}");
        assert_eq!(l, r#"E'{"a"\x3a"it\'s","b"\x3a"\\\\"}'"#);
    }

    #[test]
    fn the_password_leaves_the_url() {
        assert_eq!(
            split_password("postgres://postgres:s%40cret@127.0.0.1:5433/postgres"),
            (
                "postgres://postgres@127.0.0.1:5433/postgres".to_owned(),
                Some("s@cret".to_owned())
            )
        );
        assert_eq!(
            split_password("postgres://postgres@127.0.0.1/db"),
            ("postgres://postgres@127.0.0.1/db".to_owned(), None)
        );
    }
}
