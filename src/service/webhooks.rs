//! Webhooks (issue 19, item 5): an account registers URLs that receive its `your-turn` and
//! `game-over` events as signed JSON `POST`s (`auth::webhooks`), queued in the transaction of
//! the move that caused them (`store::webhooks`) and delivered with retries by a worker
//! (`notify::webhooks`).
//!
//! A hook registered with an API token belongs to that token: revoking the token stops its
//! hooks. One registered from a session belongs to the account alone.
//!
//! Where a hook may point: `http` or `https`, no user name or password in the URL, and never
//! (unless `TURNPOST_WEBHOOK_ALLOW_PRIVATE`) a host that is the service's own or that resolves
//! to a loopback, private, link-local, unspecified or otherwise non-public address: checked at
//! registration, and again at every delivery after resolving the name (on the addresses the
//! connection then uses), so a name re-pointed later gains nothing.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;
use uuid::Uuid;

use super::streams::{GameOverNotice, TurnNotice};
use super::{Result, ServiceError, Services};
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
/// The longest URL.
pub const MAX_URL: usize = 2_000;

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

/// Checks the form of a hook's URL: `http` or `https`, a host, no user name or password, not
/// too long, and (unless `allow_private`) not an address literal that is not public, nor the
/// service's own host. The URL as it will be stored, or why it will not do.
pub fn check_url(
    url: &str,
    allow_private: bool,
    own_host: Option<&str>,
) -> std::result::Result<reqwest::Url, String> {
    let url = url.trim();
    if url.len() > MAX_URL {
        return Err(format!("the webhook URL is over {MAX_URL} characters"));
    }
    let parsed =
        reqwest::Url::parse(url).map_err(|e| format!("the webhook URL is not a URL ({e})"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err("the webhook URL must be http or https".into());
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(
            "the webhook URL must not carry a user name or password: check the signature instead"
                .into(),
        );
    }
    if parsed.fragment().is_some() {
        return Err("the webhook URL must not have a fragment (#...)".into());
    }
    let Some(host) = parsed.host_str().map(str::to_owned) else {
        return Err("the webhook URL has no host".into());
    };
    if allow_private {
        return Ok(parsed);
    }
    // The parser writes an address in its usual form (`http://2130706433/` is 127.0.0.1).
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let ip = bare.parse::<IpAddr>().ok();
    if ip.is_none() {
        let name = bare.trim_end_matches('.').to_ascii_lowercase();
        if name == "localhost" || name.ends_with(".localhost") {
            return Err("the webhook URL points at this machine (localhost)".into());
        }
        if own_host.is_some_and(|own| own.eq_ignore_ascii_case(&name)) {
            return Err("the webhook URL points at this service itself".into());
        }
    }
    if let Some(ip) = ip
        && let Some(why) = forbidden(ip)
    {
        return Err(format!("the webhook URL points at {why} address {ip}"));
    }
    Ok(parsed)
}

/// The addresses `url`'s host resolves to, or why a delivery may not go there: a name that
/// does not resolve, or (unless `allow_private`) one of whose addresses is not public.
pub async fn resolve(
    url: &reqwest::Url,
    allow_private: bool,
) -> std::result::Result<Vec<SocketAddr>, String> {
    let host = url.host_str().ok_or("has no host")?;
    let port = url.port_or_known_default().unwrap_or(443);
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host, port))
        .await
        .map_err(|e| format!("host {host:?} does not resolve ({e})"))?
        .collect();
    allowed(host, addrs, allow_private)
}

/// `addrs` if every one may be delivered to.
pub fn allowed(
    host: &str,
    addrs: Vec<SocketAddr>,
    allow_private: bool,
) -> std::result::Result<Vec<SocketAddr>, String> {
    if addrs.is_empty() {
        return Err(format!("host {host:?} has no address"));
    }
    if !allow_private
        && let Some((addr, why)) = addrs.iter().find_map(|a| Some((a, forbidden(a.ip())?)))
    {
        return Err(format!(
            "host {host:?} resolves to {why} address {}",
            addr.ip()
        ));
    }
    Ok(addrs)
}

/// What kind of non-public address `ip` is (loopback, private, link-local, unspecified,
/// shared, multicast, reserved, documentation), or `None` for a public one. IPv6 addresses that
/// carry an IPv4 one (mapped, compatible, NAT64, 6to4) are judged by it.
pub fn forbidden(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => forbidden_v6(v6),
    }
}

fn forbidden_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    Some(match (a, b, c) {
        (0, _, _) => "an unspecified (\"this network\")",
        (127, _, _) => "a loopback",
        (10, _, _) | (192, 168, _) => "a private",
        (172, b, _) if (16..32).contains(&b) => "a private",
        (169, 254, _) => "a link-local",
        (100, b, _) if (64..128).contains(&b) => "a shared (carrier-grade NAT)",
        (192, 0, 0) => "an IETF protocol",
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "a documentation",
        (198, 18 | 19, _) => "a benchmarking",
        (224..=239, _, _) => "a multicast",
        (240..=255, _, _) => "a reserved or broadcast",
        _ => return None,
    })
}

fn forbidden_v6(ip: Ipv6Addr) -> Option<&'static str> {
    if ip.is_unspecified() {
        return Some("an unspecified");
    }
    if ip.is_loopback() {
        return Some("a loopback");
    }
    if let Some(v4) = ip.to_ipv4_mapped() {
        return forbidden_v4(v4);
    }
    let s = ip.segments();
    match s[0] {
        0 if s[1..6] == [0; 5] => forbidden_v4(embedded_v4(s[6], s[7])).or(Some("a reserved")),
        0x0064 if s[1] == 0xff9b => forbidden_v4(embedded_v4(s[6], s[7])),
        0x2002 => forbidden_v4(embedded_v4(s[1], s[2])),
        0x2001 if s[1] == 0x0db8 => Some("a documentation"),
        x if x & 0xfe00 == 0xfc00 => Some("a private (unique local)"),
        x if x & 0xffc0 == 0xfe80 => Some("a link-local"),
        x if x & 0xffc0 == 0xfec0 => Some("a site-local"),
        x if x & 0xff00 == 0xff00 => Some("a multicast"),
        _ => None,
    }
}

fn embedded_v4(hi: u16, lo: u16) -> Ipv4Addr {
    let [a, b] = hi.to_be_bytes();
    let [c, d] = lo.to_be_bytes();
    Ipv4Addr::new(a, b, c, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn only_public_addresses_are_allowed() {
        for refused in [
            "127.0.0.1",
            "127.5.6.7",
            "0.0.0.0",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "ff02::1",
            "2001:db8::1",
        ] {
            assert!(forbidden(ip(refused)).is_some(), "{refused} is not public");
        }
        for public in [
            "1.1.1.1",
            "8.8.8.8",
            "172.15.0.1",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700:4700::1111",
            "::ffff:8.8.8.8",
            "2002:0808:0808::",
        ] {
            assert_eq!(forbidden(ip(public)), None, "{public} is public");
        }
    }

    #[test]
    fn urls_must_be_web_urls_to_public_hosts_unless_allowed() {
        let own = Some("turnpost.example");
        let refused = [
            ("ftp://example.com/hook", "http or https"),
            ("not a url", "not a URL"),
            ("https://user:pw@example.com/hook", "user name or password"),
            ("http://127.0.0.1:8080/hook", "loopback"),
            ("http://[::1]/hook", "loopback"),
            ("http://10.0.0.5/hook", "private"),
            ("http://169.254.169.254/latest/meta-data", "link-local"),
            ("http://0.0.0.0/", "unspecified"),
            ("http://localhost:9000/", "localhost"),
            ("http://api.localhost/", "localhost"),
            ("https://TurnPost.example/v1/games", "this service itself"),
            ("http://2130706433/", "loopback"),
        ];
        for (url, why) in refused {
            let err = check_url(url, false, own).unwrap_err();
            assert!(err.contains(why), "{url}: {err}");
        }
        assert!(check_url("https://hooks.example.com/turnpost?x=1", false, own).is_ok());
        // Allowed by the configuration: loopback for tests, a private network.
        assert!(check_url("http://127.0.0.1:8080/hook", true, own).is_ok());
        assert!(check_url("ftp://127.0.0.1/", true, own).is_err());
    }

    #[test]
    fn every_resolved_address_must_be_public() {
        let public: SocketAddr = "93.184.216.34:443".parse().unwrap();
        let private: SocketAddr = "10.0.0.1:443".parse().unwrap();
        assert_eq!(allowed("h", vec![public], false).unwrap(), vec![public]);
        let err = allowed("h", vec![public, private], false).unwrap_err();
        assert!(err.contains("private address 10.0.0.1"), "{err}");
        assert!(allowed("h", vec![public, private], true).is_ok());
        assert!(allowed("h", vec![], true).is_err());
    }
}
