//! Composing mail into the outbox, inside the transaction of the change that causes it.
//! Game mail goes only to verified addresses whose preference wants it; each message shows
//! only the recipient's own view.

use chrono::Utc;
use serde_json::{Value, json};
use uuid::Uuid;

use super::{Result, Services};
use crate::auth::jwt::Purpose;
use crate::notify::{self, Mail, templates};
use crate::rules::{GameState, Viewer};
use crate::store::models::{Game, NewOutbox, SeatPlayer, User};

/// Where links in mail point and who mail is from.
#[derive(Clone, Debug)]
pub struct MailConfig {
    pub base_url: String,
    pub from: String,
    pub link_ttl_secs: i64,
}

/// Unsubscribe links stay good for a year: mail is read long after it is sent.
const UNSUBSCRIBE_TTL_SECS: i64 = 365 * 24 * 3600;

/// A game event that some seat should hear about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    GameStarted,
    YourTurn,
    GameOver,
}

impl Notice {
    fn kind(self) -> &'static str {
        match self {
            Notice::GameStarted => "game_started",
            Notice::YourTurn => "your_turn",
            Notice::GameOver => "game_over",
        }
    }
}

/// The human name of a game's ruleset (its id if it is no longer hosted).
fn game_name<'a>(svc: &'a Services, game: &'a Game) -> &'a str {
    svc.rules
        .get(&game.ruleset)
        .map(|g| g.name())
        .unwrap_or(game.ruleset.as_str())
}

fn short(id: Uuid) -> String {
    id.simple().to_string().chars().take(8).collect()
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

fn outbox_row(
    svc: &Services,
    game: Option<Uuid>,
    user: Option<Uuid>,
    kind: &str,
    mail: Mail,
) -> Result<NewOutbox> {
    Ok(NewOutbox {
        game_id: game,
        user_id: user,
        kind: kind.into(),
        to_address: mail.to.clone(),
        message_id: notify::message_id(
            &format!("turnpost.{}", Uuid::new_v4().simple()),
            &svc.mail.from,
        ),
        payload: serde_json::to_value(&mail).map_err(anyhow::Error::from)?,
    })
}

fn unsubscribe_url(svc: &Services, user: Uuid) -> Result<String> {
    let (token, _) = svc.jwt.sign(
        Purpose::Unsubscribe,
        user,
        None,
        Utc::now(),
        UNSUBSCRIBE_TTL_SECS,
    )?;
    Ok(format!(
        "{}/v1/unsubscribe?token={token}",
        svc.mail.base_url
    ))
}

/// Outbox rows for `notices` (seat, what happened) in `game`, now at `state`.
pub fn game_mail(
    svc: &Services,
    game: &Game,
    players: &[SeatPlayer],
    users: &[User],
    state: &dyn GameState,
    notices: &[(i32, Notice)],
) -> Result<Vec<NewOutbox>> {
    if notices.is_empty() {
        return Ok(vec![]);
    }
    let game_name = game_name(svc, game);
    let base = &svc.mail.base_url;
    let thread = notify::message_id(
        &format!("turnpost.game.{}", game.id.simple()),
        &svc.mail.from,
    );
    let name_of = |seat: i32| {
        players
            .iter()
            .find(|p| p.seat == seat)
            .map(|p| p.display_name.clone())
            .unwrap_or_else(|| format!("seat {seat}"))
    };
    let mut rows = vec![];
    for &(seat, notice) in notices {
        let Some(player) = players.iter().find(|p| p.seat == seat) else {
            continue;
        };
        let Some(user) = users.iter().find(|u| u.id == player.user_id) else {
            continue;
        };
        if !receives(user, notice.kind()) {
            continue;
        }
        let viewer = usize::try_from(seat)
            .map(Viewer::Seat)
            .unwrap_or(Viewer::Spectator);
        let mut ctx = json!({
            "recipient": user.display_name,
            "game_name": game_name,
            "short_id": short(game.id),
            "game_id": game.id,
            "seat": seat,
            "base_url": base,
            "game_url": format!("{base}/v1/games/{}", game.id),
            "version": game.version,
            "seed_sha256": game.seed_sha256,
        });
        let subject = match notice {
            Notice::YourTurn => {
                let actions: Vec<Value> = usize::try_from(seat)
                    .map(|s| state.legal_actions(s))
                    .unwrap_or_default()
                    .into_iter()
                    .enumerate()
                    .map(|(i, a)| json!({"n": i + 1, "description": a.description, "json": a.action.to_string()}))
                    .collect();
                ctx["first_action"] = actions
                    .first()
                    .map(|a| a["json"].clone())
                    .unwrap_or(Value::String("…".into()));
                ctx["actions"] = Value::Array(actions);
                ctx["view"] = Value::String(pretty(&state.view(viewer)));
                format!(
                    "{game_name} {}: your turn, {}",
                    short(game.id),
                    user.display_name
                )
            }
            Notice::GameStarted => {
                ctx["players"] = Value::Array(
                    players
                        .iter()
                        .map(|p| json!({"seat": p.seat, "name": p.display_name}))
                        .collect(),
                );
                ctx["your_turn"] = Value::Bool(game.to_act.contains(&seat));
                ctx["view"] = Value::String(pretty(&state.view(viewer)));
                format!("{game_name} {}: the game has started", short(game.id))
            }
            Notice::GameOver => {
                let outcome = super::games::outcome_view(&game.outcome);
                ctx["summary"] = Value::String(
                    outcome
                        .as_ref()
                        .map(|o| o.summary.clone())
                        .unwrap_or_default(),
                );
                ctx["winners"] = Value::Array(
                    outcome
                        .map(|o| {
                            o.winners
                                .into_iter()
                                .map(|w| Value::String(name_of(w)))
                                .collect()
                        })
                        .unwrap_or_default(),
                );
                ctx["seed"] = Value::String(hex::encode(&game.seed));
                format!("{game_name} {}: game over", short(game.id))
            }
        };
        let unsubscribe = unsubscribe_url(svc, user.id)?;
        ctx["unsubscribe_url"] = Value::String(unsubscribe.clone());
        ctx["subject"] = Value::String(subject.clone());
        let (text, html) = templates::render(notice.kind(), &ctx)?;
        let mail = Mail {
            to: user.email.clone(),
            subject,
            text,
            html,
            thread: Some(thread.clone()),
            unsubscribe: Some(unsubscribe),
        };
        rows.push(outbox_row(
            svc,
            Some(game.id),
            Some(user.id),
            notice.kind(),
            mail,
        )?);
    }
    Ok(rows)
}

/// Whether `user` gets game mail of `kind` now.
pub fn receives(user: &User, kind: &str) -> bool {
    user.email_verified_at.is_some() && notify::wants(&user.mail_preference, kind)
}

/// The address-verification mail for `user`.
pub fn verification_mail(svc: &Services, user: &User) -> Result<NewOutbox> {
    let (token, expires_at) = svc.jwt.sign(
        Purpose::VerifyEmail,
        user.id,
        Some(user.email.clone()),
        Utc::now(),
        svc.mail.link_ttl_secs,
    )?;
    let subject = "Confirm your address for Turnpost".to_owned();
    let ctx = json!({
        "recipient": user.display_name,
        "verify_url": format!("{}/v1/email/verify?token={token}", svc.mail.base_url),
        "expires_at": expires_at.to_rfc3339(),
        "base_url": svc.mail.base_url,
        "subject": subject,
    });
    let (text, html) = templates::render("verify_email", &ctx)?;
    let mail = Mail {
        to: user.email.clone(),
        subject,
        text,
        html,
        thread: None,
        unsubscribe: None,
    };
    outbox_row(svc, None, Some(user.id), "verify_email", mail)
}

/// The invitation mail to `email` for a seat in `game`.
pub fn invitation_mail(
    svc: &Services,
    game: &Game,
    email: &str,
    seat: Option<i32>,
    inviter: &str,
    token: &str,
    expires_at: chrono::DateTime<Utc>,
) -> Result<NewOutbox> {
    let game_name = game_name(svc, game);
    let subject = format!("{inviter} invites you to {game_name} on Turnpost");
    let ctx = json!({
        "inviter": inviter,
        "game_name": game_name,
        "short_id": short(game.id),
        "seat": seat,
        "token": token,
        "join_url": format!("{}/v1/invitations/accept?token={token}", svc.mail.base_url),
        "expires_at": expires_at.to_rfc3339(),
        "base_url": svc.mail.base_url,
        "subject": subject,
    });
    let (text, html) = templates::render("invitation", &ctx)?;
    let mail = Mail {
        to: email.to_owned(),
        subject,
        text,
        html,
        thread: Some(notify::message_id(
            &format!("turnpost.game.{}", game.id.simple()),
            &svc.mail.from,
        )),
        unsubscribe: None,
    };
    outbox_row(svc, Some(game.id), None, "invitation", mail)
}
