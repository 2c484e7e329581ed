//! The turn: automatic steps (`advance`), and the base actions of the active player —
//! flip, roll, assign, move, attack, Call to War, charge — and the end of the game.

use super::Variant;
use super::board::TileId;
use super::call;
use super::cast;
use super::combat;
use super::data::{self, Face, Token, unit_stats};
use super::solo;
use super::state::{After, PendingAttack, Phase, Result, Source, State, Status, Step, UnitRef};
use crate::rules::Seat;

/// Runs the automatic steps until a player or chance must act.
pub fn advance(state: &mut State) {
    for _ in 0..100_000 {
        if !step_once(state) {
            return;
        }
    }
}

/// One automatic step; false when the game waits for a decision or a chance step.
fn step_once(state: &mut State) -> bool {
    if state.phase == Phase::Over {
        return false;
    }
    if let Some(&u) = state.falls.first() {
        let automaton = state.player(u.owner).is_some_and(|p| p.automaton);
        let tiles = combat::landing_tiles(state, u);
        match (automaton, tiles.as_slice()) {
            (true, _) => match combat::automaton_landing(state, u) {
                Some(t) => combat::land(state, u, t),
                None => state.falls.retain(|&x| x != u),
            },
            (false, [t]) => combat::land(state, u, *t),
            (false, []) => state.falls.retain(|&x| x != u),
            _ => return false,
        }
        return true;
    }
    if !state.placements.is_empty() {
        match cast::placement_tiles(state).as_slice() {
            [] => {
                state.placements.remove(0);
            }
            [t] => cast::place_moved(state, *t),
            _ => return false,
        }
        return true;
    }
    if state.resolving.is_some() {
        cast::continue_resolution(state);
        return true;
    }
    if state.offer.is_some() || state.window.is_some() || !state.solo_choice.is_empty() {
        return false;
    }
    if !state.pending_after.is_empty() {
        match state.pending_after.remove(0) {
            After::ResolveAttack => resolve_attack(state),
            After::Flip(t) => flip_now(state, t),
            After::Continue => call::resolve_declared(state),
            After::BeginTurn => {
                if let Some(seat) = state.current() {
                    begin_planning(state, seat);
                }
            }
        }
        return true;
    }
    if check_end(state) {
        return true;
    }
    let Phase::Turn { seat, step } = state.phase.clone() else {
        return false;
    };
    let has_units = state.player(seat).is_some_and(|p| p.has_units_on_board());
    if !has_units && !matches!(step, Step::Start | Step::Reenter) {
        // "If a player finds themselves without any units on the board during their turn,
        // their turn ends immediately."
        end_turn(state);
        return true;
    }
    match step {
        Step::Start => {
            start_turn(state, seat);
            true
        }
        Step::Reenter => {
            if reentry_choices(state, seat).is_empty() {
                eliminate(state, seat);
                end_turn(state);
                return true;
            }
            false
        }
        Step::Flip { left } => {
            if left == 0 {
                begin_roll(state, seat);
                return true;
            }
            if state.solo() {
                return crumble(state);
            }
            if combat::flippable(state, 2).is_empty() {
                begin_roll(state, seat);
                return true;
            }
            false
        }
        Step::Roll { rerolls_left } => {
            if !state.to_roll.is_empty() {
                return false;
            }
            if rerolls_left == 0 {
                keep_dice(state, seat);
                return true;
            }
            false
        }
        Step::Assign => {
            let mut changed = false;
            for i in 0..state.dice.len() {
                if state.dice.get(i).copied().flatten() == Some(Face::Crystal)
                    && state.assigned.get(i) == Some(&false)
                {
                    if let Some(a) = state.assigned.get_mut(i) {
                        *a = true;
                    }
                    if let Some(p) = state.players.get_mut(seat) {
                        p.reserve = p.reserve.saturating_add(1);
                    }
                    changed = true;
                }
            }
            if state.assigned.iter().all(|&a| a) {
                set_step(state, Step::Act);
                return true;
            }
            changed
        }
        Step::Act => {
            if let Some(slot) = state.moving {
                // An ally's ability cast during the movement may have taken the moving unit off
                // the board, or changed the board so that, passing over a flipped tile, it
                // can reach no face-up tile: its movement ends (ruling: it then lands on the
                // nearest face-up tile as a falling unit does, without fall damage).
                let me = UnitRef { owner: seat, slot };
                let tile = state.unit(me).filter(|u| u.on_board()).and_then(|u| u.tile);
                let stranded = tile.is_some_and(|t| {
                    state.flipped(t)
                        && !state
                            .geometry()
                            .adjacent(t)
                            .iter()
                            .any(|&to| can_step(state, seat, slot, to))
                });
                if tile.is_none() || stranded {
                    state.moving = None;
                    if stranded {
                        state.falls.push(me);
                    }
                    return true;
                }
            }
            if let Some(slot) = state.must_attack
                && occupation_targets(state, seat, slot).is_empty()
            {
                state.must_attack = None;
                return true;
            }
            false
        }
        Step::Call => {
            if state.draw.is_none() && !call::call_actions_exist(state, seat) {
                set_step(state, Step::Charge);
                return true;
            }
            false
        }
        Step::Charge => {
            let reserve = state.player(seat).map_or(0, |p| p.reserve);
            if (reserve == 0 || call::charge_slots(state, seat).is_empty())
                && !may_cast_after_filling(state, seat)
            {
                end_turn(state);
                return true;
            }
            false
        }
    }
}

/// From edition 1 (review R1): once the player filled an ability this turn, the Charge step
/// waits for `end_charge` while the player could cast a charged innate or Learned ability,
/// instead of ending the turn by itself — "At the end of their turn, the player collected
/// enough crystals on their turn to charge up the ability one last time and casts it again"
/// (l.539), and "The unit then uses its ability a second time on their turn" after an
/// empowering call (l.539). Secret cards never decide it: whether the turn waits must not
/// tell the others what the hand holds.
fn may_cast_after_filling(state: &State, seat: Seat) -> bool {
    state.options.edition >= 1
        && state.filled_this_turn
        && cast::legal_casts(state, seat)
            .iter()
            .any(|c| !matches!(c.source, Source::Secret(_)))
}

pub fn set_step(state: &mut State, step: Step) {
    if let Phase::Turn { seat, .. } = state.phase {
        state.phase = Phase::Turn { seat, step };
    }
}

/// After the Leaders are placed: the first turn.
pub fn begin_game(state: &mut State) {
    state.turns_this_round = 0;
    state.phase = Phase::Turn {
        seat: state.first_player,
        step: Step::Start,
    };
}

fn flips_from(state: &State) -> u8 {
    if state.solo() {
        // "Each turn, with exception of the first turn" (l.568): the first turn is round 5
        // in a shorter game.
        let first = if state.options.has(Variant::ShorterGame) {
            data::SHORTER_FIRST_ROUND
        } else {
            1
        };
        first + 1
    } else if state.options.has(Variant::ShorterGame) {
        data::FLIP_FROM_ROUND + 1
    } else {
        data::FLIP_FROM_ROUND
    }
}

fn start_turn(state: &mut State, seat: Seat) {
    combat::expire(state, seat);
    if state.player(seat).is_none_or(|p| p.eliminated) {
        end_turn(state);
        return;
    }
    if !state.player(seat).is_some_and(|p| p.has_units_on_board()) {
        set_step(state, Step::Reenter);
        return;
    }
    // Other players may cast as the turn starts, before the flip or the roll.
    cast::open_window(state, After::BeginTurn);
}

pub fn begin_planning(state: &mut State, seat: Seat) {
    if state.round >= flips_from(state) {
        set_step(state, Step::Flip { left: 2 });
    } else {
        begin_roll(state, seat);
    }
}

fn begin_roll(state: &mut State, seat: Seat) {
    let clans = state.player(seat).map_or(0, |p| p.active_clans());
    let n = data::BLACK_DICE + clans;
    state.dice = vec![None; n];
    state.assigned = vec![false; n];
    state.marked.clear();
    state.to_roll = (0..n).collect();
    set_step(
        state,
        Step::Roll {
            rerolls_left: data::REROLLS,
        },
    );
}

pub fn roll_die(state: &mut State, face: Face) {
    if state.to_roll.is_empty() {
        return;
    }
    let i = state.to_roll.remove(0);
    if let Some(d) = state.dice.get_mut(i) {
        *d = Some(face);
    }
}

pub fn reroll(state: &mut State) {
    if let Phase::Turn {
        step: Step::Roll { rerolls_left },
        ..
    } = state.phase
    {
        let mut marked = std::mem::take(&mut state.marked);
        marked.sort_unstable();
        for &i in &marked {
            if let Some(d) = state.dice.get_mut(i) {
                *d = None;
            }
        }
        state.to_roll = marked;
        set_step(
            state,
            Step::Roll {
                rerolls_left: rerolls_left.saturating_sub(1),
            },
        );
    }
}

/// The dice are final: a window opens ("after the roll"), then they are assigned.
pub fn keep_dice(state: &mut State, _seat: Seat) {
    state.marked.clear();
    set_step(state, Step::Assign);
    cast::open_window(state, After::Continue);
}

/// Assigns one die of `face` to unit `slot`, collecting it at once (shield: +2 defense up to
/// the maximum; horn: kept on the unit; move/attack: usable this turn).
pub fn assign(state: &mut State, seat: Seat, face: Face, slot: u8) {
    let Some(i) = (0..state.dice.len()).find(|&i| {
        state.dice.get(i).copied().flatten() == Some(face) && state.assigned.get(i) == Some(&false)
    }) else {
        return;
    };
    if let Some(a) = state.assigned.get_mut(i) {
        *a = true;
    }
    let Some(u) = state.unit_mut(UnitRef { owner: seat, slot }) else {
        return;
    };
    match face {
        Face::MoveAttack => u.dice = u.dice.saturating_add(1),
        Face::Shield => u.defense = u.defense.saturating_add(2).min(u.max_defense()),
        Face::Horn => u.horns = u.horns.saturating_add(1),
        Face::Crystal => {}
    }
}

/// The faces still to assign (crystals go to the reserve by themselves).
pub fn faces_to_assign(state: &State) -> Vec<Face> {
    let mut faces: Vec<Face> = state
        .dice
        .iter()
        .zip(&state.assigned)
        .filter(|(_, a)| !**a)
        .filter_map(|(f, _)| *f)
        .collect();
    faces.sort_unstable();
    faces.dedup();
    faces
}

/// Whether a unit of `seat` may step from its tile to `to` now.
pub fn can_step(state: &State, seat: Seat, slot: u8, to: TileId) -> bool {
    let me = UnitRef { owner: seat, slot };
    let Some(unit) = state.unit(me) else {
        return false;
    };
    let Some(from) = unit.tile else {
        return false;
    };
    if state.must_attack.is_some() || state.moving.is_some_and(|m| m != slot) || !unit.can_move() {
        return false;
    }
    let fatigue = u8::from(state.options.has(Variant::Fatigue) && unit.attacked && !unit.fatigued);
    let left = unit.movement_left().saturating_sub(fatigue);
    let flying = unit.has(Token::Flying);
    if left == 0 || !state.geometry().adjacent(from).contains(&to) || !state.passable(to, flying) {
        return false;
    }
    if !state.flipped(to) {
        return true;
    }
    // Units pass over flipped tiles but never land there: a face-up tile must be in reach.
    let dist = state.reach(to, flying);
    state.geometry().ids().any(|t| {
        !state.flipped(t)
            && dist
                .get(usize::from(t))
                .copied()
                .flatten()
                .is_some_and(|d| d >= 1 && d < left)
    })
}

pub fn step_unit(state: &mut State, seat: Seat, slot: u8, to: TileId) {
    let fatigue_on = state.options.has(Variant::Fatigue);
    let mine = state.is_mine(to);
    let Some(u) = state.unit_mut(UnitRef { owner: seat, slot }) else {
        return;
    };
    if fatigue_on && u.attacked && !u.fatigued {
        u.fatigued = true;
    }
    u.tile = Some(to);
    u.moved = u.moved.saturating_add(1);
    state.moving = Some(slot);
    if mine && let Some(p) = state.players.get_mut(seat) {
        p.reserve = p.reserve.saturating_add(1);
    }
    stop_for_enemies(state, seat, slot);
}

/// 'Enemy Occupation': the moving unit `slot` of `seat`, on a face-up tile with enemy units
/// not occupied by its allies, must stop to attack; a unit that cannot attack stops there.
pub fn stop_for_enemies(state: &mut State, seat: Seat, slot: u8) {
    let Some(at) = state
        .unit(UnitRef { owner: seat, slot })
        .and_then(|u| u.tile)
    else {
        return;
    };
    if state.occupation_applies() && !state.flipped(at) && enemies_unoccupied(state, seat, at) {
        state.moving = None;
        if occupation_targets(state, seat, slot).is_empty() {
            if let Some(u) = state.unit_mut(UnitRef { owner: seat, slot }) {
                u.moved = u.moved.saturating_add(u.movement_left());
            }
        } else {
            state.must_attack = Some(slot);
        }
    }
}

/// Whether tile `t` has more enemy units than the mover's allies already there (the moving
/// unit itself does not count: each enemy must already be "occupied by another ally unit").
///
/// Only enemies it could attack count: a Flying unit "cannot attack or be attacked unless
/// another unit is also flying" (l.481), so a flier passes over units on the ground and a unit
/// on the ground is not stopped by fliers.
fn enemies_unoccupied(state: &State, seat: Seat, t: TileId) -> bool {
    let here = state.units_on(t);
    let flies = |u: UnitRef| state.unit(u).is_some_and(|x| x.has(Token::Flying));
    let mover_flies = state
        .moving
        .is_some_and(|slot| flies(UnitRef { owner: seat, slot }));
    let enemies = here
        .iter()
        .filter(|u| !state.allied(seat, u.owner) && flies(**u) == mover_flies)
        .count();
    let others = here
        .iter()
        .filter(|u| state.allied(seat, u.owner))
        .filter(|u| !(u.owner == seat && Some(u.slot) == state.moving))
        .count();
    enemies > others
}

fn occupation_targets(state: &State, seat: Seat, slot: u8) -> Vec<UnitRef> {
    attack_targets(state, seat, slot)
}

/// Enemy units `seat`'s unit `slot` may attack now (same tile; flying only against flying).
pub fn attack_targets(state: &State, seat: Seat, slot: u8) -> Vec<UnitRef> {
    let me = UnitRef { owner: seat, slot };
    let Some(unit) = state.unit(me) else {
        return Vec::new();
    };
    if !unit.can_attack() {
        return Vec::new();
    }
    let Some(t) = unit.tile else {
        return Vec::new();
    };
    if state.flipped(t) {
        return Vec::new();
    }
    let flying = unit.has(Token::Flying);
    state
        .units_on(t)
        .into_iter()
        .filter(|u| !state.allied(seat, u.owner))
        .filter(|u| {
            state
                .unit(*u)
                .is_some_and(|x| x.has(Token::Flying) == flying)
        })
        .collect()
}

/// Declares an attack: the attack power is the base attack plus `dice` of the unit's
/// move/attack dice; a window opens before it resolves (the evade rule).
pub fn declare_attack(state: &mut State, seat: Seat, slot: u8, target: UnitRef, dice: u8) {
    let me = UnitRef { owner: seat, slot };
    let home = combat::home_field(state, seat, state.unit(me).and_then(|u| u.tile));
    let Some(unit) = state.unit_mut(me) else {
        return;
    };
    unit.attacked = true;
    unit.dice_spent = unit.dice_spent.saturating_add(dice);
    let power = unit_stats(slot)
        .attack
        .saturating_add(dice)
        .saturating_add(home);
    let Some(tile) = unit.tile else {
        return;
    };
    state.moving = None;
    state.must_attack = None;
    state.attack = Some(PendingAttack {
        attacker: me,
        target,
        power,
        tile,
    });
    cast::open_window(state, After::ResolveAttack);
}

/// Resolves the pending attack: solo, the automaton's units on the tile strike first; if the
/// attacker or the target is no longer on the tile, the attack misses ('Evade'); abilities
/// cast in the window before it come first (l.381), so it also misses when the attacker now
/// sleeps or may not attack, or when one of the two flies and the other does not (l.481,
/// l.485, l.493). The attack is spent either way.
fn resolve_attack(state: &mut State) {
    let Some(attack) = state.attack.take() else {
        return;
    };
    if state.solo() && attack.target.owner == 1 {
        solo::strike_back(state, attack.attacker, attack.tile);
    }
    if attack_stands(state, &attack) {
        combat::attack(state, attack.target, attack.power, attack.attacker.owner);
    }
}

/// Whether a declared attack can still land: both units on the tile, the attacker neither
/// Sleeping nor under No attack, and both flying or neither.
pub fn attack_stands(state: &State, attack: &PendingAttack) -> bool {
    let here = |u: UnitRef| {
        state
            .unit(u)
            .filter(|x| x.on_board() && x.tile == Some(attack.tile))
    };
    let (Some(attacker), Some(target)) = (here(attack.attacker), here(attack.target)) else {
        return false;
    };
    !attacker.has(Token::Sleeping)
        && !attacker.has(Token::NoAttack)
        && attacker.has(Token::Flying) == target.has(Token::Flying)
}

/// A tile flip is declared (the Flip step, or the solo crumbling earth chooses a tile): when
/// units stand on it, the players who may answer get a reaction window before it takes
/// effect, since other players' abilities come before the current player's base actions,
/// "Flip Tiles" among them (l.381, l.409-411); solo, the player is asked when one of their
/// own units stands on it ("abilities may be used to avoid fall damage", l.580).
pub fn declare_flip(state: &mut State, t: TileId) {
    state.solo_choice.clear();
    let here = state.units_on(t);
    let waiting = if state.solo() {
        if here.iter().any(|u| u.owner == 0) {
            cast::eligible(state, true)
        } else {
            Vec::new()
        }
    } else if here.is_empty() {
        Vec::new()
    } else {
        cast::eligible(state, false)
    };
    cast::open_window_for(state, After::Flip(t), waiting);
}

/// One automatic flip of the crumbling earth (solo), or a question to the player on a tie.
/// Returns whether the state moved on.
fn crumble(state: &mut State) -> bool {
    let choices = solo::crumble_choices(state);
    match choices.as_slice() {
        [] => {
            set_step(state, Step::Flip { left: 0 });
            true
        }
        [t] => {
            declare_flip(state, *t);
            true
        }
        _ => {
            state.solo_choice = choices;
            false
        }
    }
}

/// The declared flip takes effect: units still on the tile take fall damage and fall.
fn flip_now(state: &mut State, t: TileId) {
    combat::flip(state, t, None);
    if let Some(Step::Flip { left }) = state.step().cloned() {
        set_step(
            state,
            Step::Flip {
                left: left.saturating_sub(1),
            },
        );
    }
}

/// Clans `seat` may bring back after losing every unit, with the face-up tiles they may use.
pub fn reentry_choices(state: &State, seat: Seat) -> Vec<(u8, TileId)> {
    let Some(p) = state.player(seat) else {
        return Vec::new();
    };
    let tribe = p.tribe();
    let mut out = Vec::new();
    for u in p
        .units
        .iter()
        .filter(|u| u.slot > 0 && u.status == Status::Inactive && !p.uncallable.contains(&u.slot))
    {
        for t in state.geometry().ids() {
            let ok = state.tile(t).is_some_and(|s| {
                !s.flipped && s.card.is_some_and(|c| c.tribe == tribe && c.clan == u.slot)
            });
            if ok {
                out.push((u.slot, t));
            }
        }
    }
    out
}

pub fn reenter(state: &mut State, seat: Seat, clan: u8, t: TileId) {
    if let Some(u) = state.unit_mut(UnitRef {
        owner: seat,
        slot: clan,
    }) {
        u.status = Status::Active;
        u.tile = Some(t);
    }
    begin_planning(state, seat);
}

fn eliminate(state: &mut State, seat: Seat) {
    if let Some(p) = state.players.get_mut(seat) {
        p.eliminated = true;
    }
}

/// Ends the turn: per-turn values reset, the reserve's leftovers are lost, the next seat
/// plays (a new round after the last seat; scoring after the last round).
pub fn end_turn(state: &mut State) {
    let Some(seat) = state.current() else {
        return;
    };
    if let Some(p) = state.players.get_mut(seat) {
        p.reserve = 0;
        for u in &mut p.units {
            u.dice = 0;
            u.dice_spent = 0;
            u.moved = 0;
            u.attacked = false;
            u.fatigued = false;
        }
    }
    state.dice.clear();
    state.assigned.clear();
    state.marked.clear();
    state.to_roll.clear();
    state.moving = None;
    state.must_attack = None;
    state.draw = None;
    state.attack = None;
    state.declared_call = None;
    state.offered.clear();
    state.offered_pairs.clear();
    state.solo_hit.clear();
    state.filled_this_turn = false;
    state.turns_this_round += 1;
    if state.turns_this_round >= state.seats {
        state.turns_this_round = 0;
        state.round = state.round.saturating_add(1);
        if state.round > state.last_round {
            finish(state, true);
            return;
        }
    }
    let next = (state.first_player + state.turns_this_round) % state.seats.max(1);
    state.phase = Phase::Turn {
        seat: next,
        step: Step::Start,
    };
}

/// A player still in the battle: not eliminated, with a unit on the board or one to bring
/// back.
fn standing(state: &State, owner: usize) -> bool {
    state.player(owner).is_some_and(|p| {
        !p.eliminated && (p.has_units_on_board() || !reentry_choices(state, owner).is_empty())
    })
}

/// Ends the game early when one side (or none) is left, or (solo) when both objectives are
/// met or the player is out.
fn check_end(state: &mut State) -> bool {
    if !matches!(state.phase, Phase::Turn { .. }) {
        return false;
    }
    if state.solo() {
        if solo::objectives_met(state) || !standing(state, 0) {
            finish(state, false);
            return true;
        }
        return false;
    }
    let mut sides: Vec<usize> = (0..state.seats)
        .filter(|&s| standing(state, s))
        .map(|s| side_of(state, s))
        .collect();
    sides.dedup();
    sides.sort_unstable();
    sides.dedup();
    if sides.len() <= 1 {
        finish(state, false);
        return true;
    }
    false
}

fn side_of(state: &State, seat: Seat) -> usize {
    if state.options.has(Variant::TeamPlay) {
        seat % 2
    } else {
        seat
    }
}

/// Scores the game. A tie on points is broken by total HP; a tie on that too, after the
/// last round, plays one more round; after that the tied players share the win.
pub fn finish(state: &mut State, by_rounds: bool) {
    if state.solo() {
        let won = solo::objectives_met(state);
        state.result = Some(Result {
            winners: if won { vec![0] } else { Vec::new() },
            scores: vec![state.score(0)],
            summary: if won {
                "The player defeated all 7 enemy units with all 7 of their own units active."
                    .to_owned()
            } else {
                "The player did not meet both objectives by the end of round 10.".to_owned()
            },
        });
        state.phase = Phase::Over;
        return;
    }
    let team = state.options.has(Variant::TeamPlay);
    let side_total = |f: &dyn Fn(usize) -> i64, seat: Seat| -> i64 {
        if team {
            (0..state.seats).filter(|s| s % 2 == seat % 2).map(f).sum()
        } else {
            f(seat)
        }
    };
    let scores: Vec<i64> = (0..state.seats)
        .map(|s| side_total(&|x| state.score(x), s))
        .collect();
    let hps: Vec<i64> = (0..state.seats)
        .map(|s| side_total(&|x| state.total_hp(x), s))
        .collect();
    let best = scores.iter().copied().max().unwrap_or(0);
    let tied: Vec<Seat> = (0..state.seats)
        .filter(|&s| scores.get(s) == Some(&best))
        .collect();
    let best_hp = tied
        .iter()
        .filter_map(|&s| hps.get(s))
        .copied()
        .max()
        .unwrap_or(0);
    let winners: Vec<Seat> = tied
        .iter()
        .copied()
        .filter(|&s| hps.get(s) == Some(&best_hp))
        .collect();
    let sides: Vec<usize> = {
        let mut v: Vec<usize> = winners.iter().map(|&s| side_of(state, s)).collect();
        v.dedup();
        v
    };
    if sides.len() > 1 && by_rounds && !state.extra_round {
        state.extra_round = true;
        state.last_round = state.last_round.saturating_add(1);
        let next = state.first_player;
        state.phase = Phase::Turn {
            seat: next,
            step: Step::Start,
        };
        return;
    }
    let names: Vec<String> = winners.iter().map(|s| format!("seat {s}")).collect();
    let how = if by_rounds {
        " after the last round".to_owned()
    } else {
        // The battle ended early: say who was left standing, which need not be the winner
        // (an eliminated player's defeated enemies still score).
        let standing: Vec<String> = (0..state.seats)
            .filter(|&s| standing(state, s))
            .map(|s| format!("seat {s}"))
            .collect();
        if standing.is_empty() {
            ": the battle ended with no side left standing".to_owned()
        } else {
            format!(
                ": the battle ended with only {} left standing",
                standing.join(" and ")
            )
        }
    };
    state.result = Some(Result {
        summary: format!("{} won with {best} points{how}.", names.join(" and ")),
        winners,
        scores,
    });
    state.phase = Phase::Over;
}
