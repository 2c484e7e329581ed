//! Accounts: log in, passwords, address verification (registering: `registration.rs`).

use chrono::{DateTime, Utc};
use uuid::Uuid;

use diesel_async::AsyncConnection;

use super::limits::{ClientKey, daily_cap, day, hours};
use super::mail::VERIFY_EMAIL_KIND;
use super::views::{PreferencesView, UserView};
use super::{Result, ServiceError, Services, mail};
use crate::auth::jwt::Purpose;
use crate::auth::password;
use crate::store::{self, models::User};

pub struct Registered {
    pub token: String,
    pub expires_at: DateTime<Utc>,
    pub user: UserView,
}

pub fn view(u: &User) -> UserView {
    UserView {
        id: u.id,
        email: u.email.clone(),
        display_name: u.display_name.clone(),
    }
}

/// A password is 8 to 1024 characters (Unicode scalar values, as JSON Schema's `minLength` and
/// `maxLength` count them; the OpenAPI document says the same).
pub const MIN_PASSWORD_CHARS: usize = 8;
pub const MAX_PASSWORD_CHARS: usize = 1024;

/// Whether `password` has a length a password may have.
fn password_length_ok(password: &str) -> bool {
    // Bytes first: no counting of a huge body's characters (4 bytes a character at most).
    password.len() <= 4 * MAX_PASSWORD_CHARS
        && (MIN_PASSWORD_CHARS..=MAX_PASSWORD_CHARS).contains(&password.chars().count())
}

/// Whether `password` is longer than any password can be (what login need not hash).
fn password_too_long(password: &str) -> bool {
    password.len() > 4 * MAX_PASSWORD_CHARS || password.chars().count() > MAX_PASSWORD_CHARS
}

/// A plausible address: one `@`, a dotted domain, no spaces or control characters, and
/// something lettre can put in a To header.
pub fn valid_email(email: &str) -> bool {
    email.len() <= 254
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
        })
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
        && email.parse::<lettre::Address>().is_ok()
}

pub(super) fn validate(email: &str, password: &str, display_name: &str) -> Result<()> {
    if !valid_email(email) {
        return Err(ServiceError::Invalid("email is not a valid address".into()));
    }
    if !password_length_ok(password) {
        return Err(ServiceError::Invalid(
            "password must be 8 to 1024 characters long".into(),
        ));
    }
    valid_name(display_name)
}

fn valid_name(display_name: &str) -> Result<()> {
    let name = display_name.trim();
    if name.is_empty() || name.chars().count() > 64 {
        return Err(ServiceError::Invalid(
            "display_name must be 1 to 64 printable characters".into(),
        ));
    }
    if let Some(why) = crate::notify::names::refused(name) {
        return Err(ServiceError::Invalid(format!(
            "display_name may not contain {why}"
        )));
    }
    Ok(())
}

/// A new display name (what the other players read in mail and on pages).
pub async fn set_display_name(svc: &Services, id: Uuid, display_name: &str) -> Result<()> {
    valid_name(display_name)?;
    let mut conn = svc.conn().await?;
    if !store::users::set_display_name(&mut conn, id, display_name.trim()).await? {
        return Err(ServiceError::NotFound("account"));
    }
    Ok(())
}

/// Password hashes computed at once: each argon2id run takes ~19 MiB and a core for tens of
/// milliseconds, so a burst of logins queues here instead of multiplying memory and CPU.
fn hashing_permits() -> &'static tokio::sync::Semaphore {
    static PERMITS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    PERMITS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        tokio::sync::Semaphore::new(cores)
    })
}

/// Runs a password hash or check off the async workers, at most one per core at a time.
async fn hashing<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T> {
    let _permit = hashing_permits()
        .acquire()
        .await
        .map_err(|e| ServiceError::Unexpected(e.into()))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ServiceError::Unexpected(e.into()))
}

/// Hashing is deliberately slow: keep it off the async workers.
pub(super) async fn hash(password: &str) -> Result<String> {
    let password = password.to_owned();
    hashing(move || password::hash(&password))
        .await?
        .map_err(ServiceError::Unexpected)
}

/// Refuses a new password that is too easy to guess (zxcvbn, with the account's address and
/// name as words an attacker knows).
pub(super) async fn check_strength(
    svc: &Services,
    email: &str,
    display_name: &str,
    password: &str,
) -> Result<()> {
    let min_score = svc.limits.settings.password_min_score;
    let local = email.split_once('@').map_or(email, |(l, _)| l);
    let personal = [email.to_owned(), local.to_owned(), display_name.to_owned()];
    let password = password.to_owned();
    let weak = tokio::task::spawn_blocking(move || {
        let personal: Vec<&str> = personal.iter().map(String::as_str).collect();
        password::too_weak(&password, &personal, min_score)
    })
    .await
    .map_err(|e| ServiceError::Unexpected(e.into()))?;
    match weak {
        Some(why) => Err(ServiceError::WeakPassword(why)),
        None => Ok(()),
    }
}

/// A login token for `email` and `password`, tried from `client` (its address, when known):
/// attempts are rate-limited per client address and per account.
pub async fn login(
    svc: &Services,
    client: Option<ClientKey>,
    email: &str,
    password: &str,
) -> Result<(String, DateTime<Utc>)> {
    svc.limits.login(client, email)?;
    // No account has such an address (and PostgreSQL text cannot hold a NUL: 500 otherwise).
    if password_too_long(password) || email.contains('\0') {
        return Err(ServiceError::BadCredentials);
    }
    let user = {
        let mut conn = svc.conn().await?;
        store::users::by_email(&mut conn, email.trim()).await?
    };
    let Some(user) = user else {
        // Spend the same time as a real check so timing does not tell which emails exist.
        let _ = hash(password).await;
        return Err(ServiceError::BadCredentials);
    };
    let (password, stored) = (password.to_owned(), user.password_hash.clone());
    let ok = hashing(move || password::verify(&password, &stored)).await?;
    if !ok {
        return Err(ServiceError::BadCredentials);
    }
    Ok(svc.jwt.issue(user.id, user.token_version, Utc::now())?)
}

/// `POST /v1/me/password`: a new password for the signed-in account, given its current one
/// (tried as a login: the same limits per client address and account apply). An account
/// made by mail (an invitation accepted by reply) has no password yet: its first one needs no
/// current one, as the session itself came from a link mailed to its address. The new one
/// passes the same strength check as at registration. Every session of the account ends,
/// this one included; the answer is a new token.
pub async fn change_password(
    svc: &Services,
    client: Option<ClientKey>,
    id: Uuid,
    current: &str,
    new: &str,
) -> Result<(String, DateTime<Utc>)> {
    let user = {
        let mut conn = svc.conn().await?;
        store::users::by_id(&mut conn, id)
            .await?
            .ok_or(ServiceError::UnknownAccount)?
    };
    svc.limits.login(client, &user.email)?;
    if password_too_long(current) {
        return Err(ServiceError::WrongPassword);
    }
    if has_password(&user) {
        let (typed, stored) = (current.to_owned(), user.password_hash.clone());
        if !hashing(move || password::verify(&typed, &stored)).await? {
            return Err(ServiceError::WrongPassword);
        }
    }
    if !password_length_ok(new) {
        return Err(ServiceError::Invalid(
            "new_password must be 8 to 1024 characters long".into(),
        ));
    }
    check_strength(svc, &user.email, &user.display_name, new).await?;
    let new_hash = hash(new).await?;
    let version = {
        let mut conn = svc.conn().await?;
        store::users::set_password(&mut conn, id, &new_hash)
            .await?
            .ok_or(ServiceError::UnknownAccount)?
    };
    super::sessions::raised(svc, id, version);
    Ok(svc.jwt.issue(id, version, Utc::now())?)
}

/// Whether the account has a password to sign in with (an account made by mail has none
/// until it sets one: it signs in by the links in its mail).
pub fn has_password(user: &User) -> bool {
    !user.password_hash.is_empty()
}

/// The user of a verified token, if the account still exists.
pub async fn current(svc: &Services, id: Uuid) -> Result<Option<User>> {
    let mut conn = svc.conn().await?;
    Ok(store::users::by_id(&mut conn, id).await?)
}

/// `POST /v1/me/email/verification`: sends the verification mail again, unless the account
/// was sent `verification_mails_per_day` of them in the last 24 hours (the registration's
/// included): the address has never been confirmed, so it may not be its owner's.
pub async fn resend_verification(svc: &Services, id: Uuid) -> Result<()> {
    let cap = svc.limits.settings.verification_mails_per_day;
    let mut conn = svc.conn().await?;
    conn.transaction::<_, ServiceError, _>(async |conn| {
        // Two requests at once: the second waits here, then counts the first's mail.
        let user = store::users::lock(conn, id)
            .await?
            .ok_or(ServiceError::NotFound("account"))?;
        if user.email_verified_at.is_some() {
            return Err(ServiceError::WrongStatus("already verified".into()));
        }
        let now = Utc::now();
        let recent =
            store::caps::mail_to_user(conn, id, VERIFY_EMAIL_KIND, now - day(), cap.into()).await?;
        daily_cap(&recent, cap, now, |secs| {
            format!(
                "{cap} verification mails were sent to this address in the last 24 hours; \
                 ask again in {} h, or check the spam folder",
                hours(secs)
            )
        })?;
        store::outbox::enqueue(conn, &[mail::verification_mail(svc, &user)?]).await?;
        Ok(())
    })
    .await
}

/// "Mail me a sign-in link": queues a sign-in mail to `email`, whose link opens `next` (a path
/// of this site), if it is the verified address of an account that was not sent one in the
/// last minute. The caller learns nothing of
/// which (the page says the same either way), so nobody can find out who has an account.
pub async fn mail_sign_in_link(svc: &Services, email: &str, next: &str) -> Result<()> {
    let email = email.trim();
    if !valid_email(email) {
        return Ok(());
    }
    let mut conn = svc.conn().await?;
    let Some(user) = store::users::by_email(&mut conn, email).await? else {
        return Ok(());
    };
    if user.email_verified_at.is_none() {
        return Ok(());
    }
    conn.transaction::<_, ServiceError, _>(async |conn| {
        // Two requests at once for one account: the second waits here, then sees the first's row.
        let Some(user) = store::users::lock(conn, user.id).await? else {
            return Ok(());
        };
        let recent = store::outbox::queued_within(
            conn,
            user.id,
            mail::SIGN_IN_KIND,
            mail::SIGN_IN_MAIL_EVERY_SECS,
        )
        .await?;
        if !recent && user.email_verified_at.is_some() {
            store::outbox::enqueue(conn, &[mail::sign_in_mail(svc, &user, next)?]).await?;
        }
        Ok(())
    })
    .await
}

/// `GET /v1/email/verify?token=`: confirms the address the link was sent to.
pub async fn verify_email(svc: &Services, token: &str) -> Result<User> {
    let claims = svc
        .jwt
        .check(Purpose::VerifyEmail, token)
        .map_err(|_| ServiceError::InvalidLink)?;
    let email = claims.email.ok_or(ServiceError::InvalidLink)?;
    let mut conn = svc.conn().await?;
    if !store::users::mark_verified(&mut conn, claims.sub, &email).await? {
        // The account is gone or its address changed since the link was sent.
        return Err(ServiceError::InvalidLink);
    }
    store::users::by_id(&mut conn, claims.sub)
        .await?
        .ok_or(ServiceError::InvalidLink)
}

pub fn preferences_view(user: &User) -> PreferencesView {
    PreferencesView {
        mail: user.mail_preference.clone(),
        email_verified: user.email_verified_at.is_some(),
        pictures: user.mail_pictures,
    }
}

pub async fn preferences(svc: &Services, id: Uuid) -> Result<PreferencesView> {
    let mut conn = svc.conn().await?;
    let user = store::users::by_id(&mut conn, id)
        .await?
        .ok_or(ServiceError::NotFound("account"))?;
    Ok(preferences_view(&user))
}

/// Sets the mail preference and/or whether mail carries the board's picture (each left as it
/// is when `None`).
pub async fn set_preferences(
    svc: &Services,
    id: Uuid,
    mail: Option<&str>,
    pictures: Option<bool>,
) -> Result<PreferencesView> {
    if mail.is_some_and(|m| !matches!(m, "all" | "turns" | "none")) {
        return Err(ServiceError::Invalid(
            "mail must be one of all, turns, none".into(),
        ));
    }
    if mail.is_none() && pictures.is_none() {
        return Err(ServiceError::Invalid(
            "give mail (all, turns or none), pictures (true or false), or both".into(),
        ));
    }
    let mut conn = svc.conn().await?;
    if let Some(mail) = mail {
        store::users::set_preference(&mut conn, id, mail).await?;
    }
    if let Some(pictures) = pictures {
        store::users::set_mail_pictures(&mut conn, id, pictures).await?;
    }
    preferences(svc, id).await
}

/// One-click unsubscribe (RFC 8058): the signed link alone is enough, no login.
pub async fn unsubscribe(svc: &Services, token: &str) -> Result<()> {
    let claims = svc
        .jwt
        .check(Purpose::Unsubscribe, token)
        .map_err(|_| ServiceError::InvalidLink)?;
    let mut conn = svc.conn().await?;
    store::users::set_preference(&mut conn, claims.sub, "none").await?;
    Ok(())
}
