//! A player's display name as it appears in mail to somebody who does not know them (the
//! subject and text of an invitation): anyone may choose any name, so a name must not carry a
//! link or an address that a mail client would show as one, and must stay short.

/// The longest name shown, in characters (an ellipsis marks a cut).
pub const MAX_CHARS: usize = 40;

/// What stands for a name with nothing left to show.
pub const FALLBACK: &str = "A Turnpost player";

/// Characters mail clients or people read as the dot of a domain name.
const DOTS: [char; 6] = [
    '.', '\u{3002}', '\u{FF0E}', '\u{FF61}', '\u{2024}', '\u{FE52}',
];

/// Whether a word (no whitespace) reads as a link, a domain or an address: a scheme
/// (`http`, `://`), `www`, an `@`, or a dot between two letters or digits (`x.y`).
fn looks_like_a_link(word: &str) -> bool {
    let lower = word.to_lowercase();
    if lower.contains("http") || lower.contains("://") || lower.contains("www") {
        return true;
    }
    if word.contains(['@', '\u{FF20}']) {
        return true;
    }
    let chars: Vec<char> = word.chars().collect();
    chars.windows(3).any(|w| match w {
        [a, dot, b] => DOTS.contains(dot) && a.is_alphanumeric() && b.is_alphanumeric(),
        _ => false,
    })
}

/// Characters that hide or reorder text: bidirectional controls and isolates, zero-width
/// characters and joiners, the byte-order mark, the soft hyphen.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{FEFF}'
    )
}

/// Why `name` cannot be a display name or a token name (issue 43: names reach other players in
/// seats, logs and mail), or `None`: it may hold no control or invisible character (a
/// right-to-left override turns "Bob\u{202E}moc.live" into what reads as an address) and no
/// word that reads as a link, a domain or an address (`http`, `www`, `@`, `x.y`).
pub fn refused(name: &str) -> Option<&'static str> {
    if name.chars().any(|c| c.is_control() || is_invisible(c)) {
        return Some("control, invisible or direction-changing characters");
    }
    if name.split_whitespace().any(looks_like_a_link) {
        return Some("anything that reads as a link, a domain or an address (http, www, @, x.y)");
    }
    None
}

/// `name` without words that look like links or addresses, without control or invisible
/// formatting characters, its spaces collapsed, and at most [`MAX_CHARS`] characters long;
/// [`FALLBACK`] if nothing is left.
pub fn for_strangers(name: &str) -> String {
    let visible: String = name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        // Bidirectional overrides, zero-width joiners and the like hide or reorder text.
        .filter(|c| !is_invisible(*c))
        .collect();
    let kept: Vec<&str> = visible
        .split_whitespace()
        .filter(|w| !looks_like_a_link(w))
        .collect();
    let joined = kept.join(" ");
    if !joined.chars().any(char::is_alphanumeric) {
        return FALLBACK.to_owned();
    }
    if joined.chars().count() <= MAX_CHARS {
        return joined;
    }
    let cut: String = joined.chars().take(MAX_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 20: "its display name (any text) in the subject — a spam and phishing relay".
    #[test]
    fn links_domains_and_addresses_are_taken_out() {
        let cases = [
            ("Ann", "Ann"),
            ("J. R. R. Tolkien", "J. R. R. Tolkien"),
            (
                "Win a prize at http://evil.example now",
                "Win a prize at now",
            ),
            ("Claim HTTPS://x", "Claim"),
            ("visit www.example.com", "visit"),
            ("paypal.com security team", "security team"),
            ("bit.ly/abc here", "here"),
            ("mail me at eve@evil.example", "mail me at"),
            ("evil\u{FF0E}example", FALLBACK),
            ("hxxp://x.y", FALLBACK),
            ("https://evil.example", FALLBACK),
            ("   ", FALLBACK),
            ("Bob\u{202E}moc.live", FALLBACK),
            ("Ann\r\nBcc: x", "Ann Bcc: x"),
        ];
        for (name, shown) in cases {
            assert_eq!(for_strangers(name), shown, "{name:?}");
        }
    }

    /// Issue 43: "Registration accepts display names such as "\u202eRTL", a leading BOM, "a@b"".
    #[test]
    fn names_with_hidden_characters_or_addresses_are_refused() {
        for bad in [
            "\u{202E}RTL",
            "\u{FEFF}Ann",
            "a@b",
            "Ann\u{200B}",
            "Bob\u{2067}x",
            "paypal.com support",
            "see https://x",
            "tab\there",
        ] {
            assert!(refused(bad).is_some(), "{bad:?}");
        }
        for good in [
            "Ann",
            "J. R. R. Tolkien",
            "Zoë-Lou",
            "王小明",
            "'; DROP TABLE games; --",
        ] {
            assert_eq!(refused(good), None, "{good:?}");
        }
    }

    #[test]
    fn long_names_are_cut_at_forty_characters() {
        let long = "Bartholomew Ebenezer Montgomery-Fitzwilliam the Third";
        let shown = for_strangers(long);
        assert_eq!(shown.chars().count(), MAX_CHARS);
        assert!(shown.ends_with('…'), "{shown}");
        assert!(shown.starts_with("Bartholomew Ebenezer"));
        let exactly = "x".repeat(MAX_CHARS);
        assert_eq!(for_strangers(&exactly), exactly);
    }
}
