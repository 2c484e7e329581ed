//! How many event streams may be open (issue 43): each holds a connection and a file
//! descriptor for up to an hour, so one account (or one address) could otherwise take every
//! descriptor of the process, health checks' included. A stream takes a slot for its account,
//! its client address and the process; past any of the three it is refused (429 with
//! `Retry-After`), and the slot comes back when the stream ends. The process's ceiling stays
//! below its open-files limit, leaving descriptors for ordinary requests and the database.
//!
//! The slots also end every stream at once when the server stops: [`StreamSlots::close`]
//! wakes them, and each sends a last event telling its client to reconnect.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;
use uuid::Uuid;

use super::limits::{ClientKey, limited};
use super::{Result, ServiceError};
use crate::config::LimitSettings;

/// Seconds a refused client is asked to wait: streams end when their clients leave, or after
/// an hour.
pub const RETRY_AFTER_SECS: i64 = 30;

/// Descriptors kept out of the process's ceiling whatever the limit.
const RESERVE: u64 = 256;

#[derive(Default)]
struct Counts {
    total: usize,
    accounts: HashMap<Uuid, usize>,
    addresses: HashMap<ClientKey, usize>,
}

/// The open streams of one process.
pub struct StreamSlots {
    per_account: usize,
    per_address: usize,
    max: usize,
    counts: Mutex<Counts>,
    closing: watch::Sender<bool>,
}

/// One open stream's slot; given back when dropped (with the stream's body).
pub struct StreamSlot {
    slots: Arc<StreamSlots>,
    account: Uuid,
    address: Option<ClientKey>,
    closing: watch::Receiver<bool>,
}

/// The process's ceiling for `settings`, given its open-files limit (`None`: unknown).
pub fn ceiling(settings: &LimitSettings, open_files: Option<u64>) -> usize {
    let room = open_files.map_or(u64::MAX, |n| (n * 3 / 4).saturating_sub(RESERVE).max(1));
    let wanted = match settings.streams_max {
        0 => room,
        n => u64::from(n).min(room),
    };
    usize::try_from(wanted).unwrap_or(usize::MAX)
}

fn count(n: u32) -> usize {
    match n {
        0 => usize::MAX,
        n => usize::try_from(n).unwrap_or(usize::MAX),
    }
}

impl StreamSlots {
    pub fn new(settings: &LimitSettings, open_files: Option<u64>) -> Arc<StreamSlots> {
        Arc::new(StreamSlots {
            per_account: count(settings.streams_per_account),
            per_address: count(settings.streams_per_address),
            max: ceiling(settings, open_files),
            counts: Mutex::default(),
            closing: watch::channel(false).0,
        })
    }

    fn counts(&self) -> MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A slot for a stream of `account` from `address`, or 429 if one of the limits is full
    /// (503 once the server is stopping).
    pub fn take(self: &Arc<Self>, account: Uuid, address: Option<ClientKey>) -> Result<StreamSlot> {
        if *self.closing.borrow() {
            return Err(ServiceError::Unavailable(anyhow::anyhow!(
                "the server is stopping"
            )));
        }
        let mut counts = self.counts();
        let refuse = |what: String| {
            Err(limited(
                RETRY_AFTER_SECS,
                format!("{what}; close one, or try again in {RETRY_AFTER_SECS} s"),
            ))
        };
        if counts.accounts.get(&account).copied().unwrap_or(0) >= self.per_account {
            return refuse(format!(
                "this account has {} event streams open already, the most it may",
                self.per_account
            ));
        }
        if let Some(a) = address
            && counts.addresses.get(&a).copied().unwrap_or(0) >= self.per_address
        {
            return refuse(format!(
                "your address has {} event streams open already, the most it may",
                self.per_address
            ));
        }
        if counts.total >= self.max {
            return refuse("this server holds as many event streams as it can".to_owned());
        }
        counts.total += 1;
        *counts.accounts.entry(account).or_default() += 1;
        if let Some(a) = address {
            *counts.addresses.entry(a).or_default() += 1;
        }
        Ok(StreamSlot {
            slots: self.clone(),
            account,
            address,
            closing: self.closing.subscribe(),
        })
    }

    /// Streams open now.
    pub fn open(&self) -> usize {
        self.counts().total
    }

    /// Ends every stream (the server is stopping): each sends its last event and closes, and
    /// no new one opens.
    pub fn close(&self) {
        self.closing.send_replace(true);
    }
}

impl StreamSlot {
    /// Resolves once the server stops (never before).
    pub async fn closing(&mut self) {
        if self.closing.wait_for(|c| *c).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut counts = self.slots.counts();
        counts.total = counts.total.saturating_sub(1);
        if let Some(n) = counts.accounts.get_mut(&self.account) {
            *n -= 1;
            if *n == 0 {
                counts.accounts.remove(&self.account);
            }
        }
        if let Some(a) = self.address
            && let Some(n) = counts.addresses.get_mut(&a)
        {
            *n -= 1;
            if *n == 0 {
                counts.addresses.remove(&a);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(account: u32, address: u32, max: u32) -> LimitSettings {
        LimitSettings {
            streams_per_account: account,
            streams_per_address: address,
            streams_max: max,
            ..LimitSettings::default()
        }
    }

    fn ip(s: &str) -> Option<ClientKey> {
        Some(ClientKey::new(s.parse().unwrap()))
    }

    #[test]
    fn each_limit_refuses_beyond_it_and_a_closed_stream_gives_its_slot_back() {
        let slots = StreamSlots::new(&settings(2, 2, 4), None);
        let (ann, bob, cy) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        let a1 = slots.take(ann, ip("192.0.2.1")).unwrap();
        let _a2 = slots.take(ann, ip("192.0.2.2")).unwrap();
        assert!(matches!(
            slots.take(ann, ip("192.0.2.3")),
            Err(ServiceError::RateLimited {
                retry_after_secs: RETRY_AFTER_SECS,
                ..
            })
        ));
        drop(a1);
        let _a3 = slots.take(ann, ip("192.0.2.1")).unwrap();
        // Per address: two from one address, whoever holds them.
        let _b1 = slots.take(bob, ip("192.0.2.1")).unwrap();
        assert!(slots.take(bob, ip("192.0.2.1")).is_err());
        // The process: four at most.
        let _c1 = slots.take(cy, ip("192.0.2.9")).unwrap();
        assert_eq!(slots.open(), 4);
        assert!(slots.take(cy, ip("192.0.2.10")).is_err());
    }

    #[test]
    fn the_ceiling_stays_below_the_open_files_limit() {
        assert_eq!(ceiling(&settings(20, 60, 0), Some(1_500)), 869);
        assert_eq!(ceiling(&settings(20, 60, 100_000), Some(20_000)), 14_744);
        assert_eq!(ceiling(&settings(20, 60, 500), Some(20_000)), 500);
        assert!(ceiling(&settings(20, 60, 0), Some(100)) >= 1);
    }

    #[tokio::test]
    async fn closing_wakes_every_stream_and_refuses_new_ones() {
        let slots = StreamSlots::new(&settings(2, 3, 4), None);
        let mut slot = slots.take(Uuid::new_v4(), None).unwrap();
        slots.close();
        slot.closing().await;
        assert!(matches!(
            slots.take(Uuid::new_v4(), None),
            Err(ServiceError::Unavailable(_))
        ));
    }
}
