//! Webhook secrets and signatures.
//!
//! Each hook has its own signing secret, `whsec_` and 43 base64url characters (256 bits). The
//! server must compute HMACs with it, so a hash of it would not do; it is not stored either:
//! it is HMAC-SHA256(key, "turnpost webhook secret v1" || hook id || salt), where the salt (32
//! random bytes) is stored with the hook and the key is the server's webhook key
//! (`TURNPOST_WEBHOOK_KEY`, or derived from the JWT key). Whoever reads the database alone
//! learns no secret.
//!
//! A delivery carries `Turnpost-Signature: t=<unix seconds>,v1=<hex>`, where the hex is
//! HMAC-SHA256 under the secret (its text, as shown, as the key) of `<t>.<body>`: the scheme of
//! Stripe's `Stripe-Signature`. The receiver recomputes it, compares in constant time, and
//! refuses a `t` far from its own clock (a replayed request).

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use uuid::Uuid;

type HmacSha256 = Hmac<Sha256>;

/// What every secret starts with.
pub const SECRET_PREFIX: &str = "whsec_";

/// The header that carries the signature.
pub const SIGNATURE_HEADER: &str = "Turnpost-Signature";

/// An HMAC-SHA256 of `parts` under `key` (HMAC takes keys of any length).
#[allow(clippy::expect_used)]
fn hmac(key: &[u8], parts: &[&[u8]]) -> HmacSha256 {
    let mut mac = <HmacSha256 as KeyInit>::new_from_slice(key).expect("HMAC takes any key length");
    for part in parts {
        mac.update(part);
    }
    mac
}

/// The webhook key derived from the JWT key, when none is configured.
pub fn derive_key(jwt_key: &[u8]) -> [u8; 32] {
    let mut key = [0u8; 32];
    key.copy_from_slice(
        &hmac(jwt_key, &[b"turnpost webhook key v1"])
            .finalize()
            .into_bytes(),
    );
    key
}

/// The signing secret of hook `id` with `salt`, under the server's webhook `key`.
pub fn secret(key: &[u8], id: Uuid, salt: &[u8]) -> String {
    let mac = hmac(key, &[b"turnpost webhook secret v1", id.as_bytes(), salt])
        .finalize()
        .into_bytes();
    format!(
        "{SECRET_PREFIX}{}",
        data_encoding::BASE64URL_NOPAD.encode(&mac)
    )
}

/// The `Turnpost-Signature` value of `body` sent at `timestamp` (Unix seconds).
pub fn signature(secret: &str, timestamp: i64, body: &[u8]) -> String {
    let t = timestamp.to_string();
    let mac = hmac(secret.as_bytes(), &[t.as_bytes(), b".", body])
        .finalize()
        .into_bytes();
    format!("t={t},v1={}", hex::encode(mac))
}

/// Whether `header` is a good signature of `body` under `secret`, made within `tolerance`
/// seconds of `now`: what a receiver does (here for the tests and as the reference).
pub fn verify(secret: &str, header: &str, body: &[u8], now: i64, tolerance: i64) -> bool {
    let mut t = None;
    let mut signatures = vec![];
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", v)) => t = v.parse::<i64>().ok(),
            Some(("v1", v)) => signatures.extend(hex::decode(v).ok()),
            _ => {}
        }
    }
    let Some(t) = t else { return false };
    if (now - t).abs() > tolerance {
        return false;
    }
    let ts = t.to_string();
    signatures.iter().any(|sig| {
        hmac(secret.as_bytes(), &[ts.as_bytes(), b".", body])
            .verify_slice(sig)
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The signature is HMAC-SHA256(secret, "<t>.<body>") in hex, as any HMAC library
    /// computes it (RFC 4231 test case 2 checks the primitive itself).
    #[test]
    fn a_signature_is_the_hmac_of_the_timestamp_and_the_body() {
        // RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?".
        let mac = hmac(b"Jefe", &[b"what do ya want ", b"for nothing?"])
            .finalize()
            .into_bytes();
        assert_eq!(
            hex::encode(mac),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // "<t>.<body>" with the secret as the key: the same bytes, split anywhere.
        let sig = signature("Jefe", 1_700_000_000, b"what do ya want for nothing?");
        let expected = hmac(b"Jefe", &[b"1700000000.what do ya want for nothing?"])
            .finalize()
            .into_bytes();
        assert_eq!(sig, format!("t=1700000000,v1={}", hex::encode(expected)));
    }

    #[test]
    fn a_receiver_accepts_the_right_signature_and_refuses_any_change_or_an_old_one() {
        let secret = secret(b"k", Uuid::from_u128(7), b"salt");
        let body = br#"{"type":"your-turn"}"#;
        let now = 1_764_000_000;
        let header = signature(&secret, now, body);
        assert!(verify(&secret, &header, body, now + 10, 300));
        // Another body, another secret, another time, or too late: refused.
        assert!(!verify(
            &secret,
            &header,
            br#"{"type":"game-over"}"#,
            now,
            300
        ));
        let other = secret.replace(SECRET_PREFIX, "whsec_x");
        assert!(!verify(&other, &header, body, now, 300));
        let moved = header.replace(&format!("t={now}"), &format!("t={}", now + 1));
        assert!(!verify(&secret, &moved, body, now, 300));
        assert!(!verify(&secret, &header, body, now + 301, 300));
        assert!(!verify(&secret, "v1=00", body, now, 300));
    }

    #[test]
    fn secrets_differ_by_hook_salt_and_key_and_look_alike() {
        let a = secret(b"key", Uuid::from_u128(1), b"salt");
        assert!(a.starts_with(SECRET_PREFIX));
        assert_eq!(a.len(), SECRET_PREFIX.len() + 43);
        assert_eq!(a, secret(b"key", Uuid::from_u128(1), b"salt"));
        assert_ne!(a, secret(b"key", Uuid::from_u128(2), b"salt"));
        assert_ne!(a, secret(b"key", Uuid::from_u128(1), b"pepper"));
        assert_ne!(a, secret(b"yek", Uuid::from_u128(1), b"salt"));
        assert_ne!(derive_key(b"one"), derive_key(b"two"));
    }
}
