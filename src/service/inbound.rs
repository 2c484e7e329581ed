//! Inbound mail (DESIGN.md, "Reply to move"): a reply to a turn mail plays the move it
//! names, through the same use case as an API submission, and is answered through the outbox.
//!
//! One receiver per message, as discourse's: it is recorded by Message-ID before anything
//! else (a relay's second delivery changes nothing), auto-replies and bounces are recorded and
//! never answered, the reply address's token names the game, seat and version the answered
//! mail showed and is signed for the seat's player, and the sender must be that player's
//! verified address, shown to be theirs ([`super::sender`]: a single `From:` address, the
//! envelope sender, DKIM, the configured relay's DMARC verdict). Every other message gets an answer: what was played, or why not, with
//! the choices as they are now. Nothing of a message is logged but its Message-ID and verdict.

use chrono::Utc;
use diesel_async::AsyncConnection;
use mail_parser::{HeaderValue, Message, MessageParser, MimeHeaders};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::inbound_verdicts::{Incoming, Verdict, judge, record_only};
use super::sender::{Arrival, Judged, RelayTrust};
use super::submit::act;
use super::{Result, ServiceError, Services};
use super::{messages, reply_plan};
use crate::auth::reply::{self, ReplySigner, ReplyTicket, TalkTo, TokenError, choices_fingerprint};
use crate::notify::reply_text::{self, Answer as Typed, Command};
use crate::notify::{Answer, Compose, Notice, Show};
use crate::store::models::{SeatPlayer, User};
use crate::store::{self, Conn};

#[derive(Clone, Debug)]
pub struct InboundConfig {
    /// The bearer secret of `POST /v1/inbound/mail`; `None` refuses every request.
    pub secret: Option<String>,
    pub max_bytes: usize,
    /// The relay whose `Authentication-Results` are believed.
    pub relay: RelayTrust,
}

/// The result of receiving one message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Received {
    pub message_id: String,
    pub verdict: Verdict,
}

/// Receives one message: `raw` is RFC 5322; `arrival` says whether it came by SMTP (with the
/// reverse path, `""` for the null sender of bounces, and the client's address) or over HTTP;
/// `envelope_to` the SMTP recipients (empty over HTTP: the token is then looked for in the
/// headers).
pub async fn receive(
    svc: &Services,
    raw: &[u8],
    arrival: Arrival<'_>,
    envelope_to: &[String],
) -> Result<Received> {
    let envelope_from = match arrival {
        Arrival::Smtp { from, .. } => Some(from),
        Arrival::Http => None,
    };
    let incoming = Incoming { raw, arrival };
    let parsed = MessageParser::default().parse(raw);
    let message_id = parsed
        .as_ref()
        .and_then(|m| m.message_id())
        .map(|id| format!("<{}>", id.trim_matches(['<', '>'])))
        .unwrap_or_else(|| format!("sha256:{}", hex::encode(Sha256::digest(raw))));
    let verdict = match &parsed {
        None => record_only(svc, &message_id, Verdict::Unreadable).await?,
        Some(msg) => match automatic(msg, envelope_from) {
            Some(v) => record_only(svc, &message_id, v).await?,
            None => reply(svc, msg, incoming, &message_id, envelope_to).await?,
        },
    };
    tracing::info!(message_id = %message_id, verdict = verdict.as_str(), "inbound mail");
    Ok(Received {
        message_id,
        verdict,
    })
}

fn header_text(msg: &Message<'_>, name: &str) -> Option<String> {
    match msg.header(name)? {
        HeaderValue::Text(t) => Some(t.to_string()),
        HeaderValue::TextList(list) => Some(list.join(", ")),
        _ => msg.header_raw(name).map(|r| r.trim().to_owned()),
    }
}

/// Auto-replies and bounces: never answered, never played (RFC 3834, RFC 3464).
fn automatic(msg: &Message<'_>, envelope_from: Option<&str>) -> Option<Verdict> {
    let has = |name: &str| msg.header_raw(name).is_some();
    let lower = |name: &str| header_text(msg, name).map(|v| v.trim().to_ascii_lowercase());
    let from = msg
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or("")
        .to_ascii_lowercase();
    let null_sender = envelope_from.is_some_and(|f| f.trim().is_empty())
        || msg
            .header_raw("Return-Path")
            .is_some_and(|r| r.trim().trim_matches(['<', '>']).trim().is_empty());
    let report = msg.content_type().is_some_and(|ct| {
        ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    });
    let daemon = ["mailer-daemon@", "postmaster@"]
        .iter()
        .any(|p| from.starts_with(p));
    if null_sender || report || daemon {
        return Some(Verdict::Bounce);
    }
    let auto_submitted = lower("Auto-Submitted").is_some_and(|v| v != "no" && !v.is_empty());
    let precedence = lower("Precedence")
        .is_some_and(|v| ["bulk", "junk", "list", "auto_reply"].contains(&v.as_str()));
    // (`X-Auto-Response-Suppress` asks others not to auto-reply; it does not mark the message
    // itself as automatic, so it is not read here.)
    if auto_submitted || precedence || has("X-Autoreply") || has("X-Autorespond") {
        return Some(Verdict::AutoReply);
    }
    None
}

/// Every address the message was delivered to: the SMTP recipients, else the headers that
/// relays and providers keep them in.
fn recipients(msg: &Message<'_>, envelope_to: &[String]) -> Vec<String> {
    if !envelope_to.is_empty() {
        return envelope_to.to_vec();
    }
    let mut out = vec![];
    for name in [
        "Delivered-To",
        "X-Original-To",
        "Envelope-To",
        "X-Envelope-To",
    ] {
        if let Some(raw) = msg.header_raw(name) {
            out.extend(raw.split(',').map(|a| a.trim().to_owned()));
        }
    }
    for list in [msg.to(), msg.cc()].into_iter().flatten() {
        out.extend(list.iter().filter_map(|a| a.address()).map(str::to_owned));
    }
    out
}

/// A reply to a turn mail (or an invitation: `invitation_replies`): find the seat, check the sender, then act once.
async fn reply(
    svc: &Services,
    msg: &Message<'_>,
    incoming: Incoming<'_>,
    message_id: &str,
    envelope_to: &[String],
) -> Result<Verdict> {
    let token = recipients(msg, envelope_to)
        .iter()
        .find_map(|a| reply::token_in(a, &svc.mail.reply_to).map(str::to_owned));
    let Some(token) = token else {
        return record_only(svc, message_id, Verdict::BadToken).await;
    };
    if ReplySigner::is_invitation(&token) {
        return super::invitation_replies::reply(svc, msg, incoming, message_id, &token).await;
    }
    let Ok(ticket) = ReplySigner::read(&token) else {
        return record_only(svc, message_id, Verdict::BadToken).await;
    };
    let mut conn = svc.conn().await?;
    let Some((_, players)) = store::games::get_with_players(&mut conn, ticket.game).await? else {
        drop(conn);
        return record_only(svc, message_id, Verdict::BadToken).await;
    };
    let seat = i32::from(ticket.seat);
    let Some(holder) = players.iter().find(|p| p.seat == seat).map(|p| p.user_id) else {
        drop(conn);
        return record_only(svc, message_id, Verdict::BadToken).await;
    };
    let checked = svc.replies.verify(&token, holder, Utc::now());
    let user = store::users::by_id(&mut conn, holder)
        .await?
        .ok_or(ServiceError::NotFound("user"))?;
    drop(conn);
    let ticket = match checked {
        Ok(t) => t,
        Err(TokenError::Expired) => ticket,
        Err(_) => return record_only(svc, message_id, Verdict::BadToken).await,
    };
    let expired = checked == Err(TokenError::Expired);
    let verified = user.email_verified_at.is_some();
    let judged = judge(svc, msg, incoming, |from| {
        verified && from.eq_ignore_ascii_case(&user.email)
    })
    .await;
    let body = msg.body_text(0).unwrap_or_default();
    // A reply to table talk is a message, whatever it says; a turn mail's reply is a choice,
    // a command, or SAY.
    let (answer, talk_to) = match ticket.talk {
        Some(to) => (Typed::Say(reply_text::new_text(&body)), to),
        None => (reply_text::answer(&body), TalkTo::Table),
    };
    let mut conn = svc.conn().await?;
    conn.transaction::<_, ServiceError, _>(async |conn| {
        if !store::inbound::record(
            conn,
            message_id,
            "received",
            Some(ticket.game),
            Some(user.id),
        )
        .await?
        {
            return Ok(Verdict::Duplicate);
        }
        let (verdict, answer) = if let Judged::Other(sender) = &judged {
            (
                Verdict::WrongSender,
                answer_to(
                    seat,
                    "Refused: a reply from another address",
                    vec![format!(
                        "A reply to your game mail came from {}, not from your verified \
                         address, so nothing was done. If that was you, answer from your \
                         own address.",
                        if sender.is_empty() {
                            "an unknown sender"
                        } else {
                            sender
                        }
                    )],
                    Show::None,
                    None,
                ),
            )
        } else if let Judged::Doubtful(doubt) = &judged {
            (
                Verdict::Unauthenticated,
                answer_to(
                    seat,
                    "Refused: a reply not shown to be yours",
                    vec![doubt.explain()],
                    Show::None,
                    None,
                ),
            )
        } else if expired {
            (
                Verdict::Expired,
                answer_to(
                    seat,
                    "Refused: that mail is too old",
                    vec![format!(
                        "Reply addresses are good for {} days. Here is the game as it is now.",
                        reply::TTL_DAYS
                    )],
                    Show::Status,
                    None,
                ),
            )
        } else {
            let orders = ticket
                .talk
                .is_none()
                .then(|| reply_text::orders(&body))
                .flatten();
            match answer {
                _ if orders.is_some() => {
                    let orders = orders.unwrap_or(reply_text::Orders::Show);
                    standing_orders(svc, conn, &ticket, orders).await?
                }
                Typed::Command(command) if super::mail_commands::handles(command) => {
                    let text = reply_text::new_text(&body);
                    super::mail_commands::run(svc, conn, &user, command, &ticket, &text).await?
                }
                Typed::Command(command) => (Verdict::Command, run_command(command, &ticket)),
                Typed::Say(text) => talk(svc, conn, &user, &ticket, talk_to, &text).await?,
                _ => match play(svc, conn, &ticket, &reply_text::lines(&body)).await? {
                    Played::Yes => {
                        store::inbound::set_verdict(conn, message_id, Verdict::Played.as_str())
                            .await?;
                        return Ok(Verdict::Played);
                    }
                    Played::No(answer) => (Verdict::Refused, answer),
                },
            }
        };
        store::inbound::set_verdict(conn, message_id, verdict.as_str()).await?;
        // The answer goes to the seat's player at their verified address, never to the sender.
        let game = store::games::get(conn, ticket.game)
            .await?
            .ok_or(ServiceError::NotFound("game"))?;
        let seat_player = [SeatPlayer {
            seat: i32::from(ticket.seat),
            user_id: user.id,
            display_name: user.display_name.clone(),
            vacation: None,
            orders: vec![],
        }];
        let rows = super::mail::game_mail(
            svc,
            &game,
            &seat_player,
            std::slice::from_ref(&user),
            &[(i32::from(ticket.seat), answer)],
        )?;
        store::outbox::enqueue(conn, &rows).await?;
        Ok(verdict)
    })
    .await
}

/// An answer to a mail for `seat`.
fn answer_to(
    seat: i32,
    verdict: &str,
    lines: Vec<String>,
    show: Show,
    since: Option<i64>,
) -> Compose {
    Compose {
        answer: Some(Answer {
            verdict: verdict.to_owned(),
            lines,
            show,
            since,
            confirm: None,
            commands: false,
        }),
        ..Compose::notice(seat, Notice::Answer)
    }
}

/// STATUS and HISTORY; the other commands are `mail_commands`'.
fn run_command(command: Command, ticket: &ReplyTicket) -> Compose {
    let seat = i32::from(ticket.seat);
    match command {
        Command::History => answer_to(seat, "History", vec![], Show::History, None),
        _ => answer_to(seat, "Status", vec![], Show::Status, None),
    }
}

/// `ORDERS` by mail: shows, clears or sets the seat's standing orders ([`super::orders`]); the
/// answer lists them and what the game offers.
async fn standing_orders(
    svc: &Services,
    conn: &mut Conn,
    ticket: &ReplyTicket,
    wanted: reply_text::Orders,
) -> Result<(Verdict, Compose)> {
    let seat = i32::from(ticket.seat);
    let (mut game, players, users) = store::games::lock_with_players(conn, ticket.game)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    let current = players
        .iter()
        .find(|p| p.seat == seat)
        .map(|p| p.orders.clone())
        .unwrap_or_default();
    let set = match wanted {
        reply_text::Orders::Show => None,
        reply_text::Orders::Off => Some(vec![]),
        reply_text::Orders::Set(ids) => Some(ids),
    };
    let (verdict, title, view) = match set {
        None => (
            Verdict::Command,
            "Your standing orders".to_owned(),
            super::orders::OrdersView {
                orders: current,
                available: super::orders::available(svc, &game),
            },
        ),
        Some(ids) => {
            match super::orders::set_locked(svc, conn, &mut game, players, &users, seat, &ids).await
            {
                Ok(view) if view.orders.is_empty() => {
                    (Verdict::Command, "Standing orders cleared".to_owned(), view)
                }
                Ok(view) => (Verdict::Command, "Standing orders set".to_owned(), view),
                Err(ServiceError::Invalid(why) | ServiceError::WrongStatus(why)) => {
                    return Ok((
                        Verdict::Refused,
                        answer_to(
                            seat,
                            "Refused: not a standing order",
                            vec![format!("Nothing was changed: {why}.")],
                            Show::None,
                            None,
                        ),
                    ));
                }
                Err(e) => return Err(e),
            }
        }
    };
    let mut lines = vec![if view.orders.is_empty() {
        "You have no standing orders in this game.".to_owned()
    } else {
        format!(
            "In force (only you can see them): {}.",
            view.orders.join("; ")
        )
    }];
    if view.available.is_empty() {
        lines.push("This game offers no standing orders.".into());
    } else {
        lines.push(
            "This game offers (reply ORDERS and the ids, each followed by what it takes, or \
             ORDERS OFF):"
                .into(),
        );
        lines.extend(view.available.iter().map(|o| match &o.argument {
            Some(what) => format!("  {} <{what}>: {}", o.id, o.description),
            None => format!("  {}: {}", o.id, o.description),
        }));
    }
    Ok((verdict, answer_to(seat, &title, lines, Show::Status, None)))
}

/// Posts the text of a reply as table talk from the ticket's seat, to `to`; the answer says
/// it was sent, or why not.
async fn talk(
    svc: &Services,
    conn: &mut Conn,
    user: &User,
    ticket: &ReplyTicket,
    to: TalkTo,
    text: &str,
) -> Result<(Verdict, Compose)> {
    let seat = i32::from(ticket.seat);
    let refuse = |verdict: &str, lines: Vec<String>| {
        Ok((
            Verdict::Refused,
            answer_to(seat, verdict, lines, Show::None, None),
        ))
    };
    let body = match messages::clean_body(text) {
        Ok(b) => b,
        Err(e) => {
            return refuse(
                "Refused: nothing to post",
                vec![format!("Your reply: {e}.")],
            );
        }
    };
    let (to_seat, sent) = match to {
        TalkTo::Table => (None, "Sent to the table".to_owned()),
        TalkTo::Seat(s) => {
            let Some(name) =
                messages::private_writer(conn, ticket.game, i32::from(s), user.id).await?
            else {
                return refuse(
                    "Refused: that player has left the seat",
                    vec![
                        "The player who wrote to you privately no longer holds that seat, so \
                         your answer was not posted."
                            .into(),
                    ],
                );
            };
            (Some(i64::from(s)), format!("Sent privately to {name}"))
        }
    };
    match messages::post_in(svc, conn, user.id, ticket.game, to_seat, &body).await {
        Ok(_) => Ok((
            Verdict::Posted,
            answer_to(seat, &sent, vec![], Show::None, None),
        )),
        Err(ServiceError::RateLimited { detail, .. }) => refuse(
            "Refused: too many messages",
            vec![format!("Not posted: {detail}.")],
        ),
        Err(ServiceError::WrongStatus(status)) => refuse(
            &format!("Refused: the game is {status}"),
            vec!["Nothing can be posted in this game any more.".into()],
        ),
        Err(ServiceError::Invalid(why)) => refuse("Refused: nothing to post", vec![why]),
        Err(e) => Err(e),
    }
}

enum Played {
    Yes,
    No(Compose),
}

/// Plays the reply's lines for the ticket's seat ([`reply_plan::plan`]: one choice a line, as
/// one submission) if the first names one of the seat's choices now and the list it was chosen
/// from is still the list now.
async fn play(
    svc: &Services,
    conn: &mut Conn,
    ticket: &ReplyTicket,
    lines: &[String],
) -> Result<Played> {
    let seat = i32::from(ticket.seat);
    let since = Some(i64::from(ticket.version));
    let refuse = |verdict: &str, lines: Vec<String>| {
        Ok(Played::No(answer_to(
            seat,
            verdict,
            lines,
            Show::Status,
            since,
        )))
    };
    let (mut game, players, users) = store::games::lock_with_players(conn, ticket.game)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    if game.status() != crate::store::models::GameStatus::Active {
        return refuse(
            "Refused: the game is over",
            vec!["Nothing more can be played in this game.".into()],
        );
    }
    if !game.to_act.contains(&seat) {
        let why = super::mail_commands::not_your_decision(conn, &game, seat).await?;
        return refuse("Refused: it is not your decision now", why);
    }
    let Some(snapshot) = &game.state else {
        return refuse("Refused: nothing to choose now", vec![]);
    };
    let state = svc.load_state(&game, snapshot)?;
    let names = super::mail::names_by_seat(&game, &players);
    let legal = state.legal_actions(usize::from(ticket.seat));
    if legal.is_empty() {
        return refuse("Refused: nothing to choose now", vec![]);
    }
    if i64::from(ticket.version) != game.version
        && choices_fingerprint(legal.iter().map(|a| &a.action)) != ticket.choices
    {
        return refuse(
            "Refused: the game has moved on",
            vec![
                "The choices in the mail you answered are not your choices any more, so your \
                 reply was not played. Here they are as they are now: answer this mail."
                    .into(),
            ],
        );
    }
    if lines.is_empty() {
        return refuse(
            "Refused: that is not one of your choices",
            vec![
                "Your reply had nothing above the quoted mail: put the number of your choice \
                 on its first line."
                    .into(),
            ],
        );
    }
    let plan = reply_plan::plan(state.as_ref(), usize::from(ticket.seat), &names, lines);
    if plan.actions.is_empty() {
        let why = plan
            .stopped
            .as_ref()
            .map(|stop| match stop {
                reply_plan::Stop::NotAChoice { why, .. } => capitalise(why),
                other => other.explain(lines.len()),
            })
            .unwrap_or_default();
        return refuse("Refused: that is not one of your choices", vec![why]);
    }
    let verdict = match plan.played.as_slice() {
        [one] => match one.number {
            Some(n) => format!("Played {n}: {}", one.notation),
            None => format!("Played {}", one.notation),
        },
        many => format!("Played {} choices", many.len()),
    };
    let mut said: Vec<String> = plan
        .played
        .iter()
        .map(|c| format!("Line {}: {} [{}]", c.line, c.label, c.notation))
        .collect();
    if !plan.forced.is_empty() {
        said.push(format!(
            "Played for you, as there was no other choice: {}.",
            plan.forced.join("; ")
        ));
    }
    if let Some(stop) = &plan.stopped {
        said.push(stop.explain(lines.len()));
    }
    let confirm = answer_to(seat, &verdict, said, Show::Status, since);
    match act(
        svc,
        conn,
        &mut game,
        &players,
        &users,
        seat,
        &plan.actions,
        vec![(seat, confirm)],
        Some(state),
        false,
    )
    .await
    {
        Ok(_) => Ok(Played::Yes),
        // The rules name seats "Seat n"; people read names.
        Err(ServiceError::IllegalAction { reason, .. }) => refuse(
            "Refused: that move is not allowed",
            vec![crate::rules::present::name_seats(&reason, &names)],
        ),
        Err(e) => Err(e),
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Whether `given` is the configured inbound secret (compared in constant time).
pub fn secret_matches(config: &InboundConfig, given: &str) -> bool {
    let Some(secret) = &config.secret else {
        return false;
    };
    let a = Sha256::digest(secret.as_bytes());
    let b = Sha256::digest(given.as_bytes());
    a.iter()
        .zip(b.iter())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}
