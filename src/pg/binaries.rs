//! Locating the PostgreSQL server binaries (`initdb`, `postgres`) and telling their major
//! version, and the version of an existing cluster, which only the same major version can run.

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use tracing::debug;

/// Where Debian and Ubuntu install each major version's server binaries (`<version>/bin`).
const VERSIONED_BINDIRS: &str = "/usr/lib/postgresql";

/// The directory holding `initdb` and `postgres`, and the major version they belong to.
#[derive(Debug)]
pub(super) struct Binaries {
    pub(super) bindir: PathBuf,
    pub(super) major: String,
}

impl Binaries {
    /// Finds the server binaries; `wanted_major` is an existing cluster's version (its
    /// `PG_VERSION`), which only the same major version can run.
    pub(super) fn find(wanted_major: Option<&str>) -> Result<Binaries> {
        let path = std::env::var_os("PATH");
        let bindir = find_bindir(
            wanted_major,
            pg_config_bindir().as_deref(),
            Path::new(VERSIONED_BINDIRS),
            path.as_deref(),
        )?;
        let major = server_major(&bindir)?;
        if let Some(wanted) = wanted_major
            && wanted != major
        {
            bail!(
                "the cluster was created by PostgreSQL {wanted}, but the server binaries found \
                 ({}) are PostgreSQL {major}: install PostgreSQL {wanted} \
                 (`apt-get install postgresql-{wanted}`), or move the cluster directory away to \
                 start afresh",
                bindir.display()
            );
        }
        debug!(bindir = %bindir.display(), version = %major, "found the PostgreSQL server binaries");
        Ok(Binaries { bindir, major })
    }

    pub(super) fn initdb(&self) -> PathBuf {
        self.bindir.join("initdb")
    }

    pub(super) fn postgres(&self) -> PathBuf {
        self.bindir.join("postgres")
    }
}

/// `pg_config --bindir`, if `pg_config` is on PATH and answers.
fn pg_config_bindir() -> Option<PathBuf> {
    let output = Command::new("pg_config")
        .arg("--bindir")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let bindir = String::from_utf8(output.stdout).ok()?;
    let bindir = bindir.trim();
    (output.status.success() && !bindir.is_empty()).then(|| PathBuf::from(bindir))
}

/// Where to run `initdb` and `postgres` from, in order of preference:
/// 1. `<versioned_root>/<wanted_major>/bin`, the binaries matching an existing cluster;
/// 2. `pg_config --bindir`, the installation the development headers belong to (on Debian it
///    comes with libpq-dev, which may be of another version than the server: then it lacks
///    `initdb` and is skipped);
/// 3. the highest version in `<versioned_root>/*/bin` (Debian, Ubuntu);
/// 4. PATH, resolving symlinks: `initdb` looks for `postgres` beside its real location, and a
///    Debian wrapper script (whose real directory holds no `postgres`) is skipped.
fn find_bindir(
    wanted_major: Option<&str>,
    pg_config: Option<&Path>,
    versioned_root: &Path,
    path: Option<&OsStr>,
) -> Result<PathBuf> {
    if let Some(major) = wanted_major {
        let bindir = versioned_root.join(major).join("bin");
        if has_server(&bindir) {
            return Ok(bindir);
        }
    }
    if let Some(bindir) = pg_config
        && has_server(bindir)
    {
        return Ok(bindir.to_path_buf());
    }
    if let Some(bindir) = highest_versioned_bindir(versioned_root) {
        return Ok(bindir);
    }
    for dir in path.map(std::env::split_paths).into_iter().flatten() {
        if let Ok(initdb) = fs::canonicalize(dir.join("initdb"))
            && let Some(bindir) = initdb.parent()
            && has_server(bindir)
        {
            return Ok(bindir.to_path_buf());
        }
    }
    bail!(
        "no PostgreSQL server binaries (initdb and postgres) found in `pg_config --bindir`, \
         {}/*/bin or PATH: install the PostgreSQL server (Debian/Ubuntu: \
         `apt-get install postgresql`), or set DATABASE_URL to use an existing server",
        versioned_root.display()
    )
}

/// The `<root>/<version>/bin` with the highest version that holds the server binaries.
fn highest_versioned_bindir(root: &Path) -> Option<PathBuf> {
    fs::read_dir(root)
        .ok()?
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let version = name
                .split('.')
                .map(|part| part.parse::<u32>().ok())
                .collect::<Option<Vec<u32>>>()?;
            let bindir = entry.path().join("bin");
            has_server(&bindir).then_some((version, bindir))
        })
        .max()
        .map(|(_, bindir)| bindir)
}

fn has_server(dir: &Path) -> bool {
    is_executable(&dir.join("initdb")) && is_executable(&dir.join("postgres"))
}

fn is_executable(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

/// The major version of the server in `bindir`, from `postgres --version` (allowed as root).
fn server_major(bindir: &Path) -> Result<String> {
    let postgres = bindir.join("postgres");
    let output = Command::new(&postgres)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("running {} --version", postgres.display()))?;
    let text = String::from_utf8_lossy(&output.stdout);
    parse_major(&text).with_context(|| {
        format!(
            "unexpected output of {} --version: {text:?}",
            postgres.display()
        )
    })
}

/// The major version in `postgres (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)`, as
/// `PG_VERSION` spells it: `15`, or `9.6` before version 10.
fn parse_major(version_output: &str) -> Option<String> {
    let version = version_output
        .split_whitespace()
        .find(|word| word.starts_with(|c: char| c.is_ascii_digit()))?;
    let mut numbers = version.split(|c: char| !c.is_ascii_digit());
    let first = numbers.next()?;
    match first.parse::<u32>().ok()? {
        major if major >= 10 => Some(first.to_owned()),
        _ => Some(format!(
            "{first}.{}",
            numbers.next().filter(|n| !n.is_empty())?
        )),
    }
}

/// The major version of the cluster in `dir` (its `PG_VERSION`), if there is one.
pub(super) fn cluster_version(dir: &Path) -> Result<Option<String>> {
    match fs::read_to_string(dir.join("PG_VERSION")) {
        Ok(version) => Ok(Some(version.trim().to_owned())),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err).with_context(|| format!("reading {}/PG_VERSION", dir.display())),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::pg::testing::Scratch;

    #[test]
    fn binaries_are_found() {
        let bins = Binaries::find(None).unwrap();
        assert!(has_server(&bins.bindir));
        assert!(!bins.major.is_empty());
    }

    /// Creates an executable file (contents irrelevant).
    fn fake_binary(path: &Path) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "#!/bin/sh\n").unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn bindir_search_order() {
        let scratch = Scratch::new("bindir");
        let root = scratch.0.join("lib");
        for version in ["9.6", "15", "16"] {
            fake_binary(&root.join(version).join("bin/postgres"));
        }
        for version in ["9.6", "15"] {
            fake_binary(&root.join(version).join("bin/initdb"));
        }
        // 16 lacks initdb (a client-only install): the highest complete one wins.
        assert_eq!(
            find_bindir(None, None, &root, None).unwrap(),
            root.join("15/bin")
        );
        // An existing cluster's version comes first; then pg_config's.
        assert_eq!(
            find_bindir(Some("9.6"), None, &root, None).unwrap(),
            root.join("9.6/bin")
        );
        let elsewhere = scratch.0.join("opt/bin");
        fake_binary(&elsewhere.join("initdb"));
        fake_binary(&elsewhere.join("postgres"));
        assert_eq!(
            find_bindir(None, Some(&elsewhere), &root, None).unwrap(),
            elsewhere
        );
        assert_eq!(
            find_bindir(None, Some(&root.join("16/bin")), &root, None).unwrap(),
            root.join("15/bin")
        );

        // PATH: symlinks resolve to the real directory; a wrapper without postgres is skipped.
        let empty = scratch.0.join("none");
        let wrappers = scratch.0.join("wrappers");
        fake_binary(&wrappers.join("initdb"));
        let links = scratch.0.join("links");
        fs::create_dir_all(&links).unwrap();
        std::os::unix::fs::symlink(elsewhere.join("initdb"), links.join("initdb")).unwrap();
        let path = std::env::join_paths([&wrappers, &links]).unwrap();
        assert_eq!(
            find_bindir(None, None, &empty, Some(&path)).unwrap(),
            fs::canonicalize(&elsewhere).unwrap()
        );

        let err = find_bindir(None, None, &empty, Some(OsStr::new(wrappers.as_os_str())))
            .unwrap_err()
            .to_string();
        assert!(err.contains("apt-get install postgresql"), "{err}");
    }

    #[test]
    fn major_versions_are_parsed() {
        let debian = "postgres (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)\n";
        assert_eq!(parse_major(debian).as_deref(), Some("15"));
        assert_eq!(
            parse_major("postgres (PostgreSQL) 9.6.24").as_deref(),
            Some("9.6")
        );
        assert_eq!(
            parse_major("postgres (PostgreSQL) 18devel").as_deref(),
            Some("18")
        );
        assert_eq!(parse_major("postgres (PostgreSQL)"), None);
    }
}
