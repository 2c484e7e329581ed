//! Rate limits and the password policy (issue 20): how many logins, registrations,
//! invitations and verification mails, and how guessable a password may be.
//!
//! The per-minute and per-hour limits are kept in each server process's memory (they stop a
//! guessing loop; several processes each limit on their own). The per-day caps count rows in
//! PostgreSQL, so they hold across restarts and across processes.

use std::fmt;

use serde::Deserialize;

/// The limits in force (`[limits]` in `turnpost.toml`, `TURNPOST_*` in the environment).
/// A per-minute or per-hour limit of 0 turns that limit off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitSettings {
    /// Login attempts from one client address a minute (`TURNPOST_LOGIN_PER_IP_PER_MIN`).
    pub login_per_ip_per_min: u32,
    /// Login attempts for one account (the address typed in) a minute
    /// (`TURNPOST_LOGIN_PER_ACCOUNT_PER_MIN`).
    pub login_per_account_per_min: u32,
    /// Registrations from one client address an hour (`TURNPOST_REGISTER_PER_IP_PER_HOUR`).
    pub register_per_ip_per_hour: u32,
    /// Submissions (`POST /v1/games/{id}/actions`) one API token may make a minute, or one
    /// account with its sessions (`TURNPOST_SUBMISSIONS_PER_TOKEN_PER_MIN`).
    pub submissions_per_token_per_min: u32,
    /// Invitations one account may send in 24 hours (`TURNPOST_INVITATIONS_PER_DAY`).
    pub invitations_per_day: u32,
    /// Invitations one address that no account has confirmed may receive in 24 hours, from
    /// everybody together (`TURNPOST_INVITATIONS_PER_ADDRESS_PER_DAY`).
    pub invitations_per_address_per_day: u32,
    /// Verification mails one account may be sent in 24 hours, the one of the registration
    /// included (`TURNPOST_VERIFICATION_MAILS_PER_DAY`).
    pub verification_mails_per_day: u32,
    /// The lowest zxcvbn score (0 to 4) a new password needs (`TURNPOST_PASSWORD_MIN_SCORE`):
    /// 2 refuses the common passwords and anything guessed in a million tries.
    pub password_min_score: u8,
    /// The header a reverse proxy in front of Turnpost sets to the client's address, e.g.
    /// `X-Real-IP` (`TURNPOST_CLIENT_IP_HEADER`). Unset: the connection's peer address. Set it
    /// only behind a proxy that overwrites that header, or clients choose their own address.
    pub client_ip_header: Option<String>,
    /// Event streams one account may hold open at once (`TURNPOST_STREAMS_PER_ACCOUNT`).
    pub streams_per_account: u32,
    /// Event streams one client address may hold open at once
    /// (`TURNPOST_STREAMS_PER_ADDRESS`).
    pub streams_per_address: u32,
    /// Event streams the whole process holds at most (`TURNPOST_STREAMS_MAX`); 0: three
    /// quarters of the open-files limit less 256, which leaves the rest to ordinary requests,
    /// health checks and the database. A larger number is lowered to that too.
    pub streams_max: u32,
}

impl Default for LimitSettings {
    fn default() -> Self {
        LimitSettings {
            login_per_ip_per_min: 30,
            login_per_account_per_min: 10,
            register_per_ip_per_hour: 60,
            submissions_per_token_per_min: 1_200,
            invitations_per_day: 20,
            invitations_per_address_per_day: 3,
            verification_mails_per_day: 5,
            password_min_score: 2,
            client_ip_header: None,
            streams_per_account: 20,
            streams_per_address: 60,
            streams_max: 0,
        }
    }
}

/// `[limits]` in `turnpost.toml`: every key optional, the names of [`LimitSettings`]' fields.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileLimits {
    login_per_ip_per_min: Option<u32>,
    login_per_account_per_min: Option<u32>,
    register_per_ip_per_hour: Option<u32>,
    submissions_per_token_per_min: Option<u32>,
    invitations_per_day: Option<u32>,
    invitations_per_address_per_day: Option<u32>,
    verification_mails_per_day: Option<u32>,
    password_min_score: Option<u8>,
    client_ip_header: Option<String>,
    streams_per_account: Option<u32>,
    streams_per_address: Option<u32>,
    streams_max: Option<u32>,
}

fn parse<T: std::str::FromStr>(name: &str, v: &str) -> anyhow::Result<T>
where
    T::Err: fmt::Display,
{
    v.parse::<T>()
        .map_err(|e| anyhow::anyhow!("{name}={v:?} is not valid: {e}"))
}

impl LimitSettings {
    pub(super) fn apply_file(&mut self, f: FileLimits) {
        let FileLimits {
            login_per_ip_per_min,
            login_per_account_per_min,
            register_per_ip_per_hour,
            submissions_per_token_per_min,
            invitations_per_day,
            invitations_per_address_per_day,
            verification_mails_per_day,
            password_min_score,
            client_ip_header,
            streams_per_account,
            streams_per_address,
            streams_max,
        } = f;
        let set = |field: &mut u32, v: Option<u32>| {
            if let Some(v) = v {
                *field = v;
            }
        };
        set(&mut self.login_per_ip_per_min, login_per_ip_per_min);
        set(
            &mut self.login_per_account_per_min,
            login_per_account_per_min,
        );
        set(&mut self.register_per_ip_per_hour, register_per_ip_per_hour);
        set(
            &mut self.submissions_per_token_per_min,
            submissions_per_token_per_min,
        );
        set(&mut self.invitations_per_day, invitations_per_day);
        set(
            &mut self.invitations_per_address_per_day,
            invitations_per_address_per_day,
        );
        set(
            &mut self.verification_mails_per_day,
            verification_mails_per_day,
        );
        set(&mut self.streams_per_account, streams_per_account);
        set(&mut self.streams_per_address, streams_per_address);
        set(&mut self.streams_max, streams_max);
        if let Some(v) = password_min_score {
            self.password_min_score = v;
        }
        if client_ip_header.is_some() {
            self.client_ip_header = client_ip_header;
        }
    }

    pub(super) fn apply_env(&mut self, var: impl Fn(&str) -> Option<String>) -> anyhow::Result<()> {
        let counts: [(&str, &mut u32); 10] = [
            (
                "TURNPOST_STREAMS_PER_ACCOUNT",
                &mut self.streams_per_account,
            ),
            (
                "TURNPOST_STREAMS_PER_ADDRESS",
                &mut self.streams_per_address,
            ),
            ("TURNPOST_STREAMS_MAX", &mut self.streams_max),
            (
                "TURNPOST_LOGIN_PER_IP_PER_MIN",
                &mut self.login_per_ip_per_min,
            ),
            (
                "TURNPOST_LOGIN_PER_ACCOUNT_PER_MIN",
                &mut self.login_per_account_per_min,
            ),
            (
                "TURNPOST_REGISTER_PER_IP_PER_HOUR",
                &mut self.register_per_ip_per_hour,
            ),
            (
                "TURNPOST_SUBMISSIONS_PER_TOKEN_PER_MIN",
                &mut self.submissions_per_token_per_min,
            ),
            (
                "TURNPOST_INVITATIONS_PER_DAY",
                &mut self.invitations_per_day,
            ),
            (
                "TURNPOST_INVITATIONS_PER_ADDRESS_PER_DAY",
                &mut self.invitations_per_address_per_day,
            ),
            (
                "TURNPOST_VERIFICATION_MAILS_PER_DAY",
                &mut self.verification_mails_per_day,
            ),
        ];
        for (name, field) in counts {
            if let Some(v) = var(name) {
                *field = parse(name, &v)?;
            }
        }
        if let Some(v) = var("TURNPOST_PASSWORD_MIN_SCORE") {
            self.password_min_score = parse("TURNPOST_PASSWORD_MIN_SCORE", &v)?;
        }
        if let Some(v) = var("TURNPOST_CLIENT_IP_HEADER") {
            self.client_ip_header = Some(v).filter(|v| !v.trim().is_empty());
        }
        self.check()
    }

    /// Refuses settings that cannot work.
    pub(super) fn check(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.password_min_score <= 4,
            "TURNPOST_PASSWORD_MIN_SCORE (limits.password_min_score) is {}; zxcvbn scores run \
             from 0 to 4",
            self.password_min_score
        );
        if let Some(h) = &self.client_ip_header {
            anyhow::ensure!(
                actix_web::http::header::HeaderName::from_bytes(h.trim().as_bytes()).is_ok(),
                "TURNPOST_CLIENT_IP_HEADER (limits.client_ip_header) {h:?} is not a header name"
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_sets_limits_and_refuses_nonsense() {
        let mut l = LimitSettings::default();
        l.apply_env(|k| match k {
            "TURNPOST_LOGIN_PER_IP_PER_MIN" => Some("0".into()),
            "TURNPOST_INVITATIONS_PER_DAY" => Some("7".into()),
            "TURNPOST_CLIENT_IP_HEADER" => Some("X-Real-IP".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(l.login_per_ip_per_min, 0);
        assert_eq!(l.invitations_per_day, 7);
        assert_eq!(l.client_ip_header.as_deref(), Some("X-Real-IP"));
        assert_eq!(
            l.login_per_account_per_min,
            LimitSettings::default().login_per_account_per_min,
            "the others keep their defaults"
        );

        let err = LimitSettings::default()
            .apply_env(|k| (k == "TURNPOST_PASSWORD_MIN_SCORE").then(|| "5".into()))
            .unwrap_err();
        assert!(err.to_string().contains("0 to 4"), "{err}");
        let err = LimitSettings::default()
            .apply_env(|k| (k == "TURNPOST_REGISTER_PER_IP_PER_HOUR").then(|| "-1".into()))
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("TURNPOST_REGISTER_PER_IP_PER_HOUR"),
            "{err}"
        );
    }

    #[test]
    fn the_file_table_sets_what_it_names() {
        let f: FileLimits =
            toml::from_str("invitations_per_address_per_day = 1\npassword_min_score = 3").unwrap();
        let mut l = LimitSettings::default();
        l.apply_file(f);
        assert_eq!(l.invitations_per_address_per_day, 1);
        assert_eq!(l.password_min_score, 3);
        assert_eq!(l.invitations_per_day, 20);
        assert!(toml::from_str::<FileLimits>("logins = 3").is_err());
    }
}
