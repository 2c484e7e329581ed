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
pub const CONFIRM: &str = "POST /v1/auth/confirm";
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

/// The address the load generator registers player `name` with.
pub fn address_of(name: &str) -> String {
    format!("{name}@loadgen.invalid")
}

/// A registered player.
#[derive(Clone, Debug)]
pub struct Player {
    pub token: String,
}

/// A reply: the status, the raw body and how long the request took.
pub struct Reply {
    pub status: StatusCode,
    pub bytes: Vec<u8>,
    pub took: Duration,
}

impl Reply {
    /// The body as JSON (`null` if it is empty or not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.bytes).unwrap_or(Value::Null)
    }
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
            .with_context(|| format!("{path}: reading the body"))?
            .to_vec();
        let took = start.elapsed();
        Ok(Reply {
            status,
            bytes,
            took,
        })
    }

    /// A call that must answer `want`, timed under `endpoint` (failures are counted by
    /// status, and returned as errors carrying the problem's detail).
    #[allow(clippy::too_many_arguments)]
    pub async fn timed(
        &self,
        rec: &mut Recorder,
        endpoint: &'static str,
        want: StatusCode,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> anyhow::Result<Reply> {
        let reply = match self.call(method, path, token, body).await {
            Ok(r) => r,
            Err(e) => {
                rec.error(endpoint, 0);
                return Err(e);
            }
        };
        if reply.status != want {
            rec.error(endpoint, reply.status.as_u16());
            let body = reply.json();
            bail!(
                "{endpoint}: {} {}",
                reply.status,
                body.get("detail").or(body.get("title")).unwrap_or(&body)
            );
        }
        rec.record(endpoint, reply.took);
        Ok(reply)
    }

    /// Registers `name` (its address is `<name>@loadgen.invalid`); the account exists once
    /// [`Self::confirm`] has used the link mailed to it.
    pub async fn register(&self, rec: &mut Recorder, name: &str) -> anyhow::Result<()> {
        let body = json!({
            "email": address_of(name),
            "password": "loadgen password",
            "display_name": name,
        });
        self.timed(
            rec,
            REGISTER,
            StatusCode::ACCEPTED,
            Method::POST,
            "/auth/register",
            None,
            Some(&body),
        )
        .await?;
        Ok(())
    }

    /// Confirms a registration with the token of its mailed link: the account and its token.
    pub async fn confirm(&self, rec: &mut Recorder, token: &str) -> anyhow::Result<Player> {
        let reply = self
            .timed(
                rec,
                CONFIRM,
                StatusCode::CREATED,
                Method::POST,
                "/auth/confirm",
                None,
                Some(&json!({ "token": token })),
            )
            .await?
            .json();
        let token = reply["token"]
            .as_str()
            .context("confirm: no token")?
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
            .timed(
                rec,
                CREATE,
                StatusCode::CREATED,
                Method::POST,
                "/games",
                Some(&players[0].token),
                Some(&body),
            )
            .await?
            .json();
        let id = game["id"].as_str().context("create: no id")?.to_string();
        for (seat, p) in players.iter().enumerate().skip(1) {
            self.timed(
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
    ) -> anyhow::Result<Seen> {
        let path = format!("/games/{game}/state");
        let reply = self
            .timed(
                rec,
                STATE,
                StatusCode::OK,
                Method::GET,
                &path,
                Some(&player.token),
                None,
            )
            .await?;
        Seen::parse_state(&reply.bytes)
    }

    /// Submits `action` with `expected_version`; returns the submitter's new state and how
    /// long it took.
    pub async fn submit(
        &self,
        rec: &mut Recorder,
        game: &str,
        player: &Player,
        version: i64,
        action: &Value,
    ) -> anyhow::Result<(Seen, Duration)> {
        let body = json!({"expected_version": version, "actions": [action]});
        let path = format!("/games/{game}/actions");
        let reply = self
            .timed(
                rec,
                SUBMIT,
                StatusCode::OK,
                Method::POST,
                &path,
                Some(&player.token),
                Some(&body),
            )
            .await?;
        Ok((Seen::parse_submitted(&reply.bytes)?, reply.took))
    }
}

/// The fields of a state the client needs (serde skips the rest without building values).
#[derive(serde::Deserialize)]
struct StateFields {
    version: i64,
    status: String,
    #[serde(default)]
    to_act: Vec<usize>,
    seat: Option<usize>,
    #[serde(default)]
    legal_actions: Vec<LegalFields>,
}

#[derive(serde::Deserialize)]
struct LegalFields {
    action: Value,
}

/// A submission's reply: only its `state` is read.
#[derive(serde::Deserialize)]
struct SubmitFields {
    state: StateFields,
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
    fn from_fields(f: StateFields) -> Seen {
        Seen {
            version: f.version,
            finished: f.status != "active",
            to_act: f.to_act,
            seat: f.seat,
            legal: f.legal_actions.into_iter().map(|l| l.action).collect(),
        }
    }

    /// A state from the body of `GET …/state`.
    pub fn parse_state(body: &[u8]) -> anyhow::Result<Seen> {
        Ok(Seen::from_fields(
            serde_json::from_slice(body).context("reading a state")?,
        ))
    }

    /// The submitter's new state from the body of a submission's reply.
    pub fn parse_submitted(body: &[u8]) -> anyhow::Result<Seen> {
        let reply: SubmitFields =
            serde_json::from_slice(body).context("reading a submission's reply")?;
        Ok(Seen::from_fields(reply.state))
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
