//! The webhook delivery worker. It runs inside `turnpost serve` (unless
//! `TURNPOST_WEBHOOK_WORKER=false`) and in `turnpost worker`; any number may run against one
//! database (see `store::webhooks`).
//!
//! Each delivery is a `POST` of the event's JSON with the headers `Turnpost-Signature`
//! (`auth::webhooks`), `Turnpost-Event-Id` (the same in every attempt: receivers drop
//! repeats by it) and `Turnpost-Event`. A 2xx answer delivers it; anything else (another
//! status, a refused connection, a timeout, an address the guard refuses) is tried again after
//! an exponential backoff, until the attempts run out and it is given up. Redirects are not
//! followed (a 3xx is a failure), no proxy is used, and every connection goes only to addresses
//! the guard allows, checked after resolving the name (`webhook_urls::forbidden`).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use tokio::sync::watch;

use super::webhook_urls::{allowed, check_url};
use crate::auth::webhooks::{SIGNATURE_HEADER, secret, signature};
use crate::config::WebhookSettings;
use crate::store::webhooks::{Claimed, Outcome};
use crate::store::{self, Pool};

/// The headers that name the event.
pub const EVENT_ID_HEADER: &str = "Turnpost-Event-Id";
pub const EVENT_HEADER: &str = "Turnpost-Event";

/// How long a worker owns the deliveries it claimed: a batch is attempted at once, so well
/// over one timeout (a worker that dies leaves its batch to be claimed again after this).
fn lease_secs(settings: &WebhookSettings) -> f64 {
    settings.timeout_secs as f64 * 2.0 + 30.0
}

/// What one round did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    Worked {
        delivered: usize,
        retried: usize,
        given_up: usize,
    },
    Empty,
}

#[derive(Clone)]
pub struct HookWorker {
    pool: Pool,
    settings: WebhookSettings,
    key: Arc<[u8]>,
    own_host: Option<String>,
    client: reqwest::Client,
}

/// Resolves names for deliveries, refusing any name with an address the guard does not allow
/// (unless non-public addresses are allowed): the connection uses only what it returns, so
/// the check and the connection cannot disagree.
struct GuardedResolver {
    allow_private: bool,
}

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let allow_private = self.allow_private;
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let addrs = allowed(&host, addrs, allow_private)?;
            let addrs: reqwest::dns::Addrs = Box::new(addrs.into_iter());
            Ok(addrs)
        })
    }
}

impl HookWorker {
    pub fn new(
        pool: Pool,
        settings: WebhookSettings,
        key: Arc<[u8]>,
        own_host: Option<String>,
    ) -> anyhow::Result<Self> {
        let client = reqwest::Client::builder()
            .user_agent(concat!("Turnpost-Webhooks/", env!("CARGO_PKG_VERSION")))
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .timeout(Duration::from_secs(settings.timeout_secs))
            .connect_timeout(Duration::from_secs(settings.timeout_secs.min(5)))
            .pool_idle_timeout(Duration::from_secs(30))
            .dns_resolver(GuardedResolver {
                allow_private: settings.allow_private,
            })
            .build()?;
        Ok(HookWorker {
            pool,
            settings,
            key,
            own_host,
            client,
        })
    }

    /// Claims one batch of due deliveries and attempts each.
    pub async fn run_once(&self) -> anyhow::Result<Round> {
        let rows = {
            let mut conn = self.pool.get().await?;
            store::webhooks::claim(&mut conn, self.settings.batch, lease_secs(&self.settings))
                .await?
        };
        if rows.is_empty() {
            return Ok(Round::Empty);
        }
        let (mut delivered, mut retried, mut given_up) = (0, 0, 0);
        // Concurrently: one slow receiver does not hold up the others' deliveries.
        let outcomes =
            futures_util::future::join_all(rows.iter().map(|row| self.attempt(row))).await;
        for (row, outcome) in rows.iter().zip(outcomes) {
            match &outcome {
                Outcome::Delivered(_) => delivered += 1,
                Outcome::Retry {
                    status,
                    error,
                    retry_in_secs,
                } => {
                    retried += 1;
                    tracing::warn!(hook = %row.webhook_id, delivery = row.id, attempts = row.attempts, ?status, %error, retry_in_secs, "webhook not delivered; will retry");
                }
                Outcome::GiveUp { status, error } => {
                    given_up += 1;
                    tracing::error!(hook = %row.webhook_id, delivery = row.id, attempts = row.attempts, ?status, %error, "webhook delivery given up");
                }
                Outcome::Dropped(_) => {}
            }
            let mut conn = self.pool.get().await?;
            if !store::webhooks::finish(&mut conn, row.id, row.lease_until, &outcome).await? {
                tracing::warn!(delivery = row.id, "lease on a webhook delivery was lost");
            }
        }
        Ok(Round::Worked {
            delivered,
            retried,
            given_up,
        })
    }

    /// One attempt at a claimed delivery.
    async fn attempt(&self, row: &Claimed) -> Outcome {
        if row.revoked {
            return Outcome::Dropped("the API token that registered the hook was revoked".into());
        }
        let failed = |status: Option<u16>, error: String| {
            let status = status.map(i32::from);
            if row.attempts >= self.settings.max_attempts {
                Outcome::GiveUp { status, error }
            } else {
                Outcome::Retry {
                    status,
                    error,
                    retry_in_secs: backoff(&self.settings, row.attempts, row.id),
                }
            }
        };
        // The address literals and the names refused by form; names are checked again by
        // the resolver, on the addresses the connection uses.
        let url = match check_url(
            &row.url,
            self.settings.allow_private,
            self.own_host.as_deref(),
        ) {
            Ok(url) => url,
            Err(why) => return failed(None, why),
        };
        let body = match serde_json::to_vec(&row.payload) {
            Ok(body) => body,
            Err(e) => return failed(None, format!("unreadable payload: {e}")),
        };
        let secret = secret(&self.key, row.webhook_id, &row.secret_salt);
        let signed = signature(&secret, Utc::now().timestamp(), &body);
        let sent = self
            .client
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(SIGNATURE_HEADER, signed)
            .header(EVENT_ID_HEADER, row.event_id.to_string())
            .header(EVENT_HEADER, row.event.as_str())
            .body(body)
            .send()
            .await;
        match sent {
            Ok(answer) if answer.status().is_success() => {
                Outcome::Delivered(i32::from(answer.status().as_u16()))
            }
            Ok(answer) => {
                let status = answer.status();
                failed(Some(status.as_u16()), format!("answered {status}"))
            }
            // Without the URL: a hook's URL may carry a token of the receiver's.
            Err(e) => failed(e.status().map(|s| s.as_u16()), chain(&e.without_url())),
        }
    }

    /// Works until `stop` turns true, sleeping `poll_ms` whenever nothing is due.
    pub async fn run(self, stop: watch::Receiver<bool>) {
        tracing::info!(
            allow_private = self.settings.allow_private,
            "webhook worker started"
        );
        let poll_ms = self.settings.poll_ms;
        super::poll_rounds("webhook", poll_ms, stop, || async {
            Ok(matches!(self.run_once().await?, Round::Worked { .. }))
        })
        .await;
    }
}

/// Seconds until the next attempt ([`super::retry_delay`]).
fn backoff(settings: &WebhookSettings, attempts: i32, id: i64) -> f64 {
    super::retry_delay(
        settings.retry_base_ms as f64,
        settings.retry_max_secs as f64,
        attempts,
        id,
    )
}

/// An error with its causes, on one line (reqwest's own text leaves out why).
fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        cause = c.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use reqwest::dns::Resolve;

    use super::*;

    /// The check after resolution: a name (here `localhost`, which every machine resolves to
    /// a loopback address) is refused by the resolver the connections use, whatever passed at
    /// registration.
    #[tokio::test]
    async fn the_delivery_resolver_refuses_names_of_non_public_addresses() {
        let guarded = GuardedResolver {
            allow_private: false,
        };
        let err = match guarded.resolve("localhost".parse().unwrap()).await {
            Ok(addrs) => panic!("resolved to {:?}", addrs.collect::<Vec<_>>()),
            Err(e) => e.to_string(),
        };
        assert!(err.contains("loopback"), "{err}");
        let open = GuardedResolver {
            allow_private: true,
        };
        let addrs: Vec<SocketAddr> = open
            .resolve("localhost".parse().unwrap())
            .await
            .unwrap()
            .collect();
        assert!(addrs.iter().all(|a| a.ip().is_loopback()), "{addrs:?}");
    }

    #[test]
    fn retries_back_off_exponentially_up_to_the_cap() {
        let settings = WebhookSettings {
            retry_base_ms: 1_000,
            retry_max_secs: 10,
            ..WebhookSettings::default()
        };
        for (attempts, base) in [
            (1, 1.0),
            (2, 2.0),
            (3, 4.0),
            (4, 8.0),
            (5, 10.0),
            (20, 10.0),
        ] {
            for id in 0..50 {
                let d = backoff(&settings, attempts, id);
                assert!(d >= base * 0.5 && d < base * 1.5, "{attempts}: {d}");
            }
        }
    }
}
