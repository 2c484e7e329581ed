//! Account pages: the address-verification link, and settings (display name, mail, address,
//! vacation).

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::json;

use super::pages::{form_sender, me, me_json, page, see_other, signed_in, to_sign_in};
use super::session;
use super::{PageError, render};
use crate::service::seats::{self, VACATION_DAYS_PER_YEAR};
use crate::service::views::Vacation;
use crate::service::{ServiceError, Services, users};

type Page = Result<HttpResponse, PageError>;

#[derive(Deserialize)]
pub struct TokenQuery {
    token: Option<String>,
}

/// `GET /verify?token=`: the link of the verification mail. It confirms the address and, as
/// the link proves who opened it, signs its user in.
pub async fn verify(req: HttpRequest, svc: web::Data<Services>, q: web::Query<TokenQuery>) -> Page {
    let token = q.token.as_deref().unwrap_or_default();
    let user = users::verify_email(&svc, token)
        .await
        .map_err(|e| match e {
            ServiceError::InvalidLink => {
                let mut e = PageError::new(
                    StatusCode::BAD_REQUEST,
                    "This link is not valid",
                    "The confirmation link is incomplete, altered or expired, or your address \
                 changed since it was sent. Sign in and ask for a new one in your settings.",
                );
                e.sign_in = true;
                e.next = Some("/settings".into());
                e
            }
            other => other.into(),
        })?;
    let csrf = session::csrf(&req, &svc);
    let body = render(
        "message.html",
        &json!({
            "me": {"display_name": user.display_name, "verified": true},
            "csrf": csrf.token,
            "title": "Address confirmed",
            "message": format!("Your address {} is confirmed: game mail will reach you there.", user.email),
            "link": "/", "link_text": "Go to your games",
        }),
    )?;
    let mut r = page(StatusCode::OK, body, &csrf);
    let _ = r.add_cookie(&session::session_cookie(&svc, user.id, user.token_version)?);
    Ok(r)
}

/// `GET /settings`.
pub async fn settings(req: HttpRequest, svc: web::Data<Services>) -> Page {
    let Some(user) = me(&req, &svc).await? else {
        return Ok(to_sign_in("/settings"));
    };
    let csrf = session::csrf(&req, &svc);
    let vacation = seats::vacation(&svc, user.id).await?;
    let body = render(
        "settings.html",
        &json!({
            "me": me_json(&user),
            "csrf": csrf.token,
            "mail": user.mail_preference,
            "pictures": user.mail_pictures,
            "saved": req.query_string().contains("saved=1"),
            "sent": req.query_string().contains("sent=1"),
            "away_from": vacation.vacation.as_ref().map(|v| v.from.format("%a %-d %b %Y, %H:%M UTC").to_string()),
            "away_until": vacation.vacation.as_ref().map(|v| v.until.format("%a %-d %b %Y, %H:%M UTC").to_string()),
            "days_left": vacation.days_left,
            "has_password": users::has_password(&user),
            "password_saved": req.query_string().contains("password=1"),
        }),
    )?;
    Ok(page(StatusCode::OK, body, &csrf))
}

#[derive(Deserialize)]
pub struct SettingsForm {
    #[serde(default)]
    csrf: String,
    display_name: Option<String>,
    mail: Option<String>,
    /// `on` or `off`.
    pictures: Option<String>,
}

/// `POST /settings`: display name, mail preference, the board's picture in mail.
pub async fn save_settings(
    req: HttpRequest,
    svc: web::Data<Services>,
    form: web::Form<SettingsForm>,
) -> Page {
    let Some(user) = form_sender(&req, &svc, &form.csrf).await? else {
        return Ok(to_sign_in("/settings"));
    };
    let refused = |e: ServiceError| match e {
        ServiceError::Invalid(m) => {
            PageError::new(StatusCode::UNPROCESSABLE_ENTITY, "Not saved", m)
        }
        other => other.into(),
    };
    if let Some(name) = &form.display_name {
        users::set_display_name(&svc, user.id, name)
            .await
            .map_err(refused)?;
    }
    let pictures = match form.pictures.as_deref() {
        None => None,
        Some("on") => Some(true),
        Some("off") => Some(false),
        Some(_) => {
            return Err(refused(ServiceError::Invalid(
                "the board in mail is either on or off".into(),
            )));
        }
    };
    if form.mail.is_some() || pictures.is_some() {
        users::set_preferences(&svc, user.id, form.mail.as_deref(), pictures)
            .await
            .map_err(refused)?;
    }
    Ok(see_other("/settings?saved=1"))
}

#[derive(Deserialize)]
pub struct CsrfOnly {
    #[serde(default)]
    csrf: String,
}

/// `POST /settings/verification`: mails the confirmation link again.
pub async fn resend_verification(
    req: HttpRequest,
    svc: web::Data<Services>,
    form: web::Form<CsrfOnly>,
) -> Page {
    let Some(user) = form_sender(&req, &svc, &form.csrf).await? else {
        return Ok(to_sign_in("/settings"));
    };
    match users::resend_verification(&svc, user.id).await {
        Ok(()) | Err(ServiceError::WrongStatus(_)) => Ok(see_other("/settings?sent=1")),
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
pub struct PasswordForm {
    #[serde(default)]
    csrf: String,
    /// Absent for an account that has no password yet (one made by mail).
    #[serde(default)]
    current_password: String,
    #[serde(default)]
    new_password: String,
}

/// `POST /settings/password`: sets the first password of an account made by mail, or changes
/// the password given the current one (the same use case as `POST /v1/me/password`). Every
/// other session of the account ends; this browser stays signed in with a new session.
pub async fn password(
    req: HttpRequest,
    svc: web::Data<Services>,
    form: web::Form<PasswordForm>,
) -> Page {
    let Some(user) = form_sender(&req, &svc, &form.csrf).await? else {
        return Ok(to_sign_in("/settings"));
    };
    let client = super::client::client_of(&req, &svc);
    let changed = users::change_password(
        &svc,
        client,
        user.id,
        &form.current_password,
        &form.new_password,
    )
    .await;
    match changed {
        // The new token carries the account's new version: this browser's session is made
        // from it, as a registration's is.
        Ok((token, _)) => {
            let session = svc
                .jwt
                .verify(&token)
                .map_err(|e| PageError::internal(e.into()))?;
            signed_in(&svc, session, "/settings?password=1")
        }
        Err(ServiceError::WrongPassword) => Err(PageError::new(
            StatusCode::FORBIDDEN,
            "Not changed",
            "The current password is not right. Nothing was changed.",
        )),
        Err(ServiceError::Invalid(m) | ServiceError::WeakPassword(m)) => Err(PageError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Not changed",
            format!("{m}. Nothing was changed."),
        )),
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
pub struct VacationForm {
    #[serde(default)]
    csrf: String,
    /// Days from now (1 to 30).
    days: Option<String>,
    /// Present: the vacation ends now.
    end: Option<String>,
}

/// `POST /settings/vacation`: a vacation of `days` from now, in all the player's games, or
/// (`end`) its end now. The same use case as `PUT`/`DELETE /v1/me/vacation` and `AWAY` by mail.
pub async fn vacation(
    req: HttpRequest,
    svc: web::Data<Services>,
    form: web::Form<VacationForm>,
) -> Page {
    let Some(user) = form_sender(&req, &svc, &form.csrf).await? else {
        return Ok(to_sign_in("/settings"));
    };
    let refused = |m: String| PageError::new(StatusCode::UNPROCESSABLE_ENTITY, "Not saved", m);
    let wanted = if form.end.is_some() {
        None
    } else {
        let days = form
            .days
            .as_deref()
            .and_then(|d| d.trim().parse::<i64>().ok())
            .filter(|d| (1..=i64::from(VACATION_DAYS_PER_YEAR)).contains(d))
            .ok_or_else(|| {
                refused(format!(
                    "a vacation is 1 to {VACATION_DAYS_PER_YEAR} days: write the number of days"
                ))
            })?;
        let from = svc.clock.now();
        Some(Vacation {
            from,
            until: from + chrono::Duration::days(days),
        })
    };
    match seats::set_vacation(&svc, user.id, wanted).await {
        Ok(_) => Ok(see_other("/settings?saved=1")),
        Err(ServiceError::Invalid(m)) => Err(refused(m)),
        Err(e) => Err(e.into()),
    }
}
