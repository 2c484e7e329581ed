//! The server under load when no `--url` is given: this binary's `serve`, started as a child
//! process on a free loopback port, against the load generator's database, with a throw-away
//! data directory (mail goes to `.eml` files there). Its resident memory is read from /proc.

use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

pub struct Server {
    child: Child,
    pub url: String,
}

/// A free loopback port (bound and released; the child binds it a moment later).
fn free_port() -> anyhow::Result<u16> {
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .context("finding a free loopback port")?;
    Ok(listener.local_addr()?.port())
}

impl Server {
    /// Starts `turnpost serve` and waits (at most a minute) until `/readyz` answers 200.
    pub async fn start(
        database_url: &str,
        data_dir: &Path,
        pool_size: usize,
    ) -> anyhow::Result<Server> {
        let port = free_port()?;
        let exe = std::env::current_exe().context("locating the turnpost binary")?;
        let child = Command::new(exe)
            .arg("serve")
            .env("TURNPOST_ADDR", format!("127.0.0.1:{port}"))
            .env("DATABASE_URL", database_url)
            .env("TURNPOST_DATA_DIR", data_dir)
            .env("TURNPOST_DB_POOL_SIZE", pool_size.to_string())
            .env("TURNPOST_PUBLIC_URL", format!("http://127.0.0.1:{port}"))
            // Every client registers from 127.0.0.1, dozens a second: the per-address limits
            // of logins and registrations are for people, not for this.
            .env("TURNPOST_LOGIN_PER_IP_PER_MIN", "0")
            .env("TURNPOST_LOGIN_PER_ACCOUNT_PER_MIN", "0")
            .env("TURNPOST_REGISTER_PER_IP_PER_HOUR", "0")
            // Each client submits dozens a second: far above the per-token limit for people and
            // bots, but the limit stays on (a million a minute), so its cost is measured.
            .env("TURNPOST_SUBMISSIONS_PER_TOKEN_PER_MIN", "1000000")
            // The `streams` scenario holds a thousand streams of a few accounts, all from
            // 127.0.0.1; the process's ceiling (below its open-files limit) stays in force.
            .env("TURNPOST_STREAMS_PER_ACCOUNT", "0")
            .env("TURNPOST_STREAMS_PER_ADDRESS", "0")
            .env(
                "RUST_LOG",
                std::env::var("LOADGEN_SERVER_LOG").unwrap_or_else(|_| "warn".into()),
            )
            .env_remove("TURNPOST_SMTP_URL")
            .env_remove("TURNPOST_CONFIG")
            .stdin(Stdio::null())
            .spawn()
            .context("starting turnpost serve")?;
        let mut server = Server {
            child,
            url: format!("http://127.0.0.1:{port}"),
        };
        let http = reqwest::Client::new();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = server.child.try_wait()? {
                bail!("turnpost serve exited at start-up: {status}");
            }
            if let Ok(r) = http.get(format!("{}/readyz", server.url)).send().await
                && r.status().is_success()
            {
                return Ok(server);
            }
            if Instant::now() > deadline {
                server.stop();
                bail!("turnpost serve was not ready within a minute");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's resident set size in bytes (`VmRSS` of /proc/<pid>/status).
    pub fn rss_bytes(&self) -> anyhow::Result<u64> {
        rss_of(self.pid())
    }

    /// SIGTERM (a graceful stop), then SIGKILL after ten seconds.
    pub fn stop(&mut self) {
        if let Ok(pid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: kill(2) with a pid we spawned and still own (not yet reaped).
            unsafe {
                libc::kill(pid, libc::SIGTERM);
            }
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.stop();
        }
    }
}

/// `VmRSS` of a process, in bytes.
pub fn rss_of(pid: u32) -> anyhow::Result<u64> {
    let path = PathBuf::from(format!("/proc/{pid}/status"));
    let status =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse::<u64>().ok())
        .context("no VmRSS line")?;
    Ok(kb * 1024)
}
