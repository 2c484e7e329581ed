//! What a seat could believe of the objectives it cannot see, for the built-in bot's
//! look-ahead ([`crate::rules::Ruleset::imagine`]).

use super::data::objective;
use super::state::State;
use crate::rules::{Seat, deal_anew};

/// Whether objective `id` is a neutral one (dealt from the shared deck, not a clan's own).
fn neutral(id: &u16) -> bool {
    objective(*id).is_some_and(|o| o.clan.is_none())
}

/// A state `seat` could believe it is in: the neutral objectives of the other players' clans
/// (offered, kept or given up) dealt anew from those and the neutral deck nobody has seen, and
/// which of each such clan's objectives were kept and which given up dealt anew. A clan's own
/// objectives are known to all and stay with it; every count is kept (how many each clan was
/// offered, kept and gave up, how many of those are neutral), and so is everything of
/// `seat`'s own clans.
pub(crate) fn imagine(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> State {
    let mut believed = state.clone();
    // For each rival clan: its neutral objectives offered, and those decided (kept or not).
    let mut offered: Vec<Vec<u16>> = Vec::new();
    let mut decided: Vec<Vec<u16>> = Vec::new();
    for clan in believed.clans.iter().filter(|c| c.seat != seat) {
        offered.push(clan.offered.iter().copied().filter(neutral).collect());
        decided.push(
            clan.kept
                .iter()
                .chain(&clan.discarded)
                .copied()
                .filter(neutral)
                .collect(),
        );
    }
    let mut hands: Vec<&mut Vec<u16>> = offered.iter_mut().chain(decided.iter_mut()).collect();
    deal_anew(&mut hands, &mut believed.neutral_deck, pick);
    believed.neutral_deck.sort_unstable();
    let rivals = believed.clans.iter_mut().filter(|c| c.seat != seat);
    for (clan, (offered, decided)) in rivals.zip(offered.into_iter().zip(decided)) {
        clan.offered.retain(|id| !neutral(id));
        clan.offered.extend(offered);
        clan.offered.sort_unstable();
        // Which of the clan's objectives it kept: any `kept.len()` of them.
        let mut given_up: Vec<u16> = clan
            .kept
            .iter()
            .chain(&clan.discarded)
            .copied()
            .filter(|id| !neutral(id))
            .chain(decided)
            .collect();
        let mut kept: Vec<u16> = given_up
            .drain(..clan.kept.len().min(given_up.len()))
            .collect();
        deal_anew(&mut [&mut kept], &mut given_up, pick);
        kept.sort_unstable();
        given_up.sort_unstable();
        clan.kept = kept;
        clan.discarded = given_up;
    }
    believed
}
