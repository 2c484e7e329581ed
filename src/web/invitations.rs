//! The invitation page (the link in an invitation mail): the game in words with Accept and
//! Decline. A newcomer is registered by accepting (the signed link proves the address, so no
//! password is needed) and signed in; someone with an account signs in first. Accepting lands
//! on the game page. The home page's pending invitations answer here too, by id, for the
//! signed-in invitee.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, web};
use chrono::Utc;
use diesel_async::AsyncConnection;
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use super::pages::{form_sender, me, me_json, page, see_other, to_sign_in};
use super::session;
use super::{PageError, render};
use crate::service::invitation_words::describe;
use crate::service::invitations;
use crate::service::invitees::same_address;
use crate::service::{ServiceError, Services};
use crate::store;
use crate::store::models::{GameStatus, Invitation, User};

type Page = Result<actix_web::HttpResponse, PageError>;

#[derive(Deserialize)]
pub struct TokenQuery {
    #[serde(default)]
    token: String,
}

/// Why an invitation can no longer be answered, if so (and whether its game is worth a link).
fn closed(inv: &Invitation, status: GameStatus) -> Option<(String, bool)> {
    if inv.accepted_by.is_some() {
        Some(("This invitation was accepted.".into(), true))
    } else if inv.declined_at.is_some() {
        Some((
            "This invitation was declined; ask whoever invited you for a new one.".into(),
            false,
        ))
    } else if inv.expires_at <= Utc::now() {
        Some((
            "This invitation has expired; ask whoever invited you for a new one.".into(),
            false,
        ))
    } else if status != GameStatus::Open {
        Some(("The game has started without this seat.".into(), true))
    } else {
        None
    }
}

/// `GET /invitation?token=`: the invitation's page.
pub async fn show(req: HttpRequest, svc: web::Data<Services>, q: web::Query<TokenQuery>) -> Page {
    render_page(&req, &svc, &q.token, None, StatusCode::OK).await
}

async fn render_page(
    req: &HttpRequest,
    svc: &Services,
    token: &str,
    error: Option<String>,
    status: StatusCode,
) -> Page {
    let id = invitations::invitation_id(svc, token)?;
    let (inv, game, players) = invitations::load(svc, id).await?;
    let user = me(req, svc).await?;
    let mut conn = svc.conn().await?;
    let inviter = store::users::by_id(&mut conn, inv.invited_by)
        .await
        .map_err(ServiceError::from)?
        .map(|u| u.display_name)
        .unwrap_or_default();
    let has_account = store::users::by_email(&mut conn, &inv.email)
        .await
        .map_err(ServiceError::from)?
        .is_some();
    drop(conn);
    let who = match &user {
        Some(u) if same_address(&u.email, &inv.email) => "invitee",
        Some(_) => "other",
        None if has_account => "sign_in",
        None => "newcomer",
    };
    let closed = closed(&inv, game.status());
    let csrf = session::csrf(req, svc);
    let ctx = json!({
        "me": user.as_ref().map(me_json),
        "csrf": csrf.token,
        "game": describe(svc, &game, &players, &inviter, inv.seat),
        "email": inv.email,
        "expires_at": inv.expires_at.format("%Y-%m-%d %H:%M UTC").to_string(),
        "who": who,
        "token": token,
        "here": format!("/invitation?token={token}"),
        "display_name": invitations::newcomer_name(None, &inv.email),
        "closed": closed.as_ref().map(|c| &c.0),
        "game_url": closed.filter(|c| c.1).map(|_| format!("/games/{}", game.id)),
        "error": error,
    });
    Ok(page(status, render("invitation.html", &ctx)?, &csrf))
}

#[derive(Deserialize)]
pub struct AnswerForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    token: String,
    #[serde(default)]
    answer: String,
    #[serde(default)]
    display_name: String,
}

/// `POST /invitation`: Accept or Decline on the invitation's page.
pub async fn answer(
    req: HttpRequest,
    svc: web::Data<Services>,
    form: web::Form<AnswerForm>,
) -> Page {
    let user = form_sender(&req, &svc, &form.csrf).await?;
    let id = invitations::invitation_id(&svc, &form.token)?;
    let here = format!("/invitation?token={}", form.token);
    match form.answer.as_str() {
        // Whoever holds the link reads the invited address's mail, and may say no.
        "decline" => {
            invitations::decline(&svc, &form.token).await?;
            Ok(see_other(&here))
        }
        "accept" => match user {
            Some(user) => {
                accepted(
                    &req,
                    &svc,
                    &form.token,
                    invitations::accept_by_id(&svc, user.id, id).await,
                )
                .await
            }
            None => newcomer(&req, &svc, &form, id, &here).await,
        },
        _ => Err(PageError::new(
            StatusCode::BAD_REQUEST,
            "Not understood",
            "Press Accept or Decline on the invitation's page.",
        )),
    }
}

/// The game page after accepting, or the invitation's page saying why not.
async fn accepted(
    req: &HttpRequest,
    svc: &Services,
    token: &str,
    result: Result<crate::service::views::GameView, ServiceError>,
) -> Page {
    match result {
        Ok(view) => Ok(see_other(&format!("/games/{}", view.id))),
        Err(
            e @ (ServiceError::SeatUnavailable(_)
            | ServiceError::NotInvited(_)
            | ServiceError::WrongStatus(_)),
        ) => render_page(req, svc, token, Some(e.to_string()), StatusCode::CONFLICT).await,
        Err(e) => Err(e.into()),
    }
}

/// Accepting without a session: an account of the invited address signs in first; a
/// newcomer gets an account (no password; the address confirmed by the link), is seated and
/// signed in, all or nothing.
async fn newcomer(
    req: &HttpRequest,
    svc: &Services,
    form: &AnswerForm,
    id: Uuid,
    here: &str,
) -> Page {
    let client = super::client::client_of(req, svc);
    let mut conn = svc.conn().await?;
    let (inv, _, _) = invitations::load(svc, id).await?;
    if store::users::by_email(&mut conn, &inv.email)
        .await
        .map_err(ServiceError::from)?
        .is_some()
    {
        return Ok(to_sign_in(here));
    }
    svc.limits.register(client)?;
    let name = (!form.display_name.trim().is_empty()).then_some(form.display_name.as_str());
    let joined = conn
        .transaction::<_, ServiceError, _>(async |conn| {
            let inv = store::invitations::lock(conn, id)
                .await?
                .ok_or(ServiceError::InvalidLink)?;
            let account = invitations::account_for(conn, &inv.email, name).await?;
            let view = invitations::accept_in(svc, conn, &inv, &account).await?;
            Ok((account, view))
        })
        .await;
    drop(conn);
    match joined {
        Ok((account, view)) => signed_in_to(svc, &account, &format!("/games/{}", view.id)),
        Err(e) => accepted(req, svc, &form.token, Err(e)).await,
    }
}

fn signed_in_to(svc: &Services, user: &User, to: &str) -> Page {
    let mut r = see_other(to);
    r.add_cookie(&session::session_cookie(svc, user.id, user.token_version)?)
        .map_err(|e| PageError::internal(anyhow::anyhow!("{e}")))?;
    Ok(r)
}

#[derive(Deserialize)]
pub struct HomeAnswerForm {
    #[serde(default)]
    csrf: String,
}

/// `POST /invitations/{id}/{accept|decline}`: the home page's buttons, for the signed-in
/// invitee.
pub async fn answer_by_id(
    req: HttpRequest,
    svc: web::Data<Services>,
    path: web::Path<(String, String)>,
    form: web::Form<HomeAnswerForm>,
) -> Page {
    let (id, what) = path.into_inner();
    let id: Uuid = id.parse().map_err(|_| PageError::not_found())?;
    let Some(user) = form_sender(&req, &svc, &form.csrf).await? else {
        return Ok(to_sign_in("/"));
    };
    match what.as_str() {
        "accept" => {
            let view = invitations::accept_by_id(&svc, user.id, id).await?;
            Ok(see_other(&format!("/games/{}", view.id)))
        }
        "decline" => {
            invitations::decline_by_id(&svc, id, Some(&user)).await?;
            Ok(see_other("/"))
        }
        _ => Err(PageError::not_found()),
    }
}

#[derive(Deserialize)]
pub struct InviteForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    email: String,
}

/// `POST /games/{id}/invite`: "Invite someone else" on the game page.
pub async fn invite(
    req: HttpRequest,
    svc: web::Data<Services>,
    path: web::Path<String>,
    form: web::Form<InviteForm>,
) -> Page {
    let id: Uuid = path.parse().map_err(|_| PageError::not_found())?;
    let here = format!("/games/{id}");
    let Some(user) = form_sender(&req, &svc, &form.csrf).await? else {
        return Ok(to_sign_in(&here));
    };
    invitations::invite(&svc, user.id, id, &form.email, None).await?;
    Ok(see_other(&here))
}
