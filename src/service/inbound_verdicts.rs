//! What an inbound message is and what became of it, shared by the receiver (`inbound`, which
//! reads a message and hands a reply on) and the replies it hands on to (`invitation_replies`,
//! `mail_commands`): the message as it arrived ([`Incoming`]), its [`Verdict`], a verdict
//! recorded without an answer ([`record_only`]), and its sender judged ([`judge`]).

use mail_parser::Message;
use serde::Serialize;

use super::sender::{self, Arrival, Judged};
use super::{Result, Services};
use crate::store;

/// One message as it arrived: its bytes and how it came.
#[derive(Clone, Copy, Debug)]
pub struct Incoming<'a> {
    pub raw: &'a [u8],
    pub arrival: Arrival<'a>,
}

/// What became of an inbound message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The move was played; the answer confirms it.
    Played,
    /// The answer was read but refused (not a choice, not your turn, the list changed); the
    /// answer says why and lists the choices now.
    Refused,
    /// A command (HELP, STATUS, HISTORY, UNSUBSCRIBE) was carried out and answered.
    Command,
    /// A message was posted to the table talk: a reply to a table-talk mail, or `SAY` in a
    /// reply to a turn mail.
    Posted,
    /// A reply to an invitation took its seat (making the invitee's account if needed).
    Joined,
    /// A reply to an invitation declined it; the inviter was told.
    Declined,
    /// This Message-ID was handled before: nothing more was done.
    Duplicate,
    /// An automatic reply (RFC 3834 and the like): recorded, not answered, not played.
    AutoReply,
    /// A bounce or delivery report: recorded, not answered, not played.
    Bounce,
    /// The reply address carried no token, a malformed or forged one, or one for a seat the
    /// signer no longer holds.
    BadToken,
    /// The token has expired; the player was sent the current state.
    Expired,
    /// The sender is not the verified address of the seat's player; the refusal went to that
    /// player's verified address.
    WrongSender,
    /// The sender claims to be the player (or names several addresses) but the message does not
    /// show it came from them: the envelope sender differs, a DKIM signature does not verify, or
    /// the trusted relay's DMARC check failed. Refused, answered at the verified address.
    Unauthenticated,
    /// Not a readable message.
    Unreadable,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Played => "played",
            Verdict::Refused => "refused",
            Verdict::Command => "command",
            Verdict::Posted => "posted",
            Verdict::Joined => "joined",
            Verdict::Declined => "declined",
            Verdict::Duplicate => "duplicate",
            Verdict::AutoReply => "auto_reply",
            Verdict::Bounce => "bounce",
            Verdict::BadToken => "bad_token",
            Verdict::Expired => "expired",
            Verdict::WrongSender => "wrong_sender",
            Verdict::Unauthenticated => "unauthenticated",
            Verdict::Unreadable => "unreadable",
        }
    }
}

/// Records a verdict that needs no answer; a repeat is `Duplicate`.
pub(super) async fn record_only(
    svc: &Services,
    message_id: &str,
    verdict: Verdict,
) -> Result<Verdict> {
    let mut conn = svc.conn().await?;
    let fresh = store::inbound::record(&mut conn, message_id, verdict.as_str(), None, None).await?;
    Ok(if fresh { verdict } else { Verdict::Duplicate })
}

/// Judges a reply's sender against the address `expected` accepts ([`sender::judge`]).
pub(super) async fn judge(
    svc: &Services,
    msg: &Message<'_>,
    incoming: Incoming<'_>,
    expected: impl Fn(&str) -> bool,
) -> Judged {
    sender::judge(
        msg,
        incoming.raw,
        expected,
        &svc.inbound.relay,
        incoming.arrival,
    )
    .await
}
