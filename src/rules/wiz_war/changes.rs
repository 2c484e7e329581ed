//! The changes to the state that the steps share, below them all: damage and death (the
//! killer scores), a maintained spell ended (and the form it gave), a wizard set down in a
//! square (and what hurts it there), items and treasure dropped, a card discarded, draws and
//! punch rolls owed. Effects (`effects`), casts (`cast`) and the course of the game (`flow`)
//! all call these; nothing here calls them back.

use super::board::Pos;
use super::cards::{CardId, Effect, Trait, form_of};
use super::state::{Need, Object, Phase, State, Target, put, take};
use crate::rules::{RuleError, Seat};

/// Damage to a wizard. `by`: the wizard whose attack or creation it is (kills score for them).
pub fn hurt(state: &mut State, victim: Seat, amount: i16, by: Option<Seat>, fire: bool) {
    hurt_linked(state, victim, amount, by, fire, true);
}

fn hurt_linked(
    state: &mut State,
    victim: Seat,
    amount: i16,
    by: Option<Seat>,
    fire: bool,
    link: bool,
) {
    if !state.alive(victim) || amount <= 0 {
        return;
    }
    let armour = state
        .wizard(victim)
        .and_then(|w| w.form)
        .and_then(|f| super::cards::FORMS.get(usize::from(f)))
        .map_or(0, |f| i16::from(f.armour));
    let amount = (amount - armour).max(0);
    // Magic stones are destroyed if the wizard "suffers fire damage" (l.317): from edition 1,
    // not when armour takes all of it (audit 2026-11-28, B4).
    let burnt = fire && (amount > 0 || state.options.edition < 1);
    if let Some(w) = state.wizards.get_mut(victim) {
        w.life -= amount;
        if burnt {
            let (stones, kept): (Vec<CardId>, Vec<CardId>) =
                w.items.iter().partition(|c| c.has_trait(Trait::MagicStone));
            w.items = kept;
            state.discard.extend(stones);
            state.discard.sort();
        }
    }
    state.note(format!("Seat {victim} took {amount} damage."));
    if link {
        let linked: Vec<(Seat, Seat)> = state
            .spells
            .iter()
            .filter(|s| s.caster == victim && s.card.effect() == Effect::PainLink)
            .filter_map(|s| match s.target {
                Target::Wizard(t) => Some((t, s.caster)),
                _ => None,
            })
            .collect();
        for (target, caster) in linked {
            hurt_linked(state, target, amount, Some(caster), false, false);
        }
    }
    if state.wizard(victim).is_some_and(|w| w.life <= 0) {
        die(state, victim, by);
    }
}

/// "Death drops treasure and items"; the killer scores.
pub fn die(state: &mut State, victim: Seat, by: Option<Seat>) {
    let Some(at) = state.pos(victim) else { return };
    drop_treasure(state, victim);
    let items = state
        .wizards
        .get_mut(victim)
        .map(|w| std::mem::take(&mut w.items))
        .unwrap_or_default();
    for card in items {
        let id = state.new_id();
        state.objects.push(Object {
            id,
            card,
            at,
            cracks: 0,
            spell: None,
        });
    }
    if let Some(w) = state.wizards.get_mut(victim) {
        let hand = std::mem::take(&mut w.hand);
        w.at = None;
        w.stun = 0;
        state.discard.extend(hand);
        state.discard.sort();
    }
    let ending: Vec<u32> = state
        .spells
        .iter()
        .filter(|s| s.caster == victim || s.target == Target::Wizard(victim))
        .map(|s| s.id)
        .collect();
    for id in ending {
        end_spell(state, id);
    }
    for p in &mut state.stack {
        p.waiting.retain(|&s| s != victim);
    }
    state.needs.retain(|n| match n {
        Need::Draw(s) => *s != victim,
        Need::Steal { thief, victim: v } => *thief != victim && *v != victim,
        Need::Punch { victim: v, .. } | Need::DiscardAtRandom(v) => *v != victim,
        // An evasion roll left waiting is cleared by `step`, which discards its attack's cards.
        Need::Evade { .. } => true,
    });
    if let Some(k) = by
        && k != victim
        && let Some(w) = state.wizards.get_mut(k)
    {
        w.kills += 1;
    }
    state.note(format!("Seat {victim}'s wizard died."));
}

/// Ends a maintained spell: its card is discarded, its creations leave the board.
pub fn end_spell(state: &mut State, id: u32) {
    let Some(i) = state.spells.iter().position(|s| s.id == id) else {
        return;
    };
    let spell = state.spells.remove(i);
    state.discard.push(spell.card);
    state.discard.sort();
    // A transformation ends with its spell: the wizard takes its own shape again.
    if spell.card.has_trait(Trait::Transformation)
        && form_of(spell.card).is_some()
        && state.wizard(spell.caster).and_then(|w| w.form) == form_of(spell.card)
    {
        set_form(state, spell.caster, None);
        if state.alive(spell.caster) {
            state.note(format!(
                "Seat {}'s {} ended: it took its own shape again.",
                spell.caster,
                spell.card.name()
            ));
        }
    }
    state.objects.retain(|o| o.spell != Some(id));
    for e in state
        .board
        .vertical
        .iter_mut()
        .chain(state.board.horizontal.iter_mut())
    {
        if e.created.is_some_and(|c| c.spell == id) {
            e.created = None;
        }
    }
}

/// Transforms the wizard `seat` into the form `form` (none: back to a wizard). In its own
/// move and cast the movement points left change by the difference between the two forms'
/// movement ("Spend Movement Points (usually 3)", l.93: a form's points are its turn's).
pub fn set_form(state: &mut State, seat: Seat, form: Option<u8>) {
    let old = state.form_movement(seat);
    if let Some(w) = state.wizards.get_mut(seat) {
        w.form = form;
    }
    let new = state.form_movement(seat);
    if state.turn.seat == seat && state.phase == Phase::MoveAndCast {
        state.turn.movement = state.turn.movement.saturating_add(new).saturating_sub(old);
    }
}

/// Moves a wizard (its carried treasure goes with it).
pub fn set_pos(state: &mut State, seat: Seat, p: Pos) {
    if let Some(w) = state.wizards.get_mut(seat) {
        w.at = Some(p);
    }
}

/// The wizard `seat` stepped into `q` (a move, or Pass Through Wall): Stone Spikes there
/// (not its caster's) hurt it, then Conjuring's creations and tacks ([`entered`]).
pub fn arrive(state: &mut State, seat: Seat, q: Pos) {
    let spikes: Vec<(u8, Option<Seat>)> = state
        .objects
        .iter()
        .filter(|o| o.at == q && o.card.effect() == Effect::StoneSpikes)
        .map(|o| {
            let owner = state
                .spells
                .iter()
                .find(|s| Some(s.id) == o.spell)
                .map(|s| s.caster);
            (o.card.power(), owner)
        })
        .collect();
    for (power, owner) in spikes {
        if owner != Some(seat) {
            hurt(state, seat, i16::from(power), None, false);
        }
    }
    entered(state, seat, q);
}

/// The wizard `seat` moved into `q` by its own move: Conjuring's creations and dropped tacks
/// there hurt it. A Booby Trap (not its caster's) springs: 4 damage and its spell ends; a
/// Thornbush hurts any wizard but its caster; tacks hurt every wizard. None is an attack, so a
/// death here scores nobody (l.488).
fn entered(state: &mut State, seat: Seat, q: Pos) {
    let hits: Vec<(Effect, u8, Option<u32>)> = state
        .objects
        .iter()
        .filter(|o| o.at == q)
        .filter(|o| match o.card.effect() {
            Effect::BoobyTrap | Effect::Thornbush => {
                o.spell.and_then(|id| state.caster_of(id)) != Some(seat)
            }
            Effect::Tacks => o.spell.is_none(),
            _ => false,
        })
        .map(|o| (o.card.effect(), o.card.power(), o.spell))
        .collect();
    for (effect, power, spell) in hits {
        if !state.alive(seat) {
            break;
        }
        if effect == Effect::BoobyTrap {
            state.note(format!("Seat {seat} sprang a Booby Trap."));
            if let Some(id) = spell {
                end_spell(state, id);
            }
        }
        hurt(state, seat, i16::from(power), None, false);
    }
}

pub fn drop_treasure(state: &mut State, seat: Seat) {
    let at = state.pos(seat);
    let Some(w) = state.wizards.get_mut(seat) else {
        return;
    };
    if let Some(i) = w.treasure.take()
        && let Some(t) = state.treasures.get_mut(i)
    {
        t.at = at;
    }
}

pub fn drop_item(state: &mut State, seat: Seat, card: CardId) -> Result<(), RuleError> {
    let at = state
        .pos(seat)
        .ok_or_else(|| RuleError::illegal("you are not on the board"))?;
    let ok = state
        .wizards
        .get_mut(seat)
        .is_some_and(|w| take(&mut w.items, &card));
    if !ok {
        return Err(RuleError::illegal("you do not carry that item"));
    }
    let id = state.new_id();
    state.objects.push(Object {
        id,
        card,
        at,
        cracks: 0,
        spell: None,
    });
    Ok(())
}

pub fn discard(state: &mut State, seat: Seat, card: CardId) -> Result<(), RuleError> {
    let ok = state
        .wizards
        .get_mut(seat)
        .is_some_and(|w| take(&mut w.hand, &card));
    if !ok {
        return Err(RuleError::illegal("that card is not in your hand"));
    }
    put(&mut state.discard, card);
    Ok(())
}

/// Draws owed to `seat` (Meditate): one chance step each.
pub fn queue_draws(state: &mut State, seat: Seat, n: u8) {
    for _ in 0..n {
        state.needs.push(Need::Draw(seat));
    }
}

/// A punch that lands: its damage (`State::punch_damage`), or first a roll of the form's die
/// (the Werewolf's d4), a chance step.
pub fn land_punch(state: &mut State, by: Seat, victim: Seat) {
    let (damage, die) = state.punch_damage(by);
    if die > 0 {
        state.needs.push(Need::Punch {
            by,
            victim,
            damage,
            die,
        });
    } else {
        hurt(state, victim, damage, Some(by), false);
    }
}
