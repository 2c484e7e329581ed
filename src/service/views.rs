//! What the use cases return: the API's JSON shapes (also saved for idempotent replays).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::deadlines::ClockSettings;

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct UserView {
    pub id: Uuid,
    pub email: String,
    pub display_name: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatView {
    pub seat: i32,
    /// `null` while the seat is open.
    pub user_id: Option<Uuid>,
    pub display_name: Option<String>,
    /// The built-in bot plays this seat now: a bot seated at creation, or a player who is
    /// absent (too many timeouts in a row) or resigned.
    pub played_by_bot: bool,
    /// The player's vacation, while it is set and not over: their clocks stand still.
    pub away: Option<Vacation>,
}

/// How a game ended.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct OutcomeView {
    pub winners: Vec<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i64>>,
    pub summary: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameView {
    pub id: Uuid,
    pub ruleset: String,
    pub options: Value,
    #[schema(value_type = crate::store::models::GameStatus)]
    pub status: String,
    /// The seq of the last log entry; send it back as `expected_version`.
    pub version: i64,
    pub seats: Vec<SeatView>,
    /// Seats that must act now.
    pub to_act: Vec<i32>,
    /// SHA-256 (hex) of the game's secret seed, published before any chance step.
    pub seed_sha256: String,
    /// The seed (hex), revealed once the game is over (finished or abandoned).
    pub seed: Option<String>,
    pub outcome: Option<OutcomeView>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The game's clock; `null` for a game without deadlines.
    pub clock: Option<ClockSettings>,
    /// The deadline of each seat in `to_act` (a game with a clock only).
    pub deadlines: Vec<DeadlineView>,
}

/// When a waiting seat's decision is due: then its default action is played for it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct DeadlineView {
    pub seat: i32,
    pub due_at: DateTime<Utc>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameList {
    pub games: Vec<GameView>,
    /// Cursor for the next page (`?cursor=`), `null` on the last page.
    pub next: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct LegalActionView {
    /// Exactly the JSON to send back in `actions`.
    pub action: Value,
    pub description: String,
    /// The action's short text (`move b3 b2`), unique among these actions: `{"notation":
    /// "<it>"}` in `actions` plays it too, matched without regard to case or spacing.
    pub notation: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct StateView {
    pub version: i64,
    #[schema(value_type = crate::store::models::GameStatus)]
    pub status: String,
    /// The caller's seat, `null` for spectators.
    pub seat: Option<i32>,
    pub to_act: Vec<i32>,
    /// The caller's view of the game (`null` while the game is open).
    // JSON text written straight from the ruleset's typed view (`Ruleset::view_text`).
    #[schema(value_type = Value)]
    pub view: Box<serde_json::value::RawValue>,
    /// Filled when the caller must act.
    pub legal_actions: Vec<LegalActionView>,
    pub outcome: Option<OutcomeView>,
    /// The deadline of each seat in `to_act` (a game with a clock only).
    #[serde(default)]
    pub deadlines: Vec<DeadlineView>,
}

/// Who made a log entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ActorView {
    /// Lifecycle entries (created, joined, started, timed out, absent, back, resigned,
    /// taken over, aborted, ended).
    System,
    /// A chance step drawn with the game's seeded RNG.
    Chance,
    /// A player's action.
    Seat { seat: i32 },
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct EventView {
    pub seq: i64,
    pub actor: ActorView,
    #[schema(value_type = crate::store::models::EventKind)]
    pub kind: String,
    /// The action, or its redacted form when the caller may not see it.
    pub action: Value,
    /// `true` when `action` is the redacted form.
    pub redacted: bool,
    pub description: String,
    /// A player's action's notation (`move b3 b2`), when the caller sees the action in full
    /// (absent for chance, lifecycle entries and entries logged before notations existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notation: Option<String>,
    pub at: DateTime<Utc>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct EventPage {
    pub entries: Vec<EventView>,
    /// Pass as `after` for the next page; `null` when there is nothing more now.
    pub next: Option<i64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct SubmitResult {
    pub version: i64,
    pub state: StateView,
    /// The log entries this submission appended (the caller's actions and the chance steps
    /// that followed), as the caller may see them.
    pub entries: Vec<EventView>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct RulesetView {
    pub id: String,
    pub name: String,
    pub min_seats: usize,
    pub max_seats: usize,
    pub options: Vec<RulesetOption>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct RulesetOption {
    pub name: String,
    pub description: String,
    pub default: Value,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct InvitationView {
    pub id: Uuid,
    pub game_id: Uuid,
    pub email: String,
    /// The invited seat; `null` for the lowest free seat at acceptance.
    pub seat: Option<i32>,
    pub invited_by: Uuid,
    /// When the join link stops working.
    pub expires_at: DateTime<Utc>,
    pub accepted: bool,
}

/// Mail settings of the caller.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PreferencesView {
    /// `all` (every game mail), `turns` (only "your turn"), `none`.
    pub mail: String,
    /// Game mail goes only to a verified address.
    pub email_verified: bool,
    /// Whether game mail shows the board as a picture in its HTML part (the text part always
    /// has the board in words and characters). Off for a new account; on makes a turn mail
    /// about twice as large.
    pub pictures: bool,
}

/// A table-talk message, as its sender and recipients read it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct MessageView {
    /// Increasing within a game; the `cursor` of the next page is the last `id` seen.
    pub id: i64,
    pub from_seat: i32,
    /// The sender's display name.
    pub from_name: String,
    /// The seat it was written to privately; `null` for the whole table.
    pub to_seat: Option<i32>,
    pub body: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct MessagePage {
    /// Oldest first: the messages to the table, the caller's own, and those written to the
    /// caller privately. Nobody else's private messages are ever listed.
    pub messages: Vec<MessageView>,
    /// Pass as `cursor` for the next page; `null` when there is nothing more now (to follow
    /// the talk later, pass the last message's `id`).
    pub next: Option<String>,
}

/// A seat of a finished game, in its export.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ExportPlayer {
    pub seat: i32,
    /// The player's account; `null` for a seat of the built-in bot.
    pub user_id: Option<Uuid>,
    pub display_name: String,
    /// The built-in bot held this seat from the start.
    pub bot: bool,
    /// The built-in bot played this seat at the end (a bot seat, or a player who was absent or
    /// resigned).
    pub played_by_bot: bool,
}

/// A finished game's whole record, as one document (`GET /v1/games/{id}/export`, and each line
/// of `GET /v1/me/games/export`): everything needed to check and replay it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameExport {
    /// The version of this document's shape (1).
    pub format: i32,
    pub id: Uuid,
    pub ruleset: String,
    /// The ruleset's options, as the game was played (defaults filled in).
    pub options: Value,
    /// `finished` (played to its end) or `abandoned` (every player voted to abort).
    #[schema(value_type = crate::store::models::GameStatus)]
    pub status: String,
    pub players: Vec<ExportPlayer>,
    /// The game's clock; `null` for a game without deadlines.
    pub clock: Option<ClockSettings>,
    pub created_at: DateTime<Utc>,
    /// When the last log entry was written.
    pub ended_at: DateTime<Utc>,
    /// How it ended; `null` for an abandoned game.
    pub outcome: Option<OutcomeView>,
    /// SHA-256 (hex) of the seed, as published when the game was created.
    pub seed_sha256: String,
    /// The seed (hex): `sha256(seed) == seed_sha256`, and every chance entry of `log` can be
    /// drawn again from it and the entry's `seq` (see the README).
    pub seed: String,
    /// The seq of the last entry (the length of `log`).
    pub version: i64,
    /// The whole log, from seq 1, nothing redacted: as the events list gives it once the game
    /// is over.
    pub log: Vec<EventView>,
}

/// A player's vacation: their clocks stand still from `from` to `until`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Vacation {
    pub from: DateTime<Utc>,
    pub until: DateTime<Utc>,
}

/// `your-turn`: a game waits on the account.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct TurnNotice {
    pub game: Uuid,
    pub ruleset: String,
    /// The version to send as `expected_version`.
    pub version: i64,
    /// The account's seat, which has to act.
    pub seat: i32,
}

/// `game-over`: a game of the account's has ended (`finished`, or `abandoned`).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct GameOverNotice {
    pub game: Uuid,
    pub ruleset: String,
    pub version: i64,
    /// `finished` or `abandoned`.
    #[schema(value_type = crate::store::models::GameStatus)]
    pub status: String,
    /// The outcome, as `GameView.outcome` has it.
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<Value>,
}

/// `invitation`: an invitation to an open game was mailed to the account's address (the
/// link to accept it is in that mail).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct InvitationNotice {
    pub invitation: Uuid,
    pub game: Uuid,
    /// The invited seat; `null` for the lowest free one.
    pub seat: Option<i32>,
    pub invited_by: Uuid,
}
