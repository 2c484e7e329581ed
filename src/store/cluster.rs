//! A private PostgreSQL cluster, run from the local PostgreSQL server binaries.
//!
//! Turnpost stores its games in PostgreSQL, but nobody should have to set one up just to try
//! the service or run its tests: with no `DATABASE_URL`, `turnpost serve` runs its own cluster
//! under the data dir ([`Cluster::start`]), and the integration tests run a throw-away one
//! ([`Cluster::start_ephemeral`], shared per process through [`Cluster::shared_ephemeral`]).
//!
//! This module finds the server binaries, creates the cluster with `initdb`, starts `postgres`
//! on 127.0.0.1 and a free port (another PostgreSQL may well hold 5432), waits until it accepts
//! connections, and stops it again. The Unix socket lives inside the cluster directory (when
//! the path is short enough for a socket address), never in `/var/run/postgresql`.
//!
//! # Root
//! `initdb` and `postgres` refuse to run as root. When this process is root they run as the
//! `postgres` system user (created by the `postgresql` package), the cluster directory is
//! chowned to that user, and every parent directory must be searchable by it: if one is not,
//! starting fails with an error naming that directory. Otherwise they run as the current user.
//!
//! # Lifetimes and ownership
//! - [`Cluster::start`] and [`Cluster::attach_or_start`] (the service and the other commands):
//!   `postgres` runs in a session of its own, so Ctrl-C on the service does not reach it and it
//!   outlives a crash of the service. Several Turnpost processes may use one cluster directory
//!   at once (`serve` and `turnpost migrate`, `replay` or `worker` on the same data dir): the
//!   first starts the server and *owns* it, the others attach to it. The owner's identity (pid
//!   and start time) is kept in `turnpost.owner` in the cluster directory and the attached
//!   processes in `turnpost.clients/`, all changed under an exclusive `flock` on the cluster
//!   directory. [`Cluster::stop`] stops the server only in its owner, and only when no other
//!   live process is attached; otherwise it hands the ownership to one of those and leaves the
//!   server running. A process that attaches never stops a server it did not start. A server
//!   whose owner died (a crashed `serve`) is adopted by the next [`Cluster::start`] (the
//!   service), never by [`Cluster::attach_or_start`] (the one-shot commands).
//! - [`Cluster::watch`] (the service): a watchdog thread checks the server every few seconds
//!   and starts it again, on the same port, when it has died.
//! - [`Cluster::start_ephemeral`] (tests): `postgres` is a child that the kernel signals when
//!   this process dies, however it dies (`PR_SET_PDEATHSIG`); on a normal exit an `atexit`
//!   hook also waits for it and removes its directory, and directories left behind by a killed
//!   process are removed by the next `start_ephemeral`.
//!
//! Dropping a [`Cluster`] never stops anything: a persistent cluster must not vanish because
//! a handle went out of scope, and an ephemeral one must stay usable through URLs handed out
//! earlier, so both are stopped explicitly or (ephemeral) when the process ends.
//!
//! # Security
//! Every connection authenticates with SCRAM-SHA-256, over TCP and over the Unix socket alike
//! (`pg_hba.conf` is written by [`secure`]): the `postgres` superuser's password is generated
//! at random when the cluster is created and kept in `turnpost.password` (mode 0600, owned by
//! the user Turnpost runs as) in the cluster directory, and [`Cluster::url`] carries it. A
//! cluster created before passwords (with `trust`) is secured the next time it starts. The
//! password is never logged.
//!
//! Linux only: it relies on `prctl`, `flock` and `/proc`.

use std::ffi::{CString, OsStr};
use std::fmt::Write as _;
use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write as _};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Once, PoisonError, TryLockError, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use tracing::{debug, info, warn};

/// The database superuser `initdb` creates, and the user in [`Cluster::url`].
const SUPERUSER: &str = "postgres";
/// The system user `initdb` and `postgres` run as when this process is root.
const SERVER_USER: &str = "postgres";
/// Where Debian and Ubuntu install each major version's server binaries (`<version>/bin`).
const VERSIONED_BINDIRS: &str = "/usr/lib/postgresql";
/// The server's stdout and stderr, appended to, inside the cluster directory.
const LOG_FILE: &str = "server.log";
/// The superuser's password, inside the cluster directory (mode 0600).
pub const PASSWORD_FILE: &str = "turnpost.password";
/// The Turnpost process that owns the running server (`<pid> <start time>`), inside the
/// cluster directory.
const OWNER_FILE: &str = "turnpost.owner";
/// One empty file per other Turnpost process attached to the server (`<pid>-<start time>`).
const CLIENTS_DIR: &str = "turnpost.clients";
/// How often [`Cluster::watch`] checks that the server still runs.
pub const WATCH_INTERVAL: Duration = Duration::from_secs(2);
/// Name prefix of ephemeral cluster directories in the temp dir: `<prefix><pid>-<n>`.
const EPHEMERAL_PREFIX: &str = "turnpost-pg-";
/// Settings that trade durability for speed; only for throw-away clusters.
const THROWAWAY_SETTINGS: &[&str] = &[
    "fsync=off",
    "synchronous_commit=off",
    "full_page_writes=off",
    // Every test thread may hold a connection pool of its own.
    "max_connections=300",
];
/// Longest Unix socket path (`sun_path` is 108 bytes with the terminating NUL).
const SOCKET_PATH_MAX: usize = 107;
/// Generous, since a persistent cluster may need crash recovery before it accepts connections.
const START_TIMEOUT: Duration = Duration::from_secs(120);
/// How long a fast shutdown may take before it is turned into an immediate one.
const STOP_TIMEOUT: Duration = Duration::from_secs(60);
/// How long the fast shutdown of `stop` may take before it is turned into an immediate one:
/// a supervisor gives a stopping service 10 s (Docker's default) before it kills it, and an
/// immediate shutdown loses nothing committed (the next start replays the WAL).
const FAST_STOP_TIMEOUT: Duration = Duration::from_secs(4);
/// After the postmaster was killed, its orphaned backends may still hold the data directory
/// for a moment (`postmaster.pid`, the shared memory): a start that fails on it is tried again
/// this often, this far apart, before the failure counts.
const STALE_LOCK_ATTEMPTS: u32 = 40;
const STALE_LOCK_PAUSE: Duration = Duration::from_millis(250);
/// How long an immediate shutdown (SIGQUIT) may take.
const KILL_TIMEOUT: Duration = Duration::from_secs(10);
/// Attempts to start on a free port: another process may take the port before `postgres` binds it.
const START_ATTEMPTS: u32 = 5;
/// Polling interval while waiting for the server to come up or go away.
const POLL: Duration = Duration::from_millis(20);

/// A running private PostgreSQL cluster: its directory (`PGDATA`), the TCP port it listens
/// on at 127.0.0.1, and the superuser's password.
///
/// Dropping it does not stop the server (see the module docs): call [`Cluster::stop`].
#[derive(Debug)]
pub struct Cluster {
    dir: PathBuf,
    port: u16,
    /// `None` for a cluster from before passwords that was found running with `trust`.
    password: Option<Password>,
    ephemeral: bool,
    /// Shared with the watchdog, which replaces it when it restarts the server.
    server: Arc<Mutex<Server>>,
    watchdog: Option<Watchdog>,
}

/// The superuser's password; its `Debug` does not show it.
#[derive(Clone, PartialEq)]
struct Password(String);

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(..)")
    }
}

/// How this process knows the running postmaster.
#[derive(Debug)]
enum Server {
    /// Started by this process, and reaped by its supervisor thread.
    Child(Arc<Postmaster>),
    /// Found running (named by `postmaster.pid`); not a child of this process.
    Foreign(libc::pid_t),
    /// Stopped through this handle.
    Stopped,
}

impl Server {
    fn is_running(&self) -> bool {
        match self {
            Server::Child(postmaster) => postmaster.is_running(),
            Server::Foreign(pid) => pid_alive(*pid),
            Server::Stopped => false,
        }
    }

    fn pid(&self) -> Option<libc::pid_t> {
        match self {
            Server::Child(postmaster) => Some(postmaster.pid),
            Server::Foreign(pid) => Some(*pid),
            Server::Stopped => None,
        }
    }
}

/// Whether a process that finds a server running whose owner has died takes it over.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Adopt {
    Orphans,
    Never,
}

impl Cluster {
    /// For the service: a persistent cluster in `dir` (e.g. `<data-dir>/pg`) with durable
    /// settings, created with `initdb` if `dir` holds none and started if it is not running.
    ///
    /// When a live postmaster already runs in `dir` (named by its `postmaster.pid`), this
    /// process attaches to it on the port it listens on; if the process that started it has
    /// died (a service that crashed), this one takes it over and stops it on
    /// [`Cluster::stop`]. Otherwise the server starts on a free port, which may differ from one
    /// start to the next: always take the port from [`Cluster::url`]. It keeps running after
    /// this process exits, until [`Cluster::stop`] (see the module docs on ownership).
    ///
    /// Blocks for up to a few seconds (initdb, startup): call it before starting an async
    /// runtime or through `spawn_blocking`.
    pub fn start(dir: &Path) -> Result<Cluster> {
        start_persistent(dir, Adopt::Orphans)
    }

    /// For commands that run once (`migrate`, `replay`): like [`Cluster::start`], but a server
    /// found running is only ever attached to, never taken over, so [`Cluster::stop`] leaves
    /// it running. A server this call starts itself is stopped by [`Cluster::stop`], unless
    /// another process has attached to it meanwhile.
    pub fn attach_or_start(dir: &Path) -> Result<Cluster> {
        start_persistent(dir, Adopt::Never)
    }

    /// For tests: a throw-away cluster in a fresh directory under the temp dir, with fsync off.
    ///
    /// It is stopped and its directory removed when this process exits, however it exits: the
    /// kernel sends the postmaster SIGQUIT when its parent dies, an `atexit` hook waits for it
    /// and removes the directory on a normal exit (including after a panicking test), and the
    /// directories of processes that were killed are removed by the next call. [`Cluster::stop`]
    /// stops it and removes the directory earlier.
    ///
    /// Each call starts another cluster (initdb takes a second or two); tests should share one
    /// per process through [`Cluster::shared_ephemeral`].
    pub fn start_ephemeral() -> Result<Cluster> {
        let root =
            std::path::absolute(std::env::temp_dir()).context("resolving the temp directory")?;
        let user = server_user()?;
        remove_stale_ephemeral_dirs(&root, user);
        let bins = Binaries::find(None)?;
        AT_EXIT.call_once(|| {
            // SAFETY: registers a plain `extern "C" fn()`, which is what atexit expects.
            if unsafe { libc::atexit(stop_ephemeral_at_exit) } != 0 {
                warn!(
                    "could not register the exit hook; ephemeral clusters stop only by PDEATHSIG"
                );
            }
        });
        let dir = create_ephemeral_dir(&root)?;
        let started = prepare_dir(&dir, user, &bins)
            .and_then(|()| initdb(&bins, &dir, user, false))
            .and_then(|()| secure(&bins, &dir, user))
            .and_then(|password| {
                launch(&bins, &dir, user, true, None).map(|started| (started, password))
            });
        let ((postmaster, port), password) = match started {
            Ok(started) => started,
            Err(err) => {
                let _ = fs::remove_dir_all(&dir);
                return Err(err);
            }
        };
        lock(&EPHEMERAL).push((dir.clone(), Arc::clone(&postmaster)));
        Ok(Cluster {
            dir,
            port,
            password: Some(password),
            ephemeral: true,
            server: Arc::new(Mutex::new(Server::Child(postmaster))),
            watchdog: None,
        })
    }

    /// The ephemeral cluster of this process: started by the first call, shared by all later
    /// ones (and so by all tests, which `cargo test` runs as threads of one process). It lives
    /// until the process exits. If starting it failed, later calls fail at once with the same
    /// error instead of each trying again.
    pub fn shared_ephemeral() -> Result<&'static Cluster> {
        static SHARED: Mutex<Option<Result<&'static Cluster, String>>> = Mutex::new(None);
        let mut shared = lock(&SHARED);
        match &*shared {
            Some(Ok(cluster)) => return Ok(*cluster),
            Some(Err(err)) => bail!("the shared test cluster failed to start: {err}"),
            None => {}
        }
        let started = Cluster::start_ephemeral().map(|cluster| &*Box::leak(Box::new(cluster)));
        *shared = Some(match &started {
            Ok(cluster) => Ok(*cluster),
            Err(err) => Err(format!("{err:#}")),
        });
        started
    }

    /// `postgres://postgres:<password>@127.0.0.1:<port>/<database>` (the database name
    /// percent-encoded). It holds the password: never log it (`config::redact_url` hides it).
    pub fn url(&self, database: &str) -> String {
        let password = self
            .password
            .as_ref()
            .map(|password| format!(":{}", password.0))
            .unwrap_or_default();
        format!(
            "postgres://{SUPERUSER}{password}@127.0.0.1:{}/{}",
            self.port,
            percent_encode(database)
        )
    }

    /// The TCP port the server listens on at 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The cluster directory (`PGDATA`); the server log is `server.log` in it, the password
    /// `turnpost.password`.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The process id of the running postmaster, as this handle knows it.
    pub fn pid(&self) -> Option<libc::pid_t> {
        lock(&self.server).pid()
    }

    /// Starts the watchdog (the service): a thread that checks every `every` that the server
    /// still runs and, when it has died, starts it again on the same port (so that URLs handed
    /// out stay valid), logging both. Restarting becomes possible once the dead server's
    /// backends have gone, so a failed attempt is logged and tried again at the next check.
    /// [`Cluster::stop`] ends it. Only for persistent clusters; calling it twice does nothing.
    pub fn watch(&mut self, every: Duration) -> Result<()> {
        if self.ephemeral || self.watchdog.is_some() {
            return Ok(());
        }
        let (stop, stopped) = mpsc::channel::<()>();
        let dir = self.dir.clone();
        let port = self.port;
        let server = Arc::clone(&self.server);
        let thread = thread::Builder::new()
            .name("postgres-watchdog".into())
            .spawn(move || watch(&dir, port, &server, every, &stopped))
            .context("starting the thread that watches PostgreSQL")?;
        self.watchdog = Some(Watchdog { stop, thread });
        Ok(())
    }

    /// Stops the server if this process owns it and no other live process is attached to it:
    /// a fast shutdown (SIGINT to the postmaster: active sessions are rolled back), waiting
    /// until the server is gone; if that takes over a minute, an immediate shutdown (SIGQUIT).
    /// An owner with other processes attached hands the server to one of them instead, and a
    /// process that only attached leaves it running (see the module docs). An ephemeral
    /// cluster is always stopped and its directory removed. Stopping a server that has already
    /// gone (e.g. stopped through another handle) succeeds; on error the call may be retried.
    pub fn stop(&mut self) -> Result<()> {
        if let Some(watchdog) = self.watchdog.take() {
            drop(watchdog.stop);
            if watchdog.thread.join().is_err() {
                warn!("the PostgreSQL watchdog panicked");
            }
        }
        let dir = self.dir.display().to_string();
        let mut server = lock(&self.server);
        if matches!(*server, Server::Stopped) {
            return Ok(());
        }
        if self.ephemeral {
            stop_server(&self.dir, self.port, &server)?;
            *server = Server::Stopped;
            lock(&EPHEMERAL).retain(|(dir, _)| *dir != self.dir);
            fs::remove_dir_all(&self.dir)
                .with_context(|| format!("removing the test cluster directory {dir}"))?;
            info!(dir, port = self.port, "PostgreSQL stopped");
            return Ok(());
        }
        let _lock = DirLock::acquire(&self.dir)?;
        let me = Process::current()?;
        let _ = remove_client(&self.dir, me);
        if read_owner(&self.dir) != Some(me) {
            info!(
                dir,
                port = self.port,
                "leaving PostgreSQL running: another process started it"
            );
            *server = Server::Stopped;
            return Ok(());
        }
        if let Some(next) = live_clients(&self.dir).into_iter().next() {
            write_owner(&self.dir, next)?;
            let _ = remove_client(&self.dir, next);
            info!(
                dir,
                port = self.port,
                pid = next.pid,
                "leaving PostgreSQL running for another Turnpost process that uses it"
            );
            *server = Server::Stopped;
            return Ok(());
        }
        stop_server(&self.dir, self.port, &server)?;
        *server = Server::Stopped;
        let _ = fs::remove_file(self.dir.join(OWNER_FILE));
        info!(dir, port = self.port, "PostgreSQL stopped");
        Ok(())
    }
}

/// The watchdog's thread and the channel that stops it (by being dropped).
#[derive(Debug)]
struct Watchdog {
    stop: mpsc::Sender<()>,
    thread: thread::JoinHandle<()>,
}

/// [`Cluster::start`] and [`Cluster::attach_or_start`].
fn start_persistent(dir: &Path, adopt: Adopt) -> Result<Cluster> {
    let dir = std::path::absolute(dir)
        .with_context(|| format!("resolving the cluster directory {}", dir.display()))?;
    check_own_dir(&dir)?;
    let user = server_user()?;
    let bins = Binaries::find(cluster_version(&dir)?.as_deref())?;
    prepare_dir(&dir, user, &bins)?;
    let _lock = DirLock::acquire(&dir)?;
    let me = Process::current()?;
    if let Some((pid, port)) = find_running(&dir)? {
        let password = read_password(&dir)?;
        if password.is_none() {
            warn!(
                dir = %dir.display(),
                "the running PostgreSQL cluster has no password yet (it was created by an older \
                 Turnpost, with `trust` authentication); it is secured when it next starts"
            );
        }
        let owner = read_owner(&dir);
        if owner == Some(me) {
            // Another handle of this process.
        } else if adopt == Adopt::Orphans && owner.is_none_or(|owner| !owner.alive()) {
            write_owner(&dir, me)?;
            info!(dir = %dir.display(), port, pid, "taking over the running PostgreSQL cluster, whose owner has exited");
        } else {
            add_client(&dir, me)?;
            info!(dir = %dir.display(), port, pid, "attaching to the running PostgreSQL cluster");
        }
        return Ok(Cluster {
            dir,
            port,
            password,
            ephemeral: false,
            server: Arc::new(Mutex::new(Server::Foreign(pid))),
            watchdog: None,
        });
    }
    if cluster_version(&dir)?.is_none() {
        initdb(&bins, &dir, user, true)?;
    }
    let password = secure(&bins, &dir, user)?;
    let (postmaster, port) = launch(&bins, &dir, user, false, None)?;
    write_owner(&dir, me)?;
    Ok(Cluster {
        dir,
        port,
        password: Some(password),
        ephemeral: false,
        server: Arc::new(Mutex::new(Server::Child(postmaster))),
        watchdog: None,
    })
}

/// The watchdog's loop (see [`Cluster::watch`]); returns when `stopped`'s sender is dropped.
fn watch(
    dir: &Path,
    port: u16,
    server: &Mutex<Server>,
    every: Duration,
    stopped: &mpsc::Receiver<()>,
) {
    let mut failures = 0u32;
    loop {
        match stopped.recv_timeout(every) {
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => return,
        }
        let (running, pid) = {
            let server = lock(server);
            if matches!(*server, Server::Stopped) {
                return;
            }
            (server.is_running(), server.pid())
        };
        if running {
            failures = 0;
            continue;
        }
        if failures == 0 {
            warn!(dir = %dir.display(), port, pid, "PostgreSQL has exited; starting it again");
        }
        match restart(dir, port) {
            Ok(restarted) => {
                info!(dir = %dir.display(), port, pid = restarted.pid(), "PostgreSQL runs again");
                *lock(server) = restarted;
                failures = 0;
            }
            Err(err) => {
                failures += 1;
                warn!(
                    dir = %dir.display(),
                    port,
                    attempt = failures,
                    error = format!("{err:#}"),
                    "could not start PostgreSQL again; trying again in {}s",
                    every.as_secs_f32()
                );
            }
        }
    }
}

/// Starts the persistent cluster in `dir` again on `port` after its server died, and takes
/// it over; or attaches to it if another process restarted it first.
fn restart(dir: &Path, port: u16) -> Result<Server> {
    let user = server_user()?;
    let bins = Binaries::find(cluster_version(dir)?.as_deref())?;
    let _lock = DirLock::acquire(dir)?;
    if let Some((pid, running_port)) = find_running(dir)? {
        if running_port != port {
            bail!(
                "PostgreSQL was started again by another process, on port {running_port} \
                 instead of {port}: restart Turnpost"
            );
        }
        return Ok(Server::Foreign(pid));
    }
    let (postmaster, _) = launch(&bins, dir, user, false, Some(port))?;
    write_owner(dir, Process::current()?)?;
    Ok(Server::Child(postmaster))
}

/// Fast shutdown of the server this handle knows, then immediate if it takes too long.
fn stop_server(dir: &Path, port: u16, server: &Server) -> Result<()> {
    match server {
        Server::Stopped => Ok(()),
        Server::Child(postmaster) => {
            info!(dir = %dir.display(), port, pid = postmaster.pid, "stopping PostgreSQL");
            shut_down(
                dir,
                postmaster.pid,
                |sig| {
                    postmaster.signal(sig);
                    Ok(())
                },
                |timeout| postmaster.wait_exit(timeout),
            )
        }
        Server::Foreign(pid) => {
            let pid = *pid;
            info!(dir = %dir.display(), port, pid, "stopping PostgreSQL");
            // It may have been stopped and the pid reused since: only signal the postmaster
            // that its pid file still names.
            let named = read_pidfile(dir).ok().flatten().map(|file| file.pid);
            if named == Some(pid) {
                shut_down(
                    dir,
                    pid,
                    |sig| send_signal(pid, sig),
                    |timeout| wait_until(timeout, || !pid_alive(pid)),
                )?;
            }
            Ok(())
        }
    }
}

/// Percent-encodes everything but RFC 3986 unreserved characters, for a URL path segment.
fn percent_encode(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            encoded.push(char::from(byte));
        } else {
            let _ = write!(encoded, "%{byte:02X}");
        }
    }
    encoded
}

// ---------------------------------------------------------------------------------------------
// The server binaries.

/// The directory holding `initdb` and `postgres`, and the major version they belong to.
#[derive(Debug)]
struct Binaries {
    bindir: PathBuf,
    major: String,
}

impl Binaries {
    /// Finds the server binaries; `wanted_major` is an existing cluster's version (its
    /// `PG_VERSION`), which only the same major version can run.
    fn find(wanted_major: Option<&str>) -> Result<Binaries> {
        let path = std::env::var_os("PATH");
        let bindir = find_bindir(
            wanted_major,
            pg_config_bindir().as_deref(),
            Path::new(VERSIONED_BINDIRS),
            path.as_deref(),
        )?;
        let major = server_major(&bindir)?;
        if let Some(wanted) = wanted_major
            && wanted != major
        {
            bail!(
                "the cluster was created by PostgreSQL {wanted}, but the server binaries found \
                 ({}) are PostgreSQL {major}: install PostgreSQL {wanted} \
                 (`apt-get install postgresql-{wanted}`), or move the cluster directory away to \
                 start afresh",
                bindir.display()
            );
        }
        debug!(bindir = %bindir.display(), version = %major, "found the PostgreSQL server binaries");
        Ok(Binaries { bindir, major })
    }

    fn initdb(&self) -> PathBuf {
        self.bindir.join("initdb")
    }

    fn postgres(&self) -> PathBuf {
        self.bindir.join("postgres")
    }
}

/// `pg_config --bindir`, if `pg_config` is on PATH and answers.
fn pg_config_bindir() -> Option<PathBuf> {
    let output = Command::new("pg_config")
        .arg("--bindir")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let bindir = String::from_utf8(output.stdout).ok()?;
    let bindir = bindir.trim();
    (output.status.success() && !bindir.is_empty()).then(|| PathBuf::from(bindir))
}

/// Where to run `initdb` and `postgres` from, in order of preference:
/// 1. `<versioned_root>/<wanted_major>/bin`, the binaries matching an existing cluster;
/// 2. `pg_config --bindir`, the installation the development headers belong to (on Debian it
///    comes with libpq-dev, which may be of another version than the server: then it lacks
///    `initdb` and is skipped);
/// 3. the highest version in `<versioned_root>/*/bin` (Debian, Ubuntu);
/// 4. PATH, resolving symlinks: `initdb` looks for `postgres` beside its real location, and a
///    Debian wrapper script (whose real directory holds no `postgres`) is skipped.
fn find_bindir(
    wanted_major: Option<&str>,
    pg_config: Option<&Path>,
    versioned_root: &Path,
    path: Option<&OsStr>,
) -> Result<PathBuf> {
    if let Some(major) = wanted_major {
        let bindir = versioned_root.join(major).join("bin");
        if has_server(&bindir) {
            return Ok(bindir);
        }
    }
    if let Some(bindir) = pg_config
        && has_server(bindir)
    {
        return Ok(bindir.to_path_buf());
    }
    if let Some(bindir) = highest_versioned_bindir(versioned_root) {
        return Ok(bindir);
    }
    for dir in path.map(std::env::split_paths).into_iter().flatten() {
        if let Ok(initdb) = fs::canonicalize(dir.join("initdb"))
            && let Some(bindir) = initdb.parent()
            && has_server(bindir)
        {
            return Ok(bindir.to_path_buf());
        }
    }
    bail!(
        "no PostgreSQL server binaries (initdb and postgres) found in `pg_config --bindir`, \
         {}/*/bin or PATH: install the PostgreSQL server (Debian/Ubuntu: \
         `apt-get install postgresql`), or set DATABASE_URL to use an existing server",
        versioned_root.display()
    )
}

/// The `<root>/<version>/bin` with the highest version that holds the server binaries.
fn highest_versioned_bindir(root: &Path) -> Option<PathBuf> {
    fs::read_dir(root)
        .ok()?
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let version = name
                .split('.')
                .map(|part| part.parse::<u32>().ok())
                .collect::<Option<Vec<u32>>>()?;
            let bindir = entry.path().join("bin");
            has_server(&bindir).then_some((version, bindir))
        })
        .max()
        .map(|(_, bindir)| bindir)
}

fn has_server(dir: &Path) -> bool {
    is_executable(&dir.join("initdb")) && is_executable(&dir.join("postgres"))
}

fn is_executable(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

/// The major version of the server in `bindir`, from `postgres --version` (allowed as root).
fn server_major(bindir: &Path) -> Result<String> {
    let postgres = bindir.join("postgres");
    let output = Command::new(&postgres)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("running {} --version", postgres.display()))?;
    let text = String::from_utf8_lossy(&output.stdout);
    parse_major(&text).with_context(|| {
        format!(
            "unexpected output of {} --version: {text:?}",
            postgres.display()
        )
    })
}

/// The major version in `postgres (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)`, as
/// `PG_VERSION` spells it: `15`, or `9.6` before version 10.
fn parse_major(version_output: &str) -> Option<String> {
    let version = version_output
        .split_whitespace()
        .find(|word| word.starts_with(|c: char| c.is_ascii_digit()))?;
    let mut numbers = version.split(|c: char| !c.is_ascii_digit());
    let first = numbers.next()?;
    match first.parse::<u32>().ok()? {
        major if major >= 10 => Some(first.to_owned()),
        _ => Some(format!(
            "{first}.{}",
            numbers.next().filter(|n| !n.is_empty())?
        )),
    }
}

/// The major version of the cluster in `dir` (its `PG_VERSION`), if there is one.
fn cluster_version(dir: &Path) -> Result<Option<String>> {
    match fs::read_to_string(dir.join("PG_VERSION")) {
        Ok(version) => Ok(Some(version.trim().to_owned())),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err).with_context(|| format!("reading {}/PG_VERSION", dir.display())),
    }
}

// ---------------------------------------------------------------------------------------------
// Users and directories.

/// A system user to run the server binaries as.
#[derive(Debug, Clone, Copy)]
struct User {
    uid: u32,
    gid: u32,
}

/// Whom to run `initdb` and `postgres` as: `None` for the current user, the `postgres`
/// system user when this process is root (they refuse to run as root).
fn server_user() -> Result<Option<User>> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Ok(None);
    }
    match lookup_user(SERVER_USER)? {
        Some(user) => Ok(Some(user)),
        None => bail!(
            "running as root, but initdb and postgres refuse to run as root and there is no \
             `{SERVER_USER}` system user to run them as: install the PostgreSQL server \
             (`apt-get install postgresql` creates the user), create the user \
             (`useradd --system {SERVER_USER}`), or run Turnpost as a non-root user"
        ),
    }
}

/// Looks a user up in the password database (getpwnam_r, as getpwnam is not thread-safe).
fn lookup_user(name: &str) -> Result<Option<User>> {
    let c_name = CString::new(name).context("user name contains NUL")?;
    let mut buf: Vec<libc::c_char> = vec![0; 1024];
    loop {
        // SAFETY: all-zero is a valid `passwd` (null pointers and zero ids).
        let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
        let mut result: *mut libc::passwd = std::ptr::null_mut();
        // SAFETY: the pointers are valid for the call, and `buf.len()` is the buffer's size.
        let rc = unsafe {
            libc::getpwnam_r(
                c_name.as_ptr(),
                &mut entry,
                buf.as_mut_ptr(),
                buf.len(),
                &mut result,
            )
        };
        match rc {
            0 if result.is_null() => return Ok(None),
            0 => {
                return Ok(Some(User {
                    uid: entry.pw_uid,
                    gid: entry.pw_gid,
                }));
            }
            libc::ERANGE if buf.len() < 1 << 20 => buf.resize(buf.len() * 4, 0),
            err => {
                return Err(io::Error::from_raw_os_error(err))
                    .with_context(|| format!("looking up the `{name}` user"));
            }
        }
    }
}

/// A command for a server binary, run as `user` when set. The working directory is `/` since
/// the caller's may not be accessible to that user (all paths passed are absolute), and
/// messages are in English so that [`port_taken`] can recognise them.
fn command(program: &Path, user: Option<User>) -> Command {
    let mut cmd = Command::new(program);
    if let Some(user) = user {
        // std also clears the supplementary groups when it sets the uid as root.
        cmd.uid(user.uid).gid(user.gid);
    }
    cmd.current_dir("/").env("LC_ALL", "C").stdin(Stdio::null());
    cmd
}

/// Without root, only a cluster directory of this user's own can be used: PostgreSQL keeps it
/// private to its owner. (As root, [`prepare_dir`] checks it belongs to the server user.)
fn check_own_dir(dir: &Path) -> Result<()> {
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    match fs::metadata(dir) {
        Ok(meta) if me != 0 && meta.uid() != me => bail!(
            "the cluster directory {} belongs to another user (uid {}; it was created when \
             Turnpost ran as root or as that user): run Turnpost as that user, or choose another \
             data directory",
            dir.display(),
            meta.uid()
        ),
        _ => Ok(()),
    }
}

/// Creates the cluster directory (mode 0700) if needed; as root, hands it to the server user
/// and checks that user can reach it.
fn prepare_dir(dir: &Path, user: Option<User>, bins: &Binaries) -> Result<()> {
    if !dir.exists() {
        if let Some(parent) = dir.parent() {
            fs::create_dir_all(parent)
                .with_context(|| format!("creating the directory {}", parent.display()))?;
        }
        match DirBuilder::new().mode(0o700).create(dir) {
            Ok(()) => {}
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
            Err(err) => {
                return Err(err).with_context(|| format!("creating {}", dir.display()));
            }
        }
    }
    let Some(user) = user else { return Ok(()) };
    let owner = fs::metadata(dir)
        .with_context(|| format!("inspecting {}", dir.display()))?
        .uid();
    if owner != user.uid {
        if dir.join("PG_VERSION").exists() {
            bail!(
                "{dir} holds a PostgreSQL cluster owned by uid {owner}, but as root Turnpost runs \
                 PostgreSQL as the `{SERVER_USER}` user (uid {uid}): \
                 `chown -R {SERVER_USER}: {dir}`, or move it away to start afresh",
                dir = dir.display(),
                uid = user.uid
            );
        }
        std::os::unix::fs::chown(dir, Some(user.uid), Some(user.gid))
            .with_context(|| format!("handing {} to the `{SERVER_USER}` user", dir.display()))?;
    }
    ensure_reachable(dir, user, bins)
}

/// Checks that `user` can enter `dir` (so every parent is searchable), naming the first
/// directory on the way that it cannot enter.
fn ensure_reachable(dir: &Path, user: User, bins: &Binaries) -> Result<()> {
    if can_enter(dir, user, bins) {
        return Ok(());
    }
    if !can_enter(Path::new("/"), user, bins) {
        bail!(
            "the `{SERVER_USER}` user cannot run {}: check its permissions",
            bins.postgres().display()
        );
    }
    let mut ancestors: Vec<&Path> = dir.ancestors().collect();
    ancestors.reverse();
    let blocker = ancestors
        .into_iter()
        .find(|ancestor| !can_enter(ancestor, user, bins))
        .unwrap_or(dir);
    bail!(
        "as root, Turnpost runs PostgreSQL as the `{SERVER_USER}` user (initdb and postgres \
         refuse to run as root), but that user cannot enter {blocker} on the way to the cluster \
         directory {dir}: make it searchable (e.g. `chmod o+x {blocker}`), or choose a data \
         directory elsewhere",
        blocker = blocker.display(),
        dir = dir.display()
    )
}

/// Whether `user` can make `dir` its working directory, found out for real (permission bits,
/// ACLs, mounts) by running `postgres --version` there as that user: std changes the
/// directory after switching the user.
fn can_enter(dir: &Path, user: User, bins: &Binaries) -> bool {
    command(&bins.postgres(), Some(user))
        .current_dir(dir)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

// ---------------------------------------------------------------------------------------------
// initdb and starting the server.

/// Creates the cluster: the `postgres` superuser, UTF-8, C locale; a throw-away cluster skips
/// the final fsync. It starts with `trust` authentication, which [`secure`] replaces before
/// the server first listens.
fn initdb(bins: &Binaries, dir: &Path, user: Option<User>, durable: bool) -> Result<()> {
    info!(
        dir = %dir.display(),
        bindir = %bins.bindir.display(),
        version = %bins.major,
        "initialising a PostgreSQL cluster"
    );
    let mut cmd = command(&bins.initdb(), user);
    cmd.arg("-D").arg(dir).args([
        "-A",
        "trust",
        "-U",
        SUPERUSER,
        "--encoding=UTF8",
        "--locale=C",
    ]);
    if !durable {
        cmd.arg("--no-sync");
    }
    let output = cmd
        .output()
        .with_context(|| format!("running {}", bins.initdb().display()))?;
    if !output.status.success() {
        let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&output.stderr));
        bail!(
            "initdb failed ({}) for {}:\n{}",
            output.status,
            dir.display(),
            last_lines(&text, 30)
        );
    }
    Ok(())
}

/// Starts `postgres` on 127.0.0.1 and a free port and waits until it accepts connections,
/// retrying on another port when the chosen one was taken in the meantime; or on `port` (a
/// restart, whose port the clients already know), failing if it is taken.
///
/// `postgres` is spawned directly rather than through `pg_ctl` (which may be a wrapper script,
/// and which would detach the server from this process): a throw-away server must die with
/// this process; a persistent one gets a session of its own, as `pg_ctl` would give it.
fn launch(
    bins: &Binaries,
    dir: &Path,
    user: Option<User>,
    ephemeral: bool,
    port: Option<u16>,
) -> Result<(Arc<Postmaster>, u16)> {
    let fixed = port;
    let log_path = dir.join(LOG_FILE);
    let sockets = socket_dir_setting(dir);
    let mut attempt = 0;
    let mut held = 0;
    loop {
        attempt += 1;
        let port = match fixed {
            Some(port) => port,
            None => free_port()?,
        };
        let log = open_log(&log_path, user)?;
        let log_start = log.metadata().map(|meta| meta.len()).unwrap_or(0);
        let mut cmd = command(&bins.postgres(), user);
        cmd.arg("-D")
            .arg(dir)
            .arg("-p")
            .arg(port.to_string())
            .arg("-c")
            .arg("listen_addresses=127.0.0.1")
            .arg("-c")
            .arg(format!("unix_socket_directories={sockets}"));
        if ephemeral {
            for setting in THROWAWAY_SETTINGS {
                cmd.arg("-c").arg(setting);
            }
            die_with_parent(&mut cmd);
        } else {
            own_session(&mut cmd);
        }
        let stdout = log
            .try_clone()
            .with_context(|| format!("opening {}", log_path.display()))?;
        cmd.stdout(stdout).stderr(log);
        info!(dir = %dir.display(), port, ephemeral, "starting PostgreSQL");
        let postmaster = Postmaster::spawn(cmd)
            .with_context(|| format!("starting {}", bins.postgres().display()))?;
        match wait_ready(
            dir,
            port,
            postmaster.pid,
            || postmaster.is_running(),
            START_TIMEOUT,
        ) {
            Ok(()) => {
                info!(dir = %dir.display(), port, pid = postmaster.pid, "PostgreSQL is ready");
                return Ok((postmaster, port));
            }
            Err(NotReady::Exited) => {
                postmaster.wait_exit(KILL_TIMEOUT);
                let tail = log_tail(&log_path, log_start);
                if fixed.is_none() && attempt < START_ATTEMPTS && port_taken(&tail) {
                    warn!(
                        port,
                        "the port was taken before PostgreSQL could bind it; retrying"
                    );
                    continue;
                }
                if held < STALE_LOCK_ATTEMPTS && stale_lock(&tail) {
                    held += 1;
                    debug!(dir = %dir.display(), "the old server's processes still hold the data directory; retrying");
                    thread::sleep(STALE_LOCK_PAUSE);
                    continue;
                }
                bail!(
                    "PostgreSQL exited while starting ({}); the end of {}:\n{tail}",
                    postmaster.status(),
                    log_path.display()
                );
            }
            Err(NotReady::TimedOut) => {
                postmaster.signal(libc::SIGQUIT);
                postmaster.wait_exit(KILL_TIMEOUT);
                bail!(
                    "PostgreSQL did not accept connections on 127.0.0.1:{port} within {}s; \
                     the end of {}:\n{}",
                    START_TIMEOUT.as_secs(),
                    log_path.display(),
                    log_tail(&log_path, log_start)
                );
            }
        }
    }
}

/// Makes the kernel send the server SIGQUIT (immediate shutdown; the data is thrown away
/// anyway) when its parent dies. The parent is the *thread* that spawned it, which is why
/// [`Postmaster::spawn`] spawns from a thread that lives as long as the server.
fn die_with_parent(cmd: &mut Command) {
    let parent = std::process::id();
    // SAFETY: the closure only makes async-signal-safe system calls and does not allocate.
    unsafe {
        cmd.pre_exec(move || {
            // std runs this after switching uid/gid, which would clear the setting.
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGQUIT as libc::c_ulong,
                0,
                0,
                0,
            ) != 0
            {
                return Err(io::Error::last_os_error());
            }
            // The parent may have died before the setting took effect.
            if libc::getppid() as u32 != parent {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

/// Puts the server in a session of its own, so that signals for this process's terminal or
/// process group (Ctrl-C) do not reach it: the service stops it itself, after its last query.
fn own_session(cmd: &mut Command) {
    // SAFETY: setsid is async-signal-safe, and nothing is allocated.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// The value of `unix_socket_directories`: the cluster directory, or empty (TCP only) when the
/// socket path would be too long for a socket address or the path would need quoting.
fn socket_dir_setting(dir: &Path) -> String {
    match dir.to_str() {
        Some(path)
            if path.len() + "/.s.PGSQL.65535".len() <= SOCKET_PATH_MAX
                && !path.contains(|c: char| c == ',' || c == '"' || c.is_whitespace()) =>
        {
            path.to_owned()
        }
        _ => String::new(),
    }
}

/// A port that is free on 127.0.0.1 right now (the kernel's choice for port 0).
fn free_port() -> Result<u16> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .context("finding a free TCP port on 127.0.0.1")?;
    Ok(listener
        .local_addr()
        .context("finding a free TCP port")?
        .port())
}

/// Opens the server log for appending; as root, hands it to the server user like the rest
/// of the cluster directory.
fn open_log(path: &Path, user: Option<User>) -> Result<File> {
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    if let Some(user) = user {
        std::os::unix::fs::chown(path, Some(user.uid), Some(user.gid))
            .with_context(|| format!("handing {} to the `{SERVER_USER}` user", path.display()))?;
    }
    Ok(file)
}

/// Whether the server log says the data directory is still held by the processes of a server
/// that died (its lock file or its shared memory): they are on their way out.
fn stale_lock(log: &str) -> bool {
    log.contains("lock file \"postmaster.pid\" already exists")
        || log.contains("pre-existing shared memory block")
}

/// Whether the server log says the port was in use.
fn port_taken(log: &str) -> bool {
    log.contains("Address already in use") || log.contains("could not create any TCP/IP sockets")
}

/// Why the server did not become ready.
#[derive(Debug, PartialEq)]
enum NotReady {
    Exited,
    TimedOut,
}

/// Waits until the postmaster `pid` accepts connections on 127.0.0.1:`port`: its pid file says
/// `ready` and a TCP connection succeeds. The TCP port is open well before the server takes
/// connections ("the database system is starting up"), so the status is what counts; only
/// servers before PostgreSQL 10, which write none, are taken at the TCP port's word.
fn wait_ready(
    dir: &Path,
    port: u16,
    pid: libc::pid_t,
    alive: impl Fn() -> bool,
    timeout: Duration,
) -> Result<(), NotReady> {
    let deadline = Instant::now() + timeout;
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let writes_status = cluster_version(dir)
        .ok()
        .flatten()
        .and_then(|version| version.split('.').next()?.parse::<u32>().ok())
        .is_none_or(|major| major >= 10);
    loop {
        if !alive() {
            return Err(NotReady::Exited);
        }
        let ready = read_pidfile(dir).ok().flatten().is_some_and(|file| {
            file.pid == pid
                && match file.status.as_deref() {
                    Some(status) => status == "ready",
                    None => !writes_status,
                }
        });
        if ready && TcpStream::connect_timeout(&address, Duration::from_secs(1)).is_ok() {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(NotReady::TimedOut);
        }
        thread::sleep(POLL);
    }
}

/// The server log written since `from`: its last lines, for error messages.
fn log_tail(path: &Path, from: u64) -> String {
    let mut text = Vec::new();
    let read = File::open(path).and_then(|mut file| {
        let len = file.metadata()?.len();
        file.seek(SeekFrom::Start(from.max(len.saturating_sub(64 * 1024))))?;
        file.read_to_end(&mut text)
    });
    match read {
        Ok(_) => last_lines(&String::from_utf8_lossy(&text), 30),
        Err(err) => format!("(cannot read the server log: {err})"),
    }
}

fn last_lines(text: &str, count: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(count)..].join("\n")
}

// ---------------------------------------------------------------------------------------------
// The running server: postmaster.pid, supervision, shutdown.

/// What the server's `postmaster.pid` says (the lines of PostgreSQL's `LOCK_FILE_LINE_*`).
#[derive(Debug, PartialEq)]
struct PidFile {
    pid: libc::pid_t,
    port: Option<u16>,
    /// The first listen address; empty when the server takes no TCP connections.
    listen: Option<String>,
    /// `starting`, `stopping`, `ready` or `standby` (PostgreSQL 10 and later).
    status: Option<String>,
}

impl PidFile {
    fn parse(text: &str) -> Option<PidFile> {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        // A negative pid is a single-user backend, not a postmaster to connect to.
        let pid = lines.first()?.parse().ok().filter(|pid| *pid > 0)?;
        Some(PidFile {
            pid,
            port: lines.get(3).and_then(|port| port.parse().ok()),
            listen: lines.get(5).map(|listen| (*listen).to_owned()),
            status: lines.get(7).map(|status| (*status).to_owned()),
        })
    }
}

fn read_pidfile(dir: &Path) -> io::Result<Option<PidFile>> {
    match fs::read_to_string(dir.join("postmaster.pid")) {
        Ok(text) => Ok(PidFile::parse(&text)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err),
    }
}

/// The live postmaster running in `dir`, if any, once it accepts connections.
fn find_running(dir: &Path) -> Result<Option<(libc::pid_t, u16)>> {
    let pidfile =
        read_pidfile(dir).with_context(|| format!("reading {}/postmaster.pid", dir.display()))?;
    let Some(pidfile) = pidfile else {
        return Ok(None);
    };
    let pid = pidfile.pid;
    if !pid_alive(pid) {
        // Left by a server that did not shut down cleanly; postgres replaces it when it starts.
        debug!(dir = %dir.display(), pid, "ignoring a stale postmaster.pid");
        return Ok(None);
    }
    if let Some(program) = process_args(pid).and_then(|args| args.into_iter().next())
        && !program.contains("postgres")
        && !program.contains("postmaster")
    {
        // E.g. left from before a reboot, its pid now taken by something else: postgres would
        // refuse to start while a process with that pid lives.
        warn!(dir = %dir.display(), pid, program, "postmaster.pid names a process that is not PostgreSQL; removing it");
        fs::remove_file(dir.join("postmaster.pid"))
            .with_context(|| format!("removing {}/postmaster.pid", dir.display()))?;
        return Ok(None);
    }
    if pidfile.status.as_deref() == Some("stopping") {
        info!(dir = %dir.display(), pid, "waiting for PostgreSQL to finish shutting down");
        if wait_until(STOP_TIMEOUT, || !pid_alive(pid)) {
            return Ok(None);
        }
        bail!(
            "PostgreSQL (pid {pid}) in {} has been shutting down for over {}s",
            dir.display(),
            STOP_TIMEOUT.as_secs()
        );
    }
    let Some(port) = pidfile.port else {
        bail!("{}/postmaster.pid names no port", dir.display());
    };
    if pidfile.listen.as_deref() == Some("") {
        bail!(
            "PostgreSQL (pid {pid}) runs in {dir} without TCP connections; stop it \
             (`pg_ctl -D {dir} stop`) and try again",
            dir = dir.display()
        );
    }
    match wait_ready(dir, port, pid, || pid_alive(pid), START_TIMEOUT) {
        Ok(()) => Ok(Some((pid, port))),
        // It stopped meanwhile: start it afresh.
        Err(NotReady::Exited) => Ok(None),
        Err(NotReady::TimedOut) => bail!(
            "PostgreSQL (pid {pid}) runs in {} but does not accept connections on \
             127.0.0.1:{port}; see {}",
            dir.display(),
            dir.join(LOG_FILE).display()
        ),
    }
}

/// A postmaster started by this process.
///
/// A supervisor thread spawns it and then waits for it for as long as it runs: the thread is
/// the server's parent, so its `PR_SET_PDEATHSIG` fires only when the whole process goes, and
/// the thread reaps the server when it exits so that no zombie is left.
#[derive(Debug)]
struct Postmaster {
    pid: libc::pid_t,
    state: Mutex<ChildState>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct ChildState {
    exited: bool,
    status: Option<ExitStatus>,
}

impl Postmaster {
    /// Spawns `cmd` from a new supervisor thread; fails if it cannot be spawned.
    fn spawn(mut cmd: Command) -> Result<Arc<Postmaster>> {
        let (sender, receiver) = mpsc::channel();
        thread::Builder::new()
            .name("postgres-supervisor".into())
            .spawn(move || {
                let child = match cmd.spawn() {
                    Ok(child) => child,
                    Err(err) => {
                        let _ = sender.send(Err(err));
                        return;
                    }
                };
                let postmaster = Arc::new(Postmaster {
                    pid: child.id() as libc::pid_t,
                    state: Mutex::default(),
                    changed: Condvar::new(),
                });
                let _ = sender.send(Ok(Arc::clone(&postmaster)));
                postmaster.supervise(child);
            })
            .context("starting the thread that supervises postgres")?;
        Ok(receiver
            .recv()
            .context("the thread that supervises postgres died")??)
    }

    /// Waits for the server to exit, marks it exited, then reaps it.
    fn supervise(&self, mut child: Child) {
        // Wait without reaping: the pid stays taken (by the zombie) until `exited` is set, and
        // `signal` checks `exited` under the same lock, so it never signals a recycled pid.
        loop {
            // SAFETY: all-zero is a valid siginfo_t, which waitid fills in.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            // SAFETY: `info` is valid for writing.
            let rc = unsafe {
                libc::waitid(
                    libc::P_PID,
                    self.pid as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOWAIT,
                )
            };
            if rc == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                break;
            }
        }
        let mut state = lock(&self.state);
        state.exited = true;
        state.status = child.wait().ok();
        debug!(pid = self.pid, status = ?state.status, "postgres exited");
        drop(state);
        self.changed.notify_all();
    }

    fn is_running(&self) -> bool {
        !lock(&self.state).exited
    }

    /// Sends `signal` unless the server has exited; whether it was sent.
    fn signal(&self, signal: libc::c_int) -> bool {
        let state = lock(&self.state);
        // SAFETY: kill has no memory-safety preconditions; the pid is still ours (see supervise).
        !state.exited && unsafe { libc::kill(self.pid, signal) } == 0
    }

    /// Waits up to `timeout` for the server to exit; whether it has.
    fn wait_exit(&self, timeout: Duration) -> bool {
        let state = lock(&self.state);
        let (state, _) = self
            .changed
            .wait_timeout_while(state, timeout, |state| !state.exited)
            .unwrap_or_else(PoisonError::into_inner);
        state.exited
    }

    fn status(&self) -> String {
        match lock(&self.state).status {
            Some(status) => status.to_string(),
            None => "exit status unknown".to_owned(),
        }
    }
}

/// Fast shutdown, then immediate shutdown if the fast one takes too long.
fn shut_down(
    dir: &Path,
    pid: libc::pid_t,
    signal: impl Fn(libc::c_int) -> io::Result<()>,
    wait_gone: impl Fn(Duration) -> bool,
) -> Result<()> {
    let not_permitted = |err: io::Error| {
        anyhow::Error::new(err).context(format!("signalling PostgreSQL (pid {pid})"))
    };
    signal(libc::SIGINT).map_err(not_permitted)?;
    if wait_gone(FAST_STOP_TIMEOUT) {
        return Ok(());
    }
    warn!(dir = %dir.display(), pid, "PostgreSQL did not finish a fast shutdown in time; shutting it down immediately");
    signal(libc::SIGQUIT).map_err(not_permitted)?;
    if wait_gone(KILL_TIMEOUT) {
        return Ok(());
    }
    bail!("PostgreSQL (pid {pid}) in {} did not stop", dir.display())
}

/// `kill(pid, signal)`, where a process that is gone already counts as success.
fn send_signal(pid: libc::pid_t, signal: libc::c_int) -> io::Result<()> {
    // SAFETY: kill has no memory-safety preconditions.
    if unsafe { libc::kill(pid, signal) } == 0 {
        return Ok(());
    }
    let err = io::Error::last_os_error();
    match err.raw_os_error() {
        Some(libc::ESRCH) => Ok(()),
        _ => Err(err),
    }
}

/// Whether process `pid` exists and has not exited (a zombie has).
fn pid_alive(pid: libc::pid_t) -> bool {
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 only checks that the process exists.
    let exists = unsafe { libc::kill(pid, 0) } == 0
        || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    exists && !is_zombie(pid)
}

fn is_zombie(pid: libc::pid_t) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // `pid (comm) state …`, where comm may contain anything, even ") ".
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
    })
}

/// The command line of process `pid`, if it can be read.
fn process_args(pid: libc::pid_t) -> Option<Vec<String>> {
    let raw = fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let args: Vec<String> = raw
        .split(|byte| *byte == 0)
        .filter(|arg| !arg.is_empty())
        .map(|arg| String::from_utf8_lossy(arg).into_owned())
        .collect();
    (!args.is_empty()).then_some(args)
}

/// Polls `done` until it holds or `timeout` passes; whether it held.
fn wait_until(timeout: Duration, done: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + timeout;
    loop {
        if done() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        thread::sleep(POLL);
    }
}

/// Locks `mutex`, ignoring poisoning: the data behind these locks stays consistent even if a
/// holder panicked.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

// ---------------------------------------------------------------------------------------------
// Authentication: the superuser's password and pg_hba.conf.

/// What `pg_hba.conf` says once the cluster is secured: a password for everyone, everywhere.
const HBA_CONF: &str = "\
# Written by Turnpost: every connection authenticates with a password (SCRAM-SHA-256).
# The superuser's password is in turnpost.password in this directory.
# TYPE  DATABASE  USER  ADDRESS       METHOD
local   all       all                 scram-sha-256
host    all       all   127.0.0.1/32  scram-sha-256
host    all       all   ::1/128       scram-sha-256
";

/// The password kept in `dir`, if the cluster has been secured.
fn read_password(dir: &Path) -> Result<Option<Password>> {
    let path = dir.join(PASSWORD_FILE);
    match fs::read_to_string(&path) {
        Ok(text) if !text.trim().is_empty() => Ok(Some(Password(text.trim().to_owned()))),
        Ok(_) => Ok(None),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err).with_context(|| format!("reading {}", path.display())),
    }
}

/// A fresh random password: 32 bytes from the kernel, in hex (nothing to escape in a URL).
fn generate_password() -> Result<Password> {
    let mut bytes = [0u8; 32];
    let mut filled = 0;
    while filled < bytes.len() {
        // SAFETY: the pointer and length describe the unfilled part of `bytes`.
        let n = unsafe {
            libc::getrandom(bytes[filled..].as_mut_ptr().cast(), bytes.len() - filled, 0)
        };
        if n < 0 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err).context("generating the database password");
        }
        filled += n as usize;
    }
    Ok(Password(hex::encode(bytes)))
}

/// Makes sure the (stopped) cluster in `dir` authenticates every connection, and returns the
/// superuser's password. A secured cluster has its password file, written last; otherwise a
/// password is generated, set in single-user mode (the plain text goes through a pipe, never
/// on a command line), `pg_hba.conf` is rewritten to demand it, and the file is written.
/// Each step can be repeated, so a crash half-way is repaired at the next start.
fn secure(bins: &Binaries, dir: &Path, user: Option<User>) -> Result<Password> {
    if let Some(password) = read_password(dir)? {
        return Ok(password);
    }
    info!(dir = %dir.display(), "setting a password for the PostgreSQL superuser");
    let password = generate_password()?;
    let mut cmd = command(&bins.postgres(), user);
    cmd.arg("--single")
        .arg("-D")
        .arg(dir)
        .args([
            "-c",
            "listen_addresses=",
            "-c",
            "password_encryption=scram-sha-256",
            SUPERUSER,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .with_context(|| format!("running {} --single", bins.postgres().display()))?;
    let statement = format!("ALTER ROLE \"{SUPERUSER}\" PASSWORD '{}';\n", password.0);
    if let Some(mut stdin) = child.stdin.take() {
        // A failure to write shows in the exit status and the output.
        let _ = stdin.write_all(statement.as_bytes());
    }
    let output = child
        .wait_with_output()
        .context("waiting for PostgreSQL in single-user mode")?;
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    if !output.status.success() || text.contains("ERROR:") || text.contains("FATAL:") {
        bail!(
            "setting the superuser's password in {} failed ({}):\n{}",
            dir.display(),
            output.status,
            last_lines(&text.replace(&password.0, "<password>"), 30)
        );
    }
    write_kept(&dir.join("pg_hba.conf"), HBA_CONF, user)?;
    let path = dir.join(PASSWORD_FILE);
    let partial = dir.join(format!("{PASSWORD_FILE}.partial"));
    let _ = fs::remove_file(&partial);
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&partial)
        .with_context(|| format!("creating {}", partial.display()))?;
    file.write_all(format!("{}\n", password.0).as_bytes())
        .and_then(|()| file.sync_all())
        .with_context(|| format!("writing {}", partial.display()))?;
    fs::rename(&partial, &path).with_context(|| format!("writing {}", path.display()))?;
    Ok(password)
}

/// Replaces the contents of a file of the cluster's, keeping it readable by the server: an
/// existing file keeps its owner and mode; a new one (mode 0600) is handed to `user`.
fn write_kept(path: &Path, contents: &str, user: Option<User>) -> Result<()> {
    let existed = path.exists();
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    file.write_all(contents.as_bytes())
        .and_then(|()| file.sync_all())
        .with_context(|| format!("writing {}", path.display()))?;
    if !existed && let Some(user) = user {
        std::os::unix::fs::chown(path, Some(user.uid), Some(user.gid))
            .with_context(|| format!("handing {} to the `{SERVER_USER}` user", path.display()))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Ownership: which Turnpost process stops the server, and which others use it.

/// A process, told apart from a later one that reuses its pid by its start time (in clock
/// ticks after boot, field 22 of `/proc/<pid>/stat`).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Process {
    pid: libc::pid_t,
    start: u64,
}

impl Process {
    fn current() -> Result<Process> {
        let pid = std::process::id() as libc::pid_t;
        Process::of(pid).context("reading /proc/self/stat")
    }

    /// Process `pid` as it is now, unless it is gone (or a zombie).
    fn of(pid: libc::pid_t) -> Option<Process> {
        let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // `pid (comm) state ppid …`, where comm may contain anything, even ") ".
        let (_, rest) = stat.rsplit_once(')')?;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.first().is_some_and(|state| state.starts_with('Z')) {
            return None;
        }
        let start = fields.get(19)?.parse().ok()?;
        Some(Process { pid, start })
    }

    fn alive(&self) -> bool {
        Process::of(self.pid) == Some(*self)
    }

    /// `<pid> <start>` (the owner file) or `<pid>-<start>` (a client's file name).
    fn parse(text: &str) -> Option<Process> {
        let (pid, start) = text.trim().split_once([' ', '-'])?;
        Some(Process {
            pid: pid.parse().ok().filter(|pid| *pid > 0)?,
            start: start.parse().ok()?,
        })
    }
}

/// The process recorded as the server's owner, if any.
fn read_owner(dir: &Path) -> Option<Process> {
    Process::parse(&fs::read_to_string(dir.join(OWNER_FILE)).ok()?)
}

fn write_owner(dir: &Path, owner: Process) -> Result<()> {
    let path = dir.join(OWNER_FILE);
    fs::write(&path, format!("{} {}\n", owner.pid, owner.start))
        .with_context(|| format!("writing {}", path.display()))
}

fn add_client(dir: &Path, client: Process) -> Result<()> {
    let clients = dir.join(CLIENTS_DIR);
    match DirBuilder::new().mode(0o700).create(&clients) {
        Ok(()) => {}
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
        Err(err) => return Err(err).with_context(|| format!("creating {}", clients.display())),
    }
    let path = clients.join(format!("{}-{}", client.pid, client.start));
    File::create(&path).with_context(|| format!("creating {}", path.display()))?;
    Ok(())
}

fn remove_client(dir: &Path, client: Process) -> io::Result<()> {
    fs::remove_file(
        dir.join(CLIENTS_DIR)
            .join(format!("{}-{}", client.pid, client.start)),
    )
}

/// The attached processes that still live, in pid order; the entries of dead ones are
/// removed.
fn live_clients(dir: &Path) -> Vec<Process> {
    let mut live = Vec::new();
    for entry in fs::read_dir(dir.join(CLIENTS_DIR))
        .into_iter()
        .flatten()
        .flatten()
    {
        match entry.file_name().to_str().and_then(Process::parse) {
            Some(client) if client.alive() => live.push(client),
            _ => {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
    live.sort_by_key(|client| client.pid);
    live
}

/// An exclusive `flock` on the cluster directory, held while a process decides whether to
/// start, attach to, restart or stop the server; released when dropped.
struct DirLock {
    _file: File,
}

impl DirLock {
    fn acquire(dir: &Path) -> Result<DirLock> {
        let file = File::open(dir).with_context(|| format!("opening {}", dir.display()))?;
        loop {
            // SAFETY: flock on a descriptor this function owns.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
                return Ok(DirLock { _file: file });
            }
            let err = io::Error::last_os_error();
            if err.kind() != io::ErrorKind::Interrupted {
                return Err(err).with_context(|| format!("locking {}", dir.display()));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Ephemeral clusters: directories, the exit hook, cleaning up after killed processes.

/// The running ephemeral clusters of this process, for the exit hook.
static EPHEMERAL: Mutex<Vec<(PathBuf, Arc<Postmaster>)>> = Mutex::new(Vec::new());
static AT_EXIT: Once = Once::new();

/// Runs at a normal process exit (`main` returning, `std::process::exit`): stops the ephemeral
/// clusters immediately and removes their directories. It does not wait for a lock another
/// thread holds at exit; PDEATHSIG and the next run clean up instead.
extern "C" fn stop_ephemeral_at_exit() {
    let clusters = match EPHEMERAL.try_lock() {
        Ok(mut clusters) => std::mem::take(&mut *clusters),
        Err(TryLockError::Poisoned(poisoned)) => std::mem::take(&mut *poisoned.into_inner()),
        Err(TryLockError::WouldBlock) => return,
    };
    for (_, postmaster) in &clusters {
        postmaster.signal(libc::SIGQUIT);
    }
    for (dir, postmaster) in &clusters {
        if postmaster.wait_exit(KILL_TIMEOUT) {
            let _ = fs::remove_dir_all(dir);
        }
    }
}

/// Creates `<root>/turnpost-pg-<pid>-<n>` (mode 0700; never an existing one, as the temp dir
/// is shared with other users).
fn create_ephemeral_dir(root: &Path) -> Result<PathBuf> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    for _ in 0..1000 {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = root.join(format!("{EPHEMERAL_PREFIX}{}-{n}", std::process::id()));
        match DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => return Ok(dir),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(err) => {
                return Err(err).with_context(|| format!("creating {}", dir.display()));
            }
        }
    }
    bail!(
        "could not create a fresh directory under {}",
        root.display()
    )
}

/// Removes the ephemeral cluster directories under `root` left by processes that were killed
/// (their exit hook never ran). Only directories of dead processes, owned by this user or the
/// server user, are touched; a postmaster still running in one (which PDEATHSIG should have
/// prevented) is shut down and its directory left for the next run.
fn remove_stale_ephemeral_dirs(root: &Path, user: Option<User>) {
    let Ok(entries) = fs::read_dir(root) else {
        return;
    };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(owner_pid) = name
            .to_str()
            .and_then(|name| name.strip_prefix(EPHEMERAL_PREFIX))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<libc::pid_t>().ok())
        else {
            continue;
        };
        if owner_pid as u32 == std::process::id() || pid_alive(owner_pid) {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.is_dir() || (meta.uid() != me && user.is_none_or(|user| meta.uid() != user.uid)) {
            continue;
        }
        if let Some(pidfile) = read_pidfile(&path).ok().flatten()
            && pid_alive(pidfile.pid)
            && process_args(pidfile.pid)
                .is_some_and(|args| args.iter().any(|arg| Path::new(arg) == path))
        {
            let _ = send_signal(pidfile.pid, libc::SIGQUIT);
            continue;
        }
        match fs::remove_dir_all(&path) {
            Ok(()) => debug!(dir = %path.display(), "removed a stale test cluster directory"),
            Err(err) => {
                debug!(dir = %path.display(), %err, "could not remove a stale test cluster directory")
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    //! These need the PostgreSQL server binaries and `psql`; each cluster takes a second or
    //! two to initialise. They pass as root (running PostgreSQL as `postgres`) and as a normal
    //! user, and leave no server running even when they fail.

    use super::*;
    use std::io::{BufRead, BufReader, Write};

    /// Selects the mode of [`ephemeral_helper_process`] in a child process.
    const HELPER_ENV: &str = "TURNPOST_CLUSTER_TEST_HELPER";

    /// Runs `select 1` (or `query`) through psql at `url`, returning the unaligned output.
    fn psql(url: &str, query: &str) -> String {
        let output = Command::new("psql")
            .args(["-X", "-A", "-t", "-c", query, url])
            .output()
            .expect("running psql");
        assert!(
            output.status.success(),
            "psql {url} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap().trim().to_owned()
    }

    /// psql with `args` (a URL, or `-h`/`-p`/`-U`), never prompting and knowing no password
    /// but what the arguments carry: its output, or its error message.
    fn try_psql(args: &[&str]) -> Result<String, String> {
        let output = Command::new("psql")
            .args(["-X", "-A", "-t", "-w", "-c", "select 1"])
            .args(args)
            .env_remove("PGPASSWORD")
            .env("PGPASSFILE", "/dev/null")
            .output()
            .expect("running psql");
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
        } else {
            Err(String::from_utf8_lossy(&output.stderr).into_owned())
        }
    }

    /// Checks that `cluster` refuses connections without its password, over TCP and over its
    /// Unix socket, and takes them with it.
    fn assert_password_required(cluster: &Cluster) {
        let port = cluster.port().to_string();
        assert_eq!(try_psql(&[&cluster.url("postgres")]).as_deref(), Ok("1"));
        let tcp = try_psql(&["-h", "127.0.0.1", "-p", &port, "-U", "postgres", "postgres"]);
        let err = tcp.expect_err("a connection without the password is refused");
        assert!(err.contains("password"), "{err}");
        let socket_dir = socket_dir_setting(cluster.dir());
        if !socket_dir.is_empty() {
            let local = try_psql(&["-h", &socket_dir, "-p", &port, "-U", "postgres", "postgres"]);
            let err = local.expect_err("a local connection without the password is refused");
            assert!(err.contains("password"), "{err}");
        }
    }

    /// Name prefix of [`Scratch`] directories in the temp dir: `<prefix><name>-<pid>`.
    const SCRATCH_PREFIX: &str = "turnpost-cluster-test-";

    /// A scratch directory (mode 0755, so the server user can pass it) that, when dropped,
    /// stops any server left running in a cluster under it and removes it. Persistent clusters
    /// outlive their process by design, so the scratch directories of test processes that were
    /// killed are cleaned up by the next run.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let temp = std::env::temp_dir();
            for entry in fs::read_dir(&temp).into_iter().flatten().flatten() {
                let owner = entry
                    .file_name()
                    .to_str()
                    .filter(|name| name.starts_with(SCRATCH_PREFIX))
                    .and_then(|name| name.rsplit_once('-')?.1.parse::<libc::pid_t>().ok());
                if owner.is_some_and(|pid| !pid_alive(pid)) {
                    discard(&entry.path());
                }
            }
            let dir = temp.join(format!("{SCRATCH_PREFIX}{name}-{}", std::process::id()));
            discard(&dir);
            fs::create_dir_all(&dir).unwrap();
            fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
            Scratch(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            discard(&self.0);
        }
    }

    /// Stops the servers running in clusters directly under `dir`, then removes it.
    fn discard(dir: &Path) {
        for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
            let cluster = entry.path();
            if let Some(pidfile) = read_pidfile(&cluster).ok().flatten()
                && pid_alive(pidfile.pid)
                && process_args(pidfile.pid)
                    .is_some_and(|args| args.iter().any(|arg| Path::new(arg) == cluster))
            {
                let _ = send_signal(pidfile.pid, libc::SIGQUIT);
                wait_until(KILL_TIMEOUT, || !pid_alive(pidfile.pid));
            }
        }
        let _ = fs::remove_dir_all(dir);
    }

    fn running_pid(cluster: &Cluster) -> libc::pid_t {
        cluster.pid().expect("the cluster is stopped")
    }

    /// The processes whose parent is `pid` (the postmaster's backends and workers).
    fn children_of(pid: libc::pid_t) -> Vec<libc::pid_t> {
        fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.parse::<libc::pid_t>().ok())
            .filter(|child| {
                fs::read_to_string(format!("/proc/{child}/stat")).is_ok_and(|stat| {
                    stat.rsplit_once(')')
                        .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse().ok())
                        == Some(pid)
                })
            })
            .collect()
    }

    #[test]
    fn cluster_is_send_and_sync() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Cluster>();
    }

    #[test]
    fn persistent_cluster_is_initialised_reused_and_stopped() {
        let scratch = Scratch::new("persistent");
        let dir = scratch.0.join("pg");

        let mut first = Cluster::start(&dir).unwrap();
        assert!(dir.join("PG_VERSION").is_file());
        assert_eq!(psql(&first.url("postgres"), "select 1"), "1");
        assert_eq!(psql(&first.url("postgres"), "show fsync"), "on");
        assert_eq!(
            psql(&first.url("postgres"), "show listen_addresses"),
            "127.0.0.1"
        );
        if let Some(user) = server_user().unwrap() {
            assert_eq!(fs::metadata(&dir).unwrap().uid(), user.uid);
        }
        let pid = running_pid(&first);

        // A second start while it runs reuses it.
        let mut second = Cluster::start(&dir).unwrap();
        assert_eq!(second.port(), first.port());
        assert_eq!(running_pid(&second), pid);
        assert!(matches!(*lock(&second.server), Server::Foreign(_)));

        second.stop().unwrap();
        assert!(!pid_alive(pid));
        assert!(read_pidfile(&dir).unwrap().is_none());
        // Stopping what another handle stopped already is fine, and so is stopping twice.
        first.stop().unwrap();
        first.stop().unwrap();

        // Starting again reuses the initialised directory.
        let created = fs::metadata(dir.join("PG_VERSION"))
            .unwrap()
            .modified()
            .unwrap();
        let mut third = Cluster::start(&dir).unwrap();
        assert_eq!(
            fs::metadata(dir.join("PG_VERSION"))
                .unwrap()
                .modified()
                .unwrap(),
            created
        );
        assert_eq!(psql(&third.url("postgres"), "select 1"), "1");
        let pid = running_pid(&third);
        third.stop().unwrap();
        assert!(!pid_alive(pid));
        assert!(
            dir.join("PG_VERSION").is_file(),
            "stop keeps a persistent cluster"
        );

        // A server that fails to start is reported with the end of its log.
        let mut config = OpenOptions::new()
            .append(true)
            .open(dir.join("postgresql.conf"))
            .unwrap();
        writeln!(config, "no_such_setting = 1").unwrap();
        let err = format!("{:#}", Cluster::start(&dir).unwrap_err());
        assert!(err.contains("exited while starting"), "{err}");
        assert!(err.contains("\"no_such_setting\""), "{err}");
        assert!(read_pidfile(&dir).unwrap().is_none());
    }

    #[test]
    fn connections_need_the_generated_password() {
        let scratch = Scratch::new("password");
        let dir = scratch.0.join("pg");
        let mut cluster = Cluster::start(&dir).unwrap();
        assert_password_required(&cluster);
        let file = fs::metadata(dir.join(PASSWORD_FILE)).unwrap();
        assert_eq!(file.permissions().mode() & 0o777, 0o600);
        // SAFETY: geteuid has no preconditions.
        assert_eq!(file.uid(), unsafe { libc::geteuid() });
        let password = fs::read_to_string(dir.join(PASSWORD_FILE)).unwrap();
        assert_eq!(password.trim().len(), 64);
        assert!(cluster.url("postgres").contains(password.trim()));
        assert!(!format!("{cluster:?}").contains(password.trim()));
        assert!(
            !fs::read_to_string(dir.join(LOG_FILE))
                .unwrap()
                .contains(password.trim()),
            "the password is not in the server log"
        );
        cluster.stop().unwrap();

        // The password survives a restart.
        let mut again = Cluster::start(&dir).unwrap();
        assert!(again.url("postgres").contains(password.trim()));
        assert_password_required(&again);
        again.stop().unwrap();

        let ephemeral = Cluster::shared_ephemeral().unwrap();
        assert_password_required(ephemeral);
    }

    #[test]
    fn trust_cluster_is_secured_at_its_next_start() {
        let scratch = Scratch::new("trust");
        let dir = scratch.0.join("pg");
        // A cluster as older versions left it: `trust` for everyone.
        let user = server_user().unwrap();
        let bins = Binaries::find(None).unwrap();
        prepare_dir(&dir, user, &bins).unwrap();
        initdb(&bins, &dir, user, true).unwrap();
        assert!(!dir.join(PASSWORD_FILE).exists());
        let mut cluster = Cluster::start(&dir).unwrap();
        assert!(dir.join(PASSWORD_FILE).is_file());
        assert_password_required(&cluster);
        cluster.stop().unwrap();
    }

    #[test]
    fn only_the_owner_stops_the_server() {
        let scratch = Scratch::new("owner");
        let dir = scratch.0.join("pg");
        let mut first = Cluster::start(&dir).unwrap();
        let pid = running_pid(&first);
        let me = Process::current().unwrap();
        assert_eq!(read_owner(&dir), Some(me));
        // Stand-ins for other Turnpost processes: one that lives (init) and one that is gone.
        let other = Process::of(1).unwrap();
        let dead = {
            let mut child = Command::new("true").spawn().unwrap();
            let process = Process::of(child.id() as libc::pid_t);
            child.wait().unwrap();
            process.unwrap_or(Process { pid: 1, start: 0 })
        };
        assert!(!dead.alive());

        // Another live process owns it: neither kind of start takes it over, and stop leaves
        // it running.
        write_owner(&dir, other).unwrap();
        let mut tool = Cluster::attach_or_start(&dir).unwrap();
        assert_eq!(running_pid(&tool), pid);
        assert_eq!(live_clients(&dir), vec![me]);
        tool.stop().unwrap();
        assert!(
            pid_alive(pid),
            "an attached command leaves the server running"
        );
        assert!(live_clients(&dir).is_empty());
        let mut service = Cluster::start(&dir).unwrap();
        service.stop().unwrap();
        assert!(pid_alive(pid));
        assert_eq!(read_owner(&dir), Some(other));

        // Its owner is gone (a crashed service): a one-shot command still only attaches, the
        // service takes it over and stops it.
        write_owner(&dir, dead).unwrap();
        let mut tool = Cluster::attach_or_start(&dir).unwrap();
        tool.stop().unwrap();
        assert!(pid_alive(pid));
        assert_eq!(read_owner(&dir), Some(dead));
        let mut service = Cluster::start(&dir).unwrap();
        assert_eq!(read_owner(&dir), Some(me));

        // An owner with another process attached hands the server over instead of stopping it.
        add_client(&dir, other).unwrap();
        service.stop().unwrap();
        assert!(
            pid_alive(pid),
            "the owner leaves the server to the attached process"
        );
        assert_eq!(read_owner(&dir), Some(other));
        assert!(live_clients(&dir).is_empty());
        first.stop().unwrap();
        assert!(pid_alive(pid));

        // Once this process owns it again and nobody is attached, stop stops it.
        write_owner(&dir, me).unwrap();
        let mut last = Cluster::start(&dir).unwrap();
        last.stop().unwrap();
        assert!(!pid_alive(pid));
        assert!(!dir.join(OWNER_FILE).exists());
    }

    #[test]
    fn watchdog_restarts_a_dead_server_on_the_same_port() {
        let scratch = Scratch::new("watchdog");
        let dir = scratch.0.join("pg");
        let mut cluster = Cluster::start(&dir).unwrap();
        cluster.watch(Duration::from_millis(200)).unwrap();
        let url = cluster.url("postgres");
        let pid = running_pid(&cluster);
        send_signal(pid, libc::SIGKILL).unwrap();
        assert!(wait_until(Duration::from_secs(10), || !pid_alive(pid)));
        assert!(
            wait_until(Duration::from_secs(90), || {
                cluster.pid().is_some_and(|new| new != pid) && try_psql(&[&url]).is_ok()
            }),
            "the watchdog did not bring the server back: {}",
            log_tail(&dir.join(LOG_FILE), 0)
        );
        let restarted = running_pid(&cluster);
        assert!(pid_alive(restarted));
        assert_eq!(read_owner(&dir), Some(Process::current().unwrap()));
        cluster.stop().unwrap();
        assert!(!pid_alive(restarted));
    }

    #[test]
    fn processes_are_parsed() {
        assert_eq!(
            Process::parse("4242 123456\n"),
            Some(Process {
                pid: 4242,
                start: 123_456
            })
        );
        assert_eq!(
            Process::parse("4242-7"),
            Some(Process {
                pid: 4242,
                start: 7
            })
        );
        assert_eq!(Process::parse("4242"), None);
        assert_eq!(Process::parse("-1 7"), None);
        let me = Process::current().unwrap();
        assert!(me.alive());
        assert!(
            !Process {
                start: me.start + 1,
                ..me
            }
            .alive()
        );
    }

    #[test]
    fn port_conflicts_are_recognised() {
        let log = "LOG:  could not bind IPv4 address \"127.0.0.1\": Address already in use\n\
                   FATAL:  could not create any TCP/IP sockets\n";
        assert!(port_taken(log));
        assert!(!port_taken("FATAL:  data directory has wrong ownership"));
    }

    #[test]
    fn a_data_directory_held_by_a_dead_servers_processes_is_recognised() {
        // PostgreSQL 15's words after its postmaster was killed while backends still ran.
        let lock = "FATAL:  lock file \"postmaster.pid\" already exists\n\
                    HINT:  Is another postmaster (PID 1680) running in data directory \"/d/pg\"?\n";
        assert!(stale_lock(lock));
        let shm =
            "FATAL:  pre-existing shared memory block (key 5432001, ID 32769) is still in use\n";
        assert!(stale_lock(shm));
        assert!(!stale_lock("FATAL:  data directory has wrong ownership"));
    }

    #[test]
    fn ephemeral_clusters_are_independent_and_removed_by_stop() {
        let mut a = Cluster::start_ephemeral().unwrap();
        let b = Cluster::start_ephemeral().unwrap();
        assert_ne!(a.port(), b.port());
        assert_ne!(a.dir(), b.dir());
        for cluster in [&a, &b] {
            assert_eq!(psql(&cluster.url("postgres"), "select 1"), "1");
            assert_eq!(psql(&cluster.url("postgres"), "show fsync"), "off");
        }
        psql(&a.url("postgres"), "create database \"game-1\"");
        assert_eq!(
            psql(&a.url("game-1"), "select current_database()"),
            "game-1"
        );

        let pid = running_pid(&a);
        let dir = a.dir().to_path_buf();
        a.stop().unwrap();
        assert!(!pid_alive(pid));
        assert!(!dir.exists());
        assert!(
            !lock(&EPHEMERAL)
                .iter()
                .any(|(registered, _)| *registered == dir)
        );
        // `b` is left running: the exit hook stops it.
        assert_eq!(psql(&b.url("postgres"), "select 1"), "1");
    }

    #[test]
    fn shared_ephemeral_cluster_is_started_once() {
        let threads: Vec<_> = (0..4)
            .map(|_| {
                thread::spawn(|| Cluster::shared_ephemeral().unwrap() as *const Cluster as usize)
            })
            .collect();
        let addresses: Vec<usize> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        assert!(addresses.windows(2).all(|pair| pair[0] == pair[1]));
        let cluster = Cluster::shared_ephemeral().unwrap();
        assert_eq!(psql(&cluster.url("postgres"), "select 1"), "1");
    }

    /// Not a test of its own: [`run_helper`] runs it in a child process, which starts an
    /// ephemeral cluster, reports it and, told to go on, ends as `HELPER_ENV` says.
    #[test]
    #[ignore = "run in a child process by the ephemeral_cluster_* tests"]
    fn ephemeral_helper_process() {
        let Ok(mode) = std::env::var(HELPER_ENV) else {
            return;
        };
        let cluster = Cluster::start_ephemeral().unwrap();
        println!(
            "READY {} {}",
            running_pid(&cluster),
            cluster.dir().display()
        );
        std::io::stdout().flush().unwrap();
        // Wait for the parent to look at the cluster (it kills us meanwhile in "kill" mode);
        // end of input counts too, so that a helper whose parent failed does not linger.
        let mut line = String::new();
        let _ = std::io::stdin().read_line(&mut line);
        match mode.as_str() {
            "panic" => panic!("the helper panics on purpose"),
            "abort" => std::process::abort(),
            _ => {}
        }
    }

    /// What a helper process reported, and what became of it.
    struct Helper {
        postmaster: libc::pid_t,
        backends: Vec<libc::pid_t>,
        dir: PathBuf,
    }

    /// Runs [`ephemeral_helper_process`] in a child process in `mode` ("kill": SIGKILL it once
    /// its cluster runs) and waits for the child to end.
    fn run_helper(mode: &str) -> Helper {
        let module = module_path!();
        let test = format!(
            "{}::ephemeral_helper_process",
            module.split_once("::").map_or(module, |(_, path)| path)
        );
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                &test,
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(HELPER_ENV, mode)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // libtest prints the report on its `test … ` line. Read on a thread of its own, so that
        // a helper that never reports is killed rather than waited for forever.
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (sender, receiver) = mpsc::channel();
        thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if let Some((_, ready)) = line.split_once("READY ") {
                    let _ = sender.send(ready.to_owned());
                }
            }
        });
        let Ok(ready) = receiver.recv_timeout(Duration::from_secs(60)) else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the helper did not report its cluster");
        };
        let (pid, dir) = ready.split_once(' ').unwrap();
        let postmaster: libc::pid_t = pid.parse().unwrap();
        let backends = children_of(postmaster);
        assert!(
            !backends.is_empty(),
            "the postmaster has its background processes"
        );
        if mode == "kill" {
            send_signal(child.id() as libc::pid_t, libc::SIGKILL).unwrap();
        } else {
            child.stdin.take().unwrap().write_all(b"go\n").unwrap();
        }
        child.wait().unwrap();
        Helper {
            postmaster,
            backends,
            dir: PathBuf::from(dir),
        }
    }

    fn assert_server_gone(helper: &Helper) {
        assert!(
            wait_until(Duration::from_secs(15), || {
                !pid_alive(helper.postmaster) && !helper.backends.iter().any(|pid| pid_alive(*pid))
            }),
            "the server outlived its process"
        );
    }

    #[test]
    fn ephemeral_cluster_is_removed_when_its_process_exits() {
        let helper = run_helper("exit");
        // The exit hook waited for the server and removed the directory before the exit.
        assert!(!pid_alive(helper.postmaster));
        assert_server_gone(&helper);
        assert!(!helper.dir.exists());
    }

    #[test]
    fn ephemeral_cluster_is_removed_when_a_test_panics() {
        let helper = run_helper("panic");
        assert!(!pid_alive(helper.postmaster));
        assert_server_gone(&helper);
        assert!(!helper.dir.exists());
    }

    #[test]
    fn ephemeral_cluster_dies_when_its_process_aborts() {
        let helper = run_helper("abort");
        assert_server_gone(&helper);
        remove_stale_ephemeral_dirs(helper.dir.parent().unwrap(), server_user().unwrap());
        assert!(!helper.dir.exists(), "the next run removes the directory");
    }

    #[test]
    fn ephemeral_cluster_dies_when_its_process_is_killed() {
        let helper = run_helper("kill");
        assert_server_gone(&helper);
        remove_stale_ephemeral_dirs(helper.dir.parent().unwrap(), server_user().unwrap());
        assert!(!helper.dir.exists(), "the next run removes the directory");
    }

    #[test]
    fn stale_dirs_of_live_processes_are_kept() {
        let scratch = Scratch::new("stale");
        // pid 1 lives; a process that has been reaped does not.
        let live = scratch.0.join(format!("{EPHEMERAL_PREFIX}1-0"));
        let dead_pid = Command::new("true").spawn().unwrap();
        let dead_pid = {
            let mut child = dead_pid;
            child.wait().unwrap();
            child.id()
        };
        let dead = scratch.0.join(format!("{EPHEMERAL_PREFIX}{dead_pid}-0"));
        let unrelated = scratch.0.join("turnpost-pgx");
        for dir in [&live, &dead, &unrelated] {
            fs::create_dir(dir).unwrap();
            fs::write(dir.join("PG_VERSION"), "15\n").unwrap();
        }
        remove_stale_ephemeral_dirs(&scratch.0, None);
        assert!(live.exists());
        assert!(unrelated.exists());
        assert_eq!(dead.exists(), pid_alive(dead_pid as libc::pid_t));
    }

    #[test]
    fn unreachable_directory_is_reported_when_root() {
        let Some(user) = server_user().unwrap() else {
            eprintln!("not root: nothing to check");
            return;
        };
        let scratch = Scratch::new("unreachable");
        let private = scratch.0.join("private");
        fs::create_dir(&private).unwrap();
        fs::set_permissions(&private, fs::Permissions::from_mode(0o700)).unwrap();
        let err = Cluster::start(&private.join("pg")).unwrap_err().to_string();
        assert!(err.contains("cannot enter"), "{err}");
        assert!(
            err.contains(&format!("{} on the way", private.display())),
            "{err}"
        );
        assert!(err.contains("chmod o+x"), "{err}");
        assert_ne!(user.uid, 0);
    }

    #[test]
    fn binaries_are_found() {
        let bins = Binaries::find(None).unwrap();
        assert!(has_server(&bins.bindir));
        assert!(!bins.major.is_empty());
    }

    /// Creates an executable file (contents irrelevant).
    fn fake_binary(path: &Path) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "#!/bin/sh\n").unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn bindir_search_order() {
        let scratch = Scratch::new("bindir");
        let root = scratch.0.join("lib");
        for version in ["9.6", "15", "16"] {
            fake_binary(&root.join(version).join("bin/postgres"));
        }
        for version in ["9.6", "15"] {
            fake_binary(&root.join(version).join("bin/initdb"));
        }
        // 16 lacks initdb (a client-only install): the highest complete one wins.
        assert_eq!(
            find_bindir(None, None, &root, None).unwrap(),
            root.join("15/bin")
        );
        // An existing cluster's version comes first; then pg_config's.
        assert_eq!(
            find_bindir(Some("9.6"), None, &root, None).unwrap(),
            root.join("9.6/bin")
        );
        let elsewhere = scratch.0.join("opt/bin");
        fake_binary(&elsewhere.join("initdb"));
        fake_binary(&elsewhere.join("postgres"));
        assert_eq!(
            find_bindir(None, Some(&elsewhere), &root, None).unwrap(),
            elsewhere
        );
        assert_eq!(
            find_bindir(None, Some(&root.join("16/bin")), &root, None).unwrap(),
            root.join("15/bin")
        );

        // PATH: symlinks resolve to the real directory; a wrapper without postgres is skipped.
        let empty = scratch.0.join("none");
        let wrappers = scratch.0.join("wrappers");
        fake_binary(&wrappers.join("initdb"));
        let links = scratch.0.join("links");
        fs::create_dir_all(&links).unwrap();
        std::os::unix::fs::symlink(elsewhere.join("initdb"), links.join("initdb")).unwrap();
        let path = std::env::join_paths([&wrappers, &links]).unwrap();
        assert_eq!(
            find_bindir(None, None, &empty, Some(&path)).unwrap(),
            fs::canonicalize(&elsewhere).unwrap()
        );

        let err = find_bindir(None, None, &empty, Some(OsStr::new(wrappers.as_os_str())))
            .unwrap_err()
            .to_string();
        assert!(err.contains("apt-get install postgresql"), "{err}");
    }

    #[test]
    fn major_versions_are_parsed() {
        let debian = "postgres (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)\n";
        assert_eq!(parse_major(debian).as_deref(), Some("15"));
        assert_eq!(
            parse_major("postgres (PostgreSQL) 9.6.24").as_deref(),
            Some("9.6")
        );
        assert_eq!(
            parse_major("postgres (PostgreSQL) 18devel").as_deref(),
            Some("18")
        );
        assert_eq!(parse_major("postgres (PostgreSQL)"), None);
    }

    #[test]
    fn pid_files_are_parsed() {
        let text =
            "4242\n/tmp/pg\n1700000000\n54321\n/tmp/pg\n127.0.0.1\n  1234   5678\nready   \n";
        assert_eq!(
            PidFile::parse(text),
            Some(PidFile {
                pid: 4242,
                port: Some(54321),
                listen: Some("127.0.0.1".into()),
                status: Some("ready".into()),
            })
        );
        // Still being written while the server starts.
        assert_eq!(
            PidFile::parse("4242\n/tmp/pg\n1700000000\n54321\n"),
            Some(PidFile {
                pid: 4242,
                port: Some(54321),
                listen: None,
                status: None
            })
        );
        assert_eq!(PidFile::parse("-4242\n/tmp/pg\n"), None);
        assert_eq!(PidFile::parse(""), None);
    }

    #[test]
    fn socket_directory_is_used_only_when_short_and_plain() {
        assert_eq!(
            socket_dir_setting(Path::new("/tmp/turnpost-pg-1-0")),
            "/tmp/turnpost-pg-1-0"
        );
        let long = format!("/{}", "d".repeat(SOCKET_PATH_MAX));
        assert_eq!(socket_dir_setting(Path::new(&long)), "");
        assert_eq!(socket_dir_setting(Path::new("/data/my games")), "");
        assert_eq!(socket_dir_setting(Path::new("/data/a,b")), "");
    }

    #[test]
    fn urls_name_the_database() {
        let mut cluster = Cluster {
            dir: PathBuf::from("/tmp/pg"),
            port: 5433,
            password: Some(Password("0a1b".into())),
            ephemeral: false,
            server: Arc::new(Mutex::new(Server::Stopped)),
            watchdog: None,
        };
        assert_eq!(
            cluster.url("turnpost"),
            "postgres://postgres:0a1b@127.0.0.1:5433/turnpost"
        );
        assert_eq!(
            cluster.url("test db/1"),
            "postgres://postgres:0a1b@127.0.0.1:5433/test%20db%2F1"
        );
        assert!(!format!("{cluster:?}").contains("0a1b"));
        // A cluster from before passwords, found running with `trust`.
        cluster.password = None;
        assert_eq!(
            cluster.url("turnpost"),
            "postgres://postgres@127.0.0.1:5433/turnpost"
        );
    }
}
