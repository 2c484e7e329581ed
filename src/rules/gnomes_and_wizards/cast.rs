//! Abilities: which can be cast, on what, resolving them, and the reaction windows in which
//! other players cast during the active player's turn.

use super::board::TileId;
use super::combat;
use super::data::{Ability, Effect, Token};
use super::state::{
    ActiveAnswer, After, Cast, Placement, Resolving, Source, State, Target, UnitRef, Window,
};
use crate::rules::Seat;

/// The tiles an ability of `owner` reaches from: its unit's tile (Innate, Learned) or, for a
/// Secret ability, the tile of any of `owner`'s units on the board.
fn origins(state: &State, owner: usize, source: Source) -> Vec<TileId> {
    let Some(p) = state.player(owner) else {
        return Vec::new();
    };
    match source {
        Source::Innate(slot) | Source::Learned(slot) => p
            .unit(slot)
            .filter(|u| u.on_board())
            .and_then(|u| u.tile)
            .into_iter()
            .collect(),
        Source::Secret(_) => p
            .units
            .iter()
            .filter(|u| u.on_board())
            .filter_map(|u| u.tile)
            .collect(),
    }
}

/// Whether `owner` may cast from `source` now (charged, on an active unit, or in hand).
pub fn castable(state: &State, owner: usize, source: Source) -> bool {
    let Some(p) = state.player(owner) else {
        return false;
    };
    match source {
        Source::Innate(slot) => {
            slot > 0
                && p.unit(slot)
                    .is_some_and(|u| u.on_board() && u.innate_full(p.tribe()))
        }
        Source::Learned(slot) => p
            .unit(slot)
            .is_some_and(|u| u.on_board() && u.learned_full()),
        Source::Secret(card) => p.hand.contains(&card) && p.has_units_on_board(),
    }
}

fn sources(state: &State, owner: usize) -> Vec<Source> {
    let Some(p) = state.player(owner) else {
        return Vec::new();
    };
    let mut out: Vec<Source> = Vec::new();
    for slot in 0..7u8 {
        out.push(Source::Innate(slot));
        out.push(Source::Learned(slot));
    }
    let mut hand = p.hand.clone();
    hand.dedup();
    out.extend(hand.into_iter().map(Source::Secret));
    out.into_iter()
        .filter(|&s| castable(state, owner, s))
        .collect()
}

/// The effect of `source` for `owner`, with the Leader bonus of a Learned ability on a Leader.
fn effect(state: &State, owner: usize, source: Source) -> Option<(&'static Ability, Effect)> {
    let ability = state.ability(owner, source)?;
    let on_leader = matches!(source, Source::Learned(0));
    Some((ability, ability.effect_with_bonus(on_leader)))
}

/// The legal targets of `source` for `owner` now.
pub fn targets(state: &State, owner: usize, source: Source) -> Vec<Target> {
    let Some((ability, effect)) = effect(state, owner, source) else {
        return Vec::new();
    };
    let mut reach: Vec<bool> = vec![false; state.geometry().len()];
    for o in origins(state, owner, source) {
        let dist = state.geometry().distances(o, |_| true);
        for (r, d) in reach.iter_mut().zip(dist) {
            *r |= d.is_some_and(|d| d <= ability.range);
        }
    }
    let in_range = |t: TileId| reach.get(usize::from(t)).copied().unwrap_or(false);
    let unit_in_range = |u: UnitRef| state.unit(u).and_then(|x| x.tile).is_some_and(in_range);
    let units = state.units_on_board();
    let enemies = || {
        units
            .iter()
            .copied()
            .filter(|u| !state.allied(owner, u.owner) && unit_in_range(*u))
    };
    let allies = || {
        units
            .iter()
            .copied()
            .filter(|u| state.allied(owner, u.owner) && unit_in_range(*u))
    };
    let lacks = |u: &UnitRef, token: Token| state.unit(*u).is_some_and(|x| !x.has(token));
    match effect {
        Effect::Damage(_) | Effect::Attack(_) => enemies().map(Target::Unit).collect(),
        Effect::Token(Token::Flying) => allies()
            .filter(|u| lacks(u, Token::Flying))
            .map(Target::Unit)
            .collect(),
        Effect::Token(token) => enemies()
            .filter(|u| lacks(u, token))
            .map(Target::Unit)
            .collect(),
        Effect::Defense(_) => allies()
            .filter(|u| state.unit(*u).is_some_and(|x| x.defense < x.max_defense()))
            .map(Target::Unit)
            .collect(),
        // From edition 1 the player chooses which ability is filled first (review R5).
        Effect::Crystals(_) if state.options.edition >= 1 => allies()
            .flat_map(|u| {
                let (innate, learned) = open_slots_of(state, u);
                [(innate, false), (learned, true)]
                    .into_iter()
                    .filter(|&(open, _)| open > 0)
                    .map(move |(_, learned)| Target::Crystals { unit: u, learned })
            })
            .collect(),
        Effect::Crystals(_) => allies()
            .filter(|u| open_slots(state, *u) > 0)
            .map(Target::Unit)
            .collect(),
        // The caster places its own unit; another player's unit (a teammate's, an ally's) is
        // placed by its controller when the cast resolves (l.383).
        Effect::Move(n) => allies()
            .flat_map(|u| {
                let to = move_destinations(state, u, n);
                if u.owner == owner {
                    to.into_iter()
                        .map(|to| Target::Move { unit: u, to })
                        .collect()
                } else if to.is_empty() {
                    Vec::new()
                } else {
                    vec![Target::Unit(u)]
                }
            })
            .collect(),
        Effect::Blockade => state
            .geometry()
            .ids()
            .filter(|&t| in_range(t) && state.tile(t).is_some_and(|s| s.blockade.is_none()))
            .map(Target::Tile)
            .collect(),
        Effect::FlipTile => state
            .geometry()
            .ids()
            .filter(|&t| in_range(t) && !state.flipped(t) && !state.is_mine(t))
            .map(Target::Tile)
            .collect(),
        // From edition 2 only a tile that was flipped: a position left without a tile (a
        // board of the players' own) has no tile to turn face up.
        Effect::RestoreTile => state
            .geometry()
            .ids()
            .filter(|&t| {
                in_range(t)
                    && state.flipped(t)
                    && !state.geometry().tile(t).is_some_and(|p| p.centre)
                    && (state.options.edition < 2
                        || state.tile(t).is_some_and(|s| s.card.is_some()))
            })
            .map(Target::Tile)
            .collect(),
    }
}

/// Face-up tiles `u` may be moved to by an ability moving it up to `n` spaces.
pub fn move_destinations(state: &State, u: UnitRef, n: u8) -> Vec<TileId> {
    let Some(unit) = state.unit(u) else {
        return Vec::new();
    };
    let Some(from) = unit.tile else {
        return Vec::new();
    };
    let dist = state.reach(from, unit.has(Token::Flying));
    state
        .geometry()
        .ids()
        .filter(|&t| {
            t != from
                && !state.flipped(t)
                && dist
                    .get(usize::from(t))
                    .copied()
                    .flatten()
                    .is_some_and(|d| d <= n)
        })
        .collect()
}

/// Empty crystal slots on `u`'s innate and Learned abilities.
pub fn open_slots(state: &State, u: UnitRef) -> u8 {
    let (innate, learned) = open_slots_of(state, u);
    innate.saturating_add(learned)
}

/// Empty crystal slots on `u`'s innate and on its Learned ability (none off the board).
fn open_slots_of(state: &State, u: UnitRef) -> (u8, u8) {
    let tribe = state.tribe_of(u.owner);
    let Some(unit) = state.unit(u) else {
        return (0, 0);
    };
    if !unit.on_board() {
        return (0, 0);
    }
    let innate = tribe
        .innate(unit.slot)
        .map_or(0, |a| a.cost.saturating_sub(unit.innate_charge));
    let learned = unit
        .learned
        .and_then(super::data::card)
        .map_or(0, |(_, a)| a.cost.saturating_sub(unit.learned_charge));
    (innate, learned)
}

/// Every cast `owner` may make now.
pub fn legal_casts(state: &State, owner: usize) -> Vec<Cast> {
    let mut out = Vec::new();
    for source in sources(state, owner) {
        for target in targets(state, owner, source) {
            out.push(Cast { source, target });
        }
    }
    out
}

pub fn is_legal(state: &State, owner: usize, cast: &Cast) -> bool {
    castable(state, owner, cast.source) && targets(state, owner, cast.source).contains(&cast.target)
}

/// Resolves a cast by `owner`: spends the ability and applies its effect. A cast whose target
/// is no longer legal (an earlier ability changed the board) fizzles: an ability on a unit
/// keeps its crystals, but a Secret card, shown when it was cast, is spent all the same
/// (docs/rules/gnomes-and-wizards.md: a card everyone saw cast must not stay in a secret hand).
pub fn resolve(state: &mut State, owner: usize, cast: Cast) {
    if !is_legal(state, owner, &cast) {
        if let Source::Secret(card) = cast.source
            && state.player(owner).is_some_and(|p| p.hand.contains(&card))
        {
            spend(state, owner, cast.source);
        }
        return;
    }
    let Some((_, effect)) = effect(state, owner, cast.source) else {
        return;
    };
    spend(state, owner, cast.source);
    let wake = |state: &mut State, u: UnitRef| {
        if let Some(x) = state.unit_mut(u) {
            x.counters.retain(|c| c.token != Token::Sleeping);
        }
    };
    match (effect, cast.target) {
        (Effect::Damage(n), Target::Unit(u)) => combat::damage(state, u, n, Some(owner)),
        (Effect::Attack(n), Target::Unit(u)) => {
            ability_attack(state, owner, cast.source, u, n);
        }
        (Effect::Defense(n), Target::Unit(u)) => {
            wake(state, u);
            if let Some(x) = state.unit_mut(u) {
                x.defense = x.defense.saturating_add(n).min(x.max_defense());
            }
        }
        (Effect::Move(_), Target::Move { unit, to }) => {
            wake(state, unit);
            move_unit(state, unit, to);
        }
        (Effect::Move(n), Target::Unit(u)) => {
            wake(state, u);
            state.placements.push(Placement { unit: u, spaces: n });
        }
        (Effect::Token(Token::LingeringAttack), Target::Unit(u)) => {
            let power = super::data::LINGERING_POWER;
            if ability_attack(state, owner, cast.source, u, power) {
                combat::give_counter(state, u, Token::LingeringAttack, owner);
            }
        }
        (Effect::Token(Token::Sleeping), Target::Unit(u)) => {
            combat::give_counter(state, u, Token::Sleeping, owner);
        }
        (Effect::Token(token), Target::Unit(u)) => {
            wake(state, u);
            combat::give_counter(state, u, token, owner);
        }
        (Effect::Blockade, Target::Tile(t)) => {
            if let Some(tile) = state.tile_mut(t) {
                tile.blockade = Some(owner);
            }
        }
        (Effect::Crystals(n), Target::Unit(u)) => {
            wake(state, u);
            charge(state, u, n, false);
        }
        (Effect::Crystals(n), Target::Crystals { unit, learned }) => {
            wake(state, unit);
            charge(state, unit, n, learned);
        }
        // "The player will not get points for enemy units defeated by fall damage even if it
        // was from an ability cast by the player" (l.590) is solo's exception: otherwise the
        // caster dealt the final blow (l.257).
        (Effect::FlipTile, Target::Tile(t)) => {
            let by = (!state.solo()).then_some(owner);
            combat::flip(state, t, by);
        }
        (Effect::RestoreTile, Target::Tile(t)) => {
            if let Some(tile) = state.tile_mut(t) {
                tile.flipped = false;
            }
        }
        _ => {}
    }
}

/// An ability's attack of `power` by `owner` on `target` (after the solo strike-back, which may
/// defeat the attacker first). Returns whether it was made.
fn ability_attack(
    state: &mut State,
    owner: usize,
    source: Source,
    target: UnitRef,
    power: u8,
) -> bool {
    let made = struck_back_first(state, owner, source, target);
    if made {
        combat::attack(state, target, power, owner);
    }
    made
}

/// Solo, from edition 2: an ability's attack on an automaton unit made by a unit standing on
/// its tile draws the strike-back first, as a base attack does: "Anytime the player attacks an
/// enemy unit, all enemy units in that space attack the unit using their base stat before the
/// player may perform their attack" (l.588); an ability's "extra attack" is an attack (l.249,
/// l.387). The attacking unit is the casting unit, or for a Secret card (held in hand, cast by
/// no unit in particular) the player's first unit on that tile, Leader first (ruling 21).
/// Returns whether the attack goes ahead: not when the strike-back defeated the attacker.
fn struck_back_first(state: &mut State, owner: usize, source: Source, target: UnitRef) -> bool {
    if state.options.edition < 2 || !state.solo() || owner != 0 || target.owner != 1 {
        return true;
    }
    let Some(tile) = state.unit(target).and_then(|u| u.tile) else {
        return true;
    };
    let attacker = match source {
        Source::Innate(slot) | Source::Learned(slot) => Some(UnitRef { owner, slot }),
        Source::Secret(_) => state.units_on(tile).into_iter().find(|u| u.owner == owner),
    }
    .filter(|&u| state.unit(u).and_then(|x| x.tile) == Some(tile));
    let Some(attacker) = attacker else {
        return true;
    };
    super::solo::strike_back(state, attacker, tile);
    state.unit(attacker).is_some_and(|x| x.on_board())
}

/// An ability moves `unit` to `to` (a crystal mine entered adds a crystal to its owner's
/// reserve).
fn move_unit(state: &mut State, unit: UnitRef, to: TileId) {
    if let Some(x) = state.unit_mut(unit) {
        x.tile = Some(to);
    }
    if state.is_mine(to)
        && let Some(p) = state.players.get_mut(unit.owner)
    {
        p.reserve = p.reserve.saturating_add(1);
    }
}

/// The tiles the first unit waiting to be placed may go to (none once it left the board).
pub fn placement_tiles(state: &State) -> Vec<TileId> {
    match state.placements.first() {
        Some(p) if state.unit(p.unit).is_some_and(|u| u.on_board()) => {
            move_destinations(state, p.unit, p.spaces)
        }
        _ => Vec::new(),
    }
}

/// The controller places the first unit waiting (at `to`, one of [`placement_tiles`]).
pub fn place_moved(state: &mut State, to: TileId) {
    if state.placements.is_empty() {
        return;
    }
    let p = state.placements.remove(0);
    move_unit(state, p.unit, to);
}

/// Resolves `casts` in order, then opens the window that follows them (for the others, and
/// the active player too when `with_current`) before `after`.
pub fn start_resolution(
    state: &mut State,
    casts: Vec<(Seat, Cast)>,
    after: After,
    with_current: bool,
    during_movement: bool,
) {
    state.resolving = Some(Resolving {
        casts,
        after,
        with_current,
        during_movement,
    });
    continue_resolution(state);
}

/// Resolves the casts waiting, one by one, until a moved unit waits for its controller or
/// none is left (then the window opens).
pub fn continue_resolution(state: &mut State) {
    while state.placements.is_empty() {
        let Some(r) = state.resolving.as_mut() else {
            return;
        };
        if r.casts.is_empty() {
            let (after, with_current, during_movement) =
                (r.after, r.with_current, r.during_movement);
            state.resolving = None;
            if during_movement {
                open_movement_window(state);
            } else {
                let waiting = eligible(state, with_current);
                open_window_for(state, after, waiting);
            }
            return;
        }
        let (seat, cast) = r.casts.remove(0);
        resolve(state, seat, cast);
    }
}

/// Puts up to `n` crystals on `u`'s abilities, the innate one first (or the Learned one,
/// `learned_first`), the rest on the other; the overflow is lost.
pub fn charge(state: &mut State, u: UnitRef, n: u8, learned_first: bool) {
    let (innate_open, learned_open) = open_slots_of(state, u);
    let (first_open, second_open) = if learned_first {
        (learned_open, innate_open)
    } else {
        (innate_open, learned_open)
    };
    let first = first_open.min(n);
    let second = second_open.min(n.saturating_sub(first));
    let (to_innate, to_learned) = if learned_first {
        (second, first)
    } else {
        (first, second)
    };
    if let Some(unit) = state.unit_mut(u) {
        unit.innate_charge = unit.innate_charge.saturating_add(to_innate);
        unit.learned_charge = unit.learned_charge.saturating_add(to_learned);
    }
}

fn spend(state: &mut State, owner: usize, source: Source) {
    match source {
        Source::Innate(slot) => {
            if let Some(u) = state.unit_mut(UnitRef { owner, slot }) {
                u.innate_charge = 0;
            }
        }
        Source::Learned(slot) => {
            if let Some(u) = state.unit_mut(UnitRef { owner, slot }) {
                u.learned_charge = 0;
            }
        }
        Source::Secret(card) => {
            if let Some(p) = state.players.get_mut(owner)
                && let Some(i) = p.hand.iter().position(|&c| c == card)
            {
                p.hand.remove(i);
            }
            combat::put_bottom(state, card);
        }
    }
}

/// Whether `seat` has a possible answer in a reaction window, judged on what the whole table
/// knows: a charged innate or Learned ability with a legal target, or a Secret card in hand
/// while some Secret card of the deck would have a legal target now. (Which cards the hand
/// holds is secret, so being asked reveals nothing beyond the public hand count.)
pub fn may_answer(state: &State, seat: Seat) -> bool {
    let Some(p) = state.player(seat) else {
        return false;
    };
    if p.eliminated || p.automaton || !p.has_units_on_board() {
        return false;
    }
    let public = sources(state, seat)
        .into_iter()
        .filter(|s| !matches!(s, Source::Secret(_)))
        .any(|s| !targets(state, seat, s).is_empty());
    public
        || (!p.hand.is_empty()
            && super::data::deck_cards(super::data::Deck::Secret)
                .into_iter()
                .any(|c| !targets(state, seat, Source::Secret(c)).is_empty()))
}

/// The seats that may answer a reaction window now, in turn order from the active player:
/// the other players (and, when `with_current`, the active player first) that have a
/// possible answer ([`may_answer`]).
pub fn eligible(state: &State, with_current: bool) -> Vec<Seat> {
    if state.options.own_turn_casting {
        return Vec::new();
    }
    let Some(current) = state.current() else {
        return Vec::new();
    };
    turn_order(state, current)
        .into_iter()
        .filter(|&s| with_current || s != current)
        .filter(|&s| may_answer(state, s))
        .collect()
}

/// Every seat in turn order starting with `current` ("resolved in turn order starting with
/// the player whose turn it is", l.381).
fn turn_order(state: &State, current: Seat) -> Vec<Seat> {
    std::iter::once(current)
        .chain(
            state
                .seats_after(current)
                .into_iter()
                .filter(|&s| s != current),
        )
        .collect()
}

/// Opens a reaction window for the other players before `after` happens; with nobody to
/// answer, `after` is queued at once.
pub fn open_window(state: &mut State, after: After) {
    let waiting = eligible(state, false);
    open_window_for(state, after, waiting);
}

/// Opens a reaction window for `waiting` (queues `after` at once when it is empty). From
/// edition 2 the active player answers after the others ([`ActiveAnswer`]): when it is among
/// `waiting` with others, once they have answered; when it is not, once they have answered if
/// one of them cast something. Its casts then resolve before theirs (l.381).
pub fn open_window_for(state: &mut State, after: After, mut waiting: Vec<Seat>) {
    state.active_answer = ActiveAnswer::Done;
    if state.options.edition >= 2
        && let Some(current) = state.current()
        && waiting.iter().any(|&s| s != current)
    {
        state.active_answer = if waiting.contains(&current) {
            waiting.retain(|&s| s != current);
            ActiveAnswer::Last
        } else {
            ActiveAnswer::IfOthersCast
        };
    }
    if waiting.is_empty() {
        state.pending_after.push(after);
    } else {
        state.window = Some(Window {
            waiting,
            casts: Vec::new(),
            after,
            during_movement: false,
        });
    }
}

/// A window in the middle of the active player's unit's movement, after a step: its allies
/// (team-mates, temporary allies) who may answer are asked, never an enemy ("you can play
/// abilities during ally unit movement, just not during enemy movement", l.375). The active
/// player casts at its own decisions (which stops the unit).
pub fn open_movement_window(state: &mut State) {
    let Some(current) = state.current() else {
        return;
    };
    let mut waiting: Vec<Seat> = eligible(state, false)
        .into_iter()
        .filter(|&s| state.allied(current, s))
        .collect();
    for s in retracting_allies(state, current) {
        if !waiting.contains(&s) {
            waiting.push(s);
        }
    }
    let order = turn_order(state, current);
    waiting.sort_by_key(|s| order.iter().position(|o| o == s));
    state.active_answer = ActiveAnswer::Done;
    if !waiting.is_empty() {
        state.window = Some(Window {
            waiting,
            casts: Vec::new(),
            after: After::Continue,
            during_movement: true,
        });
    }
}

/// From edition 2, with 'Enemy Occupation' in force: the temporary allies of the active player
/// with a unit on the tile its moving unit just entered, asked in the movement window even with
/// nothing to cast, since ending the alliance there stops the unit to attack: "Either player
/// may retract their initial agreement at any point, even if it is in the middle of the act
/// being played out" (l.531, whose example is this very move).
fn retracting_allies(state: &State, current: Seat) -> Vec<Seat> {
    if state.options.edition < 2 || state.options.own_turn_casting || !state.occupation_applies() {
        return Vec::new();
    }
    let Some(tile) = state
        .moving
        .and_then(|slot| {
            state.unit(UnitRef {
                owner: current,
                slot,
            })
        })
        .and_then(|u| u.tile)
    else {
        return Vec::new();
    };
    let mut out: Vec<Seat> = state
        .units_on(tile)
        .into_iter()
        .map(|u| u.owner)
        .filter(|&o| o != current && !state.team_mates(o, current) && state.allied(o, current))
        .collect();
    out.dedup();
    out
}

/// `seat` answers the open window with a cast or a pass. When the last seat has answered,
/// the casts resolve in turn order; if any was cast, the window opens again (the others may
/// answer the new situation), otherwise it closes.
pub fn answer(state: &mut State, seat: Seat, cast: Option<Cast>) {
    let Some(window) = state.window.as_mut() else {
        return;
    };
    window.waiting.retain(|&s| s != seat);
    if let Some(cast) = cast {
        window.casts.push((seat, cast));
    }
    if !window.waiting.is_empty() || active_answers_now(state) {
        return;
    }
    let Some(window) = state.window.take() else {
        return;
    };
    if window.casts.is_empty() {
        state.pending_after.push(window.after);
        return;
    }
    let order = state
        .current()
        .map(|c| turn_order(state, c))
        .unwrap_or_default();
    let mut casts = window.casts;
    casts.sort_by_key(|(s, _)| order.iter().position(|o| o == s));
    // Then everyone may answer what was cast, the active player too: its abilities come first
    // of all on the priority scale (l.381, l.397), before its own base action resolves.
    start_resolution(state, casts, window.after, true, window.during_movement);
}

/// The others have answered the open window: from edition 2 the active player is asked now if
/// [`ActiveAnswer`] says so and it may answer. Returns whether it was.
fn active_answers_now(state: &mut State) -> bool {
    let Some(current) = state.current() else {
        return false;
    };
    let others_cast = state
        .window
        .as_ref()
        .is_some_and(|w| w.casts.iter().any(|&(s, _)| s != current));
    let ask = match std::mem::take(&mut state.active_answer) {
        ActiveAnswer::Done => false,
        ActiveAnswer::Last => true,
        ActiveAnswer::IfOthersCast => others_cast,
    } && may_answer(state, current);
    if ask && let Some(w) = state.window.as_mut() {
        w.waiting.push(current);
    }
    ask
}
