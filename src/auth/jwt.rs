//! Signed tokens (HS256 JWTs): bearer tokens for sessions, and the signed links in mail
//! (email verification, one-click unsubscribe, invitations). Every token names its purpose,
//! and each check accepts only its own, so a link can never be used as a login.

use chrono::{DateTime, Utc};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// What a token is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    Session,
    VerifyEmail,
    Unsubscribe,
    Invitation,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    /// The user (sessions, verification, unsubscribe) or the invitation.
    pub sub: Uuid,
    pub iat: i64,
    pub exp: i64,
    /// Tokens without a purpose are refused.
    #[serde(default)]
    pub purpose: Option<Purpose>,
    /// The address a verification link confirms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

#[derive(Clone)]
pub struct Jwt {
    encoding: EncodingKey,
    decoding: DecodingKey,
    ttl_secs: i64,
}

impl Jwt {
    pub fn new(secret: &[u8], ttl_secs: i64) -> Self {
        Jwt {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            ttl_secs,
        }
    }

    /// A session token for `user`, valid from `now` for the configured lifetime.
    pub fn issue(&self, user: Uuid, now: DateTime<Utc>) -> anyhow::Result<(String, DateTime<Utc>)> {
        self.sign(Purpose::Session, user, None, now, self.ttl_secs)
    }

    /// A token for `purpose`, valid for `ttl_secs` from `now`.
    pub fn sign(
        &self,
        purpose: Purpose,
        sub: Uuid,
        email: Option<String>,
        now: DateTime<Utc>,
        ttl_secs: i64,
    ) -> anyhow::Result<(String, DateTime<Utc>)> {
        let expires_at = now + chrono::Duration::seconds(ttl_secs);
        let claims = Claims {
            sub,
            iat: now.timestamp(),
            exp: expires_at.timestamp(),
            purpose: Some(purpose),
            email,
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)?;
        Ok((token, expires_at))
    }

    /// The user of a valid, unexpired session token signed with our key.
    pub fn verify(&self, token: &str) -> Result<Uuid, jsonwebtoken::errors::Error> {
        self.check(Purpose::Session, token).map(|c| c.sub)
    }

    /// The claims of a valid, unexpired token of this purpose.
    pub fn check(
        &self,
        purpose: Purpose,
        token: &str,
    ) -> Result<Claims, jsonwebtoken::errors::Error> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub"]);
        let claims = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation)?.claims;
        if claims.purpose != Some(purpose) {
            return Err(jsonwebtoken::errors::ErrorKind::InvalidToken.into());
        }
        Ok(claims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_verify_only_with_the_key_and_before_expiry() {
        let jwt = Jwt::new(b"0123456789abcdef0123456789abcdef", 60);
        let user = Uuid::new_v4();
        let (token, _) = jwt.issue(user, Utc::now()).unwrap();
        assert_eq!(jwt.verify(&token).unwrap(), user);

        let other = Jwt::new(b"another key, another key, another", 60);
        assert!(other.verify(&token).is_err(), "forged signature");

        let (old, _) = jwt
            .issue(user, Utc::now() - chrono::Duration::seconds(120))
            .unwrap();
        assert!(jwt.verify(&old).is_err(), "expired");
        assert!(jwt.verify("not.a.token").is_err());
    }

    #[test]
    fn a_token_is_good_only_for_its_purpose() {
        let jwt = Jwt::new(b"0123456789abcdef0123456789abcdef", 60);
        let user = Uuid::new_v4();
        let (link, _) = jwt
            .sign(Purpose::Unsubscribe, user, None, Utc::now(), 600)
            .unwrap();
        assert!(
            jwt.verify(&link).is_err(),
            "an unsubscribe link is no login"
        );
        assert!(jwt.check(Purpose::VerifyEmail, &link).is_err());
        assert_eq!(jwt.check(Purpose::Unsubscribe, &link).unwrap().sub, user);
        let (session, _) = jwt.issue(user, Utc::now()).unwrap();
        assert!(jwt.check(Purpose::Unsubscribe, &session).is_err());
    }
}
