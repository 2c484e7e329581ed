//! Webhooks (issue 19): where deliveries may go, how they are retried, and the key their
//! signing secrets are derived from (`[webhooks]` in `turnpost.toml`, `TURNPOST_WEBHOOK_*` in
//! the environment).

use std::fmt;

use serde::Deserialize;

/// The shortest webhook key accepted (the JWT secret's minimum).
const MIN_KEY_BYTES: usize = super::MIN_SECRET_BYTES;

#[derive(Clone, PartialEq, Eq)]
pub struct WebhookSettings {
    /// The key every hook's signing secret is derived from (`TURNPOST_WEBHOOK_KEY`, at least
    /// 32 bytes). Unset: derived from the JWT key, so nothing more to keep; but then a new JWT
    /// secret changes every hook's secret too.
    pub key: Option<String>,
    /// Deliver to loopback, private, link-local and other non-public addresses, and to the
    /// service's own host (`TURNPOST_WEBHOOK_ALLOW_PRIVATE`, default false). For tests and for
    /// receivers on a private network the operator trusts.
    pub allow_private: bool,
    /// Run the delivery worker inside `serve` (`TURNPOST_WEBHOOK_WORKER`, default true).
    pub worker_in_serve: bool,
    /// Attempts before a delivery is given up (`TURNPOST_WEBHOOK_MAX_ATTEMPTS`).
    pub max_attempts: i32,
    /// First retry delay; doubles per attempt, with jitter (`TURNPOST_WEBHOOK_RETRY_BASE_MS`).
    pub retry_base_ms: u64,
    /// Longest retry delay (`TURNPOST_WEBHOOK_RETRY_MAX_SECS`).
    pub retry_max_secs: u64,
    /// How long one attempt may take, connection included (`TURNPOST_WEBHOOK_TIMEOUT_SECS`).
    pub timeout_secs: u64,
    /// How often an idle worker looks for due deliveries (`TURNPOST_WEBHOOK_POLL_MS`).
    pub poll_ms: u64,
    /// Deliveries claimed at once.
    pub batch: i64,
}

impl Default for WebhookSettings {
    fn default() -> Self {
        WebhookSettings {
            key: None,
            allow_private: false,
            worker_in_serve: true,
            // 5 s, 10 s, 20 s … capped at an hour: ten attempts span about four hours.
            max_attempts: 10,
            retry_base_ms: 5_000,
            retry_max_secs: 3_600,
            timeout_secs: 10,
            poll_ms: 1_000,
            batch: 20,
        }
    }
}

impl fmt::Debug for WebhookSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WebhookSettings")
            .field("key", &self.key.as_ref().map(|_| "<hidden>"))
            .field("allow_private", &self.allow_private)
            .field("worker_in_serve", &self.worker_in_serve)
            .field("max_attempts", &self.max_attempts)
            .field("retry_base_ms", &self.retry_base_ms)
            .field("retry_max_secs", &self.retry_max_secs)
            .field("timeout_secs", &self.timeout_secs)
            .field("poll_ms", &self.poll_ms)
            .finish()
    }
}

/// `[webhooks]` in `turnpost.toml`: every key optional, the names of [`WebhookSettings`]'
/// fields.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileWebhooks {
    key: Option<String>,
    allow_private: Option<bool>,
    worker: Option<bool>,
    max_attempts: Option<i32>,
    retry_base_ms: Option<u64>,
    retry_max_secs: Option<u64>,
    timeout_secs: Option<u64>,
    poll_ms: Option<u64>,
}

fn parse<T: std::str::FromStr>(name: &str, v: &str) -> anyhow::Result<T>
where
    T::Err: fmt::Display,
{
    v.parse::<T>()
        .map_err(|e| anyhow::anyhow!("{name}={v:?} is not valid: {e}"))
}

impl WebhookSettings {
    pub(super) fn apply_file(&mut self, f: FileWebhooks) {
        if f.key.is_some() {
            self.key = f.key;
        }
        if let Some(v) = f.allow_private {
            self.allow_private = v;
        }
        if let Some(v) = f.worker {
            self.worker_in_serve = v;
        }
        if let Some(v) = f.max_attempts {
            self.max_attempts = v;
        }
        if let Some(v) = f.retry_base_ms {
            self.retry_base_ms = v;
        }
        if let Some(v) = f.retry_max_secs {
            self.retry_max_secs = v;
        }
        if let Some(v) = f.timeout_secs {
            self.timeout_secs = v;
        }
        if let Some(v) = f.poll_ms {
            self.poll_ms = v;
        }
    }

    pub(super) fn apply_env(&mut self, var: impl Fn(&str) -> Option<String>) -> anyhow::Result<()> {
        if let Some(v) = var("TURNPOST_WEBHOOK_KEY").filter(|v| !v.is_empty()) {
            self.key = Some(v);
        }
        if let Some(v) = var("TURNPOST_WEBHOOK_ALLOW_PRIVATE") {
            self.allow_private = parse("TURNPOST_WEBHOOK_ALLOW_PRIVATE", &v)?;
        }
        if let Some(v) = var("TURNPOST_WEBHOOK_WORKER") {
            self.worker_in_serve = parse("TURNPOST_WEBHOOK_WORKER", &v)?;
        }
        if let Some(v) = var("TURNPOST_WEBHOOK_MAX_ATTEMPTS") {
            self.max_attempts = parse("TURNPOST_WEBHOOK_MAX_ATTEMPTS", &v)?;
        }
        if let Some(v) = var("TURNPOST_WEBHOOK_RETRY_BASE_MS") {
            self.retry_base_ms = parse("TURNPOST_WEBHOOK_RETRY_BASE_MS", &v)?;
        }
        if let Some(v) = var("TURNPOST_WEBHOOK_RETRY_MAX_SECS") {
            self.retry_max_secs = parse("TURNPOST_WEBHOOK_RETRY_MAX_SECS", &v)?;
        }
        if let Some(v) = var("TURNPOST_WEBHOOK_TIMEOUT_SECS") {
            self.timeout_secs = parse("TURNPOST_WEBHOOK_TIMEOUT_SECS", &v)?;
        }
        if let Some(v) = var("TURNPOST_WEBHOOK_POLL_MS") {
            self.poll_ms = parse("TURNPOST_WEBHOOK_POLL_MS", &v)?;
        }
        self.check()
    }

    /// Refuses settings that cannot work.
    pub(super) fn check(&self) -> anyhow::Result<()> {
        if let Some(key) = &self.key {
            anyhow::ensure!(
                key.len() >= MIN_KEY_BYTES,
                "TURNPOST_WEBHOOK_KEY (webhooks.key) has {} bytes; at least {MIN_KEY_BYTES} are \
                 needed, for example `openssl rand -hex 32` (or leave it unset to derive it \
                 from the JWT key)",
                key.len()
            );
        }
        anyhow::ensure!(
            (1..=100).contains(&self.max_attempts),
            "TURNPOST_WEBHOOK_MAX_ATTEMPTS (webhooks.max_attempts) is {}; 1 to 100",
            self.max_attempts
        );
        anyhow::ensure!(
            (1..=300).contains(&self.timeout_secs),
            "TURNPOST_WEBHOOK_TIMEOUT_SECS (webhooks.timeout_secs) is {}; 1 to 300",
            self.timeout_secs
        );
        Ok(())
    }

    /// The key hook secrets are derived from: the configured one, or one derived from the
    /// JWT key.
    pub fn key_or(&self, jwt_key: &[u8]) -> Vec<u8> {
        match &self.key {
            Some(key) => key.as_bytes().to_vec(),
            None => crate::auth::webhooks::derive_key(jwt_key).to_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_sets_webhooks_and_refuses_a_short_key() {
        let mut w = WebhookSettings::default();
        w.apply_env(|k| match k {
            "TURNPOST_WEBHOOK_ALLOW_PRIVATE" => Some("true".into()),
            "TURNPOST_WEBHOOK_RETRY_BASE_MS" => Some("50".into()),
            _ => None,
        })
        .unwrap();
        assert!(w.allow_private);
        assert_eq!(w.retry_base_ms, 50);
        assert_eq!(w.max_attempts, WebhookSettings::default().max_attempts);

        let err = WebhookSettings::default()
            .apply_env(|k| (k == "TURNPOST_WEBHOOK_KEY").then(|| "short".into()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("TURNPOST_WEBHOOK_KEY"), "{err}");
        let err = WebhookSettings::default()
            .apply_env(|k| (k == "TURNPOST_WEBHOOK_ALLOW_PRIVATE").then(|| "maybe".into()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("TURNPOST_WEBHOOK_ALLOW_PRIVATE"), "{err}");
        // The key never shows in debug output.
        let w = WebhookSettings {
            key: Some("k".repeat(40)),
            ..WebhookSettings::default()
        };
        assert!(!format!("{w:?}").contains("kkkk"));
    }
}
