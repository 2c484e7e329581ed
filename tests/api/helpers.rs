//! The test harness: a real server on a random loopback port over a fresh PostgreSQL
//! database per test (`DATABASE_URL`'s server when set, otherwise one private cluster per
//! test process, started from the local PostgreSQL binaries).

use std::sync::OnceLock;

use diesel::sql_types::BigInt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use turnpost::app::Application;
use turnpost::config::Settings;
use turnpost::pg::Cluster;
use uuid::Uuid;

/// Set in the environment of a process started by [`turnpost_command`].
const CLI_ENV: &str = "TURNPOST_TEST_RUN_CLI";

/// The `turnpost` command line as a process, for the tests that start `serve`, `worker` or
/// `replay` as a separate process: this test executable, asked to run only [`cli_entry`],
/// which runs `turnpost::cli::main` on the arguments given after `--` (add them with `.arg`).
/// No second build of the crate for a binary is needed (see `src/lib.rs`). libtest writes a
/// line ("running 1 test") to the process's stdout before the command line starts.
pub fn turnpost_command() -> std::process::Command {
    let module = module_path!();
    let test = format!(
        "{}::cli_entry",
        module.split_once("::").map_or(module, |(_, path)| path)
    );
    let mut cmd = std::process::Command::new(std::env::current_exe().expect("the test binary"));
    cmd.args([
        "--exact",
        &test,
        "--ignored",
        "--nocapture",
        "--test-threads=1",
        "--quiet",
        "--",
        "turnpost",
    ])
    .env(CLI_ENV, "1");
    cmd
}

/// An executable script `dir/turnpost` that runs the command line as [`turnpost_command`]
/// does, for scripts that call `turnpost` themselves (`deploy/restore-check.sh`).
pub fn turnpost_script(dir: &std::path::Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let cmd = turnpost_command();
    let quote = |s: &std::ffi::OsStr| format!("'{}'", s.to_string_lossy().replace('\'', r"'\''"));
    let mut line = format!(
        "#!/bin/sh\nexec env {CLI_ENV}=1 {}",
        quote(cmd.get_program())
    );
    for arg in cmd.get_args() {
        line.push(' ');
        line.push_str(&quote(arg));
    }
    line.push_str(" \"$@\"\n");
    let path = dir.join("turnpost");
    std::fs::write(&path, line).expect("write the turnpost script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
        .expect("make the turnpost script executable");
    path
}

/// The other half of [`turnpost_command`]: in a process started by it, runs the command line
/// and exits with its status, as the binary would; in any other run of the tests, does nothing.
#[test]
#[ignore = "the entry point of `turnpost_command`'s processes, not a test"]
fn cli_entry() {
    if std::env::var_os(CLI_ENV).is_none() {
        return;
    }
    let args: Vec<std::ffi::OsString> = std::env::args_os()
        .skip_while(|a| a != "--")
        .skip(1)
        .collect();
    let status = match turnpost::cli::main(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("Error: {e:?}");
            1
        }
    };
    std::process::exit(status);
}

/// The server every test database is created on.
fn server_url() -> &'static str {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| match std::env::var("DATABASE_URL") {
        Ok(url) if !url.is_empty() => url,
        _ => {
            static CLUSTER: OnceLock<Cluster> = OnceLock::new();
            let cluster = CLUSTER.get_or_init(|| {
                Cluster::start_ephemeral()
                    .expect("start a private PostgreSQL cluster for the tests")
            });
            cluster.url("postgres")
        }
    })
}

/// `url` with its database name replaced.
fn with_database(url: &str, database: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let host_end = base[scheme_end..]
        .find('/')
        .map(|i| scheme_end + i)
        .unwrap_or(base.len());
    let mut out = format!("{}/{database}", &base[..host_end]);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// A fresh, empty database on the test server.
pub async fn fresh_database() -> String {
    let name = format!("turnpost_test_{}", Uuid::new_v4().simple());
    let admin = server_url();
    let mut conn = AsyncPgConnection::establish(admin)
        .await
        .expect("connect to the test PostgreSQL server");
    diesel::sql_query(format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .await
        .expect("create a test database");
    with_database(admin, &name)
}

/// The tests' HTTP client: it drops a pooled connection idle for a while, well before the
/// server would close it, so a test stalled by a busy machine never sends on a connection the
/// server is closing.
pub fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .pool_idle_timeout(std::time::Duration::from_secs(20))
        .build()
        .expect("an HTTP client")
}

pub struct TestApp {
    pub base: String,
    pub settings: Settings,
    pub database_url: String,
    pub client: reqwest::Client,
    /// The inbound SMTP listener's port, when the settings turn it on.
    pub inbound_port: Option<u16>,
    _data_dir: tempfile::TempDir,
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

pub async fn spawn_app_with(tweak: impl FnOnce(&mut Settings)) -> TestApp {
    let database_url = fresh_database().await;
    let data_dir = tempfile::tempdir().expect("temp dir");
    let mut settings = Settings {
        addr: "127.0.0.1:0".parse().expect("addr"),
        public_url: Some("http://turnpost.test".into()),
        data_dir: data_dir.path().to_path_buf(),
        database_url: Some(database_url.clone()),
        jwt_secret: Some(format!("test-secret-{}", Uuid::new_v4())),
        db_pool_size: 24,
        ..Settings::default()
    };
    settings.mail.poll_ms = 50;
    settings.mail.retry_base_ms = 100;
    settings.mail.retry_max_secs = 1;
    tweak(&mut settings);
    let app = Application::build(&settings, &database_url)
        .await
        .expect("build the application");
    let base = format!("http://127.0.0.1:{}", app.port());
    let inbound_port = app.inbound_port();
    tokio::spawn(app.run());
    TestApp {
        base,
        settings,
        database_url,
        client: http_client(),
        inbound_port,
        _data_dir: data_dir,
    }
}

impl TestApp {
    /// A second server over the same database with the same secrets, as a second process of
    /// a scaled-out deployment would be (its own port, data directory and memory).
    pub async fn twin(&self) -> TestApp {
        self.twin_with(|_| {}).await
    }

    /// [`Self::twin`] with its settings changed by `tweak` (a process configured otherwise).
    pub async fn twin_with(&self, tweak: impl FnOnce(&mut Settings)) -> TestApp {
        let data_dir = tempfile::tempdir().expect("temp dir");
        let mut settings = self.settings.clone();
        settings.data_dir = data_dir.path().to_path_buf();
        tweak(&mut settings);
        let app = Application::build(&settings, &self.database_url)
            .await
            .expect("build the second application");
        let base = format!("http://127.0.0.1:{}", app.port());
        tokio::spawn(app.run());
        TestApp {
            base,
            settings,
            database_url: self.database_url.clone(),
            client: http_client(),
            inbound_port: None,
            _data_dir: data_dir,
        }
    }
}

/// `turnpost serve` as a process of its own, on a free loopback port, over a fresh database
/// and data directory, with its mail in `.eml` files unless `env` says otherwise.
pub struct ServeProcess {
    pub child: std::process::Child,
    pub base: String,
    pub database_url: String,
    env: Vec<(String, String)>,
    pub data_dir: tempfile::TempDir,
}

/// A test that fails leaves no server behind.
impl Drop for ServeProcess {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl ServeProcess {
    /// Starts it with `env` on top (and its output where `stdout` and `stderr` say), and
    /// waits (at most a minute) until `/readyz` answers 200.
    pub async fn start(
        env: &[(&str, String)],
        stdout: std::process::Stdio,
        stderr: std::process::Stdio,
    ) -> ServeProcess {
        let database_url = fresh_database().await;
        let data_dir = tempfile::tempdir().expect("temp dir");
        let env: Vec<(String, String)> = env
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect();
        let (child, base) = Self::spawn(&database_url, data_dir.path(), &env, stdout, stderr).await;
        ServeProcess {
            child,
            base,
            database_url,
            env,
            data_dir,
        }
    }

    /// Starts it over `database_url` (a database of the test's own, e.g. a multi-host URL of
    /// a replicated cluster) with `env` on top; waits (at most a minute) until it is ready.
    pub async fn over(database_url: &str, env: &[(&str, String)]) -> ServeProcess {
        let data_dir = tempfile::tempdir().expect("temp dir");
        let env: Vec<(String, String)> = env
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect();
        let (child, base) = Self::spawn(
            database_url,
            data_dir.path(),
            &env,
            std::process::Stdio::null(),
            std::process::Stdio::null(),
        )
        .await;
        ServeProcess {
            child,
            base,
            database_url: database_url.to_owned(),
            env,
            data_dir,
        }
    }

    /// Starts `turnpost serve` again on the same database and data directory (after
    /// [`Self::kill`]), on a new port; waits until it is ready.
    pub async fn start_again(&mut self) {
        let (child, base) = Self::spawn(
            &self.database_url,
            self.data_dir.path(),
            &self.env,
            std::process::Stdio::null(),
            std::process::Stdio::null(),
        )
        .await;
        self.child = child;
        self.base = base;
    }

    /// Another `turnpost serve` over the same database, as a second process of a scaled-out
    /// deployment (its own port and data directory), with `env` on top of this one's.
    pub async fn beside(&self, env: &[(&str, String)]) -> ServeProcess {
        let data_dir = tempfile::tempdir().expect("temp dir");
        let mut all = self.env.clone();
        all.extend(env.iter().map(|(k, v)| ((*k).to_owned(), v.clone())));
        let (child, base) = Self::spawn(
            &self.database_url,
            data_dir.path(),
            &all,
            std::process::Stdio::null(),
            std::process::Stdio::null(),
        )
        .await;
        ServeProcess {
            child,
            base,
            database_url: self.database_url.clone(),
            env: all,
            data_dir,
        }
    }

    /// SIGKILL: the process ends at once, in the middle of whatever it was doing.
    pub fn kill(&mut self) {
        let pid = libc::pid_t::try_from(self.child.id()).expect("pid");
        // SAFETY: kill(2) on the child we spawned and have not reaped.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0);
        self.child.wait().expect("reap the killed server");
    }

    async fn spawn(
        database_url: &str,
        data_dir: &std::path::Path,
        env: &[(String, String)],
        stdout: std::process::Stdio,
        stderr: std::process::Stdio,
    ) -> (std::process::Child, String) {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let base = format!("http://127.0.0.1:{port}");
        let mut child = turnpost_command()
            .arg("serve")
            .env("DATABASE_URL", database_url)
            .env("TURNPOST_DATA_DIR", data_dir)
            .env("TURNPOST_ADDR", format!("127.0.0.1:{port}"))
            .env("TURNPOST_PUBLIC_URL", &base)
            .env("TURNPOST_JWT_SECRET", "x".repeat(40))
            .env("RUST_LOG", "warn")
            .env_remove("TURNPOST_SMTP_URL")
            .env_remove("TURNPOST_CONFIG")
            .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdin(std::process::Stdio::null())
            .stdout(stdout)
            .stderr(stderr)
            .spawn()
            .expect("start turnpost serve");
        let client = reqwest::Client::new();
        let mut ready = false;
        for _ in 0..600 {
            if let Ok(r) = client.get(format!("{base}/readyz")).send().await
                && r.status() == 200
            {
                ready = true;
                break;
            }
            if child.try_wait().expect("poll the child").is_some() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert!(ready, "turnpost serve did not become ready");
        (child, base)
    }

    /// Sends SIGTERM and waits (at most 30 s) for the exit: its status, or `None` if the
    /// process had to be killed.
    pub async fn terminate(mut self) -> Option<std::process::ExitStatus> {
        let pid = libc::pid_t::try_from(self.child.id()).expect("pid");
        // SAFETY: kill(2) on the child we spawned and have not reaped.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
        for _ in 0..300 {
            if let Some(status) = self.child.try_wait().expect("poll the child") {
                return Some(status);
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        None
    }
}

/// A registered user with a token.
#[derive(Clone, Debug)]
pub struct Player {
    pub id: Uuid,
    pub token: String,
    pub email: String,
}

pub struct Reply {
    pub status: StatusCode,
    pub content_type: String,
    pub body: Value,
    pub text: String,
}

impl Reply {
    #[track_caller]
    pub fn expect(self, status: u16) -> Value {
        assert_eq!(
            self.status.as_u16(),
            status,
            "unexpected status; body: {}",
            self.text
        );
        self.body
    }

    /// Asserts a problem+json error of this status and type slug.
    #[track_caller]
    pub fn expect_problem(self, status: u16, slug: &str) -> Value {
        assert_eq!(
            self.status.as_u16(),
            status,
            "unexpected status; body: {}",
            self.text
        );
        assert!(
            self.content_type.starts_with("application/problem+json"),
            "content type {:?}, body {}",
            self.content_type,
            self.text
        );
        assert_eq!(
            self.body["type"],
            format!("https://turnpost.dev/problems/{slug}"),
            "problem type; body: {}",
            self.text
        );
        assert_eq!(self.body["status"], status);
        self.body
    }
}

impl TestApp {
    pub async fn request(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
        headers: &[(&str, &str)],
    ) -> Reply {
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(b);
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let res = req.send().await.expect("send request");
        reply(res).await
    }

    pub async fn get(&self, path: &str, who: &Player) -> Reply {
        self.request(Method::GET, path, Some(&who.token), None, &[])
            .await
    }

    pub async fn post(&self, path: &str, who: &Player, body: &Value) -> Reply {
        self.request(Method::POST, path, Some(&who.token), Some(body), &[])
            .await
    }

    pub async fn raw_post(
        &self,
        path: &str,
        token: Option<&str>,
        content_type: &str,
        body: Vec<u8>,
    ) -> Reply {
        let mut req = self
            .client
            .post(format!("{}{path}", self.base))
            .header("content-type", content_type)
            .body(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        reply(req.send().await.expect("send request")).await
    }

    pub async fn register(&self, name: &str) -> Player {
        let email = format!(
            "{}-{}@example.test",
            name.to_lowercase(),
            Uuid::new_v4().simple()
        );
        self.register_as(name, &email).await
    }

    /// Registers `name` with the address `email` (password `correct horse battery`) and
    /// confirms it with the link mailed to the address (read from the outbox), as its owner
    /// would: the account exists, its address confirmed.
    pub async fn register_as(&self, name: &str, email: &str) -> Player {
        register_on(&self.client, &self.base, &self.database_url, name, email).await
    }

    /// `POST /v1/auth/confirm` with a confirmation link's token.
    pub async fn confirm(&self, token: &str) -> Reply {
        self.request(
            Method::POST,
            "/v1/auth/confirm",
            None,
            Some(&json!({ "token": token })),
            &[],
        )
        .await
    }

    /// The token of the latest confirmation link mailed to `email`, read from the outbox.
    pub async fn confirmation_token(&self, email: &str) -> Option<String> {
        confirmation_token(&self.database_url, email).await
    }

    /// The latest mail of `kind` queued for `email` (its outbox payload: to, subject, text,
    /// html), if any.
    pub async fn latest_mail(&self, email: &str, kind: &str) -> Option<Value> {
        latest_mail(&self.database_url, email, kind).await
    }

    /// Creates a game as `players[0]` and seats everybody else; returns the game id.
    pub async fn start_game(&self, ruleset: &str, players: &[Player], options: Value) -> Uuid {
        let game = self
            .post(
                "/v1/games",
                &players[0],
                &json!({"ruleset": ruleset, "seats": players.len(), "options": options}),
            )
            .await
            .expect(201);
        let id: Uuid = game["id"].as_str().expect("id").parse().expect("uuid");
        for p in &players[1..] {
            self.post(&format!("/v1/games/{id}/join"), p, &json!({}))
                .await
                .expect(200);
        }
        id
    }

    /// The server's token signer (its secret), to make tokens the server accepts.
    pub fn jwt(&self) -> turnpost::auth::Jwt {
        turnpost::auth::Jwt::new(
            self.settings
                .jwt_secret
                .as_deref()
                .expect("secret")
                .as_bytes(),
            3600,
        )
    }

    /// Runs SQL straight against the test database (test set-up only).
    pub async fn sql(&self, query: &str) {
        let mut conn = AsyncPgConnection::establish(&self.database_url)
            .await
            .expect("connect");
        diesel::sql_query(query)
            .execute(&mut conn)
            .await
            .expect("sql");
    }

    /// Counts rows of a table, straight from the database (to prove nothing was written).
    pub async fn count(&self, table: &str) -> i64 {
        self.count_where(table, "true").await
    }

    /// Counts the rows of a table that satisfy an SQL condition (test-made, never user input).
    pub async fn count_where(&self, table: &str, condition: &str) -> i64 {
        #[derive(diesel::QueryableByName)]
        struct Count {
            #[diesel(sql_type = BigInt)]
            n: i64,
        }
        let mut conn = AsyncPgConnection::establish(&self.database_url)
            .await
            .expect("connect");
        let row: Count = diesel::sql_query(format!(
            "SELECT count(*) AS n FROM {table} WHERE {condition}"
        ))
        .get_result(&mut conn)
        .await
        .expect("count");
        row.n
    }
}

/// Registers `name` with `email` (password `correct horse battery`) on the server at `base`
/// over the database `database_url`, and confirms the registration with the link mailed to
/// the address (read from the outbox, as its owner would from the mail).
pub async fn register_on(
    client: &reqwest::Client,
    base: &str,
    database_url: &str,
    name: &str,
    email: &str,
) -> Player {
    let post = |path: &str, body: Value| client.post(format!("{base}{path}")).json(&body).send();
    let accepted = reply(
        post(
            "/v1/auth/register",
            json!({"email": email, "password": "correct horse battery", "display_name": name}),
        )
        .await
        .expect("register"),
    )
    .await
    .expect(202);
    assert_eq!(accepted["status"], "confirmation-sent");
    let token = confirmation_token(database_url, email)
        .await
        .unwrap_or_else(|| panic!("no confirmation mail to {email}"));
    let body = reply(
        post("/v1/auth/confirm", json!({ "token": token }))
            .await
            .expect("confirm"),
    )
    .await
    .expect(201);
    Player {
        id: body["user"]["id"]
            .as_str()
            .expect("user id")
            .parse()
            .expect("uuid"),
        token: body["token"].as_str().expect("token").to_owned(),
        email: email.to_owned(),
    }
}

/// The token of the latest confirmation link mailed to `email`, from the outbox.
pub async fn confirmation_token(database_url: &str, email: &str) -> Option<String> {
    let mail = latest_mail(database_url, email, "confirm_registration").await?;
    turnpost::service::registration::link_token(&mail)
}

/// The latest mail of `kind` queued for `email` (its outbox payload: to, subject, text, html).
pub async fn latest_mail(database_url: &str, email: &str, kind: &str) -> Option<Value> {
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Jsonb)]
        payload: Value,
    }
    let mut conn = AsyncPgConnection::establish(database_url)
        .await
        .expect("connect");
    let rows: Vec<Row> = diesel::sql_query(
        "SELECT payload FROM outbox WHERE to_address = $1 AND kind = $2 ORDER BY id DESC LIMIT 1",
    )
    .bind::<diesel::sql_types::Text, _>(email)
    .bind::<diesel::sql_types::Text, _>(kind)
    .load(&mut conn)
    .await
    .expect("read the outbox");
    rows.into_iter().next().map(|r| r.payload)
}

async fn reply(res: reqwest::Response) -> Reply {
    let status = res.status();
    let content_type = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let text = res.text().await.expect("body");
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply {
        status,
        content_type,
        body,
        text,
    }
}

/// A small deterministic PRNG for choosing among legal actions (tests must be reproducible).
pub struct Picker(u64);

impl Picker {
    pub fn new(seed: u64) -> Self {
        Picker(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn below(&mut self, n: usize) -> usize {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % n.max(1) as u64) as usize
    }
}
