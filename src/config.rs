//! Typed settings: defaults < `turnpost.toml` < `TURNPOST_*` environment < command line.
//! Secrets are never logged: `Settings`' `Debug` hides them.

use std::fmt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::Deserialize;

pub mod cors;
pub mod limits;
pub mod webhooks;

pub use limits::LimitSettings;
pub use webhooks::WebhookSettings;

/// The shortest JWT secret accepted: a shorter HMAC key can be guessed offline from any token.
pub const MIN_SECRET_BYTES: usize = 32;

pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
pub const DEFAULT_DATA_DIR: &str = ".turnpost";
/// Hot games kept in memory at most by default (`TURNPOST_HOT_GAMES`; `service::hot`): beyond
/// it, stale entries are dropped, then all (a busy server re-reads).
pub const HOT_GAMES: usize = 4096;

#[derive(Clone)]
pub struct Settings {
    /// Where the HTTP server listens (`TURNPOST_ADDR`); port 0 picks a free port.
    pub addr: SocketAddr,
    /// Private cluster, mail files and generated secrets live here (`TURNPOST_DATA_DIR`).
    pub data_dir: PathBuf,
    /// PostgreSQL to use (`DATABASE_URL`); without it a private cluster under the data dir.
    pub database_url: Option<String>,
    /// Connections in the pool (`TURNPOST_DB_POOL_SIZE`).
    pub db_pool_size: usize,
    /// Seconds a request waits for a pooled database connection (or a new one) before it is
    /// answered 503 (`TURNPOST_DB_WAIT_SECS`).
    pub db_wait_secs: u64,
    /// PostgreSQL's `statement_timeout` for the pool's connections, in seconds
    /// (`TURNPOST_DB_STATEMENT_TIMEOUT_SECS`; 0: none); a statement cancelled by it is 503.
    pub db_statement_timeout_secs: u64,
    /// Seconds a request may take until its answer starts (`TURNPOST_REQUEST_TIMEOUT_SECS`;
    /// 0: no limit); past it, 503 with `Retry-After`. A database that stopped answering (a
    /// frozen server, a partition) is the usual cause. Event streams count until their first
    /// bytes only.
    pub request_timeout_secs: u64,
    /// Games kept in memory between their submissions (`TURNPOST_HOT_GAMES`; 0: none).
    pub hot_games: usize,
    /// HMAC key for JWTs (`TURNPOST_JWT_SECRET`); generated and kept in the data dir if unset.
    pub jwt_secret: Option<String>,
    /// Lifetime of a login token in seconds (`TURNPOST_JWT_TTL_SECS`).
    pub jwt_ttl_secs: i64,
    /// Largest accepted request body in bytes (`TURNPOST_BODY_LIMIT`).
    pub body_limit: usize,
    /// Seconds a client has to send a request's head, and then its whole body
    /// (`TURNPOST_BODY_TIMEOUT_SECS`); a connection that takes longer is answered 408 and closed.
    pub body_timeout_secs: u64,
    /// Seconds between the heartbeats (comment lines) of an idle event stream
    /// (`TURNPOST_STREAM_HEARTBEAT_SECS`, at least 1).
    pub stream_heartbeat_secs: u64,
    /// The service's public address, for links (`TURNPOST_PUBLIC_URL`).
    pub public_url: Option<String>,
    /// Run database migrations at start (`TURNPOST_MIGRATE`, default true).
    pub migrate: bool,
    /// Mail settings.
    pub mail: MailSettings,
    /// Inbound mail: replies that play moves.
    pub inbound: InboundSettings,
    /// How often the deadline worker looks for due deadlines and reminders
    /// (`TURNPOST_CLOCK_POLL_MS`; 0 turns the worker off in this process).
    pub clock_poll_ms: u64,
    /// The clock deadlines are measured by (the system clock; tests move an adjustable one).
    pub clock: crate::clock::Clock,
    /// Rate limits, per-day mail caps and the password policy.
    pub limits: LimitSettings,
    /// Webhooks: where deliveries may go, their retries, the key of their secrets.
    pub webhooks: WebhookSettings,
    /// The origins whose pages may call the API from a browser (`TURNPOST_CORS_ORIGINS`,
    /// comma-separated), each as a browser sends it (see [`cors`]). Empty: no CORS headers.
    pub cors_origins: Vec<String>,
}

/// How replies reach Turnpost: the built-in SMTP listener and/or `POST /v1/inbound/mail`.
#[derive(Clone)]
pub struct InboundSettings {
    /// Where the SMTP listener listens (`TURNPOST_INBOUND_SMTP_ADDR`); off when unset.
    pub smtp_addr: Option<SocketAddr>,
    /// The bearer secret of `POST /v1/inbound/mail` (`TURNPOST_INBOUND_SECRET`); the route
    /// refuses everything while it is unset.
    pub secret: Option<String>,
    /// Largest inbound message in bytes (`TURNPOST_INBOUND_MAX_BYTES`).
    pub max_bytes: usize,
    /// The address replies go to (`TURNPOST_REPLY_ADDRESS`), `local@domain`: turn mail says
    /// `Reply-To: local+<token>@domain`. Default: the From address.
    pub reply_address: Option<String>,
    /// The authserv-id of the relay (the MX in front of Turnpost) whose
    /// `Authentication-Results` are believed (`TURNPOST_INBOUND_RELAY_ID`); none when unset.
    pub relay_id: Option<String>,
    /// The addresses that relay connects to the SMTP listener from
    /// (`TURNPOST_INBOUND_RELAY_ADDRS`, comma-separated); over HTTP the inbound secret says it.
    pub relay_addrs: Vec<std::net::IpAddr>,
    /// DKIM key records known without DNS: (`<selector>._domainkey.<domain>`, the TXT
    /// record's text). Set by code only (a closed network, tests); every other key is looked
    /// up in DNS.
    pub dkim_keys: Vec<(String, String)>,
}

impl Default for InboundSettings {
    fn default() -> Self {
        InboundSettings {
            smtp_addr: None,
            secret: None,
            max_bytes: 1024 * 1024,
            reply_address: None,
            relay_id: None,
            relay_addrs: Vec::new(),
            dkim_keys: Vec::new(),
        }
    }
}

/// How mail leaves: SMTP when `smtp_url` is set, otherwise `.eml` files under
/// `<data-dir>/mail/`.
#[derive(Clone)]
pub struct MailSettings {
    /// `smtp://host:port` (STARTTLS when offered; `?tls=required` to insist),
    /// `smtps://host:465` (TLS), with `user:password@` for credentials (`TURNPOST_SMTP_URL`).
    pub smtp_url: Option<String>,
    /// The From header (`TURNPOST_MAIL_FROM`).
    pub from: String,
    /// Run the outbox worker inside `serve` (`TURNPOST_MAIL_WORKER`, default true).
    pub worker_in_serve: bool,
    /// Attempts before a message is parked as failed (`TURNPOST_MAIL_MAX_ATTEMPTS`).
    pub max_attempts: i32,
    /// How long a worker owns the rows it claimed (`TURNPOST_MAIL_LEASE_SECS`).
    pub lease_secs: i64,
    /// First retry delay; doubles per attempt, with jitter (`TURNPOST_MAIL_RETRY_BASE_MS`).
    pub retry_base_ms: i64,
    /// Longest retry delay (`TURNPOST_MAIL_RETRY_MAX_SECS`).
    pub retry_max_secs: i64,
    /// Rows claimed at once (`TURNPOST_MAIL_BATCH`).
    pub batch: i64,
    /// How often an idle worker looks for due mail (`TURNPOST_MAIL_POLL_MS`).
    pub poll_ms: u64,
    /// Lifetime of verification and invitation links (`TURNPOST_LINK_TTL_SECS`).
    pub link_ttl_secs: i64,
}

impl Default for MailSettings {
    fn default() -> Self {
        MailSettings {
            smtp_url: None,
            from: "Turnpost <turnpost@localhost>".into(),
            worker_in_serve: true,
            max_attempts: 8,
            lease_secs: 120,
            retry_base_ms: 2_000,
            retry_max_secs: 3_600,
            batch: 50,
            poll_ms: 1_000,
            link_ttl_secs: 7 * 24 * 3600,
        }
    }
}

impl fmt::Debug for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Settings")
            .field("addr", &self.addr)
            .field("data_dir", &self.data_dir)
            .field(
                "database_url",
                &self.database_url.as_ref().map(|u| redact_url(u)),
            )
            .field("db_pool_size", &self.db_pool_size)
            .field("db_wait_secs", &self.db_wait_secs)
            .field("db_statement_timeout_secs", &self.db_statement_timeout_secs)
            .field("request_timeout_secs", &self.request_timeout_secs)
            .field("hot_games", &self.hot_games)
            .field("jwt_secret", &self.jwt_secret.as_ref().map(|_| "<hidden>"))
            .field("jwt_ttl_secs", &self.jwt_ttl_secs)
            .field("body_limit", &self.body_limit)
            .field("body_timeout_secs", &self.body_timeout_secs)
            .field("stream_heartbeat_secs", &self.stream_heartbeat_secs)
            .field("public_url", &self.public_url)
            .field("migrate", &self.migrate)
            .field(
                "smtp_url",
                &self.mail.smtp_url.as_ref().map(|u| redact_url(u)),
            )
            .field("mail_from", &self.mail.from)
            .field("inbound_smtp_addr", &self.inbound.smtp_addr)
            .field(
                "inbound_secret",
                &self.inbound.secret.as_ref().map(|_| "<hidden>"),
            )
            .field("inbound_max_bytes", &self.inbound.max_bytes)
            .field("inbound_relay_id", &self.inbound.relay_id)
            .field("inbound_relay_addrs", &self.inbound.relay_addrs)
            .field("reply_address", &self.reply_address())
            .field("clock_poll_ms", &self.clock_poll_ms)
            .field("clock", &self.clock)
            .field("limits", &self.limits)
            .field("webhooks", &self.webhooks)
            .field("cors_origins", &self.cors_origins)
            .finish()
    }
}

/// A database URL without its password.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{}{}@{}", &url[..scheme + 3], user, &url[at + 1..])
        }
        _ => url.to_owned(),
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data_dir: PathBuf::from(DEFAULT_DATA_DIR),
            database_url: None,
            db_pool_size: 16,
            db_wait_secs: 5,
            db_statement_timeout_secs: 10,
            request_timeout_secs: 15,
            hot_games: HOT_GAMES,
            jwt_secret: None,
            jwt_ttl_secs: 7 * 24 * 3600,
            body_limit: 64 * 1024,
            body_timeout_secs: 20,
            stream_heartbeat_secs: 15,
            public_url: None,
            migrate: true,
            mail: MailSettings::default(),
            inbound: InboundSettings::default(),
            clock_poll_ms: 1_000,
            clock: crate::clock::Clock::system(),
            limits: LimitSettings::default(),
            webhooks: WebhookSettings::default(),
            cors_origins: Vec::new(),
        }
    }
}

/// `turnpost.toml`: every key optional, same names as the fields of [`Settings`].
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSettings {
    addr: Option<SocketAddr>,
    data_dir: Option<PathBuf>,
    database_url: Option<String>,
    db_pool_size: Option<usize>,
    db_wait_secs: Option<u64>,
    db_statement_timeout_secs: Option<u64>,
    request_timeout_secs: Option<u64>,
    hot_games: Option<usize>,
    jwt_secret: Option<String>,
    jwt_ttl_secs: Option<i64>,
    body_limit: Option<usize>,
    body_timeout_secs: Option<u64>,
    stream_heartbeat_secs: Option<u64>,
    public_url: Option<String>,
    migrate: Option<bool>,
    smtp_url: Option<String>,
    mail_from: Option<String>,
    mail_worker: Option<bool>,
    mail_max_attempts: Option<i32>,
    mail_lease_secs: Option<i64>,
    mail_retry_base_ms: Option<i64>,
    mail_retry_max_secs: Option<i64>,
    mail_batch: Option<i64>,
    mail_poll_ms: Option<u64>,
    link_ttl_secs: Option<i64>,
    inbound_smtp_addr: Option<SocketAddr>,
    inbound_secret: Option<String>,
    inbound_max_bytes: Option<usize>,
    reply_address: Option<String>,
    inbound_relay_id: Option<String>,
    /// A list of addresses, or one string of them separated by commas.
    inbound_relay_addrs: Option<OneOrMany>,
    clock_poll_ms: Option<u64>,
    limits: Option<limits::FileLimits>,
    webhooks: Option<webhooks::FileWebhooks>,
    /// A list of origins, or one string of them separated by commas.
    cors_origins: Option<OneOrMany>,
}

/// A comma-separated list of IP addresses (the inbound relay's).
fn parse_addrs(name: &str, list: &str) -> anyhow::Result<Vec<std::net::IpAddr>> {
    list.split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(|a| {
            a.parse()
                .map_err(|e| anyhow::anyhow!("{name}: {a:?} is not an IP address: {e}"))
        })
        .collect()
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl Settings {
    /// Loads `config_file` (if it exists), then the environment.
    pub fn load(config_file: Option<&Path>) -> anyhow::Result<Settings> {
        let mut s = Settings::default();
        let path = config_file.unwrap_or(Path::new("turnpost.toml"));
        if path.exists() {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            let file: FileSettings =
                toml::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
            s.apply_file(file)
                .with_context(|| format!("in {}", path.display()))?;
        } else if config_file.is_some() {
            bail!("config file {} does not exist", path.display());
        }
        s.apply_env(|k| std::env::var(k).ok())?;
        Ok(s)
    }

    fn apply_file(&mut self, f: FileSettings) -> anyhow::Result<()> {
        if let Some(v) = f.addr {
            self.addr = v;
        }
        if let Some(v) = f.data_dir {
            self.data_dir = v;
        }
        if f.database_url.is_some() {
            self.database_url = f.database_url;
        }
        if let Some(v) = f.db_pool_size {
            self.db_pool_size = v;
        }
        if let Some(v) = f.db_wait_secs {
            self.db_wait_secs = v;
        }
        if let Some(v) = f.db_statement_timeout_secs {
            self.db_statement_timeout_secs = v;
        }
        if let Some(v) = f.request_timeout_secs {
            self.request_timeout_secs = v;
        }
        if let Some(v) = f.hot_games {
            self.hot_games = v;
        }
        if f.jwt_secret.is_some() {
            self.jwt_secret = f.jwt_secret;
        }
        if let Some(v) = f.jwt_ttl_secs {
            self.jwt_ttl_secs = v;
        }
        if let Some(v) = f.body_limit {
            self.body_limit = v;
        }
        if let Some(v) = f.body_timeout_secs {
            self.body_timeout_secs = v;
        }
        if let Some(v) = f.stream_heartbeat_secs {
            self.stream_heartbeat_secs = v;
        }
        if f.public_url.is_some() {
            self.public_url = f.public_url;
        }
        if let Some(v) = f.migrate {
            self.migrate = v;
        }
        let m = &mut self.mail;
        if f.smtp_url.is_some() {
            m.smtp_url = f.smtp_url;
        }
        if let Some(v) = f.mail_from {
            m.from = v;
        }
        if let Some(v) = f.mail_worker {
            m.worker_in_serve = v;
        }
        if let Some(v) = f.mail_max_attempts {
            m.max_attempts = v;
        }
        if let Some(v) = f.mail_lease_secs {
            m.lease_secs = v;
        }
        if let Some(v) = f.mail_retry_base_ms {
            m.retry_base_ms = v;
        }
        if let Some(v) = f.mail_retry_max_secs {
            m.retry_max_secs = v;
        }
        if let Some(v) = f.mail_batch {
            m.batch = v;
        }
        if let Some(v) = f.mail_poll_ms {
            m.poll_ms = v;
        }
        if let Some(v) = f.link_ttl_secs {
            m.link_ttl_secs = v;
        }
        let i = &mut self.inbound;
        if f.inbound_smtp_addr.is_some() {
            i.smtp_addr = f.inbound_smtp_addr;
        }
        if f.inbound_secret.is_some() {
            i.secret = f.inbound_secret;
        }
        if let Some(v) = f.inbound_max_bytes {
            i.max_bytes = v;
        }
        if f.reply_address.is_some() {
            i.reply_address = f.reply_address;
        }
        if f.inbound_relay_id.is_some() {
            i.relay_id = f.inbound_relay_id;
        }
        if let Some(addrs) = f.inbound_relay_addrs {
            let list = match addrs {
                OneOrMany::One(s) => s,
                OneOrMany::Many(v) => v.join(","),
            };
            i.relay_addrs = parse_addrs("inbound_relay_addrs", &list)?;
        }
        if let Some(v) = f.clock_poll_ms {
            self.clock_poll_ms = v;
        }
        if let Some(l) = f.limits {
            self.limits.apply_file(l);
        }
        if let Some(w) = f.webhooks {
            self.webhooks.apply_file(w);
        }
        if let Some(origins) = f.cors_origins {
            let list = match origins {
                OneOrMany::One(s) => s,
                OneOrMany::Many(v) => v.join(","),
            };
            self.cors_origins = cors::parse_origins(&list)?;
        }
        Ok(())
    }

    fn apply_env(&mut self, var: impl Fn(&str) -> Option<String>) -> anyhow::Result<()> {
        fn parse<T: std::str::FromStr>(name: &str, v: String) -> anyhow::Result<T>
        where
            T::Err: fmt::Display,
        {
            v.parse::<T>()
                .map_err(|e| anyhow::anyhow!("{name}={v:?} is not valid: {e}"))
        }
        if let Some(v) = var("TURNPOST_ADDR") {
            self.addr = parse("TURNPOST_ADDR", v)?;
        }
        if let Some(v) = var("TURNPOST_DATA_DIR") {
            self.data_dir = PathBuf::from(v);
        }
        if let Some(v) = var("DATABASE_URL").filter(|v| !v.is_empty()) {
            self.database_url = Some(v);
        }
        if let Some(v) = var("TURNPOST_DB_POOL_SIZE") {
            self.db_pool_size = parse("TURNPOST_DB_POOL_SIZE", v)?;
        }
        if let Some(v) = var("TURNPOST_DB_WAIT_SECS") {
            self.db_wait_secs = parse("TURNPOST_DB_WAIT_SECS", v)?;
        }
        if let Some(v) = var("TURNPOST_DB_STATEMENT_TIMEOUT_SECS") {
            self.db_statement_timeout_secs = parse("TURNPOST_DB_STATEMENT_TIMEOUT_SECS", v)?;
        }
        if let Some(v) = var("TURNPOST_REQUEST_TIMEOUT_SECS") {
            self.request_timeout_secs = parse("TURNPOST_REQUEST_TIMEOUT_SECS", v)?;
        }
        if let Some(v) = var("TURNPOST_HOT_GAMES") {
            self.hot_games = parse("TURNPOST_HOT_GAMES", v)?;
        }
        if let Some(v) = var("TURNPOST_JWT_SECRET").filter(|v| !v.is_empty()) {
            self.jwt_secret = Some(v);
        }
        if let Some(v) = var("TURNPOST_JWT_TTL_SECS") {
            self.jwt_ttl_secs = parse("TURNPOST_JWT_TTL_SECS", v)?;
        }
        if let Some(v) = var("TURNPOST_BODY_LIMIT") {
            self.body_limit = parse("TURNPOST_BODY_LIMIT", v)?;
        }
        if let Some(v) = var("TURNPOST_BODY_TIMEOUT_SECS") {
            self.body_timeout_secs = parse("TURNPOST_BODY_TIMEOUT_SECS", v)?;
        }
        if let Some(v) = var("TURNPOST_STREAM_HEARTBEAT_SECS") {
            self.stream_heartbeat_secs = parse("TURNPOST_STREAM_HEARTBEAT_SECS", v)?;
        }
        if let Some(v) = var("TURNPOST_PUBLIC_URL") {
            self.public_url = Some(v);
        }
        if let Some(v) = var("TURNPOST_MIGRATE") {
            self.migrate = parse("TURNPOST_MIGRATE", v)?;
        }
        let m = &mut self.mail;
        if let Some(v) = var("TURNPOST_SMTP_URL").filter(|v| !v.is_empty()) {
            m.smtp_url = Some(v);
        }
        if let Some(v) = var("TURNPOST_MAIL_FROM") {
            m.from = v;
        }
        if let Some(v) = var("TURNPOST_MAIL_WORKER") {
            m.worker_in_serve = parse("TURNPOST_MAIL_WORKER", v)?;
        }
        if let Some(v) = var("TURNPOST_MAIL_MAX_ATTEMPTS") {
            m.max_attempts = parse("TURNPOST_MAIL_MAX_ATTEMPTS", v)?;
        }
        if let Some(v) = var("TURNPOST_MAIL_LEASE_SECS") {
            m.lease_secs = parse("TURNPOST_MAIL_LEASE_SECS", v)?;
        }
        if let Some(v) = var("TURNPOST_MAIL_RETRY_BASE_MS") {
            m.retry_base_ms = parse("TURNPOST_MAIL_RETRY_BASE_MS", v)?;
        }
        if let Some(v) = var("TURNPOST_MAIL_RETRY_MAX_SECS") {
            m.retry_max_secs = parse("TURNPOST_MAIL_RETRY_MAX_SECS", v)?;
        }
        if let Some(v) = var("TURNPOST_MAIL_BATCH") {
            m.batch = parse("TURNPOST_MAIL_BATCH", v)?;
        }
        if let Some(v) = var("TURNPOST_MAIL_POLL_MS") {
            m.poll_ms = parse("TURNPOST_MAIL_POLL_MS", v)?;
        }
        if let Some(v) = var("TURNPOST_LINK_TTL_SECS") {
            m.link_ttl_secs = parse("TURNPOST_LINK_TTL_SECS", v)?;
        }
        let i = &mut self.inbound;
        if let Some(v) = var("TURNPOST_INBOUND_SMTP_ADDR").filter(|v| !v.is_empty()) {
            i.smtp_addr = Some(parse("TURNPOST_INBOUND_SMTP_ADDR", v)?);
        }
        if let Some(v) = var("TURNPOST_INBOUND_SECRET").filter(|v| !v.is_empty()) {
            i.secret = Some(v);
        }
        if let Some(v) = var("TURNPOST_INBOUND_MAX_BYTES") {
            i.max_bytes = parse("TURNPOST_INBOUND_MAX_BYTES", v)?;
        }
        if let Some(v) = var("TURNPOST_REPLY_ADDRESS").filter(|v| !v.is_empty()) {
            i.reply_address = Some(v);
        }
        if let Some(v) = var("TURNPOST_INBOUND_RELAY_ID").filter(|v| !v.is_empty()) {
            i.relay_id = Some(v);
        }
        if let Some(v) = var("TURNPOST_INBOUND_RELAY_ADDRS") {
            i.relay_addrs = parse_addrs("TURNPOST_INBOUND_RELAY_ADDRS", &v)?;
        }
        if let Some(v) = var("TURNPOST_CLOCK_POLL_MS") {
            self.clock_poll_ms = parse("TURNPOST_CLOCK_POLL_MS", v)?;
        }
        if let Some(v) = var("TURNPOST_CORS_ORIGINS") {
            self.cors_origins = cors::parse_origins(&v)?;
        }
        self.limits.apply_env(&var)?;
        self.webhooks.apply_env(&var)
    }

    /// The bare reply address (`local@domain`): configured, or the From header's address.
    pub fn reply_address(&self) -> String {
        let configured = self.inbound.reply_address.as_deref();
        let from = self.mail.from.as_str();
        let raw = configured.unwrap_or(from);
        // "Name <local@domain>" or "local@domain".
        let addr = match (raw.rfind('<'), raw.rfind('>')) {
            (Some(open), Some(close)) if open < close => &raw[open + 1..close],
            _ => raw,
        };
        addr.trim().to_owned()
    }

    /// The public base URL for links in mail: configured, or this server's address.
    pub fn base_url(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => format!("http://{}", self.addr),
        }
    }

    /// The JWT key: configured, or generated once and kept in `<data-dir>/jwt-secret`.
    pub fn jwt_key(&self) -> anyhow::Result<Vec<u8>> {
        if let Some(secret) = &self.jwt_secret {
            if secret.len() < MIN_SECRET_BYTES {
                bail!(
                    "TURNPOST_JWT_SECRET (jwt_secret) has {} bytes; at least {MIN_SECRET_BYTES} \
                     are needed, for example `openssl rand -hex 32` (or leave it unset to have \
                     one generated into the data directory)",
                    secret.len()
                );
            }
            return Ok(secret.as_bytes().to_vec());
        }
        let path = self.data_dir.join("jwt-secret");
        if let Ok(existing) = std::fs::read_to_string(&path) {
            let existing = existing.trim();
            if existing.len() >= MIN_SECRET_BYTES {
                return Ok(existing.as_bytes().to_vec());
            }
        }
        std::fs::create_dir_all(&self.data_dir)
            .with_context(|| format!("creating {}", self.data_dir.display()))?;
        let secret = hex::encode(rand::random::<[u8; 32]>());
        write_private(&path, &secret)?;
        Ok(secret.into_bytes())
    }
}

/// Crates that log what they send at debug level: the PostgreSQL driver every statement's
/// parameters (addresses, password hashes), lettre every SMTP line (whole messages, with their
/// sign-in, verification and unsubscribe links, and the AUTH exchange).
const SENDS_SECRETS_AT_DEBUG: [&str; 2] = ["tokio_postgres", "lettre"];

/// The log filter for `RUST_LOG` (default `info`). A filter that asks for debug or trace
/// output keeps [`SENDS_SECRETS_AT_DEBUG`] at `info` unless it names them itself, so turning
/// on debug logs does not write tokens and credentials to them.
pub fn log_filter(rust_log: Option<&str>) -> tracing_subscriber::EnvFilter {
    use tracing_subscriber::EnvFilter;
    const DEFAULT: &str = "info,actix_server=warn";
    let spec = rust_log.map(str::trim).filter(|s| !s.is_empty());
    let (spec, mut filter) = match spec.map(|s| (s, EnvFilter::try_new(s))) {
        Some((s, Ok(filter))) => (s, filter),
        _ => (DEFAULT, EnvFilter::new(DEFAULT)),
    };
    let lower = spec.to_lowercase();
    if lower.contains("debug") || lower.contains("trace") {
        for target in SENDS_SECRETS_AT_DEBUG {
            if !lower.contains(target)
                && let Ok(directive) = format!("{target}=info").parse()
            {
                filter = filter.add_directive(directive);
            }
        }
    }
    filter
}

/// Writes a file readable by its owner only.
fn write_private(path: &Path, contents: &str) -> anyhow::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("writing {}", path.display()))?;
    f.write_all(contents.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_overrides_defaults_and_bad_values_are_named() {
        let mut s = Settings::default();
        s.apply_env(|k| match k {
            "TURNPOST_ADDR" => Some("127.0.0.1:0".into()),
            "TURNPOST_DB_POOL_SIZE" => Some("3".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(s.addr.port(), 0);
        assert_eq!(s.db_pool_size, 3);
        let err = s
            .apply_env(|k| (k == "TURNPOST_BODY_LIMIT").then(|| "lots".into()))
            .unwrap_err();
        assert!(err.to_string().contains("TURNPOST_BODY_LIMIT"));
    }

    /// Issue 19: CORS for configured origins, checked at start-up.
    #[test]
    fn cors_origins_come_from_the_environment_and_a_bad_one_stops_the_start() {
        let mut s = Settings::default();
        assert!(s.cors_origins.is_empty(), "no CORS unless configured");
        s.apply_env(|k| {
            (k == "TURNPOST_CORS_ORIGINS")
                .then(|| "https://play.example, http://localhost:3000".into())
        })
        .unwrap();
        assert_eq!(
            s.cors_origins,
            ["https://play.example", "http://localhost:3000"]
        );
        let err = s
            .apply_env(|k| (k == "TURNPOST_CORS_ORIGINS").then(|| "https://ok.test,*".into()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("TURNPOST_CORS_ORIGINS"), "{err}");
        let file: FileSettings =
            toml::from_str(r#"cors_origins = ["https://a.test", "https://b.test:8443"]"#).unwrap();
        let mut s = Settings::default();
        s.apply_file(file).unwrap();
        assert_eq!(s.cors_origins, ["https://a.test", "https://b.test:8443"]);
        let file: FileSettings = toml::from_str(r#"cors_origins = "https://a.test/x""#).unwrap();
        assert!(Settings::default().apply_file(file).is_err());
    }

    /// Issue 20: "a minimum secret length".
    #[test]
    fn a_short_jwt_secret_is_refused_with_how_to_make_one() {
        let mut s = Settings {
            jwt_secret: Some("x".repeat(MIN_SECRET_BYTES - 1)),
            ..Settings::default()
        };
        let err = s.jwt_key().unwrap_err().to_string();
        assert!(
            err.contains("TURNPOST_JWT_SECRET") && err.contains("openssl rand"),
            "{err}"
        );
        s.jwt_secret = Some("x".repeat(MIN_SECRET_BYTES));
        assert_eq!(s.jwt_key().unwrap().len(), MIN_SECRET_BYTES);
    }

    #[test]
    fn debug_logs_leave_out_the_drivers_that_log_what_they_send() {
        let shown = |s: Option<&str>| log_filter(s).to_string();
        let debug = shown(Some("debug"));
        assert!(
            debug.contains("tokio_postgres=info") && debug.contains("lettre=info"),
            "{debug}"
        );
        let trace = shown(Some("turnpost=trace,info"));
        assert!(trace.contains("lettre=info"), "{trace}");
        // Named on purpose: as asked.
        let asked = shown(Some("debug,lettre=trace"));
        assert!(
            asked.contains("lettre=trace") && !asked.contains("lettre=info"),
            "{asked}"
        );
        // Nothing at debug: nothing added (a `warn` filter stays quiet).
        assert!(!shown(Some("warn")).contains("lettre"));
        assert!(shown(None).contains("actix_server=warn"));
    }

    #[test]
    fn debug_output_hides_secrets() {
        let s = Settings {
            jwt_secret: Some("hunter2-very-secret".into()),
            database_url: Some("postgres://app:pa55word@db:5432/turnpost".into()),
            ..Settings::default()
        };
        let shown = format!("{s:?}");
        assert!(!shown.contains("hunter2"));
        assert!(!shown.contains("pa55word"));
        assert!(shown.contains("postgres://app@db:5432/turnpost"));
    }
}
