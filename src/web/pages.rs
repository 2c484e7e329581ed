//! The page handlers. Each reads who is asking from the session cookie, calls the same use
//! cases as the API, and renders a template; every POST checks the CSRF token first.

use std::time::Duration;

use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use chrono::Utc;
use futures_util::stream;
use serde::Deserialize;
use serde_json::{Value, json};
use uuid::Uuid;

use super::live::Live;
use super::session::{self, Csrf};
use super::{PageError, html, render};
use crate::auth::jwt::Purpose;
use crate::notify::reply_text;
use crate::rules::present::name_seats;
use crate::service::game_views::{self, event_view, outcome_view, seat_of, viewer_of};
use crate::service::invitation_words::describe;
use crate::service::mail::names_by_seat;
use crate::service::views::GameView;
use crate::service::{
    ServiceError, Services, games, messages, preview, registration, submit, users,
};
use crate::store;
use crate::store::models::{Game, GameStatus, User};

type Page = Result<HttpResponse, PageError>;

/// Entries of the log shown on the game page (the whole log has its own page).
const LOG_ON_PAGE: i64 = 40;
/// Table-talk messages shown on a game page (the latest; the API pages through them all).
const TALK_ON_PAGE: i64 = 30;
/// How long one event stream lasts before the browser reconnects (it does so by itself).
const STREAM_LIFETIME: Duration = Duration::from_secs(600);
const HEARTBEAT: Duration = Duration::from_secs(15);

/// A page with the CSRF cookie set when the browser had none.
pub(super) fn page(status: StatusCode, body: String, csrf: &Csrf) -> HttpResponse {
    let mut r = html(status, body);
    if let Some(c) = &csrf.new_cookie {
        let _ = r.add_cookie(c);
    }
    r
}

pub(super) fn see_other(to: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, to.to_owned()))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}

/// To the sign-in page, coming back to `next` afterwards.
pub(super) fn to_sign_in(next: &str) -> HttpResponse {
    see_other(&format!("/signin?next={}", encode(next)))
}

/// `text` for a URL's query.
fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                out.push(b as char);
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The signed-in user who sent a page's form, once its CSRF token is checked (a forged or
/// stale form is refused with a page); `None` if nobody is signed in.
pub(super) async fn form_sender(
    req: &HttpRequest,
    svc: &Services,
    csrf: &str,
) -> Result<Option<crate::store::models::User>, PageError> {
    if !session::csrf_ok(req, svc, csrf) {
        return Err(PageError::forbidden_form());
    }
    me(req, svc).await
}

pub(super) async fn me(
    req: &HttpRequest,
    svc: &Services,
) -> Result<Option<crate::store::models::User>, PageError> {
    let Some(session) = session::session_of(req, svc) else {
        return Ok(None);
    };
    // A session of an account that no longer exists is no session, nor one that was ended
    // (signed out everywhere, a new password) since it was opened.
    Ok(users::current(svc, session.user)
        .await?
        .filter(|u| u.token_version == session.version))
}

pub(super) fn me_json(user: &crate::store::models::User) -> Value {
    json!({
        "display_name": user.display_name,
        "email": user.email,
        "verified": user.email_verified_at.is_some(),
    })
}

/// A line about a game for the lists of the home page.
fn summary(svc: &Services, g: &GameView, me: Uuid) -> Value {
    let name = svc
        .rules
        .get(&g.ruleset)
        .map_or(g.ruleset.as_str(), |r| r.name());
    let names_of = |seats: &[i32]| -> Vec<String> {
        seats
            .iter()
            .filter_map(|s| g.seats.iter().find(|x| x.seat == *s))
            .map(|x| {
                x.display_name
                    .clone()
                    .unwrap_or_else(|| "an open seat".into())
            })
            .collect()
    };
    let all: Vec<i32> = g.seats.iter().map(|s| s.seat).collect();
    // By seat number, for the outcome's "Seat n" (`name_seats`).
    let seat_names: Vec<String> = (0..=all.iter().copied().max().unwrap_or(-1))
        .map(|n| {
            g.seats
                .iter()
                .find(|x| x.seat == n)
                .and_then(|x| x.display_name.clone())
                .unwrap_or_default()
        })
        .collect();
    json!({
        "id": g.id,
        "name": name,
        "short_id": g.id.simple().to_string().chars().take(8).collect::<String>(),
        "status": g.status,
        "players": names_of(&all),
        "to_act": names_of(&g.to_act),
        "open_seats": g.seats.iter().filter(|s| s.user_id.is_none()).count(),
        "mine": g.seats.iter().any(|s| s.user_id == Some(me)),
        "summary": g.outcome.as_ref().map(|o| name_seats(&o.summary, &seat_names)),
        "updated_at": g.updated_at.format("%Y-%m-%d %H:%M UTC").to_string(),
    })
}

/// How many of my running games, and of the games waiting on me, the home page lists.
const HOME_LIST: i64 = 200;
/// How many of my finished games (the newest) the home page lists.
const HOME_FINISHED: i64 = 50;

/// `GET /`: the games waiting on me (longest wait first), my other games, open games to join,
/// finished games; the sign-in page for a visitor.
pub async fn home(req: HttpRequest, svc: web::Data<Services>) -> Page {
    let csrf = session::csrf(&req, &svc);
    let Some(user) = me(&req, &svc).await? else {
        let body = render("signin.html", &json!({"csrf": csrf.token, "next": "/"}))?;
        return Ok(page(StatusCode::OK, body, &csrf));
    };
    // Bounded, as every list: the first pages of the API's lists.
    let turns = games::my_turns(&svc, user.id, None, HOME_LIST).await?.games;
    let playing = [GameStatus::Open, GameStatus::Active];
    let mine = games::mine(&svc, user.id, &playing, None, HOME_LIST)
        .await?
        .games;
    let over = [GameStatus::Finished, GameStatus::Abandoned];
    let finished = games::mine(&svc, user.id, &over, None, HOME_FINISHED)
        .await?
        .games;
    // Seats to take over in active games are for the API for now; the page lists open games.
    let open: Vec<GameView> = games::list_open(&svc, None, 20)
        .await?
        .games
        .into_iter()
        .filter(|g| g.status == "open")
        .collect();
    let waiting: Vec<Uuid> = turns.iter().map(|g| g.id).collect();
    let line = |g: &GameView| summary(&svc, g, user.id);
    let invited = pending_for(&svc, &user).await?;
    let joinable = joinable(&svc, &user, &open).await?;
    let ctx = json!({
        "me": me_json(&user),
        "csrf": csrf.token,
        "invitations": invited,
        "turns": turns.iter().map(line).collect::<Vec<_>>(),
        "mine": mine.iter()
            .filter(|g| !waiting.contains(&g.id) && (g.status == "active" || g.status == "open"))
            .map(line).collect::<Vec<_>>(),
        "open": open.iter()
            .filter(|g| !g.seats.iter().any(|s| s.user_id == Some(user.id)))
            .filter(|g| joinable.contains(&g.id))
            .map(line).collect::<Vec<_>>(),
        "finished": finished.iter().map(line).collect::<Vec<_>>(),
    });
    Ok(page(StatusCode::OK, render("home.html", &ctx)?, &csrf))
}

/// The pending invitations of `user`, for the home page.
async fn pending_for(svc: &Services, user: &User) -> Result<Vec<serde_json::Value>, PageError> {
    let mut conn = svc.conn().await?;
    let pending = store::invitations::pending_for(&mut conn, &user.email, Utc::now())
        .await
        .map_err(ServiceError::from)?;
    let mut out = vec![];
    for inv in pending.iter().take(50) {
        let Some((game, players)) = store::games::get_with_players(&mut conn, inv.game_id)
            .await
            .map_err(ServiceError::from)?
        else {
            continue;
        };
        let inviter = players
            .iter()
            .find(|p| p.user_id == inv.invited_by)
            .map(|p| p.display_name.clone())
            .unwrap_or_default();
        let words = describe(svc, &game, &players, &inviter, inv.seat);
        out.push(json!({
            "id": inv.id,
            "game_id": game.id,
            "game": words,
            "expires_at": inv.expires_at.format("%Y-%m-%d %H:%M UTC").to_string(),
        }));
    }
    Ok(out)
}

/// The open games with a seat `user` may take (seats held for invited players are not).
async fn joinable(
    svc: &Services,
    user: &crate::store::models::User,
    open: &[GameView],
) -> Result<Vec<Uuid>, PageError> {
    let ids: Vec<Uuid> = open.iter().map(|g| g.id).collect();
    let mut conn = svc.conn().await?;
    let pending = store::invitations::pending_in(&mut conn, &ids, chrono::Utc::now())
        .await
        .map_err(ServiceError::from)?;
    Ok(open
        .iter()
        .filter(|g| {
            let taken: Vec<i32> = g
                .seats
                .iter()
                .filter(|s| s.user_id.is_some())
                .map(|s| s.seat)
                .collect();
            let held: Vec<_> = pending
                .iter()
                .filter(|i| i.game_id == g.id)
                .cloned()
                .collect();
            let seats = i32::try_from(g.seats.len()).unwrap_or(0);
            crate::service::invitees::seats_open_to(&user.email, seats, &taken, &held).is_ok()
        })
        .map(|g| g.id)
        .collect())
}

#[derive(Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

pub async fn sign_in_page(
    req: HttpRequest,
    svc: web::Data<Services>,
    q: web::Query<NextQuery>,
) -> Page {
    form_page(&req, &svc, &q, "signin.html")
}

/// A page of one form (sign-in, registration): `template` with a fresh CSRF token and the
/// local page to go on to afterwards.
fn form_page(req: &HttpRequest, svc: &Services, q: &NextQuery, template: &str) -> Page {
    let csrf = session::csrf(req, svc);
    let next = session::local_path(q.next.as_deref());
    let body = render(template, &json!({"csrf": csrf.token, "next": next}))?;
    Ok(page(StatusCode::OK, body, &csrf))
}

#[derive(Deserialize)]
pub struct SignInForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    next: Option<String>,
}

/// `POST /signin`: email and password open a session.
pub async fn sign_in(
    req: HttpRequest,
    svc: web::Data<Services>,
    form: web::Form<SignInForm>,
) -> Page {
    if !session::csrf_ok(&req, &svc, &form.csrf) {
        return Err(PageError::forbidden_form());
    }
    let next = session::local_path(form.next.as_deref());
    let client = super::client::client_of(&req, &svc);
    match users::login(&svc, client, &form.email, &form.password).await {
        Ok((token, _)) => {
            let session = svc
                .jwt
                .verify(&token)
                .map_err(|e| PageError::internal(e.into()))?;
            signed_in(&svc, session, &next)
        }
        Err(e @ (ServiceError::BadCredentials | ServiceError::RateLimited { .. })) => {
            let (status, error) = match &e {
                ServiceError::RateLimited { detail, .. } => (
                    StatusCode::TOO_MANY_REQUESTS,
                    format!("Too many attempts: {detail}."),
                ),
                _ => (
                    StatusCode::UNAUTHORIZED,
                    "Wrong email or password.".to_owned(),
                ),
            };
            let csrf = session::csrf(&req, &svc);
            let body = render(
                "signin.html",
                &json!({"csrf": csrf.token, "next": next, "email": form.email, "error": error}),
            )?;
            Ok(page(status, body, &csrf))
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
pub struct MailLinkForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    email: String,
    next: Option<String>,
}

/// `POST /signin/mail`: "mail me a sign-in link". The answer is the same page whether or not
/// the address has an account (and whether or not a link went out: at most one a minute).
pub async fn mail_sign_in_link(
    req: HttpRequest,
    svc: web::Data<Services>,
    form: web::Form<MailLinkForm>,
) -> Page {
    if !session::csrf_ok(&req, &svc, &form.csrf) {
        return Err(PageError::forbidden_form());
    }
    // The mailed link carries its own token and no other.
    let next = session::local_path(form.next.as_deref());
    let next = match next.split_once('?') {
        Some((path, query)) => session::without_sign_in(path, query),
        None => next,
    };
    users::mail_sign_in_link(&svc, &form.email, &next).await?;
    let csrf = session::csrf(&req, &svc);
    let body = render(
        "message.html",
        &json!({
            "csrf": csrf.token,
            "title": "Check your mail",
            "message": format!(
                "If {} is the confirmed address of an account, a sign-in link is on its way. \
                 It works for an hour. Nothing came? Look in your spam folder, or ask again \
                 in a minute.",
                form.email.trim()
            ),
            "link": format!("/signin?next={}", encode(&next)),
            "link_text": "Back to signing in",
        }),
    )?;
    Ok(page(StatusCode::OK, body, &csrf))
}

pub(super) fn signed_in(svc: &Services, session: crate::auth::Session, next: &str) -> Page {
    let mut r = see_other(next);
    r.add_cookie(&session::session_cookie(
        svc,
        session.user,
        session.version,
    )?)
    .map_err(|e| PageError::internal(anyhow::anyhow!("{e}")))?;
    Ok(r)
}

#[derive(Deserialize)]
pub struct SignOutForm {
    #[serde(default)]
    csrf: String,
    /// Set: end every session of the account, not only this browser's.
    #[serde(default)]
    everywhere: Option<String>,
}

/// `POST /signout`: this browser forgets its session; with `everywhere`, every session of
/// the account ends (every browser's and every API token: `service::sessions`).
pub async fn sign_out(
    req: HttpRequest,
    svc: web::Data<Services>,
    form: web::Form<SignOutForm>,
) -> Page {
    if form.everywhere.is_some() {
        if let Some(user) = form_sender(&req, &svc, &form.csrf).await? {
            crate::service::sessions::log_out_everywhere(&svc, user.id).await?;
        }
    } else if !session::csrf_ok(&req, &svc, &form.csrf) {
        return Err(PageError::forbidden_form());
    }
    let mut r = see_other("/");
    let _ = r.add_cookie(&session::signed_out_cookie(&svc));
    Ok(r)
}

pub async fn register_page(
    req: HttpRequest,
    svc: web::Data<Services>,
    q: web::Query<NextQuery>,
) -> Page {
    form_page(&req, &svc, &q, "register.html")
}

#[derive(Deserialize)]
pub struct RegisterForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    display_name: String,
    next: Option<String>,
}

/// `POST /register`: the same page whether or not the address has an account ("check your
/// mail"); the mail says the rest. Errors that do not depend on the address's owner (an
/// invalid form, a weak password, too many registrations) show the form again.
pub async fn register(
    req: HttpRequest,
    svc: web::Data<Services>,
    form: web::Form<RegisterForm>,
) -> Page {
    if !session::csrf_ok(&req, &svc, &form.csrf) {
        return Err(PageError::forbidden_form());
    }
    let next = session::local_path(form.next.as_deref());
    let client = super::client::client_of(&req, &svc);
    let registered = registration::register(
        &svc,
        client,
        &form.email,
        &form.password,
        &form.display_name,
        &next,
    )
    .await;
    let csrf = session::csrf(&req, &svc);
    match registered {
        Ok(()) => {
            let body = render(
                "message.html",
                &json!({
                    "csrf": csrf.token,
                    "title": "Check your mail",
                    "message": format!(
                        "We sent a message to {}. {}",
                        form.email.trim(),
                        registration::ACCEPTED_DETAIL
                    ),
                    "link": "/signin", "link_text": "Sign in",
                }),
            )?;
            Ok(page(StatusCode::OK, body, &csrf))
        }
        Err(
            e @ (ServiceError::Invalid(_)
            | ServiceError::WeakPassword(_)
            | ServiceError::RateLimited { .. }),
        ) => {
            let status = match e {
                ServiceError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
                _ => StatusCode::UNPROCESSABLE_ENTITY,
            };
            let body = render(
                "register.html",
                &json!({"csrf": csrf.token, "next": next, "email": form.email,
                        "display_name": form.display_name, "error": e.to_string()}),
            )?;
            Ok(page(status, body, &csrf))
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
pub struct ConfirmQuery {
    token: Option<String>,
}

/// `GET /confirm?token=`: the link of the confirmation mail opens a page with a button; only
/// the button (a POST) creates the account, so a mail scanner that follows links does not.
pub async fn confirm_page(
    req: HttpRequest,
    svc: web::Data<Services>,
    q: web::Query<ConfirmQuery>,
) -> Page {
    let csrf = session::csrf(&req, &svc);
    let token = q.token.as_deref().unwrap_or_default();
    let body = render("confirm.html", &json!({"csrf": csrf.token, "token": token}))?;
    Ok(page(StatusCode::OK, body, &csrf))
}

#[derive(Deserialize)]
pub struct ConfirmForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    token: String,
}

/// `POST /confirm`: the account is made and this browser signed in; then the page the
/// registration came from (the home page by default).
pub async fn confirm(
    req: HttpRequest,
    svc: web::Data<Services>,
    form: web::Form<ConfirmForm>,
) -> Page {
    if !session::csrf_ok(&req, &svc, &form.csrf) {
        return Err(PageError::forbidden_form());
    }
    match registration::confirm(&svc, &form.token).await {
        Ok(confirmed) => {
            let session = svc
                .jwt
                .verify(&confirmed.registered.token)
                .map_err(|e| PageError::internal(e.into()))?;
            signed_in(
                &svc,
                session,
                &session::local_path(Some(confirmed.next.as_str())),
            )
        }
        Err(ServiceError::InvalidLink) => {
            let mut e = PageError::new(
                StatusCode::BAD_REQUEST,
                "This link is not valid",
                "The confirmation link is incomplete, altered, expired (it is good for 24 \
                 hours) or used already. If you used it, sign in; otherwise register again.",
            );
            e.sign_in = true;
            Err(e)
        }
        Err(ServiceError::EmailTaken) => {
            let mut e = PageError::new(
                StatusCode::CONFLICT,
                "This address has an account already",
                "Another registration of this address was confirmed first, so this one \
                 made no account. Sign in with that account.",
            );
            e.sign_in = true;
            Err(e)
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
pub struct GameQuery {
    /// The game moved on before a choice arrived.
    moved: Option<String>,
    /// A turn being planned: the notations of its steps so far, separated by `;` (nothing is
    /// written until it is confirmed). Present, even empty, in plan mode.
    plan: Option<String>,
    /// A step to add to the plan (its notation); the page then shows the plan with it.
    add: Option<String>,
}

/// The separator of a plan's steps in the page's address and forms.
const PLAN_SEPARATOR: char = ';';

/// The steps of a plan as written in the address: each step's notation, trimmed, non-empty.
fn plan_steps(plan: &str) -> Vec<String> {
    plan.split(PLAN_SEPARATOR)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .take(reply_text::MAX_LINES)
        .map(str::to_owned)
        .collect()
}

fn plan_url(here: &str, steps: &[String]) -> String {
    let joined = steps.join(&PLAN_SEPARATOR.to_string());
    let encoded: String = form_urlencoded::byte_serialize(joined.as_bytes()).collect();
    format!("{here}?plan={encoded}")
}

/// The game and its players, or a 404 page.
async fn load(
    svc: &Services,
    id: Uuid,
) -> Result<(Game, Vec<store::models::SeatPlayer>), PageError> {
    let mut conn = svc.conn().await?;
    store::games::get_with_players(&mut conn, id)
        .await
        .map_err(ServiceError::from)?
        .ok_or_else(PageError::not_found)
}

fn game_id(raw: &str) -> Result<Uuid, PageError> {
    raw.parse().map_err(|_| PageError::not_found())
}

/// `GET /games/{id}`: the picture, the table, my hand and choices, the players, the log.
/// (The link in every game mail, `?signin=<token>`, signs its user in first: [`sign_in_by_link`].)
pub async fn game(
    req: HttpRequest,
    svc: web::Data<Services>,
    path: web::Path<String>,
    q: web::Query<GameQuery>,
) -> Page {
    let id = game_id(&path)?;
    let here = format!("/games/{id}");
    let Some(user) = me(&req, &svc).await? else {
        return Ok(to_sign_in(&here));
    };
    if let Some(add) = q.add.as_deref().map(str::trim).filter(|a| !a.is_empty()) {
        // A step added to the plan: the page's address then names the whole plan, so a reload
        // shows the same.
        let mut steps = plan_steps(q.plan.as_deref().unwrap_or_default());
        steps.push(add.to_owned());
        return Ok(see_other(&plan_url(&here, &steps)));
    }
    let (game, players) = load(&svc, id).await?;
    let csrf = session::csrf(&req, &svc);
    let plan = q.plan.as_deref().map(plan_steps);
    let ctx = game_context(
        &svc,
        &game,
        &players,
        &user,
        &csrf.token,
        q.moved.is_some(),
        plan,
    )
    .await?;
    Ok(page(StatusCode::OK, render("game.html", &ctx)?, &csrf))
}

/// A sign-in link (any page's address with `?signin=<token>`, see `web::sign_in_links`): a
/// session for its user, then `next`, the page without the token in its address.
pub(super) async fn sign_in_by_link(svc: &Services, token: &str, next: &str) -> Page {
    let user = match svc.jwt.check(Purpose::SignIn, token) {
        Ok(claims) => users::current(svc, claims.sub).await?,
        Err(_) => None,
    };
    match user {
        Some(user) => signed_in(
            svc,
            crate::auth::Session {
                user: user.id,
                version: user.token_version,
            },
            next,
        ),
        None => {
            let expired = svc.jwt.check_signature(Purpose::SignIn, token).is_some();
            let mut e = if expired {
                PageError::new(
                    StatusCode::UNAUTHORIZED,
                    "This link has expired",
                    "Sign-in links in mail stay good for a while only (the one in a game \
                     mail for three days, one you asked for an hour). Sign in with your \
                     password, have a new link mailed to you, or open the link in your latest \
                     mail from us.",
                )
            } else {
                PageError::new(
                    StatusCode::BAD_REQUEST,
                    "This link is not valid",
                    "The link is incomplete or was altered. Copy the whole link from the \
                     mail, or sign in with your password below.",
                )
            };
            e.sign_in = true;
            e.next = Some(next.to_owned());
            Err(e)
        }
    }
}

/// The picture as the game page shows it: an image named by its `<title>` and described by
/// the table in words under it (`#table-words`: the presenter's text, as in mail).
fn described_by_table(svg: String) -> String {
    match svg.strip_prefix("<svg ") {
        Some(rest) => format!("<svg aria-describedby=\"table-words\" {rest}"),
        None => svg,
    }
}

async fn game_context(
    svc: &Services,
    game: &Game,
    players: &[store::models::SeatPlayer],
    user: &crate::store::models::User,
    csrf: &str,
    moved: bool,
    plan: Option<Vec<String>>,
) -> Result<Value, PageError> {
    let rules = svc
        .rules
        .get(&game.ruleset)
        .ok_or_else(|| ServiceError::UnknownRuleset(game.ruleset.clone()))?;
    let seat = seat_of(players, user.id);
    let viewer = viewer_of(game, seat);
    let names = names_by_seat(game, players);
    let mut state = match &game.state {
        Some(json) => Some(svc.load_state(game, json)?),
        None => None,
    };
    let active = game.status() == GameStatus::Active;
    let waiting = |s: i32| active && game.to_act.contains(&s);
    // A turn being planned: the page shows the game after its steps (a preview: nothing is
    // written), and Confirm sends them as one submission.
    let planning = match (plan, seat.filter(|s| waiting(*s)), state.as_mut()) {
        (Some(steps), Some(s), Some(st)) => Some(plan_context(game, &names, st.as_mut(), s, steps)),
        _ => None,
    };
    let stopped = planning.as_ref().is_some_and(|p| !p["stopped"].is_null());
    let presented = state.as_ref().map(|s| s.present(viewer, &names));
    let picture = state
        .as_ref()
        .and_then(|s| s.picture(viewer, &names))
        .map(described_by_table);
    let choices = match (state.as_ref(), seat.filter(|s| waiting(*s) && !stopped)) {
        (Some(state), Some(s)) => {
            let s = usize::try_from(s).unwrap_or(0);
            let (legal, groups) = state.choices(s, &names);
            let targets = state.targets(s);
            groups
                .into_iter()
                .map(|g| {
                    json!({
                        "title": g.title,
                        "choices": g.choices.iter().map(|c| json!({
                            "number": c.number,
                            "label": c.label,
                            "notation": legal.get(c.number.wrapping_sub(1)).map(|a| a.notation.as_str()),
                            "target": targets.get(c.number.wrapping_sub(1)).cloned().flatten(),
                        })).collect::<Vec<_>>(),
                    })
                })
                .collect::<Vec<_>>()
        }
        _ => vec![],
    };
    let (entries, total) = {
        let mut conn = svc.conn().await?;
        store::events::latest_after(&mut conn, game.id, 0, LOG_ON_PAGE)
            .await
            .map_err(ServiceError::from)?
    };
    let log: Vec<Value> = entries
        .iter()
        .map(|e| json!({"seq": e.seq, "text": name_seats(&event_view(e, viewer).description, &names)}))
        .collect();
    let talk = match seat {
        Some(_) => talk_context(svc, game, players, user, &names).await?,
        None => json!(null),
    };
    let (deadlines, seat_clocks) = if active {
        let mut conn = svc.conn().await?;
        let deadlines = game_views::deadlines_of(&mut conn, game).await?;
        let clocks = store::clocks::seat_clocks(&mut conn, game.id)
            .await
            .map_err(ServiceError::from)?;
        (deadlines, clocks)
    } else {
        (vec![], vec![])
    };
    let when = |t: chrono::DateTime<chrono::Utc>| t.format("%a %-d %b %Y, %H:%M UTC").to_string();
    let due = |s: i32| {
        deadlines
            .iter()
            .find(|d| d.seat == s)
            .map(|d| when(d.due_at))
    };
    let mine = seat.and_then(|s| seat_clocks.iter().find(|c| c.seat == s));
    let now = svc.clock.now();
    let outcome = outcome_view(&game.outcome);
    let finished = game.status() == GameStatus::Finished;
    let invited = invited_context(svc, game, seat, user).await?;
    Ok(json!({
        "invitations": invited.0,
        "my_invitation": invited.1,
        "can_invite": seat.is_some() && game.status() == GameStatus::Open,
        "me": me_json(user),
        "csrf": csrf,
        "moved": moved,
        "game": {
            "id": game.id,
            "name": rules.name(),
            "ruleset": game.ruleset,
            "short_id": game.id.simple().to_string().chars().take(8).collect::<String>(),
            "status": game.status,
            "version": game.version,
            "seed_sha256": game.seed_sha256,
            "seed": finished.then(|| hex::encode(&game.seed)),
        },
        "seat": seat,
        "spectator": seat.is_none(),
        "waiting": seat.is_some_and(waiting),
        "players": players.iter().map(|p| json!({
            "seat": p.seat,
            "name": p.display_name,
            "you": Some(p.seat) == seat,
            "to_act": waiting(p.seat),
            "bot": game.robots.contains(&p.seat),
            "deadline": due(p.seat).filter(|_| waiting(p.seat)),
            "away_until": p.vacation.filter(|(_, until)| *until > now).map(|(_, until)| when(until)),
        })).collect::<Vec<_>>(),
        "clock": game.clock.is_some(),
        "my_seat": mine.filter(|_| active).map(|c| json!({
            "absent": c.absent_since.is_some(),
            "resigned": c.resigned_at.is_some(),
            "voted": c.abort_vote,
        })),
        "open_seats": usize::try_from(game.seat_count).unwrap_or(0).saturating_sub(players.len()),
        "waiting_for": game.to_act.iter().filter(|s| Some(**s) != seat)
            .filter_map(|s| names.get(usize::try_from(*s).ok()?).cloned()).collect::<Vec<_>>(),
        "presented": presented,
        "picture": picture,
        "picture_alt": presented.as_ref().map(|p| p.headline.clone()),
        // Whether any choice is about a shape of the picture (a click there picks it out).
        "pickable": choices.iter().any(|g| g["choices"]
            .as_array()
            .is_some_and(|cs| cs.iter().any(|c| !c["target"].is_null()))),
        "choices": choices,
        "plan": planning,
        "orders": seat.filter(|_| matches!(game.status(), GameStatus::Open | GameStatus::Active)).map(|s| {
            let mine = players.iter().find(|p| p.seat == s).map(|p| p.orders.clone()).unwrap_or_default();
            crate::service::orders::available(svc, game).into_iter().map(|o| {
                // An order that takes an argument is kept as its id and the argument.
                let given = mine.iter().find_map(|m| {
                    m.strip_prefix(o.id.as_str()).and_then(|rest| rest.strip_prefix(' '))
                });
                json!({
                    "id": o.id,
                    "description": o.description,
                    "argument": o.argument,
                    "value": given.unwrap_or_default(),
                    "on": mine.contains(&o.id) || given.is_some(),
                })
            }).collect::<Vec<_>>()
        }),
        "log": log,
        "log_more": (total - entries.len() as i64).max(0),
        "talk": talk,
        "outcome": outcome.map(|o| json!({
            "summary": name_seats(&o.summary, &names),
            "winners": o.winners.iter().filter_map(|w| names.get(usize::try_from(*w).ok()?).cloned()).collect::<Vec<_>>(),
        })),
    }))
}

/// The plan of a turn as the page shows it: `state` is moved on by the steps that apply (a
/// preview: `preview::run`), and the context lists them, why the plan stops (if it does), and
/// the addresses to undo a step, cancel and confirm.
fn plan_context(
    game: &Game,
    names: &[String],
    state: &mut dyn crate::rules::GameState,
    seat: i32,
    steps: Vec<String>,
) -> Value {
    let here = format!("/games/{}", game.id);
    let s = usize::try_from(seat).unwrap_or(0);
    let mut applied: Vec<Value> = vec![];
    let mut problem = None;
    let mut stopped = None;
    for (i, step) in steps.iter().enumerate() {
        let action = json!({"notation": step});
        if i > 0 {
            preview::forced_before(state, s, &action);
        }
        let labels = state.legal_actions(s);
        match preview::run(state, s, std::slice::from_ref(&action)) {
            Ok((1, stop)) => {
                let label = labels
                    .iter()
                    .find(|a| {
                        crate::rules::notation::key(&a.notation)
                            == crate::rules::notation::key(step)
                    })
                    .map(|a| name_seats(&a.description, names))
                    .unwrap_or_default();
                applied.push(json!({"notation": step, "label": label}));
                if let Some(stop) = stop {
                    stopped = Some(stop);
                    break;
                }
            }
            Ok((_, stop)) => {
                stopped = stop;
                break;
            }
            Err(e) => {
                // Keep what applies; the rest of the plan is dropped, and the page says why.
                // `run` left the state as it was before the refused step.
                problem = Some(format!("\"{step}\" could not be planned: {e}"));
                break;
            }
        }
    }
    let kept: Vec<String> = applied
        .iter()
        .filter_map(|a| a["notation"].as_str().map(str::to_owned))
        .collect();
    let undo = kept.split_last().map(|(_, rest)| plan_url(&here, rest));
    json!({
        "steps": applied,
        "joined": kept.join(&PLAN_SEPARATOR.to_string()),
        "problem": problem,
        "stopped": stopped.map(|s| match s {
            preview::PreviewStop::Chance => "A roll or a draw comes next: confirm to play the plan and see it.",
            preview::PreviewStop::Others => "Another player decides next: confirm to play the plan.",
            preview::PreviewStop::Over => "The game would be over: confirm to play the plan.",
        }),
        "undo": undo,
        "cancel": here,
    })
}

/// The invitations of an open game that nobody has answered yet, as a seated player's page
/// shows them (the address to the inviter only; to the others, "an invited player"), and
/// the viewer's own pending invitation to it, if any.
async fn invited_context(
    svc: &Services,
    game: &Game,
    seat: Option<i32>,
    user: &crate::store::models::User,
) -> Result<(Vec<Value>, Option<Uuid>), PageError> {
    if game.status() != GameStatus::Open {
        return Ok((vec![], None));
    }
    let mut conn = svc.conn().await?;
    let pending = store::invitations::pending_in(&mut conn, &[game.id], chrono::Utc::now())
        .await
        .map_err(ServiceError::from)?;
    let mine = pending
        .iter()
        .find(|i| crate::service::invitees::same_address(&i.email, &user.email))
        .map(|i| i.id);
    let shown = match seat {
        Some(_) => pending
            .iter()
            .map(|i| {
                json!({
                    "who": if i.invited_by == user.id { i.email.clone() } else { "an invited player".into() },
                    "seat": i.seat.map(|s| s + 1),
                    "until": i.expires_at.format("%a %-d %b %Y, %H:%M UTC").to_string(),
                })
            })
            .collect(),
        None => vec![],
    };
    Ok((shown, mine))
}

/// Table talk as a seated player's page shows it: the latest messages they may read, and
/// whom they may write to (the table while the game is open or active, or one other seat
/// that a person holds).
async fn talk_context(
    svc: &Services,
    game: &Game,
    players: &[store::models::SeatPlayer],
    user: &crate::store::models::User,
    names: &[String],
) -> Result<Value, PageError> {
    let messages = messages::latest(svc, user.id, game.id, TALK_ON_PAGE).await?;
    let me = seat_of(players, user.id);
    let name = |s: i32| {
        usize::try_from(s)
            .ok()
            .and_then(|s| names.get(s).cloned())
            .unwrap_or_else(|| format!("seat {s}"))
    };
    let open = matches!(game.status(), GameStatus::Open | GameStatus::Active);
    let people = if open {
        let ids: Vec<Uuid> = players.iter().map(|p| p.user_id).collect();
        let mut conn = svc.conn().await?;
        let users = store::users::by_ids(&mut conn, &ids)
            .await
            .map_err(ServiceError::from)?;
        players
            .iter()
            .filter(|p| Some(p.seat) != me)
            .filter(|p| users.iter().any(|u| u.id == p.user_id && !u.is_bot))
            .map(|p| json!({"seat": p.seat, "name": name(p.seat)}))
            .collect::<Vec<_>>()
    } else {
        vec![]
    };
    let when = |t: chrono::DateTime<chrono::Utc>| t.format("%-d %b, %H:%M UTC").to_string();
    Ok(json!({
        "open": open,
        "to": people,
        "max_chars": messages::MAX_CHARS,
        "messages": messages.iter().map(|m| json!({
            "from": if Some(m.from_seat) == me { "You".to_owned() } else { m.from_name.clone() },
            "to": match m.to_seat {
                None => "the table".to_owned(),
                Some(s) if Some(s) == me => "you".to_owned(),
                Some(s) => name(s),
            },
            "private": m.to_seat.is_some(),
            "at": when(m.created_at),
            "body": m.body,
        })).collect::<Vec<_>>(),
    }))
}

#[derive(Deserialize)]
pub struct SayForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    body: String,
    /// A seat number for a private message; empty or absent for the whole table.
    #[serde(default)]
    to: String,
}

/// `POST /games/{id}/say`: posts a table-talk message (to the table, or privately to `to`).
pub async fn say(
    req: HttpRequest,
    svc: web::Data<Services>,
    path: web::Path<String>,
    form: web::Form<SayForm>,
) -> Page {
    let id = game_id(&path)?;
    let here = format!("/games/{id}");
    let Some(user) = form_sender(&req, &svc, &form.csrf).await? else {
        return Ok(to_sign_in(&here));
    };
    let to = match form.to.trim() {
        "" => None,
        seat => Some(seat.parse::<i64>().map_err(|_| {
            PageError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "Whom to write to?",
                "Choose the table or one of the players from the list.",
            )
        })?),
    };
    messages::post(&svc, user.id, id, to, &form.body, None).await?;
    Ok(see_other(&format!("{here}#talk-title")))
}

#[derive(Deserialize)]
pub struct ActForm {
    #[serde(default)]
    csrf: String,
    version: Option<i64>,
    choice: Option<usize>,
    /// A planned turn to confirm: its steps' notations, separated by `;`.
    plan: Option<String>,
}

/// `POST /games/{id}/act`: the choice numbered `choice` of the list shown at `version`.
pub async fn act(
    req: HttpRequest,
    svc: web::Data<Services>,
    path: web::Path<String>,
    form: web::Form<ActForm>,
) -> Page {
    let id = game_id(&path)?;
    let here = format!("/games/{id}");
    let Some(user) = form_sender(&req, &svc, &form.csrf).await? else {
        return Ok(to_sign_in(&here));
    };
    if let (Some(version), Some(plan)) = (form.version, form.plan.as_deref()) {
        return confirm_plan(&svc, user.id, id, version, &plan_steps(plan)).await;
    }
    let (Some(version), Some(choice)) = (form.version, form.choice) else {
        return Err(PageError::new(
            StatusCode::BAD_REQUEST,
            "No choice was sent",
            "Pick one of the choices on the game page.",
        ));
    };
    let (game, players) = load(&svc, id).await?;
    let seat = seat_of(&players, user.id).ok_or(ServiceError::NotAPlayer)?;
    match game.status() {
        GameStatus::Active => {}
        GameStatus::Finished => return Err(ServiceError::WrongStatus("finished".into()).into()),
        other => return Err(ServiceError::WrongStatus(other.as_str().into()).into()),
    }
    if game.version != version {
        return Ok(see_other(&format!("{here}?moved=1")));
    }
    if !game.to_act.contains(&seat) {
        return Err(ServiceError::NotYourDecision.into());
    }
    let state = match &game.state {
        Some(json) => svc.load_state(&game, json)?,
        None => return Err(ServiceError::NotYourDecision.into()),
    };
    let legal = state.legal_actions(usize::try_from(seat).unwrap_or(0));
    let Some(action) = choice.checked_sub(1).and_then(|i| legal.get(i)) else {
        return Err(PageError::new(
            StatusCode::BAD_REQUEST,
            "No such choice",
            format!("There is no choice {choice} now. Nothing was changed."),
        ));
    };
    match submit::submit(
        &svc,
        user.id,
        id,
        Some(version),
        std::slice::from_ref(&action.action),
        None,
    )
    .await
    {
        Ok(_) => Ok(see_other(&here)),
        Err(ServiceError::VersionConflict { .. }) => Ok(see_other(&format!("{here}?moved=1"))),
        Err(e) => Err(e.into()),
    }
}

/// Confirm: a planned turn's steps as one submission, at the version the plan was made on.
async fn confirm_plan(
    svc: &Services,
    user: Uuid,
    id: Uuid,
    version: i64,
    steps: &[String],
) -> Page {
    let here = format!("/games/{id}");
    if steps.is_empty() {
        return Ok(see_other(&here));
    }
    let actions: Vec<Value> = steps.iter().map(|n| json!({"notation": n})).collect();
    match submit::submit(svc, user, id, Some(version), &actions, None).await {
        Ok(_) => Ok(see_other(&here)),
        Err(ServiceError::VersionConflict { .. }) => Ok(see_other(&format!("{here}?moved=1"))),
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
pub struct OrdersForm {
    #[serde(default)]
    csrf: String,
    /// The ids checked: one `order` field per checked box; an order that takes an argument
    /// comes from its text field (`arg:<id>`), as its id and the text, when the text is not
    /// empty.
    #[serde(default)]
    order: Vec<String>,
}

/// `POST /games/{id}/orders`: the standing orders checked on the page, and those whose text
/// field is filled in (none clears them).
pub async fn set_orders(
    req: HttpRequest,
    svc: web::Data<Services>,
    path: web::Path<String>,
    body: web::Bytes,
) -> Page {
    let id = game_id(&path)?;
    let here = format!("/games/{id}");
    // Several `order` fields: read the form by hand (serde_urlencoded takes one per name).
    let mut form = OrdersForm {
        csrf: String::new(),
        order: vec![],
    };
    for (k, v) in form_urlencoded::parse(&body) {
        match k.as_ref() {
            "csrf" => form.csrf = v.into_owned(),
            "order" => form.order.push(v.into_owned()),
            k => {
                if let Some(id) = k.strip_prefix("arg:")
                    && !v.trim().is_empty()
                {
                    form.order.push(format!("{id} {v}"));
                }
            }
        }
    }
    let Some(user) = form_sender(&req, &svc, &form.csrf).await? else {
        return Ok(to_sign_in(&here));
    };
    crate::service::orders::set(&svc, user.id, id, &form.order).await?;
    Ok(see_other(&format!("{here}#orders")))
}

/// `GET /games/{id}/log`: the whole log as I may see it; after the end, the seed and how to
/// check it.
pub async fn log(req: HttpRequest, svc: web::Data<Services>, path: web::Path<String>) -> Page {
    let id = game_id(&path)?;
    let Some(user) = me(&req, &svc).await? else {
        return Ok(to_sign_in(&format!("/games/{id}/log")));
    };
    let (game, players) = load(&svc, id).await?;
    let viewer = viewer_of(&game, seat_of(&players, user.id));
    let names = names_by_seat(&game, &players);
    let events = {
        let mut conn = svc.conn().await?;
        store::events::all(&mut conn, id)
            .await
            .map_err(ServiceError::from)?
    };
    let name = svc.rules.get(&game.ruleset).map_or("", |r| r.name());
    let finished = game.status() == GameStatus::Finished;
    let ctx = json!({
        "me": me_json(&user),
        "csrf": session::csrf(&req, &svc).token,
        "game": {
            "id": game.id, "name": name, "status": game.status, "version": game.version,
            "short_id": game.id.simple().to_string().chars().take(8).collect::<String>(),
            "seed_sha256": game.seed_sha256,
            "seed": finished.then(|| hex::encode(&game.seed)),
        },
        "log": events.iter().map(|e| json!({
            "seq": e.seq,
            "at": e.created_at.format("%Y-%m-%d %H:%M").to_string(),
            "text": name_seats(&event_view(e, viewer).description, &names),
        })).collect::<Vec<_>>(),
        "outcome": outcome_view(&game.outcome).map(|o| name_seats(&o.summary, &names)),
    });
    Ok(html(StatusCode::OK, render("log.html", &ctx)?))
}

/// `GET /games/{id}/live`: server-sent events, `event: version` with the game's version now
/// and after every committed turn; a comment every 15 s keeps proxies from closing it. It
/// ends after ten minutes (the browser reconnects by itself).
pub async fn live(
    req: HttpRequest,
    svc: web::Data<Services>,
    live: web::Data<Live>,
    path: web::Path<String>,
) -> Page {
    let id = game_id(&path)?;
    let Some(user) = me(&req, &svc).await? else {
        return Err(PageError::new(
            StatusCode::UNAUTHORIZED,
            "Sign in",
            "Sign in to follow this game.",
        ));
    };
    // The API streams' limits (issue 43): the page's stream holds a connection as long.
    let slot = svc
        .streams
        .take(user.id, super::client::client_of(&req, &svc))?;
    let rx = live.subscribe();
    let (game, _) = load(&svc, id).await?;
    let first = format!("retry: 2000\nevent: version\ndata: {}\n\n", game.version);
    let deadline = tokio::time::Instant::now() + STREAM_LIFETIME;
    let events = stream::unfold(
        (rx, Some(first), Some(slot)),
        move |(mut rx, pending, mut slot)| async move {
            if let Some(first) = pending {
                return Some((
                    Ok::<_, actix_web::Error>(web::Bytes::from(first)),
                    (rx, None, slot),
                ));
            }
            let held = slot.as_mut()?;
            loop {
                let wait = tokio::time::timeout_at(
                    deadline.min(tokio::time::Instant::now() + HEARTBEAT),
                    rx.recv(),
                );
                let next = tokio::select! {
                    next = wait => next,
                    // The server stops: close; the page's EventSource reconnects by itself, to
                    // another process or to this one restarted.
                    () = held.closing() => return None,
                };
                match next {
                    Ok(Ok(m)) if m.game == id => {
                        let chunk = format!("event: version\ndata: {}\n\n", m.version);
                        return Some((Ok(web::Bytes::from(chunk)), (rx, None, slot)));
                    }
                    Ok(Ok(_)) => {}
                    // Missed some: tell the page to look again.
                    Ok(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => {
                        let chunk = "event: version\ndata: -1\n\n".to_owned();
                        return Some((Ok(web::Bytes::from(chunk)), (rx, None, slot)));
                    }
                    Ok(Err(tokio::sync::broadcast::error::RecvError::Closed)) => return None,
                    Err(_) if tokio::time::Instant::now() >= deadline => return None,
                    Err(_) => {
                        return Some((
                            Ok(web::Bytes::from_static(b": ping\n\n")),
                            (rx, None, slot),
                        ));
                    }
                }
            }
        },
    );
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(events))
}
