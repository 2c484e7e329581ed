//! Starting and joining games from the pages: the new-game form (a ruleset with its summary
//! and options explained, the seats, invitations by address) and the join button.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::pages::{form_sender, me, me_json, page, see_other, to_sign_in};
use super::session;
use super::{PageError, render};
use crate::service::{ServiceError, Services, games, invitations};

type Page = Result<HttpResponse, PageError>;

/// What each game is about (the invitation mail says the same).
pub use crate::service::invitation_words::ruleset_summary as summary;

fn rulesets_context(svc: &Services) -> Vec<Value> {
    games::rulesets(svc)
        .into_iter()
        .map(|r| {
            json!({
                "id": r.id,
                "name": r.name,
                "summary": summary(&r.id),
                "min_seats": r.min_seats,
                "max_seats": r.max_seats,
                "options": r.options.iter().map(|o| json!({
                    "name": o.name,
                    "description": o.description,
                    "kind": match &o.default {
                        Value::Bool(_) => "bool",
                        Value::Number(_) => "number",
                        _ => "json",
                    },
                    "checked": o.default == Value::Bool(true),
                    "value": match &o.default {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    },
                })).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// `GET /games/new`.
pub async fn new_game_page(req: HttpRequest, svc: web::Data<Services>) -> Page {
    let Some(user) = me(&req, &svc).await? else {
        return Ok(to_sign_in("/games/new"));
    };
    let csrf = session::csrf(&req, &svc);
    let body = render(
        "new_game.html",
        &json!({"me": me_json(&user), "csrf": csrf.token, "rulesets": rulesets_context(&svc)}),
    )?;
    Ok(page(StatusCode::OK, body, &csrf))
}

/// Reads the options of a new-game form: `opt.<name>` fields, typed by the option's default
/// (a checkbox is absent when unticked).
fn options_of(
    svc: &Services,
    ruleset: &str,
    form: &[(String, String)],
) -> Result<Value, PageError> {
    let docs = games::rulesets(svc)
        .into_iter()
        .find(|r| r.id == ruleset)
        .ok_or_else(|| PageError::from(ServiceError::UnknownRuleset(ruleset.to_owned())))?
        .options;
    let field = |name: &str| {
        form.iter()
            .find(|(k, _)| k.strip_prefix("opt.") == Some(name))
            .map(|(_, v)| v.trim())
    };
    let mut out = Map::new();
    for o in docs {
        let value = match (&o.default, field(&o.name)) {
            (Value::Bool(_), v) => Value::Bool(v.is_some()),
            (_, None | Some("")) => continue,
            (Value::Number(_), Some(v)) => v.parse::<i64>().map(Value::from).map_err(|_| {
                PageError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "Not started",
                    format!("The option {} takes a whole number, not {v:?}.", o.name),
                )
            })?,
            (Value::String(_), Some(v)) => Value::String(v.to_owned()),
            (_, Some(v)) => serde_json::from_str(v).map_err(|_| {
                PageError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "Not started",
                    format!("The option {} is not valid here: {v:?}.", o.name),
                )
            })?,
        };
        out.insert(o.name, value);
    }
    Ok(Value::Object(out))
}

/// `POST /games/new`: creates the game (the creator takes the first seat) and invites the
/// addresses given.
pub async fn create(
    req: HttpRequest,
    svc: web::Data<Services>,
    form: web::Form<Vec<(String, String)>>,
) -> Page {
    let get = |k: &str| {
        form.iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
            .unwrap_or_default()
    };
    if !session::csrf_ok(&req, &svc, get("csrf")) {
        return Err(PageError::forbidden_form());
    }
    let Some(user) = me(&req, &svc).await? else {
        return Ok(to_sign_in("/games/new"));
    };
    let ruleset = get("ruleset");
    let seats: i64 = get("seats").trim().parse().map_err(|_| {
        PageError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Not started",
            "Say how many seats the game has.",
        )
    })?;
    let options = options_of(&svc, ruleset, &form)?;
    let invited: Vec<&str> = get("invite")
        .split([',', ';', '\n', ' '])
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .collect();
    if invited.len() >= usize::try_from(seats).unwrap_or(0).max(1) {
        return Err(PageError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Not started",
            format!(
                "{} invitations for {seats} seats (one of them is yours).",
                invited.len()
            ),
        ));
    }
    if let Some(bad) = invited
        .iter()
        .find(|a| !crate::service::users::valid_email(a))
    {
        return Err(PageError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Not started",
            format!("{bad:?} is not a mail address."),
        ));
    }
    let not_started = |m: &str| PageError::new(StatusCode::UNPROCESSABLE_ENTITY, "Not started", m);
    let bots: i64 = match get("bots").trim() {
        "" => 0,
        n => n
            .parse()
            .map_err(|_| not_started("Say how many bots take a seat."))?,
    };
    let clock = match get("clock_hours").trim() {
        "" | "0" => None,
        h => {
            let hours: i64 = h
                .parse()
                .map_err(|_| not_started("Choose the time per decision."))?;
            Some(serde_json::json!({"per_decision_secs": hours.saturating_mul(3600)}))
        }
    };
    let table = games::NewTable {
        options,
        clock: crate::service::deadlines::ClockSettings::parse(clock.as_ref())?,
        bots,
    };
    let game = games::create(&svc, user.id, ruleset, seats, &table)
        .await
        .map_err(|e| match e {
            ServiceError::Invalid(m) | ServiceError::InvalidSeats(m) => {
                PageError::new(StatusCode::UNPROCESSABLE_ENTITY, "Not started", m)
            }
            other => other.into(),
        })?;
    for address in invited {
        invitations::invite(&svc, user.id, game.id, address, None).await?;
    }
    Ok(see_other(&format!("/games/{}", game.id)))
}

#[derive(Deserialize)]
pub struct JoinForm {
    #[serde(default)]
    csrf: String,
}

/// `POST /games/{id}/join`: the lowest free seat of an open game.
pub async fn join(
    req: HttpRequest,
    svc: web::Data<Services>,
    path: web::Path<String>,
    form: web::Form<JoinForm>,
) -> Page {
    let id: Uuid = path.parse().map_err(|_| PageError::not_found())?;
    let Some(user) = form_sender(&req, &svc, &form.csrf).await? else {
        return Ok(to_sign_in(&format!("/games/{id}")));
    };
    games::join(&svc, user.id, id, None).await?;
    Ok(see_other(&format!("/games/{id}")))
}

#[derive(Deserialize)]
pub struct SeatForm {
    #[serde(default)]
    csrf: String,
    /// `yes` once the player confirmed a resignation.
    sure: Option<String>,
}

/// `POST /games/{id}/seat/{what}`: the seated player comes back (`back`), resigns (`resign`:
/// a page asks first, and only its `sure=yes` resigns) or votes to abort (`abort`); then the
/// game page.
pub async fn seat_action(
    req: HttpRequest,
    svc: web::Data<Services>,
    path: web::Path<(String, String)>,
    form: web::Form<SeatForm>,
) -> Page {
    let (id, what) = path.into_inner();
    let id: Uuid = id.parse().map_err(|_| PageError::not_found())?;
    let Some(user) = form_sender(&req, &svc, &form.csrf).await? else {
        return Ok(to_sign_in(&format!("/games/{id}")));
    };
    if what == "resign" && form.sure.as_deref() != Some("yes") {
        let game = games::get(&svc, id).await?;
        let then = if game.seats.len() == 2 {
            "The other player then wins the game."
        } else {
            "The bot then plays your seat to the end of the game."
        };
        let csrf = session::csrf(&req, &svc);
        let body = render(
            "resign.html",
            &json!({"id": id, "then": then, "csrf": csrf.token, "me": me_json(&user)}),
        )?;
        return Ok(page(StatusCode::OK, body, &csrf));
    }
    match what.as_str() {
        "back" => crate::service::seats::back(&svc, user.id, id).await?,
        "resign" => crate::service::seats::resign(&svc, user.id, id).await?,
        "abort" => crate::service::seats::abort(&svc, user.id, id).await?,
        _ => return Err(PageError::not_found()),
    };
    Ok(see_other(&format!("/games/{id}")))
}
