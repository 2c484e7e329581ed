//! What this process knows of a postmaster: the one it started (a child, watched by a thread
//! of its own that reaps it), and what any postmaster writes in its `postmaster.pid`.

use std::fs;
use std::io;
use std::path::Path;
use std::process::{Child, Command, ExitStatus};
use std::sync::{Arc, Condvar, Mutex, PoisonError, mpsc};
use std::thread;
use std::time::Duration;

use anyhow::{Context, Result};
use tracing::debug;

use super::process::lock;

/// How long an immediate shutdown (SIGQUIT) may take.
pub(super) const KILL_TIMEOUT: Duration = Duration::from_secs(10);

/// What the server's `postmaster.pid` says (the lines of PostgreSQL's `LOCK_FILE_LINE_*`).
#[derive(Debug, PartialEq)]
pub(super) struct PidFile {
    pub(super) pid: libc::pid_t,
    pub(super) port: Option<u16>,
    /// The first listen address; empty when the server takes no TCP connections.
    pub(super) listen: Option<String>,
    /// `starting`, `stopping`, `ready` or `standby` (PostgreSQL 10 and later).
    pub(super) status: Option<String>,
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

pub(super) fn read_pidfile(dir: &Path) -> io::Result<Option<PidFile>> {
    match fs::read_to_string(dir.join("postmaster.pid")) {
        Ok(text) => Ok(PidFile::parse(&text)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err),
    }
}

/// A postmaster started by this process.
///
/// A supervisor thread spawns it and then waits for it for as long as it runs: the thread is
/// the server's parent, so its `PR_SET_PDEATHSIG` fires only when the whole process goes, and
/// the thread reaps the server when it exits so that no zombie is left.
#[derive(Debug)]
pub(super) struct Postmaster {
    pub(super) pid: libc::pid_t,
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
    pub(super) fn spawn(mut cmd: Command) -> Result<Arc<Postmaster>> {
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

    pub(super) fn is_running(&self) -> bool {
        !lock(&self.state).exited
    }

    /// Sends `signal` unless the server has exited; whether it was sent.
    pub(super) fn signal(&self, signal: libc::c_int) -> bool {
        let state = lock(&self.state);
        // SAFETY: kill has no memory-safety preconditions; the pid is still ours (see supervise).
        !state.exited && unsafe { libc::kill(self.pid, signal) } == 0
    }

    /// Waits up to `timeout` for the server to exit; whether it has.
    pub(super) fn wait_exit(&self, timeout: Duration) -> bool {
        let state = lock(&self.state);
        let (state, _) = self
            .changed
            .wait_timeout_while(state, timeout, |state| !state.exited)
            .unwrap_or_else(PoisonError::into_inner);
        state.exited
    }

    pub(super) fn status(&self) -> String {
        match lock(&self.state).status {
            Some(status) => status.to_string(),
            None => "exit status unknown".to_owned(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

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
}
