//! A private PostgreSQL cluster, run from the local PostgreSQL server binaries.
//!
//! Turnpost stores its games in PostgreSQL, but nobody should have to set one up just to try
//! the service or run its tests: with no `DATABASE_URL`, `turnpost serve` runs its own cluster
//! under the data dir ([`Cluster::start`]), and the integration tests run a throw-away one
//! ([`Cluster::start_ephemeral`], shared per process through [`Cluster::shared_ephemeral`]).
//!
//! This is process management, not storage (`store` is diesel over whatever PostgreSQL it is
//! given): it finds the server binaries, creates the cluster with `initdb`, starts `postgres`
//! on 127.0.0.1 and a free port (another PostgreSQL may well hold 5432), waits until it accepts
//! connections, keeps it running, and stops it again. The Unix socket lives inside the cluster
//! directory (when the path is short enough for a socket address), never in
//! `/var/run/postgresql`.
//!
//! One file per concern; each uses only the files listed before it:
//! - `process`: Linux processes (identity, liveness, signals) and small waiting helpers;
//! - `binaries`: finding `initdb` and `postgres`, and their major version;
//! - `create`: the user the server runs as, the cluster directory, `initdb`;
//! - `credentials`: the superuser's password, its file and `pg_hba.conf`;
//! - `postmaster`: a postmaster this process started, and `postmaster.pid`;
//! - `launch`: starting `postgres` and waiting until it is ready;
//! - `handover`: which Turnpost process owns the server, which others use it;
//! - `supervise`: finding a running server, the watchdog, shutting down;
//! - `ephemeral`: throw-away test clusters, their exit hook and clean-up;
//! - this file: [`Cluster`], the public face.
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
//! (`pg_hba.conf` is written by `credentials::secure`): the `postgres` superuser's password is generated
//! at random when the cluster is created and kept in `turnpost.password` (mode 0600, owned by
//! the user Turnpost runs as) in the cluster directory, and [`Cluster::url`] carries it. A
//! cluster created before passwords (with `trust`) is secured the next time it starts. The
//! password is never logged.
//!
//! Linux only: it relies on `prctl`, `flock` and `/proc`.

mod binaries;
mod create;
mod credentials;
mod ephemeral;
mod handover;
mod launch;
mod postmaster;
mod process;
mod supervise;
#[cfg(test)]
mod testing;

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use tracing::{info, warn};

use binaries::{Binaries, cluster_version};
use create::{SUPERUSER, check_own_dir, initdb, prepare_dir, server_user};
use credentials::{Password, read_password, secure};
use handover::{
    DirLock, OWNER_FILE, add_client, live_clients, read_owner, remove_client, write_owner,
};
use launch::launch;
use process::{Process, lock};
use supervise::{Server, Watchdog, find_running, stop_server};

pub use credentials::PASSWORD_FILE;

/// How often the service's watchdog ([`Cluster::watch`]) checks that the server still runs.
pub const WATCH_INTERVAL: Duration = Duration::from_secs(2);

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
        ephemeral::remove_stale_ephemeral_dirs(&root, user);
        let bins = Binaries::find(None)?;
        ephemeral::install_exit_hook();
        let dir = ephemeral::create_ephemeral_dir(&root)?;
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
        ephemeral::register(&dir, &postmaster);
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
        self.watchdog = Some(Watchdog::start(&self.dir, self.port, &self.server, every)?);
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
            watchdog.stop();
        }
        let dir = self.dir.display().to_string();
        let mut server = lock(&self.server);
        if matches!(*server, Server::Stopped) {
            return Ok(());
        }
        if self.ephemeral {
            stop_server(&self.dir, self.port, &server)?;
            *server = Server::Stopped;
            ephemeral::forget(&self.dir);
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use std::fs::OpenOptions;
    use std::io::Write;
    use std::os::unix::fs::MetadataExt;

    use super::*;
    use postmaster::read_pidfile;
    use process::pid_alive;
    use testing::{Scratch, psql, running_pid};

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
