//! The mail of invitations: the invitation itself (the game in words, how to answer, a
//! signed reply address bound to the invitation and a link to its page), the answers to
//! replies to it, and the note to the inviter when an invitation is declined.

use chrono::Utc;
use serde_json::json;
use uuid::Uuid;

use super::invitation_words::describe;
use super::mail::{account_mail, game_name, outbox_row, thread_id};
use super::{Result, Services};
use crate::auth::reply;
use crate::notify::{Mail, names, templates};
use crate::store::models::{Game, Invitation, NewOutbox, SeatPlayer, User};

/// The outbox kind of the note that an invitation was declined.
pub const DECLINED_KIND: &str = "invitation_declined";
/// The outbox kind of an answer to a reply to an invitation (sent whatever the preference:
/// they asked).
pub const ANSWER_KIND: &str = "answer";

/// The page of an invitation, from its join link's token.
pub fn page_url(svc: &Services, token: &str) -> String {
    format!("{}/invitation?token={token}", svc.mail.base_url)
}

/// The reply address of `invitation`'s mail: a reply to it accepts or declines.
pub fn reply_address(svc: &Services, invitation: Uuid) -> String {
    reply::address(
        &svc.mail.reply_to,
        &svc.replies.sign_invitation(invitation, Utc::now()),
    )
}

fn when(at: chrono::DateTime<Utc>) -> String {
    at.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// The invitation mail for `inv` to a seat in `game`, whose link carries `token`.
pub fn invitation(
    svc: &Services,
    game: &Game,
    players: &[SeatPlayer],
    inv: &Invitation,
    inviter: &str,
    token: &str,
) -> Result<NewOutbox> {
    let words = describe(svc, game, players, inviter, inv.seat);
    // The recipient may not know the inviter, who chose their name freely.
    let subject = format!(
        "{} invites you to {} on Turnpost",
        words.inviter, words.game_name
    );
    let ctx = json!({
        "game": words,
        "email": inv.email,
        "page_url": page_url(svc, token),
        "expires_at": when(inv.expires_at),
        "base_url": svc.mail.base_url,
        "subject": subject,
    });
    let (text, html) = templates::render("invitation", &ctx)?;
    let mail = Mail {
        to: inv.email.clone(),
        subject,
        text,
        html,
        thread: Some(thread_id(svc, game.id)),
        unsubscribe: None,
        reply_to: Some(reply_address(svc, inv.id)),
        picture: None,
    };
    outbox_row(svc, Some(game.id), None, "invitation", mail)
}

/// What an answer to a reply says.
pub struct Note<'a> {
    pub to: &'a str,
    /// The account it goes to, when there is one (then the worker checks it still wants mail).
    pub user: Option<Uuid>,
    pub kind: &'a str,
    pub recipient: &'a str,
    /// The first line: what happened.
    pub verdict: String,
    pub lines: Vec<String>,
    /// A page to open, and the words of its link.
    pub link: Option<(String, &'a str)>,
    /// Where a reply to this note goes (the invitation's address, when trying again helps).
    pub reply_to: Option<String>,
}

/// A short mail in the game's thread: an answer to a reply, or a note to the inviter.
pub fn note(svc: &Services, game: &Game, note: Note<'_>) -> Result<NewOutbox> {
    let subject = format!("{} — {}", note.verdict, game_name(svc, game));
    let ctx = json!({
        "recipient": note.recipient,
        "verdict": note.verdict,
        "lines": note.lines,
        "link": note.link.as_ref().map(|(url, _)| url),
        "link_text": note.link.as_ref().map(|(_, text)| text),
        "base_url": svc.mail.base_url,
        "subject": subject,
    });
    let mut mail = account_mail(
        note.to,
        subject,
        templates::render("invitation_note", &ctx)?,
    );
    mail.thread = Some(thread_id(svc, game.id));
    mail.reply_to = note.reply_to;
    outbox_row(svc, Some(game.id), note.user, note.kind, mail)
}

/// The note to `inviter` that `inv` was declined: its seat is open again.
pub fn declined(
    svc: &Services,
    game: &Game,
    inv: &Invitation,
    inviter: &User,
) -> Result<NewOutbox> {
    let game_url = format!("{}/games/{}", svc.mail.base_url, game.id);
    note(
        svc,
        game,
        Note {
            to: &inviter.email,
            user: Some(inviter.id),
            kind: DECLINED_KIND,
            recipient: &inviter.display_name,
            verdict: format!("{} declined your invitation", inv.email),
            lines: vec![format!(
                "{} will not play {} with you. The seat held for them is open again: invite \
                 someone else on the game's page.",
                inv.email,
                game_name(svc, game)
            )],
            link: Some((game_url, "Invite someone else")),
            reply_to: None,
        },
    )
}

/// The name to greet an invitee by in an answer.
pub fn greeting(name: Option<&str>, email: &str) -> String {
    names::for_strangers(name.unwrap_or(email))
}
