//! Bearer tokens: HS256 JWTs carrying the user id.

use chrono::{DateTime, Utc};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    pub sub: Uuid,
    pub iat: i64,
    pub exp: i64,
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

    /// A token for `user`, valid from `now` for the configured lifetime.
    pub fn issue(&self, user: Uuid, now: DateTime<Utc>) -> anyhow::Result<(String, DateTime<Utc>)> {
        let expires_at = now + chrono::Duration::seconds(self.ttl_secs);
        let claims = Claims {
            sub: user,
            iat: now.timestamp(),
            exp: expires_at.timestamp(),
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)?;
        Ok((token, expires_at))
    }

    /// The user of a valid, unexpired token signed with our key.
    pub fn verify(&self, token: &str) -> Result<Uuid, jsonwebtoken::errors::Error> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub"]);
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation).map(|d| d.claims.sub)
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
}
