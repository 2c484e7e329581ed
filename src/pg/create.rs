//! Creating a cluster: whom the server runs as (the `postgres` system user when this process
//! is root, since `initdb` and `postgres` refuse to run as root), its directory, and `initdb`.

use std::ffi::CString;
use std::fs::{self, DirBuilder};
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use tracing::info;

use super::binaries::Binaries;
use super::process::last_lines;

/// The database superuser `initdb` creates, and the user in the cluster's URLs.
pub(super) const SUPERUSER: &str = "postgres";
/// The system user `initdb` and `postgres` run as when this process is root.
pub(super) const SERVER_USER: &str = "postgres";

/// A system user to run the server binaries as.
#[derive(Debug, Clone, Copy)]
pub(super) struct User {
    pub(super) uid: u32,
    pub(super) gid: u32,
}

/// Whom to run `initdb` and `postgres` as: `None` for the current user, the `postgres`
/// system user when this process is root (they refuse to run as root).
pub(super) fn server_user() -> Result<Option<User>> {
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
/// messages are in English so that the launch can recognise a port that was taken.
pub(super) fn command(program: &Path, user: Option<User>) -> Command {
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
pub(super) fn check_own_dir(dir: &Path) -> Result<()> {
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
pub(super) fn prepare_dir(dir: &Path, user: Option<User>, bins: &Binaries) -> Result<()> {
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

/// Creates the cluster: the `postgres` superuser, UTF-8, C locale; a throw-away cluster skips
/// the final fsync. It starts with `trust` authentication, which `credentials::secure` replaces before
/// the server first listens.
pub(super) fn initdb(bins: &Binaries, dir: &Path, user: Option<User>, durable: bool) -> Result<()> {
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;
    use crate::pg::Cluster;
    use crate::pg::testing::Scratch;

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
}
