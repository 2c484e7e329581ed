//! `streams` scenario (issue 19: "1,000 open streams add under 50 MB to the server"): opens
//! `--streams` server-sent event streams on a server started here, half of them account
//! streams (`GET /v1/me/stream`) and half streams of one active game
//! (`GET /v1/games/{id}/stream`), reads the server's resident memory before and with them
//! open, then makes one move and counts the game streams it reaches. Every wait is bounded.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use futures_util::future::join_all;
use serde_json::Value;

use super::{LoadArgs, Target, players, verify_players};
use crate::loadgen::client::Player;
use crate::loadgen::stats::Recorder;

/// How long one stream may take to answer, and the move to reach every game stream.
const OPEN_WITHIN: Duration = Duration::from_secs(30);
const REACH_WITHIN: Duration = Duration::from_secs(30);
/// Streams opened at once.
const PARALLEL: usize = 50;

/// One open stream: its response, and what it has sent so far.
struct Open {
    res: reqwest::Response,
    seen: String,
}

impl Open {
    /// Reads until the stream has sent an event named `event`, or `until` passes.
    async fn wait_for(&mut self, event: &str, until: tokio::time::Instant) -> bool {
        let needle = format!("event: {event}\n");
        loop {
            if self.seen.contains(&needle) {
                return true;
            }
            match tokio::time::timeout_at(until, self.res.chunk()).await {
                Ok(Ok(Some(bytes))) => self.seen.push_str(&String::from_utf8_lossy(&bytes)),
                _ => return false,
            }
        }
    }
}

async fn open(http: &reqwest::Client, url: String, who: &Player) -> anyhow::Result<Open> {
    let res = tokio::time::timeout(OPEN_WITHIN, http.get(&url).bearer_auth(&who.token).send())
        .await
        .with_context(|| format!("{url}: no answer within {OPEN_WITHIN:?}"))?
        .with_context(|| format!("opening {url}"))?;
    if !res.status().is_success() {
        bail!("{url}: status {}", res.status());
    }
    Ok(Open {
        res,
        seen: String::new(),
    })
}

pub(super) async fn streams(
    args: &LoadArgs,
    options: &Value,
    target: &Target,
) -> anyhow::Result<()> {
    let api = &target.api;
    println!(
        "== streams: {} open event streams (half account, half one {} game's) ==",
        args.streams, args.ruleset
    );
    let Some(server) = &target.server else {
        println!("streams: skipped (the server's memory is read only for a server started here)");
        return Ok(());
    };
    let mut rec = Recorder::default();
    let seats = players(api, target, &mut rec, "streams", args.seats).await?;
    verify_players(target).await?;
    let game = api
        .new_game(&mut rec, &args.ruleset, options, &seats)
        .await?;
    // A client of its own: the load generator's other client ends a request after a minute.
    let http = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .pool_max_idle_per_host(0)
        .build()
        .context("building the streams' HTTP client")?;
    // The game streams go on after the present version: only the move below is new to them.
    let now = api.state(&mut rec, &game, &seats[0]).await?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = server.rss_bytes()?;

    let started = Instant::now();
    let mut account = Vec::new();
    let mut of_game = Vec::new();
    let all: Vec<usize> = (0..args.streams).collect();
    for chunk in all.chunks(PARALLEL) {
        let opened = join_all(chunk.iter().map(|&i| {
            let who = &seats[i % seats.len()];
            let path = if i % 2 == 0 {
                "/me/stream".to_owned()
            } else {
                format!("/games/{game}/stream?after={}", now.version)
            };
            open(&http, format!("{}{path}", api.base), who)
        }))
        .await;
        for (&i, o) in chunk.iter().zip(opened) {
            if i % 2 == 0 {
                account.push(o?);
            } else {
                of_game.push(o?);
            }
        }
    }
    let opened_in = started.elapsed();
    // Let the server settle (each stream's first reads, the heartbeat timers).
    tokio::time::sleep(Duration::from_secs(2)).await;
    let with = server.rss_bytes()?;

    // One move, which every stream of the game must carry as an `entry`.
    let actor = *now.to_act.first().context("nobody is to act")?;
    let state = api.state(&mut rec, &game, &seats[actor]).await?;
    let action = state.legal.first().cloned().context("no legal action")?;
    let moved = Instant::now();
    api.submit(&mut rec, &game, &seats[actor], state.version, &action)
        .await?;
    let until = tokio::time::Instant::now() + REACH_WITHIN;
    let reached = join_all(of_game.iter_mut().map(|o| o.wait_for("entry", until)))
        .await
        .into_iter()
        .filter(|&r| r)
        .count();
    let reach = moved.elapsed();
    let after = server.rss_bytes()?;
    drop(account);
    drop(of_game);

    let mb = |b: u64| b as f64 / (1024.0 * 1024.0);
    let added = with.saturating_sub(before);
    println!(
        "opened {} streams in {:.1} s ({} account, {} game)",
        args.streams,
        opened_in.as_secs_f64(),
        args.streams.div_ceil(2),
        args.streams / 2
    );
    println!(
        "server RSS: {:.1} MB before, {:.1} MB with the streams open: +{:.1} MB, {:.1} KB a stream (target < 50 MB for 1,000); {:.1} MB after the move",
        mb(before),
        mb(with),
        mb(added),
        added as f64 / 1024.0 / args.streams.max(1) as f64,
        mb(after)
    );
    println!(
        "one move reached {reached} of {} game streams within {:.0} ms",
        args.streams / 2,
        reach.as_secs_f64() * 1000.0
    );
    if reached < args.streams / 2 {
        bail!(
            "the move reached only {reached} of {} game streams within {REACH_WITHIN:?}",
            args.streams / 2
        );
    }
    Ok(())
}
