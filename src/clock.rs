//! The service's clock, injected so tests move time instead of sleeping (DESIGN.md, "Time").
//!
//! Everything that compares with a deadline (submissions that start or end a wait, the
//! deadline worker) asks [`Clock::now`]. In production it is the system clock; a test clock is
//! the system clock plus an offset the test moves forward.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use chrono::{DateTime, Duration, Utc};

/// The system clock, optionally shifted by an offset a test controls.
#[derive(Clone, Default)]
pub struct Clock {
    offset_ms: Option<Arc<AtomicI64>>,
}

impl Clock {
    /// The system clock.
    pub fn system() -> Self {
        Clock { offset_ms: None }
    }

    /// A clock whose time a test moves with [`Clock::advance`] (clones share the offset).
    pub fn adjustable() -> Self {
        Clock {
            offset_ms: Some(Arc::new(AtomicI64::new(0))),
        }
    }

    pub fn now(&self) -> DateTime<Utc> {
        let now = Utc::now();
        match &self.offset_ms {
            None => now,
            Some(o) => now + Duration::milliseconds(o.load(Ordering::SeqCst)),
        }
    }

    /// Moves an adjustable clock forward (a system clock does not move).
    pub fn advance(&self, by: Duration) {
        if let Some(o) = &self.offset_ms {
            o.fetch_add(by.num_milliseconds(), Ordering::SeqCst);
        }
    }
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.offset_ms {
            None => f.write_str("Clock::system"),
            Some(o) => write!(f, "Clock::adjustable({} ms)", o.load(Ordering::SeqCst)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_adjustable_clock_moves_forward_and_its_clones_with_it() {
        let clock = Clock::adjustable();
        let copy = clock.clone();
        let before = copy.now();
        clock.advance(Duration::hours(25));
        assert!(copy.now() - before >= Duration::hours(25));
        let system = Clock::system();
        system.advance(Duration::hours(25));
        assert!(system.now() - Utc::now() < Duration::hours(1));
    }
}
