//! Combat: "Resolve Combats immediately." The moving figure attacks the enemy figure, then
//! the enemy garrison; each side rolls 2D6, permanent cards count, then the sides take turns
//! playing hand cards for force (attacker first, each may answer the other) until both pass;
//! the higher total wins, a tie destroys both.

use super::data::{CardId, Effect, ForceBonus, Power, Role, Structure, UnitKind, hand_effects};
use super::flow::check_elimination;
use super::state::{Combat, CombatReport, CombatStep, Defender, Phase, Pos, PowerSource, State};
use crate::rules::Seat;

/// One side of a fight, as force is worked out for it.
#[derive(Clone, Copy, Debug)]
pub struct Side {
    pub seat: Seat,
    pub unit: UnitKind,
    pub figure: Option<u16>,
    pub role: Role,
    pub at: Pos,
    pub vs: UnitKind,
}

fn bonus_applies(state: &State, side: &Side, b: &ForceBonus) -> bool {
    let terrain = state.terrain(side.at);
    let structure = state.structure(side.at);
    b.units.contains(&side.unit)
        && (b.terrain.is_empty() || terrain.is_some_and(|t| b.terrain.contains(&t)))
        && (b.vs.is_empty() || b.vs.contains(&side.vs))
        && b.role.is_none_or(|r| r == side.role)
        && (b.structures.is_empty() || structure.is_some_and(|s| b.structures.contains(&s)))
        && b.adjacent_to.is_none_or(|kind| {
            state
                .figures
                .iter()
                .any(|f| f.owner == side.seat && f.kind == kind && f.at.adjacent(side.at))
        })
}

/// The force bonus a list of effects gives a side.
fn effects_force(state: &State, side: &Side, effects: &[&Effect]) -> i32 {
    effects
        .iter()
        .map(|e| match e {
            Effect::Force(b) if bonus_applies(state, side, b) => b.bonus,
            _ => 0,
        })
        .sum()
}

/// A side's force: base, Castle, declared structures, active cards, Artificer.
pub fn force(state: &State, side: &Side) -> i32 {
    let mut force = side.unit.base_force();
    // "Units occupying a Castle space get Force +2 in defense."
    if side.role == Role::Defending && state.structure(side.at) == Some(Structure::Castle) {
        force += 2;
    }
    let declared = |s| state.declared(side.seat, s);
    match side.unit {
        UnitKind::Monster if declared(Structure::Ruins) => force += 2,
        UnitKind::Hero | UnitKind::Army if declared(Structure::Mine) => force += 1,
        UnitKind::Mage if declared(Structure::Tower) => force += 2,
        _ => {}
    }
    force += effects_force(state, side, &state.active_effects(side.seat));
    if let Some(f) = side.figure.and_then(|id| state.figure(id)) {
        force += i32::from(f.boosted);
    }
    force
}

/// The two sides of the current fight.
pub fn sides(state: &State, combat: &Combat) -> Option<(Side, Side)> {
    let attacker = state.figure(combat.attacker)?;
    let (defender_unit, defender_figure) = match combat.defender {
        Defender::Figure(id) => (state.figure(id)?.kind.unit(), Some(id)),
        Defender::Garrison => (UnitKind::Garrison, None),
    };
    Some((
        Side {
            seat: attacker.owner,
            unit: attacker.kind.unit(),
            figure: Some(attacker.id),
            role: Role::Attacking,
            at: combat.at,
            vs: defender_unit,
        },
        Side {
            seat: combat.defender_seat,
            unit: defender_unit,
            figure: defender_figure,
            role: Role::Defending,
            at: combat.at,
            vs: attacker.kind.unit(),
        },
    ))
}

fn combat_of(state: &State) -> Option<&Combat> {
    match &state.phase {
        Phase::Combat(c) => Some(c),
        _ => None,
    }
}

/// The side whose card window is open.
fn side_in_window(state: &State) -> Option<Side> {
    let combat = combat_of(state)?;
    let (attacker, defender) = sides(state, combat)?;
    match combat.step {
        CombatStep::AttackerCards => Some(attacker),
        CombatStep::DefenderCards => Some(defender),
        _ => None,
    }
}

/// Hand cards `seat` may play in the open card window: those that add force to its unit in
/// this fight. (The Artificer is an "OT" power: the attacker uses it with the `artificer`
/// action; a defender cannot, "OT = Once on your Turn".)
pub fn playable_cards(state: &State, seat: Seat) -> Vec<CardId> {
    let Some(side) = side_in_window(state).filter(|s| s.seat == seat) else {
        return Vec::new();
    };
    let Some(player) = state.players.get(seat) else {
        return Vec::new();
    };
    let mut out: Vec<CardId> = player
        .hand
        .iter()
        .copied()
        .filter(|&c| {
            let effects: Vec<&Effect> = hand_effects(c).iter().collect();
            effects_force(state, &side, &effects) > 0
        })
        .collect();
    out.dedup();
    out
}

/// The attacking figure, when the attacker's card window is open and `seat` may use an
/// Artificer on it now.
pub fn artificer_target(state: &State, seat: Seat) -> Option<u16> {
    let side = side_in_window(state).filter(|s| s.seat == seat && s.role == Role::Attacking)?;
    state.power_source(seat, Power::Artificer)?;
    side.figure
}

/// A moving figure entered `at`: combat if enemy units are there.
pub fn enter(state: &mut State, attacker: u16, at: Pos) {
    let Some(seat) = state.figure(attacker).map(|f| f.owner) else {
        state.phase = Phase::Movement;
        return;
    };
    let enemy_figure = state
        .figures
        .iter()
        .find(|f| f.at == at && f.owner != seat)
        .map(|f| (f.owner, Defender::Figure(f.id)));
    let enemy_garrison = state
        .garrison(at)
        .filter(|&g| g != seat)
        .map(|g| (g, Defender::Garrison));
    // "If both, the defending Figure will fight first, then the Garrison."
    match enemy_figure.or(enemy_garrison) {
        Some((defender_seat, defender)) => {
            // "Attacker and Defender both roll 2D6 each." first of all.
            state.phase = Phase::Combat(Combat {
                attacker,
                at,
                defender_seat,
                defender,
                step: CombatStep::AttackerRoll,
                attack_roll: None,
                defence_roll: None,
                passes: 0,
            });
        }
        None => state.phase = Phase::Movement,
    }
}

/// Whether `seat` has anything it could play in a card window: a hand card, or (the attacker)
/// an unused permanent Artificer. Hand sizes and permanent cards are public, so whether a
/// window opens tells nobody anything.
fn has_window(state: &State, combat: &Combat, seat: Seat) -> bool {
    let hand = state.players.get(seat).is_some_and(|p| !p.hand.is_empty());
    let artificer = seat == state.current
        && matches!(
            state.power_source(seat, Power::Artificer),
            Some(PowerSource::Permanent(_))
        )
        && combat.defender_seat != seat;
    hand || artificer
}

/// The card windows take turns, the attacker's first; a window with nothing to play closes
/// by itself; after two windows closed in a row without a card, the fight is settled.
fn next_window(state: &mut State) {
    for _ in 0..4 {
        let Phase::Combat(c) = &state.phase else {
            return;
        };
        let c = c.clone();
        if c.passes >= 2 {
            resolve(state, &c);
            return;
        }
        let seat = match c.step {
            CombatStep::AttackerCards => state.current,
            CombatStep::DefenderCards => c.defender_seat,
            _ => return,
        };
        if has_window(state, &c, seat) {
            return;
        }
        pass_window(state, false);
    }
}

/// Hands the card play to the other side; `played`: a card was just played.
fn pass_window(state: &mut State, played: bool) {
    if let Phase::Combat(c) = &mut state.phase {
        c.passes = if played {
            0
        } else {
            c.passes.saturating_add(1)
        };
        c.step = match c.step {
            CombatStep::AttackerCards => CombatStep::DefenderCards,
            _ => CombatStep::AttackerCards,
        };
    }
}

/// "Players may play (discard) hand cards to get Force bonuses from them." The other side may
/// answer.
pub fn play_card(state: &mut State, seat: Seat, card: CardId) {
    let Some(player) = state.players.get_mut(seat) else {
        return;
    };
    if !super::state::take(&mut player.hand, card) {
        return;
    }
    player.played.push(card);
    state.discard.push(card);
    card_played(state);
}

/// A card (or the attacker's Artificer) was played in the open window: the other side's turn.
pub fn card_played(state: &mut State) {
    pass_window(state, true);
    next_window(state);
}

pub fn done_cards(state: &mut State) {
    pass_window(state, false);
    next_window(state);
}

/// "Attacker and Defender both roll 2D6 each": the attacker's roll, then the defender's; then
/// the card windows.
pub fn roll(state: &mut State, sum: u8) {
    let Phase::Combat(combat) = &mut state.phase else {
        return;
    };
    match combat.step {
        CombatStep::AttackerRoll => {
            combat.attack_roll = Some(sum);
            combat.step = CombatStep::DefenderRoll;
        }
        CombatStep::DefenderRoll => {
            combat.defence_roll = Some(sum);
            combat.step = CombatStep::AttackerCards;
            combat.passes = 0;
            next_window(state);
        }
        _ => {}
    }
}

fn resolve(state: &mut State, combat: &Combat) {
    let Some((attacker, defender)) = sides(state, combat) else {
        state.phase = Phase::Movement;
        return;
    };
    let attack_roll = combat.attack_roll.unwrap_or(0);
    let defence_roll = combat.defence_roll.unwrap_or(0);
    let attack_force = force(state, &attacker);
    let defence_force = force(state, &defender);
    let attack = i32::from(attack_roll) + attack_force;
    let defence = i32::from(defence_roll) + defence_force;
    // "The side with the highest total force wins. The losing unit is destroyed … If tied,
    // both units are destroyed."
    let attacker_dies = attack <= defence;
    let defender_dies = defence <= attack;
    let result = match (attacker_dies, defender_dies) {
        (true, true) => "tie: both destroyed",
        (true, false) => "the defender wins",
        _ => "the attacker wins",
    };
    state.last_combat = Some(CombatReport {
        at: combat.at,
        attacker_seat: attacker.seat,
        attacker: attacker.unit,
        defender_seat: defender.seat,
        defender: defender.unit,
        attack_roll,
        attack_force,
        defence_roll,
        defence_force,
        result: result.to_owned(),
    });
    remove_fallen(state, combat, attacker_dies, defender_dies);
    check_elimination(state);
    if !state.is_over() && !attacker_dies {
        // "Combat ends when one side is destroyed": the next defender, if any.
        enter(state, combat.attacker, combat.at);
    }
}

/// Takes the units that lost a fight off the board; the movement phase goes on.
pub fn remove_fallen(state: &mut State, combat: &Combat, attacker_dies: bool, defender_dies: bool) {
    if defender_dies {
        match combat.defender {
            Defender::Figure(id) => state.figures.retain(|f| f.id != id),
            Defender::Garrison => {
                if let Some(space) = state.space_mut(combat.at) {
                    space.garrison = None;
                }
            }
        }
    }
    if attacker_dies {
        state.figures.retain(|f| f.id != combat.attacker);
        state.moving = None;
    }
    state.phase = Phase::Movement;
}
