//! The legal actions of a seat, and why an action that is not one of them is refused.

use super::actions::{Action, next};
use super::combat::{artificer_target, playable_cards};
use super::data::{FigureKind, Power, Terrain, card_name};
use super::flow::recruits;
use super::movement::{stacked_figure, summon_options, targets};
use super::powers::{may_switch, playable_in_movement, power_actions, units_of};
use super::state::{Pending, Phase, State, Stop};
use crate::rules::{Next, Seat};

pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    match next(state) {
        Next::Players(seats) if seats.contains(&seat) => {}
        _ => return Vec::new(),
    }
    match &state.phase {
        Phase::Corner { .. } => state
            .free_corners()
            .into_iter()
            .map(Action::ChooseCorner)
            .collect(),
        Phase::StartFigure { .. } => FigureKind::ALL.map(Action::StartFigure).to_vec(),
        Phase::ExtraFigure { .. } => {
            let mut out: Vec<Action> = FigureKind::ALL
                .into_iter()
                .filter(|&k| state.may_gain(seat, k))
                .map(Action::StartFigure)
                .collect();
            out.push(Action::DeclineExtraFigure);
            out
        }
        Phase::Movement => movement_actions(state, seat),
        Phase::Combat(_) => {
            let mut out: Vec<Action> = playable_cards(state, seat)
                .into_iter()
                .map(Action::PlayCard)
                .collect();
            if let Some(figure) = artificer_target(state, seat) {
                out.push(Action::Artificer { figure });
            }
            out.push(Action::DoneCards);
            out
        }
        Phase::RecruitPlace { roll } => recruit_actions(state, seat, *roll),
        Phase::End => end_actions(state, seat),
        Phase::Stop(stop) => stop_actions(state, seat, *stop),
        _ => Vec::new(),
    }
}

/// The actions of a power used in two steps, while it waits for its second step.
fn pending_actions(state: &State, seat: Seat) -> Option<Vec<Action>> {
    let mut out = Vec::new();
    match &state.pending {
        Some(Pending::Alchemist { .. }) => {
            if let Some(player) = state.players.get(seat) {
                let mut hand = player.hand.clone();
                hand.dedup();
                out.extend(hand.into_iter().map(Action::AlchemyDiscard));
            }
            out.push(Action::AlchemyDone);
        }
        Some(Pending::Illusionist { first }) => {
            for second in units_of(state, seat) {
                if may_switch(state, seat, *first, second) {
                    out.push(Action::IllusionistSwap(second));
                }
            }
            out.push(Action::CancelIllusion);
        }
        Some(Pending::AlterTerrain { at }) => {
            for terrain in Terrain::ALL {
                if state.terrain(*at) != Some(terrain) {
                    out.push(Action::AlterTerrainTo(terrain));
                }
            }
            out.push(Action::CancelAlterTerrain);
        }
        None => return None,
    }
    Some(out)
}

fn movement_actions(state: &State, seat: Seat) -> Vec<Action> {
    if let Some(out) = pending_actions(state, seat) {
        return out;
    }
    let mut out = Vec::new();
    for figure in state.figures.iter().filter(|f| f.owner == seat) {
        for (to, _) in targets(state, figure) {
            out.push(Action::Move {
                figure: figure.id,
                to,
            });
        }
    }
    if stacked_figure(state).is_some() {
        // A figure passing through a Town must move on first.
        return out;
    }
    for (summoner, unit, to) in summon_options(state) {
        out.push(Action::Summon { summoner, unit, to });
    }
    out.extend(
        playable_in_movement(state, seat)
            .into_iter()
            .map(Action::PlayCard),
    );
    out.extend(power_actions(state, seat));
    out.push(Action::EndMovement);
    // Ruling 22: or end it and stop after the Allies draw, to use a power before the roll.
    out.push(Action::StopBefore(Stop::RecruitRoll));
    out
}

/// A stop the player asked for (ruling 22): the powers and cards that still do something,
/// then going on; at the start of the turn, also going on to a stop before the Garrison
/// phase. Before the Declaration and Garrison phases the Movement phase is still to come, so
/// (from edition 1, review R5) every power and hand card of the Movement phase is offered;
/// before the Recruit Roll, what still does something after it.
fn stop_actions(state: &State, seat: Seat, stop: Stop) -> Vec<Action> {
    if let Some(out) = pending_actions(state, seat) {
        return out;
    }
    let before_movement = matches!(stop, Stop::Declaration | Stop::Garrison);
    let mut out = if before_movement && state.options.edition >= 1 {
        let mut out: Vec<Action> = playable_in_movement(state, seat)
            .into_iter()
            .map(Action::PlayCard)
            .collect();
        out.extend(power_actions(state, seat));
        out
    } else {
        later_powers(state, seat)
    };
    out.push(Action::GoOn);
    if stop == Stop::Declaration {
        out.push(Action::StopBefore(Stop::Garrison));
    }
    out
}

/// "OT = Once on your Turn": after the Movement phase (Recruitment and End phases) the powers
/// and hand cards that still do something: all powers but Haste and the Artificer (no figure
/// moves or fights any more this turn), the Emperor's draw, the recruit cards.
fn later_powers(state: &State, seat: Seat) -> Vec<Action> {
    let mut out: Vec<Action> = playable_in_movement(state, seat)
        .into_iter()
        .filter(|&c| {
            super::data::hand_effects(c)
                .iter()
                .any(|e| matches!(e, super::data::Effect::Draw(_)))
        })
        .map(Action::PlayCard)
        .collect();
    out.extend(
        power_actions(state, seat)
            .into_iter()
            .filter(|a| !matches!(a, Action::Haste { .. } | Action::Artificer { .. })),
    );
    out
}

/// The Recruitment phase after the roll: where the new figure goes, or first a power.
fn recruit_actions(state: &State, seat: Seat, roll: u8) -> Vec<Action> {
    if let Some(out) = pending_actions(state, seat) {
        return out;
    }
    let mut out = recruits(state, seat, roll);
    out.extend(later_powers(state, seat));
    out
}

fn end_actions(state: &State, seat: Seat) -> Vec<Action> {
    if let Some(out) = pending_actions(state, seat) {
        return out;
    }
    let mut out = Vec::new();
    let Some(player) = state.players.get(seat) else {
        return out;
    };
    let mut hand = player.hand.clone();
    hand.dedup();
    // "THE OPTIONAL REALIGNMENT RULE: In End Phase you may discard 1 of your permanent cards
    // and replace it with a card from your hand."
    if state.options.realignment && !state.realigned {
        for &permanent in &player.permanent {
            for &h in &hand {
                out.push(Action::Realign { permanent, hand: h });
            }
        }
    }
    out.extend(later_powers(state, seat));
    if player.hand.len() > state.hand_limit(seat) {
        // "Max hand size is 5 cards. Discard excess cards."
        out.extend(hand.iter().map(|&c| Action::Discard(c)));
        // Ruling 43: or leave the pick to chance (what a deadline does).
        out.push(Action::DiscardAtRandom);
    } else {
        out.push(Action::EndTurn);
        // Ruling 22: or end it and stop at the start of your next turn, to use a power
        // before the Declaration phase.
        out.push(Action::StopBefore(Stop::Declaration));
    }
    out
}

/// A reason, in the game's words, why `action` is not legal for `seat` now.
pub fn why_not(state: &State, seat: Seat, action: &Action) -> String {
    let phase = match &state.phase {
        Phase::Corner { .. } | Phase::StartFigure { .. } | Phase::ExtraFigure { .. } => "set-up",
        Phase::Movement => "the Movement phase",
        Phase::Combat(_) => "a combat",
        Phase::RecruitPlace { .. } => "the Recruitment phase",
        Phase::End => "the End phase",
        Phase::Stop(stop) => stop.phase(),
        _ => "this step",
    };
    let detail = match action {
        Action::Move { figure, to } => match state.figure(*figure) {
            None => format!("there is no figure {figure}"),
            Some(f) if f.owner != seat => format!("figure {figure} is not yours"),
            Some(f) if f.done => format!("figure {figure} has finished moving this turn"),
            Some(f) if state.moves_left(f) == 0 => {
                format!("figure {figure} has no move points left")
            }
            Some(_) if stacked_figure(state).is_some() => {
                "the figure passing through a Town must move on first".to_owned()
            }
            Some(f) if !f.at.adjacent(*to) => {
                format!("{to} is not next to figure {figure} at {}", f.at)
            }
            Some(_) => format!(
                "figure {figure} may not enter {to} (your figures may not stack, except \
                 passing once through a Town you occupy)"
            ),
        },
        Action::EndMovement | Action::Summon { .. } if stacked_figure(state).is_some() => {
            "the figure passing through a Town must move on first".to_owned()
        }
        Action::PlayCard(c) | Action::Discard(c) | Action::AlchemyDiscard(c)
            if !state.players.get(seat).is_some_and(|p| p.hand.contains(c)) =>
        {
            format!("you do not hold {}", card_name(*c))
        }
        Action::PlayCard(c) => format!("{} cannot be played now", card_name(*c)),
        Action::Discard(_) | Action::DiscardAtRandom if matches!(state.phase, Phase::End) => {
            "you are within your hand limit".to_owned()
        }
        _ if power_of(action).is_some_and(|p| state.power_source(seat, p).is_none()) => {
            "you have no unused card with that power".to_owned()
        }
        Action::EndTurn if matches!(state.phase, Phase::End) => format!(
            "you hold more than {} cards: discard first",
            state.hand_limit(seat)
        ),
        Action::Realign { .. } if !state.options.realignment => {
            "the optional Realignment rule is not in use".to_owned()
        }
        _ if action.is_chance() => "only chance decides that".to_owned(),
        _ => "that is not one of your choices".to_owned(),
    };
    format!("{detail} (now: {phase})")
}

/// The card power an action uses, if any.
fn power_of(action: &Action) -> Option<Power> {
    Some(match action {
        Action::Oracle { .. } => Power::Oracle,
        Action::Empire { .. } => Power::Empire,
        Action::AlterTerrain { .. } => Power::AlterTerrain,
        Action::Haste { .. } => Power::Haste,
        Action::Alchemist => Power::Alchemist,
        Action::Artificer { .. } => Power::Artificer,
        Action::Diplomat { .. } => Power::Diplomat,
        Action::Jester { .. } => Power::Jester,
        Action::Merchant { .. } => Power::Merchant,
        Action::Polymorph { .. } => Power::Polymorph,
        Action::Illusionist(_) | Action::IllusionistSwap(_) => Power::Illusionist,
        Action::AlterTerrainTo(_) => Power::AlterTerrain,
        Action::Sacrifice { .. } => Power::Sacrifice,
        _ => return None,
    })
}
