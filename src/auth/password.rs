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

/// Why `password` is too easy to guess for a minimum zxcvbn score of `min_score` (0 to 4), or
/// `None` if it will do. `personal` are the account's own words (address, name), which the
/// estimate treats as known to an attacker. zxcvbn knows the 30,000 most common passwords,
/// names, words, keyboard patterns, dates and l33t speak; 2 means more than a million
/// guesses, enough with rate-limited logins and argon2id hashes.
pub fn too_weak(password: &str, personal: &[&str], min_score: u8) -> Option<String> {
    let estimate = zxcvbn::zxcvbn(password, personal);
    if u8::from(estimate.score()) >= min_score {
        return None;
    }
    let why = estimate
        .feedback()
        .map(|f| {
            let warning = f.warning().map(|w| w.to_string());
            let tips: Vec<String> = f.suggestions().iter().map(ToString::to_string).collect();
            warning
                .into_iter()
                .chain(tips)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|w| !w.is_empty())
        .unwrap_or_else(|| "Add another word or two; uncommon words are better.".into());
    Some(format!(
        "this password is too easy to guess: {why} (a few uncommon words together make a \
         good one)"
    ))
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

    /// Issue 20: "passwords such as `password` are accepted".
    #[test]
    fn common_passwords_words_and_the_account_s_own_words_are_too_weak() {
        for weak in [
            "password",
            "12345678",
            "qwertyuiop",
            "iloveyou",
            "password1",
            "p@ssw0rd",
        ] {
            let why = super::too_weak(weak, &[], 2).unwrap_or_else(|| panic!("{weak} passed"));
            assert!(
                why.starts_with("this password is too easy to guess"),
                "{why}"
            );
        }
        let why = super::too_weak("password", &[], 2).unwrap();
        assert!(why.contains("top-10 common password"), "{why}");
        assert_eq!(super::too_weak("zebrafinch42", &[], 2), None);
        assert!(super::too_weak("zebrafinch42", &["zebrafinch42"], 2).is_some());
        for fine in [
            "correct horse battery",
            "loadgen password",
            "a long password",
        ] {
            assert_eq!(super::too_weak(fine, &[], 2), None, "{fine}");
        }
        assert_eq!(
            super::too_weak("password", &[], 0),
            None,
            "score 0 lets all through"
        );
    }
}
