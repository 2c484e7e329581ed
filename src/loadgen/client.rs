//! A Turnpost API client as a real one behaves: JSON over HTTP with a bearer token, every
//! request timed and recorded under its endpoint's name.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use rand::RngExt;
use rand::seq::IndexedRandom;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::stats::Recorder;

pub const REGISTER: &str = "POST /v1/auth/register";
pub const CREATE: &str = "POST /v1/games";
pub const JOIN: &str = "POST /v1/games/{id}/join";
pub const STATE: &str = "GET /v1/games/{id}/state";
pub const SUBMIT: &str = "POST /v1/games/{id}/actions";

/// The API at `base` (e.g. `http://127.0.0.1:8080/v1`).
#[derive(Clone)]
pub struct Api {
    pub http: reqwest::Client,
    pub base: String,
}

/// A registered player.
#[derive(Clone, Debug)]
pub struct Player {
    pub token: String,
}

/// A reply: the status, the body and how long the request took.
pub struct Reply {
    pub status: StatusCode,
    pub body: Value,
    pub took: Duration,
}

impl Api {
    pub fn new(url: &str) -> anyhow::Result<Api> {
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(1024)
            .timeout(Duration::from_secs(60))
            .build()
            .context("building the HTTP client")?;
        Ok(Api {
            http,
            base: format!("{}/v1", url.trim_end_matches('/')),
        })
    }

    /// Sends one request; a transport error is a reply with status 0... reported as an error.
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> anyhow::Result<Reply> {
        let mut req = self.http.request(method, format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(b);
        }
        let start = Instant::now();
        let resp = req
            .send()
            .await
            .with_context(|| format!("{path}: no response"))?;
        let status = resp.status();
        let bytes = resp
            .bytes()
            .await
            .with_context(|| format!("{path}: reading the body"))?;
        let took = start.elapsed();
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).unwrap_or(Value::Null)
        };
        Ok(Reply { status, body, took })
    }

    /// A call that must answer `want`; timed under `endpoint` (failures are counted, and
    /// returned as errors carrying the problem's title).
    pub async fn expect(
        &self,
        rec: &mut Recorder,
        endpoint: &'static str,
        want: StatusCode,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> anyhow::Result<Value> {
        let reply = match self.call(method, path, token, body).await {
            Ok(r) => r,
            Err(e) => {
                rec.error(endpoint, 0);
                return Err(e);
            }
        };
        if reply.status != want {
            rec.error(endpoint, reply.status.as_u16());
            bail!(
                "{endpoint}: {} {}",
                reply.status,
                reply
                    .body
                    .get("detail")
                    .or(reply.body.get("title"))
                    .unwrap_or(&reply.body)
            );
        }
        rec.record(endpoint, reply.took);
        Ok(reply.body)
    }

    pub async fn register(&self, rec: &mut Recorder, name: String) -> anyhow::Result<Player> {
        let body = json!({
            "email": format!("{name}@loadgen.invalid"),
            "password": "loadgen password",
            "display_name": name,
        });
        let reply = self
            .expect(
                rec,
                REGISTER,
                StatusCode::CREATED,
                Method::POST,
                "/auth/register",
                None,
                Some(&body),
            )
            .await?;
        let token = reply["token"]
            .as_str()
            .context("register: no token")?
            .to_string();
        Ok(Player { token })
    }

    /// Creates a game of `ruleset` with `players[0]` at seat 0 and seats the others in order
    /// (the last join starts it). Returns the game's id.
    pub async fn new_game(
        &self,
        rec: &mut Recorder,
        ruleset: &str,
        options: &Value,
        players: &[Player],
    ) -> anyhow::Result<String> {
        let body = json!({"ruleset": ruleset, "seats": players.len(), "options": options});
        let game = self
            .expect(
                rec,
                CREATE,
                StatusCode::CREATED,
                Method::POST,
                "/games",
                Some(&players[0].token),
                Some(&body),
            )
            .await?;
        let id = game["id"].as_str().context("create: no id")?.to_string();
        for (seat, p) in players.iter().enumerate().skip(1) {
            self.expect(
                rec,
                JOIN,
                StatusCode::OK,
                Method::POST,
                &format!("/games/{id}/join"),
                Some(&p.token),
                Some(&json!({"seat": seat})),
            )
            .await?;
        }
        Ok(id)
    }

    /// `GET /games/{id}/state` as `player`.
    pub async fn state(
        &self,
        rec: &mut Recorder,
        game: &str,
        player: &Player,
    ) -> anyhow::Result<Value> {
        self.expect(
            rec,
            STATE,
            StatusCode::OK,
            Method::GET,
            &format!("/games/{game}/state"),
            Some(&player.token),
            None,
        )
        .await
    }

    /// Submits `action` with `expected_version`; returns the reply (its `state` is the
    /// submitter's new state) and how long it took.
    pub async fn submit(
        &self,
        rec: &mut Recorder,
        game: &str,
        player: &Player,
        version: i64,
        action: &Value,
    ) -> anyhow::Result<(Value, Duration)> {
        let body = json!({"expected_version": version, "actions": [action]});
        let reply = self
            .call(
                Method::POST,
                &format!("/games/{game}/actions"),
                Some(&player.token),
                Some(&body),
            )
            .await;
        let reply = match reply {
            Ok(r) => r,
            Err(e) => {
                rec.error(SUBMIT, 0);
                return Err(e);
            }
        };
        if reply.status != StatusCode::OK {
            rec.error(SUBMIT, reply.status.as_u16());
            bail!("{SUBMIT}: {} {}", reply.status, reply.body);
        }
        rec.record(SUBMIT, reply.took);
        Ok((reply.body, reply.took))
    }
}

/// A state as a client reads it.
pub struct Seen {
    pub version: i64,
    pub finished: bool,
    pub to_act: Vec<usize>,
    /// The viewer's seat, and the legal actions offered to it.
    pub seat: Option<usize>,
    pub legal: Vec<Value>,
}

impl Seen {
    pub fn read(state: &Value) -> anyhow::Result<Seen> {
        let version = state["version"].as_i64().context("state: no version")?;
        let status = state["status"].as_str().unwrap_or_default();
        let seats = |v: &Value| -> Vec<usize> {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_u64())
                        .filter_map(|s| usize::try_from(s).ok())
                        .collect()
                })
                .unwrap_or_default()
        };
        Ok(Seen {
            version,
            finished: status != "active",
            to_act: seats(&state["to_act"]),
            seat: state["seat"].as_u64().and_then(|s| usize::try_from(s).ok()),
            legal: state["legal_actions"]
                .as_array()
                .map(|a| a.iter().map(|l| l["action"].clone()).collect())
                .unwrap_or_default(),
        })
    }

    /// The seat to act next (a random one of several) and whether this state already lists
    /// its actions.
    pub fn next_seat(&self, rng: &mut impl rand::Rng) -> Option<(usize, bool)> {
        let seat = *self.to_act.choose(rng)?;
        Some((seat, self.seat == Some(seat) && !self.legal.is_empty()))
    }

    pub fn pick(&self, rng: &mut impl rand::Rng) -> Option<Value> {
        if self.legal.is_empty() {
            return None;
        }
        let i = rng.random_range(0..self.legal.len());
        self.legal.get(i).cloned()
    }
}
