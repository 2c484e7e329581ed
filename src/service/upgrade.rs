//! Snapshots written by an older Turnpost.
//!
//! A game's `state` column is a snapshot of its rules state at its version, written by the
//! Turnpost that played the turn. A newer Turnpost may store its state differently (a field
//! added without a default, a type reshaped), and then the old snapshot no longer loads: every
//! request about the game would fail. The log, though, is the record (DESIGN.md: the state is
//! only a fold of it), so such a game is refolded from its log under the current rules and its
//! snapshot written again, at the same version. `serve` does this in the background when it
//! starts, and `turnpost migrate` does it before it returns.
//!
//! A game whose log no longer folds (an old action the current rules refuse) is left exactly as
//! it is and reported: nothing is ever rewritten unless the refold succeeded.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::submit::play_log;
use super::{Result, ServiceError, Services};
use crate::rules::Waiting;
use crate::store::models::Game;
use crate::store::models::GameStatus;
use crate::store::schema::games;
use crate::store::{self, Conn};

/// Games read per round trip.
const PAGE: i64 = 100;

/// What [`refresh_stale_snapshots`] found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct UpgradeReport {
    /// Games with a snapshot that were looked at.
    pub checked: usize,
    /// Games whose snapshot did not load and which were refolded from their log.
    pub refolded: Vec<Uuid>,
    /// Games whose snapshot did not load and whose log does not fold either, with why.
    pub failed: Vec<(Uuid, String)>,
}

/// Refolds every game whose snapshot the current rules cannot load, and writes its new
/// snapshot (only if the game is still at the version refolded).
pub async fn refresh_stale_snapshots(svc: &Services) -> Result<UpgradeReport> {
    let mut conn = svc.conn().await?;
    let mut report = UpgradeReport::default();
    let mut after = Uuid::nil();
    loop {
        let page: Vec<Game> = games::table
            .filter(games::state.is_not_null())
            .filter(games::id.gt(after))
            .order(games::id.asc())
            .limit(PAGE)
            .select(Game::as_select())
            .load(&mut conn)
            .await?;
        let Some(last) = page.last() else { break };
        after = last.id;
        for game in &page {
            report.checked += 1;
            let Some(rules) = svc.rules.get(&game.ruleset) else {
                // A ruleset no longer hosted: nothing can load it, and nothing is rewritten.
                report
                    .failed
                    .push((game.id, format!("ruleset {} is not hosted", game.ruleset)));
                continue;
            };
            let Some(snapshot) = &game.state else {
                continue;
            };
            if rules.load(snapshot).is_ok() {
                continue;
            }
            match refold(svc, &mut conn, game).await {
                Ok(true) => {
                    tracing::info!(game = %game.id, version = game.version, "snapshot refolded from the log");
                    report.refolded.push(game.id);
                }
                // Moved on meanwhile: the turn that moved it wrote a current snapshot.
                Ok(false) => {}
                Err(why) => {
                    tracing::error!(game = %game.id, error = %why, "snapshot does not load and the log does not refold");
                    report.failed.push((game.id, why));
                }
            }
        }
        if page.len() < usize::try_from(PAGE).unwrap_or(usize::MAX) {
            break;
        }
    }
    Ok(report)
}

/// Refolds one game; `Ok(false)` if it moved past `game.version` meanwhile.
async fn refold(svc: &Services, conn: &mut Conn, game: &Game) -> std::result::Result<bool, String> {
    let rules = svc
        .rules
        .get(&game.ruleset)
        .ok_or_else(|| format!("ruleset {} is not hosted", game.ruleset))?;
    let events = store::events::all(conn, game.id)
        .await
        .map_err(|e| e.to_string())?;
    let events: Vec<_> = events
        .into_iter()
        .filter(|e| e.seq <= game.version)
        .collect();
    if events.last().map(|e| e.seq) != Some(game.version) {
        return Err(format!("the log does not reach version {}", game.version));
    }
    let log = play_log(&events).map_err(|e: ServiceError| e.to_string())?;
    let seats = usize::try_from(game.seat_count).map_err(|e| e.to_string())?;
    let state = rules.fold(&game.options, seats, &log)?;
    // The row says who is to act and whether the game is over; a refold that disagrees is a
    // different game, not the same one stored anew.
    let agrees = match state.waiting() {
        Waiting::Players(to_act) => {
            let to_act: Vec<i32> = to_act
                .iter()
                .filter_map(|s| i32::try_from(*s).ok())
                .collect();
            game.status() != GameStatus::Active || to_act == game.to_act
        }
        Waiting::Over(_) => game.status() != GameStatus::Active,
        // A snapshot is written only after the chance steps that follow a turn.
        Waiting::Chance(_) => false,
    };
    if !agrees {
        return Err("the log refolds to another position than the stored one".into());
    }
    let written = diesel::update(
        games::table
            .filter(games::id.eq(game.id))
            .filter(games::version.eq(game.version)),
    )
    .set(games::state.eq(Some(state.to_json())))
    .execute(conn)
    .await
    .map_err(|e| e.to_string())?;
    Ok(written == 1)
}
