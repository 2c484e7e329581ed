//! Actions, what the game waits for, which actions are legal, and applying them.

use serde::{Deserialize, Serialize};

use super::data::{Colour, Territory, describe_objective, territory_count, territory_name};
use super::flow::{Happening, advance_noting, assign_colour, reinforce};
use super::state::{Die, Phase, State};
use crate::rules::{Actor, Chance, Next, Outcome, RuleError, Seat};

/// An action of a player or an outcome of chance. JSON: externally tagged, snake_case, e.g.
/// `{"keep_objective":17}`, `{"move":{"from":0,"to":12}}`, `"end_movement"`,
/// `{"attack":{"target":"blue","dice":2}}`, `{"roll":6}`, `{"reinforce":2}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    // Chance outcomes.
    /// The next clan without a colour (in seat order) gets this colour.
    AssignClan(Colour),
    /// This clan gets the first player token.
    FirstPlayer(Colour),
    /// The next neutral objective dealt (round-robin by clan) is this card.
    DealObjective(u16),
    /// The next undeclared-for die of the combat round shows this.
    Roll(u8),

    // Player decisions.
    /// Put this many gnomes from the reserve onto the home territory (with
    /// `"reinforcements":"choose"`).
    Reinforce(u8),
    /// Keep this objective (one of those you were dealt).
    KeepObjective(u16),
    /// Move one gnome of the moving clan.
    Move { from: Territory, to: Territory },
    /// End the moving clan's movement.
    EndMovement,
    /// Declare `dice` of the declaring clan's dice against `target`.
    Attack { target: Colour, dice: u8 },
}

impl Action {
    pub fn is_chance(&self) -> bool {
        matches!(
            self,
            Action::AssignClan(_)
                | Action::FirstPlayer(_)
                | Action::DealObjective(_)
                | Action::Roll(_)
        )
    }
}

pub fn next(state: &State) -> Next<Action> {
    match &state.phase {
        Phase::Over(ending) => Next::Over(Outcome {
            winners: ending.winners.clone(),
            scores: ending.scores.clone(),
            summary: ending.summary.clone(),
        }),
        Phase::AssigningClans => chance(
            Colour::ALL
                .into_iter()
                .filter(|&c| state.index_of(c).is_none())
                .map(Action::AssignClan)
                .collect(),
        ),
        Phase::ChoosingFirstPlayer => chance(
            state
                .clans
                .iter()
                .filter_map(|c| c.colour)
                .map(Action::FirstPlayer)
                .collect(),
        ),
        Phase::DealingObjectives => chance(
            state
                .neutral_deck
                .iter()
                .map(|&id| Action::DealObjective(id))
                .collect(),
        ),
        Phase::ChoosingObjectives => Next::Players(state.choosing_seats()),
        Phase::Reinforcement { .. } | Phase::Movement { .. } | Phase::Combat(_) => {
            match state.acting_clan() {
                Some(i) => Next::Players(state.clan(i).map(|c| c.seat).into_iter().collect()),
                None => chance((1..=6).map(Action::Roll).collect()),
            }
        }
    }
}

fn chance(outcomes: Vec<Action>) -> Next<Action> {
    Next::Chance(Chance {
        outcomes: outcomes.into_iter().map(|a| (a, 1)).collect(),
    })
}

/// What the moves made so far leave open: "you need either a single point of origin, or a
/// single point of destination".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// No move yet: anything.
    Free,
    /// Every move so far went from `from` to `to` (one move, or the same one repeated): the
    /// next must start at `from` or end at `to`.
    Either { from: Territory, to: Territory },
    /// Spreading: every move starts here.
    Origin(Territory),
    /// Gathering: every move ends here.
    Destination(Territory),
}

pub fn focus(moves: &[[Territory; 2]]) -> Focus {
    let Some(&[from, to]) = moves.first() else {
        return Focus::Free;
    };
    let one_origin = moves.iter().all(|[f, _]| *f == from);
    let one_destination = moves.iter().all(|[_, t]| *t == to);
    match (one_origin, one_destination) {
        (true, true) => Focus::Either { from, to },
        (true, false) => Focus::Origin(from),
        _ => Focus::Destination(to),
    }
}

/// Whether adding `(from, to)` keeps a single point of origin or a single destination.
pub fn keeps_focus(moves: &[[Territory; 2]], from: Territory, to: Territory) -> bool {
    moves.iter().all(|[f, _]| *f == from) || moves.iter().all(|[_, t]| *t == to)
}

/// The moves the moving clan may make now, by origin then destination.
pub fn legal_moves(state: &State) -> Vec<(Territory, Territory)> {
    let (Some(mover), Phase::Movement { moves, .. }) = (state.mover(), &state.phase) else {
        return Vec::new();
    };
    let Some(clan) = state.clan(mover) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for from in clan.occupied() {
        for to in state.destinations(mover, from) {
            if keeps_focus(moves, from, to) {
                out.push((from, to));
            }
        }
    }
    out
}

pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    let Next::Players(seats) = next(state) else {
        return Vec::new();
    };
    if !seats.contains(&seat) {
        return Vec::new();
    }
    match &state.phase {
        Phase::ChoosingObjectives => state
            .clans
            .iter()
            .filter(|c| c.seat == seat && c.choosing(state.keep))
            .flat_map(|c| c.offered.iter().map(|&id| Action::KeepObjective(id)))
            .collect(),
        // All of them first: the default when a deadline passes.
        Phase::Reinforcement { .. } => state
            .reinforcing()
            .map(|i| {
                (0..=state.reinforcements_due(i))
                    .rev()
                    .map(Action::Reinforce)
                    .collect()
            })
            .unwrap_or_default(),
        Phase::Movement { .. } => {
            let mut actions: Vec<Action> = legal_moves(state)
                .into_iter()
                .map(|(from, to)| Action::Move { from, to })
                .collect();
            actions.push(Action::EndMovement);
            actions
        }
        Phase::Combat(combat) => {
            let Some(declarer) = state.declarer() else {
                return Vec::new();
            };
            let undeclared = state.undeclared_dice(combat, declarer);
            state
                .occupants(combat.territory)
                .into_iter()
                .filter(|&i| i != declarer)
                .filter_map(|i| state.clan(i).and_then(|c| c.colour))
                .flat_map(|target| {
                    (1..=undeclared)
                        .rev()
                        .map(move |dice| Action::Attack { target, dice })
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Applies `action` by `actor`; on error the state is unchanged.
pub fn apply(state: &mut State, actor: Actor, action: &Action) -> Result<(), RuleError> {
    apply_noting(state, actor, action).map(|_| ())
}

/// As [`apply`], returning what the automatic steps after it did.
pub fn apply_noting(
    state: &mut State,
    actor: Actor,
    action: &Action,
) -> Result<Vec<Happening>, RuleError> {
    let mut after = match (next(state), actor) {
        (Next::Over(_), _) => return Err(RuleError::GameOver),
        (Next::Chance(chance), Actor::Chance) => {
            if !action.is_chance() {
                return Err(RuleError::NotYourDecision);
            }
            if !chance.outcomes.iter().any(|(a, _)| a == action) {
                return Err(RuleError::illegal(
                    "that is not a possible outcome of this chance step",
                ));
            }
            let mut after = state.clone();
            apply_chance(&mut after, action)?;
            after
        }
        (Next::Players(seats), Actor::Seat(seat)) if seats.contains(&seat) => {
            if action.is_chance() {
                return Err(RuleError::illegal("dice and cards are chance's to decide"));
            }
            let mut after = state.clone();
            decide(&mut after, seat, action)?;
            after
        }
        _ => return Err(RuleError::NotYourDecision),
    };
    let mut notes = Vec::new();
    advance_noting(&mut after, &mut notes);
    *state = after;
    Ok(notes)
}

fn apply_chance(state: &mut State, action: &Action) -> Result<(), RuleError> {
    match (action, &mut state.phase) {
        (Action::AssignClan(colour), Phase::AssigningClans) => assign_colour(state, *colour),
        (Action::FirstPlayer(colour), Phase::ChoosingFirstPlayer) => {
            state.first = state.index_of(*colour).ok_or_else(not_possible)?;
            state.phase = Phase::DealingObjectives;
        }
        (Action::DealObjective(id), Phase::DealingObjectives) => {
            let to = state.deal_recipient().ok_or_else(not_possible)?;
            let at = state
                .neutral_deck
                .iter()
                .position(|x| x == id)
                .ok_or_else(not_possible)?;
            state.neutral_deck.remove(at);
            if let Some(clan) = state.clans.get_mut(to) {
                clan.offered.push(*id);
                clan.offered.sort_unstable();
            }
        }
        (Action::Roll(value), Phase::Combat(combat)) if combat.rolls.len() < combat.dice.len() => {
            combat.rolls.push(*value);
        }
        _ => return Err(not_possible()),
    }
    Ok(())
}

fn not_possible() -> RuleError {
    RuleError::illegal("that is not a possible outcome of this chance step")
}

fn decide(state: &mut State, seat: Seat, action: &Action) -> Result<(), RuleError> {
    match action {
        Action::KeepObjective(id) => keep_objective(state, seat, *id),
        Action::Reinforce(n) => {
            let (Some(clan), Phase::Reinforcement { turn }) = (state.reinforcing(), &state.phase)
            else {
                return Err(RuleError::illegal(
                    "reinforcements are decided at the start of a round",
                ));
            };
            let due = state.reinforcements_due(clan);
            if *n > due {
                return Err(RuleError::illegal(format!(
                    "you may put 0 to {due} gnomes onto your home this round"
                )));
            }
            let turn = *turn;
            reinforce(state, clan, *n);
            state.phase = Phase::Reinforcement { turn: turn + 1 };
            Ok(())
        }
        Action::Move { from, to } => move_gnome(state, *from, *to),
        Action::EndMovement => match &state.phase {
            Phase::Movement { turn, .. } => {
                state.phase = Phase::Movement {
                    turn: turn + 1,
                    moves: Vec::new(),
                };
                Ok(())
            }
            _ => Err(RuleError::illegal("it is not the movement phase")),
        },
        Action::Attack { target, dice } => attack(state, *target, *dice),
        _ => Err(RuleError::illegal("dice and cards are chance's to decide")),
    }
}

fn keep_objective(state: &mut State, seat: Seat, id: u16) -> Result<(), RuleError> {
    if !matches!(state.phase, Phase::ChoosingObjectives) {
        return Err(RuleError::illegal(
            "objectives are chosen only during set-up",
        ));
    }
    let keep = usize::from(state.keep);
    let clan = state
        .clans
        .iter_mut()
        .find(|c| c.seat == seat && c.offered.contains(&id))
        .ok_or_else(|| {
            RuleError::illegal(format!(
                "{} is not among the objectives you were dealt and have not kept",
                describe_objective(id)
            ))
        })?;
    if clan.kept.len() >= keep {
        return Err(RuleError::illegal(format!(
            "that clan has already kept its {keep} objectives"
        )));
    }
    clan.offered.retain(|&x| x != id);
    clan.kept.push(id);
    clan.kept.sort_unstable();
    Ok(())
}

fn move_gnome(state: &mut State, from: Territory, to: Territory) -> Result<(), RuleError> {
    let (Some(mover), Phase::Movement { moves, .. }) = (state.mover(), &state.phase) else {
        return Err(RuleError::illegal("it is not the movement phase"));
    };
    let count = territory_count();
    if usize::from(from) >= count || usize::from(to) >= count {
        return Err(RuleError::illegal(format!(
            "the territories are numbered 0 to {}",
            count.saturating_sub(1)
        )));
    }
    if state.clan(mover).is_none_or(|c| c.gnomes_at(from) == 0) {
        return Err(RuleError::illegal(format!(
            "you have no gnome in {}",
            territory_name(from)
        )));
    }
    if !state.destinations(mover, from).contains(&to) {
        return Err(RuleError::illegal(format!(
            "a gnome cannot reach {} from {}: it may only pass through empty territories \
             or territories where you have gnomes",
            territory_name(to),
            territory_name(from)
        )));
    }
    if !keeps_focus(moves, from, to) {
        return Err(RuleError::illegal(
            "all your moves this turn must start from the same territory or end in the same \
             territory",
        ));
    }
    let mut moves = moves.clone();
    moves.push([from, to]);
    if let Some(clan) = state.clans.get_mut(mover) {
        clan.remove_gnomes(from, 1);
        clan.add_gnomes(to, 1);
    }
    if let Phase::Movement { moves: m, .. } = &mut state.phase {
        *m = moves;
    }
    Ok(())
}

fn attack(state: &mut State, target: Colour, dice: u8) -> Result<(), RuleError> {
    let (Some(declarer), Phase::Combat(combat)) = (state.declarer(), &state.phase) else {
        return Err(RuleError::illegal(
            "no combat targets are being declared now",
        ));
    };
    let Some(attacker) = state.clan(declarer).and_then(|c| c.colour) else {
        return Err(RuleError::illegal(
            "no combat targets are being declared now",
        ));
    };
    if target == attacker {
        return Err(RuleError::illegal(
            "your gnomes cannot attack their own clan",
        ));
    }
    let present = state
        .index_of(target)
        .is_some_and(|i| state.occupants(combat.territory).contains(&i));
    if !present {
        return Err(RuleError::illegal(format!(
            "the {} clan has no gnomes in {}",
            target.name(),
            territory_name(combat.territory)
        )));
    }
    let undeclared = state.undeclared_dice(combat, declarer);
    if dice == 0 || dice > undeclared {
        return Err(RuleError::illegal(format!(
            "you have {undeclared} dice left to declare, so between 1 and {undeclared}"
        )));
    }
    if let Phase::Combat(combat) = &mut state.phase {
        for _ in 0..dice {
            combat.dice.push(Die { attacker, target });
        }
    }
    Ok(())
}
