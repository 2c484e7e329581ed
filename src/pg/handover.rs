//! Hand-over between Turnpost processes that share one persistent cluster (`serve` and
//! `turnpost migrate`, `replay` or `worker` on the same data dir): the first starts the server
//! and *owns* it, the others attach to it. The owner is kept in `turnpost.owner` in the cluster
//! directory and the attached processes in `turnpost.clients/`, all changed under an exclusive
//! `flock` on the cluster directory. Only the owner stops the server, and only when nobody is
//! attached; otherwise it hands the server to one of those.

use std::fs::{self, DirBuilder, File};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::DirBuilderExt;
use std::path::Path;

use anyhow::{Context, Result};

use super::process::Process;

/// The Turnpost process that owns the running server (`<pid> <start time>`), inside the
/// cluster directory.
pub(super) const OWNER_FILE: &str = "turnpost.owner";
/// One empty file per other Turnpost process attached to the server (`<pid>-<start time>`).
const CLIENTS_DIR: &str = "turnpost.clients";

/// The process recorded as the server's owner, if any.
pub(super) fn read_owner(dir: &Path) -> Option<Process> {
    Process::parse(&fs::read_to_string(dir.join(OWNER_FILE)).ok()?)
}

pub(super) fn write_owner(dir: &Path, owner: Process) -> Result<()> {
    let path = dir.join(OWNER_FILE);
    fs::write(&path, format!("{} {}\n", owner.pid, owner.start))
        .with_context(|| format!("writing {}", path.display()))
}

pub(super) fn add_client(dir: &Path, client: Process) -> Result<()> {
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

pub(super) fn remove_client(dir: &Path, client: Process) -> io::Result<()> {
    fs::remove_file(
        dir.join(CLIENTS_DIR)
            .join(format!("{}-{}", client.pid, client.start)),
    )
}

/// The attached processes that still live, in pid order; the entries of dead ones are
/// removed.
pub(super) fn live_clients(dir: &Path) -> Vec<Process> {
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
pub(super) struct DirLock {
    _file: File,
}

impl DirLock {
    pub(super) fn acquire(dir: &Path) -> Result<DirLock> {
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use std::process::Command;

    use super::*;
    use crate::pg::Cluster;
    use crate::pg::process::pid_alive;
    use crate::pg::testing::{Scratch, running_pid};

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
}
