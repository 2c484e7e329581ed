//! Personal API tokens (issue 19): for bots and tools, made, listed and revoked by their
//! owner. A token is `tp_<id>_<secret>`: the id (32 hex digits) finds its row, the secret (256
//! random bits, base64url) proves it; only the secret's SHA-256 is stored, so the token is
//! shown once, when it is made. Each token has scopes: `read` (every GET), `play` (creating,
//! joining and playing games, table talk, invitations) and `account` (the account's settings
//! and its tokens). A revoked token is refused at its next request, in every process: each
//! request reads its row.
//!
//! Tokens are independent of sessions: logging out or changing the password ends sessions,
//! not tokens (revoke those one by one).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use uuid::Uuid;

use super::{Result, ServiceError, Services};
use crate::store;
use crate::store::api_tokens::{ApiToken, NewApiToken};

/// What a token may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Every `GET`: games, their state and log, the account's lists and settings.
    Read,
    /// Changes to games: create, join, submit actions, resign, table talk, invitations.
    Play,
    /// The account: its settings, password, verification mail, logout, its tokens and its
    /// webhooks.
    Account,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Read, Scope::Play, Scope::Account];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Play => "play",
            Scope::Account => "account",
        }
    }

    fn parse(s: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// The scope a request needs: the account's tokens and webhooks, and any change under
    /// `/v1/me` or `/v1/auth`, need `account`; any other `GET` or `HEAD`, and a preview of
    /// actions (which changes nothing), needs `read`; any other change needs `play`.
    pub fn needed(method: &str, path: &str) -> Scope {
        let reading = matches!(method, "GET" | "HEAD");
        let own = |base: &str| {
            path.strip_prefix(base)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        };
        if own("/v1/me/tokens") || own("/v1/me/webhooks") {
            Scope::Account
        } else if reading || (method == "POST" && path.ends_with("/actions/preview")) {
            // A preview changes nothing: reading.
            Scope::Read
        } else if path.starts_with("/v1/me") || path.starts_with("/v1/auth/") {
            Scope::Account
        } else {
            Scope::Play
        }
    }
}

/// The scopes a caller holds: every scope for a session, a token's own otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scopes(u8);

impl Scopes {
    pub const EVERY: Scopes = Scopes(0b111);

    fn bit(scope: Scope) -> u8 {
        1 << (scope as u8)
    }

    pub fn of(scopes: &[Scope]) -> Scopes {
        Scopes(scopes.iter().fold(0, |bits, s| bits | Scopes::bit(*s)))
    }

    pub fn allows(self, scope: Scope) -> bool {
        self.0 & Scopes::bit(scope) != 0
    }

    pub fn contains(self, other: Scopes) -> bool {
        self.0 & other.0 == other.0
    }
}

/// A token as its owner sees it (never its secret, but at its making).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ApiTokenView {
    pub id: Uuid,
    /// What its owner called it.
    pub name: String,
    pub scopes: Vec<Scope>,
    pub created_at: DateTime<Utc>,
    /// Its latest use, to the minute; `null` if never used.
    pub last_used_at: Option<DateTime<Utc>>,
    /// When it was revoked; `null` while it works.
    pub revoked_at: Option<DateTime<Utc>>,
}

/// A token just made: the only time its secret is shown.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct NewApiTokenView {
    #[serde(flatten)]
    pub token: ApiTokenView,
    /// The token, to send as `Authorization: Bearer <token>`. It is not shown again.
    pub secret: String,
}

/// The most tokens an account may have at once (revoked ones not counted).
pub const MAX_LIVE: i64 = 20;
/// The longest name.
pub const MAX_NAME: usize = 100;

const PREFIX: &str = "tp_";

pub fn is_api_token(bearer: &str) -> bool {
    bearer.starts_with(PREFIX)
}

fn digest(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

fn view(t: &ApiToken) -> ApiTokenView {
    ApiTokenView {
        id: t.id,
        name: t.name.clone(),
        scopes: t.scopes.iter().filter_map(|s| Scope::parse(s)).collect(),
        created_at: t.created_at,
        last_used_at: t.last_used_at,
        revoked_at: t.revoked_at,
    }
}

/// Makes a token for `user` named `name` with `scopes`; a caller that is itself a token
/// (`caller`) can give no scope it lacks.
pub async fn create(
    svc: &Services,
    user: Uuid,
    caller: Scopes,
    name: &str,
    scopes: &[Scope],
) -> Result<NewApiTokenView> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME {
        return Err(ServiceError::Invalid(format!(
            "name the token in 1 to {MAX_NAME} characters, without control characters"
        )));
    }
    if let Some(why) = crate::notify::names::refused(name) {
        return Err(ServiceError::Invalid(format!(
            "a token's name may not contain {why}"
        )));
    }
    let mut wanted: Vec<Scope> = Scope::ALL
        .into_iter()
        .filter(|s| scopes.contains(s))
        .collect();
    wanted.dedup();
    if wanted.is_empty() {
        return Err(ServiceError::Invalid(
            "give the token at least one scope: read, play or account".into(),
        ));
    }
    if !caller.contains(Scopes::of(&wanted)) {
        return Err(ServiceError::InsufficientScope(
            "a token cannot make a token with a scope it does not have itself".into(),
        ));
    }
    let mut conn = svc.conn().await?;
    if store::api_tokens::live_count(&mut conn, user).await? >= MAX_LIVE {
        return Err(ServiceError::NotNow(format!(
            "an account may have {MAX_LIVE} tokens at once: revoke one first"
        )));
    }
    let id = Uuid::new_v4();
    let secret = format!(
        "{PREFIX}{}_{}",
        id.simple(),
        data_encoding::BASE64URL_NOPAD.encode(&rand::random::<[u8; 32]>())
    );
    let names: Vec<String> = wanted.iter().map(|s| s.as_str().to_owned()).collect();
    let row = store::api_tokens::insert(
        &mut conn,
        NewApiToken {
            id,
            user_id: user,
            name,
            scopes: &names,
            secret_sha256: &digest(&secret),
        },
    )
    .await?;
    Ok(NewApiTokenView {
        token: view(&row),
        secret,
    })
}

/// A page of the account's tokens, newest first, and the cursor of the next page.
pub async fn list(
    svc: &Services,
    user: Uuid,
    cursor: Option<&str>,
    limit: i64,
) -> Result<(Vec<ApiTokenView>, Option<String>)> {
    let before = cursor.map(super::cursor::decode).transpose()?;
    let mut conn = svc.conn().await?;
    let rows = store::api_tokens::of_user(&mut conn, user, before, limit + 1).await?;
    let (page, next) = super::cursor::page(rows, limit, |t: &ApiToken| {
        super::cursor::encode(t.created_at, t.id)
    });
    Ok((page.iter().map(view).collect(), next))
}

/// Revokes the account's token `id` (at once, in every process).
pub async fn revoke(svc: &Services, user: Uuid, id: Uuid) -> Result<()> {
    let mut conn = svc.conn().await?;
    if store::api_tokens::revoke(&mut conn, user, id).await? {
        Ok(())
    } else {
        Err(ServiceError::NotFound("token"))
    }
}

/// The account and scopes of a bearer token of this kind, and the token's id, if it is one of
/// ours and not revoked; its use is recorded (to the minute).
pub async fn authenticate(svc: &Services, bearer: &str) -> Result<(Uuid, Scopes, Uuid)> {
    let bad = || ServiceError::BadToken("this API token is not valid (revoked, or never made)");
    let id = bearer
        .strip_prefix(PREFIX)
        .and_then(|rest| rest.split_once('_'))
        .and_then(|(id, _)| Uuid::try_parse(id).ok())
        .ok_or_else(bad)?;
    let mut conn = svc.conn().await?;
    let token = store::api_tokens::get(&mut conn, id)
        .await?
        .ok_or_else(bad)?;
    // The secret is 256 random bits: comparing digests leaks nothing worth a timing attack.
    if token.revoked_at.is_some() || token.secret_sha256 != digest(bearer) {
        return Err(bad());
    }
    store::api_tokens::touch(&mut conn, id).await?;
    let scopes: Vec<Scope> = token
        .scopes
        .iter()
        .filter_map(|s| Scope::parse(s))
        .collect();
    Ok((token.user_id, Scopes::of(&scopes), token.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_request_needs_the_scope_its_method_and_path_say() {
        for (method, path, scope) in [
            ("GET", "/v1/games/x/state", Scope::Read),
            ("HEAD", "/v1/me/turns", Scope::Read),
            ("GET", "/v1/me/preferences", Scope::Read),
            ("POST", "/v1/games/x/actions", Scope::Play),
            ("POST", "/v1/games", Scope::Play),
            ("POST", "/v1/invitations/accept", Scope::Play),
            ("PUT", "/v1/me/preferences", Scope::Account),
            ("POST", "/v1/me/password", Scope::Account),
            ("POST", "/v1/auth/logout", Scope::Account),
            ("GET", "/v1/me/tokens", Scope::Account),
            ("DELETE", "/v1/me/tokens/x", Scope::Account),
            ("GET", "/v1/me/webhooks", Scope::Account),
            ("GET", "/v1/me/webhooks/x/deliveries", Scope::Account),
            ("POST", "/v1/me/webhooks", Scope::Account),
            ("DELETE", "/v1/me/webhooks/x", Scope::Account),
            ("GET", "/v1/me/webhooksx", Scope::Read),
            ("POST", "/v1/games/x/actions/preview", Scope::Read),
            ("POST", "/v1/games/x/actions", Scope::Play),
            ("PUT", "/v1/games/x/orders", Scope::Play),
        ] {
            assert_eq!(Scope::needed(method, path), scope, "{method} {path}");
        }
    }

    #[test]
    fn scopes_allow_what_they_hold_and_no_more() {
        let play = Scopes::of(&[Scope::Read, Scope::Play]);
        assert!(play.allows(Scope::Read) && play.allows(Scope::Play));
        assert!(!play.allows(Scope::Account));
        assert!(Scopes::EVERY.contains(play));
        assert!(!play.contains(Scopes::of(&[Scope::Account])));
        assert!(play.contains(Scopes::of(&[Scope::Play])));
    }
}
