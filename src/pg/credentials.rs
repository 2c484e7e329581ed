//! The cluster's credentials: every connection authenticates with SCRAM-SHA-256, over TCP and
//! over the Unix socket alike. The `postgres` superuser's password is generated at random when
//! the cluster is created, set in single-user mode and kept in `turnpost.password` (mode 0600)
//! in the cluster directory; `pg_hba.conf` is rewritten to demand it. The password is never
//! logged, and its `Debug` does not show it.

use std::fs::{self, OpenOptions};
use std::io::{self, Write as _};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::process::Stdio;

use anyhow::{Context, Result, bail};
use tracing::info;

use super::binaries::Binaries;
use super::create::{SERVER_USER, SUPERUSER, User, command};
use super::process::last_lines;

/// The superuser's password, inside the cluster directory (mode 0600).
pub const PASSWORD_FILE: &str = "turnpost.password";

/// The superuser's password; its `Debug` does not show it.
#[derive(Clone, PartialEq)]
pub(super) struct Password(pub(super) String);

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(..)")
    }
}

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
pub(super) fn read_password(dir: &Path) -> Result<Option<Password>> {
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
pub(super) fn secure(bins: &Binaries, dir: &Path, user: Option<User>) -> Result<Password> {
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    use super::*;
    use crate::pg::Cluster;
    use crate::pg::create::{initdb, prepare_dir, server_user};
    use crate::pg::launch::{LOG_FILE, socket_dir_setting};
    use crate::pg::testing::{Scratch, try_psql};

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
}
