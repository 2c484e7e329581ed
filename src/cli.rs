//! The `turnpost` command line: serve (default), worker, migrate, replay, account, openapi,
//! loadgen, pace, duel, bot-serve. The binary (`src/main.rs`) only chooses the allocator and calls
//! [`main`]; the command line lives in the library so that the tests run it from their own
//! executable instead of building the crate a second time for a binary.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Parser, Subcommand};
use uuid::Uuid;

use crate::app::{Application, Database, Role, services};
use crate::config::Settings;

#[derive(Parser)]
#[command(
    name = "turnpost",
    version,
    about = "Play-by-email turn service for asynchronous board games"
)]
struct Cli {
    /// Settings file (default: ./turnpost.toml if it exists).
    #[arg(long, global = true, env = "TURNPOST_CONFIG")]
    config: Option<PathBuf>,
    /// Data directory: private PostgreSQL cluster, mail files, generated secrets.
    #[arg(long, global = true, env = "TURNPOST_DATA_DIR")]
    data_dir: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP API (the default command).
    Serve {
        /// Address to listen on.
        #[arg(long, env = "TURNPOST_ADDR")]
        addr: Option<SocketAddr>,
    },
    /// Apply pending database migrations and exit.
    Migrate,
    /// Send the mail outbox and deliver webhooks, without serving HTTP (any number may run
    /// against one database).
    Worker,
    /// Refold a game's log from scratch and compare it with its stored snapshot (`--all`:
    /// every game of the database, e.g. after a restore; fails if any does not refold).
    Replay {
        /// The game's id.
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        game_id: Option<Uuid>,
        /// Every game instead of one.
        #[arg(long)]
        all: bool,
    },
    /// Accounts, for operators.
    #[command(subcommand)]
    Account(AccountCommand),
    /// Print the OpenAPI document (YAML).
    Openapi,
    /// Load-test a server over HTTP (one started here by default) and compare it with pgbench.
    Loadgen(Box<crate::loadgen::LoadArgs>),
    /// Measure the pace of games by mail (decisions, forced choices, replies per player per
    /// game) with the built-in bot in every seat; prints the table of docs/MAIL.md. No
    /// database, no network.
    Pace {
        /// Seeded games per ruleset and seat count.
        #[arg(long, default_value_t = 6)]
        games: u64,
        /// Only these rulesets (repeatable; default all).
        #[arg(long = "ruleset")]
        rulesets: Vec<String>,
        /// Only these seat counts (repeatable; default 2 to 4).
        #[arg(long = "seats")]
        seats: Vec<usize>,
    },
    /// Measure how well the built-in bot plays: seeded two-seat games per ruleset against a
    /// random player, this bot, or another build's bot; prints the table of docs/BOTS.md. No
    /// database, no network.
    Duel {
        /// Seeded games per ruleset (the bot at seat 1 in half of them).
        #[arg(long, default_value_t = 200)]
        games: u64,
        /// Only these rulesets (repeatable; default all).
        #[arg(long = "ruleset")]
        rulesets: Vec<String>,
        /// The opponent: `random`, `self` (this build's bot) or `exec:CMD` (a command that
        /// answers as `turnpost bot-serve` does, e.g. `exec:/path/to/old/turnpost bot-serve`).
        #[arg(long, default_value = "random")]
        against: crate::service::duel::Against,
    },
    /// Answer bot requests (JSON lines on stdin, one answer line each on stdout) with this
    /// build's bot, for `turnpost duel --against exec:CMD`.
    BotServe,
}

#[derive(Subcommand)]
enum AccountCommand {
    /// Create an account at once, without the confirmation mail that registering sends (for
    /// bots, tests and operators with no mailbox at hand), and print a login token as
    /// registering's confirmation answers it (JSON on the last line of standard output:
    /// token, expires_at, user). The password is
    /// read from the first line of standard input. The address is not confirmed: game mail
    /// waits until its owner confirms it (`POST /v1/me/email/verification`).
    Create {
        /// The account's address.
        #[arg(long)]
        email: String,
        /// The display name other players see.
        #[arg(long)]
        name: String,
    },
}

fn init_tracing() {
    let filter = crate::config::log_filter(std::env::var("RUST_LOG").ok().as_deref());
    tracing_subscriber::fmt().with_env_filter(filter).init();
}

/// The command line given in `args` (the program's name first), run to its end: `serve` until
/// it is stopped. The binary's `main` and the tests (which run the command line from their
/// own executable, see `tests/api/helpers.rs`) both come here.
pub fn main(args: impl IntoIterator<Item = std::ffi::OsString>) -> anyhow::Result<()> {
    let cli = Cli::parse_from(args);
    actix_web::rt::System::new().block_on(run_cli(cli))
}

async fn run_cli(cli: Cli) -> anyhow::Result<()> {
    if let Some(Command::Openapi) = cli.command {
        print!("{}", crate::http::openapi_yaml()?);
        return Ok(());
    }
    if let Some(Command::Loadgen(args)) = cli.command {
        return crate::loadgen::run(*args).await;
    }
    if let Some(Command::Pace {
        games,
        rulesets,
        seats,
    }) = &cli.command
    {
        use crate::service::pace;
        println!("{}\n\n{}", pace::preamble(*games), pace::Row::HEADER);
        return pace::table(rulesets, seats, *games, |row| {
            println!("{}", row.markdown())
        });
    }
    if let Some(Command::Duel {
        games,
        rulesets,
        against,
    }) = &cli.command
    {
        return duel(*games, rulesets, against);
    }
    if let Some(Command::BotServe) = cli.command {
        return Ok(crate::service::bot_serve::serve(
            std::io::stdin().lock(),
            std::io::stdout().lock(),
        )?);
    }
    init_tracing();
    crate::fdlimit::raise_open_files_limit();
    // The worker stops on Ctrl-C or SIGTERM: listen before anything else, so that a signal
    // sent while it still attaches to the database stops it gracefully too, instead of
    // killing it with the default action.
    let stop = match cli.command {
        Some(Command::Worker) => Some(StopSignals::listen()?),
        _ => None,
    };
    let mut settings = Settings::load(cli.config.as_deref())?;
    if let Some(dir) = cli.data_dir {
        settings.data_dir = dir;
    }
    // One-shot commands attach to the cluster of a running server and never stop it.
    let role = match cli.command {
        Some(Command::Migrate | Command::Replay { .. } | Command::Account(_)) => Role::Command,
        _ => Role::Service,
    };
    let mut database = Database::open(&settings, role)?;
    let result = run(cli.command, &mut settings, &database, stop).await;
    database.close();
    result
}

/// `turnpost duel`: the table, a row per ruleset as it is done.
fn duel(
    games: u64,
    rulesets: &[String],
    against: &crate::service::duel::Against,
) -> anyhow::Result<()> {
    use crate::service::duel::{self, Against, Tally};
    let (mut opponent, name): (Box<dyn duel::Player>, String) = match against {
        Against::Random => (
            Box::new(duel::RandomPlayer::default()),
            "a random player".into(),
        ),
        Against::Itself => (Box::new(duel::Bot::default()), "itself".into()),
        Against::Exec(command) => (
            Box::new(
                crate::service::bot_serve::Exec::start(command)
                    .with_context(|| format!("starting {command}"))?,
            ),
            format!("`{command}`"),
        ),
    };
    println!("{}\n\n{}", duel::preamble(games, &name), Tally::HEADER);
    duel::table(rulesets, games, opponent.as_mut(), |tally| {
        println!("{}", tally.markdown());
        for (seed, seat, ending) in &tally.not_won {
            eprintln!(
                "{}: not won: seed {seed}, the bot at seat {} ({ending:?})",
                tally.ruleset,
                seat + 1
            );
        }
        for failure in &tally.failures {
            eprintln!("{}: a game failed: {failure}", tally.ruleset);
        }
    })
    .map_err(|e| anyhow::anyhow!(e))
}

/// SIGINT and SIGTERM, listened for from the moment this is made.
struct StopSignals {
    interrupt: tokio::signal::unix::Signal,
    terminate: tokio::signal::unix::Signal,
}

impl StopSignals {
    fn listen() -> anyhow::Result<StopSignals> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(StopSignals {
            interrupt: signal(SignalKind::interrupt()).context("listening for SIGINT")?,
            terminate: signal(SignalKind::terminate()).context("listening for SIGTERM")?,
        })
    }

    /// Waits for either signal.
    async fn recv(&mut self) {
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
        }
    }
}

async fn run(
    command: Option<Command>,
    settings: &mut Settings,
    database: &Database,
    stop_signals: Option<StopSignals>,
) -> anyhow::Result<()> {
    let url = database.url();
    match command.unwrap_or(Command::Serve { addr: None }) {
        Command::Serve { addr } => {
            if let Some(addr) = addr {
                settings.addr = addr;
            }
            let app = Application::build(settings, &url).await?;
            app.run().await.context("serving")?;
        }
        Command::Worker => {
            let svc = services(settings, &url).await?;
            let worker = crate::app::mail_worker(settings, &svc)?;
            let (stop, stopped) = tokio::sync::watch::channel(false);
            let hooks = crate::app::webhook_worker(settings, &svc)?;
            let run = tokio::spawn(worker.run(stopped.clone()));
            let deliver = tokio::spawn(hooks.run(stopped));
            stop_signals
                .context("the worker listens for its stop signals")?
                .recv()
                .await;
            let _ = stop.send(true);
            run.await.context("mail worker")?;
            deliver.await.context("webhook worker")?;
        }
        Command::Migrate => {
            crate::store::migrate(&url).await?;
            println!("migrations applied");
            let svc = services(settings, &url).await?;
            let report = crate::service::upgrade::refresh_stale_snapshots(&svc)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            println!(
                "{} game snapshots checked; {} refolded from their logs; {} that do not refold",
                report.checked,
                report.refolded.len(),
                report.failed.len()
            );
            for (game, why) in &report.failed {
                println!("  game {game}: {why}");
            }
        }
        Command::Replay { game_id: None, .. } => {
            let svc = services(settings, &url).await?;
            let games = crate::service::submit::all_game_ids(&svc)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let mut failed = 0usize;
            for game_id in &games {
                match crate::service::submit::replay(&svc, *game_id).await {
                    Ok(report) if report.ok() => {}
                    Ok(report) => {
                        failed += 1;
                        println!(
                            "game {game_id}: {} entries; seq contiguous: {}; version matches: {}; snapshot matches the refold: {}",
                            report.entries,
                            report.contiguous,
                            report.version_matches,
                            report.snapshot_matches
                        );
                    }
                    Err(e) => {
                        failed += 1;
                        println!("game {game_id}: {e}");
                    }
                }
            }
            println!(
                "{} games replayed; {} refold to their snapshots; {failed} do not",
                games.len(),
                games.len() - failed
            );
            if failed > 0 {
                anyhow::bail!(
                    "{failed} of {} games do not replay to their snapshots",
                    games.len()
                );
            }
        }
        Command::Replay {
            game_id: Some(game_id),
            ..
        } => {
            let svc = services(settings, &url).await?;
            let report = crate::service::submit::replay(&svc, game_id)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            println!(
                "{} entries; seq contiguous: {}; version matches: {}; snapshot matches the refold: {}",
                report.entries, report.contiguous, report.version_matches, report.snapshot_matches
            );
            if !report.ok() {
                anyhow::bail!("game {game_id} does not replay to its snapshot");
            }
        }
        Command::Account(AccountCommand::Create { email, name }) => {
            let mut password = String::new();
            std::io::stdin()
                .read_line(&mut password)
                .context("read the password from standard input")?;
            let password = password.trim_end_matches(['\r', '\n']);
            let svc = services(settings, &url).await?;
            let made = crate::service::registration::create_account(&svc, &email, password, &name)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            println!(
                "{}",
                serde_json::json!({
                    "token": made.token,
                    "expires_at": made.expires_at,
                    "user": made.user,
                })
            );
        }
        Command::Openapi
        | Command::Loadgen(_)
        | Command::Pace { .. }
        | Command::Duel { .. }
        | Command::BotServe => {}
    }
    Ok(())
}
