//! Actions, what the game waits for, which actions are legal, and applying them.

use serde::{Deserialize, Serialize};

use super::board::TileId;
use super::data::{self, DIE_FACES, Deck, Face, Tribe};
use super::state::{Cast, DeclaredCall, Phase, State, Step, TileCard, UnitRef};
use super::{Variant, call, cast, combat, setup, turn};
use crate::rules::{Actor, Chance, Next, Outcome, RuleError, Seat};

/// An action of a player or an outcome of chance. JSON: externally tagged, snake_case, e.g.
/// `{"assign":{"face":"horn","slot":0}}`, `{"move":{"slot":1,"to":7}}`, `"pass"`,
/// `{"cast":{"source":{"secret":30},"target":{"unit":{"owner":0,"slot":1}}}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    // Chance outcomes.
    /// The next player without a tribe is dealt this one.
    DealTribe(Tribe),
    /// This tile is drawn from the pile onto the next empty position.
    PlaceTile(TileCard),
    /// Solo: these automaton Clans (bit k: Clan k + 1) start on side A, the others on B.
    SplitClans(u8),
    FirstPlayer(Seat),
    /// The next die to roll shows this face.
    RollDie(Face),
    /// The card drawn is this one (seen only by the drawer).
    DrawCard(data::CardId),

    // Decisions.
    PlaceLeader(TileId),
    /// Bring Clan `clan` back on tile `tile` after losing every unit.
    Reenter {
        clan: u8,
        tile: TileId,
    },
    Flip(TileId),
    /// Solo: the crumbling earth flips this of the tied tiles.
    CrumbleTile(TileId),
    /// A falling unit lands here.
    Fall(TileId),
    /// Your unit, moved by another player's ability, goes to this tile (l.383).
    MoveUnitTo(TileId),
    /// Mark (or unmark) die `n` for re-rolling.
    MarkReroll(usize),
    Reroll,
    KeepDice,
    /// Assign one unassigned die showing `face` to your unit `slot`.
    Assign {
        face: Face,
        slot: u8,
    },
    /// Move your unit `slot` one space, to the adjacent tile `to`.
    Move {
        slot: u8,
        to: TileId,
    },
    /// End the moving unit's movement (a reaction window opens).
    Stop,
    /// Attack `target` with your unit `slot`, adding `dice` of its move/attack dice.
    Attack {
        slot: u8,
        target: UnitRef,
        dice: u8,
    },
    EndActions,
    /// Spend three horns of unit `slot`, standing on Clan `clan`'s tile, to call it.
    Summon {
        slot: u8,
        clan: u8,
    },
    /// Spend two horns of unit `slot` to draw two cards and keep one.
    DrawCards {
        slot: u8,
    },
    DrawFrom(Deck),
    /// Keep drawn card `n` (0 or 1); the other goes to the bottom of its deck.
    KeepCard(usize),
    /// Attach the kept Learned card to your unit `slot`.
    Attach(u8),
    /// Keep the kept Learned card in hand, to attach later (l.357).
    HoldLearned,
    /// Attach the Learned `card` from your hand to your unit `slot` (Call to War step).
    AttachHeld {
        card: data::CardId,
        slot: u8,
    },
    /// 'Empowering Call': spend three horns of unit `slot` on Clan `clan`'s tile to fill
    /// its innate (`learned: false`) or Learned ability.
    Empower {
        slot: u8,
        clan: u8,
        learned: bool,
    },
    EndCall,
    /// Put one crystal from the reserve on unit `slot`'s innate or Learned ability.
    Charge {
        slot: u8,
        learned: bool,
    },
    EndCharge,
    Cast(Cast),
    /// Cast nothing in this reaction window.
    Pass,
    OfferAlliance(Seat),
    AcceptAlliance,
    DeclineAlliance,
    EndAlliance(Seat),
}

impl Action {
    pub fn is_chance(&self) -> bool {
        matches!(
            self,
            Action::DealTribe(_)
                | Action::PlaceTile(_)
                | Action::SplitClans(_)
                | Action::FirstPlayer(_)
                | Action::RollDie(_)
                | Action::DrawCard(_)
        )
    }
}

fn chance(outcomes: Vec<(Action, u32)>) -> Next<Action> {
    Next::Chance(Chance { outcomes })
}

/// The die's faces with their weights (2 move/attack, 1 shield, 1 crystal, 2 horns).
pub fn face_weights() -> Vec<(Face, u32)> {
    let mut out: Vec<(Face, u32)> = Vec::new();
    for f in DIE_FACES {
        match out.iter_mut().find(|(g, _)| *g == f) {
            Some((_, w)) => *w += 1,
            None => out.push((f, 1)),
        }
    }
    out
}

/// Who decides now, when a player does (before the phase's own decisions: falls, an
/// alliance offer, a reaction window, a solo tie).
pub fn deciders(state: &State) -> Option<Vec<Seat>> {
    if let Some(u) = state.falls.first() {
        return Some(vec![u.owner]);
    }
    if let Some(p) = state.placements.first() {
        return Some(vec![p.unit.owner]);
    }
    if let Some((_, to)) = state.offer {
        return Some(vec![to]);
    }
    if let Some(w) = &state.window {
        let mut seats = w.waiting.clone();
        seats.sort_unstable();
        return Some(seats);
    }
    if !state.solo_choice.is_empty() {
        return Some(vec![0]);
    }
    None
}

pub fn next(state: &State) -> Next<Action> {
    if let Some(result) = &state.result {
        return Next::Over(Outcome {
            winners: result.winners.clone(),
            scores: Some(result.scores.clone()),
            summary: result.summary.clone(),
        });
    }
    if let Some(seats) = deciders(state) {
        return Next::Players(seats);
    }
    match &state.phase {
        Phase::Over => Next::Players(Vec::new()),
        Phase::Tribes => chance(
            setup::tribe_choices(state)
                .into_iter()
                .map(|t| (Action::DealTribe(t), 1))
                .collect(),
        ),
        Phase::Tiles => chance(
            setup::tile_choices(state)
                .into_iter()
                .map(|c| {
                    let n = state.piles.iter().filter(|&&p| p == c).count();
                    (Action::PlaceTile(c), u32::try_from(n).unwrap_or(1).max(1))
                })
                .collect(),
        ),
        Phase::SplitClans => chance(
            setup::splits()
                .into_iter()
                .map(|m| (Action::SplitClans(m), 1))
                .collect(),
        ),
        Phase::FirstPlayer => chance(
            (0..state.seats)
                .map(|s| (Action::FirstPlayer(s), 1))
                .collect(),
        ),
        Phase::Leaders => Next::Players(
            setup::next_leader(state)
                .map(|(_, s)| s)
                .into_iter()
                .collect(),
        ),
        Phase::Turn { seat, step } => match step {
            Step::Roll { .. } if !state.to_roll.is_empty() => chance(
                face_weights()
                    .into_iter()
                    .map(|(f, w)| (Action::RollDie(f), w))
                    .collect(),
            ),
            Step::Call if state.draw.as_ref().is_some_and(|d| !d.from.is_empty()) => {
                let deck = state.draw.as_ref().and_then(|d| d.from.first().copied());
                chance(
                    state
                        .unseen
                        .iter()
                        .filter(|&&c| data::card(c).map(|(d, _)| d) == deck)
                        .map(|&c| (Action::DrawCard(c), 1))
                        .collect(),
                )
            }
            _ => Next::Players(vec![*seat]),
        },
    }
}

fn my_units(state: &State, seat: Seat) -> Vec<u8> {
    state.player(seat).map_or(Vec::new(), |p| {
        p.units
            .iter()
            .filter(|u| u.on_board())
            .map(|u| u.slot)
            .collect()
    })
}

/// Casts the active player may make at its own decisions.
fn own_casts(state: &State, seat: Seat) -> Vec<Action> {
    // A cast stops the moving unit, which cannot stop on a flipped tile.
    let mover_on_flipped = state.moving.is_some_and(|slot| {
        state
            .unit(UnitRef { owner: seat, slot })
            .and_then(|u| u.tile)
            .is_none_or(|t| state.flipped(t))
    });
    if mover_on_flipped {
        return Vec::new();
    }
    cast::legal_casts(state, seat)
        .into_iter()
        .map(Action::Cast)
        .collect()
}

/// 'Temporary Alliance': offering one to, or ending one with, each other player still in the
/// battle. Offered at any decision of the seat's own turn steps and in any reaction window it
/// answers, once per pair per turn; ended at any of them ("A temporary alliance can be
/// terminated at any point in the game", l.529; "even if it is in the middle of the act",
/// l.531).
fn alliance_actions(state: &State, seat: Seat) -> Vec<Action> {
    if !state.options.has(Variant::TemporaryAlliances) {
        return Vec::new();
    }
    let team = state.options.has(Variant::TeamPlay);
    let mut out = Vec::new();
    for other in 0..state.seats {
        if other == seat
            || (team && other % 2 == seat % 2)
            || state.player(other).is_none_or(|p| p.eliminated)
        {
            continue;
        }
        let pair = (seat.min(other), seat.max(other));
        let offered = state.offered_pairs.contains(&pair)
            || (state.current() == Some(seat) && state.offered.contains(&other));
        if state.alliances.contains(&pair) {
            out.push(Action::EndAlliance(other));
        } else if !offered {
            out.push(Action::OfferAlliance(other));
        }
    }
    out
}

pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    match next(state) {
        Next::Players(seats) if seats.contains(&seat) => {}
        _ => return Vec::new(),
    }
    if let Some(&u) = state.falls.first() {
        return combat::landing_tiles(state, u)
            .into_iter()
            .map(Action::Fall)
            .collect();
    }
    if !state.placements.is_empty() {
        return cast::placement_tiles(state)
            .into_iter()
            .map(Action::MoveUnitTo)
            .collect();
    }
    if state.offer.is_some() {
        return vec![Action::AcceptAlliance, Action::DeclineAlliance];
    }
    if state.window.is_some() {
        let mut out = vec![Action::Pass];
        out.extend(cast::legal_casts(state, seat).into_iter().map(Action::Cast));
        out.extend(alliance_actions(state, seat));
        return out;
    }
    if !state.solo_choice.is_empty() {
        return state
            .solo_choice
            .iter()
            .map(|&t| Action::CrumbleTile(t))
            .collect();
    }
    let step = match &state.phase {
        Phase::Leaders => {
            return setup::leader_choices(state)
                .into_iter()
                .map(Action::PlaceLeader)
                .collect();
        }
        Phase::Turn { step, .. } => step.clone(),
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    match step {
        Step::Start => {}
        Step::Reenter => {
            return turn::reentry_choices(state, seat)
                .into_iter()
                .map(|(clan, tile)| Action::Reenter { clan, tile })
                .collect();
        }
        Step::Flip { .. } => {
            out.extend(combat::flippable(state, 2).into_iter().map(Action::Flip));
            out.extend(own_casts(state, seat));
        }
        Step::Roll { rerolls_left } => {
            out.push(Action::KeepDice);
            if rerolls_left > 0 {
                out.extend((0..state.dice.len()).map(Action::MarkReroll));
                if !state.marked.is_empty() {
                    out.push(Action::Reroll);
                }
            }
            out.extend(own_casts(state, seat));
        }
        Step::Assign => {
            for face in turn::faces_to_assign(state) {
                for slot in my_units(state, seat) {
                    out.push(Action::Assign { face, slot });
                }
            }
            out.extend(own_casts(state, seat));
        }
        Step::Act => {
            if let Some(slot) = state.must_attack {
                out.extend(attacks(state, seat, slot));
            } else {
                for slot in my_units(state, seat) {
                    if state.moving.is_some_and(|m| m != slot) {
                        continue;
                    }
                    let from = state
                        .unit(UnitRef { owner: seat, slot })
                        .and_then(|u| u.tile);
                    for &to in from.map_or(&[][..], |f| state.geometry().adjacent(f)) {
                        if turn::can_step(state, seat, slot, to) {
                            out.push(Action::Move { slot, to });
                        }
                    }
                }
                match state.moving {
                    Some(slot) => {
                        let on = state
                            .unit(UnitRef { owner: seat, slot })
                            .and_then(|u| u.tile);
                        if on.is_some_and(|t| !state.flipped(t)) {
                            out.push(Action::Stop);
                        }
                    }
                    None => {
                        for slot in my_units(state, seat) {
                            out.extend(attacks(state, seat, slot));
                        }
                        out.push(Action::EndActions);
                    }
                }
            }
            out.extend(own_casts(state, seat));
        }
        Step::Call => {
            if let Some(draw) = &state.draw {
                if draw.attach.is_some() {
                    let mut out: Vec<Action> = my_units(state, seat)
                        .into_iter()
                        .map(Action::Attach)
                        .collect();
                    out.push(Action::HoldLearned);
                    return out;
                }
                if call::draws_left(state) > 0 {
                    return [Deck::Learned, Deck::Secret]
                        .into_iter()
                        .filter(|&d| state.deck_count(d) > 0)
                        .map(Action::DrawFrom)
                        .collect();
                }
                return (0..draw.drawn.len()).map(Action::KeepCard).collect();
            }
            out.extend(
                call::summons(state, seat)
                    .into_iter()
                    .map(|(slot, clan)| Action::Summon { slot, clan }),
            );
            out.extend(
                call::drawers(state, seat)
                    .into_iter()
                    .map(|slot| Action::DrawCards { slot }),
            );
            out.extend(
                call::held_attachments(state, seat)
                    .into_iter()
                    .map(|(card, slot)| Action::AttachHeld { card, slot }),
            );
            out.extend(
                call::empowers(state, seat)
                    .into_iter()
                    .map(|(slot, clan, learned)| Action::Empower {
                        slot,
                        clan,
                        learned,
                    }),
            );
            out.push(Action::EndCall);
            out.extend(own_casts(state, seat));
        }
        Step::Charge => {
            let reserve = state.player(seat).map_or(0, |p| p.reserve);
            out.extend(
                call::charge_slots(state, seat)
                    .into_iter()
                    .filter(|_| reserve > 0)
                    .map(|(slot, learned)| Action::Charge { slot, learned }),
            );
            out.push(Action::EndCharge);
            out.extend(own_casts(state, seat));
        }
    }
    out.extend(alliance_actions(state, seat));
    out
}

fn attacks(state: &State, seat: Seat, slot: u8) -> Vec<Action> {
    let free = state
        .unit(UnitRef { owner: seat, slot })
        .map_or(0, |u| u.free_dice());
    let mut out = Vec::new();
    for target in turn::attack_targets(state, seat, slot) {
        for dice in 0..=free {
            out.push(Action::Attack { slot, target, dice });
        }
    }
    out
}

/// Applies `action` by `actor`; on error the state is unchanged.
pub fn apply(state: &mut State, actor: Actor, action: &Action) -> Result<(), RuleError> {
    let mut after = state.clone();
    match (next(state), actor) {
        (Next::Over(_), _) => return Err(RuleError::GameOver),
        (Next::Chance(chance), Actor::Chance) => {
            if !chance.outcomes.iter().any(|(a, _)| a == action) {
                return Err(RuleError::illegal(
                    "that is not a possible outcome of this chance step",
                ));
            }
            apply_chance(&mut after, action);
        }
        (Next::Players(seats), Actor::Seat(seat)) if seats.contains(&seat) => {
            if !legal_actions(state, seat).contains(action) {
                return Err(RuleError::illegal(format!(
                    "that is not allowed now: {}",
                    super::prompt::prompt(state)
                )));
            }
            decide(&mut after, seat, action);
        }
        _ => return Err(RuleError::NotYourDecision),
    }
    turn::advance(&mut after);
    *state = after;
    Ok(())
}

fn apply_chance(state: &mut State, action: &Action) {
    match *action {
        Action::DealTribe(t) => setup::deal_tribe(state, t),
        Action::PlaceTile(c) => setup::place_tile(state, c),
        Action::SplitClans(m) => setup::split_clans(state, m),
        Action::FirstPlayer(s) => {
            state.first_player = s;
            state.phase = Phase::Leaders;
        }
        Action::RollDie(f) => turn::roll_die(state, f),
        Action::DrawCard(c) => call::draw_card(state, c),
        _ => {}
    }
}

/// Applies a legal decision of `seat`.
fn decide(state: &mut State, seat: Seat, action: &Action) {
    match *action {
        Action::Fall(t) => {
            if let Some(&u) = state.falls.first() {
                combat::land(state, u, t);
            }
        }
        Action::MoveUnitTo(t) => cast::place_moved(state, t),
        Action::AcceptAlliance => {
            if let Some((a, b)) = state.offer.take() {
                state.alliances.push((a.min(b), a.max(b)));
                state.alliances.sort_unstable();
            }
        }
        Action::DeclineAlliance => state.offer = None,
        Action::OfferAlliance(other) => {
            state.offer = Some((seat, other));
            state.offered_pairs.push((seat.min(other), seat.max(other)));
        }
        Action::EndAlliance(other) => {
            let pair = (seat.min(other), seat.max(other));
            state.alliances.retain(|&p| p != pair);
            // From edition 2 (audit bug 4): ended "in the middle of the act" (l.531), while
            // the active player's unit stands among the former ally's units, the unit now
            // meets enemies and must stop to attack ('Enemy Occupation', l.517).
            if state.options.edition >= 2
                && let (Some(current), Some(slot)) = (state.current(), state.moving)
            {
                turn::stop_for_enemies(state, current, slot);
            }
        }
        Action::Pass => cast::answer(state, seat, None),
        Action::Cast(c) => {
            if state.window.is_some() {
                cast::answer(state, seat, Some(c));
            } else {
                // "If the unit stops to attack or to cast an ability, then all other players
                // can also cast abilities".
                state.moving = None;
                cast::start_resolution(
                    state,
                    vec![(seat, c)],
                    super::state::After::Continue,
                    false,
                    false,
                );
            }
        }
        Action::CrumbleTile(t) => turn::declare_flip(state, t),
        Action::PlaceLeader(t) => setup::place_leader(state, t),
        Action::Reenter { clan, tile } => turn::reenter(state, seat, clan, tile),
        Action::Flip(t) => turn::declare_flip(state, t),
        Action::MarkReroll(i) => {
            if let Some(k) = state.marked.iter().position(|&m| m == i) {
                state.marked.remove(k);
            } else {
                state.marked.push(i);
                state.marked.sort_unstable();
            }
        }
        Action::Reroll => turn::reroll(state),
        Action::KeepDice => turn::keep_dice(state, seat),
        Action::Assign { face, slot } => turn::assign(state, seat, face, slot),
        Action::Move { slot, to } => {
            turn::step_unit(state, seat, slot, to);
            if state.moving.is_some() {
                cast::open_movement_window(state);
            }
        }
        Action::Stop => {
            state.moving = None;
            cast::open_window(state, super::state::After::Continue);
        }
        Action::Attack { slot, target, dice } => {
            turn::declare_attack(state, seat, slot, target, dice)
        }
        Action::EndActions => turn::set_step(state, Step::Call),
        // Windows after a summon and after a card draw (l.365: "at almost any point"); from
        // edition 2 before a summon or an empowering call takes effect instead (l.381, l.411).
        Action::Summon { slot, clan } if state.options.edition >= 2 => {
            call::declare(state, seat, DeclaredCall::Summon { slot, clan });
            cast::open_window(state, super::state::After::Continue);
        }
        Action::Summon { slot, clan } => {
            call::summon(state, seat, slot, clan);
            cast::open_window(state, super::state::After::Continue);
        }
        Action::DrawCards { slot } => call::start_draw(state, seat, slot),
        Action::DrawFrom(d) => call::draw_from(state, d),
        Action::KeepCard(i) => {
            call::keep_card(state, seat, i);
            if state.draw.is_none() {
                cast::open_window(state, super::state::After::Continue);
            }
        }
        Action::Attach(slot) => {
            call::attach(state, seat, slot);
            cast::open_window(state, super::state::After::Continue);
        }
        Action::HoldLearned => {
            call::hold_learned(state, seat);
            cast::open_window(state, super::state::After::Continue);
        }
        Action::AttachHeld { card, slot } => call::attach_held(state, seat, card, slot),
        Action::Empower {
            slot,
            clan,
            learned,
        } if state.options.edition >= 2 => {
            let call = DeclaredCall::Empower {
                slot,
                clan,
                learned,
            };
            call::declare(state, seat, call);
            cast::open_window(state, super::state::After::Continue);
        }
        Action::Empower {
            slot,
            clan,
            learned,
        } => {
            call::empower(state, seat, slot, clan, learned);
            cast::open_window(state, super::state::After::Continue);
        }
        Action::EndCall => {
            turn::set_step(state, Step::Charge);
            cast::open_window(state, super::state::After::Continue);
        }
        Action::Charge { slot, learned } => call::charge_one(state, seat, slot, learned),
        Action::EndCharge => turn::end_turn(state),
        _ => {}
    }
}
