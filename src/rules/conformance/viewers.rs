//! Who looks at a game, and who everyone sees asked to decide: shared by the checks of
//! secrets, twins, beliefs and schemas, below all of them.

use super::Secrets;
use crate::rules::{Next, Viewer};

/// Every seat and the spectator: the viewers who must not see others' secrets.
pub(super) fn viewers(seats: usize) -> Vec<Viewer> {
    (0..seats)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
        .collect()
}

/// Who the game waits for, as everyone sees it (a chance step's weights are the service's).
pub(super) fn asked<R: Secrets>(state: &R::State) -> String {
    match R::next(state) {
        Next::Players(seats) => format!("seats {seats:?} are asked"),
        Next::Chance(_) => "a chance step".to_owned(),
        Next::Over(outcome) => format!("the game is over: {outcome:?}"),
    }
}
