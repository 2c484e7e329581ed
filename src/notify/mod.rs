//! Notifications: mail rendered from templates into the outbox (in the transaction that causes
//! it), and the worker that sends the outbox through a transport (SMTP, `.eml` files, memory).

pub mod templates;
pub mod transport;
pub mod worker;

use serde::{Deserialize, Serialize};

/// A rendered message as stored in `outbox.payload`. The envelope (Message-ID, From) is added
/// when it is sent, so a retry is byte-for-byte the same message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// Message-ID of the game's thread root: every mail of a game refers to it.
    #[serde(default)]
    pub thread: Option<String>,
    /// One-click unsubscribe URL (RFC 8058), for game mail.
    #[serde(default)]
    pub unsubscribe: Option<String>,
}

/// `<local@domain>` for Message-IDs: the domain of the From address, or `turnpost.invalid`.
pub fn message_id(local: &str, from: &str) -> String {
    let domain = from
        .rsplit_once('@')
        .map(|(_, d)| d.trim_end_matches('>').trim())
        .filter(|d| !d.is_empty())
        .unwrap_or("turnpost.invalid");
    format!("<{local}@{domain}>")
}

/// Whether a user with mail preference `preference` (`all` | `turns` | `none`) gets mail of
/// `kind`. Account mail (address verification) ignores preferences.
pub fn wants(preference: &str, kind: &str) -> bool {
    match (preference, kind) {
        (_, "verify_email") => true,
        ("all", _) => true,
        ("turns", "your_turn") => true,
        _ => false,
    }
}
