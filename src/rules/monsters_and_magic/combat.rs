//! Combat: "Resolve Combats immediately." The moving figure attacks the enemy figure, then
//! the enemy garrison; both sides may play hand cards for force (attacker first, then the
//! defender as a reaction), then each rolls 2D6; the higher total wins, a tie destroys both.

use super::data::{CardId, Effect, ForceBonus, Power, Role, Structure, UnitKind, hand_effects};
use super::flow::check_elimination;
use super::state::{Combat, CombatReport, CombatStep, Defender, Phase, Pos, State};
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
/// this fight (the Artificer: on its figure).
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
                || (side.figure.is_some()
                    && hand_effects(c).contains(&Effect::Power(Power::Artificer)))
        })
        .collect();
    out.dedup();
    out
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
            let mut combat = Combat {
                attacker,
                at,
                defender_seat,
                defender,
                step: CombatStep::AttackerCards,
                attack_roll: None,
            };
            combat.step = first_window(state, &combat);
            state.phase = Phase::Combat(combat);
        }
        None => state.phase = Phase::Movement,
    }
}

/// A side with no cards in hand has no window (hand sizes are public).
fn first_window(state: &State, combat: &Combat) -> CombatStep {
    let has_cards = |s: Seat| state.players.get(s).is_some_and(|p| !p.hand.is_empty());
    if has_cards(state.current) {
        CombatStep::AttackerCards
    } else {
        after_attacker(state, combat)
    }
}

fn after_attacker(state: &State, combat: &Combat) -> CombatStep {
    let has_cards = state
        .players
        .get(combat.defender_seat)
        .is_some_and(|p| !p.hand.is_empty());
    if has_cards {
        CombatStep::DefenderCards
    } else {
        CombatStep::AttackerRoll
    }
}

/// "Players may play (discard) hand cards to get Force bonuses from them."
pub fn play_card(state: &mut State, seat: Seat, card: CardId) {
    let figure = side_in_window(state).and_then(|s| s.figure);
    let Some(player) = state.players.get_mut(seat) else {
        return;
    };
    if !super::state::take(&mut player.hand, card) {
        return;
    }
    player.played.push(card);
    state.discard.push(card);
    if hand_effects(card).contains(&Effect::Power(Power::Artificer))
        && let Some(f) = figure.and_then(|id| state.figure_mut(id))
    {
        f.boosted = f.boosted.saturating_add(1);
    }
    // A window closes when its hand is empty.
    let empty = state.players.get(seat).is_none_or(|p| p.hand.is_empty());
    if empty {
        done_cards(state);
    }
}

pub fn done_cards(state: &mut State) {
    let next = match combat_of(state) {
        Some(c) if c.step == CombatStep::AttackerCards => after_attacker(state, c),
        Some(_) => CombatStep::AttackerRoll,
        None => return,
    };
    if let Phase::Combat(c) = &mut state.phase {
        c.step = next;
    }
}

/// "Attacker and Defender both roll 2D6 each": the attacker's roll, then the defender's,
/// which settles the fight.
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
            let combat = combat.clone();
            resolve(state, &combat, sum);
        }
        _ => {}
    }
}

fn resolve(state: &mut State, combat: &Combat, defence_roll: u8) {
    let Some((attacker, defender)) = sides(state, combat) else {
        state.phase = Phase::Movement;
        return;
    };
    let attack_roll = combat.attack_roll.unwrap_or(0);
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
