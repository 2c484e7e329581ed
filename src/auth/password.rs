//! Password hashing with argon2id (the crate's default parameters, a random salt each).

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

pub fn hash(password: &str) -> anyhow::Result<String> {
    let hashed: PasswordHash = Argon2::default()
        .hash_password(password.as_bytes())
        .map_err(|e| anyhow::anyhow!("hashing a password: {e}"))?;
    Ok(hashed.to_string())
}

/// Whether `password` matches the stored `hash`; a malformed hash never matches.
pub fn verify(password: &str, hash: &str) -> bool {
    match PasswordHash::new(hash) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn hashes_are_argon2id_salted_and_verify() {
        let a = super::hash("correct horse").unwrap();
        let b = super::hash("correct horse").unwrap();
        assert!(a.starts_with("$argon2id$"));
        assert_ne!(a, b, "each hash has its own salt");
        assert!(super::verify("correct horse", &a));
        assert!(!super::verify("wrong horse", &a));
        assert!(!super::verify("correct horse", "not a hash"));
    }
}
