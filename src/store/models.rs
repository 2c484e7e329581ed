//! Row types: one `Queryable` struct per table, and insert forms beside them.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use serde_json::Value;
use uuid::Uuid;

use super::schema::{game_events, games, invitations, outbox, pending_registrations, seats, users};

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

/// A registration waiting for the link mailed to its address (only the token's SHA-256 is
/// kept).
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = pending_registrations)]
pub struct PendingRegistration {
    pub id: Uuid,
    pub email: String,
    pub display_name: String,
    pub password_hash: String,
    pub token_sha256: Vec<u8>,
    pub next_path: String,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

// Stored in `games.status`, whose `CHECK` constraint allows exactly these.
/// Where a game is in its life: `open` (waiting for players), `active`, `finished` or
/// `abandoned`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Waiting for players to join.
    Open,
    /// Being played.
    Active,
    /// Played to its end.
    Finished,
    /// Ended without a result (every player voted to abort).
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

// Stored in `game_events.kind`; the service writes entries only through this type, so the
// column holds nothing else.
/// What a log entry records: a player's action (`action`, or `bot` / `timeout` / `forced` when
/// the service played for the seat), a chance step, or a step of the game's life (`created` … `ended`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// The game was created.
    Created,
    /// A player joined.
    Joined,
    /// The table was full and the game began.
    Started,
    /// A player's own action.
    Action,
    /// An action the house bot played for its seat.
    Bot,
    /// The action played for a seat whose deadline passed (the ruleset's default).
    Timeout,
    /// The seat's only choice, played by the service without asking (nothing else was
    /// possible, and asking kept no secret).
    Forced,
    /// A chance step, drawn with the game's seeded RNG.
    Chance,
    /// A seat's deadline passed.
    TimedOut,
    /// A seat missed enough deadlines to be marked absent (a bot plays for it).
    Absent,
    /// An absent player came back.
    Back,
    /// A player resigned.
    Resigned,
    /// Another account took over a seat.
    TakenOver,
    /// A player voted to abort the game.
    AbortVote,
    /// Every player voted to abort: the game is abandoned.
    Aborted,
    /// The game ended.
    Ended,
}

impl EventKind {
    pub const ALL: [EventKind; 16] = [
        EventKind::Created,
        EventKind::Joined,
        EventKind::Started,
        EventKind::Action,
        EventKind::Bot,
        EventKind::Timeout,
        EventKind::Forced,
        EventKind::Chance,
        EventKind::TimedOut,
        EventKind::Absent,
        EventKind::Back,
        EventKind::Resigned,
        EventKind::TakenOver,
        EventKind::AbortVote,
        EventKind::Aborted,
        EventKind::Ended,
    ];

    /// The stored form (the same as the JSON one).
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Created => "created",
            EventKind::Joined => "joined",
            EventKind::Started => "started",
            EventKind::Action => "action",
            EventKind::Bot => "bot",
            EventKind::Timeout => "timeout",
            EventKind::Forced => "forced",
            EventKind::Chance => "chance",
            EventKind::TimedOut => "timed_out",
            EventKind::Absent => "absent",
            EventKind::Back => "back",
            EventKind::Resigned => "resigned",
            EventKind::TakenOver => "taken_over",
            EventKind::AbortVote => "abort_vote",
            EventKind::Aborted => "aborted",
            EventKind::Ended => "ended",
        }
    }
}

#[cfg(test)]
mod kind_tests {
    use super::{EventKind, GameStatus};

    #[test]
    fn stored_kinds_and_statuses_are_their_json_forms() {
        for kind in EventKind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
        }
        for status in ["open", "active", "finished", "abandoned"] {
            let parsed = GameStatus::parse(status).unwrap();
            assert_eq!(parsed.as_str(), status);
            assert_eq!(serde_json::to_value(parsed).unwrap(), status);
        }
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
    /// The clock settings (`service::deadlines::ClockSettings`), or none.
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

/// JSON already written as text (a state snapshot written straight from the typed state),
/// stored in a `jsonb` column as it is: no `Value` is built on the way.
#[derive(Debug, diesel::expression::AsExpression)]
#[diesel(sql_type = diesel::sql_types::Jsonb)]
pub struct JsonText(pub Box<serde_json::value::RawValue>);

impl diesel::serialize::ToSql<diesel::sql_types::Jsonb, diesel::pg::Pg> for JsonText {
    fn to_sql<'b>(
        &'b self,
        out: &mut diesel::serialize::Output<'b, '_, diesel::pg::Pg>,
    ) -> diesel::serialize::Result {
        use std::io::Write;
        // The binary `jsonb` format: its version (1), then the JSON text.
        out.write_all(&[1])?;
        out.write_all(self.0.get().as_bytes())?;
        Ok(diesel::serialize::IsNull::No)
    }
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
    /// The seat's standing orders (ids of the ruleset's `standing_orders`): its player's
    /// alone, never shown to anyone else.
    pub orders: Vec<String>,
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
    /// A seat's action's notation, for those who see the action in full.
    pub notation: Option<String>,
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
    /// The seat is held for the invited address until then (or until it is declined).
    pub expires_at: DateTime<Utc>,
    pub declined_at: Option<DateTime<Utc>>,
}
