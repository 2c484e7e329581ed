//! Webhooks (issue 19, item 5): an account registers URLs that receive its `your-turn` and
//! `game-over` events as signed JSON `POST`s (`auth::webhooks`), queued in the transaction of
//! the move that caused them (`store::webhooks`) and delivered with retries by a worker
//! (`notify::webhooks`).
//!
//! A hook registered with an API token belongs to that token: revoking the token stops its
//! hooks. One registered from a session belongs to the account alone.
//!
//! Where a hook may point (`notify::webhook_urls`): `http` or `https`, no user name or password
//! in the URL, and never (unless `TURNPOST_WEBHOOK_ALLOW_PRIVATE`) a host that is the service's
//! own or that resolves to a loopback, private, link-local, unspecified or otherwise non-public
//! address: checked at registration, and again at every delivery after resolving the name (on
//! the addresses the connection then uses), so a name re-pointed later gains nothing.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;
use uuid::Uuid;

use super::views::{GameOverNotice, TurnNotice};
use super::{Result, ServiceError, Services};
use crate::notify::webhook_urls::{check_url, resolve};
use crate::notify::{Compose, Notice};
use crate::store;
use crate::store::models::{Game, SeatPlayer};
use crate::store::webhooks::{Delivery, NewWebhook, Webhook};

/// What a hook may subscribe to: the account stream's notices of the same names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum Event {
    /// A game waits on the account (as the `your-turn` of `GET /v1/me/stream`).
    #[serde(rename = "your-turn")]
    YourTurn,
    /// A game of the account's has ended (as the stream's `game-over`).
    #[serde(rename = "game-over")]
    GameOver,
}

impl Event {
    pub const ALL: [Event; 2] = [Event::YourTurn, Event::GameOver];

    pub fn as_str(self) -> &'static str {
        match self {
            Event::YourTurn => "your-turn",
            Event::GameOver => "game-over",
        }
    }

    fn parse(s: &str) -> Option<Event> {
        Event::ALL.into_iter().find(|e| e.as_str() == s)
    }
}

/// What the webhook use cases need from the configuration.
#[derive(Clone)]
pub struct WebhookConfig {
    /// The key hook secrets are derived from (`auth::webhooks`).
    pub key: Arc<[u8]>,
    /// Whether hooks may point at non-public addresses and at the service itself.
    pub allow_private: bool,
    /// The service's own host (of `TURNPOST_PUBLIC_URL`), refused as a hook's host.
    pub own_host: Option<String>,
}

/// A hook as its owner sees it (never its secret, but at its making).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct WebhookView {
    pub id: Uuid,
    pub url: String,
    pub events: Vec<Event>,
    /// The API token that registered it (revoking the token stops the hook); `null` if it was
    /// registered from a session.
    pub token: Option<Uuid>,
    /// Whether events are queued for it: false once the token that registered it is revoked.
    pub active: bool,
    pub created_at: DateTime<Utc>,
    /// The last successful delivery; `null` if none.
    pub last_delivery_at: Option<DateTime<Utc>>,
    /// The last failed attempt; `null` if none.
    pub last_failure_at: Option<DateTime<Utc>>,
    /// Deliveries answered with a 2xx.
    pub delivered: i64,
    /// Attempts that failed (each retried until the attempts run out).
    pub failed_attempts: i64,
    /// Deliveries given up after their last attempt failed.
    pub given_up: i64,
}

/// A hook just registered: the only time its secret is shown.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct NewWebhookView {
    #[serde(flatten)]
    pub webhook: WebhookView,
    /// The signing secret: the key of the HMAC-SHA256 in each delivery's `Turnpost-Signature`
    /// header. It is not shown again.
    pub secret: String,
}

// Stored in `webhook_deliveries.status`, whose `CHECK` constraint allows exactly these.
/// Where a delivery stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatus {
    /// To be tried, or tried again, at `next_attempt_at`.
    Pending,
    /// The endpoint answered 2xx.
    Delivered,
    /// Given up after the last attempt.
    Failed,
    /// Not sent: the hook's token was revoked.
    Dropped,
}

/// One delivery of an event to a hook.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct DeliveryView {
    pub id: i64,
    /// The event's id, also sent as the `Turnpost-Event-Id` header (the same in every attempt).
    pub event_id: Uuid,
    pub event: Event,
    #[schema(value_type = DeliveryStatus)]
    pub status: String,
    pub attempts: i32,
    pub created_at: DateTime<Utc>,
    /// When it will be tried (again); `null` unless pending.
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub delivered_at: Option<DateTime<Utc>>,
    /// The HTTP status of the last answer; `null` if there was none.
    pub last_status: Option<i32>,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    /// The JSON body sent.
    #[schema(value_type = Object)]
    pub payload: Value,
}

/// The body of a delivery (`POST`ed as JSON to the hook's URL).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct WebhookPayload {
    /// The event's id, also in the `Turnpost-Event-Id` header: the same in every attempt, so a
    /// receiver drops an id it has handled.
    pub id: Uuid,
    /// `your-turn` or `game-over`, also in the `Turnpost-Event` header.
    #[serde(rename = "type")]
    pub kind: Event,
    /// When the move that caused it was committed.
    pub created_at: DateTime<Utc>,
    /// A `TurnNotice` for `your-turn`, a `GameOverNotice` for `game-over` (what the account
    /// stream sends).
    #[schema(value_type = Object)]
    pub data: Value,
}

/// The most hooks an account may have.
pub const MAX_HOOKS: i64 = 10;

fn view(hook: &Webhook, revoked: bool) -> WebhookView {
    WebhookView {
        id: hook.id,
        url: hook.url.clone(),
        events: hook.events.iter().filter_map(|e| Event::parse(e)).collect(),
        token: hook.token_id,
        active: !revoked,
        created_at: hook.created_at,
        last_delivery_at: hook.last_delivery_at,
        last_failure_at: hook.last_failure_at,
        delivered: hook.delivered,
        failed_attempts: hook.failed_attempts,
        given_up: hook.given_up,
    }
}

fn delivery_view(d: Delivery) -> DeliveryView {
    DeliveryView {
        id: d.id,
        event_id: d.event_id,
        event: Event::parse(&d.event).unwrap_or(Event::YourTurn),
        next_attempt_at: (d.status == "pending").then_some(d.next_attempt_at),
        status: d.status,
        attempts: d.attempts,
        created_at: d.created_at,
        delivered_at: d.delivered_at,
        last_status: d.last_status,
        last_error: d.last_error,
        payload: d.payload,
    }
}

/// Registers a hook for `user` (through the API token `token`, if any) at `url` for `events`
/// (all of them when empty): the hook and its secret, shown this once.
pub async fn create(
    svc: &Services,
    user: Uuid,
    token: Option<Uuid>,
    url: &str,
    events: &[Event],
) -> Result<NewWebhookView> {
    let cfg = &svc.webhooks;
    let parsed = check_url(url, cfg.allow_private, cfg.own_host.as_deref())
        .map_err(ServiceError::Invalid)?;
    if !cfg.allow_private {
        resolve(&parsed, false)
            .await
            .map_err(|why| ServiceError::Invalid(format!("the webhook URL {why}")))?;
    }
    let wanted: Vec<String> = Event::ALL
        .into_iter()
        .filter(|e| events.is_empty() || events.contains(e))
        .map(|e| e.as_str().to_owned())
        .collect();
    let mut conn = svc.conn().await?;
    if store::webhooks::count(&mut conn, user).await? >= MAX_HOOKS {
        return Err(ServiceError::NotNow(format!(
            "an account may have {MAX_HOOKS} webhooks: delete one first"
        )));
    }
    let id = Uuid::new_v4();
    let salt: [u8; 32] = rand::random();
    let row = store::webhooks::insert(
        &mut conn,
        NewWebhook {
            id,
            user_id: user,
            token_id: token,
            url: parsed.as_str(),
            events: &wanted,
            secret_salt: &salt,
        },
    )
    .await?;
    Ok(NewWebhookView {
        webhook: view(&row, false),
        secret: crate::auth::webhooks::secret(&cfg.key, id, &salt),
    })
}

/// A page of the account's hooks, newest first, and the cursor of the next page.
pub async fn list(
    svc: &Services,
    user: Uuid,
    cursor: Option<&str>,
    limit: i64,
) -> Result<(Vec<WebhookView>, Option<String>)> {
    let before = cursor.map(super::cursor::decode).transpose()?;
    let mut conn = svc.conn().await?;
    let rows = store::webhooks::of_user(&mut conn, user, before, limit + 1).await?;
    let (page, next) = super::cursor::page(rows, limit, |(h, _): &(Webhook, bool)| {
        super::cursor::encode(h.created_at, h.id)
    });
    Ok((page.iter().map(|(h, r)| view(h, *r)).collect(), next))
}

/// Deletes the account's hook `id`, with its queued deliveries.
pub async fn delete(svc: &Services, user: Uuid, id: Uuid) -> Result<()> {
    let mut conn = svc.conn().await?;
    if store::webhooks::delete(&mut conn, user, id).await? {
        Ok(())
    } else {
        Err(ServiceError::NotFound("webhook"))
    }
}

/// A page of the deliveries of the account's hook `id`, newest first, and the cursor of the
/// next page.
pub async fn deliveries(
    svc: &Services,
    user: Uuid,
    id: Uuid,
    cursor: Option<&str>,
    limit: i64,
) -> Result<(Vec<DeliveryView>, Option<String>)> {
    let before = super::cursor::decode_seq(cursor)?;
    let mut conn = svc.conn().await?;
    store::webhooks::get(&mut conn, user, id)
        .await?
        .ok_or(ServiceError::NotFound("webhook"))?;
    let rows = store::webhooks::deliveries(&mut conn, id, before, limit + 1).await?;
    let (page, next) = super::cursor::page(rows, limit, |d: &Delivery| d.id.to_string());
    Ok((page.into_iter().map(delivery_view).collect(), next))
}

/// The webhook events of a committed change of `game` (its fields as committed), for the
/// game mail `notices` it queues: each `your-turn` and `game-over`, once per account, as a
/// JSON array for `turnpost_queue_webhooks`. The mail preferences play no part: an account
/// with a hook wants its events whatever mail it takes.
pub fn events_json(
    game: &Game,
    players: &[SeatPlayer],
    notices: &[(i32, Compose)],
    at: DateTime<Utc>,
) -> Result<String> {
    let mut events: Vec<Value> = vec![];
    let mut seen: Vec<(Uuid, Event)> = vec![];
    for (seat, compose) in notices {
        let kind = match compose.notice {
            Notice::YourTurn => Event::YourTurn,
            Notice::GameOver => Event::GameOver,
            _ => continue,
        };
        let Some(player) = players.iter().find(|p| p.seat == *seat) else {
            continue;
        };
        if seen.contains(&(player.user_id, kind)) {
            continue;
        }
        seen.push((player.user_id, kind));
        let data = match kind {
            Event::YourTurn => serde_json::to_value(TurnNotice {
                game: game.id,
                ruleset: game.ruleset.clone(),
                version: game.version,
                seat: *seat,
            }),
            Event::GameOver => serde_json::to_value(GameOverNotice {
                game: game.id,
                ruleset: game.ruleset.clone(),
                version: game.version,
                status: game.status.clone(),
                outcome: game.outcome.clone(),
            }),
        }
        .map_err(anyhow::Error::from)?;
        let id = Uuid::new_v4();
        let payload = WebhookPayload {
            id,
            kind,
            created_at: at,
            data,
        };
        events.push(json!({
            "user_id": player.user_id,
            "event_id": id,
            "event": kind.as_str(),
            "payload": payload,
        }));
    }
    Ok(serde_json::to_string(&events).map_err(anyhow::Error::from)?)
}
