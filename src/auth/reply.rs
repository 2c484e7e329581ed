//! Reply tokens: the signed part of a turn mail's `Reply-To` address
//! (`<local>+<token>@<domain>`), bound to the recipient, the game, the seat and the version
//! (and the numbered choices) that mail showed.
//!
//! An address's local part may hold at most 64 characters (RFC 5321 §4.5.3.1.1) and may be
//! lower-cased on the way, so a token is compact binary in lower-case base32: the game (16
//! bytes), the seat (1), the version (4), a fingerprint of the numbered choices (3), the day it
//! was issued (2), and a MAC (6: HMAC-SHA256 over the recipient's id and all of the above,
//! with a key derived from the server secret; 2^48 guesses to forge one, each a mail). 32
//! bytes, 52 characters, which leaves 11 for the reply address's own local part ([`MAX_LOCAL`]).
//! The recipient is not in the token: it is whoever holds the seat, and the MAC fails if that
//! is someone else.
//!
//! A reply to table talk posts a message instead of playing: its token has the seat byte's
//! high bit set ([`TALK`]) and, in place of the choices' fingerprint, who the answer goes to
//! (0: the whole table; `s + 1`: seat `s`, privately). Seats are far below 128, so every token
//! issued before table talk reads as before; the flag is under the MAC like the rest.
//!
//! A reply that confirms a question (RESIGN's "are you sure?") has the same flag and, in the
//! fingerprint's second byte, what it confirms ([`Confirm`]); talk tokens always have 0 there,
//! so they read as before too.
//! A reply to an invitation accepts or declines it: its token has the seat byte
//! [`INVITATION`] (no seat or talk token has it: seats are below 127), the invitation's id in
//! place of the game, zeros for the version and choices, and a MAC under a key of its own (the
//! invitee may have no account to sign for; the invitation names its address). A seat token
//! never reads as an invitation token nor the other way round ([`ReplySigner::read`] refuses
//! one, [`ReplySigner::verify_invitation`] the other).

use chrono::{DateTime, Utc};
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};
use uuid::Uuid;

type HmacSha256 = Hmac<Sha256>;

const FINGERPRINT: usize = 3;
const BODY: usize = 16 + 1 + 4 + FINGERPRINT + 2;
const MAC: usize = 6;
/// The characters of a token (base32 of `BODY + MAC` bytes).
pub const TOKEN_CHARS: usize = ((BODY + MAC) * 8).div_ceil(5);
/// The longest local part a reply address may have: a token and a `+` must still fit in the
/// 64 characters RFC 5321 allows.
pub const MAX_LOCAL: usize = 64 - 1 - TOKEN_CHARS;
/// Tokens are good for this many days after the mail was sent.
pub const TTL_DAYS: i64 = 90;
/// The seat byte's flag of a table-talk token.
const TALK: u8 = 0x80;
/// The seat byte of an invitation token.
const INVITATION: u8 = 0xFF;

/// Days since 2020-01-01 (the token's clock).
fn day(at: DateTime<Utc>) -> i64 {
    (at.timestamp() - 1_577_836_800).div_euclid(86_400)
}

/// What a reply token says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplyTicket {
    pub game: Uuid,
    pub seat: u8,
    pub version: u32,
    /// [`choices_fingerprint`] of the numbered choices the mail showed.
    pub choices: [u8; FINGERPRINT],
    /// The day the mail was written ([`day`]).
    pub issued: u16,
    /// `Some` for a reply to table talk: it posts a message to this audience rather than
    /// playing (`choices` is then unused).
    pub talk: Option<TalkTo>,
    /// `Some` for the answer to a question: a reply `CONFIRM` to it does what was asked
    /// (`choices` and `talk` are then unused).
    pub confirm: Option<Confirm>,
}

/// What a reply `CONFIRM` confirms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Confirm {
    Resign,
}

impl Confirm {
    fn byte(self) -> u8 {
        match self {
            Confirm::Resign => 1,
        }
    }

    fn of(byte: u8) -> Option<Confirm> {
        match byte {
            1 => Some(Confirm::Resign),
            _ => None,
        }
    }
}

/// Who a reply to table talk is addressed to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TalkTo {
    /// The whole table (the answered message went to the table).
    Table,
    /// This seat's player, privately (the sender of the private message answered).
    Seat(u8),
}

/// Why a token is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("the reply address is not one of ours")]
    Malformed,
    #[error("the reply address was not signed for this player")]
    BadSignature,
    #[error("the reply address has expired")]
    Expired,
}

/// What an invitation's reply token says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvitationTicket {
    pub invitation: Uuid,
    /// The day the invitation was mailed ([`day`]).
    pub issued: u16,
}

/// Signs and checks reply tokens.
#[derive(Clone)]
pub struct ReplySigner {
    key: [u8; 32],
    /// The key of invitation tokens.
    invitations: [u8; 32],
}

/// A fingerprint of a numbered list of choices (their JSON, in order): a reply to an older
/// mail is still good if the list it answered is the list now.
pub fn choices_fingerprint<'a>(
    actions: impl IntoIterator<Item = &'a serde_json::Value>,
) -> [u8; FINGERPRINT] {
    let mut h = Sha256::new();
    for a in actions {
        h.update(a.to_string().as_bytes());
        h.update(b"\n");
    }
    let digest = h.finalize();
    let mut out = [0u8; FINGERPRINT];
    out.copy_from_slice(&digest[..FINGERPRINT]);
    out
}

/// An HMAC-SHA256 of `parts` under `key` (HMAC takes keys of any length, so this cannot fail).
#[allow(clippy::expect_used)]
fn hmac(key: &[u8], parts: &[&[u8]]) -> HmacSha256 {
    let mut mac = <HmacSha256 as KeyInit>::new_from_slice(key).expect("HMAC takes any key length");
    for part in parts {
        mac.update(part);
    }
    mac
}

impl ReplySigner {
    /// A signer whose key is derived from the server secret (so no second secret to keep).
    pub fn new(secret: &[u8]) -> Self {
        let derive = |label: &[u8]| {
            let mut key = [0u8; 32];
            key.copy_from_slice(&hmac(secret, &[label]).finalize().into_bytes());
            key
        };
        ReplySigner {
            key: derive(b"turnpost reply-to tokens v1"),
            invitations: derive(b"turnpost invitation reply tokens v1"),
        }
    }

    /// The token of the reply address of `invitation`'s mail, sent at `now`.
    pub fn sign_invitation(&self, invitation: Uuid, now: DateTime<Utc>) -> String {
        let mut bytes = Vec::with_capacity(BODY + MAC);
        bytes.extend_from_slice(invitation.as_bytes());
        bytes.push(INVITATION);
        bytes.extend_from_slice(&[0; 4 + FINGERPRINT]);
        let issued = u16::try_from(day(now).max(0)).unwrap_or(u16::MAX);
        bytes.extend_from_slice(&issued.to_be_bytes());
        let full = hmac(&self.invitations, &[&bytes]).finalize().into_bytes();
        bytes.extend_from_slice(&full[..MAC]);
        data_encoding::BASE32_NOPAD
            .encode(&bytes)
            .to_ascii_lowercase()
    }

    /// Whether `token` claims to be an invitation's (unchecked: only which reader to use).
    pub fn is_invitation(token: &str) -> bool {
        data_encoding::BASE32_NOPAD
            .decode(token.trim().to_ascii_uppercase().as_bytes())
            .is_ok_and(|b| b.len() == BODY + MAC && b.get(16) == Some(&INVITATION))
    }

    /// The ticket, if `token` is an invitation token we signed that has not expired at `now`
    /// (the invitation itself may expire sooner: its row says when).
    pub fn verify_invitation(
        &self,
        token: &str,
        now: DateTime<Utc>,
    ) -> Result<InvitationTicket, TokenError> {
        let bytes = data_encoding::BASE32_NOPAD
            .decode(token.trim().to_ascii_uppercase().as_bytes())
            .map_err(|_| TokenError::Malformed)?;
        if bytes.len() != BODY + MAC || bytes.get(16) != Some(&INVITATION) {
            return Err(TokenError::Malformed);
        }
        let (body, mac) = bytes.split_at(BODY);
        hmac(&self.invitations, &[body])
            .verify_truncated_left(mac)
            .map_err(|_| TokenError::BadSignature)?;
        let invitation = Uuid::from_slice(&body[..16]).map_err(|_| TokenError::Malformed)?;
        let mut issued = [0u8; 2];
        issued.copy_from_slice(&body[BODY - 2..]);
        let issued = u16::from_be_bytes(issued);
        let age = day(now) - i64::from(issued);
        if !(-1..=TTL_DAYS).contains(&age) {
            return Err(TokenError::Expired);
        }
        Ok(InvitationTicket { invitation, issued })
    }

    fn mac(&self, user: Uuid, body: &[u8]) -> [u8; MAC] {
        let full = hmac(&self.key, &[user.as_bytes(), body])
            .finalize()
            .into_bytes();
        let mut out = [0u8; MAC];
        out.copy_from_slice(&full[..MAC]);
        out
    }

    /// The token for `user` answering `ticket`.
    pub fn sign(&self, user: Uuid, ticket: &ReplyTicket) -> String {
        let mut bytes = Vec::with_capacity(BODY + MAC);
        bytes.extend_from_slice(ticket.game.as_bytes());
        let (seat, choices) = match (ticket.confirm, ticket.talk) {
            (Some(c), _) => (ticket.seat | TALK, [0, c.byte(), 0]),
            (None, None) => (ticket.seat & !TALK, ticket.choices),
            (None, Some(TalkTo::Table)) => (ticket.seat | TALK, [0; FINGERPRINT]),
            (None, Some(TalkTo::Seat(s))) => (ticket.seat | TALK, [s.saturating_add(1), 0, 0]),
        };
        bytes.push(seat);
        bytes.extend_from_slice(&ticket.version.to_be_bytes());
        bytes.extend_from_slice(&choices);
        bytes.extend_from_slice(&ticket.issued.to_be_bytes());
        let mac = self.mac(user, &bytes);
        bytes.extend_from_slice(&mac);
        data_encoding::BASE32_NOPAD
            .encode(&bytes)
            .to_ascii_lowercase()
    }

    /// The ticket of a token, unchecked: which game and seat it names (to find who holds the
    /// seat). Use [`ReplySigner::verify`] before acting on it.
    pub fn read(token: &str) -> Result<ReplyTicket, TokenError> {
        let bytes = data_encoding::BASE32_NOPAD
            .decode(token.trim().to_ascii_uppercase().as_bytes())
            .map_err(|_| TokenError::Malformed)?;
        if bytes.len() != BODY + MAC {
            return Err(TokenError::Malformed);
        }
        let take = |from: usize, n: usize| bytes.get(from..from + n).ok_or(TokenError::Malformed);
        let game = Uuid::from_slice(take(0, 16)?).map_err(|_| TokenError::Malformed)?;
        let seat = *take(16, 1)?.first().ok_or(TokenError::Malformed)?;
        if seat == INVITATION {
            return Err(TokenError::Malformed);
        }
        let mut version = [0u8; 4];
        version.copy_from_slice(take(17, 4)?);
        let mut choices = [0u8; FINGERPRINT];
        choices.copy_from_slice(take(21, FINGERPRINT)?);
        let mut issued = [0u8; 2];
        issued.copy_from_slice(take(21 + FINGERPRINT, 2)?);
        let flagged = seat & TALK != 0;
        let confirm = if flagged && choices[1] != 0 {
            Some(Confirm::of(choices[1]).ok_or(TokenError::Malformed)?)
        } else {
            None
        };
        let talk = (flagged && confirm.is_none()).then(|| match choices[0] {
            0 => TalkTo::Table,
            n => TalkTo::Seat(n - 1),
        });
        Ok(ReplyTicket {
            game,
            seat: seat & !TALK,
            version: u32::from_be_bytes(version),
            choices: if flagged { [0; FINGERPRINT] } else { choices },
            issued: u16::from_be_bytes(issued),
            talk,
            confirm,
        })
    }

    /// The ticket, if `token` was signed by us for `user` and has not expired at `now`.
    pub fn verify(
        &self,
        token: &str,
        user: Uuid,
        now: DateTime<Utc>,
    ) -> Result<ReplyTicket, TokenError> {
        let ticket = Self::read(token)?;
        let bytes = data_encoding::BASE32_NOPAD
            .decode(token.trim().to_ascii_uppercase().as_bytes())
            .map_err(|_| TokenError::Malformed)?;
        let (body, mac) = bytes.split_at(BODY);
        hmac(&self.key, &[user.as_bytes(), body])
            .verify_truncated_left(mac)
            .map_err(|_| TokenError::BadSignature)?;
        let age = day(now) - i64::from(ticket.issued);
        if !(-1..=TTL_DAYS).contains(&age) {
            return Err(TokenError::Expired);
        }
        Ok(ticket)
    }
}

impl ReplyTicket {
    pub fn new(
        game: Uuid,
        seat: usize,
        version: i64,
        choices: [u8; FINGERPRINT],
        now: DateTime<Utc>,
    ) -> Self {
        ReplyTicket {
            game,
            seat: u8::try_from(seat).unwrap_or(u8::MAX),
            version: u32::try_from(version).unwrap_or(u32::MAX),
            choices,
            issued: u16::try_from(day(now).max(0)).unwrap_or(u16::MAX),
            talk: None,
            confirm: None,
        }
    }

    /// The ticket of a mail to `seat` that asks a question: a reply `CONFIRM` does `what`.
    pub fn confirm(
        game: Uuid,
        seat: usize,
        version: i64,
        what: Confirm,
        now: DateTime<Utc>,
    ) -> Self {
        ReplyTicket {
            confirm: Some(what),
            ..Self::new(game, seat, version, [0; FINGERPRINT], now)
        }
    }

    /// Whole days since the mail was written (0 on its day).
    pub fn age_days(&self, now: DateTime<Utc>) -> i64 {
        day(now) - i64::from(self.issued)
    }

    /// The ticket of a table-talk mail to `seat`: a reply posts a message to `to`.
    pub fn talk(game: Uuid, seat: usize, version: i64, to: TalkTo, now: DateTime<Utc>) -> Self {
        ReplyTicket {
            talk: Some(to),
            ..Self::new(game, seat, version, [0; FINGERPRINT], now)
        }
    }
}

/// `local+token@domain` for a reply address `local@domain`.
pub fn address(reply_to: &str, token: &str) -> String {
    match reply_to.rsplit_once('@') {
        Some((local, domain)) => format!("{local}+{token}@{domain}"),
        None => format!("{reply_to}+{token}"),
    }
}

/// The token in `address` if it is `local+token@domain` for our reply address
/// `local@domain` (compared without case).
pub fn token_in<'a>(address: &'a str, reply_to: &str) -> Option<&'a str> {
    let address = address.trim().trim_start_matches('<').trim_end_matches('>');
    let (ours_local, ours_domain) = reply_to.rsplit_once('@')?;
    let (local, domain) = address.rsplit_once('@')?;
    if !domain.eq_ignore_ascii_case(ours_domain) {
        return None;
    }
    let (base, token) = local.split_once('+')?;
    base.eq_ignore_ascii_case(ours_local).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ticket(now: DateTime<Utc>) -> ReplyTicket {
        ReplyTicket::new(Uuid::new_v4(), 2, 41, [1, 2, 3], now)
    }

    #[test]
    fn a_token_fits_an_address_and_reads_back() {
        let signer = ReplySigner::new(b"0123456789abcdef0123456789abcdef");
        let user = Uuid::new_v4();
        let now = Utc::now();
        let t = ticket(now);
        let token = signer.sign(user, &t);
        let addr = address("play@turnpost.example", &token);
        assert_eq!(token.len(), TOKEN_CHARS);
        let longest = address(&format!("{}@x.example", "l".repeat(MAX_LOCAL)), &token);
        assert_eq!(longest.split('@').next().unwrap().len(), 64);
        assert!(longest.parse::<lettre::Address>().is_ok(), "{longest}");
        assert_eq!(token, token.to_ascii_lowercase());
        assert_eq!(
            token_in(&addr, "play@turnpost.example"),
            Some(token.as_str())
        );
        // Relays may upper-case an address.
        let upper = token.to_ascii_uppercase();
        assert_eq!(signer.verify(&upper, user, now), Ok(t));
        assert_eq!(
            token_in(
                &format!("<PLAY+{upper}@TurnPost.Example>"),
                "play@turnpost.example"
            ),
            Some(upper.as_str())
        );
        assert_eq!(token_in(&addr, "other@turnpost.example"), None);
        assert_eq!(
            token_in("play@turnpost.example", "play@turnpost.example"),
            None
        );
    }

    #[test]
    fn forged_altered_foreign_and_expired_tokens_are_refused() {
        let signer = ReplySigner::new(b"0123456789abcdef0123456789abcdef");
        let user = Uuid::new_v4();
        let now = Utc::now();
        let token = signer.sign(user, &ticket(now));
        let other_key = ReplySigner::new(b"another key, another key, another");
        assert_eq!(
            other_key.verify(&token, user, now),
            Err(TokenError::BadSignature)
        );
        assert_eq!(
            signer.verify(&token, Uuid::new_v4(), now),
            Err(TokenError::BadSignature)
        );
        // Every single-character change is refused.
        for i in 0..token.len() {
            let mut t: Vec<u8> = token.clone().into_bytes();
            t[i] = if t[i] == b'a' { b'b' } else { b'a' };
            let altered = String::from_utf8(t).unwrap();
            assert!(
                signer.verify(&altered, user, now).is_err(),
                "altered at {i}"
            );
        }
        let later = now + chrono::Duration::days(TTL_DAYS + 2);
        assert_eq!(signer.verify(&token, user, later), Err(TokenError::Expired));
        assert_eq!(
            signer.verify("not a token", user, now),
            Err(TokenError::Malformed)
        );
        assert_eq!(signer.verify("", user, now), Err(TokenError::Malformed));
    }

    #[test]
    #[allow(clippy::unwrap_used)]
    fn talk_tokens_say_who_the_answer_goes_to_and_move_tokens_read_as_before() {
        let signer = ReplySigner::new(b"0123456789abcdef0123456789abcdef");
        let user = Uuid::new_v4();
        let now = Utc::now();
        let game = Uuid::new_v4();
        for to in [TalkTo::Table, TalkTo::Seat(0), TalkTo::Seat(5)] {
            let t = ReplyTicket::talk(game, 3, 17, to, now);
            let token = signer.sign(user, &t);
            assert_eq!(token.len(), TOKEN_CHARS);
            let read = signer.verify(&token, user, now).unwrap();
            assert_eq!(read, t);
            assert_eq!((read.seat, read.talk), (3, Some(to)));
        }
        // A move token is not a talk token, and keeps its fingerprint.
        let moving = ticket(now);
        let read = signer
            .verify(&signer.sign(user, &moving), user, now)
            .unwrap();
        assert_eq!(read.talk, None);
        assert_eq!(read.choices, [1, 2, 3]);
        // The flag is signed: setting it on a move token breaks the MAC.
        let token = signer.sign(user, &moving);
        let mut bytes = data_encoding::BASE32_NOPAD
            .decode(token.to_ascii_uppercase().as_bytes())
            .unwrap();
        bytes[16] |= TALK;
        let forged = data_encoding::BASE32_NOPAD
            .encode(&bytes)
            .to_ascii_lowercase();
        // (Refused as unreadable when the move's fingerprint reads as no confirmation there
        // is, else by the MAC: either way it is no talk token.)
        assert!(matches!(
            signer.verify(&forged, user, now),
            Err(TokenError::BadSignature | TokenError::Malformed)
        ));
    }

    #[test]
    #[allow(clippy::unwrap_used)]
    fn confirm_tokens_say_what_they_confirm_and_talk_tokens_read_as_before() {
        let signer = ReplySigner::new(b"0123456789abcdef0123456789abcdef");
        let user = Uuid::new_v4();
        let now = Utc::now();
        let game = Uuid::new_v4();
        let asked = ReplyTicket::confirm(game, 2, 9, Confirm::Resign, now);
        let token = signer.sign(user, &asked);
        assert_eq!(token.len(), TOKEN_CHARS);
        let read = signer.verify(&token, user, now).unwrap();
        assert_eq!(read, asked);
        assert_eq!(
            (read.seat, read.talk, read.confirm),
            (2, None, Some(Confirm::Resign))
        );
        assert_eq!(read.age_days(now), 0);
        // A talk token, as signed before confirmations existed, confirms nothing.
        for to in [TalkTo::Table, TalkTo::Seat(4)] {
            let t = ReplyTicket::talk(game, 2, 9, to, now);
            let read = signer.verify(&signer.sign(user, &t), user, now).unwrap();
            assert_eq!((read.talk, read.confirm), (Some(to), None));
        }
        // What is confirmed is signed: a talk token cannot be turned into a confirmation.
        let talk = signer.sign(user, &ReplyTicket::talk(game, 2, 9, TalkTo::Table, now));
        let mut bytes = data_encoding::BASE32_NOPAD
            .decode(talk.to_ascii_uppercase().as_bytes())
            .unwrap();
        bytes[16 + 1 + 4 + 1] = 1;
        let forged = data_encoding::BASE32_NOPAD
            .encode(&bytes)
            .to_ascii_lowercase();
        assert_eq!(
            signer.verify(&forged, user, now),
            Err(TokenError::BadSignature)
        );
    }

    #[test]
    #[allow(clippy::unwrap_used)]
    fn invitation_tokens_and_seat_tokens_never_read_as_each_other() {
        let signer = ReplySigner::new(b"0123456789abcdef0123456789abcdef");
        let now = Utc::now();
        let invitation = Uuid::new_v4();
        let token = signer.sign_invitation(invitation, now);
        assert_eq!(token.len(), TOKEN_CHARS);
        assert!(ReplySigner::is_invitation(&token));
        let read = signer.verify_invitation(&token.to_ascii_uppercase(), now);
        assert_eq!(read.map(|t| t.invitation), Ok(invitation));
        // An invitation token is no seat token, whoever it is checked for.
        assert_eq!(ReplySigner::read(&token), Err(TokenError::Malformed));
        assert_eq!(
            signer.verify(&token, invitation, now),
            Err(TokenError::Malformed)
        );
        // Seat and talk tokens (issued before invitations had tokens) are no invitations.
        let user = Uuid::new_v4();
        for t in [
            ticket(now),
            ReplyTicket::talk(invitation, 6, 3, TalkTo::Seat(5), now),
        ] {
            let seat_token = signer.sign(user, &t);
            assert!(!ReplySigner::is_invitation(&seat_token));
            assert_eq!(
                signer.verify_invitation(&seat_token, now),
                Err(TokenError::Malformed)
            );
        }
        // Forged: another key, any one character changed, or too old.
        let other = ReplySigner::new(b"another key, another key, another");
        assert_eq!(
            other.verify_invitation(&token, now),
            Err(TokenError::BadSignature)
        );
        for i in 0..token.len() {
            let mut t: Vec<u8> = token.clone().into_bytes();
            t[i] = if t[i] == b'a' { b'b' } else { b'a' };
            let altered = String::from_utf8(t).unwrap();
            assert!(
                signer.verify_invitation(&altered, now).is_err(),
                "altered at {i}"
            );
        }
        let later = now + chrono::Duration::days(TTL_DAYS + 2);
        assert_eq!(
            signer.verify_invitation(&token, later),
            Err(TokenError::Expired)
        );
    }

    #[test]
    fn the_fingerprint_follows_the_list_and_its_order() {
        let a = serde_json::json!({"play": 1});
        let b = serde_json::json!({"play": 2});
        assert_eq!(choices_fingerprint([&a, &b]), choices_fingerprint([&a, &b]));
        assert_ne!(choices_fingerprint([&a, &b]), choices_fingerprint([&b, &a]));
        assert_ne!(choices_fingerprint([&a]), choices_fingerprint([&a, &b]));
    }
}
