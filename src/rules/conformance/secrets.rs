//! The secrets checks: markers planted with [`Secrets`] must show only where they may.

use super::playout::viewers;
use super::{Secrets, Stats, short, to_json};
use crate::rules::{Actor, Seat, Viewer, Visibility};

/// For each seat with a secret now: planted, it shows in the seat's own view and nowhere else
/// (other seats' and the spectator's views, the actions offered to other seats).
pub(super) fn check_state<R: Secrets>(state: &R::State, seats: usize, stats: &mut Stats) {
    let marker = R::MARKER;
    let viewers = viewers(seats);
    for &viewer in &viewers {
        let view = R::view(state, viewer).to_string();
        assert!(
            !view.contains(marker),
            "the marker {marker:?} appears in {viewer:?}'s view although nothing is planted: \
             Secrets::MARKER must be a value the game never shows on its own; view: {}",
            short(&view)
        );
    }
    for owner in 0..seats {
        let mut planted = state.clone();
        R::plant(&mut planted, owner);
        if planted == *state {
            continue; // no secret now
        }
        stats.planted_states += 1;
        let own = R::view(&planted, Viewer::Seat(owner)).to_string();
        assert!(
            own.contains(marker),
            "Secrets::plant(seat {owner}) changed the state, but seat {owner}'s own view does not \
             show the marker {marker:?}: plant must overwrite secrets seat {owner} sees (or view \
             hides them from their owner); view: {}",
            short(&own)
        );
        for &viewer in viewers.iter().filter(|&&v| v != Viewer::Seat(owner)) {
            let view = R::view(&planted, viewer).to_string();
            assert!(
                !view.contains(marker),
                "{viewer:?}'s view shows a secret of seat {owner} (the planted marker {marker:?}): {}",
                short(&view)
            );
            if let Viewer::Seat(seat) = viewer {
                let offered = R::legal_actions(&planted, seat);
                for action in offered.iter().chain(&R::default_action(&planted, seat)) {
                    check_offered::<R>(&planted, seat, owner, action);
                }
            }
        }
    }
}

fn check_offered<R: Secrets>(planted: &R::State, seat: Seat, owner: Seat, action: &R::Action) {
    let json = to_json(action).to_string();
    let text = R::describe(planted, Actor::Seat(seat), action, Viewer::Seat(seat));
    assert!(
        !json.contains(R::MARKER) && !text.contains(R::MARKER),
        "an action offered to seat {seat} shows a secret of seat {owner} (the planted marker \
         {:?}): {json}, described as {text:?}",
        R::MARKER
    );
}

/// An action with a hidden payload is not public, and neither its redacted form nor its
/// description for a viewer outside its visibility shows the payload.
pub(super) fn check_logged<R: Secrets>(
    before: &R::State,
    seats: usize,
    actor: Actor,
    action: &R::Action,
    stats: &mut Stats,
) {
    let Some(planted) = R::plant_action(action) else {
        return;
    };
    stats.planted_actions += 1;
    let marker = R::MARKER;
    let in_full = format!(
        "{} {}",
        to_json(&planted),
        R::describe(before, actor, &planted, Viewer::Everyone)
    );
    assert!(
        in_full.contains(marker),
        "Secrets::plant_action({action:?}) gave {planted:?}, whose JSON and full description do \
         not contain the marker {marker:?}"
    );
    let visibility = R::visibility(before, actor, action);
    assert!(
        visibility != Visibility::Public,
        "{action:?} by {actor:?} has a hidden payload (Secrets::plant_action gives Some) but its \
         visibility is Public: everyone would see it in the history"
    );
    let hidden_from: Vec<Viewer> = viewers(seats)
        .into_iter()
        .filter(|&v| !visibility.allows(v))
        .collect();
    let redacted = R::redact(before, actor, &planted).to_string();
    assert!(
        !redacted.contains(marker),
        "the redacted form of {action:?} by {actor:?}, shown to {hidden_from:?}, shows its hidden \
         payload (the planted marker {marker:?}): {}",
        short(&redacted)
    );
    for viewer in hidden_from {
        let text = R::describe(before, actor, &planted, viewer);
        assert!(
            !text.contains(marker),
            "the description of {action:?} by {actor:?} for {viewer:?}, outside its visibility \
             {visibility:?}, shows its hidden payload (the planted marker {marker:?}): {text:?}"
        );
    }
}
