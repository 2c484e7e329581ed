//! The course of the game: set-up, turns (time passes, move, discard and draw), the automatic
//! steps between decisions, and victory. Above the steps it drives: it resolves the top of the
//! stack (`cast`), an attack after its evasion roll (`effects`), and deals damage and ends
//! spells through `changes`.

use super::actions::Action;
use super::board::{Dir, Pos, designs, layout};
use super::cards::{CardId, DIE_FACES, Duration, Effect};
use super::cast;
use super::changes::{arrive, discard, drop_treasure, end_spell, hurt, land_punch, set_pos};
use super::effects;
use super::state::{
    MAX_LIFE, Need, POINTS_TO_WIN, Phase, STARTING_HAND, State, Target, leaded, put, take,
};
use crate::rules::{RuleError, Seat};

pub fn apply_chance(state: &mut State, action: &Action) -> Result<(), RuleError> {
    match (action.clone(), state.phase.clone()) {
        (Action::Colour(c), Phase::Building { .. })
            if state.colours.len() < state.seats() && c < 4 && !state.colours.contains(&c) =>
        {
            state.colours.push(c);
        }
        (Action::PlaceSector(sector), Phase::Building { slot, sector: None }) => {
            state.phase = Phase::Building {
                slot,
                sector: Some(sector),
            };
        }
        (
            Action::TurnSector(turns),
            Phase::Building {
                slot,
                sector: Some(sector),
            },
        ) => {
            let designs = designs().map_err(RuleError::illegal)?;
            // The sector of the seat `sector`, in its colour, on the side the table chose.
            let index = usize::from(state.options.board_side.first_design())
                + usize::from(state.colour_of(usize::from(sector)));
            let design = designs
                .get(index)
                .ok_or_else(|| RuleError::illegal("no such sector"))?;
            state.board.place(slot, sector, turns, design);
            let origin = state
                .board
                .slots
                .get(slot)
                .map(|s| s.origin)
                .unwrap_or(Pos(0, 0));
            for &t in &design.treasures {
                let l = super::board::rotate_local(t, turns);
                state.treasures.push(super::state::Treasure {
                    owner: usize::from(sector),
                    at: Some(Pos(origin.0 + l.0, origin.1 + l.1)),
                });
            }
            if slot + 1 < state.board.slots.len() {
                state.phase = Phase::Building {
                    slot: slot + 1,
                    sector: None,
                };
            } else {
                finish_board(state);
            }
        }
        (Action::Draw(card), _) => {
            let Some(Need::Draw(seat)) = state.needs.first().cloned() else {
                return Err(RuleError::illegal("no card is being drawn"));
            };
            if !take(&mut state.deck, &card) {
                return Err(RuleError::illegal("that card is not in the deck"));
            }
            state.needs.remove(0);
            if let Some(w) = state.wizards.get_mut(seat) {
                put(&mut w.hand, card);
            }
        }
        (Action::Steal(card), _) => {
            let Some(Need::Steal { thief, victim }) = state.needs.first().cloned() else {
                return Err(RuleError::illegal("nothing is being stolen"));
            };
            let taken = state
                .wizards
                .get_mut(victim)
                .is_some_and(|w| take(&mut w.hand, &card));
            if !taken {
                return Err(RuleError::illegal("that card is not in the victim's hand"));
            }
            state.needs.remove(0);
            if let Some(w) = state.wizards.get_mut(thief) {
                put(&mut w.hand, card);
            }
            state.note(format!("Seat {thief} stole a card from Seat {victim}."));
        }
        (Action::RandomDiscard(card), _) => {
            let Some(Need::DiscardAtRandom(seat)) = state.needs.first().cloned() else {
                return Err(RuleError::illegal("no card is being discarded at random"));
            };
            discard(state, seat, card)?;
            state.needs.remove(0);
        }
        (Action::Roll(n), _) => match state.needs.first().cloned() {
            Some(Need::Punch {
                by,
                victim,
                damage,
                die,
            }) => {
                if n == 0 || n > die {
                    return Err(RuleError::illegal("the die has no such face"));
                }
                state.needs.remove(0);
                state.note(format!("Seat {by} rolled {n} for the punch."));
                hurt(state, victim, damage + i16::from(n), Some(by), false);
            }
            Some(Need::Evade { by, victim, attack }) => {
                if n == 0 || n > DIE_FACES {
                    return Err(RuleError::illegal("the die has no such face"));
                }
                state.needs.remove(0);
                let evades = state.form(victim).map_or(0, |f| f.evades_up_to);
                if n <= evades {
                    state.note(format!("Seat {victim} rolled {n} and evaded the attack."));
                    if let Some(p) = attack {
                        effects::miss(state, &p);
                    }
                } else {
                    state.note(format!("Seat {victim} rolled {n}: the attack hits."));
                    match attack {
                        Some(p) => effects::resolve(state, &p),
                        None => land_punch(state, by, victim),
                    }
                }
            }
            _ => return Err(RuleError::illegal("no die is being rolled")),
        },
        (Action::FirstPlayer(seat), Phase::FirstPlayer) if seat < state.seats() => {
            state.turn.number = 0;
            state.turn.round = 1;
            state.turn.first_seat = seat;
            start_turn(state, seat);
        }
        _ => return Err(RuleError::NotYourDecision),
    }
    Ok(())
}

fn finish_board(state: &mut State) {
    let portals = layout(state.seats()).map(|l| l.portals).unwrap_or(&[]);
    state.board.finish(portals);
    for seat in 0..state.seats() {
        let home = state.board.home(seat);
        if let Some(w) = state.wizards.get_mut(seat) {
            w.at = home;
        }
    }
    state.treasures.sort_by_key(|t| (t.owner, t.at));
    for _ in 0..STARTING_HAND {
        for seat in 0..state.seats() {
            state.needs.push(Need::Draw(seat));
        }
    }
    state.phase = Phase::Dealing;
}

/// The automatic steps between decisions.
pub fn advance(state: &mut State) {
    for _ in 0..1000 {
        if state.is_over() || !step(state) {
            return;
        }
    }
}

/// One automatic step; whether something changed.
fn step(state: &mut State) -> bool {
    if check_victory(state) {
        return true;
    }
    if let Some(id) = slow_death_unseen(state) {
        state.note("Slow Death ended: its caster lost sight of its target.".to_owned());
        end_spell(state, id);
        return true;
    }
    if let Some(need) = state.needs.first().cloned() {
        match need {
            Need::Draw(seat) => {
                if !state.alive(seat) || state.deck.is_empty() && state.discard.is_empty() {
                    state.needs.remove(0);
                    return true;
                }
                if state.deck.is_empty() {
                    // Nothing to shuffle: every draw is a chance step over the unseen cards.
                    state.deck = std::mem::take(&mut state.discard);
                    state.deck.sort();
                    state.note("The discard pile became the new deck.".to_owned());
                    return true;
                }
                return false;
            }
            Need::Steal { victim, thief } => return drop_if_no_card(state, victim, thief),
            Need::DiscardAtRandom(seat) => return drop_if_no_card(state, seat, seat),
            Need::Punch { victim, die, .. } => {
                if !state.alive(victim) || die == 0 {
                    state.needs.remove(0);
                    return true;
                }
                return false;
            }
            Need::Evade { victim, attack, .. } => {
                if !state.alive(victim) {
                    state.needs.remove(0);
                    if let Some(p) = attack {
                        effects::miss(state, &p);
                    }
                    return true;
                }
                return false;
            }
        }
    }
    if state.phase == Phase::Dealing {
        state.phase = Phase::FirstPlayer;
        return true;
    }
    if let Some(top) = state.stack.last() {
        if top.waiting.is_empty() {
            cast::resolve_top(state);
            return true;
        }
        return false;
    }
    let active = state.turn.seat;
    if matches!(state.phase, Phase::MoveAndCast | Phase::DiscardAndDraw) && !state.alive(active) {
        state.casting = None;
        end_turn(state);
        return true;
    }
    false
}

/// A card owed from `from`'s hand to (or by) `by`: dropped, if the hand is empty or `by` is
/// dead; whether it was.
fn drop_if_no_card(state: &mut State, from: Seat, by: Seat) -> bool {
    let empty = state.wizard(from).is_none_or(|w| w.hand.is_empty());
    if empty || !state.alive(by) {
        state.needs.remove(0);
        return true;
    }
    false
}

/// A Slow Death whose caster cannot see its target (a wall between them, or the target
/// invisible): "Slow Death would be canceled since it requires [line of sight]" (l.503).
fn slow_death_unseen(state: &State) -> Option<u32> {
    state
        .spells
        .iter()
        .filter(|s| s.card.effect() == Effect::SlowDeath)
        .find(|s| {
            let Target::Wizard(victim) = s.target else {
                return true;
            };
            match (state.pos(s.caster), state.pos(victim)) {
                (Some(a), Some(b)) => {
                    state.invisible(victim) || !state.sight_for(s.caster).sees_square(a, b)
                }
                _ => true,
            }
        })
        .map(|s| s.id)
}

/// Ends the game if someone has won; whether it did.
fn check_victory(state: &mut State) -> bool {
    if matches!(
        state.phase,
        Phase::Building { .. } | Phase::Dealing | Phase::FirstPlayer
    ) {
        return false;
    }
    let living = state.living();
    let scorers: Vec<Seat> = (0..state.seats())
        .filter(|&s| state.alive(s) && state.points(s) >= POINTS_TO_WIN)
        .collect();
    let (winners, summary) = if !scorers.is_empty() {
        let names: Vec<String> = scorers.iter().map(|s| format!("Seat {s}")).collect();
        (
            scorers.clone(),
            format!(
                "{} scored {POINTS_TO_WIN} victory points.",
                names.join(" and ")
            ),
        )
    } else if living.len() == 1 {
        (
            living.clone(),
            format!(
                "Seat {} is the last wizard alive.",
                living.first().copied().unwrap_or(0)
            ),
        )
    } else if living.is_empty() {
        let best = most_points(state, &(0..state.seats()).collect::<Vec<_>>());
        (
            best,
            "Every wizard is dead; the most points win.".to_owned(),
        )
    } else {
        return false;
    };
    state.stack.clear();
    state.casting = None;
    state.needs.clear();
    state.phase = Phase::Over { winners, summary };
    true
}

fn most_points(state: &State, seats: &[Seat]) -> Vec<Seat> {
    let best = seats.iter().map(|&s| state.points(s)).max().unwrap_or(0);
    seats
        .iter()
        .copied()
        .filter(|&s| state.points(s) == best)
        .collect()
}

/// Starts `seat`'s turn: time passes, then move and cast.
pub fn start_turn(state: &mut State, seat: Seat) {
    state.turn = super::state::Turn {
        seat,
        number: state.turn.number + 1,
        round: state.turn.round,
        first_seat: state.turn.first_seat,
        ..Default::default()
    };
    // Rounds are counted, not turns: after a death a round has fewer turns.
    if let Some(limit) = state.options.round_limit
        && state.turn.round > limit
    {
        let living = state.living();
        let winners = most_points(state, &living);
        state.phase = Phase::Over {
            winners,
            summary: format!(
                "The turn limit ({limit} rounds) was reached; the most victory points win."
            ),
        };
        return;
    }
    state.phase = Phase::MoveAndCast;
    let first = state.wizard(seat).is_some_and(|w| w.turns == 0);
    if let Some(w) = state.wizards.get_mut(seat) {
        w.turns += 1;
    }
    state.turn.first = first;
    time_passes(state, seat);
    if !state.alive(seat) {
        return;
    }
    let stones = u8::try_from(state.carries(seat, Effect::Speedstone)).unwrap_or(0);
    // Disease: 1 movement point fewer per Disease on the wizard.
    let sick = u8::try_from(diseases(state, seat).len()).unwrap_or(u8::MAX);
    state.turn.movement = state
        .form_movement(seat)
        .saturating_add(stones)
        .saturating_sub(sick);
}

/// The Disease spells on the wizard `seat`: (caster, damage).
fn diseases(state: &State, seat: Seat) -> Vec<(Seat, i16)> {
    state
        .spells
        .iter()
        .filter(|s| s.card.effect() == Effect::Disease && s.target == Target::Wizard(seat))
        .map(|s| (s.caster, i16::from(s.card.power())))
        .collect()
}

/// "Resolve spell effects, remove energy, remove stun."
fn time_passes(state: &mut State, seat: Seat) {
    let own: Vec<u32> = state
        .spells
        .iter()
        .filter(|s| s.caster == seat)
        .map(|s| s.id)
        .collect();
    for &id in &own {
        let Some(spell) = state.spells.iter().find(|s| s.id == id).cloned() else {
            continue;
        };
        if matches!(spell.card.effect(), Effect::AcidBath | Effect::SlowDeath)
            && let Target::Wizard(victim) = spell.target
        {
            hurt(
                state,
                victim,
                i16::from(spell.card.power()),
                Some(seat),
                false,
            );
        }
    }
    // Disease: "when time passes on its turn it takes 1 damage" (the caster's curse).
    for (caster, damage) in diseases(state, seat) {
        hurt(state, seat, damage, Some(caster), false);
    }
    if !state.alive(seat) {
        return;
    }
    if state.carries(seat, Effect::Lifestone) > 0
        && let Some(w) = state.wizards.get_mut(seat)
    {
        w.life = (w.life + 1).min(MAX_LIFE);
    }
    for &id in &own {
        let Some(spell) = state.spells.iter_mut().find(|s| s.id == id) else {
            continue;
        };
        if State::duration(spell.card) != Duration::Temporary {
            continue;
        }
        spell.tokens = spell.tokens.saturating_sub(1);
        if spell.tokens == 0 {
            let spell = spell.clone();
            if spell.card.effect() == Effect::FireClock
                && let Target::Wizard(victim) = spell.target
            {
                hurt(
                    state,
                    victim,
                    i16::from(spell.card.power()),
                    Some(seat),
                    true,
                );
            }
            end_spell(state, id);
        }
    }
    if let Some(w) = state.wizards.get_mut(seat)
        && w.stun > 0
    {
        w.stun -= 1;
        state.turn.stunned = true;
    }
}

pub fn end_turn(state: &mut State) {
    state.casting = None;
    let n = state.seats();
    let seat = state.turn.seat;
    let steps = (1..=n).find(|&i| state.alive((seat + i) % n)).unwrap_or(n);
    let next = (seat + steps) % n;
    // A new round begins when play comes round to, or passes, the first player's seat.
    let m = n.max(1);
    let to_first = match (state.turn.first_seat % m + m - seat % m) % m {
        0 => n,
        k => k,
    };
    if to_first <= steps && state.turn.round > 0 {
        state.turn.round += 1;
    }
    start_turn(state, next);
}

/// Movement-phase actions other than cards: moves, picking up, dropping.
pub fn movement_actions(state: &State, seat: Seat) -> Vec<Action> {
    let mut out = Vec::new();
    let Some(at) = state.pos(seat) else {
        return out;
    };
    let stunned_attacked = state.turn.stunned && state.turn.attacked;
    let mp = state.turn.movement;
    if mp > 0 && !stunned_attacked && !state.glued(seat) {
        for d in Dir::ALL {
            if let Some((q, _)) = state.board.across(at, d)
                && state.may_cross(seat, at, d)
                && !state.blocks_entry(q)
            {
                out.push(Action::Move(d));
            }
        }
    }
    let free_pickup = state.maintains(seat, Effect::Homonculus);
    let mut crowded = false;
    if mp > 0 || free_pickup {
        for o in state.objects.iter().filter(|o| o.at == at && o.mobile()) {
            if room_for(state, seat, o.card) {
                out.push(Action::PickUp(o.id));
            } else {
                crowded = true;
            }
        }
    }
    // "... then he must first discard a card, end a maintained spell, or drop a carried item to
    // make room for the object" (l.365): discarding is offered for that (dropping and ending
    // a spell are offered anyway).
    if crowded && let Some(w) = state.wizard(seat) {
        for (c, _) in super::state::tally(&w.hand) {
            out.push(Action::Discard(c));
        }
    }
    let carrying = state.wizard(seat).and_then(|w| w.treasure).is_some();
    if !carrying {
        for (i, t) in state.treasures.iter().enumerate() {
            if t.at == Some(at) && !leaded(state, i) {
                out.push(Action::PickUpTreasure(i));
            }
        }
    } else {
        out.push(Action::DropTreasure);
    }
    if let Some(w) = state.wizard(seat) {
        for (c, _) in super::state::tally(&w.items) {
            out.push(Action::Drop(c));
        }
        if !state.turn.stunned || !state.turn.attacked {
            for (c, _) in super::state::tally(&w.hand) {
                if c.energy_value() > 0 {
                    out.push(Action::Speed(c));
                }
            }
        }
    }
    out
}

/// Whether `seat` may pick up `card` without going over its maximum hand size: "If a wizard
/// picks up an object that would take the player above his maximum hand size, then he must
/// first discard a card, end a maintained spell, or drop a carried item" (l.365). A Spellstone
/// picked up counts with the hand size it gives.
pub fn room_for(state: &State, seat: Seat, card: CardId) -> bool {
    let mut limit = state.hand_limit(seat);
    if card.effect() == Effect::Spellstone {
        limit = limit.max(usize::from(card.power()));
    }
    state.hand_total(seat) < limit
}

pub fn decide(state: &mut State, seat: Seat, action: &Action) -> Result<(), RuleError> {
    match *action {
        Action::Move(d) => {
            let at = state
                .pos(seat)
                .ok_or_else(|| RuleError::illegal("you are dead"))?;
            let (q, _) = state
                .board
                .across(at, d)
                .ok_or_else(|| RuleError::illegal("the board ends there"))?;
            let fire = state
                .board
                .edge(at, d)
                .and_then(|e| e.created)
                .filter(|c| c.card.effect() == Effect::WallOfFire);
            state.turn.movement = state.turn.movement.saturating_sub(1);
            state.turn.moved = true;
            set_pos(state, seat, q);
            if let Some(c) = fire {
                let owner = state
                    .spells
                    .iter()
                    .find(|s| s.id == c.spell)
                    .map(|s| s.caster);
                // "The player only receives a victory point in this manner when he reduces
                // another wizard's life total to 0 or less with an attack" (l.488): a creation
                // is no attack, so a death here scores for nobody.
                if owner != Some(seat) {
                    hurt(state, seat, i16::from(c.card.power()), None, true);
                }
            }
            arrive(state, seat, q);
        }
        Action::PickUp(id) => {
            let i = state
                .objects
                .iter()
                .position(|o| o.id == id)
                .ok_or_else(|| RuleError::illegal("no such object"))?;
            let o = state.objects.remove(i);
            if !state.maintains(seat, Effect::Homonculus) {
                state.turn.movement = state.turn.movement.saturating_sub(1);
            }
            state.turn.picked_up.push(o.card);
            if let Some(w) = state.wizards.get_mut(seat) {
                put(&mut w.items, o.card);
            }
        }
        Action::PickUpTreasure(i) => {
            if let Some(t) = state.treasures.get_mut(i) {
                t.at = None;
            }
            if let Some(w) = state.wizards.get_mut(seat) {
                w.treasure = Some(i);
            }
            // "Picking up a treasure immediately ends the Move and Cast phase."
            state.phase = Phase::DiscardAndDraw;
        }
        Action::DropTreasure => drop_treasure(state, seat),
        Action::Speed(card) => {
            discard(state, seat, card)?;
            state.turn.movement = state.turn.movement.saturating_add(card.energy_value());
        }
        Action::EndMove => state.phase = Phase::DiscardAndDraw,
        Action::DrawCard => {
            state.turn.drawn += 1;
            state.needs.push(Need::Draw(seat));
        }
        Action::EndTurn => end_turn(state),
        _ => return Err(RuleError::NotYourDecision),
    }
    Ok(())
}
