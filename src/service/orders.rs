//! Standing orders (DESIGN.md, "Pace: a turn per reply"): a player tells a game in advance how
//! to answer recurring small decisions ("pass in reaction windows unless I am the target"),
//! from the list its ruleset offers (`Ruleset::standing_orders`). They are the seat's own:
//! only its player sees them (API, mail, page); each decision one makes is played by the same
//! submit use case (`Play::run_robots`) and logged as the player's own action. Set by
//! `PUT /v1/games/{id}/orders`, the mail command `ORDERS`, or the game page; cleared when the
//! seat changes hands.

use diesel_async::AsyncConnection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::game_views::seat_of;
use super::submit::Play;
use super::{Result, ServiceError, Services};
use crate::store::models::{Game, GameStatus, SeatPlayer, User};
use crate::store::{self, Conn};

/// One standing order a ruleset offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct OrderView {
    /// Its id, to send in `orders`.
    pub id: String,
    /// What it does, in words.
    pub description: String,
}

/// The caller's standing orders in a game, and those its ruleset offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct OrdersView {
    /// The ids of the orders in force for the caller's seat (nobody else sees them).
    pub orders: Vec<String>,
    /// Every order this game's ruleset offers.
    pub available: Vec<OrderView>,
}

/// What the ruleset of `game` offers.
pub fn available(svc: &Services, game: &Game) -> Vec<OrderView> {
    svc.rules
        .get(&game.ruleset)
        .map(|rules| {
            rules
                .standing_orders()
                .into_iter()
                .map(|o| OrderView {
                    id: o.id.to_owned(),
                    description: o.description.to_owned(),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// `GET /v1/games/{id}/orders`.
pub async fn get(svc: &Services, user: Uuid, game_id: Uuid) -> Result<OrdersView> {
    let mut conn = svc.conn().await?;
    let (game, players) = store::games::get_with_players(&mut conn, game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    let seat = seat_of(&players, user).ok_or(ServiceError::NotAPlayer)?;
    Ok(view(svc, &game, &players, seat))
}

fn view(svc: &Services, game: &Game, players: &[SeatPlayer], seat: i32) -> OrdersView {
    OrdersView {
        orders: players
            .iter()
            .find(|p| p.seat == seat)
            .map(|p| p.orders.clone())
            .unwrap_or_default(),
        available: available(svc, game),
    }
}

/// The ids of `wanted` checked against what the ruleset offers, each once, in the ruleset's
/// order; an unknown one is refused, naming the ones there are.
pub fn checked(offered: &[OrderView], wanted: &[String]) -> Result<Vec<String>> {
    if let Some(unknown) = wanted
        .iter()
        .find(|w| !offered.iter().any(|o| o.id.eq_ignore_ascii_case(w.trim())))
    {
        let known: Vec<&str> = offered.iter().map(|o| o.id.as_str()).collect();
        return Err(ServiceError::Invalid(if known.is_empty() {
            format!("this game offers no standing orders (not even {unknown:?})")
        } else {
            format!(
                "{unknown:?} is not a standing order of this game; there are: {}",
                known.join(", ")
            )
        }));
    }
    Ok(offered
        .iter()
        .filter(|o| wanted.iter().any(|w| o.id.eq_ignore_ascii_case(w.trim())))
        .map(|o| o.id.clone())
        .collect())
}

/// `PUT /v1/games/{id}/orders`: replaces the caller's standing orders (an empty list clears
/// them). If one answers the decision the seat faces now, it is played at once.
pub async fn set(
    svc: &Services,
    user: Uuid,
    game_id: Uuid,
    wanted: &[String],
) -> Result<OrdersView> {
    let mut conn = svc.conn().await?;
    conn.transaction::<_, ServiceError, _>(async |conn| {
        let (mut game, players, users) = store::games::lock_with_players(conn, game_id)
            .await?
            .ok_or(ServiceError::NotFound("game"))?;
        let seat = seat_of(&players, user).ok_or(ServiceError::NotAPlayer)?;
        set_locked(svc, conn, &mut game, players, &users, seat, wanted).await
    })
    .await
}

/// [`set`] for a game the caller has locked, with its players: also the mail command's path.
pub async fn set_locked(
    svc: &Services,
    conn: &mut Conn,
    game: &mut Game,
    mut players: Vec<SeatPlayer>,
    users: &[User],
    seat: i32,
    wanted: &[String],
) -> Result<OrdersView> {
    if !matches!(game.status(), GameStatus::Open | GameStatus::Active) {
        return Err(ServiceError::WrongStatus(game.status.clone()));
    }
    let orders = checked(&available(svc, game), wanted)?;
    store::games::set_standing_orders(conn, game.id, seat, &orders).await?;
    if let Some(p) = players.iter_mut().find(|p| p.seat == seat) {
        p.orders = orders;
    }
    if game.status() == GameStatus::Active && game.to_act.contains(&seat) {
        answer_now(svc, conn, game, &players, users).await?;
    }
    Ok(view(svc, game, &players, seat))
}

/// Plays what the standing orders answer now (and what follows them), as a turn.
async fn answer_now(
    svc: &Services,
    conn: &mut Conn,
    game: &mut Game,
    players: &[SeatPlayer],
    users: &[User],
) -> Result<()> {
    let Some(snapshot) = &game.state else {
        return Ok(());
    };
    let state = svc.load_state(game, snapshot)?;
    let mut play = Play::new(game, state, game.version + 1, svc.clock.now()).with_orders(players);
    play.run_robots(&game.robots)?;
    if play.events.is_empty() {
        return Ok(());
    }
    let before = game.to_act.clone();
    play.commit(svc, conn, game, &before, players, users, vec![])
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offered() -> Vec<OrderView> {
        ["pass-unless-targeted", "end-turn"]
            .iter()
            .map(|id| OrderView {
                id: (*id).into(),
                description: String::new(),
            })
            .collect()
    }

    #[test]
    fn orders_are_checked_against_the_ruleset_and_kept_once_in_its_order() {
        let got = checked(
            &offered(),
            &[
                "END-TURN".into(),
                "pass-unless-targeted".into(),
                "end-turn".into(),
            ],
        )
        .unwrap_or_default();
        assert_eq!(got, vec!["pass-unless-targeted", "end-turn"]);
        let refused = checked(&offered(), &["pass-always".into()]);
        assert!(
            matches!(&refused, Err(ServiceError::Invalid(why)) if why.contains("pass-unless-targeted")),
            "{refused:?}"
        );
        assert_eq!(
            checked(&offered(), &[]).unwrap_or_default(),
            Vec::<String>::new()
        );
    }
}
