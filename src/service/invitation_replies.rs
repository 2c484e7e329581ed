//! Replies to an invitation mail (issue 35): its `Reply-To` carries a token signed for the
//! invitation (`auth::reply`), so the invitee answers from any mail client. The first line
//! `JOIN` (`yes`, `accept`) takes the seat, making the invitee's account if they have none
//! (named after the mail's `From` name or the address, no password, the address confirmed
//! by the reply itself: only that address got the token); `DECLINE` (`no`) frees the seat and
//! tells the inviter. Only a reply from the invited address acts. Every reply is answered,
//! at the invited address, never at the sender's; a forged token is recorded and changes
//! nothing.

use chrono::Utc;
use diesel_async::AsyncConnection;
use mail_parser::Message;

use super::inbound_verdicts::{Incoming, Verdict, judge, record_only};
use super::invitation_mail::{ANSWER_KIND, Note, greeting, note, reply_address};
use super::invitations::{accept_in, account_for, decline_in};
use super::invitees::same_address;
use super::sender::Judged;
use super::{Result, ServiceError, Services};
use crate::auth::reply::TokenError;
use crate::notify::reply_text;
use crate::store::models::{Game, GameStatus, Invitation};
use crate::store::{self, Conn};

/// What the first line of a reply to an invitation says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Join,
    Decline,
    /// Anything else: the answer says how to answer.
    Unclear,
}

/// The first word of the reply's first line, as people write it ("Yes, count me in!").
pub fn read(body: &str) -> Answer {
    let text = reply_text::new_text(body);
    let word: String = text
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_lowercase();
    match word.as_str() {
        "join" | "yes" | "accept" | "y" => Answer::Join,
        "decline" | "no" | "n" => Answer::Decline,
        _ => Answer::Unclear,
    }
}

/// A reply whose token claims to be an invitation's.
pub async fn reply(
    svc: &Services,
    msg: &Message<'_>,
    incoming: Incoming<'_>,
    message_id: &str,
    token: &str,
) -> Result<Verdict> {
    let now = Utc::now();
    // A token past its 90 days is still the invitation's; the invitation expired long before.
    let ticket = match svc.replies.verify_invitation(token, now) {
        Ok(t) => t.invitation,
        Err(TokenError::Expired) => match token_invitation(svc, token) {
            Some(id) => id,
            None => return record_only(svc, message_id, Verdict::BadToken).await,
        },
        Err(_) => return record_only(svc, message_id, Verdict::BadToken).await,
    };
    let mut conn = svc.conn().await?;
    let Some(inv) = store::invitations::get(&mut conn, ticket).await? else {
        drop(conn);
        return record_only(svc, message_id, Verdict::BadToken).await;
    };
    drop(conn);
    let from = msg.from().and_then(|a| a.first());
    let judged = judge(svc, msg, incoming, |sender| {
        same_address(sender, &inv.email)
    })
    .await;
    let from_name = from.and_then(|a| a.name()).map(str::to_owned);
    let answer = read(&msg.body_text(0).unwrap_or_default());
    let mut conn = svc.conn().await?;
    conn.transaction::<_, ServiceError, _>(async |conn| {
        if !store::inbound::record(conn, message_id, "received", Some(inv.game_id), None).await? {
            return Ok(Verdict::Duplicate);
        }
        let inv = store::invitations::lock(conn, inv.id)
            .await?
            .ok_or(ServiceError::InvalidLink)?;
        let game = store::games::get(conn, inv.game_id)
            .await?
            .ok_or(ServiceError::NotFound("game"))?;
        let (verdict, answer) = if let Judged::Other(sender) = &judged {
            (
                Verdict::WrongSender,
                Answered::refused(
                    "Nothing done: a reply from another address",
                    format!(
                        "A reply to the invitation came from {}, not from {}, to whom it was \
                         sent, so nothing was done. If that was you, answer from {}.",
                        if sender.is_empty() {
                            "an unknown sender"
                        } else {
                            sender
                        },
                        inv.email,
                        inv.email
                    ),
                ),
            )
        } else if let Judged::Doubtful(doubt) = &judged {
            (
                Verdict::Unauthenticated,
                Answered::refused(
                    "Nothing done: a reply not shown to be yours",
                    doubt.explain().replace("your game mail", "the invitation"),
                ),
            )
        } else if let Some(why) = not_pending(&inv, &game) {
            (Verdict::Refused, Answered::closed(why))
        } else {
            match answer {
                Answer::Join => join(svc, conn, &inv, &game, from_name.as_deref()).await?,
                Answer::Decline => {
                    decline_in(svc, conn, &inv, Utc::now()).await?;
                    (
                        Verdict::Declined,
                        Answered::closed(
                            "You declined the invitation; whoever invited you has been told. \
                             Nothing more will come about this game."
                                .into(),
                        ),
                    )
                }
                Answer::Unclear => (
                    Verdict::Refused,
                    Answered::refused(
                        "Not understood",
                        "To play, reply to this mail with JOIN on the first line; to say \
                         no, reply with DECLINE. Nothing was changed."
                            .into(),
                    ),
                ),
            }
        };
        store::inbound::set_verdict(conn, message_id, verdict.as_str()).await?;
        let recipient = greeting(from_name.as_deref(), &inv.email);
        let row = note(
            svc,
            &game,
            Note {
                to: &inv.email,
                user: None,
                kind: ANSWER_KIND,
                recipient: &recipient,
                verdict: answer.verdict,
                lines: answer.lines,
                link: answer.game_link.then(|| {
                    (
                        format!("{}/games/{}", svc.mail.base_url, game.id),
                        "The game",
                    )
                }),
                // Trying again helps only while the invitation waits for an answer.
                reply_to: answer.retry.then(|| reply_address(svc, inv.id)),
            },
        )?;
        store::outbox::enqueue(conn, &[row]).await?;
        Ok(verdict)
    })
    .await
}

/// The invitation id of a token whose signature is good but whose days are over.
fn token_invitation(svc: &Services, token: &str) -> Option<uuid::Uuid> {
    // Checked as of its own issue day: the MAC is what matters here.
    let bytes = data_encoding::BASE32_NOPAD
        .decode(token.trim().to_ascii_uppercase().as_bytes())
        .ok()?;
    let issued = i64::from(u16::from_be_bytes([*bytes.get(24)?, *bytes.get(25)?]));
    let then = chrono::DateTime::from_timestamp(1_577_836_800 + issued * 86_400, 0)?;
    svc.replies
        .verify_invitation(token, then)
        .ok()
        .map(|t| t.invitation)
}

/// Why `inv` can no longer be answered, in words for the invitee.
fn not_pending(inv: &Invitation, game: &Game) -> Option<String> {
    if inv.accepted_by.is_some() {
        Some("You accepted this invitation already: answer the game's mails to play.".into())
    } else if inv.declined_at.is_some() {
        Some("You declined this invitation; ask whoever invited you for a new one.".into())
    } else if inv.expires_at <= Utc::now() {
        Some(format!(
            "This invitation expired on {}, and its seat is no longer held for you; ask \
             whoever invited you for a new one. Nothing was changed.",
            inv.expires_at.format("%Y-%m-%d %H:%M UTC")
        ))
    } else if game.status() != GameStatus::Open {
        Some(format!(
            "The game is {} and takes no more players. Nothing was changed.",
            game.status
        ))
    } else {
        None
    }
}

/// The answer to a reply.
struct Answered {
    verdict: String,
    lines: Vec<String>,
    game_link: bool,
    retry: bool,
}

impl Answered {
    /// Refused, and the invitation still waits for an answer.
    fn refused(verdict: &str, line: String) -> Self {
        Answered {
            verdict: verdict.into(),
            lines: vec![line],
            game_link: false,
            retry: true,
        }
    }

    /// The invitation is answered (or can no longer be).
    fn closed(line: String) -> Self {
        Answered {
            verdict: "Invitation answered".into(),
            lines: vec![line],
            game_link: false,
            retry: false,
        }
    }
}

/// Seats the invitee (making their account if needed), or says why not; a refusal changes
/// nothing (the account too is made only with the seat).
async fn join(
    svc: &Services,
    conn: &mut Conn,
    inv: &Invitation,
    game: &Game,
    from_name: Option<&str>,
) -> Result<(Verdict, Answered)> {
    let had_account = store::users::by_email(conn, &inv.email).await?.is_some();
    let joined = conn
        .transaction::<_, ServiceError, _>(async |conn| {
            let account = account_for(conn, &inv.email, from_name).await?;
            let view = accept_in(svc, conn, inv, &account).await?;
            Ok((account, view))
        })
        .await;
    let (account, view) = match joined {
        Ok(j) => j,
        Err(ServiceError::SeatUnavailable(why)) => {
            return Ok((
                Verdict::Refused,
                Answered::closed(format!("You could not join: {why}. Nothing was changed.")),
            ));
        }
        Err(ServiceError::WrongStatus(status)) => {
            return Ok((
                Verdict::Refused,
                Answered::closed(format!(
                    "The game is {status} and takes no more players. Nothing was changed."
                )),
            ));
        }
        Err(e) => return Err(e),
    };
    let seat = view
        .seats
        .iter()
        .find(|s| s.user_id == Some(account.id))
        .map_or(0, |s| s.seat + 1);
    let others: Vec<String> = view
        .seats
        .iter()
        .filter(|s| s.user_id.is_some_and(|u| u != account.id))
        .filter_map(|s| s.display_name.clone())
        .collect();
    let mut lines = vec![format!(
        "You hold seat {seat}{}.",
        if others.is_empty() {
            String::new()
        } else {
            format!(", with {}", others.join(", "))
        }
    )];
    lines.push(if view.status == "active" {
        "Every seat is taken and the game has begun: its mails follow. Answer them to play.".into()
    } else {
        "The game starts when every seat is taken; you will get a mail then. Answer the \
         game's mails to play."
            .into()
    });
    if !had_account {
        lines.push(format!(
            "Turnpost made an account for {} named {}. You need no password to play by mail. \
             To see your games on the web, ask for a sign-in link at {}/signin.",
            account.email, account.display_name, svc.mail.base_url
        ));
    }
    Ok((
        Verdict::Joined,
        Answered {
            verdict: format!("You joined {}", game_name(svc, game)),
            lines,
            game_link: true,
            retry: false,
        },
    ))
}

fn game_name(svc: &Services, game: &Game) -> String {
    svc.rules
        .get(&game.ruleset)
        .map_or(game.ruleset.clone(), |r| r.name().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Issue 35: "A reply whose first line is JOIN (or yes, accept, in any case) from the
    // invited address joins the seat; DECLINE (no) declines it".
    #[test]
    fn the_first_word_of_a_reply_answers_the_invitation() {
        for yes in [
            "JOIN",
            "join\n",
            "Yes, count me in!",
            "Accept",
            "  yes.\n\nsee you",
        ] {
            assert_eq!(read(yes), Answer::Join, "{yes:?}");
        }
        for no in ["DECLINE", "No, sorry.", "decline thanks"] {
            assert_eq!(read(no), Answer::Decline, "{no:?}");
        }
        for unclear in ["", "Maybe next week", "> JOIN", "Joining? Who are you?"] {
            assert_eq!(read(unclear), Answer::Unclear, "{unclear:?}");
        }
        // Quoted text is no answer.
        let quoted = "\nOn Mon, 1 Dec 2026, Turnpost <t@x.test> wrote:\n> JOIN\n";
        assert_eq!(read(quoted), Answer::Unclear);
    }
}
