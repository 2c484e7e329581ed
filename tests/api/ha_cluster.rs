//! What the tests of issue 42 (a standby that takes over, backups that restore, several
//! servers) share: scratch directories the PostgreSQL server user can use, process groups
//! that a test kills when it ends (also when it fails), bounded commands, and a
//! pg_auto_failover formation (a monitor and two nodes with synchronous replication) on
//! loopback ports.
//!
//! They need the Debian packages `postgresql-15-auto-failover` (and its `pg-auto-failover-cli`),
//! `pgbackrest` and `haproxy` (`.ci/run` installs them). As root they run PostgreSQL, its
//! keepers and pgBackRest as the `postgres` user, as the private cluster does.

use std::fs;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use diesel::sql_types::Text;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

/// The uid and gid PostgreSQL runs as: `postgres` when the tests run as root, else none
/// (this user).
pub fn server_user() -> Option<(u32, u32)> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return None;
    }
    let name = std::ffi::CString::new("postgres").expect("a C string");
    // SAFETY: getpwnam with a valid C string; the record is read at once.
    let pw = unsafe { libc::getpwnam(name.as_ptr()) };
    assert!(
        !pw.is_null(),
        "running as root, the tests need a `postgres` user to run PostgreSQL as"
    );
    // SAFETY: pw is a valid record returned just now.
    Some(unsafe { ((*pw).pw_uid, (*pw).pw_gid) })
}

/// Gives `path` to the server user (when the tests run as root).
pub fn give(path: &Path) {
    if let Some((uid, gid)) = server_user() {
        std::os::unix::fs::chown(path, Some(uid), Some(gid)).expect("chown to postgres");
    }
}

/// A directory created for the server user (mode 0700, as PostgreSQL wants its own).
pub fn own_dir(path: &Path) -> PathBuf {
    fs::create_dir_all(path).expect("create a directory");
    fs::set_permissions(path, fs::Permissions::from_mode(0o700)).expect("chmod");
    give(path);
    path.to_path_buf()
}

/// The directory of the PostgreSQL server binaries: the highest version under
/// `/usr/lib/postgresql` whose library directory holds `lib` (an extension's module), if given.
pub fn bindir(lib: Option<&str>) -> PathBuf {
    let mut found: Vec<(u32, PathBuf)> = fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version: u32 = entry.file_name().to_str()?.parse().ok()?;
            let dir = entry.path();
            let ok = dir.join("bin/pg_ctl").exists()
                && lib.is_none_or(|lib| dir.join("lib").join(lib).exists());
            ok.then(|| (version, dir.join("bin")))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, dir)| dir).unwrap_or_else(|| {
        panic!(
            "no PostgreSQL server under /usr/lib/postgresql{}; `.ci/run` installs what the tests need",
            lib.map(|l| format!(" with {l}")).unwrap_or_default()
        )
    })
}

/// Whether `program` is on the PATH (or a path that exists).
pub fn installed(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A free TCP port on 127.0.0.1 (free when asked; the tests take it right away).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// A scratch directory the server user can enter, removed (after the processes under it
/// are killed by their own guards) when dropped.
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("turnpost-{name}-"))
            .tempdir()
            .expect("a scratch directory");
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
        give(dir.path());
        Scratch { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// A command run as the server user, with the PostgreSQL binaries first on its PATH, in the
/// C locale, with no input.
pub fn server_command(program: &str, bindir: &Path, home: &Path) -> Command {
    let mut cmd = Command::new(program);
    if let Some((uid, gid)) = server_user() {
        cmd.uid(uid).gid(gid);
    }
    cmd.env(
        "PATH",
        format!("{}:/usr/local/bin:/usr/bin:/bin", bindir.display()),
    )
    .env("HOME", home)
    .env("LC_ALL", "C")
    .env_remove("PGPASSWORD")
    .env_remove("PGHOST")
    .env_remove("PGPORT")
    .env_remove("PGDATABASE")
    .current_dir(home)
    .stdin(Stdio::null());
    cmd
}

/// The end of a log file, for a failure's message.
pub fn tail(path: &Path) -> String {
    let mut text = String::new();
    if let Ok(mut f) = fs::File::open(path) {
        let _ = f.read_to_string(&mut text);
    }
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

fn log_to(cmd: &mut Command, log: &Path) {
    let file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .expect("open a log file");
    give(log);
    cmd.stdout(file.try_clone().expect("a log file"))
        .stderr(file);
}

/// Runs `cmd` to its end, its output appended to `log`, killing it (and its process group)
/// after `timeout`; panics with the log's end unless it succeeds.
pub fn run_bounded(cmd: &mut Command, log: &Path, timeout: Duration) {
    log_to(cmd, log);
    cmd.process_group(0);
    let what = format!("{cmd:?}");
    let mut group = Group {
        child: cmd.spawn().unwrap_or_else(|e| panic!("{what}: {e}")),
    };
    let started = Instant::now();
    loop {
        if let Some(status) = group.child.try_wait().expect("poll a command") {
            assert!(status.success(), "{what}: {status}\n{}", tail(log));
            return;
        }
        if started.elapsed() > timeout {
            group.kill();
            panic!("{what}: no end within {timeout:?}\n{}", tail(log));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A process started in a process group of its own, with everything it starts (a keeper and
/// its PostgreSQL, say): killed together with SIGKILL when dropped.
pub struct Group {
    child: Child,
}

impl Group {
    /// Starts `cmd` in a new process group, its output appended to `log`.
    pub fn spawn(cmd: &mut Command, log: &Path) -> Group {
        log_to(cmd, log);
        cmd.process_group(0);
        let what = format!("{cmd:?}");
        Group {
            child: cmd.spawn().unwrap_or_else(|e| panic!("{what}: {e}")),
        }
    }

    /// SIGKILL to the whole group, at once, as when its machine is lost.
    pub fn kill(&mut self) {
        let pgid = libc::pid_t::try_from(self.child.id()).expect("pid");
        // SAFETY: kill(2) on the process group of a child we spawned in a group of its own.
        unsafe { libc::kill(-pgid, libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Runs `query` (rows of one text column `v`) on `url`.
pub async fn texts(url: &str, query: &str) -> Result<Vec<String>, String> {
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = Text)]
        v: String,
    }
    let mut conn = AsyncPgConnection::establish(url)
        .await
        .map_err(|e| e.to_string())?;
    let rows: Vec<Row> = diesel::sql_query(query)
        .load(&mut conn)
        .await
        .map_err(|e| e.to_string())?;
    Ok(rows.into_iter().map(|r| r.v).collect())
}

/// Settings of the monitor that make it notice a dead primary and fail over within seconds
/// (the defaults take 20 s to call a node unhealthy and 30 s more before promoting): for a
/// test on one machine, not advice for a network.
const FAST_MONITOR: &str = "
pgautofailover.health_check_period = 1000
pgautofailover.health_check_timeout = 1000
pgautofailover.health_check_max_retries = 1
pgautofailover.health_check_retry_delay = 500
pgautofailover.node_considered_unhealthy_timeout = 2000
pgautofailover.primary_demote_timeout = 3000
";

/// A pg_auto_failover node: its keeper (`pg_autoctl`) and the PostgreSQL it runs.
pub struct Node {
    pub name: String,
    pub port: u16,
    group: Option<Group>,
}

/// A pg_auto_failover formation on loopback: a monitor and two PostgreSQL nodes, the
/// second a synchronous standby of the first, with a database `turnpost` on both. Everything
/// is killed and removed when it is dropped.
pub struct AutoFailover {
    // Dropped in this order: the nodes, the monitor, then their directory.
    pub nodes: Vec<Node>,
    /// Kept for its `Drop`: the monitor dies with the formation.
    _monitor: Group,
    pub monitor_port: u16,
    bindir: PathBuf,
    scratch: Scratch,
}

/// How long the formation may take to set up (three `initdb`s and a base backup take some
/// 20 s on a quiet machine).
const SETUP: Duration = Duration::from_secs(150);

impl AutoFailover {
    pub async fn start() -> AutoFailover {
        assert!(
            installed("pg_autoctl"),
            "pg_autoctl is not installed (Debian: postgresql-15-auto-failover; `.ci/run` installs it)"
        );
        let bindir = bindir(Some("pgautofailover.so"));
        let scratch = Scratch::new("failover");
        let base = scratch.path().to_path_buf();
        let monitor_port = free_port();
        let monitor_data = base.join("monitor");
        let monitor_pgdata = own_dir(&monitor_data).join("pgdata");
        let log = base.join("monitor.log");
        let create = Instant::now();
        run_bounded(
            autoctl(&bindir, &monitor_data, "create")
                .args(["monitor", "--pgdata"])
                .arg(&monitor_pgdata)
                .args(["--pgport", &monitor_port.to_string()])
                .args(["--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl"]),
            &log,
            SETUP,
        );
        // `create monitor` has no `--listen`; its server is started by `run` below, on
        // loopback only.
        run_bounded(
            autoctl(&bindir, &monitor_data, "config")
                .args(["set", "--pgdata"])
                .arg(&monitor_pgdata)
                .args(["postgresql.listen_addresses", "127.0.0.1"]),
            &log,
            Duration::from_secs(30),
        );
        let conf = monitor_pgdata.join("postgresql.conf");
        let mut text = fs::read_to_string(&conf).expect("the monitor's postgresql.conf");
        text.push_str(FAST_MONITOR);
        fs::write(&conf, text).expect("write the monitor's postgresql.conf");
        let monitor = Group::spawn(
            autoctl(&bindir, &monitor_data, "run")
                .arg("--pgdata")
                .arg(&monitor_pgdata),
            &log,
        );
        let mut formation = AutoFailover {
            nodes: vec![],
            _monitor: monitor,
            monitor_port,
            bindir,
            scratch,
        };
        formation
            .wait_for(&[], "the monitor", SETUP.saturating_sub(create.elapsed()))
            .await;
        for n in 1..=2 {
            formation.start_node(&format!("node{n}"));
            let want: Vec<(&str, &str)> = match n {
                1 => vec![("node1", "single")],
                _ => vec![("node1", "primary"), ("node2", "secondary")],
            };
            formation
                .wait_for(&want, "the nodes", SETUP.saturating_sub(create.elapsed()))
                .await;
        }
        eprintln!(
            "pg_auto_failover formation up in {:.1} s",
            create.elapsed().as_secs_f64()
        );
        formation
    }

    fn start_node(&mut self, name: &str) {
        let base = self.scratch.path();
        let home = own_dir(&base.join(name));
        let pgdata = home.join("pgdata");
        let port = free_port();
        let monitor = format!(
            "postgres://autoctl_node@127.0.0.1:{}/pg_auto_failover?sslmode=disable",
            self.monitor_port
        );
        let group = Group::spawn(
            autoctl(&self.bindir, &home, "create")
                .args(["postgres", "--pgdata"])
                .arg(&pgdata)
                .args(["--pgport", &port.to_string()])
                .args(["--listen", "127.0.0.1", "--hostname", "127.0.0.1"])
                .args([
                    "--name",
                    name,
                    "--dbname",
                    "turnpost",
                    "--monitor",
                    &monitor,
                ])
                .args(["--auth", "trust", "--no-ssl", "--run"]),
            &base.join(format!("{name}.log")),
        );
        self.nodes.push(Node {
            name: name.to_owned(),
            port,
            group: Some(group),
        });
    }

    /// The monitor's database, as the superuser.
    pub fn monitor_url(&self) -> String {
        format!(
            "postgres://postgres@127.0.0.1:{}/pg_auto_failover",
            self.monitor_port
        )
    }

    /// A multi-host URL of `database` on every node that finds the one taking writes.
    pub fn url(&self, database: &str) -> String {
        let hosts: Vec<String> = self
            .nodes
            .iter()
            .map(|n| format!("127.0.0.1:{}", n.port))
            .collect();
        format!(
            "postgres://postgres@{}/{database}?target_session_attrs=read-write&connect_timeout=5",
            hosts.join(",")
        )
    }

    /// The URL of `database` on one node.
    pub fn node_url(&self, node: usize, database: &str) -> String {
        format!(
            "postgres://postgres@127.0.0.1:{}/{database}",
            self.nodes[node].port
        )
    }

    /// Each node's name, reported state and assigned state, as the monitor has them.
    pub async fn states(&self) -> Result<Vec<(String, String, String)>, String> {
        let rows = texts(
            &self.monitor_url(),
            "SELECT nodename || ' ' || reportedstate || ' ' || goalstate AS v \
             FROM pgautofailover.node ORDER BY nodeid",
        )
        .await?;
        Ok(rows
            .iter()
            .map(|r| {
                let mut words = r.split(' ').map(str::to_owned);
                let mut next = || words.next().unwrap_or_default();
                (next(), next(), next())
            })
            .collect())
    }

    /// Waits until every `(node, state)` of `want` is both reported and assigned.
    pub async fn wait_for(&self, want: &[(&str, &str)], what: &str, timeout: Duration) {
        let started = Instant::now();
        let mut last = Err(String::from("not asked yet"));
        while started.elapsed() < timeout {
            last = self.states().await;
            if let Ok(states) = &last
                && want.iter().all(|(node, state)| {
                    states
                        .iter()
                        .any(|(n, r, g)| n == node && r == state && g == state)
                })
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let logs: Vec<String> = std::iter::once("monitor")
            .chain(self.nodes.iter().map(|n| n.name.as_str()))
            .map(|name| {
                let log = self.scratch.path().join(format!("{name}.log"));
                format!("--- {name}:\n{}", tail(&log))
            })
            .collect();
        panic!(
            "{what}: not {want:?} within {timeout:?}; the monitor says {last:?}\n{}",
            logs.join("\n")
        );
    }

    /// SIGKILL of a node's keeper and its PostgreSQL, together: the machine is lost.
    pub fn kill(&mut self, node: usize) {
        if let Some(mut group) = self.nodes[node].group.take() {
            group.kill();
        }
    }
}

/// `pg_autoctl <verb>` for the node or monitor whose files are under `home` (its
/// configuration and state go there, not to the user's home).
fn autoctl(bindir: &Path, home: &Path, verb: &str) -> Command {
    let mut cmd = server_command("pg_autoctl", bindir, home);
    for (var, sub) in [
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "share"),
        ("XDG_RUNTIME_DIR", "run"),
    ] {
        cmd.env(var, own_dir(&home.join(sub)));
    }
    cmd.arg(verb);
    cmd
}
