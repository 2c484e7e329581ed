//! Revocable sessions (issue 20). Every session token carries the account's token version
//! when it was issued (`ver`); it is good only while the account still has that version.
//! `POST /v1/auth/logout` and a new password raise the version, which revokes every session
//! of the account at once (API tokens and web session cookies alike).
//!
//! Checking the version must not cost a database round trip on every request (submissions
//! are the hot path), so each server process remembers the versions it has read for
//! [`VERSION_TTL`]: a request whose token has the remembered version is checked without the
//! database. Versions only grow, so a token older than the remembered version is refused at
//! once, and a revocation made in this process is in force at once. A revocation made by
//! another process (several servers behind a balancer) takes at most [`VERSION_TTL`] to reach
//! this one.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use uuid::Uuid;

use super::{Result, ServiceError, Services};
use crate::store;

/// How long a process trusts a token version it has read.
pub const VERSION_TTL: Duration = Duration::from_secs(10);

/// Versions remembered before the stale ones are forgotten.
const FORGET_ABOVE: usize = 100_000;

/// The token versions this process has read, and when.
#[derive(Default)]
pub struct Versions {
    seen: Mutex<HashMap<Uuid, (i32, Instant)>>,
}

/// What the remembered version says of a token's version.
#[derive(Debug, PartialEq, Eq)]
enum Known {
    Current,
    Revoked,
    /// Not remembered, too old to trust, or newer than remembered (issued by another
    /// process after a revocation): ask the database.
    Ask,
}

impl Versions {
    fn known(&self, user: Uuid, version: i32, now: Instant) -> Known {
        let Ok(seen) = self.seen.lock() else {
            return Known::Ask;
        };
        match seen.get(&user) {
            // Versions only grow: an older token is revoked whenever this was read.
            Some((v, _)) if version < *v => Known::Revoked,
            Some((v, at)) if version == *v && now.duration_since(*at) < VERSION_TTL => {
                Known::Current
            }
            _ => Known::Ask,
        }
    }

    /// Remembers `version` as read at `now`, never going back to a lower one (a read that
    /// raced with a revocation in this process cannot undo it).
    fn remember(&self, user: Uuid, version: i32, now: Instant) {
        let Ok(mut seen) = self.seen.lock() else {
            return;
        };
        if seen.len() > FORGET_ABOVE {
            seen.retain(|_, (_, at)| now.duration_since(*at) < VERSION_TTL);
        }
        let entry = seen.entry(user).or_insert((version, now));
        if version >= entry.0 {
            *entry = (version, now);
        }
    }
}

/// `Ok` if `user` exists and still has token version `version`; `Revoked` if the version
/// was raised since (logout, new password); `UnknownAccount` if there is no such account.
pub async fn check(svc: &Services, user: Uuid, version: i32) -> Result<()> {
    match svc.versions.known(user, version, Instant::now()) {
        Known::Current => return Ok(()),
        Known::Revoked => return Err(ServiceError::Revoked),
        Known::Ask => {}
    }
    let current = {
        let mut conn = svc.conn().await?;
        store::users::token_version(&mut conn, user).await?
    };
    let current = current.ok_or(ServiceError::UnknownAccount)?;
    svc.versions.remember(user, current, Instant::now());
    if current == version {
        Ok(())
    } else {
        Err(ServiceError::Revoked)
    }
}

/// Remembers a version this process has just written (a revocation, a new password).
pub fn raised(svc: &Services, user: Uuid, version: i32) {
    svc.versions.remember(user, version, Instant::now());
}

/// `POST /v1/auth/logout`: ends every session of the account (all its API tokens and web
/// sessions); a new login opens a new one.
pub async fn log_out_everywhere(svc: &Services, user: Uuid) -> Result<()> {
    let version = {
        let mut conn = svc.conn().await?;
        store::users::raise_token_version(&mut conn, user).await?
    };
    let version = version.ok_or(ServiceError::UnknownAccount)?;
    raised(svc, user, version);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remembered_version_answers_until_it_is_stale_and_never_goes_back() {
        let v = Versions::default();
        let (ann, bob) = (Uuid::new_v4(), Uuid::new_v4());
        let t0 = Instant::now();
        assert_eq!(v.known(ann, 0, t0), Known::Ask, "never read");
        v.remember(ann, 2, t0);
        assert_eq!(v.known(ann, 2, t0), Known::Current);
        assert_eq!(v.known(ann, 1, t0), Known::Revoked);
        assert_eq!(v.known(ann, 3, t0), Known::Ask, "issued elsewhere since");
        assert_eq!(v.known(bob, 2, t0), Known::Ask);
        let later = t0 + VERSION_TTL;
        assert_eq!(v.known(ann, 2, later), Known::Ask, "stale");
        assert_eq!(
            v.known(ann, 1, later),
            Known::Revoked,
            "older is revoked however old the reading"
        );
        // A read that started before a revocation finishes after it: it does not undo it.
        v.remember(ann, 3, t0);
        v.remember(ann, 2, t0);
        assert_eq!(v.known(ann, 2, t0), Known::Revoked);
        assert_eq!(v.known(ann, 3, t0), Known::Current);
    }
}
