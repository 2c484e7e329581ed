//! Playing cards: which cards may be played, their targets (range, line of sight, Around the
//! Corner), building a cast step by step (card, target, energy), and the reaction windows of
//! counter spells. Above the effect code: a cast committed, or a window closed, runs its card's
//! effect (`effects`); damage goes through `changes`.

use std::cell::OnceCell;

use super::actions::Action;
use super::board::{Dir, EdgeKind, Pos};
use super::cards::{Aim, CardId, Effect, Kind, Range};
use super::changes::{hurt, land_punch};
use super::effects;
use super::sight::Sight;
use super::state::{
    Casting, How, Pending, State, Target, adjacent, evades, leaded, put, take, tally,
};
use crate::rules::{RuleError, Seat};

/// Card actions in move and cast: cast, play an item, throw, wield, punch. With `want`, only
/// `want` among the casts, throws, wields and punches, if it is one of them (the targets of the
/// other cards are not worked out).
pub fn card_actions_for(state: &State, seat: Seat, want: Option<&Action>) -> Vec<Action> {
    let mut out = Vec::new();
    let Some(w) = state.wizard(seat) else {
        return out;
    };
    let wanted = |a: &Action| want.is_none_or(|w| w == a);
    let stunned = state.turn.stunned;
    let may_attack = may_attack(state);
    let sight_cell = OnceCell::new();
    let sight = || sight_cell.get_or_init(|| state.sight_for(seat));
    if !stunned {
        for (card, _) in tally(&w.hand) {
            let Some(def) = card.def() else { continue };
            let castable = match def.kind {
                Kind::Item => {
                    out.push(Action::Play(card));
                    false
                }
                Kind::Attack => may_attack,
                Kind::Neutral => !matches!(
                    def.effect,
                    Effect::Add | Effect::AroundTheCorner | Effect::Later
                ),
                _ => false,
            };
            if castable
                && wanted(&Action::Cast(card))
                && !targets_in_sight(state, sight(), seat, card, How::Cast, None).is_empty()
            {
                out.push(Action::Cast(card));
            }
        }
    }
    let mundane_attack = may_attack && !(stunned && state.turn.moved);
    // Extra Arms: one more punch a turn, even after the attack.
    let extra_punch = extra_punch(state, seat) && !(stunned && state.turn.moved);
    if extra_punch && !mundane_attack && want.is_none_or(|w| matches!(w, Action::Punch(_))) {
        for s in punchable(state, sight(), seat) {
            out.push(Action::Punch(s));
        }
    }
    if mundane_attack {
        for (card, _) in tally(&w.items) {
            let Some(def) = card.def() else { continue };
            let how = if def.traits.contains(&super::cards::Trait::ThrownWeapon) {
                How::Throw
            } else if def.traits.contains(&super::cards::Trait::Weapon) {
                How::Weapon
            } else {
                continue;
            };
            let action = match how {
                How::Throw => Action::Throw(card),
                _ => Action::Wield(card),
            };
            if wanted(&action)
                && !targets_in_sight(state, sight(), seat, card, how, None).is_empty()
            {
                out.push(action);
            }
        }
        if want.is_none_or(|w| matches!(w, Action::Punch(_))) {
            for s in punchable(state, sight(), seat) {
                out.push(Action::Punch(s));
            }
        }
    }
    out
}

/// "One attack per turn ... and none in a player's first turn."
fn may_attack(state: &State) -> bool {
    !state.turn.attacked && !state.turn.first
}

/// Extra Arms: after the turn's attack, `seat` may still punch once (not in its first turn).
fn extra_punch(state: &State, seat: Seat) -> bool {
    state.turn.attacked
        && !state.turn.first
        && !state.turn.extra_punch
        && state.maintains(seat, Effect::ExtraArms)
}

/// Stretch: the squares `seat`'s stretched limbs reach from `from` this turn, up to
/// `turn.reach` squares straight on through open lines (a filled square stops them), in sight.
fn stretched(state: &State, sight: &Sight, seat: Seat, from: Pos) -> Vec<Pos> {
    let mut out = Vec::new();
    if state.turn.seat != seat || state.turn.reach == 0 {
        return out;
    }
    let filled = state.filled();
    for d in Dir::ALL {
        let (mut p, mut h) = (from, d);
        for _ in 0..state.turn.reach {
            if !state.open_line(p, h) {
                break;
            }
            let Some((q, nh)) = state.board.across(p, h) else {
                break;
            };
            (p, h) = (q, nh);
            if sight.sees_square(from, p) && !out.contains(&p) {
                out.push(p);
            }
            if filled.contains(&p) {
                break;
            }
        }
    }
    out
}

/// The wizards `seat` may punch; `sight` is `seat`'s.
fn punchable(state: &State, sight: &Sight, seat: Seat) -> Vec<Seat> {
    let Some(at) = state.pos(seat) else {
        return Vec::new();
    };
    let reach = stretched(state, sight, seat, at);
    state
        .living()
        .into_iter()
        .filter(|&s| s != seat)
        .filter(|&s| {
            state
                .pos(s)
                .is_some_and(|p| adjacent(state, sight, at, p) || reach.contains(&p))
        })
        .collect()
}

fn in_range(state: &State, sight: &Sight, range: Range, from: Pos, to: Pos) -> bool {
    match range {
        Range::Caster => from == to,
        Range::Adjacent => adjacent(state, sight, from, to),
        Range::Sight => sight.sees_square(from, to),
        Range::Anywhere => true,
    }
}

/// Whether a border line stops a spell's flight (sight), for Around the Corner's legs.
fn sight_line_open(state: &State, p: Pos, d: Dir) -> bool {
    state.board.edge(p, d).is_some_and(|e| match e.created {
        Some(c) => c.card.effect() == Effect::WallOfFire,
        None => e.destroyed || e.kind == EdgeKind::Open,
    })
}

/// Flies straight from `from` (not included) heading `h`, adding each square it enters to
/// `out`; a square an object fills is reached but stops the flight.
fn flight_squares(state: &State, filled: &[Pos], from: Pos, h: Dir, out: &mut Vec<Pos>) {
    let (mut p, mut h) = (from, h);
    for _ in 0..20 {
        if !sight_line_open(state, p, h) {
            return;
        }
        let Some((q, nh)) = state.board.across(p, h) else {
            return;
        };
        (p, h) = (q, nh);
        if !out.contains(&p) {
            out.push(p);
        }
        if filled.contains(&p) {
            return;
        }
    }
}

/// Around the Corner: the squares a spell reaches when it flies straight from the caster to a
/// square, then turns 90 degrees, or 180 degrees by stepping one square sideways and flying
/// back (rulebook l.511-517).
pub fn bent_squares(state: &State, origin: Pos) -> Vec<Pos> {
    let filled = state.filled();
    let mut out = Vec::new();
    for d in Dir::ALL {
        let (mut p, mut h) = (origin, d);
        for _ in 0..20 {
            if !sight_line_open(state, p, h) {
                break;
            }
            let Some((q, nh)) = state.board.across(p, h) else {
                break;
            };
            (p, h) = (q, nh);
            if filled.contains(&p) {
                break;
            }
            for side in [h.turned(1), h.turned(3)] {
                flight_squares(state, &filled, p, side, &mut out);
                if sight_line_open(state, p, side)
                    && let Some((c2, sh)) = state.board.across(p, side)
                {
                    if !out.contains(&c2) {
                        out.push(c2);
                    }
                    if filled.contains(&c2) {
                        continue;
                    }
                    let turn = side.quarters_to(sh);
                    let back = h.opposite().turned(turn);
                    flight_squares(state, &filled, c2, back, &mut out);
                }
            }
        }
    }
    out
}

fn wall_target(state: &State, p: Pos, d: Dir, aim: Aim) -> bool {
    let Some(e) = state.board.edge(p, d) else {
        return false;
    };
    if !state.board.exists(p.step(d)) && e.kind == EdgeKind::Outer {
        return false;
    }
    match aim {
        // A line a wall can be created on: nothing on it, between two squares of the board.
        Aim::BorderLine => e.empty() && state.board.exists(p.step(d)),
        // Destroy Wall: a standing stone wall, or a created stone wall.
        Aim::Wall => match e.created {
            Some(c) => c.card.effect() == Effect::CreateWall,
            None => e.built() && e.kind == EdgeKind::Wall,
        },
        // An attack on a wall or door (or a created wall).
        _ => match e.created {
            Some(c) => c.card.effect() != Effect::WallOfFire,
            None => e.built() && e.kind != EdgeKind::Outer,
        },
    }
}

/// A side of `p` the card `def` may aim at: [`wall_target`], and for Pass Through Wall a wall
/// with a square beyond it that may be entered.
fn side_target(state: &State, def: &super::cards::CardDef, p: Pos, d: Dir) -> bool {
    wall_target(state, p, d, def.aim)
        && (def.effect != Effect::PassThroughWall
            || state
                .board
                .across(p, d)
                .is_some_and(|(q, _)| !state.blocks_entry(q)))
}

/// The legal targets of `card` used `how` by `seat`, with whether Around the Corner is needed.
/// Border lines are chosen in two steps: a square (`square` none), then one of its sides.
pub fn targets(
    state: &State,
    seat: Seat,
    card: CardId,
    how: How,
    square: Option<Pos>,
) -> Vec<(Target, bool)> {
    targets_in_sight(state, &state.sight_for(seat), seat, card, how, square)
}

/// [`targets`], with the caster's sight computed once.
fn targets_in_sight(
    state: &State,
    sight: &Sight,
    seat: Seat,
    card: CardId,
    how: How,
    square: Option<Pos>,
) -> Vec<(Target, bool)> {
    let mut out = Vec::new();
    let Some(def) = card.def() else { return out };
    let Some(me) = state.pos(seat) else {
        return out;
    };
    let origin = if how == How::Cast {
        state.origin(seat).unwrap_or(me)
    } else {
        me
    };
    let range = def.range;
    let lines = matches!(def.aim, Aim::BorderLine | Aim::Wall | Aim::WizardOrWall);
    // A wall of an adjacent-range spell (Wallivore, Pass Through Wall): on a side of the
    // caster's square, "a stone wall on a side of your square": from edition 1 the body's
    // square, never the square Astral Projection casts from (audit 2026-11-28, B1).
    let own_square_only = range == Range::Adjacent && matches!(def.aim, Aim::Wall);
    let edition = state.options.edition;
    let line_origin = if own_square_only && edition >= 1 {
        me
    } else {
        origin
    };
    // "it cannot move square to square" (Glue): from edition 1 no Pass Through Wall either
    // (B6).
    if def.effect == Effect::PassThroughWall && edition >= 1 && state.glued(seat) {
        return out;
    }
    if let Some(p) = square {
        if lines && (!own_square_only || p == line_origin) {
            for d in Dir::ALL {
                if side_target(state, def, p, d) && sight.sees_side(line_origin, p, d) {
                    out.push((Target::Side(p, d), false));
                }
            }
        }
        return out;
    }
    let visible = || -> Vec<Pos> {
        sight
            .squares()
            .iter()
            .copied()
            .filter(|&p| sight.sees_square(origin, p))
            .collect()
    };
    // Around the Corner bends any spell cast at a target it must see (a wizard, a square, an
    // object, an item carried) round one corner; border lines are targeted only directly.
    let bendable = how == How::Cast
        && matches!(def.kind, Kind::Attack | Kind::Neutral)
        && range == Range::Sight
        && state
            .wizard(seat)
            .is_some_and(|w| w.hand.iter().any(|c| c.effect() == Effect::AroundTheCorner));
    let bent_cell: OnceCell<Vec<Pos>> = OnceCell::new();
    let bent = |p: Pos| {
        bendable
            && bent_cell
                .get_or_init(|| bent_squares(state, origin))
                .contains(&p)
    };
    match def.aim {
        Aim::Nothing => out.push((Target::None, false)),
        Aim::Wizard | Aim::WizardOrWall => {
            // Stretch: adjacent-range spells reach further this turn.
            let reach = if range == Range::Adjacent && how == How::Cast {
                stretched(state, sight, seat, origin)
            } else {
                Vec::new()
            };
            for s in state.living() {
                if s == seat || unseen(state, s, how, range) {
                    continue;
                }
                let Some(p) = state.pos(s) else { continue };
                if in_range(state, sight, range, origin, p) || reach.contains(&p) {
                    if matches!(def.effect, Effect::Waterbolt | Effect::HeaveHo) && p == origin {
                        out.extend(Dir::ALL.map(|d| (Target::WizardToward(s, d), false)));
                    } else {
                        out.push((Target::Wizard(s), false));
                    }
                } else if bent(p) {
                    out.push((Target::Wizard(s), true));
                }
            }
            // From edition 1 a Large Rock may be thrown at an object that can be attacked, seen
            // directly: "The yellow wizard throws a large rock through a destroyed wall and hits
            // a stone block" (l.423; audit 2026-11-28, group 43; ruling 33).
            if how == How::Throw && def.effect == Effect::ThrownDamage && edition >= 1 {
                for o in &state.objects {
                    if effects::breakable(o.card)
                        && o.at != origin
                        && sight.sees(origin, o.at) == Some(super::sight::dot(o.at))
                    {
                        out.push((Target::Object(o.id), false));
                    }
                }
            }
            if def.aim == Aim::WizardOrWall {
                // Objects whose card gives a crack limit can be attacked (Stone Block).
                for o in &state.objects {
                    if effects::breakable(o.card) && o.at != origin {
                        if sight.sees_square(origin, o.at) {
                            out.push((Target::Object(o.id), false));
                        } else if bent(o.at) {
                            out.push((Target::Object(o.id), true));
                        }
                    }
                }
                for p in visible() {
                    if Dir::ALL.iter().any(|&d| {
                        wall_target(state, p, d, def.aim) && sight.sees_side(origin, p, d)
                    }) {
                        out.push((Target::Square(p), false));
                    }
                }
            }
        }
        Aim::BorderLine | Aim::Wall => {
            let squares = if own_square_only {
                vec![line_origin]
            } else {
                visible()
            };
            for p in squares {
                if Dir::ALL
                    .iter()
                    .any(|&d| side_target(state, def, p, d) && sight.sees_side(line_origin, p, d))
                {
                    out.push((Target::Square(p), false));
                }
            }
        }
        Aim::Door => {
            // "Adjacent: ... a target that is in the same square as himself or an adjacent
            // square. The target must also be within the wizard's line of sight" (l.192): a door
            // on a side of the caster's square or of a square next to it, seen itself (l.232).
            let mut near = vec![origin];
            near.extend(
                state
                    .neighbours(origin)
                    .into_iter()
                    .filter(|&q| adjacent(state, sight, origin, q)),
            );
            let mut seen: Vec<(Pos, Dir)> = Vec::new();
            for p in near {
                for d in Dir::ALL {
                    let door = state.board.edge(p, d).is_some_and(|e| {
                        e.created.is_none() && !e.destroyed && matches!(e.kind, EdgeKind::Door(_))
                    });
                    let line = state.board.canonical(p, d);
                    if door
                        && !seen.contains(&line)
                        && (p == origin || sight.sees_side(origin, p, d))
                    {
                        seen.push(line);
                        out.push((Target::Side(p, d), false));
                    }
                }
            }
        }
        Aim::Barrier => {
            for d in Dir::ALL {
                let standing = state.board.edge(origin, d).is_some_and(|e| {
                    e.created.is_some() || (e.built() && e.kind != EdgeKind::Outer)
                });
                if standing {
                    out.push((Target::Side(origin, d), false));
                }
            }
            for o in &state.objects {
                if adjacent(state, sight, origin, o.at) {
                    out.push((Target::Object(o.id), false));
                }
            }
        }
        Aim::Square | Aim::EmptySquare => {
            let fits = |p: Pos| {
                if def.effect == Effect::Teleport && edition >= 1 {
                    // "a square you can see that no object fills" (Teleport's text; B2): not
                    // Fog or a Dust Cloud; a Rosebush, which fills nothing, lets it in.
                    p != me && !state.objects.iter().any(|o| o.at == p && o.fills_square())
                } else if def.aim == Aim::Square {
                    p != me && !state.blocks_entry(p)
                } else {
                    state.creatable(p)
                }
            };
            let seen = visible();
            for &p in &seen {
                if fits(p) {
                    out.push((Target::Square(p), false));
                }
            }
            if bendable {
                for &p in sight.squares() {
                    if !seen.contains(&p) && fits(p) && bent(p) {
                        out.push((Target::Square(p), true));
                    }
                }
            }
        }
        Aim::Treasure => {
            for (i, t) in state.treasures.iter().enumerate() {
                if let Some(p) = t.at
                    && in_range(state, sight, range, origin, p)
                    && !leaded(state, i)
                {
                    out.push((Target::Treasure(i), false));
                }
            }
        }
        Aim::Spell => {
            for s in &state.spells {
                out.push((Target::Spell(s.id), false));
            }
        }
        Aim::Sector => {
            for slot in 0..state.board.slots.len() {
                for q in 1..4 {
                    out.push((Target::Rotate(slot, q), false));
                }
            }
        }
        Aim::Direction => out.extend(Dir::ALL.map(|d| (Target::Direction(d), false))),
        Aim::CarriedItem => {
            for s in state.living() {
                if s == seat || unseen(state, s, how, range) {
                    continue;
                }
                let Some(p) = state.pos(s) else { continue };
                let seen = sight.sees_square(origin, p);
                let bent_to = !seen && bent(p);
                if let (true, Some(w)) = (seen || bent_to, state.wizard(s)) {
                    for (c, _) in tally(&w.items) {
                        out.push((Target::Item(s, c), bent_to));
                    }
                }
            }
        }
        Aim::Creature => {}
    }
    out
}

/// Invisible: a spell that needs line of sight (range line of sight or adjacent) cannot be
/// cast at the wizard `s` or an item it carries (docs/rules/wiz-war.md, ruling 30). Thrown
/// items, weapons and punches are not spells.
fn unseen(state: &State, s: Seat, how: How, range: Range) -> bool {
    how == How::Cast && matches!(range, Range::Sight | Range::Adjacent) && state.invisible(s)
}

/// The cards `seat` may spend as energy for the cast being built: every card in hand showing an
/// energy value, less the card being cast and the Around the Corner a bent target spends
/// (`extra` more cards set aside: the Add of a two-card boost). With copies: (card, count).
fn energy_pool(state: &State, seat: Seat, extra: Option<CardId>) -> Vec<(CardId, usize)> {
    let Some(w) = state.wizard(seat) else {
        return Vec::new();
    };
    let mut hand = w.hand.clone();
    if let Some(c) = &state.casting {
        if c.how == How::Cast {
            take(&mut hand, &c.card);
        }
        if c.bent
            && let Some(corner) = CardId::by_key("around_the_corner")
        {
            take(&mut hand, &corner);
        }
    }
    if let Some(x) = extra {
        take(&mut hand, &x);
    }
    tally(&hand)
        .into_iter()
        .filter(|(c, _)| c.energy_value() > 0)
        .map(|(c, n)| (c, usize::try_from(n).unwrap_or(0)))
        .collect()
}

/// Whether the cast asks for energy: every spell does (l.297: "when a player casts a spell, he
/// may also discard one energy card to fuel the spell"), even from a hand without energy
/// cards (then only "no boost" or "cancel"): committing it without asking would tell everyone
/// that the hand holds none (docs/rules/wiz-war.md, "Casting"). Thrown items and weapons are
/// not spells.
fn boostable(casting: &Casting) -> bool {
    casting.how == How::Cast
}

/// The steps of a cast in progress.
pub fn casting_actions(state: &State, seat: Seat) -> Vec<Action> {
    let Some(casting) = &state.casting else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if casting.target.is_none() {
        for (t, _) in targets(state, seat, casting.card, casting.how, casting.square) {
            let a = Action::Target(t);
            if !out.contains(&a) {
                out.push(a);
            }
        }
    } else {
        let cards = energy_pool(state, seat, None);
        out.extend(cards.iter().map(|&(c, _)| Action::Boost(c)));
        let add = CardId::by_key("add");
        let holds_add = state
            .wizard(seat)
            .is_some_and(|w| add.is_some_and(|a| w.hand.contains(&a)));
        if let (true, Some(add)) = (holds_add, add) {
            let pool = energy_pool(state, seat, Some(add));
            for (i, &(a, n)) in pool.iter().enumerate() {
                for &(b, _) in pool.iter().skip(i) {
                    if a != b || n >= 2 {
                        out.push(Action::BoostAdd(a, b));
                    }
                }
            }
        }
        out.push(Action::NoBoost);
    }
    out.push(Action::CancelCast);
    out
}

/// Decisions that start or build a cast, play an item, or punch.
pub fn decide(state: &mut State, seat: Seat, action: &Action) -> Result<(), RuleError> {
    let start = |card: CardId, how: How| Casting {
        card,
        how,
        square: None,
        target: None,
        bent: false,
    };
    match *action {
        Action::Cast(card) => state.casting = Some(start(card, How::Cast)),
        Action::Throw(card) => state.casting = Some(start(card, How::Throw)),
        Action::Wield(card) => state.casting = Some(start(card, How::Weapon)),
        Action::Play(card) => {
            let w = state
                .wizards
                .get_mut(seat)
                .ok_or_else(|| RuleError::illegal("no such seat"))?;
            if !take(&mut w.hand, &card) {
                return Err(RuleError::illegal("that card is not in your hand"));
            }
            put(&mut w.items, card);
            return Ok(());
        }
        Action::Punch(victim) => {
            if state.turn.attacked {
                // Extra Arms' one more punch.
                state.turn.extra_punch = true;
            }
            state.turn.attacked = true;
            state.note(format!("Seat {seat} punched Seat {victim}."));
            if evades(state, victim) {
                // Gnome Form: the evasion roll first (a chance step).
                state.needs.push(super::state::Need::Evade {
                    by: seat,
                    victim,
                    attack: None,
                });
            } else {
                // The damage, or the form's die first (the Werewolf's d4).
                land_punch(state, seat, victim);
            }
            return Ok(());
        }
        Action::CancelCast => {
            // From edition 1 a named spell is committed (audit 2026-11-28, the leak "a card
            // named before it is committed and taken back"; ruling 32): given up, it fizzles,
            // and the card goes face up to the discard pile with the Around the Corner a bent
            // target named; it never returns to the hand. Items thrown or wielded stay
            // carried (they were on the table already).
            if let Some(c) = state.casting.take()
                && c.how == How::Cast
                && state.options.edition >= 1
                && let Some(w) = state.wizards.get_mut(seat)
            {
                let corner = CardId::by_key("around_the_corner").filter(|_| c.bent);
                for card in std::iter::once(c.card).chain(corner) {
                    if take(&mut w.hand, &card) {
                        put(&mut state.discard, card);
                    }
                }
                state.note(format!(
                    "Seat {seat} gave up casting {}: it is discarded.",
                    c.card.name()
                ));
            }
            return Ok(());
        }
        Action::Target(t) => {
            let Some(casting) = state.casting.clone() else {
                return Err(RuleError::illegal("no spell is being cast"));
            };
            let found = targets(state, seat, casting.card, casting.how, casting.square)
                .into_iter()
                .find(|(x, _)| *x == t);
            let Some((_, bent)) = found else {
                return Err(RuleError::illegal("that is not a legal target"));
            };
            let two_step = casting.square.is_none()
                && matches!(t, Target::Square(_))
                && casting.card.def().is_some_and(|d| {
                    matches!(d.aim, Aim::BorderLine | Aim::Wall | Aim::WizardOrWall)
                });
            if let Some(c) = state.casting.as_mut() {
                match t {
                    Target::Square(p) if two_step => c.square = Some(p),
                    _ => {
                        c.target = Some(t);
                        c.bent = bent;
                    }
                }
            }
        }
        Action::Boost(card) => return commit(state, seat, card.energy_value(), vec![card]),
        Action::BoostAdd(a, b) => {
            let add = CardId::by_key("add").ok_or_else(|| RuleError::illegal("no Add card"))?;
            let sum = a.energy_value().saturating_add(b.energy_value());
            return commit(state, seat, sum, vec![a, b, add]);
        }
        Action::NoBoost => return commit(state, seat, 1, Vec::new()),
        _ => return Err(RuleError::NotYourDecision),
    }
    progress(state, seat)
}

/// Fills in the steps that have only one answer (no target to choose, no energy to add).
fn progress(state: &mut State, seat: Seat) -> Result<(), RuleError> {
    let Some(casting) = state.casting.clone() else {
        return Ok(());
    };
    if casting.target.is_none() {
        let aim_nothing = casting.card.def().is_some_and(|d| d.aim == Aim::Nothing);
        if !aim_nothing {
            return Ok(());
        }
        if let Some(c) = state.casting.as_mut() {
            c.target = Some(Target::None);
        }
    }
    let casting = state.casting.clone().unwrap_or(casting);
    if boostable(&casting) {
        return Ok(());
    }
    commit(state, seat, 1, Vec::new())
}

/// The cast is complete: its cards leave the hand, and a spell goes on the stack for its
/// reaction window (a mundane attack resolves at once).
fn commit(
    state: &mut State,
    seat: Seat,
    energy: u8,
    mut spent: Vec<CardId>,
) -> Result<(), RuleError> {
    let casting = state
        .casting
        .take()
        .ok_or_else(|| RuleError::illegal("no spell is being cast"))?;
    let target = casting
        .target
        .ok_or_else(|| RuleError::illegal("choose a target first"))?;
    if casting.bent
        && let Some(corner) = CardId::by_key("around_the_corner")
    {
        spent.push(corner);
    }
    let w = state
        .wizards
        .get_mut(seat)
        .ok_or_else(|| RuleError::illegal("no such seat"))?;
    let pile = if casting.how == How::Cast {
        &mut w.hand
    } else {
        &mut w.items
    };
    let used_up = casting.how != How::Weapon;
    if used_up && !take(pile, &casting.card) {
        return Err(RuleError::illegal("that card is not yours to use"));
    }
    for c in &spent {
        if !take(&mut w.hand, c) {
            return Err(RuleError::illegal(format!(
                "you have no {} to spend",
                c.name()
            )));
        }
    }
    let mut energy = energy;
    if casting.how == How::Cast {
        let stones = u8::try_from(state.carries(seat, Effect::Powerstone)).unwrap_or(0);
        energy = energy.saturating_add(stones);
    }
    let attack = casting.card.kind() == Some(Kind::Attack) || casting.how != How::Cast;
    if attack {
        state.turn.attacked = true;
    }
    let mut pending = Pending {
        by: seat,
        card: casting.card,
        how: casting.how,
        target,
        energy,
        spent,
        counter: false,
        toward: None,
        waiting: Vec::new(),
        bent: casting.bent,
    };
    state.note(format!(
        "Seat {seat} {} {}.",
        match casting.how {
            How::Cast => "cast",
            How::Throw => "threw",
            _ => "attacked with",
        },
        casting.card.name()
    ));
    if casting.how == How::Cast {
        pending.waiting = responders(state, &pending);
        state.stack.push(pending);
    } else {
        effects::attack(state, &pending);
    }
    Ok(())
}

/// The seats a window asks, in the rulebook's order (clockwise from the active wizard's left,
/// the active wizard last): every living wizard but the caster with the option
/// `ask_every_affected_wizard`, otherwise only those holding a counter that can answer it.
pub fn responders(state: &State, pending: &Pending) -> Vec<Seat> {
    let n = state.seats();
    (1..=n)
        .map(|i| (state.turn.seat + i) % n)
        .filter(|&s| s != pending.by && state.alive(s))
        .filter(|&s| {
            state.options.ask_every_affected_wizard || !counters(state, s, pending).is_empty()
        })
        .collect()
}

/// Whether a spell aimed at `target` is "cast at" the wizard `seat`: at the wizard, or at an
/// item the wizard carries (Shatter), which "is being carried by the player's wizard" (l.150).
fn aimed_at(target: Target, seat: Seat) -> bool {
    matches!(target, Target::Wizard(s) | Target::WizardToward(s, _) | Target::Item(s, _) if s == seat)
}

/// The counters `seat` holds that can answer `p`.
pub fn counters(state: &State, seat: Seat, p: &Pending) -> Vec<CardId> {
    let Some(w) = state.wizard(seat) else {
        return Vec::new();
    };
    if p.how != How::Cast || p.by == seat {
        return Vec::new();
    }
    let kind = p.card.kind();
    tally(&w.hand)
        .into_iter()
        .map(|(c, _)| c)
        .filter(|c| match c.effect() {
            Effect::Zot => true,
            // From edition 1 also a spell bent by Around the Corner, a neutral spell played
            // with it: negated, the bend fails and the spell is lost with it (audit
            // 2026-11-28, group 50; ruling 17).
            Effect::NegateNeutral => {
                kind == Some(Kind::Neutral) || (state.options.edition >= 1 && p.bent)
            }
            Effect::AntiAnti => kind == Some(Kind::Counter),
            Effect::FullShield | Effect::Featherweight | Effect::Backlash => {
                kind == Some(Kind::Attack) && aimed_at(p.target, seat)
            }
            Effect::Shield => {
                kind == Some(Kind::Attack) && aimed_at(p.target, seat) && p.energy <= c.power()
            }
            Effect::AbsorbSpell | Effect::Ward => {
                kind != Some(Kind::Counter) && aimed_at(p.target, seat)
            }
            _ => false,
        })
        .collect()
}

/// A window's choices for the seat that answers now: a counter, or pass.
pub fn window_actions(state: &State, seat: Seat) -> Vec<Action> {
    let Some(top) = state.stack.last() else {
        return Vec::new();
    };
    if top.waiting.first() != Some(&seat) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let same_square = state.pos(seat).is_some() && state.pos(seat) == state.origin(top.by);
    for c in counters(state, seat, top) {
        if c.effect() == Effect::Featherweight && same_square {
            out.extend(Dir::ALL.map(|d| Action::CounterToward(c, d)));
        } else {
            out.push(Action::Counter(c));
        }
    }
    out.push(Action::Pass);
    out
}

pub fn answer(state: &mut State, seat: Seat, action: &Action) -> Result<(), RuleError> {
    let Some(top) = state.stack.last_mut() else {
        return Err(RuleError::illegal("there is nothing to answer"));
    };
    if top.waiting.first() != Some(&seat) {
        return Err(RuleError::NotYourDecision);
    }
    top.waiting.remove(0);
    let (card, toward) = match *action {
        Action::Pass => return Ok(()),
        Action::Counter(c) => (c, None),
        Action::CounterToward(c, d) => (c, Some(d)),
        _ => return Err(RuleError::NotYourDecision),
    };
    let ok = state
        .wizards
        .get_mut(seat)
        .is_some_and(|w| take(&mut w.hand, &card));
    if !ok {
        return Err(RuleError::illegal("that card is not in your hand"));
    }
    let mut pending = Pending {
        by: seat,
        card,
        how: How::Cast,
        target: Target::None,
        energy: 1,
        spent: Vec::new(),
        counter: true,
        toward,
        waiting: Vec::new(),
        bent: false,
    };
    pending.waiting = responders(state, &pending);
    state.note(format!("Seat {seat} answered with {}.", card.name()));
    state.stack.push(pending);
    Ok(())
}

/// Resolves the top of the stack once its window has closed.
pub fn resolve_top(state: &mut State) {
    let Some(top) = state.stack.pop() else { return };
    if !top.counter {
        effects::attack(state, &top);
        return;
    }
    let Some(cancelled) = state.stack.pop() else {
        put(&mut state.discard, top.card);
        return;
    };
    state.note(format!(
        "{} cancelled Seat {}'s {}.",
        top.card.name(),
        cancelled.by,
        cancelled.card.name()
    ));
    match top.card.effect() {
        Effect::AbsorbSpell => {
            if let Some(w) = state.wizards.get_mut(top.by) {
                put(&mut w.hand, cancelled.card);
            }
        }
        _ => put(&mut state.discard, cancelled.card),
    }
    if top.card.effect() == Effect::Featherweight {
        let from = state.origin(cancelled.by);
        effects::drift(state, top.by, from, top.toward, top.card.power());
    }
    if top.card.effect() == Effect::Backlash {
        // The attack turned back on its caster. Until edition 1 the Backlash's player's attack
        // (a kill scored); from edition 1 a counter spell's damage, no attack, so a kill by it
        // scores nobody: a point needs a kill "with an attack" (l.488; audit 2026-11-28,
        // group 2; ruling 30.2).
        let by = (state.options.edition < 1).then_some(top.by);
        hurt(state, cancelled.by, i16::from(top.card.power()), by, false);
    }
    for c in cancelled.spent {
        put(&mut state.discard, c);
    }
    put(&mut state.discard, top.card);
}
