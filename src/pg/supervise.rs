//! Keeping the server of a persistent cluster running and stopping it: finding the postmaster
//! that runs in a cluster directory (its `postmaster.pid`), the watchdog that starts a dead
//! server again on the same port, and the fast-then-immediate shutdown.

use std::fs;
use std::io;
use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use tracing::{debug, info, warn};

use super::binaries::{Binaries, cluster_version};
use super::create::server_user;
use super::handover::{DirLock, write_owner};
use super::launch::{LOG_FILE, NotReady, START_TIMEOUT, launch, wait_ready};
use super::postmaster::{KILL_TIMEOUT, Postmaster, read_pidfile};
use super::process::{Process, lock, pid_alive, process_args, send_signal, wait_until};

/// How long a fast shutdown may take before it is turned into an immediate one.
const STOP_TIMEOUT: Duration = Duration::from_secs(60);
/// How long the fast shutdown of `stop` may take before it is turned into an immediate one:
/// a supervisor gives a stopping service 10 s (Docker's default) before it kills it, and an
/// immediate shutdown loses nothing committed (the next start replays the WAL).
const FAST_STOP_TIMEOUT: Duration = Duration::from_secs(4);

/// How this process knows the running postmaster.
#[derive(Debug)]
pub(super) enum Server {
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

    pub(super) fn pid(&self) -> Option<libc::pid_t> {
        match self {
            Server::Child(postmaster) => Some(postmaster.pid),
            Server::Foreign(pid) => Some(*pid),
            Server::Stopped => None,
        }
    }
}

/// The live postmaster running in `dir`, if any, once it accepts connections.
pub(super) fn find_running(dir: &Path) -> Result<Option<(libc::pid_t, u16)>> {
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

/// The watchdog's thread and the channel that stops it (by being dropped).
#[derive(Debug)]
pub(super) struct Watchdog {
    stop: mpsc::Sender<()>,
    thread: thread::JoinHandle<()>,
}

impl Watchdog {
    /// Starts a thread that checks every `every` that the server of the persistent cluster in
    /// `dir` still runs and, when it has died, starts it again on `port`, replacing `server`.
    pub(super) fn start(
        dir: &Path,
        port: u16,
        server: &Arc<Mutex<Server>>,
        every: Duration,
    ) -> Result<Watchdog> {
        let (stop, stopped) = mpsc::channel::<()>();
        let dir = dir.to_path_buf();
        let server = Arc::clone(server);
        let thread = thread::Builder::new()
            .name("postgres-watchdog".into())
            .spawn(move || watch(&dir, port, &server, every, &stopped))
            .context("starting the thread that watches PostgreSQL")?;
        Ok(Watchdog { stop, thread })
    }

    /// Ends the thread and waits for it.
    pub(super) fn stop(self) {
        drop(self.stop);
        if self.thread.join().is_err() {
            warn!("the PostgreSQL watchdog panicked");
        }
    }
}

/// The watchdog's loop (see [`Watchdog::start`]); returns when `stopped`'s sender is dropped.
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
pub(super) fn stop_server(dir: &Path, port: u16, server: &Server) -> Result<()> {
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::pg::Cluster;
    use crate::pg::handover::read_owner;
    use crate::pg::launch::log_tail;
    use crate::pg::testing::{Scratch, running_pid, try_psql};

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
}
