//! Invitations to a seat by email address, with a signed join link.

use chrono::Utc;
use diesel_async::AsyncConnection;
use uuid::Uuid;

use super::games::{game_view, join_in, seat_of};
use super::limits::{daily_cap, day, hours};
use super::views::{GameView, InvitationView};
use super::{Result, ServiceError, Services, mail};
use crate::auth::jwt::Purpose;
use crate::store::caps::{Invitations, invitations};
use crate::store::models::{GameStatus, Invitation};
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
        let seat = match seat {
            None => None,
            Some(s) => {
                let s = super::games::seat_number(&game, s, "seat")?;
                if players.iter().any(|p| p.seat == s) {
                    return Err(ServiceError::SeatUnavailable(format!("seat {s} is taken")));
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
        let invitation = Invitation {
            id: Uuid::new_v4(),
            game_id,
            seat,
            email: email.to_owned(),
            invited_by: user,
            created_at: Utc::now(),
            accepted_by: None,
            accepted_at: None,
        };
        store::invitations::insert(conn, &invitation).await?;
        let (token, expires_at) = svc.jwt.sign(
            Purpose::Invitation,
            invitation.id,
            Some(email.to_owned()),
            Utc::now(),
            svc.mail.link_ttl_secs,
        )?;
        let row = mail::invitation_mail(svc, &game, email, seat, &inviter, &token, expires_at)?;
        store::outbox::enqueue(conn, &[row]).await?;
        Ok(InvitationView {
            id: invitation.id,
            game_id,
            email: invitation.email,
            seat,
            invited_by: user,
            expires_at,
            accepted: false,
        })
    })
    .await
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

fn invitation_id(svc: &Services, token: &str) -> Result<Uuid> {
    svc.jwt
        .check(Purpose::Invitation, token)
        .map(|c| c.sub)
        .map_err(|_| ServiceError::InvalidLink)
}

/// `GET /v1/invitations/accept?token=`: what the link invites to (no login needed).
pub async fn show(svc: &Services, token: &str) -> Result<(InvitationView, GameView)> {
    let id = invitation_id(svc, token)?;
    let mut conn = svc.conn().await?;
    let inv = store::invitations::get(&mut conn, id)
        .await?
        .ok_or(ServiceError::InvalidLink)?;
    let game = store::games::get(&mut conn, inv.game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    let players = store::games::seat_players(&mut conn, inv.game_id).await?;
    let expires_at = svc
        .jwt
        .check(Purpose::Invitation, token)
        .ok()
        .and_then(|c| chrono::DateTime::from_timestamp(c.exp, 0))
        .unwrap_or_else(Utc::now);
    Ok((
        InvitationView {
            id: inv.id,
            game_id: inv.game_id,
            email: inv.email,
            seat: inv.seat,
            invited_by: inv.invited_by,
            expires_at,
            accepted: inv.accepted_by.is_some(),
        },
        game_view(&game, &players),
    ))
}

/// `POST /v1/invitations/accept`: the signed-in caller takes the invited seat (or the lowest
/// free one). An invitation is bound to the address it was mailed to: only the account with
/// that address may accept it. If that account's address is not confirmed yet (a newcomer
/// who registered after the invitation came), accepting confirms it, as the link proves
/// that its holder reads the address's mail. Anybody else is refused (`NotInvited`), so a
/// forwarded or leaked link seats nobody else. An invitation is good for one acceptance.
pub async fn accept(svc: &Services, user: Uuid, token: &str) -> Result<GameView> {
    let id = invitation_id(svc, token)?;
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
        if inv.accepted_by.is_some() {
            return Err(ServiceError::SeatUnavailable(
                "this invitation was already accepted".into(),
            ));
        }
        let view = join_in(svc, conn, user, inv.game_id, inv.seat.map(i64::from)).await?;
        store::invitations::mark_accepted(conn, id, user).await?;
        if account.email_verified_at.is_none() {
            store::users::mark_own_address_verified(conn, user).await?;
        }
        Ok(view)
    })
    .await
}

/// Whether two addresses are the same mailbox as Turnpost counts them (accounts are unique
/// by address without case).
fn same_address(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}
