//! Throw-away clusters for tests: their directories in the temp dir, the `atexit` hook that
//! stops them and removes their directories when the process exits normally, and the clean-up
//! of the directories that killed processes left behind. (The server itself dies with this
//! process by `PR_SET_PDEATHSIG`, set when it is launched.)

use std::fs::{self, DirBuilder};
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, Once, TryLockError};

use anyhow::{Context, Result, bail};
use tracing::{debug, warn};

use super::create::User;
use super::postmaster::{KILL_TIMEOUT, Postmaster, read_pidfile};
use super::process::{lock, pid_alive, process_args, send_signal};

/// Name prefix of ephemeral cluster directories in the temp dir: `<prefix><pid>-<n>`.
const EPHEMERAL_PREFIX: &str = "turnpost-pg-";

/// The running ephemeral clusters of this process, for the exit hook.
static EPHEMERAL: Mutex<Vec<(PathBuf, Arc<Postmaster>)>> = Mutex::new(Vec::new());
static AT_EXIT: Once = Once::new();

/// Registers the exit hook, once per process.
pub(super) fn install_exit_hook() {
    AT_EXIT.call_once(|| {
        // SAFETY: registers a plain `extern "C" fn()`, which is what atexit expects.
        if unsafe { libc::atexit(stop_ephemeral_at_exit) } != 0 {
            warn!("could not register the exit hook; ephemeral clusters stop only by PDEATHSIG");
        }
    });
}

/// Records a running ephemeral cluster, for the exit hook.
pub(super) fn register(dir: &Path, postmaster: &Arc<Postmaster>) {
    lock(&EPHEMERAL).push((dir.to_path_buf(), Arc::clone(postmaster)));
}

/// Forgets an ephemeral cluster that was stopped.
pub(super) fn forget(dir: &Path) {
    lock(&EPHEMERAL).retain(|(registered, _)| registered != dir);
}

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
pub(super) fn create_ephemeral_dir(root: &Path) -> Result<PathBuf> {
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
pub(super) fn remove_stale_ephemeral_dirs(root: &Path, user: Option<User>) {
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
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    use super::*;
    use crate::pg::Cluster;
    use crate::pg::create::server_user;
    use crate::pg::process::wait_until;
    use crate::pg::testing::{Scratch, psql, running_pid};

    /// Selects the mode of [`ephemeral_helper_process`] in a child process.
    const HELPER_ENV: &str = "TURNPOST_CLUSTER_TEST_HELPER";

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
}
