//! Linux processes as the cluster sees them: a process told apart from a later one with the
//! same pid, whether one still lives, signals, command lines from `/proc`; and the small
//! waiting and locking helpers the other files share.

use std::fs;
use std::io;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

/// Polling interval while waiting for the server to come up or go away.
pub(super) const POLL: Duration = Duration::from_millis(20);

/// A process, told apart from a later one that reuses its pid by its start time (in clock
/// ticks after boot, field 22 of `/proc/<pid>/stat`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Process {
    pub(super) pid: libc::pid_t,
    pub(super) start: u64,
}

impl Process {
    pub(super) fn current() -> Result<Process> {
        let pid = std::process::id() as libc::pid_t;
        Process::of(pid).context("reading /proc/self/stat")
    }

    /// Process `pid` as it is now, unless it is gone (or a zombie).
    pub(super) fn of(pid: libc::pid_t) -> Option<Process> {
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

    pub(super) fn alive(&self) -> bool {
        Process::of(self.pid) == Some(*self)
    }

    /// `<pid> <start>` (the owner file) or `<pid>-<start>` (a client's file name).
    pub(super) fn parse(text: &str) -> Option<Process> {
        let (pid, start) = text.trim().split_once([' ', '-'])?;
        Some(Process {
            pid: pid.parse().ok().filter(|pid| *pid > 0)?,
            start: start.parse().ok()?,
        })
    }
}

/// `kill(pid, signal)`, where a process that is gone already counts as success.
pub(super) fn send_signal(pid: libc::pid_t, signal: libc::c_int) -> io::Result<()> {
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
pub(super) fn pid_alive(pid: libc::pid_t) -> bool {
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
pub(super) fn process_args(pid: libc::pid_t) -> Option<Vec<String>> {
    let raw = fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let args: Vec<String> = raw
        .split(|byte| *byte == 0)
        .filter(|arg| !arg.is_empty())
        .map(|arg| String::from_utf8_lossy(arg).into_owned())
        .collect();
    (!args.is_empty()).then_some(args)
}

/// Polls `done` until it holds or `timeout` passes; whether it held.
pub(super) fn wait_until(timeout: Duration, done: impl Fn() -> bool) -> bool {
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
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The last `count` lines of `text` (a program's output, a log), for error messages.
pub(super) fn last_lines(text: &str, count: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(count)..].join("\n")
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

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
}
