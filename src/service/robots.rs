//! The bot worker (issue 38, "the service never waits on a bot"): a request lets the bot
//! decide at most [`crate::bots::DECISIONS_PER_REQUEST`] times ([`Play::run_robots`]) and
//! commits; a seat the bot plays that still has to decide then shows in the game's `to_act`.
//! Each round of the deadline worker ([`super::clock::run`]) also finds such games (the
//! partial index `games_bot_turns`), claims each with `FOR UPDATE SKIP LOCKED` (a game a
//! submission or another worker holds is skipped and looked at next round), and lets the bot
//! play another turn's worth in a transaction of its own, logged and announced like any turn.

use diesel_async::AsyncConnection;
use uuid::Uuid;

use super::submit::Play;
use super::{Result, ServiceError, Services};
use crate::store::models::GameStatus;
use crate::store::{self, Conn};

/// Games continued per round at most (the rest wait for the next round).
const GAMES_PER_ROUND: i64 = 64;

/// One round: every game waiting for a bot seat gets a turn's worth of bot decisions, each
/// in its own transaction. Returns how many games moved.
pub async fn tick(svc: &Services) -> Result<usize> {
    let waiting = {
        let mut conn = svc.conn().await?;
        store::robots::waiting_for_bots(&mut conn, GAMES_PER_ROUND).await?
    };
    let mut moved = 0;
    for game in waiting {
        let mut conn = svc.conn().await?;
        let continued = conn
            .transaction::<_, ServiceError, _>(async |conn| continue_game(svc, conn, game).await)
            .await;
        match continued {
            Ok(true) => {
                moved += 1;
            }
            Ok(false) => {}
            Err(e) => tracing::warn!(game = %game, error = %e, "continuing the bots of a game"),
        }
    }
    Ok(moved)
}

/// Lets the bot play the game's waiting bot seats for a turn's worth of decisions, if the game
/// is not held by anyone else and still waits for one.
async fn continue_game(svc: &Services, conn: &mut Conn, game_id: Uuid) -> Result<bool> {
    if !store::clocks::claim(conn, game_id).await? {
        return Ok(false);
    }
    let (mut game, players, users) = store::games::lock_with_players(conn, game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    let waits_for_bot = game.to_act.iter().any(|s| game.robots.contains(s));
    if game.status() != GameStatus::Active || !waits_for_bot {
        return Ok(false);
    }
    let snapshot = game.state.as_ref().ok_or_else(|| {
        ServiceError::Unexpected(anyhow::anyhow!("active game without a snapshot"))
    })?;
    let state = svc.load_state(&game, snapshot)?;
    let mut play = Play::new(&game, state, game.version + 1, svc.clock.now()).with_orders(&players);
    play.run_robots(&game.robots)?;
    if play.events.is_empty() {
        return Ok(false);
    }
    let before = game.to_act.clone();
    play.commit(svc, conn, &mut game, &before, &players, &users, vec![])
        .await?;
    Ok(true)
}
