//! Latency samples per endpoint, merged across clients, with percentiles.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

/// What one endpoint saw: every latency in microseconds, and the failures by status.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub micros: Vec<u64>,
    /// Responses that were not the expected success, by HTTP status (0: no response).
    pub errors: BTreeMap<u16, u64>,
}

impl Samples {
    pub fn record(&mut self, took: Duration) {
        self.micros
            .push(u64::try_from(took.as_micros()).unwrap_or(u64::MAX));
    }

    pub fn error(&mut self, status: u16) {
        *self.errors.entry(status).or_default() += 1;
    }

    pub fn merge(&mut self, other: Samples) {
        self.micros.extend(other.micros);
        for (status, n) in other.errors {
            *self.errors.entry(status).or_default() += n;
        }
    }

    /// The `q`-quantile (0..=1) in microseconds, by the nearest-rank method.
    pub fn quantile(&mut self, q: f64) -> Option<u64> {
        quantile(&mut self.micros, q)
    }
}

/// The `q`-quantile of `values` (sorted in place), by the nearest-rank method.
pub fn quantile(values: &mut [u64], q: f64) -> Option<u64> {
    if values.is_empty() {
        return None;
    }
    values.sort_unstable();
    let rank = (q.clamp(0.0, 1.0) * values.len() as f64).ceil() as usize;
    values
        .get(rank.saturating_sub(1).min(values.len() - 1))
        .copied()
}

/// Samples by endpoint name (e.g. `POST /v1/games/{id}/actions`).
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    pub endpoints: BTreeMap<&'static str, Samples>,
}

impl Recorder {
    pub fn record(&mut self, endpoint: &'static str, took: Duration) {
        self.endpoints.entry(endpoint).or_default().record(took);
    }

    pub fn error(&mut self, endpoint: &'static str, status: u16) {
        self.endpoints.entry(endpoint).or_default().error(status);
    }

    pub fn merge(&mut self, other: Recorder) {
        for (name, samples) in other.endpoints {
            self.endpoints.entry(name).or_default().merge(samples);
        }
    }

    pub fn count(&self, endpoint: &str) -> usize {
        self.endpoints.get(endpoint).map_or(0, |s| s.micros.len())
    }

    /// A table: per endpoint the successful requests, their rate over `wall`, p50/p95/p99 and
    /// the failures by status.
    pub fn table(&mut self, wall: Duration) -> String {
        let mut out = format!(
            "{:<34} {:>8} {:>9} {:>9} {:>9} {:>9}  errors\n",
            "endpoint", "ok", "req/s", "p50 ms", "p95 ms", "p99 ms"
        );
        let secs = wall.as_secs_f64().max(1e-9);
        for (name, s) in &mut self.endpoints {
            let n = s.micros.len();
            let ms = |v: Option<u64>| {
                v.map_or("-".to_string(), |us| format!("{:.2}", us as f64 / 1000.0))
            };
            let (p50, p95, p99) = (s.quantile(0.50), s.quantile(0.95), s.quantile(0.99));
            let errors = if s.errors.is_empty() {
                "0".to_string()
            } else {
                s.errors
                    .iter()
                    .map(|(status, n)| format!("{n}×{status}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let _ = writeln!(
                out,
                "{name:<34} {n:>8} {:>9.1} {:>9} {:>9} {:>9}  {errors}",
                n as f64 / secs,
                ms(p50),
                ms(p95),
                ms(p99)
            );
        }
        out
    }
}

/// The whole machine's CPU time (all cores, from the first line of `/proc/stat`), to tell
/// how much CPU an operation costs whatever the disk's latency did to the throughput.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuTicks {
    pub busy: u64,
    pub total: u64,
    /// CPU time of this process and every process it started, running or ended (the server,
    /// the private cluster's postmaster and backends, pgbench): what the run itself cost,
    /// whatever else the machine was doing. 0 where /proc cannot tell.
    pub own: u64,
}

impl CpuTicks {
    /// Reads `/proc/stat` now (`None` where there is no such file).
    pub fn now() -> Option<CpuTicks> {
        let mut ticks = std::fs::read_to_string("/proc/stat")
            .ok()
            .and_then(|s| Self::parse(&s))?;
        ticks.own = own_ticks(std::process::id());
        Some(ticks)
    }

    /// The `cpu` line: user nice system idle iowait irq softirq steal …; busy is all but
    /// idle and iowait.
    pub fn parse(stat: &str) -> Option<CpuTicks> {
        let line = stat.lines().find(|l| l.starts_with("cpu "))?;
        let fields: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .take(8)
            .map(|f| f.parse().ok())
            .collect::<Option<_>>()?;
        let total: u64 = fields.iter().sum();
        let idle = fields.get(3)? + fields.get(4)?;
        Some(CpuTicks {
            busy: total - idle,
            total,
            own: 0,
        })
    }

    /// CPU milliseconds that this process and its descendants spent per operation since
    /// `start` (`None` without /proc figures).
    pub fn own_per_op_since(self, start: CpuTicks, ops: u64) -> Option<f64> {
        let own = self.own.checked_sub(start.own)?;
        if ops == 0 || self.own == 0 {
            return None;
        }
        Some(own as f64 * 10.0 / ops as f64)
    }

    /// CPU milliseconds spent per operation since `start` (at 100 ticks a second, Linux's
    /// `USER_HZ`), and the share of the machine that was busy.
    pub fn per_op_since(self, start: CpuTicks, ops: u64) -> Option<(f64, f64)> {
        let busy = self.busy.checked_sub(start.busy)?;
        let total = self.total.checked_sub(start.total)?;
        if ops == 0 || total == 0 {
            return None;
        }
        Some((busy as f64 * 10.0 / ops as f64, busy as f64 / total as f64))
    }
}

/// The CPU ticks of `root` and all its descendants: user and system time of each, plus the
/// time of the children each has reaped (a process that ended and was waited for is counted in
/// its parent; one not yet reaped still has its own line).
fn own_ticks(root: u32) -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut procs: Vec<(u32, u32, u64)> = vec![];
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if let Some((ppid, ticks)) = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| parse_pid_stat(&s))
        {
            procs.push((pid, ppid, ticks));
        }
    }
    descendants_ticks(root, &procs)
}

/// The parent pid and utime + stime + cutime + cstime of one `/proc/<pid>/stat` line (the
/// command name, in parentheses, may hold spaces: fields are counted after its last `)`).
fn parse_pid_stat(stat: &str) -> Option<(u32, u64)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state(3) ppid(4) … utime(14) stime(15) cutime(16) cstime(17).
    let ppid = fields.get(1)?.parse().ok()?;
    let ticks = fields
        .get(11..15)?
        .iter()
        .map(|f| f.parse::<i64>().ok().map(|v| v.max(0) as u64))
        .sum::<Option<u64>>()?;
    Some((ppid, ticks))
}

/// The ticks of `root` and of every process below it in `procs` (pid, parent, ticks).
fn descendants_ticks(root: u32, procs: &[(u32, u32, u64)]) -> u64 {
    let mut total = 0;
    let mut todo = vec![root];
    let mut seen = std::collections::HashSet::new();
    while let Some(pid) = todo.pop() {
        if !seen.insert(pid) {
            continue;
        }
        for (p, parent, ticks) in procs {
            if *p == pid {
                total += ticks;
            }
            if *parent == pid {
                todo.push(*p);
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_quantiles() {
        let mut v: Vec<u64> = (1..=100).rev().collect();
        assert_eq!(quantile(&mut v, 0.50), Some(50));
        assert_eq!(quantile(&mut v, 0.99), Some(99));
        assert_eq!(quantile(&mut v, 1.0), Some(100));
        assert_eq!(quantile(&mut v, 0.0), Some(1));
        assert_eq!(quantile(&mut [], 0.5), None);
        assert_eq!(quantile(&mut [7], 0.99), Some(7));
    }

    #[test]
    fn merged_recorders_keep_every_sample_and_error() {
        let mut a = Recorder::default();
        a.record("GET /x", Duration::from_micros(10));
        a.error("GET /x", 409);
        let mut b = Recorder::default();
        b.record("GET /x", Duration::from_micros(30));
        b.error("GET /x", 409);
        b.error("GET /x", 500);
        a.merge(b);
        let x = &a.endpoints["GET /x"];
        assert_eq!(x.micros.len(), 2);
        assert_eq!(x.errors.get(&409), Some(&2));
        assert_eq!(x.errors.get(&500), Some(&1));
        let table = a.table(Duration::from_secs(1));
        assert!(table.contains("2×409 1×500"), "{table}");
    }

    #[test]
    fn cpu_ticks_count_all_but_idle_and_iowait_as_busy() {
        let stat = "cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 50 2 25 400 20 1 1 0 0 0\n";
        let start = CpuTicks::parse(stat).unwrap();
        assert_eq!(
            start,
            CpuTicks {
                busy: 160,
                total: 1000,
                own: 0
            }
        );
        let end = CpuTicks {
            busy: 360,
            total: 1400,
            own: 0,
        };
        // 200 busy ticks (2 s of CPU) over 1,000 operations: 2 ms each, half the machine busy.
        assert_eq!(end.per_op_since(start, 1000), Some((2.0, 0.5)));
        assert_eq!(end.per_op_since(start, 0), None);
        assert_eq!(CpuTicks::parse("intr 1 2 3\n"), None);
    }

    #[test]
    fn own_cpu_counts_a_process_and_everything_below_it() {
        let line = "4242 (post master (x)) S 17 4242 4242 0 -1 4194560 1 0 0 0 \
                    120 30 7 3 20 0 1 0 100 0 0";
        assert_eq!(parse_pid_stat(line), Some((17, 160)));
        assert_eq!(parse_pid_stat("garbage"), None);
        // 1 ─ 10 ─ 11 ─ 12, and 20 beside it.
        let procs = [
            (1, 0, 1000),
            (10, 1, 5),
            (11, 10, 7),
            (12, 11, 11),
            (20, 1, 100),
        ];
        assert_eq!(descendants_ticks(10, &procs), 23);
        assert_eq!(descendants_ticks(12, &procs), 11);
        assert_eq!(descendants_ticks(99, &procs), 0);
        let me = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
        if !me.is_empty() {
            assert!(parse_pid_stat(&me).is_some(), "{me}");
        }
    }
}
