//! Games being played right now, kept in memory between their submissions so that the next
//! submission need not read the game row, its players and its snapshot again.
//!
//! A cache, never the truth: PostgreSQL stays the only state. Every turn is still written by
//! `turnpost_save_turn`, which writes only if the game row is still at the version the turn was
//! computed from; a cached game that another request or another process moved on makes that
//! write fail, the entry is dropped, and the submission reads the game again (as it does when
//! two submissions race without a cache). So a stale entry can cost a retry, never a wrong turn.
//!
//! What can change without a new version is the players' accounts (an address, a mail
//! preference): an entry is used for [`FRESH_FOR`] after it was read from the database and
//! then read again, so such a change reaches a busy game's mail within that time, as it would
//! reach a submission that had read it just before the change. Games with a clock are never
//! cached (their submissions take the row lock, see `service::submit`).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use uuid::Uuid;

use crate::config::HOT_GAMES;
use crate::rules::GameState;
use crate::store::models::{Game, SeatPlayer, User};

/// How long an entry may be used after its players and accounts were read.
pub const FRESH_FOR: Duration = Duration::from_secs(2);

/// A game as its last committed turn left it: the row (without its snapshot: the state is
/// kept decoded), its seated players and their accounts.
pub struct HotGame {
    pub game: Game,
    pub players: Vec<SeatPlayer>,
    pub users: Vec<User>,
    pub state: Box<dyn GameState>,
    /// When `players` and `users` were read from the database.
    pub read_at: Instant,
}

impl Clone for HotGame {
    fn clone(&self) -> Self {
        HotGame {
            game: self.game.clone(),
            players: self.players.clone(),
            users: self.users.clone(),
            state: self.state.clone_box(),
            read_at: self.read_at,
        }
    }
}

pub struct HotGames {
    games: Mutex<HashMap<Uuid, HotGame>>,
    capacity: usize,
}

impl Default for HotGames {
    fn default() -> Self {
        HotGames::new(HOT_GAMES)
    }
}

impl HotGames {
    /// A cache of at most `capacity` games (0: none is kept).
    pub fn new(capacity: usize) -> Self {
        HotGames {
            games: Mutex::default(),
            capacity,
        }
    }

    /// A copy of `id`'s entry, if it is fresh at `now` and (when the client named one) at
    /// `expected` version: a client that names another version has seen a turn this process
    /// may not know of, and the database answers it.
    pub fn get(&self, id: Uuid, expected: Option<i64>, now: Instant) -> Option<HotGame> {
        let games = self.games.lock().ok()?;
        let hot = games.get(&id)?;
        let fresh = now.saturating_duration_since(hot.read_at) < FRESH_FOR;
        let version_ok = expected.is_none_or(|v| v == hot.game.version);
        (fresh && version_ok).then(|| hot.clone())
    }

    /// Keeps `hot` as `id`'s latest committed turn (a game with a clock, or over, is dropped).
    pub fn put(&self, hot: HotGame, now: Instant) {
        let Ok(mut games) = self.games.lock() else {
            return;
        };
        let id = hot.game.id;
        if self.capacity == 0
            || hot.game.clock.is_some()
            || hot.game.status() != crate::store::models::GameStatus::Active
        {
            games.remove(&id);
            return;
        }
        if games.len() >= self.capacity && !games.contains_key(&id) {
            games.retain(|_, g| now.saturating_duration_since(g.read_at) < FRESH_FOR);
            if games.len() >= self.capacity {
                games.clear();
            }
        }
        games.insert(id, hot);
    }

    /// Forgets `id` (its turn was refused as stale, or it changed another way).
    pub fn forget(&self, id: Uuid) {
        if let Ok(mut games) = self.games.lock() {
            games.remove(&id);
        }
    }

    pub fn len(&self) -> usize {
        self.games.lock().map_or(0, |g| g.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::rules::Registry;

    fn hot(id: u128, version: i64, clock: bool, read_at: Instant) -> HotGame {
        let rules = Registry::standard();
        let rules = rules.get("bag-of-fate").unwrap();
        let options = rules.normalise_options(&serde_json::Value::Null).unwrap();
        let state = rules.new_game(&options, 2).unwrap();
        let at = chrono::DateTime::<chrono::Utc>::default();
        HotGame {
            game: Game {
                id: Uuid::from_u128(id),
                ruleset: "bag-of-fate".into(),
                options,
                seat_count: 2,
                status: "active".into(),
                version,
                state: None,
                seed: vec![0; 32],
                seed_sha256: String::new(),
                to_act: vec![0],
                outcome: None,
                created_by: Uuid::nil(),
                created_at: at,
                updated_at: at,
                waiting_since: None,
                clock: clock.then(|| serde_json::json!({})),
                robots: vec![],
            },
            players: vec![],
            users: vec![],
            state,
            read_at,
        }
    }

    #[test]
    fn an_entry_is_used_while_fresh_and_only_at_the_version_a_client_names() {
        let cache = HotGames::default();
        let t0 = Instant::now();
        cache.put(hot(1, 7, false, t0), t0);
        assert_eq!(
            cache
                .get(Uuid::from_u128(1), None, t0)
                .unwrap()
                .game
                .version,
            7
        );
        assert!(cache.get(Uuid::from_u128(1), Some(7), t0).is_some());
        assert!(
            cache.get(Uuid::from_u128(1), Some(8), t0).is_none(),
            "another version"
        );
        assert!(
            cache.get(Uuid::from_u128(2), None, t0).is_none(),
            "another game"
        );
        assert!(
            cache
                .get(Uuid::from_u128(1), None, t0 + FRESH_FOR)
                .is_none(),
            "the accounts it holds are read again after FRESH_FOR"
        );
        cache.forget(Uuid::from_u128(1));
        assert!(cache.get(Uuid::from_u128(1), None, t0).is_none());
    }

    #[test]
    fn games_with_a_clock_or_over_are_not_kept() {
        let cache = HotGames::default();
        let t0 = Instant::now();
        cache.put(hot(1, 1, true, t0), t0);
        assert!(cache.is_empty());
        let mut over = hot(2, 1, false, t0);
        over.game.status = "finished".into();
        cache.put(hot(2, 0, false, t0), t0);
        cache.put(over, t0);
        assert!(
            cache.is_empty(),
            "a finished game replaces and drops its entry"
        );
    }

    #[test]
    fn the_cache_stays_within_its_capacity() {
        let cache = HotGames::default();
        let t0 = Instant::now();
        for id in 0..HOT_GAMES as u128 {
            cache.put(hot(id, 1, false, t0), t0);
        }
        assert_eq!(cache.len(), HOT_GAMES);
        // Stale entries go first: a full cache of old entries makes room for a new one.
        let later = t0 + FRESH_FOR;
        cache.put(hot(u128::MAX, 1, false, later), later);
        assert_eq!(cache.len(), 1);
        // Full of fresh entries, it starts again rather than grow.
        for id in 0..(HOT_GAMES as u128 + 10) {
            cache.put(hot(id, 1, false, later), later);
            assert!(cache.len() <= HOT_GAMES);
        }
    }
}
