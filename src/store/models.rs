//! Row types: one `Queryable` struct per table, and insert forms beside them.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use serde_json::Value;
use uuid::Uuid;

use super::schema::{game_events, games, invitations, outbox, seats, users};

#[derive(Clone, Debug, Queryable, Selectable, Identifiable)]
#[diesel(table_name = users)]
pub struct User {
    pub id: Uuid,
    pub email: String,
    pub display_name: String,
    pub password_hash: String,
    pub created_at: DateTime<Utc>,
    pub email_verified_at: Option<DateTime<Utc>>,
    pub mail_preference: String,
    pub is_bot: bool,
    pub vacation_from: Option<DateTime<Utc>>,
    pub vacation_until: Option<DateTime<Utc>>,
    /// Raised by logout and password change; a session token is good only while its `ver`
    /// is this.
    pub token_version: i32,
    /// Whether game mail shows the board as an inline picture.
    pub mail_pictures: bool,
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
    /// The clock settings (`service::clock::ClockSettings`), or none.
    pub clock: Option<Value>,
    /// Seats the built-in bot plays at once (bots, absent and resigned players).
    pub robots: Vec<i32>,
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
    pub clock: Option<&'a Value>,
    pub robots: &'a [i32],
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
    /// The player's vacation `(from, until)`, if one is set.
    pub vacation: Option<(DateTime<Utc>, DateTime<Utc>)>,
}

/// A log entry. It serializes with the column names (for `turnpost_save_turn`).
#[derive(Clone, Debug, Queryable, Selectable, Insertable, serde::Serialize)]
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

/// A rendered message waiting in the outbox; `payload` is a [`crate::notify::Mail`]. It
/// serializes with the column names (for `turnpost_save_turn`).
#[derive(Clone, Debug, Insertable, serde::Serialize)]
#[diesel(table_name = outbox)]
pub struct NewOutbox {
    pub game_id: Option<Uuid>,
    pub user_id: Option<Uuid>,
    pub kind: String,
    pub payload: Value,
    pub to_address: String,
    pub message_id: String,
}

#[derive(Clone, Debug, Queryable, QueryableByName, Selectable)]
#[diesel(table_name = outbox)]
pub struct OutboxRow {
    pub id: i64,
    pub game_id: Option<Uuid>,
    pub user_id: Option<Uuid>,
    pub kind: String,
    pub payload: Value,
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: DateTime<Utc>,
    pub lease_until: Option<DateTime<Utc>>,
    pub to_address: String,
    pub message_id: String,
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = invitations)]
pub struct Invitation {
    pub id: Uuid,
    pub game_id: Uuid,
    pub seat: Option<i32>,
    pub email: String,
    pub invited_by: Uuid,
    pub created_at: DateTime<Utc>,
    pub accepted_by: Option<Uuid>,
    pub accepted_at: Option<DateTime<Utc>>,
}
