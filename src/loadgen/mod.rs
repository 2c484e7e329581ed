//! `turnpost loadgen`: plays many games over HTTP as real clients do and measures the
//! service against its database (issue 7; figures in docs/BENCHMARKS.md).
//!
//! Scenarios (`--scenario`, default `throughput`):
//! - `throughput`: `--clients` concurrent clients, each with its own players, register, create
//!   a game, seat the others, then act from the `legal_actions` of the state with
//!   `expected_version` (reading `GET …/state` only when the last reply was not already the
//!   next actor's state) until `--duration` or `--max-requests` runs out, starting a new game
//!   when one ends. Prints throughput and p50/p95/p99 latency per endpoint; then, unless
//!   `--no-pgbench`, runs the pgbench yardstick on the same database at the same
//!   concurrency and prints submissions/s ÷ pgbench's transactions/s.
//! - `growth`: one client plays one long game and times `--samples` submissions at each
//!   history length in `--history` (default 10,1000,10000). Before each length is timed it
//!   runs `VACUUM (ANALYZE)` on the service's tables (unless `--no-settle`), standing in for
//!   the autovacuum of the weeks a real game takes to get there: played back to back, the
//!   game's one row has just been rewritten thousands of times in seconds.
//! - `memory`: creates `--games` active games (default 10,000), reads each one's state once,
//!   and reports the server's resident memory (only for a server started here).
//! - `streams`: holds `--streams` event streams open (default 1,000: half account streams, half
//!   one game's), reports the server's resident memory before and with them open, and checks
//!   that one move reaches every game stream (only for a server started here).
//! - `all`: the four in turn, against one server.
//!
//! With no `--url` the load generator starts `turnpost serve` itself on loopback, against
//! `--database-url` (`DATABASE_URL`) or, if none is given, a private durable PostgreSQL
//! cluster (fsync on) in a temporary directory that it removes afterwards. Every loop is
//! bounded by a duration or a count.

mod client;
mod server;
pub mod stats;
mod streams;
mod yardstick;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use futures_util::future::join_all;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::pg::Cluster;
use client::{Api, Player, Seen};
use server::Server;
use stats::{CpuTicks, Recorder, quantile};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    Throughput,
    Growth,
    Memory,
    Streams,
    All,
}

#[derive(clap::Args, Clone, Debug)]
pub struct LoadArgs {
    /// What to measure.
    #[arg(long, value_enum, default_value_t = Scenario::Throughput)]
    pub scenario: Scenario,
    /// A running server to load (e.g. http://127.0.0.1:8080); by default one is started here.
    #[arg(long)]
    pub url: Option<String>,
    /// The database of the server started here, and of the pgbench yardstick. Default: a
    /// private durable cluster in a temporary directory. With `--url`, the database of that
    /// server: the players' registrations are confirmed with the links read from its outbox.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Concurrent clients (each plays its own game).
    #[arg(long, default_value_t = 32)]
    pub clients: usize,
    /// How long the throughput run (and the pgbench run) lasts, in seconds.
    #[arg(long, default_value_t = 20)]
    pub duration: u64,
    /// The most requests the throughput run sends.
    #[arg(long, default_value_t = 1_000_000)]
    pub max_requests: u64,
    /// Ruleset played by the throughput and memory scenarios.
    #[arg(long, default_value = "bag-of-fate")]
    pub ruleset: String,
    /// Seats per game.
    #[arg(long, default_value_t = 3)]
    pub seats: usize,
    /// Game options (JSON).
    #[arg(long, default_value = "{}")]
    pub options: String,
    /// Skip the pgbench yardstick.
    #[arg(long)]
    pub no_pgbench: bool,
    /// Connections in the pool of the server started here.
    #[arg(long, default_value_t = 16)]
    pub pool_size: usize,
    /// The data directory of the server started here, where its mail worker writes `.eml`
    /// files (default: a new directory under /dev/shm, removed at the end, so that the files'
    /// writes stay off the database's disk as mail sent to an SMTP relay would; beside the
    /// database where there is no /dev/shm).
    #[arg(long)]
    pub server_data_dir: Option<PathBuf>,
    /// Growth: the history lengths to time submissions at.
    #[arg(long, value_delimiter = ',', default_values_t = [10u64, 1_000, 10_000])]
    pub history: Vec<u64>,
    /// Growth: submissions timed at each history length.
    #[arg(long, default_value_t = 200)]
    pub samples: usize,
    /// Growth: do not `VACUUM (ANALYZE)` the service's tables before each history length is
    /// timed (so the figure also counts the dead row versions of the burst of updates that
    /// got the game there).
    #[arg(long)]
    pub no_settle: bool,
    /// Growth: the ruleset of the long game.
    #[arg(long, default_value = "gnomes-and-wizards")]
    pub growth_ruleset: String,
    /// Growth: its options (JSON).
    #[arg(long, default_value = "{}")]
    pub growth_options: String,
    /// Growth: its seats.
    #[arg(long, default_value_t = 4)]
    pub growth_seats: usize,
    /// Memory: active games to create.
    #[arg(long, default_value_t = 10_000)]
    pub games: usize,
    /// Streams: event streams to hold open at once.
    #[arg(long, default_value_t = 1_000)]
    pub streams: usize,
    /// Seed of the clients' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Where the database and server under load come from, and what to clean up.
struct Target {
    api: Api,
    server: Option<Server>,
    cluster: Option<Cluster>,
    database_url: Option<String>,
    dir: PathBuf,
    /// The started server's data directory when it is outside `dir` (removed at the end).
    server_dir: Option<PathBuf>,
}

impl Target {
    async fn open(args: &LoadArgs) -> anyhow::Result<Target> {
        let dir = std::env::temp_dir().join(format!("turnpost-loadgen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        if let Some(url) = &args.url {
            return Ok(Target {
                api: Api::new(url)?,
                server: None,
                cluster: None,
                database_url: args.database_url.clone(),
                dir,
                server_dir: None,
            });
        }
        let (cluster, database_url) = match &args.database_url {
            Some(url) => (None, url.clone()),
            None => {
                eprintln!(
                    "starting a private PostgreSQL cluster (fsync on) in {}",
                    dir.display()
                );
                let cluster = Cluster::start(&dir.join("pg")).context("starting PostgreSQL")?;
                let url = cluster.url("postgres");
                (Some(cluster), url)
            }
        };
        let (data_dir, server_dir) = match &args.server_data_dir {
            Some(d) => (d.clone(), None),
            None => {
                let d = default_server_dir(&dir);
                let own = (!d.starts_with(&dir)).then(|| d.clone());
                (d, own)
            }
        };
        eprintln!("the server writes its mail under {}", data_dir.display());
        let server = Server::start(&database_url, &data_dir, args.pool_size).await?;
        eprintln!(
            "started turnpost serve (pid {}) at {}",
            server.pid(),
            server.url
        );
        Ok(Target {
            api: Api::new(&server.url)?,
            server: Some(server),
            cluster,
            database_url: Some(database_url),
            dir,
            server_dir,
        })
    }

    fn close(mut self) {
        if let Some(mut s) = self.server.take() {
            s.stop();
        }
        if let Some(mut c) = self.cluster.take()
            && let Err(e) = c.stop()
        {
            eprintln!("stopping the private cluster: {e}");
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some(d) = &self.server_dir {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

/// Where the started server keeps its data (its `.eml` mail): a RAM-backed directory when
/// the machine has `/dev/shm`, else beside the database. In production mail leaves by SMTP; the
/// file transport stands in for the relay, and on the database's disk its thousands of small
/// files slowed the database's own fsyncs (ext4 commits their metadata together), a cost that
/// grew with the number of files (+34 % submission latency at 10,000 entries; flat without).
fn default_server_dir(dir: &std::path::Path) -> PathBuf {
    let shm = std::path::Path::new("/dev/shm");
    if shm.is_dir() {
        shm.join(format!("turnpost-loadgen-{}", std::process::id()))
    } else {
        dir.join("data")
    }
}

/// Runs the chosen scenario(s) and prints the report on stdout.
pub async fn run(args: LoadArgs) -> anyhow::Result<()> {
    if args.clients == 0 || args.seats == 0 {
        bail!("--clients and --seats must be at least 1");
    }
    // Each client connection and open stream is a file descriptor.
    crate::fdlimit::raise_open_files_limit();
    let options: Value = serde_json::from_str(&args.options).context("--options is not JSON")?;
    let target = Target::open(&args).await?;
    let result = scenarios(&args, &options, &target).await;
    target.close();
    result
}

async fn scenarios(args: &LoadArgs, options: &Value, target: &Target) -> anyhow::Result<()> {
    let all = args.scenario == Scenario::All;
    if all || args.scenario == Scenario::Throughput {
        throughput(args, options, target).await?;
    }
    if all || args.scenario == Scenario::Growth {
        growth(args, target).await?;
    }
    if all || args.scenario == Scenario::Memory {
        memory(args, options, target).await?;
    }
    if all || args.scenario == Scenario::Streams {
        streams::streams(args, options, target).await?;
    }
    Ok(())
}

/// Registers `n` players named after `prefix`, `parallel` at a time, and confirms each
/// registration with the link mailed to it, read from the outbox of the target's database
/// (the load generator has no mailbox): so it needs the database (`--database-url` for a
/// server given by `--url`).
async fn players(
    api: &Api,
    target: &Target,
    rec: &mut Recorder,
    prefix: &str,
    n: usize,
) -> anyhow::Result<Vec<Player>> {
    let Some(url) = &target.database_url else {
        anyhow::bail!(
            "registering players needs the server's database, to read the confirmation \
             links it mails: give --database-url"
        );
    };
    let mut out = Vec::with_capacity(n);
    let run = format!("{prefix}-{}", uuid::Uuid::new_v4().simple());
    for chunk in (0..n).collect::<Vec<_>>().chunks(8) {
        let names: Vec<String> = chunk.iter().map(|i| format!("{run}-{i}")).collect();
        let mut recs: Vec<Recorder> = chunk.iter().map(|_| Recorder::default()).collect();
        let registered = join_all(
            names
                .iter()
                .zip(recs.iter_mut())
                .map(|(name, r)| api.register(r, name)),
        )
        .await;
        for r in registered {
            r?;
        }
        let tokens = confirmation_tokens(url, &names).await?;
        let made = join_all(
            tokens
                .iter()
                .zip(recs.iter_mut())
                .map(|(token, r)| api.confirm(r, token)),
        )
        .await;
        for r in recs {
            rec.merge(r);
        }
        for p in made {
            out.push(p?);
        }
    }
    Ok(out)
}

/// The confirmation links' tokens of the registrations of `names`, in order, from the
/// outbox rows of their mail.
async fn confirmation_tokens(url: &str, names: &[String]) -> anyhow::Result<Vec<String>> {
    use diesel::sql_types::{Array, Jsonb, Text};
    use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = Text)]
        to_address: String,
        #[diesel(sql_type = Jsonb)]
        payload: Value,
    }
    let addresses: Vec<String> = names.iter().map(|n| client::address_of(n)).collect();
    let mut conn = AsyncPgConnection::establish(url)
        .await
        .context("connecting to the database for the confirmation links")?;
    let rows: Vec<Row> = diesel::sql_query(
        "SELECT to_address, payload FROM outbox \
         WHERE kind = 'confirm_registration' AND to_address = ANY($1)",
    )
    .bind::<Array<Text>, _>(&addresses)
    .load(&mut conn)
    .await
    .context("reading the confirmation links")?;
    addresses
        .iter()
        .map(|a| {
            rows.iter()
                .find(|r| &r.to_address == a)
                .and_then(|r| crate::service::registration::link_token(&r.payload))
                .with_context(|| format!("no confirmation mail to {a}"))
        })
        .collect()
}

/// Marks the load generator's players' addresses as verified, straight in the database (when
/// it is known), so that they get "your turn" mail as real players do: every submission that
/// hands the turn to another seat then renders and enqueues a mail, as in production.
async fn verify_players(target: &Target) -> anyhow::Result<()> {
    on_database(
        target,
        "verifying the players",
        "UPDATE users SET email_verified_at = now() \
         WHERE email LIKE '%@loadgen.invalid' AND email_verified_at IS NULL",
    )
    .await
}

/// Runs `sql` on the target's database, if the load generator knows it.
async fn on_database(target: &Target, what: &str, sql: &str) -> anyhow::Result<()> {
    use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
    let Some(url) = &target.database_url else {
        return Ok(());
    };
    let mut conn = AsyncPgConnection::establish(url)
        .await
        .with_context(|| format!("connecting to the database for {what}"))?;
    conn.batch_execute(sql)
        .await
        .with_context(|| what.to_owned())?;
    Ok(())
}

/// One client of the throughput run: plays games until the time or the request budget is up.
async fn play_client(
    api: &Api,
    args: &LoadArgs,
    options: &Value,
    seats: &[Player],
    client: usize,
    deadline: Instant,
    budget: &std::cell::Cell<u64>,
) -> anyhow::Result<(Recorder, u64)> {
    let mut rec = Recorder::default();
    let mut rng = ChaCha8Rng::seed_from_u64(
        args.seed
            .wrapping_mul(1_000_003)
            .wrapping_add(client as u64),
    );
    let mut games = 0u64;
    let take = |n: u64| {
        let left = budget.get();
        if left < n || Instant::now() >= deadline {
            return false;
        }
        budget.set(left - n);
        true
    };
    'games: while take(seats.len() as u64) {
        let game = api
            .new_game(&mut rec, &args.ruleset, options, seats)
            .await?;
        games += 1;
        let mut seen: Option<Seen> = None;
        loop {
            // The next actor's state: the last reply if it was already theirs, else a GET.
            let (seat, state) = match seen.as_ref().and_then(|s| s.next_seat(&mut rng)) {
                Some((seat, true)) => (seat, seen.take().context("state")?),
                other => {
                    if seen.as_ref().is_some_and(|s| s.finished) {
                        continue 'games;
                    }
                    let seat = other.map_or(0, |(s, _)| s);
                    if !take(1) {
                        break 'games;
                    }
                    let s = api.state(&mut rec, &game, &seats[seat]).await?;
                    if s.finished {
                        continue 'games;
                    }
                    match s.seat {
                        Some(me) if s.to_act.contains(&me) => (me, s),
                        _ => {
                            // Not this seat's decision (a fresh game): look at who acts.
                            seen = Some(s);
                            continue;
                        }
                    }
                }
            };
            let Some(action) = state.pick(&mut rng) else {
                bail!("game {game}: seat {seat} is to act but has no legal action");
            };
            if !take(1) {
                break 'games;
            }
            let (next, _) = api
                .submit(&mut rec, &game, &seats[seat], state.version, &action)
                .await?;
            seen = Some(next);
        }
    }
    Ok((rec, games))
}

async fn throughput(args: &LoadArgs, options: &Value, target: &Target) -> anyhow::Result<()> {
    let api = &target.api;
    println!(
        "== throughput: {} clients, {} s or {} requests, {} with {} seats ==",
        args.clients, args.duration, args.max_requests, args.ruleset, args.seats
    );
    let setup_start = Instant::now();
    let mut setup = Recorder::default();
    let mut tables = Vec::new();
    for c in 0..args.clients {
        tables.push(players(api, target, &mut setup, &format!("c{c}"), args.seats).await?);
    }
    let setup_wall = setup_start.elapsed();
    verify_players(target).await?;
    println!(
        "setup: {} players registered in {:.1} s",
        args.clients * args.seats,
        setup_wall.as_secs_f64()
    );
    print!("{}", setup.table(setup_wall));

    let budget = std::cell::Cell::new(args.max_requests);
    let cpu_start = CpuTicks::now();
    let start = Instant::now();
    let deadline = start + Duration::from_secs(args.duration);
    let results = join_all(
        tables
            .iter()
            .enumerate()
            .map(|(c, seats)| play_client(api, args, options, seats, c, deadline, &budget)),
    )
    .await;
    let wall = start.elapsed();
    let cpu_end = CpuTicks::now();
    let mut rec = Recorder::default();
    let mut games = 0;
    for r in results {
        let (r, g) = r?;
        rec.merge(r);
        games += g;
    }
    let submissions = rec.count(client::SUBMIT);
    let rate = submissions as f64 / wall.as_secs_f64();
    let p99 = rec
        .endpoints
        .get_mut(client::SUBMIT)
        .and_then(|s| s.quantile(0.99))
        .unwrap_or(0);
    println!("play: {:.1} s, {games} games started", wall.as_secs_f64());
    print!("{}", rec.table(wall));
    println!(
        "submissions: {rate:.1}/s, p99 {:.2} ms",
        p99 as f64 / 1000.0
    );
    let requests: usize = rec.endpoints.values().map(|s| s.micros.len()).sum();
    print_cpu(
        "play",
        cpu_start,
        cpu_end,
        &[
            ("submission", submissions as u64),
            ("request", requests as u64),
        ],
    );

    if args.no_pgbench {
        return Ok(());
    }
    let Some(url) = &target.database_url else {
        println!("yardstick: skipped (give --database-url for a server given by --url)");
        return Ok(());
    };
    let y = yardstick::run(
        url,
        args.clients,
        Duration::from_secs(args.duration),
        &target.dir,
    )
    .await?;
    println!(
        "yardstick (pgbench, {} clients, {} s): {:.1} tx/s, {} transactions, p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, {} failed",
        args.clients,
        args.duration,
        y.tps,
        y.transactions,
        y.p50_us as f64 / 1000.0,
        y.p95_us as f64 / 1000.0,
        y.p99_us as f64 / 1000.0,
        y.failed
    );
    print_cpu(
        "yardstick",
        y.cpu_start,
        y.cpu_end,
        &[("transaction", y.transactions)],
    );
    println!(
        "ratio: turnpost submissions/s ÷ pgbench tx/s = {:.2} (target ≥ 0.65; p99 {:.2} ms, target < 50 ms)",
        rate / y.tps.max(1e-9),
        p99 as f64 / 1000.0
    );
    // The same comparison by CPU cost (what the throughputs come to when both phases keep the
    // machine busy), from this run's own processes only: it holds when something else runs.
    if let (Some((s0, s1)), Some((y0, y1))) = (cpu_start.zip(cpu_end), y.cpu_start.zip(y.cpu_end))
        && let (Some(sub), Some(tx)) = (
            s1.own_per_op_since(s0, submissions as u64),
            y1.own_per_op_since(y0, y.transactions),
        )
    {
        println!(
            "cost ratio: pgbench CPU per transaction ÷ turnpost CPU per submission = {:.2} ({tx:.3} ms ÷ {sub:.3} ms, own processes)",
            tx / sub.max(1e-9)
        );
    }
    Ok(())
}

/// Prints the machine's CPU use over a phase (every process: server, PostgreSQL, clients)
/// per operation of each kind given.
fn print_cpu(phase: &str, start: Option<CpuTicks>, end: Option<CpuTicks>, ops: &[(&str, u64)]) {
    let (Some(start), Some(end)) = (start, end) else {
        return;
    };
    let per: Vec<String> = ops
        .iter()
        .filter_map(|(what, n)| {
            end.per_op_since(start, *n)
                .map(|(ms, _)| format!("{ms:.3} ms per {what}"))
        })
        .collect();
    if let Some((_, busy)) = end.per_op_since(start, 1) {
        println!(
            "{phase} CPU (whole machine): {:.0} % busy, {}",
            busy * 100.0,
            per.join(", ")
        );
    }
    let own: Vec<String> = ops
        .iter()
        .filter_map(|(what, n)| {
            end.own_per_op_since(start, *n)
                .map(|ms| format!("{ms:.3} ms per {what}"))
        })
        .collect();
    if !own.is_empty() {
        println!(
            "{phase} CPU (this run's own processes: server, its PostgreSQL, clients, pgbench): {}",
            own.join(", ")
        );
    }
}

/// `VACUUM (ANALYZE)` of the tables a submission touches.
async fn settle(target: &Target) -> anyhow::Result<()> {
    on_database(
        target,
        "settling the tables",
        "VACUUM (ANALYZE) games, game_events, outbox, seats, users",
    )
    .await
}

/// One long game: times `--samples` submissions at each history length.
async fn growth(args: &LoadArgs, target: &Target) -> anyhow::Result<()> {
    let api = &target.api;
    let mut marks = args.history.clone();
    marks.sort_unstable();
    println!(
        "== growth: one {} game with {} seats, {} submissions timed at each history length {:?} ==",
        args.growth_ruleset, args.growth_seats, args.samples, marks
    );
    let mut rec = Recorder::default();
    let seats = players(api, target, &mut rec, "growth", args.growth_seats).await?;
    verify_players(target).await?;
    let options: Value =
        serde_json::from_str(&args.growth_options).context("--growth-options is not JSON")?;
    // The timed game; a game that ends before the last mark is replaced (at most 10 times).
    let mut outcome = None;
    'games: for _ in 0..10 {
        let game = api
            .new_game(&mut rec, &args.growth_ruleset, &options, &seats)
            .await?;
        let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
        let mut timed: Vec<(u64, u64, Vec<u64>)> = Vec::new(); // (mark, first version, latencies)
        let mut mark = 0;
        let mut settled = 0; // marks reached (and settled, unless --no-settle)
        let mut seen: Option<Seen> = None;
        let start = Instant::now();
        // Bounded: the last mark plus its samples, with room for chance steps between.
        let limit = marks.last().copied().unwrap_or(0) * 2 + args.samples as u64 * 4 + 1_000;
        for _ in 0..limit {
            if mark >= marks.len() {
                break;
            }
            let (seat, state) = match seen.as_ref().and_then(|s| s.next_seat(&mut rng)) {
                Some((seat, true)) => (seat, seen.take().context("state")?),
                other => {
                    let seat = other.map_or(0, |(s, _)| s);
                    let s = api.state(&mut rec, &game, &seats[seat]).await?;
                    if s.finished {
                        // Games end by the rules at times: play another, from the start.
                        println!(
                            "(game {game} ended at version {} before history {}; starting another)",
                            s.version, marks[mark]
                        );
                        continue 'games;
                    }
                    match s.seat {
                        Some(me) if s.to_act.contains(&me) => (me, s),
                        _ => {
                            seen = Some(s);
                            continue;
                        }
                    }
                }
            };
            let action = state.pick(&mut rng).context("no legal action")?;
            let at = u64::try_from(state.version).unwrap_or(0);
            let (next, took) = api
                .submit(&mut rec, &game, &seats[seat], state.version, &action)
                .await?;
            if at >= marks[mark] {
                if timed.len() <= mark {
                    timed.push((marks[mark], at, Vec::new()));
                }
                if settled < mark + 1 {
                    settled = mark + 1;
                    if !args.no_settle {
                        settle(target).await?;
                        // The submission that reached the mark is not timed; the ones after are.
                        seen = Some(next);
                        continue;
                    }
                }
                let t = &mut timed[mark];
                t.2.push(u64::try_from(took.as_micros()).unwrap_or(u64::MAX));
                if t.2.len() >= args.samples {
                    mark += 1;
                }
            }
            seen = Some(next);
        }
        if mark < marks.len() {
            bail!(
                "the growth game did not reach history {} within {limit} steps",
                marks[mark]
            );
        }
        outcome = Some((timed, start));
        break;
    }
    let Some((timed, start)) = outcome else {
        bail!(
            "ten {} games in a row ended before history {}; try other --growth-options",
            args.growth_ruleset,
            marks.last().copied().unwrap_or(0)
        );
    };
    println!(
        "played to version {} in {:.1} s",
        timed.last().map_or(0, |t| t.1),
        start.elapsed().as_secs_f64()
    );
    println!(
        "{:>10} {:>10} {:>9} {:>9} {:>9} {:>9}",
        "history", "from seq", "mean ms", "p50 ms", "p95 ms", "p99 ms"
    );
    let mut first_p50 = None;
    for (m, from, mut l) in timed {
        let mean = l.iter().sum::<u64>() as f64 / l.len().max(1) as f64 / 1000.0;
        let p50 = quantile(&mut l, 0.50).unwrap_or(0);
        let p95 = quantile(&mut l, 0.95).unwrap_or(0);
        let p99 = quantile(&mut l, 0.99).unwrap_or(0);
        let base = *first_p50.get_or_insert(p50);
        println!(
            "{m:>10} {from:>10} {mean:>9.2} {:>9.2} {:>9.2} {:>9.2}   p50 {:+.0}% vs the first",
            p50 as f64 / 1000.0,
            p95 as f64 / 1000.0,
            p99 as f64 / 1000.0,
            (p50 as f64 / base.max(1) as f64 - 1.0) * 100.0
        );
    }
    Ok(())
}

/// Creates `--games` active games and reports the server's resident memory.
async fn memory(args: &LoadArgs, options: &Value, target: &Target) -> anyhow::Result<()> {
    let api = &target.api;
    println!(
        "== memory: {} active {} games with {} seats ==",
        args.games, args.ruleset, args.seats
    );
    let Some(server) = &target.server else {
        println!("memory: skipped (the server's memory is read only for a server started here)");
        return Ok(());
    };
    let before = server.rss_bytes()?;
    let mut rec = Recorder::default();
    let seats = players(api, target, &mut rec, "memory", args.seats).await?;
    verify_players(target).await?;
    let start = Instant::now();
    let mut ids = Vec::with_capacity(args.games);
    let parallel = args.clients.max(1);
    let mut made = 0;
    while made < args.games {
        let n = parallel.min(args.games - made);
        let mut recs: Vec<Recorder> = (0..n).map(|_| Recorder::default()).collect();
        let created = join_all(
            recs.iter_mut()
                .map(|r| api.new_game(r, &args.ruleset, options, &seats)),
        )
        .await;
        for r in recs {
            rec.merge(r);
        }
        for id in created {
            ids.push(id?);
        }
        made += n;
    }
    let created = server.rss_bytes()?;
    // Every game read once by the player at seat 0 (caches, if any, now hold every game).
    for chunk in ids.chunks(parallel) {
        let mut recs: Vec<Recorder> = (0..chunk.len()).map(|_| Recorder::default()).collect();
        let read = join_all(
            chunk
                .iter()
                .zip(recs.iter_mut())
                .map(|(id, r)| api.state(r, id, &seats[0])),
        )
        .await;
        for r in recs {
            rec.merge(r);
        }
        for s in read {
            s?;
        }
    }
    let after = server.rss_bytes()?;
    let wall = start.elapsed();
    print!("{}", rec.table(wall));
    let mb = |b: u64| b as f64 / (1024.0 * 1024.0);
    println!(
        "server RSS: {:.1} MB at start, {:.1} MB with {} active games created, {:.1} MB after reading each once (target < 200 MB)",
        mb(before),
        mb(created),
        ids.len(),
        mb(after)
    );
    Ok(())
}
