//! Launching `postgres` on 127.0.0.1 and a free port, and waiting until it accepts
//! connections. The Unix socket lives inside the cluster directory (when the path is short
//! enough for a socket address), never in `/var/run/postgresql`. A throw-away server dies with
//! this process; a persistent one gets a session of its own.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use tracing::{debug, info, warn};

use super::binaries::{Binaries, cluster_version};
use super::create::{SERVER_USER, User, command};
use super::postmaster::{KILL_TIMEOUT, Postmaster, read_pidfile};
use super::process::{POLL, last_lines};

/// The server's stdout and stderr, appended to, inside the cluster directory.
pub(super) const LOG_FILE: &str = "server.log";

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
pub(super) const START_TIMEOUT: Duration = Duration::from_secs(120);

/// After the postmaster was killed, its orphaned backends may still hold the data directory
/// for a moment (`postmaster.pid`, the shared memory): a start that fails on it is tried again
/// this often, this far apart, before the failure counts.
const STALE_LOCK_ATTEMPTS: u32 = 40;
const STALE_LOCK_PAUSE: Duration = Duration::from_millis(250);
/// Attempts to start on a free port: another process may take the port before `postgres` binds it.
const START_ATTEMPTS: u32 = 5;

/// Starts `postgres` on 127.0.0.1 and a free port and waits until it accepts connections,
/// retrying on another port when the chosen one was taken in the meantime; or on `port` (a
/// restart, whose port the clients already know), failing if it is taken.
///
/// `postgres` is spawned directly rather than through `pg_ctl` (which may be a wrapper script,
/// and which would detach the server from this process): a throw-away server must die with
/// this process; a persistent one gets a session of its own, as `pg_ctl` would give it.
pub(super) fn launch(
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
pub(super) fn socket_dir_setting(dir: &Path) -> String {
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
pub(super) enum NotReady {
    Exited,
    TimedOut,
}

/// Waits until the postmaster `pid` accepts connections on 127.0.0.1:`port`: its pid file says
/// `ready` and a TCP connection succeeds. The TCP port is open well before the server takes
/// connections ("the database system is starting up"), so the status is what counts; only
/// servers before PostgreSQL 10, which write none, are taken at the TCP port's word.
pub(super) fn wait_ready(
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
pub(super) fn log_tail(path: &Path, from: u64) -> String {
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

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
}
