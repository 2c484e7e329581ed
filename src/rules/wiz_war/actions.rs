//! The action type and what the game waits for: `next`, the chance step owed, the one seat
//! to decide. Read from the state only; which actions are legal is `legal`, applying one
//! `play`.

use serde::{Deserialize, Serialize};

use super::board::Dir;
use super::cards::CardId;
use super::state::{Need, Phase, State, Target, tally};
use crate::rules::{Chance, Next, Outcome, Seat};

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

/// The chance step the game waits for, if any: its outcomes and their weights.
pub fn chance(state: &State) -> Option<Chance<Action>> {
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
            Some(Need::Draw(_)) => tally(&state.deck)
                .into_iter()
                .map(|(c, n)| (Action::Draw(c), n))
                .collect(),
            Some(Need::Steal { victim, .. }) => from_hand(state, *victim, Action::Steal),
            Some(Need::DiscardAtRandom(seat)) => from_hand(state, *seat, Action::RandomDiscard),
            Some(Need::Punch { die, .. }) => (1..=*die).map(|n| (Action::Roll(n), 1)).collect(),
            Some(Need::Evade { .. }) => (1..=super::cards::DIE_FACES)
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
