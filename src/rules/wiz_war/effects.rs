//! The effect code of each card (`cards::Effect`), run when a spell, throw or weapon attack
//! resolves. Numbers come from the card's row (`power`) and the spell's energy.

use super::board::{Created, Dir, EdgeKind, Pos};
use super::cards::{CardId, Duration, Effect, Kind, Trait, form_of};
use super::changes::{
    arrive, drop_item, drop_treasure, end_spell, hurt, queue_draws, set_form, set_pos,
};
use super::sight::dot;
use super::state::{
    MAX_LIFE, Need, Object, Pending, Spell, State, Target, adjacent, evades, put, take,
};
use crate::rules::Seat;

/// Cracks a single attack's damage inflicts: one per full 3 damage ("7 damage = 2 cracks").
pub fn cracks(damage: i16) -> u8 {
    u8::try_from((damage / 3).clamp(0, 255)).unwrap_or(0)
}

/// An attack, spell or thrown item or weapon, whose window has closed: against a wizard who
/// may evade it (Gnome Form) the die is rolled first (a chance step, then [`resolve`] or
/// [`miss`]); anything else resolves at once.
pub fn attack(state: &mut State, p: &Pending) {
    let aimed = match p.target {
        Target::Wizard(v) | Target::WizardToward(v, _) => Some(v),
        // An attack at an item carried is aimed at its carrier, for its counters (l.150) and,
        // from edition 1, for its evasion too (audit 2026-11-28, B7; ruling 25).
        Target::Item(v, _) if state.options.edition >= 1 => Some(v),
        _ => None,
    };
    let is_attack = p.card.kind() == Some(Kind::Attack) || p.how != super::state::How::Cast;
    if let Some(v) = aimed.filter(|&v| is_attack && evades(state, v)) {
        state.needs.push(Need::Evade {
            by: p.by,
            victim: v,
            attack: Some(p.clone()),
        });
        return;
    }
    resolve(state, p);
}

/// An attack that missed (evaded): nothing happens to the target; its cards go as they would
/// have (a spell and the energy spent with it to the discard pile, a thrown rock to the
/// target's square, a weapon stays in hand).
pub fn miss(state: &mut State, p: &Pending) {
    let how = p.how;
    if p.card.effect() == Effect::ThrownDamage && how == super::state::How::Throw {
        let at = match p.target {
            Target::Wizard(v) | Target::WizardToward(v, _) => state.pos(v),
            _ => None,
        };
        match at {
            Some(at) => {
                let id = state.new_id();
                state.objects.push(Object {
                    id,
                    card: p.card,
                    at,
                    cracks: 0,
                    spell: None,
                });
            }
            None => put(&mut state.discard, p.card),
        }
    } else if how != super::state::How::Weapon {
        put(&mut state.discard, p.card);
    }
    for &c in &p.spent {
        put(&mut state.discard, c);
    }
}

pub fn resolve(state: &mut State, p: &Pending) {
    let by = p.by;
    let e = i16::from(p.energy);
    let power = i16::from(p.card.power());
    let mut in_play = false;
    if p.card.has_trait(Trait::Transformation) {
        // "A wizard or creature may only be affected by one transformation at a time - any
        // transformation cast on a wizard or creature cancels any previous transformation
        // affecting it" (l.323). Every transformation card is cast on its caster.
        let old: Vec<(u32, CardId)> = state
            .spells
            .iter()
            .filter(|s| s.caster == by && s.card.has_trait(Trait::Transformation))
            .map(|s| (s.id, s.card))
            .collect();
        for (id, card) in old {
            state.note(format!(
                "Seat {by}'s {} ended: one transformation at a time.",
                card.name()
            ));
            end_spell(state, id);
        }
    }
    match (p.card.effect(), p.target) {
        (Effect::Fireball, t) => strike(state, by, t, 4 + e, true),
        (Effect::Boomstone, t) => strike(state, by, t, power, false),
        (Effect::LightningBolt, Target::Direction(d)) => lightning(state, by, d, e),
        (Effect::Waterbolt, t) => {
            if let Some((victim, toward)) = wizard_of(t) {
                let from = state.origin(by);
                put_out(state, Some(victim), None);
                hurt(state, victim, power, Some(by), false);
                let dir = toward.or_else(|| away(state, by, from, victim));
                if let Some(d) = dir {
                    push(state, victim, d, u8::try_from(e + 1).unwrap_or(1));
                }
            }
        }
        (Effect::HeaveHo, t) => {
            if let Some((victim, toward)) = wizard_of(t) {
                let from = state.origin(by);
                let dir = toward.or_else(|| away(state, by, from, victim));
                let far = u8::try_from(e + 1).unwrap_or(1);
                let flown = dir.map_or(far, |d| push(state, victim, d, far));
                // Stopped short by a wall, door or filled square: it strikes it.
                let damage = if flown < far { power * 2 } else { power };
                hurt(state, victim, damage, Some(by), false);
            }
        }
        (Effect::Stretch, _) => {
            let reach = u8::try_from(e + 1).unwrap_or(2);
            state.turn.reach = state.turn.reach.max(reach);
        }
        (Effect::Adrenaline, _) => {
            let gain = u8::try_from(e + 1).unwrap_or(0);
            state.turn.movement = state.turn.movement.saturating_add(gain);
            if let Some(w) = state.wizards.get_mut(by) {
                w.stun = 0;
            }
        }
        (Effect::MadDash, _) => {
            let gain = u8::try_from(power * e).unwrap_or(u8::MAX);
            state.turn.movement = state.turn.movement.saturating_add(gain);
            state.turn.attacked = true;
        }
        (Effect::Wallivore, Target::Side(q, d)) => {
            destroy_line(state, q, d);
            if let Some(w) = state.wizards.get_mut(by) {
                w.life = (w.life + power).min(MAX_LIFE);
            }
        }
        (Effect::Transform, _) => {
            // The previous transformation ended above (l.323).
            let id = state.new_id();
            keep(state, p, id);
            in_play = true;
            let form = form_of(p.card);
            set_form(state, by, form);
            if let Some(f) = state.form(by) {
                state.note(format!("Seat {by} took the form of a {}.", f.name));
            }
        }
        (Effect::FireDarts, Target::Wizard(v)) => hurt(state, v, e + power, Some(by), true),
        (Effect::GlobeOfPain, _) => {
            // Every other wizard in the caster's square or next to it, in sight.
            if let Some(from) = state.origin(by) {
                let hit: Vec<Seat> = {
                    let sight = state.sight_for(by);
                    state
                        .living()
                        .into_iter()
                        .filter(|&v| v != by)
                        .filter(|&v| {
                            state
                                .pos(v)
                                .is_some_and(|q| adjacent(state, &sight, from, q))
                        })
                        .collect()
                };
                for v in hit {
                    hurt(state, v, e + power, Some(by), false);
                }
            }
        }
        (Effect::Yoink, Target::Item(v, card)) => {
            let taken = state
                .wizards
                .get_mut(v)
                .is_some_and(|w| take(&mut w.items, &card));
            if taken && let Some(w) = state.wizards.get_mut(by) {
                put(&mut w.items, card);
            }
        }
        (Effect::Gravity, Target::Wizard(v)) => {
            let from = state.origin(by);
            if let (Some(d), Some(stop)) = (away(state, by, from, v), from) {
                let far = u8::try_from(e + power).unwrap_or(2);
                push_until(state, v, d.opposite(), far, Some(stop));
            }
        }
        (Effect::PassThroughWall, Target::Side(q, d)) => {
            if let Some((beyond, _)) = state.board.across(q, d)
                && !state.blocks_entry(beyond)
            {
                set_pos(state, by, beyond);
                arrive(state, by, beyond);
            }
        }
        (Effect::Blade, Target::Wizard(v)) => hurt(state, v, power, Some(by), false),
        (Effect::KaBong, Target::Wizard(v)) => {
            hurt(state, v, e + power, Some(by), false);
            if let Some(w) = state.wizards.get_mut(v).filter(|w| w.alive()) {
                w.stun = w.stun.saturating_add(1);
            }
        }
        (Effect::Swap, Target::Wizard(v)) => {
            if let (Some(a), Some(b)) = (state.pos(by), state.pos(v)) {
                set_pos(state, by, b);
                set_pos(state, v, a);
            }
        }
        (Effect::MentalForce, Target::Wizard(v)) => hurt(state, v, e + power, Some(by), false),
        (Effect::Powerthrust, Target::Wizard(v)) => hurt(state, v, power * e, Some(by), false),
        (Effect::BrainBurn, Target::Wizard(v)) => {
            let n = state.wizard(v).map_or(0, |w| w.hand.len());
            hurt(state, v, i16::try_from(n).unwrap_or(0), Some(by), false);
        }
        (Effect::PsychicStorm, _) => {
            for v in state.living() {
                if v != by {
                    hurt(state, v, power, Some(by), false);
                }
            }
        }
        (Effect::Flood, _) => {
            let slot = state.origin(by).and_then(|p| state.board.slot_of(p));
            put_out(state, None, slot);
            for v in state.living() {
                if v != by && state.pos(v).and_then(|p| state.board.slot_of(p)) == slot {
                    drop_treasure(state, v);
                    hurt(state, v, power, Some(by), false);
                }
            }
        }
        (Effect::DropObject, Target::Wizard(v)) => drop_everything(state, v),
        (Effect::StoneDead, Target::Wizard(v)) => {
            if let Some(w) = state.wizards.get_mut(v) {
                w.stun = w.stun.saturating_add(p.energy.min(p.card.power()));
            }
        }
        (Effect::ThoughtSteal, Target::Wizard(v)) => state.needs.push(Need::Steal {
            thief: by,
            victim: v,
        }),
        (Effect::Shatter, Target::Item(v, card)) => {
            let gone = state
                .wizards
                .get_mut(v)
                .is_some_and(|w| take(&mut w.items, &card));
            if gone {
                put(&mut state.discard, card);
            }
        }
        (Effect::ShareLife, Target::Wizard(v)) => {
            let (a, b) = (
                state.wizard(by).map_or(0, |w| w.life),
                state.wizard(v).map_or(0, |w| w.life),
            );
            let sum = a + b;
            if let Some(w) = state.wizards.get_mut(v) {
                w.life = sum / 2;
            }
            if let Some(w) = state.wizards.get_mut(by) {
                w.life = (sum - sum / 2).min(MAX_LIFE);
            }
        }
        (Effect::Teleport, Target::Square(q)) => set_pos(state, by, q),
        (Effect::AstralProjection, Target::Square(q)) => state.turn.cast_from = Some(q),
        (Effect::Meditate, _) => queue_draws(state, by, u8::try_from(e + 1).unwrap_or(2)),
        (Effect::Windrider, _) => {
            let gain = u8::try_from(e + power).unwrap_or(0);
            state.turn.movement = state.turn.movement.saturating_add(gain);
        }
        (Effect::Dispel, Target::Spell(id)) => end_spell(state, id),
        (Effect::DestroyWall, Target::Side(q, d)) => destroy_line(state, q, d),
        (Effect::UniversalSolvent, Target::Side(q, d)) => destroy_line(state, q, d),
        (Effect::UniversalSolvent, Target::Object(id)) => destroy_object(state, id),
        (Effect::PickLock, Target::Side(q, d)) => {
            let side = state.board.canonical(q, d);
            state.turn.picked.push(side);
        }
        (Effect::RotateSector, Target::Rotate(slot, q)) => rotate(state, slot, q),
        (Effect::ThrownDamage, Target::Wizard(v)) => {
            let at = state.pos(v);
            hurt(state, v, power, Some(by), false);
            if let Some(at) = at {
                let id = state.new_id();
                state.objects.push(Object {
                    id,
                    card: p.card,
                    at,
                    cracks: 0,
                    spell: None,
                });
            }
        }
        (Effect::ThrownDamage, Target::Object(id)) => {
            // "If possible, a thrown object lands in the same square as its target. If ... the
            // target fills the entire square, the object lands in the square in front of the
            // barrier or target after striking it" (l.415-417).
            if let Some(o) = state.objects.iter().find(|o| o.id == id) {
                let (at, fills) = (o.at, o.fills_square());
                let lands = match (fills, state.pos(by)) {
                    (true, Some(from)) => in_front(state, from, at),
                    _ => at,
                };
                damage_object(state, id, power);
                let id = state.new_id();
                state.objects.push(Object {
                    id,
                    card: p.card,
                    at: lands,
                    cracks: 0,
                    spell: None,
                });
            }
        }
        (Effect::NullPowder, Target::Wizard(v)) => {
            let ids: Vec<u32> = state
                .spells
                .iter()
                .filter(|s| s.caster == v)
                .map(|s| s.id)
                .collect();
            for id in ids {
                end_spell(state, id);
            }
        }
        (Effect::BloodShard, Target::Wizard(v)) => {
            hurt(state, v, power, Some(by), false);
            if let Some(w) = state.wizards.get_mut(by) {
                w.life = (w.life + 1).min(MAX_LIFE);
            }
        }
        (
            Effect::CreateWall | Effect::WallOfEarth | Effect::WallOfFire | Effect::CreateDoor,
            Target::Side(q, d),
        ) => {
            let id = state.new_id();
            if let Some(edge) = state.board.edge_mut(q, d) {
                edge.created = Some(Created {
                    card: p.card,
                    spell: id,
                    cracks: 0,
                });
            }
            keep(state, p, id);
            in_play = true;
        }
        (
            Effect::Fog
            | Effect::StoneBlock
            | Effect::StoneSpikes
            | Effect::BoobyTrap
            | Effect::DustCloud
            | Effect::Rosebush
            | Effect::Thornbush,
            Target::Square(q),
        ) => {
            let id = state.new_id();
            let oid = state.new_id();
            state.objects.push(Object {
                id: oid,
                card: p.card,
                at: q,
                cracks: 0,
                spell: Some(id),
            });
            keep(state, p, id);
            in_play = true;
        }
        (
            Effect::AcidBath
            | Effect::SlowDeath
            | Effect::Invisible
            | Effect::SealDoor
            | Effect::FireClock
            | Effect::PainLink
            | Effect::Glue
            | Effect::MistBody
            | Effect::Homonculus
            | Effect::FoolsGold
            | Effect::Disease
            | Effect::ExtraArms
            | Effect::Strength,
            _,
        ) => {
            let id = state.new_id();
            keep(state, p, id);
            in_play = true;
        }
        _ => {}
    }
    let used_up = p.how != super::state::How::Weapon && p.card.effect() != Effect::ThrownDamage;
    if !in_play && used_up {
        put(&mut state.discard, p.card);
    }
    for &c in &p.spent {
        put(&mut state.discard, c);
    }
}

/// "Fire and water spells can often cancel each other out" (rulebook l.309, l.327): water puts
/// fire out. The fire spells in play (trait fire) aimed at the wizard `wizard`, or lying in the
/// sector slot `slot` (a Wall of Fire on a line of it, a Fire Clock on a wizard in it), end.
fn put_out(state: &mut State, wizard: Option<Seat>, slot: Option<usize>) {
    let in_slot = |p: Pos| slot.is_some() && state.board.slot_of(p) == slot;
    let ids: Vec<(u32, CardId)> = state
        .spells
        .iter()
        .filter(|s| s.card.has_trait(Trait::Fire))
        .filter(|s| match s.target {
            Target::Wizard(v) => wizard == Some(v) || state.pos(v).is_some_and(in_slot),
            Target::Side(q, d) => in_slot(q) || in_slot(q.step(d)),
            Target::Square(q) => in_slot(q),
            _ => false,
        })
        .map(|s| (s.id, s.card))
        .collect();
    for (id, card) in ids {
        state.note(format!("The water put out {}.", card.name()));
        end_spell(state, id);
    }
}

/// Puts the spell in play with its energy tokens.
fn keep(state: &mut State, p: &Pending, id: u32) {
    let temporary = State::duration(p.card) == Duration::Temporary;
    let tokens = match (temporary, p.card.effect()) {
        (false, _) => 0,
        (true, Effect::FireClock) => p.energy.saturating_add(1),
        (true, _) => p.energy,
    };
    state.spells.push(Spell {
        id,
        card: p.card,
        caster: p.by,
        energy: p.energy,
        tokens,
        target: p.target,
    });
}

fn wizard_of(t: Target) -> Option<(Seat, Option<Dir>)> {
    match t {
        Target::Wizard(s) => Some((s, None)),
        Target::WizardToward(s, d) => Some((s, Some(d))),
        _ => None,
    }
}

/// Damage from an attack on a wizard, or on a wall or door.
fn strike(state: &mut State, by: Seat, t: Target, amount: i16, fire: bool) {
    match t {
        Target::Wizard(v) => hurt(state, v, amount, Some(by), fire),
        Target::Side(q, d) => damage_line(state, q, d, amount),
        Target::Object(id) => damage_object(state, id, amount),
        _ => {}
    }
}

/// The last square a straight line from `from`'s dot to `to`'s (seen directly) passes
/// through before it enters `to`: the neighbour across the side of `to` it enters by. The line
/// enters by the later of the two sides facing it, the east or west side when it runs more
/// east–west (|dx| ≥ |dy|: a tie is a corner, decided as knock-backs are, ruling 18). `to`
/// itself if no square lies there.
fn in_front(state: &State, from: Pos, to: Pos) -> Pos {
    let (a, b) = (dot(from), dot(to));
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let d = match (dx.abs() >= dy.abs(), dx > 0, dy > 0) {
        (true, true, _) => Dir::West,
        (true, false, _) => Dir::East,
        (false, _, true) => Dir::North,
        (false, _, false) => Dir::South,
    };
    let back = to.step(d);
    if state.board.exists(back) { back } else { to }
}

/// Whether an object can be attacked and cracked: "created objects and dropped objects can be
/// attacked if specified on their Magic card" (l.397). Stone Block, Rosebush and Thornbush
/// say so (their number is the crack limit).
pub fn breakable(card: CardId) -> bool {
    matches!(
        card.effect(),
        Effect::StoneBlock | Effect::Rosebush | Effect::Thornbush
    )
}

/// Cracks on an object with a crack limit (its card's number); at the limit it is destroyed.
pub fn damage_object(state: &mut State, id: u32, damage: i16) {
    let Some(o) = state.objects.iter_mut().find(|o| o.id == id) else {
        return;
    };
    if !breakable(o.card) {
        return;
    }
    o.cracks = o.cracks.saturating_add(cracks(damage));
    if o.cracks >= o.card.power() {
        destroy_object(state, id);
    }
}

/// "For every 3 damage dealt to an object, it suffers one crack": walls fall at 5, doors at 3,
/// created stone walls at their card's number; outer walls and walls of earth are immune.
pub fn damage_line(state: &mut State, q: Pos, d: Dir, damage: i16) {
    let n = cracks(damage);
    let Some(edge) = state.board.edge_mut(q, d) else {
        return;
    };
    if let Some(c) = edge.created.as_mut() {
        if matches!(c.card.effect(), Effect::CreateWall | Effect::CreateDoor) {
            c.cracks = c.cracks.saturating_add(n);
            if c.cracks >= c.card.power() {
                let spell = c.spell;
                end_spell(state, spell);
            }
        }
        return;
    }
    if edge.destroyed {
        return;
    }
    let limit = match edge.kind {
        EdgeKind::Wall => super::board::WALL_CRACKS,
        EdgeKind::Door(_) => super::board::DOOR_CRACKS,
        EdgeKind::Open | EdgeKind::Outer => return,
    };
    edge.cracks = edge.cracks.saturating_add(n);
    if edge.cracks >= limit {
        edge.destroyed = true;
        edge.cracks = 0;
    }
}

fn destroy_line(state: &mut State, q: Pos, d: Dir) {
    let Some(edge) = state.board.edge_mut(q, d) else {
        return;
    };
    if let Some(c) = edge.created {
        end_spell(state, c.spell);
        return;
    }
    if edge.kind != EdgeKind::Outer && edge.kind != EdgeKind::Open {
        edge.destroyed = true;
        edge.cracks = 0;
    }
}

fn destroy_object(state: &mut State, id: u32) {
    let Some(i) = state.objects.iter().position(|o| o.id == id) else {
        return;
    };
    match state.objects.get(i).and_then(|o| o.spell) {
        Some(spell) => end_spell(state, spell),
        None => {
            let o = state.objects.remove(i);
            put(&mut state.discard, o.card);
        }
    }
}

fn drop_everything(state: &mut State, v: Seat) {
    drop_treasure(state, v);
    let items = state.wizard(v).map(|w| w.items.clone()).unwrap_or_default();
    for c in items {
        let _ = drop_item(state, v, c);
    }
}

/// The direction straight away from `from` (the attacker's square) for the wizard `victim`:
/// along the longer axis of the line between them as seen (through a link too); a tie goes
/// east-west.
fn away(state: &State, by: Seat, from: Option<Pos>, victim: Seat) -> Option<Dir> {
    let (from, to) = (from?, state.pos(victim)?);
    let sight = state.sight_for(by);
    let b = sight.sees(from, to).unwrap_or_else(|| dot(to));
    let a = dot(from);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    if dx == 0 && dy == 0 {
        return None;
    }
    Some(if dx.abs() >= dy.abs() {
        if dx > 0 { Dir::East } else { Dir::West }
    } else if dy > 0 {
        Dir::South
    } else {
        Dir::North
    })
}

/// Moves a wizard up to `squares` straight on, stopping at a barrier ("never around a corner");
/// the squares it moved.
pub fn push(state: &mut State, victim: Seat, d: Dir, squares: u8) -> u8 {
    push_until(state, victim, d, squares, None)
}

/// [`push`], stopping early on reaching the square `stop` (Gravity: the caster's square).
fn push_until(state: &mut State, victim: Seat, d: Dir, squares: u8, stop: Option<Pos>) -> u8 {
    let Some(mut p) = state.pos(victim) else {
        return 0;
    };
    let mut h = d;
    let mut moved = 0;
    for _ in 0..squares {
        if Some(p) == stop || !state.open_line(p, h) {
            break;
        }
        let Some((q, nh)) = state.board.across(p, h) else {
            break;
        };
        if state.blocks_entry(q) {
            break;
        }
        (p, h) = (q, nh);
        moved += 1;
    }
    set_pos(state, victim, p);
    moved
}

/// Featherweight: drift `squares` away from the attacker's square, or `toward` if chosen.
pub fn drift(state: &mut State, seat: Seat, from: Option<Pos>, toward: Option<Dir>, squares: u8) {
    let dir = toward.or_else(|| {
        let attacker = state.turn.seat;
        away(state, attacker, from, seat)
    });
    if let Some(d) = dir {
        push(state, seat, d, squares);
    }
}

/// The bolt flies `3 x (energy + 1)` squares, turning back when a line stops it; 3 damage each
/// time it enters a square with another wizard; a stun token to each wizard it hit.
fn lightning(state: &mut State, by: Seat, d: Dir, energy: i16) {
    // From the square the caster's spells are traced from (Astral Projection's, this turn).
    let Some(mut p) = state.origin(by) else {
        return;
    };
    let power = CardId::by_key("lightning_bolt").map_or(3, |c| i16::from(c.power()));
    let mut left = 3 * (energy + 1);
    let mut h = d;
    let mut hit: Vec<Seat> = Vec::new();
    let mut turned_back = false;
    while left > 0 {
        let next = state
            .open_line(p, h)
            .then(|| state.board.across(p, h))
            .flatten()
            .filter(|(q, _)| !state.blocks_entry(*q));
        match next {
            Some((q, nh)) => {
                (p, h) = (q, nh);
                left -= 1;
                turned_back = false;
                for v in state.wizards_at(p) {
                    if v != by {
                        hurt(state, v, power, Some(by), false);
                        if !hit.contains(&v) {
                            hit.push(v);
                        }
                    }
                }
            }
            None if turned_back => break,
            None => {
                h = h.opposite();
                turned_back = true;
            }
        }
    }
    for v in hit {
        if state.alive(v)
            && let Some(w) = state.wizards.get_mut(v)
        {
            w.stun = w.stun.saturating_add(1);
        }
    }
}

/// Rotate Sector: everything on the sector turns with it.
fn rotate(state: &mut State, slot: usize, quarters: u8) {
    let (moved, ended) = state.board.rotate(slot, quarters);
    let map = |p: Pos| -> Pos {
        moved
            .iter()
            .find(|(old, _)| *old == p)
            .map_or(p, |(_, new)| *new)
    };
    for w in &mut state.wizards {
        w.at = w.at.map(map);
    }
    for t in &mut state.treasures {
        t.at = t.at.map(map);
    }
    for o in &mut state.objects {
        o.at = map(o.at);
    }
    state.turn.cast_from = state.turn.cast_from.map(map);
    state.turn.picked.clear();
    // From edition 1 the spells in play aimed at a square or a line of the sector turn with
    // it, so that they go on naming what they are on (audit 2026-11-28, B3). A line of the
    // outer ring is rebuilt and its spells end below, whatever their target says.
    if state.options.edition >= 1 {
        for s in &mut state.spells {
            s.target = match s.target {
                Target::Square(p) => Target::Square(map(p)),
                Target::Side(p, d) if moved.iter().any(|(o, _)| *o == p) => {
                    Target::Side(map(p), d.turned(quarters))
                }
                t => t,
            };
        }
    }
    // A sealed door on the turned sector's squares is unsealed (its spell ends).
    let sealed: Vec<u32> = state
        .spells
        .iter()
        .filter(|s| s.card.effect() == Effect::SealDoor)
        .filter(|s| match s.target {
            Target::Side(q, d) => [Some(q), state.board.across(q, d).map(|(r, _)| r)]
                .into_iter()
                .flatten()
                .any(|r| state.board.slot_of(r) == Some(slot)),
            _ => false,
        })
        .map(|s| s.id)
        .collect();
    for id in sealed {
        end_spell(state, id);
    }
    for id in ended {
        end_spell(state, id);
    }
}
