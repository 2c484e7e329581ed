//! The open-files limit: every event stream, HTTP connection and database connection is a
//! file descriptor, and the usual soft limit (1,024) is below what a server holding a thousand
//! streams needs. `serve`, `worker` and `loadgen` raise their soft limit to the hard limit the
//! system allows (never above it; an unprivileged process may always do this).

/// Raises the soft `RLIMIT_NOFILE` to the hard limit; returns the soft limit now in force
/// (`None` if it cannot be read).
pub fn raise_open_files_limit() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` writes into the `rlimit` we pass and reads nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return None;
    }
    if lim.rlim_cur < lim.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: lim.rlim_max,
            rlim_max: lim.rlim_max,
        };
        // SAFETY: `setrlimit` only reads the `rlimit` we pass.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            lim = raised;
        }
    }
    #[allow(
        clippy::unnecessary_cast,
        reason = "rlim_t is not u64 on every platform"
    )]
    Some(lim.rlim_cur as u64)
}

/// The soft `RLIMIT_NOFILE` in force (`None` if it cannot be read).
pub fn open_files_limit() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` writes into the `rlimit` we pass and reads nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return None;
    }
    #[allow(
        clippy::unnecessary_cast,
        reason = "rlim_t is not u64 on every platform"
    )]
    Some(lim.rlim_cur as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_soft_limit_is_raised_to_the_hard_limit() {
        let soft = raise_open_files_limit().expect("the limit is readable");
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: as above.
        assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) }, 0);
        assert_eq!(lim.rlim_cur, lim.rlim_max);
        #[allow(
            clippy::unnecessary_cast,
            reason = "rlim_t is not u64 on every platform"
        )]
        let cur = lim.rlim_cur as u64;
        assert_eq!(soft, cur);
    }
}
