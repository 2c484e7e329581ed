//! What the tests of the private cluster share: `psql` against a cluster, and scratch
//! directories that leave no server behind.
//!
//! The tests that start clusters need the PostgreSQL server binaries and `psql`; each cluster
//! takes a second or two to initialise. They pass as root (running PostgreSQL as `postgres`)
//! and as a normal user, and leave no server running even when they fail.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::Cluster;
use super::postmaster::{KILL_TIMEOUT, read_pidfile};
use super::process::{pid_alive, process_args, send_signal, wait_until};

/// Runs `select 1` (or `query`) through psql at `url`, returning the unaligned output.
pub(super) fn psql(url: &str, query: &str) -> String {
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
pub(super) fn try_psql(args: &[&str]) -> Result<String, String> {
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

/// Name prefix of [`Scratch`] directories in the temp dir: `<prefix><name>-<pid>`.
const SCRATCH_PREFIX: &str = "turnpost-cluster-test-";

/// A scratch directory (mode 0755, so the server user can pass it) that, when dropped,
/// stops any server left running in a cluster under it and removes it. Persistent clusters
/// outlive their process by design, so the scratch directories of test processes that were
/// killed are cleaned up by the next run.
pub(super) struct Scratch(pub(super) PathBuf);

impl Scratch {
    pub(super) fn new(name: &str) -> Scratch {
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

pub(super) fn running_pid(cluster: &Cluster) -> libc::pid_t {
    cluster.pid().expect("the cluster is stopped")
}
