//! Hand cards played in the Movement phase and the card powers ("OT = Once on your Turn"),
//! used from an unused permanent card or played from the hand.

use super::actions::Action;
use super::data::{CardId, Effect, FigureKind, Power, Structure, hand_effects};
use super::flow::{add_figure, check_elimination, in_the_game, swap_permanent};
use super::state::{Peek, Pending, Pos, PowerSource, State, Unit, take};
use crate::rules::Seat;

/// Hand cards played for an effect lasting the turn: force, move points, Summons, and the
/// Emperor's draw. (Powers and recruits have actions of their own.)
pub fn playable_in_movement(state: &State, seat: Seat) -> Vec<CardId> {
    let Some(player) = state.players.get(seat) else {
        return Vec::new();
    };
    let mut out: Vec<CardId> = player
        .hand
        .iter()
        .copied()
        .filter(|&c| {
            let effects = hand_effects(c);
            !effects.is_empty()
                && effects.iter().all(|e| {
                    matches!(
                        e,
                        Effect::Force(_)
                            | Effect::Move { .. }
                            | Effect::TerrainMove(_)
                            | Effect::Summon { .. }
                            | Effect::Draw(_)
                    )
                })
        })
        .collect();
    out.dedup();
    out
}

pub fn play_card(state: &mut State, seat: Seat, card: CardId) {
    let Some(player) = state.players.get_mut(seat) else {
        return;
    };
    if !take(&mut player.hand, card) {
        return;
    }
    player.played.push(card);
    state.discard.push(card);
    for e in hand_effects(card) {
        if let Effect::Draw(n) = e {
            state.draws = state.draws.saturating_add(*n);
        }
    }
}

/// The hand left once the power's own card is played from it.
fn hand_after(state: &State, seat: Seat, source: PowerSource) -> Vec<CardId> {
    let mut hand = state
        .players
        .get(seat)
        .map(|p| p.hand.clone())
        .unwrap_or_default();
    if let PowerSource::Hand(c) = source {
        take(&mut hand, c);
    }
    hand
}

fn own_figures(state: &State, seat: Seat) -> impl Iterator<Item = &super::state::Figure> {
    state.figures.iter().filter(move |f| f.owner == seat)
}

fn empty_space(state: &State, at: Pos) -> bool {
    state.occupant(at).is_none()
}

/// Every power action `seat` may take now (the Movement phase, nothing pending).
pub fn power_actions(state: &State, seat: Seat) -> Vec<Action> {
    let mut out = Vec::new();
    let source = |p| state.power_source(seat, p);
    // "look at one opponents hand": a player who is out is no opponent any more.
    let opponents = || (0..state.seats()).filter(move |&o| o != seat && in_the_game(state, o));
    if source(Power::Oracle).is_some() {
        for other in opponents() {
            out.push(Action::Oracle { seat: other });
        }
    }
    if source(Power::Empire).is_some() && state.garrisons_left(seat) > 0 {
        for at in Pos::all() {
            // "Gain 1 Garrison in empty space adj to one you control"
            if empty_space(state, at) && at.neighbours().iter().any(|&n| state.occupies(seat, n)) {
                out.push(Action::Empire { at });
            }
        }
    }
    if source(Power::AlterTerrain).is_some() {
        // Two small steps for mail: the square here, its new terrain next.
        out.extend(Pos::all().map(|at| Action::AlterTerrain { at }));
    }
    if source(Power::Haste).is_some() {
        for f in own_figures(state, seat).filter(|f| !f.done) {
            out.push(Action::Haste { figure: f.id });
        }
    }
    if let Some(s) = source(Power::Alchemist)
        && !hand_after(state, seat, s).is_empty()
    {
        out.push(Action::Alchemist);
    }
    if source(Power::Artificer).is_some() {
        for f in own_figures(state, seat) {
            out.push(Action::Artificer { figure: f.id });
        }
    }
    if let Some(s) = source(Power::Diplomat) {
        let hand = hand_after(state, seat, s);
        let mut hand_cards = hand.clone();
        hand_cards.dedup();
        if let Some(player) = state.players.get(seat) {
            for &permanent in &player.permanent {
                for &h in &hand_cards {
                    out.push(Action::Diplomat { permanent, hand: h });
                }
            }
        }
    }
    if let Some(s) = source(Power::Jester) {
        let mine = hand_after(state, seat, s).len();
        for other in opponents() {
            // "Switch hands with opponent who has equal or less cards"
            if state
                .players
                .get(other)
                .is_some_and(|p| p.hand.len() <= mine)
            {
                out.push(Action::Jester { seat: other });
            }
        }
    }
    if source(Power::Merchant).is_some() && state.garrisons_left(seat) > 0 {
        for at in Pos::all() {
            let market = matches!(state.structure(at), Some(Structure::City | Structure::Town));
            if market && empty_space(state, at) {
                out.push(Action::Merchant { at });
            }
        }
    }
    if source(Power::Polymorph).is_some() {
        for f in own_figures(state, seat) {
            for into in FigureKind::ALL {
                if into != f.kind && state.may_gain(seat, into) {
                    out.push(Action::Polymorph { figure: f.id, into });
                }
            }
        }
    }
    if source(Power::Illusionist).is_some() {
        let units = units_of(state, seat);
        for &first in &units {
            if units
                .iter()
                .any(|&second| may_switch(state, seat, first, second))
            {
                out.push(Action::Illusionist(first));
            }
        }
    }
    if source(Power::Sacrifice).is_some() {
        for f in own_figures(state, seat) {
            out.push(Action::Sacrifice { figure: f.id });
        }
    }
    // Hand cards that recruit: placed as in the Recruitment phase, within the cap.
    if let Some(player) = state.players.get(seat) {
        let spaces = state.recruit_spaces(seat);
        let mut seen: Vec<CardId> = Vec::new();
        for &card in &player.hand {
            if seen.contains(&card) {
                continue;
            }
            seen.push(card);
            for e in hand_effects(card) {
                if let Effect::Recruit(kind) = e
                    && state.may_gain(seat, *kind)
                {
                    for &at in &spaces {
                        out.push(Action::RecruitWith { card, at });
                    }
                }
            }
        }
    }
    out
}

/// A player's units, figures first, then garrisons in board order.
pub fn units_of(state: &State, seat: Seat) -> Vec<Unit> {
    let mut units: Vec<Unit> = own_figures(state, seat)
        .map(|f| Unit::Figure(f.id))
        .collect();
    units.extend(
        Pos::all()
            .filter(|&p| state.garrison(p) == Some(seat))
            .map(Unit::Garrison),
    );
    units
}

fn unit_pos(state: &State, unit: Unit) -> Option<Pos> {
    match unit {
        Unit::Figure(id) => state.figure(id).map(|f| f.at),
        Unit::Garrison(at) => Some(at),
    }
}

/// Whether two of `seat`'s units may switch places (Illusionist): they are in different
/// spaces, and afterwards no space holds two of its figures or two of its garrisons.
pub fn may_switch(state: &State, seat: Seat, a: Unit, b: Unit) -> bool {
    let (Some(pa), Some(pb)) = (unit_pos(state, a), unit_pos(state, b)) else {
        return false;
    };
    if pa == pb {
        return false;
    }
    match (a, b) {
        (Unit::Figure(_), Unit::Figure(_)) => true,
        (Unit::Garrison(_), Unit::Garrison(_)) => false,
        (Unit::Figure(_), Unit::Garrison(_)) => {
            state.garrison(pa) != Some(seat) && !state.own_figure_at(seat, pb, None)
        }
        (Unit::Garrison(_), Unit::Figure(_)) => {
            state.garrison(pb) != Some(seat) && !state.own_figure_at(seat, pa, None)
        }
    }
}

/// Marks the power's card used: a permanent's once-per-turn use, or the hand card played.
fn spend(state: &mut State, seat: Seat, power: Power) {
    let Some(source) = state.power_source(seat, power) else {
        return;
    };
    let Some(player) = state.players.get_mut(seat) else {
        return;
    };
    match source {
        PowerSource::Permanent(c) => {
            if power.once_per_turn() {
                player.used.push(c);
            }
        }
        PowerSource::Hand(c) => {
            if take(&mut player.hand, c) {
                player.played.push(c);
                state.discard.push(c);
            }
        }
    }
}

pub fn perform(state: &mut State, seat: Seat, action: &Action) {
    match action {
        Action::Oracle { seat: other } => {
            spend(state, seat, Power::Oracle);
            let cards = state
                .players
                .get(*other)
                .map(|p| p.hand.clone())
                .unwrap_or_default();
            state.peeks.push(Peek {
                by: seat,
                of: *other,
                cards,
            });
        }
        Action::Empire { at } | Action::Merchant { at } => {
            let power = if matches!(action, Action::Empire { .. }) {
                Power::Empire
            } else {
                Power::Merchant
            };
            spend(state, seat, power);
            if let Some(space) = state.space_mut(*at) {
                space.garrison = Some(seat);
            }
        }
        Action::AlterTerrain { at } => {
            state.pending = Some(Pending::AlterTerrain { at: *at });
        }
        Action::AlterTerrainTo(terrain) => {
            if let Some(Pending::AlterTerrain { at }) = state.pending.take() {
                spend(state, seat, Power::AlterTerrain);
                if let Some(space) = state.space_mut(at) {
                    space.terrain = Some(*terrain);
                }
            }
        }
        Action::CancelAlterTerrain => state.pending = None,
        Action::Haste { figure } => {
            spend(state, seat, Power::Haste);
            if let Some(f) = state.figure_mut(*figure) {
                f.hasted = f.hasted.saturating_add(1);
            }
        }
        Action::Alchemist => {
            spend(state, seat, Power::Alchemist);
            state.pending = Some(Pending::Alchemist { discarded: 0 });
        }
        Action::AlchemyDiscard(card) => {
            if let Some(player) = state.players.get_mut(seat)
                && take(&mut player.hand, *card)
            {
                state.discard.push(*card);
                if let Some(Pending::Alchemist { discarded }) = &mut state.pending {
                    *discarded = discarded.saturating_add(1);
                }
            }
        }
        Action::AlchemyDone => {
            if let Some(Pending::Alchemist { discarded }) = state.pending.take() {
                state.draws = state.draws.saturating_add(discarded);
            }
        }
        Action::Artificer { figure } => {
            spend(state, seat, Power::Artificer);
            if let Some(f) = state.figure_mut(*figure) {
                f.boosted = f.boosted.saturating_add(1);
            }
        }
        Action::Diplomat { permanent, hand } => {
            spend(state, seat, Power::Diplomat);
            swap_permanent(state, seat, *permanent, *hand);
        }
        Action::Jester { seat: other } => {
            spend(state, seat, Power::Jester);
            let mine = state
                .players
                .get_mut(seat)
                .map(|p| std::mem::take(&mut p.hand))
                .unwrap_or_default();
            let theirs = state
                .players
                .get_mut(*other)
                .map(|p| std::mem::replace(&mut p.hand, mine))
                .unwrap_or_default();
            if let Some(p) = state.players.get_mut(seat) {
                p.hand = theirs;
            }
        }
        Action::Polymorph { figure, into } => {
            spend(state, seat, Power::Polymorph);
            if let Some(f) = state.figure_mut(*figure) {
                f.kind = *into;
            }
        }
        Action::Illusionist(first) => {
            state.pending = Some(Pending::Illusionist { first: *first });
        }
        Action::CancelIllusion => state.pending = None,
        Action::IllusionistSwap(second) => {
            if let Some(Pending::Illusionist { first }) = state.pending.take() {
                spend(state, seat, Power::Illusionist);
                switch_places(state, seat, first, *second);
            }
        }
        Action::Sacrifice { figure } => {
            spend(state, seat, Power::Sacrifice);
            state.figures.retain(|f| f.id != *figure);
            if state.moving == Some(*figure) {
                state.moving = None;
            }
            state.draws = state.draws.saturating_add(2);
            check_elimination(state);
        }
        Action::RecruitWith { card, at } => {
            let kind = hand_effects(*card).iter().find_map(|e| match e {
                Effect::Recruit(k) => Some(*k),
                _ => None,
            });
            if let (Some(kind), Some(player)) = (kind, state.players.get_mut(seat))
                && take(&mut player.hand, *card)
            {
                player.played.push(*card);
                state.discard.push(*card);
                add_figure(state, seat, kind, *at);
            }
        }
        _ => {}
    }
}

fn switch_places(state: &mut State, seat: Seat, a: Unit, b: Unit) {
    let (Some(pa), Some(pb)) = (unit_pos(state, a), unit_pos(state, b)) else {
        return;
    };
    for (unit, to) in [(a, pb), (b, pa)] {
        match unit {
            Unit::Figure(id) => {
                if let Some(f) = state.figure_mut(id) {
                    f.at = to;
                }
            }
            Unit::Garrison(from) => {
                if let Some(space) = state.space_mut(from)
                    && space.garrison == Some(seat)
                {
                    space.garrison = None;
                }
            }
        }
    }
    for (unit, to) in [(a, pb), (b, pa)] {
        if let Unit::Garrison(_) = unit
            && let Some(space) = state.space_mut(to)
        {
            space.garrison = Some(seat);
        }
    }
}
