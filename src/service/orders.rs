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
use crate::rules::{Game as Rules, OrderDoc};
use crate::store::models::{Game, GameStatus, SeatPlayer, User};
use crate::store::{self, Conn};

/// One standing order a ruleset offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct OrderView {
    /// Its id, to send in `orders`.
    pub id: String,
    /// What it does, in words.
    pub description: String,
    /// What the order takes after its id, in words, if it takes anything: such an order is
    /// sent as one text, its id first (`characters oracle queen`). Absent for an order that is
    /// its id alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub argument: Option<String>,
}

/// The caller's standing orders in a game, and those its ruleset offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct OrdersView {
    /// The orders in force for the caller's seat (nobody else sees them): each its id, then
    /// what it takes if it takes anything (`characters oracle queen`).
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
                    argument: o.argument.map(str::to_owned),
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

/// The most words in the orders of one seat (ids and what they take, together).
const MAX_WORDS: usize = 64;

/// The orders `wanted`, as a player gave them, checked against what the ruleset offers and
/// normalised (`rules::Game::check_order`), each once, in the ruleset's order (an order given
/// twice: the last one). The texts are read as one run of words, spaces or commas between:
/// an order's id begins an order and the words after it, up to the next id, are what it takes
/// (`characters oracle queen`), so `["characters oracle", "queen"]` (a list) and
/// `"characters oracle queen play-lone-choices"` (a mail's line) both do. An unknown id, an
/// argument given to an order that takes none, or a bad argument is refused, naming what
/// there is.
pub fn checked(rules: Option<&dyn Rules>, wanted: &[String]) -> Result<Vec<String>> {
    let offered = rules.map(|r| r.standing_orders()).unwrap_or_default();
    let known = || {
        let ids: Vec<&str> = offered.iter().map(|o| o.id).collect();
        ids.join(", ")
    };
    let words: Vec<&str> = wanted
        .iter()
        .flat_map(|w| w.split(|c: char| c.is_whitespace() || c == ','))
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() > MAX_WORDS {
        return Err(ServiceError::Invalid(format!(
            "at most {MAX_WORDS} words of standing orders"
        )));
    }
    // Grouped: an id, then the words it takes.
    let mut groups: Vec<(&OrderDoc, Vec<&str>)> = Vec::new();
    for word in words {
        if let Some(doc) = offered.iter().find(|o| o.id.eq_ignore_ascii_case(word)) {
            groups.push((doc, vec![]));
            continue;
        }
        match groups.last_mut() {
            Some((doc, args)) if doc.argument.is_some() => args.push(word),
            last => {
                let after = last.map_or(String::new(), |(doc, _)| {
                    format!(" ({} takes nothing after it)", doc.id)
                });
                return Err(ServiceError::Invalid(if offered.is_empty() {
                    format!("this game offers no standing orders (not even {word:?})")
                } else {
                    format!(
                        "{word:?} is not a standing order of this game{after}; there are: {}",
                        known()
                    )
                }));
            }
        }
    }
    let mut kept: Vec<(&str, String)> = Vec::new();
    for (doc, args) in groups {
        let text = std::iter::once(doc.id)
            .chain(args)
            .collect::<Vec<_>>()
            .join(" ");
        let order = rules
            .ok_or_else(|| ServiceError::Invalid("this game offers no standing orders".into()))?
            .check_order(&text)
            .map_err(ServiceError::Invalid)?;
        kept.retain(|(id, _)| *id != doc.id);
        kept.push((doc.id, order));
    }
    Ok(offered
        .iter()
        .filter_map(|o| kept.iter().find(|(id, _)| *id == o.id))
        .map(|(_, order)| order.clone())
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
    let orders = checked(svc.rules.get(&game.ruleset), wanted)?;
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
    use crate::rules::Registry;

    fn check(ruleset: &str, wanted: &[&str]) -> Result<Vec<String>> {
        let registry = Registry::standard();
        let wanted: Vec<String> = wanted.iter().map(|w| (*w).to_owned()).collect();
        checked(registry.get(ruleset), &wanted)
    }

    fn refused(got: &Result<Vec<String>>, words: &[&str]) -> bool {
        matches!(got, Err(ServiceError::Invalid(why)) if words.iter().all(|w| why.contains(w)))
    }

    #[test]
    fn orders_are_checked_against_the_ruleset_and_kept_once_in_its_order() {
        let got = check(
            "wiz-war",
            &[
                "PASS-UNLESS-TARGETED",
                "play-lone-choices",
                "pass-unless-targeted",
            ],
        )
        .unwrap_or_default();
        assert_eq!(got, vec!["play-lone-choices", "pass-unless-targeted"]);
        let unknown = check("wiz-war", &["pass-always"]);
        assert!(
            refused(&unknown, &["\"pass-always\"", "pass-unless-targeted"]),
            "{unknown:?}"
        );
        assert_eq!(
            check("wiz-war", &[]).unwrap_or_default(),
            Vec::<String>::new()
        );
        assert!(refused(
            &check("no-such-game", &["end-turn"]),
            &["no standing orders"]
        ));
    }

    #[test]
    fn an_order_that_takes_an_argument_is_its_id_and_the_words_after_it() {
        // As the API sends them (one text an order) and as a mail's line does (one run).
        let want = vec!["play-lone-choices", "characters oracle queen"];
        assert_eq!(
            check(
                "bag-of-fate",
                &["Characters Oracle, QUEEN", "play-lone-choices"]
            )
            .unwrap_or_default(),
            want
        );
        assert_eq!(
            check(
                "bag-of-fate",
                &["characters oracle queen play-lone-choices"]
            )
            .unwrap_or_default(),
            want
        );
        // Given twice: the last one.
        assert_eq!(
            check("bag-of-fate", &["characters wizard", "characters farmer"]).unwrap_or_default(),
            vec!["characters farmer"]
        );
        // An unknown character is refused, naming the characters.
        let thief = check("bag-of-fate", &["characters oracle thief"]);
        assert!(
            refused(&thief, &["\"thief\"", "queen, oracle"]),
            "{thief:?}"
        );
        // An argument to an order that takes none, or none to one that takes one.
        let extra = check("bag-of-fate", &["play-lone-choices oracle"]);
        assert!(
            refused(&extra, &["\"oracle\"", "play-lone-choices takes nothing"]),
            "{extra:?}"
        );
        let bare = check("bag-of-fate", &["characters"]);
        assert!(refused(&bare, &["characters needs"]), "{bare:?}");
        let too_many = check("bag-of-fate", &[&"characters queen ".repeat(40)]);
        assert!(refused(&too_many, &["at most"]), "{too_many:?}");
    }
}
