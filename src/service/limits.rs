//! Rate limits of login and registration, kept in this process's memory (governor's GCRA
//! buckets, one per key). Each server process limits on its own: with N processes behind a
//! balancer a client gets up to N times the rate, which still stops a guessing loop. The
//! per-day caps on mail (invitations, verification mails) are counted in PostgreSQL instead,
//! by the use cases that send it ([`super::invitations`], [`super::users`]).

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use chrono::{DateTime, Utc};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::{Result, ServiceError};
use crate::config::LimitSettings;

/// Keys remembered by one limiter before the idle ones are forgotten (a key whose bucket is
/// full again is the same as a key never seen).
const FORGET_ABOVE: usize = 10_000;

/// One keyed limit: `count` events per `per`, up to `count` at once; off when `count` is 0.
struct Limit<K: std::hash::Hash + Eq + Clone> {
    limiter: Option<DefaultKeyedRateLimiter<K>>,
}

impl<K: std::hash::Hash + Eq + Clone> Limit<K> {
    fn new(count: u32, per: Duration) -> Self {
        let limiter = NonZeroU32::new(count).and_then(|n| {
            Quota::with_period(per / n.get()).map(|q| RateLimiter::keyed(q.allow_burst(n)))
        });
        Limit { limiter }
    }

    /// `Ok` and one event counted, or the whole seconds until the next one is allowed.
    fn check(&self, key: &K) -> std::result::Result<(), i64> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        if limiter.len() > FORGET_ABOVE {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        limiter.check_key(key).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            i64::try_from(wait.as_millis().div_ceil(1000))
                .unwrap_or(i64::MAX)
                .max(1)
        })
    }
}

/// Who is asking, as far as rate limits go: an IPv4 address, or the /64 network of an IPv6
/// one (one subscriber usually holds a whole /64).
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    pub fn new(ip: IpAddr) -> Self {
        let ip = match ip {
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpAddr::V4(v4),
                None => {
                    let bits = u128::from(v6) & !((1u128 << 64) - 1);
                    IpAddr::V6(bits.into())
                }
            },
            v4 => v4,
        };
        ClientKey(ip)
    }
}

/// The limits of one server: its settings (the per-day caps and the password policy, which
/// the use cases apply) and the in-process rate limits.
pub struct Limits {
    pub settings: LimitSettings,
    login_per_ip: Limit<ClientKey>,
    login_per_account: Limit<String>,
    register_per_ip: Limit<ClientKey>,
    submissions: Limit<Submitter>,
}

/// Who submits, as far as the submission limit goes: an API token on its own (each bot its
/// own budget), or an account with all its sessions (a person's browser tabs and mail).
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Submitter {
    Token(uuid::Uuid),
    Account(uuid::Uuid),
}

impl Limits {
    pub fn new(settings: &LimitSettings) -> Self {
        const MINUTE: Duration = Duration::from_secs(60);
        Limits {
            settings: settings.clone(),
            login_per_ip: Limit::new(settings.login_per_ip_per_min, MINUTE),
            login_per_account: Limit::new(settings.login_per_account_per_min, MINUTE),
            register_per_ip: Limit::new(settings.register_per_ip_per_hour, MINUTE * 60),
            submissions: Limit::new(settings.submissions_per_token_per_min, MINUTE),
        }
    }

    /// One login attempt from `client` (when known) for the account `email` (as typed; the
    /// key is the same whether or not such an account exists, so a refusal tells nothing).
    pub fn login(&self, client: Option<ClientKey>, email: &str) -> Result<()> {
        if let Some(client) = client {
            self.login_per_ip.check(&client).map_err(|secs| {
                limited(
                    secs,
                    format!("too many login attempts from your address; try again in {secs} s"),
                )
            })?;
        }
        let account = email.trim().to_lowercase();
        self.login_per_account.check(&account).map_err(|secs| {
            limited(
                secs,
                format!(
                    "too many login attempts for this account; try again in {secs} s, or \
                     have a sign-in link mailed to you"
                ),
            )
        })
    }

    /// One registration from `client` (when known).
    pub fn register(&self, client: Option<ClientKey>) -> Result<()> {
        let Some(client) = client else {
            return Ok(());
        };
        self.register_per_ip.check(&client).map_err(|secs| {
            limited(
                secs,
                format!("too many new accounts from your address; try again in {secs} s"),
            )
        })
    }

    /// One submission by `who`.
    pub fn submission(&self, who: Submitter) -> Result<()> {
        self.submissions.check(&who).map_err(|secs| {
            let whose = match who {
                Submitter::Token(_) => "this API token",
                Submitter::Account(_) => "this account's sessions",
            };
            limited(
                secs,
                format!(
                    "too many submissions by {whose} (at most {} a minute); try again in {secs} s",
                    self.settings.submissions_per_token_per_min
                ),
            )
        })
    }
}

pub fn limited(retry_after_secs: i64, detail: String) -> ServiceError {
    ServiceError::RateLimited {
        retry_after_secs,
        detail,
    }
}

/// Whole seconds until one more event fits a sliding `window` that allows `most`, given the
/// times of the latest events (newest first, at least the `most` latest); `None` if one fits
/// now, or if `most` is 0 (no limit).
pub fn wait_for_window(
    recent: &[DateTime<Utc>],
    most: usize,
    window: chrono::Duration,
    now: DateTime<Utc>,
) -> Option<i64> {
    // The `most`-th latest event is still in the window: wait until it leaves.
    let oldest = recent.get(most.checked_sub(1)?)?;
    let ms = (*oldest + window - now).num_milliseconds();
    (ms > 0).then(|| ((ms + 999) / 1000).max(1))
}

/// The window of the per-day caps.
pub fn day() -> chrono::Duration {
    chrono::Duration::days(1)
}

/// `Err(RateLimited)` if the events of the last day (`recent`, newest first, at least the
/// `cap` latest) already number `cap` (0: no cap); `detail` words the refusal, given the
/// seconds to wait.
pub fn daily_cap(
    recent: &[DateTime<Utc>],
    cap: u32,
    now: DateTime<Utc>,
    detail: impl FnOnce(i64) -> String,
) -> Result<()> {
    let most = usize::try_from(cap).unwrap_or(usize::MAX);
    match wait_for_window(recent, most, day(), now) {
        Some(secs) => Err(limited(secs, detail(secs))),
        None => Ok(()),
    }
}

/// Whole hours in `secs`, rounded up, for refusals that make people wait hours.
pub fn hours(secs: i64) -> i64 {
    (secs + 3599) / 3600
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(per_ip: u32, per_account: u32, register: u32) -> Limits {
        Limits::new(&LimitSettings {
            login_per_ip_per_min: per_ip,
            login_per_account_per_min: per_account,
            register_per_ip_per_hour: register,
            ..LimitSettings::default()
        })
    }

    fn ip(s: &str) -> Option<ClientKey> {
        Some(ClientKey::new(s.parse().unwrap()))
    }

    #[test]
    fn a_client_gets_its_burst_then_waits_about_the_period() {
        let l = limits(10, 1000, 0);
        for i in 0..10 {
            assert!(
                l.login(ip("192.0.2.1"), &format!("a{i}@x.test")).is_ok(),
                "{i}"
            );
        }
        match l.login(ip("192.0.2.1"), "b@x.test") {
            Err(ServiceError::RateLimited {
                retry_after_secs, ..
            }) => assert!((1..=6).contains(&retry_after_secs), "{retry_after_secs}"),
            other => panic!("{other:?}"),
        }
        // Another client is not held up.
        assert!(l.login(ip("192.0.2.2"), "b@x.test").is_ok());
    }

    #[test]
    fn one_account_is_limited_from_every_address_whatever_its_case() {
        let l = limits(1000, 3, 0);
        for n in 1..=3 {
            assert!(l.login(ip(&format!("192.0.2.{n}")), "Ann@X.test").is_ok());
        }
        let e = l.login(ip("198.51.100.7"), " ann@x.test ").unwrap_err();
        assert!(e.to_string().contains("this account"), "{e}");
        assert!(l.login(ip("198.51.100.7"), "bob@x.test").is_ok());
    }

    #[test]
    fn a_daily_cap_counts_the_last_24_hours_and_says_when_one_more_fits() {
        let now = Utc::now();
        let at = |hours_ago: i64| now - chrono::Duration::hours(hours_ago);
        // Three invitations 1, 5 and 20 hours ago; a cap of 3 waits for the oldest (4 h).
        let recent = [at(1), at(5), at(20)];
        let e = daily_cap(&recent, 3, now, |s| format!("wait {}", hours(s))).unwrap_err();
        match e {
            ServiceError::RateLimited {
                retry_after_secs,
                detail,
            } => {
                assert!((4 * 3600 - 5..=4 * 3600).contains(&retry_after_secs));
                assert_eq!(detail, "wait 4");
            }
            other => panic!("{other:?}"),
        }
        assert!(daily_cap(&recent, 4, now, |_| String::new()).is_ok());
        assert!(
            daily_cap(&recent, 0, now, |_| String::new()).is_ok(),
            "0: no cap"
        );
        assert!(daily_cap(&[], 1, now, |_| String::new()).is_ok());
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64_network_and_zero_turns_a_limit_off() {
        let l = limits(1000, 1000, 2);
        assert!(l.register(ip("2001:db8:1:2::1")).is_ok());
        assert!(l.register(ip("2001:db8:1:2:ffff::9")).is_ok());
        assert!(l.register(ip("2001:db8:1:2::77")).is_err());
        assert!(l.register(ip("2001:db8:1:3::1")).is_ok());
        assert_eq!(
            ClientKey::new("::ffff:192.0.2.9".parse().unwrap()),
            ClientKey::new("192.0.2.9".parse().unwrap())
        );
        let off = limits(0, 0, 0);
        for _ in 0..100 {
            assert!(off.login(ip("192.0.2.1"), "a@x.test").is_ok());
            assert!(off.register(ip("192.0.2.1")).is_ok());
        }
    }

    #[test]
    fn each_token_has_its_own_submission_budget_and_sessions_share_the_accounts() {
        let l = Limits::new(&LimitSettings {
            submissions_per_token_per_min: 3,
            ..LimitSettings::default()
        });
        let (bot, other_bot, ann) = (
            uuid::Uuid::new_v4(),
            uuid::Uuid::new_v4(),
            uuid::Uuid::new_v4(),
        );
        for _ in 0..3 {
            assert!(l.submission(Submitter::Token(bot)).is_ok());
            assert!(l.submission(Submitter::Account(ann)).is_ok());
        }
        match l.submission(Submitter::Token(bot)) {
            Err(ServiceError::RateLimited {
                retry_after_secs,
                detail,
            }) => {
                assert!((1..=20).contains(&retry_after_secs), "{retry_after_secs}");
                assert!(detail.contains("this API token"), "{detail}");
            }
            other => panic!("{other:?}"),
        }
        let e = l.submission(Submitter::Account(ann)).unwrap_err();
        assert!(e.to_string().contains("this account's sessions"), "{e}");
        // Another token is not held up, nor is the account the token belongs to.
        assert!(l.submission(Submitter::Token(other_bot)).is_ok());
        let off = Limits::new(&LimitSettings {
            submissions_per_token_per_min: 0,
            ..LimitSettings::default()
        });
        for _ in 0..100 {
            assert!(off.submission(Submitter::Token(bot)).is_ok());
        }
    }
}
