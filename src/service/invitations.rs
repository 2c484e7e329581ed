//! Invitations to a seat by email address: the mail with a signed join link and a signed
//! reply address, the seat held for the invitee until the invitation expires or is declined,
//! accepting (by the API, the invitation page or a reply: `invitation_replies`) and declining.

use chrono::{DateTime, Utc};
use diesel_async::AsyncConnection;
use uuid::Uuid;

use super::game_views::{game_view, seat_of};
use super::games::join_in;
use super::invitees::same_address;
use super::limits::{daily_cap, day, hours};
use super::views::{GameView, InvitationView};
use super::{Result, ServiceError, Services, invitation_mail};
use crate::auth::jwt::Purpose;
use crate::store::caps::{Invitations, invitations};
use crate::store::models::{Game, GameStatus, Invitation, NewUser, SeatPlayer, User};
use crate::store::{self, Conn};

/// `POST /v1/games/{id}/invitations`: a seated player invites an address to an open game.
/// An account sends at most `invitations_per_day` invitations in 24 hours, and an address
/// that no account has confirmed receives at most `invitations_per_address_per_day` (from
/// everybody together), so Turnpost cannot be made to mail strangers in bulk.
pub async fn invite(
    svc: &Services,
    user: Uuid,
    game_id: Uuid,
    email: &str,
    seat: Option<i64>,
) -> Result<InvitationView> {
    let email = email.trim();
    if !super::users::valid_email(email) {
        return Err(ServiceError::Invalid("email is not a valid address".into()));
    }
    let mut conn = svc.conn().await?;
    conn.transaction::<_, ServiceError, _>(async |conn| {
        let game = store::games::lock(conn, game_id)
            .await?
            .ok_or(ServiceError::NotFound("game"))?;
        let players = store::games::seat_players(conn, game_id).await?;
        if seat_of(&players, user).is_none() {
            return Err(ServiceError::NotAPlayer);
        }
        if game.status() != GameStatus::Open {
            return Err(ServiceError::WrongStatus(game.status.clone()));
        }
        let now = Utc::now();
        let seat = match seat {
            None => None,
            Some(s) => {
                let s = super::game_views::seat_number(&game, s, "seat")?;
                if players.iter().any(|p| p.seat == s) {
                    return Err(ServiceError::SeatUnavailable(format!("seat {s} is taken")));
                }
                let pending = store::invitations::pending_in(conn, &[game_id], now).await?;
                if pending
                    .iter()
                    .any(|i| i.seat == Some(s) && !same_address(&i.email, email))
                {
                    return Err(ServiceError::SeatUnavailable(format!(
                        "seat {s} is held for another invited player"
                    )));
                }
                Some(s)
            }
        };
        within_caps(svc, conn, user, email).await?;
        let inviter = players
            .iter()
            .find(|p| p.user_id == user)
            .map(|p| p.display_name.clone())
            .unwrap_or_default();
        let id = Uuid::new_v4();
        let (token, expires_at) = svc.jwt.sign(
            Purpose::Invitation,
            id,
            Some(email.to_owned()),
            now,
            svc.mail.link_ttl_secs,
        )?;
        let invitation = Invitation {
            id,
            game_id,
            seat,
            email: email.to_owned(),
            invited_by: user,
            created_at: now,
            accepted_by: None,
            accepted_at: None,
            expires_at,
            declined_at: None,
        };
        store::invitations::insert(conn, &invitation).await?;
        let row = invitation_mail::invitation(svc, &game, &players, &invitation, &inviter, &token)?;
        store::outbox::enqueue(conn, &[row]).await?;
        Ok(view_of(&invitation))
    })
    .await
}

fn view_of(inv: &Invitation) -> InvitationView {
    InvitationView {
        id: inv.id,
        game_id: inv.game_id,
        email: inv.email.clone(),
        seat: inv.seat,
        invited_by: inv.invited_by,
        expires_at: inv.expires_at,
        accepted: inv.accepted_by.is_some(),
    }
}

/// Refuses an invitation over a per-day cap. Inside the invitation's transaction, after its
/// game's lock, and serialized per inviter and then per address (no other transaction takes
/// these locks, and each takes them in this order), so invitations sent at once are counted
/// one after the other.
async fn within_caps(svc: &Services, conn: &mut Conn, user: Uuid, email: &str) -> Result<()> {
    let settings = &svc.limits.settings;
    let now = Utc::now();
    let (per_user, per_address) = (
        settings.invitations_per_day,
        settings.invitations_per_address_per_day,
    );
    store::caps::serialize_on(conn, &format!("invitations by {user}")).await?;
    let sent = invitations(conn, Invitations::By(user), now - day(), per_user.into()).await?;
    daily_cap(&sent, per_user, now, |secs| {
        format!(
            "you sent {per_user} invitations in the last 24 hours; you may send more in {} h",
            hours(secs)
        )
    })?;
    let confirmed = store::users::by_email(conn, email)
        .await?
        .is_some_and(|u| u.email_verified_at.is_some());
    if !confirmed {
        let address = email.to_lowercase();
        store::caps::serialize_on(conn, &format!("invitations to {address}")).await?;
        let received = invitations(
            conn,
            Invitations::To(&address),
            now - day(),
            per_address.into(),
        )
        .await?;
        daily_cap(&received, per_address, now, |secs| {
            format!(
                "this address was invited {per_address} times in the last 24 hours and has no \
                 confirmed account; it can be invited again in {} h",
                hours(secs)
            )
        })?;
    }
    Ok(())
}

/// The invitation a join link names (a forged, altered or expired link names none).
pub fn invitation_id(svc: &Services, token: &str) -> Result<Uuid> {
    svc.jwt
        .check(Purpose::Invitation, token)
        .map(|c| c.sub)
        .map_err(|_| ServiceError::InvalidLink)
}

/// `GET /v1/invitations/accept?token=`: what the link invites to (no login needed).
pub async fn show(svc: &Services, token: &str) -> Result<(InvitationView, GameView)> {
    let (inv, game, players) = load(svc, invitation_id(svc, token)?).await?;
    Ok((view_of(&inv), game_view(&game, &players)))
}

/// An invitation with its game and the game's players.
pub async fn load(svc: &Services, id: Uuid) -> Result<(Invitation, Game, Vec<SeatPlayer>)> {
    let mut conn = svc.conn().await?;
    let inv = store::invitations::get(&mut conn, id)
        .await?
        .ok_or(ServiceError::InvalidLink)?;
    let (game, players) = store::games::get_with_players(&mut conn, inv.game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    Ok((inv, game, players))
}

/// `POST /v1/invitations/accept`: the signed-in caller takes the invited seat (or the lowest
/// free one). An invitation is bound to the address it was mailed to: only the account with
/// that address may accept it. If that account's address is not confirmed yet (a newcomer
/// who registered after the invitation came), accepting confirms it, as the link proves
/// that its holder reads the address's mail. Anybody else is refused (`NotInvited`), so a
/// forwarded or leaked link seats nobody else. An invitation is good for one acceptance.
pub async fn accept(svc: &Services, user: Uuid, token: &str) -> Result<GameView> {
    accept_by_id(svc, user, invitation_id(svc, token)?).await
}

/// [`accept`] by the invitation's id, for a caller already known to read its address (a
/// signed-in account: only the invited address's own account is let in).
pub async fn accept_by_id(svc: &Services, user: Uuid, id: Uuid) -> Result<GameView> {
    let mut conn = svc.conn().await?;
    conn.transaction::<_, ServiceError, _>(async |conn| {
        let inv = store::invitations::lock(conn, id)
            .await?
            .ok_or(ServiceError::InvalidLink)?;
        let account = store::users::by_id(conn, user)
            .await?
            .ok_or(ServiceError::UnknownAccount)?;
        if !same_address(&account.email, &inv.email) {
            return Err(ServiceError::NotInvited(format!(
                "this invitation was sent to {}, and you are signed in as {}; sign in with \
                 the account of the invited address (or register one with it), or ask the \
                 inviter to invite {}",
                inv.email, account.email, account.email
            )));
        }
        accept_in(svc, conn, &inv, &account).await
    })
    .await
}

/// Seats `account` (whose address the caller has checked is the invited one) by `inv`, inside
/// the caller's transaction, which holds the invitation's lock.
pub async fn accept_in(
    svc: &Services,
    conn: &mut Conn,
    inv: &Invitation,
    account: &User,
) -> Result<GameView> {
    if inv.accepted_by.is_some() {
        return Err(ServiceError::SeatUnavailable(
            "this invitation was already accepted".into(),
        ));
    }
    if inv.declined_at.is_some() {
        return Err(ServiceError::SeatUnavailable(
            "this invitation was declined; ask the inviter for a new one".into(),
        ));
    }
    if inv.expires_at <= Utc::now() {
        return Err(ServiceError::InvalidLink);
    }
    // Confirmed first, so that the mail of a game this seat starts goes to the address.
    if account.email_verified_at.is_none() {
        store::users::mark_own_address_verified(conn, account.id).await?;
    }
    let view = join_in(svc, conn, account.id, inv.game_id, inv.seat.map(i64::from)).await?;
    store::invitations::mark_accepted(conn, inv.id, account.id).await?;
    Ok(view)
}

/// Declines `inv` (the caller holds its lock and has checked who asks): its seat is free for
/// anybody again, and the inviter is told by mail. `Ok(false)` if it was no longer pending.
pub async fn decline_in(
    svc: &Services,
    conn: &mut Conn,
    inv: &Invitation,
    now: DateTime<Utc>,
) -> Result<bool> {
    if inv.accepted_by.is_some() || inv.declined_at.is_some() || inv.expires_at <= now {
        return Ok(false);
    }
    store::invitations::mark_declined(conn, inv.id, now).await?;
    let game = store::games::get(conn, inv.game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    if let Some(inviter) = store::users::by_id(conn, inv.invited_by).await?
        && super::mail::receives(&inviter, invitation_mail::DECLINED_KIND)
    {
        let row = invitation_mail::declined(svc, &game, inv, &inviter)?;
        store::outbox::enqueue(conn, &[row]).await?;
    }
    Ok(true)
}

/// Declines the invitation of a join link (whoever holds the link read the invited address's
/// mail). `Ok(false)` if it was no longer pending.
pub async fn decline(svc: &Services, token: &str) -> Result<(bool, Uuid)> {
    decline_by_id(svc, invitation_id(svc, token)?, None).await
}

/// Declines invitation `id`, for `user` if given (who must have the invited address); the
/// game's id comes back for the page that follows.
pub async fn decline_by_id(svc: &Services, id: Uuid, user: Option<&User>) -> Result<(bool, Uuid)> {
    let mut conn = svc.conn().await?;
    conn.transaction::<_, ServiceError, _>(async |conn| {
        let inv = store::invitations::lock(conn, id)
            .await?
            .ok_or(ServiceError::InvalidLink)?;
        if let Some(user) = user
            && !same_address(&user.email, &inv.email)
        {
            return Err(ServiceError::NotInvited(format!(
                "this invitation was sent to {}, not to {}",
                inv.email, user.email
            )));
        }
        let declined = decline_in(svc, conn, &inv, Utc::now()).await?;
        Ok((declined, inv.game_id))
    })
    .await
}

/// The account of `email`, made now if there is none, with its address confirmed (the
/// caller has proof that whoever acts reads that address's mail: an answer to the mail, or
/// its signed link). A new account has no password (it cannot sign in with one until its
/// owner sets one) and is named `name`, or after the address.
pub async fn account_for(conn: &mut Conn, email: &str, name: Option<&str>) -> Result<User> {
    if let Some(user) = store::users::by_email(conn, email).await? {
        return Ok(user);
    }
    let name = newcomer_name(name, email);
    let user = store::users::insert(
        conn,
        NewUser {
            id: Uuid::new_v4(),
            email,
            display_name: &name,
            // No hash matches this: the account signs in by mailed links until it has a password.
            password_hash: "",
        },
    )
    .await?
    .ok_or(ServiceError::EmailTaken)?;
    store::users::mark_own_address_verified(conn, user.id).await?;
    store::users::by_id(conn, user.id)
        .await?
        .ok_or(ServiceError::NotFound("account"))
}

/// A display name for a newcomer: the name they gave (or their mail's `From` name), else the
/// address's local part; printable, 1 to 64 characters.
pub fn newcomer_name(given: Option<&str>, email: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_control() && !crate::notify::names::is_invisible(*c))
            .collect::<String>()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .take(64)
            .collect()
    };
    let given = given
        .map(clean)
        .filter(|n| !n.is_empty() && !n.contains('@'));
    given.unwrap_or_else(|| {
        let local = clean(email.split('@').next().unwrap_or_default());
        if local.is_empty() {
            "Player".into()
        } else {
            local
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newcomer_is_named_by_their_mail_or_their_address() {
        assert_eq!(
            newcomer_name(Some("  Alma  Ruiz "), "a@x.test"),
            "Alma Ruiz"
        );
        assert_eq!(newcomer_name(Some(""), "alma.ruiz@x.test"), "alma.ruiz");
        assert_eq!(newcomer_name(Some("alma@x.test"), "alma@x.test"), "alma");
        assert_eq!(newcomer_name(None, "b@x.test"), "b");
        assert_eq!(newcomer_name(Some(&"n".repeat(80)), "b@x.test").len(), 64);
    }
}
