//! The Movement phase: "Figures are moved 1 at a time, 1 space at a time", towns as
//! crossroads, stacking, Summons, and entering enemy spaces (combat).

use super::combat;
use super::data::{FigureKind, Structure};
use super::state::{Figure, Pos, State};

/// The figure moving now, if it shares its space with another of its owner's figures
/// (passing through a Town): until it moves on, nothing else may happen.
pub fn stacked_figure(state: &State) -> Option<&Figure> {
    let f = state.figure(state.moving?)?;
    state.own_figure_at(f.owner, f.at, Some(f.id)).then_some(f)
}

/// Whether entering `to` is free for `figure`: "It costs nothing to move through a Town you
/// control" (l.77), except into a Town it entered for free since it last paid a move point
/// (ruling 12, so that movement always ends: such a loop of free moves only brings it back
/// where it was). In games created before edition 2, once per Town and turn.
fn free_entry(state: &State, figure: &Figure, to: Pos) -> bool {
    state.structure(to) == Some(Structure::Town)
        && state.occupies(figure.owner, to)
        && !figure.passed.contains(&to)
}

/// The spaces `figure` may move to now, with their move point cost.
pub fn targets(state: &State, figure: &Figure) -> Vec<(Pos, u8)> {
    let mut out = Vec::new();
    if figure.owner != state.current || figure.done || state.moves_left(figure) == 0 {
        return out;
    }
    if let Some(stacked) = stacked_figure(state)
        && stacked.id != figure.id
    {
        return out;
    }
    for to in figure.at.neighbours() {
        let free = free_entry(state, figure, to);
        if state.own_figure_at(figure.owner, to, Some(figure.id)) {
            // "A Figure may not move through a space occupied by another figure you control
            // unless the space is a Town" — and it must be able to leave it again.
            let way_out = to
                .neighbours()
                .into_iter()
                .any(|q| !state.own_figure_at(figure.owner, q, Some(figure.id)));
            if free && way_out {
                out.push((to, 0));
            }
        } else {
            out.push((to, if free { 0 } else { 1 }));
        }
    }
    out
}

/// Ends the movement of the figure that was moving, if another one starts.
fn switch_to(state: &mut State, id: Option<u16>) {
    if let Some(previous) = state.moving
        && Some(previous) != id
        && let Some(f) = state.figure_mut(previous)
    {
        f.done = true;
    }
    state.moving = id;
}

pub fn move_figure(state: &mut State, id: u16, to: Pos) {
    let Some(figure) = state.figure(id) else {
        return;
    };
    let cost = targets(state, figure)
        .into_iter()
        .find(|(p, _)| *p == to)
        .map_or(1, |(_, c)| c);
    switch_to(state, Some(id));
    let terrain = state.terrain(to);
    let edition = state.options.edition;
    if let Some(f) = state.figure_mut(id) {
        f.spent = f.spent.saturating_add(cost);
        if cost == 0 {
            f.passed.push(to);
        } else if edition >= 2 {
            // A move point paid: the Towns passed for free may be entered for free again.
            f.passed.clear();
        }
        f.at = to;
        if let Some(t) = terrain
            && !f.entered.contains(&t)
        {
            f.entered.push(t);
        }
    }
    combat::enter(state, id, to);
}

/// The Summons the current player may make: (summoner, unit, space).
pub fn summon_options(state: &State) -> Vec<(u16, u16, Pos)> {
    let seat = state.current;
    let mut out = Vec::new();
    for (by, brings) in state.summons(seat) {
        for summoner in own(state, by) {
            for unit in own(state, brings) {
                // "This counts as the summoned units move for the turn": it must not have
                // moved yet, not even for free into a Town.
                if unit.id == summoner.id
                    || unit.done
                    || unit.spent > 0
                    || !unit.passed.is_empty()
                    || state.moving == Some(unit.id)
                {
                    continue;
                }
                for to in summoner.at.neighbours() {
                    if to != unit.at && !state.own_figure_at(seat, to, Some(unit.id)) {
                        let option = (summoner.id, unit.id, to);
                        if !out.contains(&option) {
                            out.push(option);
                        }
                    }
                }
            }
        }
    }
    out.sort_unstable();
    out
}

fn own(state: &State, kind: FigureKind) -> impl Iterator<Item = &Figure> {
    let seat = state.current;
    state
        .figures
        .iter()
        .filter(move |f| f.owner == seat && f.kind == kind)
}

/// "Summon = Move 1 of your Units of the indicated type to a space adj to the summoning
/// unit. This counts as the summoned units move for the turn."
pub fn summon(state: &mut State, unit: u16, to: Pos) {
    switch_to(state, None);
    let terrain = state.terrain(to);
    if let Some(f) = state.figure_mut(unit) {
        f.at = to;
        f.done = true;
        if let Some(t) = terrain
            && !f.entered.contains(&t)
        {
            f.entered.push(t);
        }
    }
    // Its move points are all spent (counted after the terrain entered, which may add one).
    let Some(points) = state.figure(unit).map(|f| state.move_points(f)) else {
        return;
    };
    if let Some(f) = state.figure_mut(unit) {
        f.spent = f.spent.max(points);
    }
    state.moving = Some(unit);
    combat::enter(state, unit, to);
}
