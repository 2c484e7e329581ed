//! Exports of finished games (issue 19): a game's whole record as one document, and an
//! account's finished games a page at a time (the API streams them as NDJSON).
//!
//! Who may read an export: whoever may read the game's log. Games on Turnpost are public to
//! every signed-in account (a spectator reads the log, redacted while the game runs), and once
//! a game is over nothing in it is secret any more (the events list shows everything, the
//! seed is revealed), so any signed-in account may export any game that is over. A game that
//! is not over is refused (409): its export would have to be redacted per caller and would
//! not be a record.

use uuid::Uuid;

use super::game_views::{event_view, outcome_view};
use super::games::GameStatus;
use super::views::{ExportPlayer, GameExport};
use super::{Result, ServiceError, Services};
use crate::rules::Viewer;
use crate::store::models::{Game, SeatPlayer};
use crate::store::{self, Conn};

/// The shape's version, in each document's `format`.
pub const FORMAT: i32 = 1;

/// The statuses of a game that is over.
pub const OVER: [GameStatus; 2] = [GameStatus::Finished, GameStatus::Abandoned];

/// `GET /v1/games/{id}/export`.
pub async fn game(svc: &Services, game_id: Uuid) -> Result<GameExport> {
    let mut conn = svc.conn().await?;
    let (game, players) = store::games::get_with_players(&mut conn, game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    if !OVER.contains(&game.status()) {
        return Err(ServiceError::WrongStatus(format!(
            "{}: only a game that is over (finished or abandoned) can be exported; its log \
             is readable at /v1/games/{game_id}/events meanwhile",
            game.status
        )));
    }
    document(&mut conn, &game, &players).await
}

/// A page of `user`'s games that are over, newest first, and the cursor of the next page.
pub async fn of_user(
    svc: &Services,
    user: Uuid,
    cursor: Option<&str>,
    limit: i64,
) -> Result<(Vec<GameExport>, Option<String>)> {
    let before = cursor.map(super::cursor::decode).transpose()?;
    let statuses = OVER.map(GameStatus::as_str);
    let mut conn = svc.conn().await?;
    let rows = store::games::of_user(&mut conn, user, &statuses, before, limit + 1).await?;
    let (games, next) =
        super::cursor::page(rows, limit, |g| super::cursor::encode(g.created_at, g.id));
    let ids: Vec<Uuid> = games.iter().map(|g| g.id).collect();
    let players = store::games::seat_players_of(&mut conn, &ids).await?;
    let mut out = Vec::with_capacity(games.len());
    for game in &games {
        let seated: Vec<SeatPlayer> = players
            .iter()
            .filter(|(id, _)| *id == game.id)
            .map(|(_, p)| p.clone())
            .collect();
        out.push(document(&mut conn, game, &seated).await?);
    }
    Ok((out, next))
}

/// The document of a game that is over.
async fn document(conn: &mut Conn, game: &Game, players: &[SeatPlayer]) -> Result<GameExport> {
    let ids: Vec<Uuid> = players.iter().map(|p| p.user_id).collect();
    let users = store::users::by_ids(conn, &ids).await?;
    let log = store::events::all(conn, game.id).await?;
    let is_bot = |id: Uuid| users.iter().any(|u| u.id == id && u.is_bot);
    Ok(GameExport {
        format: FORMAT,
        id: game.id,
        ruleset: game.ruleset.clone(),
        options: game.options.clone(),
        status: game.status.clone(),
        players: players
            .iter()
            .map(|p| ExportPlayer {
                seat: p.seat,
                user_id: (!is_bot(p.user_id)).then_some(p.user_id),
                display_name: p.display_name.clone(),
                bot: is_bot(p.user_id),
                played_by_bot: game.robots.contains(&p.seat),
            })
            .collect(),
        clock: super::deadlines::ClockSettings::of(game),
        created_at: game.created_at,
        ended_at: log.last().map_or(game.updated_at, |e| e.created_at),
        outcome: outcome_view(&game.outcome),
        seed_sha256: game.seed_sha256.clone(),
        seed: hex::encode(&game.seed),
        version: game.version,
        // Once the game is over everybody sees every entry in full (`viewer_of`).
        log: log
            .iter()
            .map(|e| event_view(e, Viewer::Everyone))
            .collect(),
    })
}
