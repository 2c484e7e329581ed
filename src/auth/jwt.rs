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
    /// A link in mail that signs its recipient in to the web pages.
    SignIn,
    /// The web pages' session cookie.
    WebSession,
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
    /// Sessions (API and web): the account's token version when the token was issued; the
    /// token is good only while the account keeps it (logout and a new password raise it).
    /// A session token without one (issued before versions existed) is version 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ver: Option<i32>,
}

/// Who a valid session token is for, and the token version it was issued under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Session {
    pub user: Uuid,
    pub version: i32,
}

#[derive(Clone)]
pub struct Jwt {
    encoding: EncodingKey,
    decoding: DecodingKey,
    /// The same secret, for the HMACs that are not JWTs (the web forms' CSRF tokens).
    mac_key: std::sync::Arc<[u8]>,
    ttl_secs: i64,
}

impl Jwt {
    pub fn new(secret: &[u8], ttl_secs: i64) -> Self {
        Jwt {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            mac_key: secret.into(),
            ttl_secs,
        }
    }

    /// A session token for `user` at its token version `version`, valid from `now` for the
    /// configured lifetime.
    pub fn issue(
        &self,
        user: Uuid,
        version: i32,
        now: DateTime<Utc>,
    ) -> anyhow::Result<(String, DateTime<Utc>)> {
        self.session(Purpose::Session, user, version, now, self.ttl_secs)
    }

    /// A session token of `purpose` (`Session` or `WebSession`) for `user` at its token
    /// version `version`, valid for `ttl_secs` from `now`.
    pub fn session(
        &self,
        purpose: Purpose,
        user: Uuid,
        version: i32,
        now: DateTime<Utc>,
        ttl_secs: i64,
    ) -> anyhow::Result<(String, DateTime<Utc>)> {
        self.encode(purpose, user, None, Some(version), now, ttl_secs)
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
        self.encode(purpose, sub, email, None, now, ttl_secs)
    }

    fn encode(
        &self,
        purpose: Purpose,
        sub: Uuid,
        email: Option<String>,
        ver: Option<i32>,
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
            ver,
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)?;
        Ok((token, expires_at))
    }

    /// The user and token version of a valid, unexpired session token of `purpose`
    /// (`Session` or `WebSession`) signed with our key. Whether the version is still the
    /// account's is for the caller to check (`service::sessions`).
    pub fn verify_session(
        &self,
        purpose: Purpose,
        token: &str,
    ) -> Result<Session, jsonwebtoken::errors::Error> {
        self.check(purpose, token).map(|c| Session {
            user: c.sub,
            version: c.ver.unwrap_or(0),
        })
    }

    /// The user and token version of a valid, unexpired API session token.
    pub fn verify(&self, token: &str) -> Result<Session, jsonwebtoken::errors::Error> {
        self.verify_session(Purpose::Session, token)
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

    /// The claims of a token of this purpose signed with our key, expired or not: whom an
    /// expired sign-in link was for, to offer them a fresh one. Never grants anything.
    pub fn check_signature(&self, purpose: Purpose, token: &str) -> Option<Claims> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.validate_exp = false;
        validation.set_required_spec_claims(&["sub"]);
        let claims = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation)
            .ok()?
            .claims;
        (claims.purpose == Some(purpose)).then_some(claims)
    }

    /// A keyed MAC of `data` under `label` (lower-case hex, 128 bits): unforgeable without the
    /// secret, so a value echoed back by a form proves it came from our page.
    pub fn mac(&self, label: &str, data: &str) -> String {
        use hmac::{KeyInit, Mac};
        let Ok(mut mac) = hmac::Hmac::<sha2::Sha256>::new_from_slice(&self.mac_key) else {
            return String::new();
        };
        mac.update(label.as_bytes());
        mac.update(&[0]);
        mac.update(data.as_bytes());
        hex::encode(&mac.finalize().into_bytes()[..16])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_verify_only_with_the_key_and_before_expiry() {
        let jwt = Jwt::new(b"0123456789abcdef0123456789abcdef", 60);
        let user = Uuid::new_v4();
        let (token, _) = jwt.issue(user, 3, Utc::now()).unwrap();
        assert_eq!(jwt.verify(&token).unwrap(), Session { user, version: 3 });

        let other = Jwt::new(b"another key, another key, another", 60);
        assert!(other.verify(&token).is_err(), "forged signature");

        let (old, _) = jwt
            .issue(user, 0, Utc::now() - chrono::Duration::seconds(120))
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
        assert!(
            jwt.verify_session(Purpose::WebSession, &link).is_err(),
            "an unsubscribe link is no web session"
        );
        let (session, _) = jwt.issue(user, 0, Utc::now()).unwrap();
        assert!(jwt.check(Purpose::Unsubscribe, &session).is_err());
        let (sign_in, _) = jwt
            .sign(Purpose::SignIn, user, None, Utc::now(), 600)
            .unwrap();
        assert!(
            jwt.verify(&sign_in).is_err(),
            "a sign-in link is no API login"
        );
        assert!(jwt.check(Purpose::WebSession, &sign_in).is_err());
    }

    #[test]
    fn an_expired_link_still_names_its_user_but_a_forged_one_does_not() {
        let jwt = Jwt::new(b"0123456789abcdef0123456789abcdef", 60);
        let user = Uuid::new_v4();
        let past = Utc::now() - chrono::Duration::seconds(3600);
        let (old, _) = jwt.sign(Purpose::SignIn, user, None, past, 60).unwrap();
        assert!(jwt.check(Purpose::SignIn, &old).is_err(), "expired");
        assert_eq!(
            jwt.check_signature(Purpose::SignIn, &old).unwrap().sub,
            user
        );
        assert!(jwt.check_signature(Purpose::WebSession, &old).is_none());
        let other = Jwt::new(b"another key, another key, another", 60);
        assert!(other.check_signature(Purpose::SignIn, &old).is_none());
    }

    #[test]
    fn macs_depend_on_key_label_and_data() {
        let jwt = Jwt::new(b"0123456789abcdef0123456789abcdef", 60);
        let other = Jwt::new(b"another key, another key, another", 60);
        let m = jwt.mac("csrf", "abc");
        assert_eq!(m.len(), 32);
        assert_eq!(m, jwt.mac("csrf", "abc"));
        assert_ne!(m, jwt.mac("csrf", "abd"));
        assert_ne!(m, jwt.mac("csrg", "abc"));
        assert_ne!(m, other.mac("csrf", "abc"));
    }
}
