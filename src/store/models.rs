//! Row types: one `Queryable` struct per table, and insert forms beside them.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use serde_json::Value;
use uuid::Uuid;

use super::schema::{game_events, games, outbox, seats, users};

#[derive(Clone, Debug, Queryable, Selectable, Identifiable)]
#[diesel(table_name = users)]
pub struct User {
    pub id: Uuid,
    pub email: String,
    pub display_name: String,
    pub password_hash: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Insertable)]
#[diesel(table_name = users)]
pub struct NewUser<'a> {
    pub id: Uuid,
    pub email: &'a str,
    pub display_name: &'a str,
    pub password_hash: &'a str,
}

/// Lifecycle of a game, as stored in `games.status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    Open,
    Active,
    Finished,
    Abandoned,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Abandoned => "abandoned",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "open" => GameStatus::Open,
            "active" => GameStatus::Active,
            "finished" => GameStatus::Finished,
            "abandoned" => GameStatus::Abandoned,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, Queryable, Selectable, Identifiable)]
#[diesel(table_name = games)]
pub struct Game {
    pub id: Uuid,
    pub ruleset: String,
    pub options: Value,
    pub seat_count: i32,
    pub status: String,
    pub version: i64,
    pub state: Option<Value>,
    pub seed: Vec<u8>,
    pub seed_sha256: String,
    pub to_act: Vec<i32>,
    pub outcome: Option<Value>,
    pub created_by: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub waiting_since: Option<DateTime<Utc>>,
}

impl Game {
    pub fn status(&self) -> GameStatus {
        GameStatus::parse(&self.status).unwrap_or(GameStatus::Abandoned)
    }
}

#[derive(Insertable)]
#[diesel(table_name = games)]
pub struct NewGame<'a> {
    pub id: Uuid,
    pub ruleset: &'a str,
    pub options: &'a Value,
    pub seat_count: i32,
    pub status: &'a str,
    pub version: i64,
    pub seed: &'a [u8],
    pub seed_sha256: &'a str,
    pub created_by: Uuid,
}

/// What a submission or a start changes in a game row.
#[derive(AsChangeset)]
#[diesel(table_name = games)]
pub struct GameUpdate<'a> {
    pub status: &'a str,
    pub version: i64,
    pub state: Option<&'a Value>,
    pub to_act: &'a [i32],
    pub outcome: Option<&'a Value>,
    pub updated_at: DateTime<Utc>,
    pub waiting_since: Option<DateTime<Utc>>,
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = seats)]
pub struct Seat {
    pub game_id: Uuid,
    pub seat: i32,
    pub user_id: Uuid,
    pub joined_at: DateTime<Utc>,
}

/// A seat with its player's display name.
#[derive(Clone, Debug)]
pub struct SeatPlayer {
    pub seat: i32,
    pub user_id: Uuid,
    pub display_name: String,
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_events)]
pub struct Event {
    pub game_id: Uuid,
    pub seq: i64,
    pub actor: String,
    pub seat: Option<i32>,
    pub kind: String,
    pub action: Value,
    pub visible_to: Option<Vec<i32>>,
    pub redacted: Option<Value>,
    pub description: String,
    pub redacted_description: Option<String>,
    pub created_at: DateTime<Utc>,
    pub request_id: Option<Uuid>,
}

#[derive(Insertable)]
#[diesel(table_name = outbox)]
pub struct NewOutbox {
    pub game_id: Option<Uuid>,
    pub user_id: Uuid,
    pub kind: String,
    pub payload: Value,
}
