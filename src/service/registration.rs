//! Registering (issue 43): the answer is the same whether or not the address has an account,
//! after the same work (the password is hashed either way), and the mail says the rest. A free
//! address gets a link that creates the account; an address with an account gets a mail
//! saying so and how to sign in, and nothing is created. Until its link is used, a
//! registration is a row of `pending_registrations` holding only the SHA-256 of the link's
//! token, good for [`REGISTRATION_TTL_SECS`].

use chrono::{Duration, Utc};
use diesel_async::AsyncConnection;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::limits::{ClientKey, day};
use super::users::{Registered, check_strength, hash, validate, view};
use super::{Result, ServiceError, Services, mail};
use crate::store::{self, models::NewUser, models::PendingRegistration};

/// How long a registration's link is good for.
pub const REGISTRATION_TTL_SECS: i64 = 24 * 3600;

/// What registering answers, whoever owns the address.
pub const ACCEPTED_DETAIL: &str = "If the address can receive mail, a message is on its way \
    to it: it has a link that creates the account (good for 24 hours), or, if the address \
    already has an account, says how to sign in. Check your mail.";

/// A registration confirmed: the account and a login token, and where the web page goes next.
pub struct Confirmed {
    pub registered: Registered,
    pub next: String,
}

fn digest(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// `POST /v1/auth/register` and the registration page: checks the request (422 and 429 do
/// not depend on who owns the address), hashes the password, and queues the mail the address
/// needs. Returns nothing that tells either case: nothing to tell. `next` is the page (a path
/// of this site) the confirmation page opens afterwards.
pub async fn register(
    svc: &Services,
    client: Option<ClientKey>,
    email: &str,
    password: &str,
    display_name: &str,
    next: &str,
) -> Result<()> {
    svc.limits.register(client)?;
    validate(email, password, display_name)?;
    let (email, name) = (email.trim(), display_name.trim());
    check_strength(svc, email, name, password).await?;
    // Hashed whether or not it is kept, so that the time taken tells nothing either.
    let password_hash = hash(password).await?;
    let now = Utc::now();
    let mut conn = svc.conn().await?;
    conn.transaction::<_, ServiceError, _>(async |conn| {
        // Two registrations of one address at once count each other's mail.
        store::caps::serialize_on(conn, &format!("register:{}", email.to_lowercase())).await?;
        store::registrations::purge_expired(conn, now).await?;
        // A few mails a day to one address at most, whoever asks for them: beyond, nothing is
        // sent or kept (and the answer is the same).
        let cap = svc.limits.settings.verification_mails_per_day;
        if cap > 0 {
            let recent = store::registrations::mails_to(
                conn,
                email,
                vec![mail::CONFIRM_KIND, mail::EXISTS_KIND],
                now - day(),
                cap.into(),
            )
            .await?;
            if recent.len() >= usize::try_from(cap).unwrap_or(usize::MAX) {
                tracing::info!("registration mail to an address over its daily cap: not sent");
                return Ok(());
            }
        }
        let row = match store::users::by_email(conn, email).await? {
            Some(user) => mail::account_exists_mail(svc, &user)?,
            None => {
                let token = data_encoding::BASE64URL_NOPAD.encode(&rand::random::<[u8; 32]>());
                let pending = PendingRegistration {
                    id: Uuid::new_v4(),
                    email: email.to_owned(),
                    display_name: name.to_owned(),
                    password_hash,
                    token_sha256: digest(&token),
                    next_path: next.to_owned(),
                    created_at: now,
                    expires_at: now + Duration::seconds(REGISTRATION_TTL_SECS),
                };
                store::registrations::insert(conn, &pending).await?;
                mail::registration_mail(svc, &pending, &token)?
            }
        };
        store::outbox::enqueue(conn, &[row]).await?;
        Ok(())
    })
    .await
}

/// `POST /v1/auth/confirm` and the confirmation page: the link's token for the account (made
/// now, its address confirmed by the link) and a login token. A link is good once and until
/// it expires (`InvalidLink` otherwise); if the address got an account meanwhile (another
/// registration confirmed first), `EmailTaken`, and nothing changes.
pub async fn confirm(svc: &Services, token: &str) -> Result<Confirmed> {
    if token.is_empty() || token.len() > 200 {
        return Err(ServiceError::InvalidLink);
    }
    let now = Utc::now();
    let mut conn = svc.conn().await?;
    let (user, next) = conn
        .transaction::<_, ServiceError, _>(async |conn| {
            let pending = store::registrations::take(conn, &digest(token))
                .await?
                .ok_or(ServiceError::InvalidLink)?;
            if pending.expires_at <= now {
                return Err(ServiceError::InvalidLink);
            }
            let user = store::users::insert(
                conn,
                NewUser {
                    id: Uuid::new_v4(),
                    email: &pending.email,
                    display_name: &pending.display_name,
                    password_hash: &pending.password_hash,
                },
            )
            .await?
            .ok_or(ServiceError::EmailTaken)?;
            // The link came by mail to the address: it is confirmed.
            store::users::mark_own_address_verified(conn, user.id).await?;
            let user = store::users::by_id(conn, user.id)
                .await?
                .ok_or(ServiceError::NotFound("account"))?;
            Ok((user, pending.next_path))
        })
        .await?;
    let (token, expires_at) = svc.jwt.issue(user.id, user.token_version, now)?;
    Ok(Confirmed {
        registered: Registered {
            token,
            expires_at,
            user: view(&user),
        },
        next,
    })
}

/// `turnpost account create`: an account made by the operator, at once, with a login token
/// (for bots and tests that have no mailbox at hand). Its address is not confirmed: game
/// mail waits until its owner confirms it (`POST /v1/me/email/verification`).
pub async fn create_account(
    svc: &Services,
    email: &str,
    password: &str,
    display_name: &str,
) -> Result<Registered> {
    validate(email, password, display_name)?;
    let (email, name) = (email.trim(), display_name.trim());
    check_strength(svc, email, name, password).await?;
    let password_hash = hash(password).await?;
    let mut conn = svc.conn().await?;
    let user = store::users::insert(
        &mut conn,
        NewUser {
            id: Uuid::new_v4(),
            email,
            display_name: name,
            password_hash: &password_hash,
        },
    )
    .await?
    .ok_or(ServiceError::EmailTaken)?;
    let (token, expires_at) = svc.jwt.issue(user.id, user.token_version, Utc::now())?;
    Ok(Registered {
        token,
        expires_at,
        user: view(&user),
    })
}

/// The token of the confirmation link in a registration mail (its outbox payload, as JSON),
/// for programs that read the outbox instead of a mailbox (the load generator, tests).
pub fn link_token(mail: &serde_json::Value) -> Option<String> {
    let text = mail.get("text")?.as_str()?;
    let (_, after) = text.split_once("/confirm?token=")?;
    let token: String = after
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    (!token.is_empty()).then_some(token)
}
