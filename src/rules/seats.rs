//! Who acts and who looks: seats, actors and viewers, the words every file of the engine
//! uses (and the contract re-exports), at the bottom of `rules`.

use serde::{Deserialize, Serialize};

/// A seat at the table, numbered from 0 in the order the seats were created.
pub type Seat = usize;

/// Who performs an action: a player at a seat, or chance (the service's seeded RNG).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    Seat(Seat),
    Chance,
}

/// Who looks at a state or a log entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// The player at this seat: sees their own secrets, nobody else's.
    Seat(Seat),
    /// Someone without a seat: sees only what is public.
    Spectator,
    /// Everything (only once the game is over, or for full-form log entries).
    Everyone,
}

impl Viewer {
    /// Whether this viewer may see the secrets of `seat`.
    pub fn sees_secrets_of(self, seat: Seat) -> bool {
        match self {
            Viewer::Seat(s) => s == seat,
            Viewer::Spectator => false,
            Viewer::Everyone => true,
        }
    }
}
