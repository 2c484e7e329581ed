//! Actions, what the game waits for, which actions are legal, and applying them.

use serde::{Deserialize, Serialize};

use super::board::{Dir, Pos};
use super::cards::{CardId, Effect, Kind};
use super::cast;
use super::flow;
use super::state::{DRAWS, Phase, State, tally};
use crate::rules::{Actor, Chance, Next, Outcome, RuleError, Seat};

/// What a card is aimed at. JSON e.g. `{"wizard":1}`, `{"square":[3,4]}`,
/// `{"side":[[3,4],"east"]}`, `{"direction":"north"}`, `{"rotate":[2,1]}` (slot, quarter turns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// Nothing to choose: the caster, your sector, the whole board.
    None,
    Wizard(Seat),
    /// A wizard in your own square, knocked back in this direction (Waterbolt).
    WizardToward(Seat, Dir),
    Square(Pos),
    Side(Pos, Dir),
    Direction(Dir),
    Rotate(usize, u8),
    Spell(u32),
    Object(u32),
    Treasure(usize),
    Item(Seat, CardId),
}

/// An action of a player or an outcome of chance. JSON: externally tagged, snake_case, e.g.
/// `{"move":"north"}`, `{"cast":"fireball"}`, `{"target":{"wizard":1}}`, `"no_boost"`, `"pass"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    // Chance outcomes.
    /// Set-up: the next seat (in seat order) gets this colour (0 red, 1 blue, 2 green,
    /// 3 yellow): "randomly chooses one player color" (l.34).
    Colour(u8),
    /// Set-up: this sector (by its colour's seat) goes in the next slot.
    PlaceSector(u8),
    /// Set-up: the sector just placed is turned this many quarter turns clockwise.
    TurnSector(u8),
    /// The top card of the deck is this card.
    Draw(CardId),
    /// Thought Steal takes this card from the victim's hand.
    Steal(CardId),
    /// The card [`Action::DiscardAtRandom`] drew from the hand of the wizard over its hand
    /// limit: it is discarded face up, as a chosen one is (ruling 31).
    RandomDiscard(CardId),
    /// Set-up: this seat plays first.
    FirstPlayer(Seat),
    /// The four-sided die rolled: for a punch (the Werewolf's d4), or for an attack at a Gnome
    /// (1-2: it misses).
    Roll(u8),

    // Move and cast.
    Move(Dir),
    /// Pick up the object with this id from your square (1 movement point).
    PickUp(u32),
    /// Pick up the treasure with this index from your square: ends move and cast.
    PickUpTreasure(usize),
    /// Drop a carried item into your square.
    Drop(CardId),
    DropTreasure,
    /// Spend an energy card for movement points.
    Speed(CardId),
    /// Cast a spell from your hand; the target and the energy follow.
    Cast(CardId),
    /// Play an item from your hand: you carry it.
    Play(CardId),
    /// Throw a carried item as your attack; the target follows.
    Throw(CardId),
    /// Attack with a carried weapon; the target follows.
    Wield(CardId),
    /// Punch a wizard in or next to your square (your attack).
    Punch(Seat),
    Target(Target),
    /// Boost the spell with this energy card.
    Boost(CardId),
    /// Boost with two energy cards and Add.
    BoostAdd(CardId, CardId),
    NoBoost,
    CancelCast,
    /// End one of your maintained spells.
    EndSpell(u32),
    EndMove,

    // Discard and draw.
    Discard(CardId),
    /// Over the hand limit: discard a card drawn at random from your hand (a chance step
    /// draws it). What a deadline plays there (ruling 31).
    DiscardAtRandom,
    DrawCard,
    EndTurn,

    // Reaction windows.
    Counter(CardId),
    /// A counter that moves you (Featherweight), in this direction.
    CounterToward(CardId, Dir),
    Pass,
}

impl Action {
    pub fn is_chance(&self) -> bool {
        matches!(
            self,
            Action::Colour(_)
                | Action::PlaceSector(_)
                | Action::TurnSector(_)
                | Action::Draw(_)
                | Action::Steal(_)
                | Action::RandomDiscard(_)
                | Action::FirstPlayer(_)
                | Action::Roll(_)
        )
    }
}

pub fn next(state: &State) -> Next<Action> {
    if let Phase::Over { winners, summary } = &state.phase {
        return Next::Over(Outcome {
            winners: winners.clone(),
            scores: Some(
                (0..state.seats())
                    .map(|s| i64::from(state.points(s)))
                    .collect(),
            ),
            summary: summary.clone(),
        });
    }
    if let Some(chance) = chance(state) {
        return Next::Chance(chance);
    }
    match actor(state) {
        Some(seat) => Next::Players(vec![seat]),
        None => Next::Over(Outcome {
            winners: Vec::new(),
            scores: None,
            summary: "The game stopped with nobody to act.".to_owned(),
        }),
    }
}

fn chance(state: &State) -> Option<Chance<Action>> {
    let outcomes: Vec<(Action, u32)> = match &state.phase {
        Phase::Building { .. } if state.colours.len() < state.seats() => (0..4u8)
            .filter(|c| !state.colours.contains(c))
            .map(|c| (Action::Colour(c), 1))
            .collect(),
        Phase::Building { sector: None, .. } => {
            let placed: Vec<u8> = state.board.slots.iter().filter_map(|s| s.sector).collect();
            (0..state.seats())
                .filter_map(|s| u8::try_from(s).ok())
                .filter(|s| !placed.contains(s))
                .map(|s| (Action::PlaceSector(s), 1))
                .collect()
        }
        Phase::Building {
            sector: Some(_), ..
        } => (0..4).map(|q| (Action::TurnSector(q), 1)).collect(),
        _ => match state.needs.first() {
            Some(super::state::Need::Draw(_)) => tally(&state.deck)
                .into_iter()
                .map(|(c, n)| (Action::Draw(c), n))
                .collect(),
            Some(super::state::Need::Steal { victim, .. }) => {
                from_hand(state, *victim, Action::Steal)
            }
            Some(super::state::Need::DiscardAtRandom(seat)) => {
                from_hand(state, *seat, Action::RandomDiscard)
            }
            Some(super::state::Need::Punch { die, .. }) => {
                (1..=*die).map(|n| (Action::Roll(n), 1)).collect()
            }
            Some(super::state::Need::Evade { .. }) => (1..=super::cards::DIE_FACES)
                .map(|n| (Action::Roll(n), 1))
                .collect(),
            None if state.phase == Phase::FirstPlayer => (0..state.seats())
                .map(|s| (Action::FirstPlayer(s), 1))
                .collect(),
            None => return None,
        },
    };
    (!outcomes.is_empty()).then_some(Chance { outcomes })
}

/// A card drawn at random from `seat`'s hand, each card alike (copies counted).
fn from_hand(state: &State, seat: Seat, outcome: fn(CardId) -> Action) -> Vec<(Action, u32)> {
    state.wizard(seat).map_or_else(Vec::new, |w| {
        tally(&w.hand)
            .into_iter()
            .map(|(c, n)| (outcome(c), n))
            .collect()
    })
}

/// The one seat to decide now, if a player decides.
pub fn actor(state: &State) -> Option<Seat> {
    if state.is_over() || chance(state).is_some() {
        return None;
    }
    if let Some(seat) = state.over_limit() {
        return Some(seat);
    }
    if let Some(top) = state.stack.last() {
        return top.waiting.first().copied();
    }
    match state.phase {
        Phase::MoveAndCast | Phase::DiscardAndDraw if state.alive(state.turn.seat) => {
            Some(state.turn.seat)
        }
        _ => None,
    }
}

pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    legal_actions_for(state, seat, None)
}

/// Whether `action` is one of [`legal_actions`] (without working out the others' targets).
fn is_legal(state: &State, seat: Seat, action: &Action) -> bool {
    legal_actions_for(state, seat, Some(action)).contains(action)
}

/// [`legal_actions`], or with `want`, at least `want` if it is legal: the card actions that are
/// not `want` may be left out.
fn legal_actions_for(state: &State, seat: Seat, want: Option<&Action>) -> Vec<Action> {
    if actor(state) != Some(seat) {
        return Vec::new();
    }
    let Some(w) = state.wizard(seat) else {
        return Vec::new();
    };
    let distinct =
        |cards: &[CardId]| -> Vec<CardId> { tally(cards).into_iter().map(|(c, _)| c).collect() };
    if state.over_limit() == Some(seat) {
        let mut out: Vec<Action> = distinct(&w.hand).into_iter().map(Action::Discard).collect();
        // Ruling 31: or leave the pick to chance (what a deadline does).
        if !w.hand.is_empty() {
            out.push(Action::DiscardAtRandom);
        }
        out.extend(distinct(&w.items).into_iter().map(Action::Drop));
        out.extend(own_spells(state, seat));
        return out;
    }
    if !state.stack.is_empty() {
        return cast::window_actions(state, seat);
    }
    if state.casting.is_some() {
        return cast::casting_actions(state, seat);
    }
    let mut out = Vec::new();
    match state.phase {
        Phase::MoveAndCast => {
            out.extend(flow::movement_actions(state, seat));
            out.extend(cast::card_actions_for(state, seat, want));
            out.extend(own_spells(state, seat));
            out.push(Action::EndMove);
        }
        Phase::DiscardAndDraw => {
            if state.turn.drawn == 0 {
                out.extend(distinct(&w.hand).into_iter().map(Action::Discard));
            }
            let draws = if state.carries(seat, Effect::Brainstone) > 0 {
                DRAWS + 1
            } else {
                DRAWS
            };
            let cards_left = !state.deck.is_empty() || !state.discard.is_empty();
            if state.turn.drawn < draws
                && state.hand_total(seat) < state.hand_limit(seat)
                && cards_left
            {
                out.push(Action::DrawCard);
            }
            // "A wizard may also drop any of his carried items ... at any time during his turn."
            // From edition 1, not once cards are drawn: "Once he has either drawn cards or
            // declined to do so, the active player's turn immediately ends" (l.112; audit
            // 2026-11-28, B8): only the second draw or the end of the turn is left.
            if state.turn.drawn == 0 || state.options.edition < 1 {
                out.extend(distinct(&w.items).into_iter().map(Action::Drop));
                out.extend(own_spells(state, seat));
            }
            out.push(Action::EndTurn);
        }
        _ => {}
    }
    out
}

fn own_spells(state: &State, seat: Seat) -> Vec<Action> {
    state
        .spells
        .iter()
        .filter(|s| s.caster == seat)
        .map(|s| Action::EndSpell(s.id))
        .collect()
}

/// Applies `action` by `actor`; on error the state is unchanged.
pub fn apply(state: &mut State, actor_: Actor, action: &Action) -> Result<(), RuleError> {
    if state.is_over() {
        return Err(RuleError::GameOver);
    }
    let mut after = state.clone();
    match actor_ {
        Actor::Chance => {
            let Some(chance) = chance(state) else {
                return Err(RuleError::NotYourDecision);
            };
            if !action.is_chance() {
                return Err(RuleError::NotYourDecision);
            }
            if !chance.outcomes.iter().any(|(a, _)| a == action) {
                return Err(RuleError::illegal(
                    "that is not a possible outcome of this chance step",
                ));
            }
            flow::apply_chance(&mut after, action)?;
        }
        Actor::Seat(seat) => {
            if actor(state) != Some(seat) || action.is_chance() {
                return Err(RuleError::NotYourDecision);
            }
            if !is_legal(state, seat, action) {
                return Err(RuleError::illegal(why_not(state, seat, action)));
            }
            decide(&mut after, seat, action)?;
        }
    }
    flow::advance(&mut after);
    *state = after;
    Ok(())
}

fn decide(state: &mut State, seat: Seat, action: &Action) -> Result<(), RuleError> {
    match action {
        Action::Discard(card) => flow::discard(state, seat, *card),
        Action::DiscardAtRandom => {
            // Drawn now, before anything else owed (nothing is: a decision waits for chance).
            state
                .needs
                .insert(0, super::state::Need::DiscardAtRandom(seat));
            Ok(())
        }
        Action::Drop(card) => flow::drop_item(state, seat, *card),
        Action::EndSpell(id) => {
            flow::end_spell(state, *id);
            Ok(())
        }
        Action::Pass | Action::Counter(_) | Action::CounterToward(..) => {
            cast::answer(state, seat, action)
        }
        Action::Target(_)
        | Action::Boost(_)
        | Action::BoostAdd(..)
        | Action::NoBoost
        | Action::CancelCast
        | Action::Cast(_)
        | Action::Throw(_)
        | Action::Wield(_)
        | Action::Play(_)
        | Action::Punch(_) => cast::decide(state, seat, action),
        Action::Move(_)
        | Action::PickUp(_)
        | Action::PickUpTreasure(_)
        | Action::DropTreasure
        | Action::Speed(_)
        | Action::EndMove
        | Action::DrawCard
        | Action::EndTurn => flow::decide(state, seat, action),
        _ => Err(RuleError::NotYourDecision),
    }
}

/// Why a player's action is not legal now, in the game's words.
fn why_not(state: &State, seat: Seat, action: &Action) -> String {
    let in_hand = |c: &CardId| state.wizard(seat).is_some_and(|w| w.hand.contains(c));
    match action {
        Action::Cast(c) | Action::Discard(c) | Action::Speed(c) | Action::Play(c)
            if !in_hand(c) =>
        {
            format!("you have no {} in your hand", c.name())
        }
        Action::Counter(c) | Action::CounterToward(c, _) if !in_hand(c) => {
            format!("you have no {} in your hand", c.name())
        }
        Action::Counter(c) => format!("{} cannot answer this", c.name()),
        Action::Move(d) if state.turn.movement == 0 => {
            format!("you have no movement points left to move {}", d.name())
        }
        Action::Move(d) => format!("a wall, door or object stops you moving {}", d.name()),
        Action::Cast(c) if c.kind() == Some(Kind::Attack) && state.turn.first => {
            "no attack in a wizard's first turn".to_owned()
        }
        Action::Cast(c) | Action::Throw(c) | Action::Wield(c)
            if c.kind() == Some(Kind::Attack)
                || matches!(action, Action::Throw(_) | Action::Wield(_)) =>
        {
            if state.turn.attacked {
                "you have already made your attack this turn".to_owned()
            } else {
                format!("{} has no legal target now", c.name())
            }
        }
        Action::Punch(_) if state.turn.attacked => {
            "you have already made your attack this turn".to_owned()
        }
        Action::Punch(s) => format!("Seat {s} is not in or next to your square in sight"),
        Action::Target(_) => "that is not a legal target for this card".to_owned(),
        Action::DrawCard => "you cannot draw more cards now".to_owned(),
        Action::PickUpTreasure(_) => "no treasure you may pick up is in your square".to_owned(),
        Action::Pass => "there is nothing to answer".to_owned(),
        _ => "that is not possible now".to_owned(),
    }
}
