//! Applying an action: checked against what the game waits for (`actions::next`) and the legal
//! actions (`legal`), then handed to the one step that carries it out (`flow`, `movement`,
//! `combat`, `powers`), then the automatic phases run (`flow`). This is the one place that
//! dispatches; the steps below never call back up here.

use super::actions::{Action, next};
use super::state::{Phase, State};
use super::{combat, flow, legal, movement, powers};
use crate::rules::{Actor, Next, RuleError};

pub fn apply(state: &mut State, actor: Actor, action: &Action) -> Result<(), RuleError> {
    match (next(state), actor) {
        (Next::Over(_), _) => return Err(RuleError::GameOver),
        (Next::Chance(chance), Actor::Chance) => {
            if !chance.outcomes.iter().any(|(a, _)| a == action) {
                return Err(RuleError::illegal(
                    "that is not a possible outcome of this chance step",
                ));
            }
        }
        (Next::Chance(_), Actor::Seat(_)) | (Next::Players(_), Actor::Chance) => {
            return Err(RuleError::NotYourDecision);
        }
        (Next::Players(seats), Actor::Seat(seat)) => {
            if !seats.contains(&seat) {
                return Err(RuleError::NotYourDecision);
            }
            if !legal::legal_actions(state, seat).contains(action) {
                return Err(RuleError::illegal(legal::why_not(state, seat, action)));
            }
        }
    }
    let mut after = state.clone();
    perform(&mut after, actor, action)?;
    flow::advance(&mut after);
    *state = after;
    Ok(())
}

/// Carries out an action already known to be legal (listed, or a listed chance outcome).
fn perform(state: &mut State, actor: Actor, action: &Action) -> Result<(), RuleError> {
    let seat = match actor {
        Actor::Seat(s) => s,
        Actor::Chance => state.current,
    };
    match action {
        Action::PlaceTile(t) => flow::place_tile(state, *t),
        Action::PlaceChit(s) => flow::place_chit(state, *s),
        Action::DealPermanent(c) => flow::deal_permanent(state, *c),
        Action::DrawCard(c) => flow::draw_card(state, *c),
        Action::Roll2d6(sum) => match &state.phase {
            Phase::FirstPlayer { .. } => flow::first_player_roll(state, *sum),
            _ => combat::roll(state, *sum),
        },
        Action::RollDie(n) => flow::recruit_roll(state, *n),
        Action::ChooseCorner(corner) => flow::choose_corner(state, seat, *corner),
        Action::StartFigure(kind) => flow::start_figure(state, seat, *kind),
        Action::DeclineExtraFigure => flow::decline_extra(state),
        Action::Move { figure, to } => movement::move_figure(state, *figure, *to),
        Action::Summon {
            summoner: _,
            unit,
            to,
        } => movement::summon(state, *unit, *to),
        Action::PlayCard(c) => match &state.phase {
            Phase::Combat(_) => combat::play_card(state, seat, *c),
            _ => powers::play_card(state, seat, *c),
        },
        Action::DoneCards => combat::done_cards(state),
        Action::Artificer { .. } if matches!(state.phase, Phase::Combat(_)) => {
            powers::perform(state, seat, action);
            combat::card_played(state);
        }
        Action::EndMovement => flow::end_movement(state),
        Action::Recruit { figure, at } => flow::recruit(state, seat, *figure, *at),
        Action::Realign { permanent, hand } => flow::realign(state, seat, *permanent, *hand),
        Action::Discard(c) => flow::discard(state, seat, *c),
        Action::DiscardAtRandom => state.discarding_at_random = true,
        Action::RandomDiscard(c) => {
            flow::discard(state, seat, *c);
            state.discarding_at_random = false;
        }
        Action::EndTurn => flow::end_turn(state),
        Action::StopBefore(stop) => flow::stop_before(state, seat, *stop),
        Action::GoOn => flow::go_on(state),
        _ => powers::perform(state, seat, action),
    }
    Ok(())
}
