//! One submission's storage work — lock the game row, append an event, rewrite the snapshot,
//! enqueue an outbox row, commit — run by N concurrent clients for a fixed time through
//! (a) diesel-async with a deadpool pool, (b) sync diesel with r2d2, each transaction in
//! `spawn_blocking` (what actix's `web::block` does). Prints transactions/s and latencies.
//!
//! usage: DATABASE_URL=postgres://… pool-choice [clients=32] [seconds=10]

use std::time::{Duration, Instant};

use diesel::{Connection, PgConnection, QueryResult};
use diesel_async::pooled_connection::AsyncDieselConnectionManager;
use diesel_async::pooled_connection::deadpool::Pool;
use diesel_async::{AsyncConnection, AsyncPgConnection};

diesel::table! {
    pc_games (id) {
        id -> Int4,
        version -> Int8,
        state -> Jsonb,
    }
}

diesel::table! {
    pc_events (game_id, seq) {
        game_id -> Int4,
        seq -> Int8,
        action -> Jsonb,
    }
}

diesel::table! {
    pc_outbox (id) {
        id -> Int8,
        game_id -> Int4,
        payload -> Jsonb,
    }
}

const SETUP: &str = "
DROP TABLE IF EXISTS pc_games, pc_events, pc_outbox;
CREATE TABLE pc_games (id int PRIMARY KEY, version bigint NOT NULL, state jsonb NOT NULL);
CREATE TABLE pc_events (game_id int, seq bigint, action jsonb NOT NULL, PRIMARY KEY (game_id, seq));
CREATE TABLE pc_outbox (id bigserial PRIMARY KEY, game_id int, payload jsonb NOT NULL);
INSERT INTO pc_games SELECT g, 0, '{}'::jsonb FROM generate_series(0, 1023) g;
";

fn snapshot() -> serde_json::Value {
    // About the size of a mid-game bag-of-fate snapshot.
    serde_json::json!({"players": (0..5).map(|i| serde_json::json!({"seat": i, "hand": [1, 2, 3], "level": 2, "face_up": [4, 5, 6, 7]})).collect::<Vec<_>>(), "bag": vec![0; 40], "deck": vec![1; 50]})
}

/// CPU time (user + system) this process has used so far.
fn cpu_time() -> Duration {
    // SAFETY: getrusage fills the struct it is given; a zeroed rusage is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn report(name: &str, mut lat: Vec<Duration>, elapsed: Duration, cpu: Duration) {
    let per_tx_us = cpu.as_secs_f64() * 1e6 / lat.len().max(1) as f64;
    lat.sort();
    let q = |p: f64| lat[((lat.len() as f64 - 1.0) * p) as usize].as_secs_f64() * 1000.0;
    println!(
        "{name:>30}: {:>7.0} tx/s   p50 {:.2} ms   p95 {:.2} ms   p99 {:.2} ms   client CPU {per_tx_us:.0} µs/tx   ({} tx)",
        lat.len() as f64 / elapsed.as_secs_f64(),
        q(0.50),
        q(0.95),
        q(0.99),
        lat.len()
    );
}

async fn run_async(url: &str, clients: usize, secs: u64) -> anyhow::Result<()> {
    use diesel_async::RunQueryDsl;
    let pool = Pool::builder(AsyncDieselConnectionManager::<AsyncPgConnection>::new(url))
        .max_size(clients)
        .build()?;
    let cpu0 = cpu_time();
    let start = Instant::now();
    let deadline = start + Duration::from_secs(secs);
    let mut tasks = vec![];
    for c in 0..clients {
        let pool = pool.clone();
        tasks.push(tokio::spawn(async move {
            let mut lat = vec![];
            let mut i = 0i32;
            while Instant::now() < deadline {
                let game = (c as i32 * 32 + i % 32) % 1024;
                i += 1;
                let t = Instant::now();
                let mut conn = pool.get().await.expect("pool");
                conn.transaction::<_, diesel::result::Error, _>(async |conn| {
                    use diesel::{ExpressionMethods, QueryDsl};
                    let version: i64 = pc_games::table
                        .find(game)
                        .select(pc_games::version)
                        .for_update()
                        .first(conn)
                        .await?;
                    diesel::insert_into(pc_events::table)
                        .values((
                            pc_events::game_id.eq(game),
                            pc_events::seq.eq(version + 1),
                            pc_events::action.eq(serde_json::json!({"play_card": 2})),
                        ))
                        .execute(conn)
                        .await?;
                    diesel::update(pc_games::table.find(game))
                        .set((pc_games::version.eq(version + 1), pc_games::state.eq(snapshot())))
                        .execute(conn)
                        .await?;
                    diesel::insert_into(pc_outbox::table)
                        .values((
                            pc_outbox::game_id.eq(game),
                            pc_outbox::payload.eq(serde_json::json!({"kind": "your_turn"})),
                        ))
                        .execute(conn)
                        .await?;
                    Ok(())
                })
                .await
                .expect("transaction");
                lat.push(t.elapsed());
            }
            lat
        }));
    }
    let mut all = vec![];
    for t in tasks {
        all.extend(t.await?);
    }
    report("diesel-async + deadpool", all, start.elapsed(), cpu_time() - cpu0);
    Ok(())
}

fn sync_tx(conn: &mut PgConnection, game: i32) -> QueryResult<()> {
    use diesel::{ExpressionMethods, QueryDsl, RunQueryDsl};
    conn.transaction(|conn| {
        let version: i64 = pc_games::table
            .find(game)
            .select(pc_games::version)
            .for_update()
            .first(conn)?;
        diesel::insert_into(pc_events::table)
            .values((
                pc_events::game_id.eq(game),
                pc_events::seq.eq(version + 1),
                pc_events::action.eq(serde_json::json!({"play_card": 2})),
            ))
            .execute(conn)?;
        diesel::update(pc_games::table.find(game))
            .set((pc_games::version.eq(version + 1), pc_games::state.eq(snapshot())))
            .execute(conn)?;
        diesel::insert_into(pc_outbox::table)
            .values((
                pc_outbox::game_id.eq(game),
                pc_outbox::payload.eq(serde_json::json!({"kind": "your_turn"})),
            ))
            .execute(conn)?;
        Ok(())
    })
}

async fn run_sync(url: &str, clients: usize, secs: u64) -> anyhow::Result<()> {
    let manager = diesel::r2d2::ConnectionManager::<PgConnection>::new(url);
    let pool = diesel::r2d2::Pool::builder().max_size(clients as u32).build(manager)?;
    let cpu0 = cpu_time();
    let start = Instant::now();
    let deadline = start + Duration::from_secs(secs);
    let mut tasks = vec![];
    for c in 0..clients {
        let pool = pool.clone();
        tasks.push(tokio::spawn(async move {
            let mut lat = vec![];
            let mut i = 0i32;
            while Instant::now() < deadline {
                let game = (c as i32 * 32 + i % 32) % 1024;
                i += 1;
                let t = Instant::now();
                let pool = pool.clone();
                tokio::task::spawn_blocking(move || {
                    let mut conn = pool.get().expect("pool");
                    sync_tx(&mut conn, game).expect("transaction");
                })
                .await
                .expect("join");
                lat.push(t.elapsed());
            }
            lat
        }));
    }
    let mut all = vec![];
    for t in tasks {
        all.extend(t.await?);
    }
    report("diesel + r2d2 (spawn_blocking)", all, start.elapsed(), cpu_time() - cpu0);
    Ok(())
}

fn main() -> anyhow::Result<()> {
    // TOKIO_WORKERS sets the async runtime's threads (default: one per core).
    let mut rt = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = std::env::var("TOKIO_WORKERS").ok().and_then(|v| v.parse().ok()) {
        rt.worker_threads(n);
    }
    rt.enable_all().build()?.block_on(run())
}

async fn run() -> anyhow::Result<()> {
    let url = std::env::var("DATABASE_URL")?;
    let args: Vec<String> = std::env::args().collect();
    let clients: usize = args.get(1).map(|s| s.parse()).transpose()?.unwrap_or(32);
    let secs: u64 = args.get(2).map(|s| s.parse()).transpose()?.unwrap_or(10);
    {
        let mut conn = PgConnection::establish(&url)?;
        diesel::connection::SimpleConnection::batch_execute(&mut conn, SETUP)?;
    }
    println!("{clients} clients, {secs} s each, 1024 games");
    for _ in 0..2 {
        run_async(&url, clients, secs).await?;
        run_sync(&url, clients, secs).await?;
    }
    Ok(())
}
