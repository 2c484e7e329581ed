//! Builds the application: database (given or private cluster), migrations, services, the
//! HTTP server. `Application::build(settings)` binds (port 0 in tests) and exposes `port()`.

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::Server;
use actix_web::{App, HttpServer, web};
use anyhow::Context;
use tokio::sync::watch;
use utoipa_actix_web::AppExt;

use crate::auth::Jwt;
use crate::auth::reply::ReplySigner;
use crate::config::{Settings, redact_url};
use crate::http;
use crate::notify::inbound::{Envelope, Handler, Limits};
use crate::notify::transport::Transport;
use crate::notify::webhooks::HookWorker;
use crate::notify::worker::Worker;
use crate::pg::{self, Cluster};
use crate::rules::Registry;
use crate::service::Services;
use crate::service::inbound::InboundConfig;
use crate::service::mail::{GameMail, MailConfig};
use crate::store;

/// How long an idle kept-alive HTTP connection stays open (see [`server`]).
pub const KEEP_ALIVE: std::time::Duration = std::time::Duration::from_secs(75);

/// Where the database comes from.
pub enum Database {
    /// `DATABASE_URL`.
    External(String),
    /// A private cluster under the data dir, stopped on shutdown by the process that owns it
    /// (see `pg`).
    Private(Cluster),
}

/// What the process that opens the database does with a private cluster.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Role {
    /// `serve` and `worker`: run for long, take over a cluster whose owner has died, and
    /// restart the cluster when it dies.
    Service,
    /// `migrate` and `replay`: attach to a running cluster and leave it running.
    Command,
}

impl Database {
    /// The configured database, or the private cluster under `<data-dir>/pg`: attached to if
    /// another process runs it, started otherwise.
    pub fn open(settings: &Settings, role: Role) -> anyhow::Result<Database> {
        match &settings.database_url {
            Some(url) => Ok(Database::External(url.clone())),
            None => {
                let dir = settings.data_dir.join("pg");
                let context = || {
                    format!(
                        "starting the private PostgreSQL cluster in {}",
                        dir.display()
                    )
                };
                let cluster = match role {
                    Role::Service => {
                        let mut cluster = Cluster::start(&dir).with_context(context)?;
                        cluster.watch(pg::WATCH_INTERVAL).with_context(context)?;
                        cluster
                    }
                    Role::Command => Cluster::attach_or_start(&dir).with_context(context)?,
                };
                Ok(Database::Private(cluster))
            }
        }
    }

    pub fn url(&self) -> String {
        match self {
            Database::External(url) => url.clone(),
            Database::Private(cluster) => cluster.url("postgres"),
        }
    }

    /// Lets go of a private cluster: stops it if this process owns it and nobody else uses it
    /// (nothing to do for an external database).
    pub fn close(&mut self) {
        if let Database::Private(cluster) = self
            && let Err(e) = cluster.stop()
        {
            tracing::warn!(error = %e, "stopping the private PostgreSQL cluster");
        }
    }
}

/// The services over a database: pool, migrations, rules, token keys.
pub async fn services(settings: &Settings, database_url: &str) -> anyhow::Result<Services> {
    if settings.migrate {
        store::migrate(database_url).await?;
    }
    let statement_timeout = (settings.db_statement_timeout_secs > 0)
        .then(|| std::time::Duration::from_secs(settings.db_statement_timeout_secs));
    let pool = store::pool_with(database_url, settings.db_pool_size, statement_timeout)?;
    std::fs::create_dir_all(&settings.data_dir)
        .with_context(|| format!("creating {}", settings.data_dir.display()))?;
    let key = settings.jwt_key()?;
    let reply_to = settings.reply_address();
    let local = reply_to.rsplit_once('@').map_or("", |(l, _)| l);
    anyhow::ensure!(
        !local.is_empty() && local.len() <= crate::auth::reply::MAX_LOCAL && !local.contains('+'),
        "the reply address {reply_to:?} (TURNPOST_REPLY_ADDRESS, or the From address) needs a \
         local part of 1 to {} characters without '+': the signed token of each turn mail \
         goes after a '+' in it, within the 64 characters an address may have",
        crate::auth::reply::MAX_LOCAL
    );
    Ok(Services {
        rules: Arc::new(Registry::standard()),
        jwt: Jwt::new(&key, settings.jwt_ttl_secs),
        replies: ReplySigner::new(&key),
        mail: MailConfig {
            base_url: settings.base_url(),
            from: settings.mail.from.clone(),
            link_ttl_secs: settings.mail.link_ttl_secs,
            reply_to,
        },
        inbound: InboundConfig {
            secret: settings.inbound.secret.clone(),
            max_bytes: settings.inbound.max_bytes,
            relay: crate::service::sender::RelayTrust {
                id: settings.inbound.relay_id.clone(),
                addrs: settings.inbound.relay_addrs.clone(),
                keys: crate::service::sender::KnownKeys::new(&settings.inbound.dkim_keys)?,
            },
        },
        clock: settings.clock.clone(),
        limits: Arc::new(crate::service::limits::Limits::new(&settings.limits)),
        db_wait: std::time::Duration::from_secs(settings.db_wait_secs.max(1)),
        streams: crate::service::stream_slots::StreamSlots::new(
            &settings.limits,
            crate::fdlimit::open_files_limit(),
        ),
        versions: Arc::default(),
        hot: Arc::new(crate::service::hot::HotGames::new(settings.hot_games)),
        announcer: crate::service::announce::Announcer::start(pool.clone()),
        webhooks: crate::service::webhooks::WebhookConfig {
            key: settings.webhooks.key_or(&key).into(),
            allow_private: settings.webhooks.allow_private,
            own_host: settings
                .public_url
                .as_deref()
                .and_then(|u| reqwest::Url::parse(u).ok())
                .and_then(|u| u.host_str().map(str::to_owned)),
        },
        pool,
    })
}

pub struct Application {
    port: u16,
    server: Server,
    worker: Option<Worker>,
    hooks: Option<HookWorker>,
    /// The deadline worker's services and poll interval, when it runs in this process.
    deadlines: Option<(Services, u64)>,
    inbound: Option<(tokio::net::TcpListener, Handler, Limits)>,
    inbound_port: Option<u16>,
    /// For the start-up check of old snapshots.
    services: Services,
}

/// How long a stopping server waits for the requests in flight (event streams end at once):
/// within Docker's 10 s, with time left to stop the private PostgreSQL cluster.
const SHUTDOWN_TIMEOUT_SECS: u64 = 4;

/// The outbox worker for these settings and services.
pub fn mail_worker(settings: &Settings, services: &Services) -> anyhow::Result<Worker> {
    let transport =
        Transport::from_settings(settings.mail.smtp_url.as_deref(), &settings.data_dir)?;
    Ok(Worker::new(
        services.pool.clone(),
        Arc::new(transport),
        settings.mail.clone(),
    )
    .with_composer(Arc::new(GameMail(services.clone()))))
}

/// The webhook delivery worker for these settings and services.
pub fn webhook_worker(settings: &Settings, services: &Services) -> anyhow::Result<HookWorker> {
    HookWorker::new(
        services.pool.clone(),
        settings.webhooks.clone(),
        services.webhooks.key.clone(),
        services.webhooks.own_host.clone(),
    )
}

impl Application {
    /// Binds `settings.addr` and builds the server over `database_url`.
    pub async fn build(settings: &Settings, database_url: &str) -> anyhow::Result<Application> {
        let services = services(settings, database_url).await?;
        let worker = if settings.mail.worker_in_serve {
            Some(mail_worker(settings, &services)?)
        } else {
            None
        };
        let hooks = if settings.webhooks.worker_in_serve {
            Some(webhook_worker(settings, &services)?)
        } else {
            None
        };
        let listener = TcpListener::bind(settings.addr)
            .with_context(|| format!("binding {}", settings.addr))?;
        let port = listener.local_addr()?.port();
        tracing::info!(addr = %listener.local_addr()?, database = %redact_url(database_url), "serving");
        let inbound = match settings.inbound.smtp_addr {
            Some(addr) => {
                let listener = tokio::net::TcpListener::bind(addr)
                    .await
                    .with_context(|| format!("binding the inbound SMTP listener on {addr}"))?;
                tracing::info!(addr = %listener.local_addr()?, "inbound SMTP listening");
                Some((
                    listener,
                    inbound_handler(&services),
                    inbound_limits(settings),
                ))
            }
            None => None,
        };
        let inbound_port = match &inbound {
            Some((l, _, _)) => Some(l.local_addr()?.port()),
            None => None,
        };
        let live = crate::web::live::Live::start(database_url.to_owned());
        let deadlines =
            (settings.clock_poll_ms > 0).then(|| (services.clone(), settings.clock_poll_ms));
        let streams = http::streams::StreamConfig {
            heartbeat: std::time::Duration::from_secs(settings.stream_heartbeat_secs.max(1)),
        };
        let upgrade = services.clone();
        let server = server(
            listener,
            services,
            live,
            streams,
            settings.body_limit,
            (
                std::time::Duration::from_secs(settings.body_timeout_secs.max(1)),
                (settings.request_timeout_secs > 0)
                    .then(|| std::time::Duration::from_secs(settings.request_timeout_secs)),
            ),
            settings.cors_origins.clone(),
        )?;
        Ok(Application {
            port,
            server,
            worker,
            hooks,
            deadlines,
            inbound,
            inbound_port,
            services: upgrade,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The port of the inbound SMTP listener, when it runs.
    pub fn inbound_port(&self) -> Option<u16> {
        self.inbound_port
    }

    /// Serves until Ctrl-C or SIGTERM, with the mail and webhook workers beside it. On a signal the worker
    /// finishes its batch first, while the HTTP workers (whose runtimes drive the pooled
    /// connections) are still up; then the server stops gracefully.
    pub async fn run(self) -> std::io::Result<()> {
        let (stop, stopped) = watch::channel(false);
        let inbound = self.inbound.map(|(listener, handler, limits)| {
            tokio::spawn(crate::notify::inbound::serve(
                listener,
                handler,
                limits,
                stopped.clone(),
            ))
        });
        let deadlines = self.deadlines.map(|(svc, poll_ms)| {
            tokio::spawn(crate::service::clock::run(svc, poll_ms, stopped.clone()))
        });
        // Snapshots an older Turnpost wrote and this one cannot load are refolded from their
        // logs, beside serving (see `service::upgrade`).
        let upgrade = self.services;
        let upgrade_streams = upgrade.streams.clone();
        tokio::spawn(async move {
            match crate::service::upgrade::refresh_stale_snapshots(&upgrade).await {
                Ok(r) if !r.refolded.is_empty() || !r.failed.is_empty() => tracing::warn!(
                    checked = r.checked,
                    refolded = r.refolded.len(),
                    failed = r.failed.len(),
                    "snapshots from an older Turnpost"
                ),
                Ok(_) => {}
                Err(e) => tracing::error!(error = %e, "checking the snapshots"),
            }
        });
        let hooks = self.hooks.map(|w| tokio::spawn(w.run(stopped.clone())));
        let worker = self.worker.map(|w| tokio::spawn(w.run(stopped)));
        let streams = upgrade_streams;
        let handle = self.server.handle();
        let mut server = std::pin::pin!(self.server);
        let served = tokio::select! {
            served = &mut server => Some(served),
            () = shutdown_signal() => None,
        };
        // Open event streams end now (each tells its client to reconnect), so that the
        // graceful stop below does not wait for them.
        streams.close();
        let _ = stop.send(true);
        if let Some(inbound) = inbound {
            let _ = inbound.await;
        }
        if let Some(worker) = worker {
            let _ = worker.await;
        }
        if let Some(hooks) = hooks {
            let _ = hooks.await;
        }
        if let Some(deadlines) = deadlines {
            let _ = deadlines.await;
        }
        match served {
            Some(served) => served,
            None => {
                // The server future carries out the stop, so it is polled alongside.
                let ((), served) = tokio::join!(handle.stop(true), server);
                served
            }
        }
    }
}

/// Inbound SMTP hands each message to the inbound use case.
fn inbound_handler(services: &Services) -> Handler {
    let services = services.clone();
    Arc::new(move |envelope: Envelope| {
        let services = services.clone();
        Box::pin(async move {
            crate::service::inbound::receive(
                &services,
                &envelope.data,
                crate::service::sender::Arrival::Smtp {
                    from: &envelope.from,
                    peer: envelope.peer,
                },
                &envelope.to,
            )
            .await
            .map(|_| ())
            .map_err(anyhow::Error::from)
        })
    })
}

fn inbound_limits(settings: &Settings) -> Limits {
    let reply = settings.reply_address();
    Limits {
        max_bytes: settings.inbound.max_bytes,
        domain: reply
            .rsplit_once('@')
            .map(|(_, d)| d.to_owned())
            .unwrap_or_default(),
        idle: std::time::Duration::from_secs(120),
        connections: 64,
    }
}

/// Ctrl-C, or SIGTERM where there are Unix signals.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

fn server(
    listener: TcpListener,
    services: Services,
    live: crate::web::live::Live,
    streams: http::streams::StreamConfig,
    body_limit: usize,
    (body_timeout, request_timeout): (std::time::Duration, Option<std::time::Duration>),
    cors_origins: Vec<String>,
) -> anyhow::Result<Server> {
    let data = web::Data::new(services);
    let live = web::Data::new(live);
    let server = HttpServer::new(move || {
        let (app, api) = http::routes(
            App::new()
                .wrap(actix_web::middleware::from_fn(crate::web::sign_in_links))
                .wrap(actix_web::middleware::from_fn(crate::web::html_policy))
                .wrap(actix_web::middleware::from_fn(
                    http::deadline::body_deadline,
                ))
                .app_data(web::Data::new(http::deadline::BodyTimeout(body_timeout)))
                .wrap(actix_web::middleware::from_fn(
                    http::deadline::request_deadline,
                ))
                .app_data(web::Data::new(http::deadline::RequestTimeout(
                    request_timeout,
                )))
                // CORS for the configured origins only (none: not there at all); inside the
                // problem handlers, so a refused preflight is a problem like any other error.
                .wrap(actix_web::middleware::Condition::new(
                    !cors_origins.is_empty(),
                    http::cors::middleware(&cors_origins),
                ))
                .wrap(http::problem_errors())
                // On every response unless it says otherwise (the request deadline's 503, an
                // error that no middleware sees as a response, adds them itself).
                .wrap(http::SECURITY_HEADERS.iter().fold(
                    actix_web::middleware::DefaultHeaders::new(),
                    |headers, (name, value)| headers.add((name.clone(), *value)),
                ))
                // The path only: query strings carry sign-in and unsubscribe tokens.
                .wrap(
                    actix_web::middleware::Logger::new("%{method}xi %U %s %Dms")
                        .custom_request_replace("method", |req| req.method().to_string())
                        .log_target("turnpost::http"),
                )
                .app_data(data.clone())
                .app_data(live.clone())
                .app_data(web::Data::new(streams))
                .app_data(http::json_config(body_limit))
                .app_data(http::path_config())
                .app_data(http::query_config())
                .app_data(web::PayloadConfig::new(body_limit))
                .into_utoipa_app()
                .openapi(http::api_doc()),
        )
        .split_for_parts();
        app.service(http::swagger_ui(api))
            .route("/docs", web::get().to(http::docs_redirect))
            .configure(crate::web::routes)
            .default_service(web::to(http::methods::no_route))
    })
    // The head of a request within the deadline too (a connection that never finishes its
    // headers is answered 408 and closed).
    .client_request_timeout(body_timeout)
    // An idle kept-alive connection is closed after this long. Longer than actix's 5 s
    // default: a client that reuses a connection just as the server closes it gets a broken
    // request (hyper's `IncompleteMessage`), and most client pools keep connections for a
    // minute or more (reqwest and Go 90 s), so the server should rarely be the first to close.
    .keep_alive(KEEP_ALIVE)
    .shutdown_timeout(SHUTDOWN_TIMEOUT_SECS)
    .listen(listener)?
    // `Application::run` handles the signals, to stop the mail worker first.
    .disable_signals()
    .run();
    Ok(server)
}
