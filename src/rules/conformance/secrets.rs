//! The secrets checks: markers planted with [`Secrets`] must show only where they may.

use serde_json::Value;

use super::viewers::viewers;
use super::{Secrets, Stats, short, to_json};
use crate::rules::{Actor, Seat, Viewer, Visibility};

/// With every seat's secrets planted, each of the `viewers` seats sees as many markers (in its
/// view, and in the actions offered to it) as with its own secrets alone planted, and the
/// spectator sees none; a seat with a secret sees it. On a mismatch, [`name_the_leak`] finds
/// whose secret shows. The presenters' words and pictures are counted too where `present`.
pub(super) fn check_state<R: Secrets>(
    state: &R::State,
    seats: usize,
    viewers: &[Seat],
    present: bool,
    stats: &mut Stats,
) {
    let marker = R::MARKER;
    let mut all = state.clone();
    for seat in 0..seats {
        R::plant(&mut all, seat);
    }
    for &seat in viewers {
        let viewer = Viewer::Seat(seat);
        let mut own = state.clone();
        R::plant(&mut own, seat);
        let own_view = R::view(&own, viewer);
        let own_count = markers(&own_view, marker);
        if own == *state {
            // No secret now: this is the unplanted view.
            assert!(
                own_count == 0,
                "the marker {marker:?} appears in seat {seat}'s view although nothing is planted: \
                 Secrets::MARKER must be a value the game never shows on its own; view: {}",
                short(&own_view.to_string())
            );
        } else {
            stats.planted_states += 1;
            assert!(
                own_count > 0,
                "Secrets::plant(seat {seat}) changed the state, but seat {seat}'s own view does \
                 not show the marker {marker:?}: plant must overwrite secrets seat {seat} sees (or \
                 view hides them from their owner); view: {}",
                short(&own_view.to_string())
            );
        }
        if markers(&R::view(&all, viewer), marker) != own_count {
            name_the_leak::<R>(state, seats, viewer, &|s| R::view(s, viewer).to_string());
        }
        if offered::<R>(&all, seat).matches(marker).count()
            != offered::<R>(&own, seat).matches(marker).count()
        {
            name_the_leak::<R>(state, seats, viewer, &|s| offered::<R>(s, seat));
        }
        if present
            && presented::<R>(&all, viewer).matches(marker).count()
                != presented::<R>(&own, viewer).matches(marker).count()
        {
            name_the_leak::<R>(state, seats, viewer, &|s| presented::<R>(s, viewer));
        }
    }
    if present && presented::<R>(&all, Viewer::Spectator).contains(marker) {
        name_the_leak::<R>(state, seats, Viewer::Spectator, &|s| {
            presented::<R>(s, Viewer::Spectator)
        });
    }
    if markers(&R::view(&all, Viewer::Spectator), marker) > 0 {
        name_the_leak::<R>(state, seats, Viewer::Spectator, &|s| {
            R::view(s, Viewer::Spectator).to_string()
        });
    }
}

/// How often `marker` occurs in the keys, strings and numbers of a JSON value: as in its text,
/// without printing it (views are large, and checked often).
pub(super) fn markers(value: &Value, marker: &str) -> usize {
    match value {
        Value::String(text) => text.matches(marker).count(),
        Value::Number(n)
            if marker
                .chars()
                .all(|c| c.is_ascii_digit() || "+-.eE".contains(c)) =>
        {
            match n.as_i64() {
                Some(i) => count_in(decimal(i, &mut [0; 20]), marker.as_bytes()),
                None => n.to_string().matches(marker).count(),
            }
        }
        Value::Array(items) => items.iter().map(|v| markers(v, marker)).sum(),
        Value::Object(map) => map
            .iter()
            .map(|(key, v)| key.matches(marker).count() + markers(v, marker))
            .sum(),
        _ => 0,
    }
}

/// `i` in decimal, written into the end of `buf` (numbers are the bulk of a view).
fn decimal(i: i64, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    let mut rest = i.unsigned_abs();
    loop {
        at -= 1;
        buf[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if i < 0 {
        at -= 1;
        buf[at] = b'-';
    }
    &buf[at..]
}

fn count_in(text: &[u8], marker: &[u8]) -> usize {
    text.windows(marker.len()).filter(|w| *w == marker).count()
}

/// Names for presenters in the suite: plain words that no marker matches.
pub(super) const NAMES: [&str; 6] = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"];

pub(super) fn names() -> Vec<String> {
    NAMES.iter().map(|n| (*n).to_owned()).collect()
}

/// What a person at `viewer` reads: the presenter's table and, for a seat, its choices.
pub(super) fn presented<R: Secrets>(state: &R::State, viewer: Viewer) -> String {
    let mut text = presented_text::<R>(state, viewer);
    if let Some(svg) = R::picture(state, viewer, &names()) {
        text.push_str(&svg);
    }
    text
}

/// The presenter's words for `viewer`: the table, and the choices of a seat.
pub(super) fn presented_text<R: Secrets>(state: &R::State, viewer: Viewer) -> String {
    let names = names();
    let mut text = format!("{:?}", R::present(state, viewer, &names));
    if let Viewer::Seat(seat) = viewer {
        let actions = R::legal_actions(state, seat);
        text.push_str(&format!("{:?}", R::choices(state, seat, &actions, &names)));
    }
    text
}

/// The actions offered to `seat` (and its default action) as it sees them: JSON and description.
fn offered<R: Secrets>(state: &R::State, seat: Seat) -> String {
    let actions = R::legal_actions(state, seat);
    let default = R::default_action(state, seat);
    let mut text = String::new();
    for action in actions.iter().chain(&default) {
        let description = R::describe(state, Actor::Seat(seat), action, Viewer::Seat(seat));
        text.push_str(&format!("{} {description:?}\n", to_json(action)));
    }
    text
}

/// Panics naming the seat whose planted secret `shown` (what `viewer` sees) contains.
fn name_the_leak<R: Secrets>(
    state: &R::State,
    seats: usize,
    viewer: Viewer,
    shown: &dyn Fn(&R::State) -> String,
) -> ! {
    let marker = R::MARKER;
    let unplanted = shown(state);
    assert!(
        !unplanted.contains(marker),
        "the marker {marker:?} shows for {viewer:?} although nothing is planted: Secrets::MARKER \
         must be a value the game never shows on its own; shown: {}",
        short(&unplanted)
    );
    for owner in (0..seats).filter(|&s| Viewer::Seat(s) != viewer) {
        let mut planted = state.clone();
        R::plant(&mut planted, owner);
        let text = shown(&planted);
        assert!(
            !text.contains(marker),
            "{viewer:?} is shown a secret of seat {owner} (the planted marker {marker:?}): {}",
            short(&text)
        );
    }
    panic!(
        "{viewer:?} is shown more planted markers {marker:?} with every seat's secrets planted \
         than with only its own: it sees a combination of other seats' secrets; with all planted: {}",
        short(&shown(&{
            let mut all = state.clone();
            (0..seats).for_each(|s| R::plant(&mut all, s));
            all
        }))
    )
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
