//! "Roll and Play", a toy game for the suite's own tests, with flaws to switch on one by one.
//!
//! 2–4 seats; a deck of 18 cards (two of each value 1–9), never shuffled: every card is drawn by
//! a chance step. Each seat is dealt a hidden hand. On a turn the die is rolled (chance); the
//! seat then plays a card no higher than the roll, scoring its value, or passes and draws. The
//! first to reach the target wins. Once the deck is empty, a pass draws nothing, and when every
//! seat has passed in a row the highest score wins.

use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::Secrets;
use crate::rules::{
    Actor, Chance, Next, OptionDoc, Outcome, RuleError, Ruleset, Seat, SetupError, Viewer,
    Visibility,
};

/// The flaws a test can switch on (`Toy<FLAW>`); each breaks one rule of the contract.
pub(super) mod flaw {
    pub const NONE: u8 = 0;
    /// Every seat's view shows every hand.
    pub const VIEW_SHOWS_HANDS: u8 = 1;
    /// The redacted form of a draw names the card.
    pub const REDACT_SHOWS_CARD: u8 = 2;
    /// Every viewer's description of a draw names the card.
    pub const DESCRIBE_SHOWS_CARD: u8 = 3;
    /// Draws are logged as public.
    pub const DRAW_IS_PUBLIC: u8 = 4;
    /// A card higher than the roll may be played, though it is not listed.
    pub const PLAY_IGNORES_ROLL: u8 = 5;
    /// Any seat may play (from the hand of the seat whose turn it is).
    pub const ANY_SEAT_PLAYS: u8 = 6;
    /// Neither the target nor a round of passes ends the game.
    pub const NEVER_ENDS: u8 = 7;
    /// Each roll is numbered from a process-wide counter: refolding gives other numbers.
    pub const GLOBAL_COUNTER: u8 = 8;
    /// The last roll is kept in a field the JSON snapshot skips.
    pub const UNSAVED_FIELD: u8 = 9;
    /// A pass is counted before checking whose turn it is, also when refused.
    pub const REJECT_MUTATES: u8 = 10;
    /// Indexes the hands by the acting seat before checking it is at the table.
    pub const PANICS_ON_STRANGER: u8 = 11;
    /// Seats whose turn it is not are offered a pass.
    pub const LISTS_FOR_IDLE: u8 = 12;
    /// The Secrets hooks plant nothing.
    pub const PLANTS_NOTHING: u8 = 13;
    /// A seat holding no card the roll allows passes without being asked (so everyone learns
    /// that its hand is all higher than the roll).
    pub const PASSES_WITHOUT_ASKING: u8 = 14;
    /// A play is described with how many cards the player keeps that are higher.
    pub const PLAY_TELLS_THE_REST: u8 = 15;
    /// At a deadline the seat plays its first listed action: the lowest card the roll allows
    /// (so everyone learns that no lower card is in the hand), else a pass.
    pub const DEFAULT_PLAYS_THE_FIRST_CARD: u8 = 16;
    /// The view writes the turn as text, where its published schema says a seat number.
    pub const VIEW_OFF_SCHEMA: u8 = 17;
    /// `imagine` keeps the true state: the bot's look-ahead knows the rivals' hands.
    pub const IMAGINES_THE_TRUTH: u8 = 18;
    /// `imagine` deals the seat's own hand anew too: the bot forgets what it holds.
    pub const IMAGINES_ITS_OWN_HAND: u8 = 19;
    /// `keeps_asking` lets the service play a lone "pass" (so everyone learns that the hand
    /// holds no card the roll allows).
    pub const FORCES_THE_LONE_PASS: u8 = 20;
    /// Every play has the notation `play`, whichever card.
    pub const NOTATION_WITHOUT_THE_CARD: u8 = 21;
    /// A pass is logged for its seat alone, and a deadline passes: a hidden choice that is the
    /// same whatever the hand, so everyone can tell what the deadline did.
    pub const HIDDEN_DEFAULT_PASS: u8 = 22;
    /// The view's text (what the API answers) leaves out the scores the view has.
    pub const VIEW_TEXT_DIFFERS: u8 = 23;
}

pub(super) struct Toy<const FLAW: u8>;

/// The toy without flaws.
pub(super) type Sound = Toy<{ flaw::NONE }>;

/// Actions the sound toy can take at most, for any options: 18 draws; at most 18 plays; at most
/// 18 passes that draw; while the deck is empty, at most 3 passes in a row at 4 seats before
/// each of the 18 plays and at most 4 after the last; each play or pass follows a roll.
/// 18 + 2 × (18 + 18 + 18 × 3 + 4) = 206.
pub(super) const MAX_STEPS: usize = 206;

type Card = u16;
const MARKER_CARD: Card = 4242;
const VALUES: usize = 9;

static ROLLS: AtomicU64 = AtomicU64::new(0);

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub(super) struct Options {
    target: u32,
    hand: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            target: 15,
            hand: 3,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Phase {
    Deal,
    Roll,
    Choose { roll: u8 },
    Draw,
    Over,
}

/// The view's JSON, for its schema ([`Ruleset::view_schema`]); `view` writes it with `json!`.
#[derive(schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[allow(dead_code)]
struct View {
    target: u32,
    phase: Phase,
    turn: Seat,
    scores: Vec<u32>,
    deck: usize,
    hand_sizes: Vec<usize>,
    /// The viewer's own hand (a seat's view only; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    hand: Option<Vec<Card>>,
    /// Every hand (the everyone-view only; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    hands: Option<Vec<Vec<Card>>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct State {
    target: u32,
    hand_size: usize,
    /// Copies left of each card value (index = value − 1).
    deck: [u8; VALUES],
    hands: Vec<Vec<Card>>,
    scores: Vec<u32>,
    turn: Seat,
    phase: Phase,
    /// Passes in a row with the deck empty.
    passes: usize,
    /// Flaw GLOBAL_COUNTER only.
    roll_number: u64,
    /// Flaw UNSAVED_FIELD only.
    #[serde(skip)]
    last_roll: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum Move {
    Draw { card: Card },
    Roll { face: u8 },
    Play { card: Card },
    Pass,
}

impl State {
    /// Who receives the card drawn now.
    fn receiver(&self) -> Option<Seat> {
        match self.phase {
            Phase::Deal => self.hands.iter().position(|h| h.len() < self.hand_size),
            Phase::Draw => Some(self.turn),
            _ => None,
        }
    }

    fn deck_left(&self) -> u32 {
        self.deck.iter().map(|&n| u32::from(n)).sum()
    }

    fn end_turn(&mut self) {
        self.turn = (self.turn + 1) % self.hands.len();
        self.phase = Phase::Roll;
    }
}

impl<const FLAW: u8> Toy<FLAW> {
    fn draw(state: &mut State, card: Card) -> Result<(), RuleError> {
        let receiver = state
            .receiver()
            .ok_or_else(|| RuleError::illegal("nobody draws now"))?;
        let left = (usize::from(card))
            .checked_sub(1)
            .and_then(|i| state.deck.get_mut(i))
            .filter(|left| **left > 0)
            .ok_or_else(|| RuleError::illegal(format!("no {card} is left in the deck")))?;
        *left -= 1;
        let hand = &mut state.hands[receiver];
        hand.push(card);
        hand.sort_unstable();
        if state.phase == Phase::Draw {
            state.end_turn();
        } else if state.receiver().is_none() {
            state.phase = Phase::Roll;
        }
        Ok(())
    }

    fn play(state: &mut State, card: Card, roll: u8) -> Result<(), RuleError> {
        let turn = state.turn;
        let Some(i) = state.hands[turn].iter().position(|&c| c == card) else {
            return Err(RuleError::illegal(format!("you hold no {card}")));
        };
        if card > Card::from(roll) && FLAW != flaw::PLAY_IGNORES_ROLL {
            return Err(RuleError::illegal(format!(
                "the die shows {roll}: play {roll} or less"
            )));
        }
        state.hands[turn].remove(i);
        state.scores[turn] += u32::from(card);
        state.passes = 0;
        if state.scores[turn] >= state.target && FLAW != flaw::NEVER_ENDS {
            state.phase = Phase::Over;
        } else {
            state.end_turn();
        }
        Ok(())
    }

    fn pass(state: &mut State) {
        if state.deck_left() > 0 {
            state.phase = Phase::Draw;
            return;
        }
        state.passes += 1;
        if state.passes >= state.hands.len() && FLAW != flaw::NEVER_ENDS {
            state.phase = Phase::Over;
        } else {
            state.end_turn();
        }
    }
}

impl<const FLAW: u8> Ruleset for Toy<FLAW> {
    const ID: &'static str = "roll-and-play";
    const NAME: &'static str = "Roll and Play";
    type Options = Options;
    type State = State;
    type Action = Move;
    type View = Value;

    fn option_docs() -> Vec<OptionDoc> {
        vec![
            OptionDoc {
                name: "target",
                description: "points to win",
                default: json!(15),
            },
            OptionDoc {
                name: "hand",
                description: "cards dealt to each seat",
                default: json!(3),
            },
        ]
    }

    fn option_sets() -> Vec<Options> {
        vec![Options::default(), Options { target: 6, hand: 1 }]
    }

    fn seats(_: &Options) -> std::ops::RangeInclusive<usize> {
        2..=4
    }

    fn new_game(options: &Options, seats: usize) -> Result<State, SetupError> {
        if !(2..=4).contains(&seats) || options.target == 0 || options.hand * seats > 2 * VALUES {
            return Err(SetupError(format!(
                "cannot deal {} cards to {seats} seats",
                options.hand
            )));
        }
        Ok(State {
            target: options.target,
            hand_size: options.hand,
            deck: [2; VALUES],
            hands: vec![Vec::new(); seats],
            scores: vec![0; seats],
            turn: 0,
            phase: if options.hand == 0 {
                Phase::Roll
            } else {
                Phase::Deal
            },
            passes: 0,
            roll_number: 0,
            last_roll: 0,
        })
    }

    fn next(state: &State) -> Next<Move> {
        let outcomes = match state.phase {
            Phase::Deal | Phase::Draw => (1..=VALUES)
                .filter(|&v| state.deck[v - 1] > 0)
                .map(|v| (Move::Draw { card: v as Card }, u32::from(state.deck[v - 1])))
                .collect(),
            Phase::Roll => (1..=6).map(|face| (Move::Roll { face }, 1)).collect(),
            Phase::Choose { .. } => return Next::Players(vec![state.turn]),
            Phase::Over => {
                let best = state.scores.iter().copied().max().unwrap_or(0);
                let winners: Vec<Seat> = (0..state.scores.len())
                    .filter(|&s| state.scores[s] == best)
                    .collect();
                return Next::Over(Outcome {
                    summary: format!("seats {winners:?} win with {best} points"),
                    winners,
                    scores: Some(state.scores.iter().map(|&s| i64::from(s)).collect()),
                });
            }
        };
        Next::Chance(Chance { outcomes })
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Move> {
        let Phase::Choose { roll } = state.phase else {
            return Vec::new();
        };
        if seat != state.turn {
            let idle_pass = FLAW == flaw::LISTS_FOR_IDLE && seat < state.hands.len();
            return if idle_pass {
                vec![Move::Pass]
            } else {
                Vec::new()
            };
        }
        let mut cards: Vec<Card> = state.hands[seat]
            .iter()
            .copied()
            .filter(|&c| c <= Card::from(roll))
            .collect();
        cards.dedup();
        cards
            .into_iter()
            .map(|card| Move::Play { card })
            .chain([Move::Pass])
            .collect()
    }

    fn apply(state: &mut State, actor: Actor, action: &Move) -> Result<(), RuleError> {
        match (state.phase, actor, action) {
            (Phase::Over, ..) => Err(RuleError::GameOver),
            (Phase::Deal | Phase::Draw, Actor::Chance, Move::Draw { card }) => {
                Self::draw(state, *card)
            }
            (Phase::Roll, Actor::Chance, Move::Roll { face }) if (1..=6).contains(face) => {
                state.phase = Phase::Choose { roll: *face };
                let hand = &state.hands[state.turn];
                if FLAW == flaw::PASSES_WITHOUT_ASKING
                    && hand.iter().all(|&c| c > Card::from(*face))
                {
                    Self::pass(state);
                }
                if FLAW == flaw::GLOBAL_COUNTER {
                    state.roll_number = ROLLS.fetch_add(1, Ordering::Relaxed);
                }
                if FLAW == flaw::UNSAVED_FIELD {
                    state.last_roll = *face;
                }
                Ok(())
            }
            (Phase::Choose { roll }, Actor::Seat(seat), action) => {
                if FLAW == flaw::PANICS_ON_STRANGER {
                    let _ = &state.hands[seat];
                }
                if FLAW == flaw::REJECT_MUTATES && *action == Move::Pass {
                    state.passes += 1;
                }
                if seat != state.turn && FLAW != flaw::ANY_SEAT_PLAYS {
                    return Err(RuleError::NotYourDecision);
                }
                match action {
                    Move::Play { card } => Self::play(state, *card, roll),
                    Move::Pass => {
                        Self::pass(state);
                        Ok(())
                    }
                    _ => Err(RuleError::illegal("only chance draws and rolls")),
                }
            }
            (Phase::Choose { .. }, Actor::Chance, _) | (_, Actor::Seat(_), _) => {
                Err(RuleError::NotYourDecision)
            }
            (_, Actor::Chance, _) => Err(RuleError::illegal("that is not what chance decides now")),
        }
    }

    fn typed_view(state: &State, viewer: Viewer) -> Value {
        let mut view = json!({
            "target": state.target,
            "phase": state.phase,
            "turn": state.turn,
            "scores": state.scores,
            "deck": state.deck_left(),
            "hand_sizes": state.hands.iter().map(Vec::len).collect::<Vec<_>>(),
        });
        match viewer {
            Viewer::Seat(seat) => view["hand"] = json!(state.hands.get(seat)),
            Viewer::Everyone => view["hands"] = json!(state.hands),
            Viewer::Spectator => {}
        }
        if FLAW == flaw::VIEW_SHOWS_HANDS {
            view["hands"] = json!(state.hands);
        }
        if FLAW == flaw::VIEW_OFF_SCHEMA {
            view["turn"] = json!(state.turn.to_string());
        }
        view
    }

    fn view_text(state: &State, viewer: Viewer) -> Box<serde_json::value::RawValue> {
        let mut view = Self::typed_view(state, viewer);
        if FLAW == flaw::VIEW_TEXT_DIFFERS
            && let Some(fields) = view.as_object_mut()
        {
            fields.remove("scores");
        }
        crate::rules::raw_json(&view)
    }

    fn view_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        generator.subschema_for::<View>()
    }

    fn visibility(state: &State, _: Actor, action: &Move) -> Visibility {
        match (action, state.receiver()) {
            (Move::Draw { .. }, Some(seat)) if FLAW != flaw::DRAW_IS_PUBLIC => {
                Visibility::Seats(vec![seat])
            }
            (Move::Pass, _) if FLAW == flaw::HIDDEN_DEFAULT_PASS => {
                Visibility::Seats(vec![state.turn])
            }
            _ => Visibility::Public,
        }
    }

    fn redact(_: &State, _: Actor, action: &Move) -> Value {
        match action {
            Move::Draw { .. } if FLAW != flaw::REDACT_SHOWS_CARD => json!({ "draw": {} }),
            _ => json!(action),
        }
    }

    fn describe(state: &State, actor: Actor, action: &Move, viewer: Viewer) -> String {
        let who = match actor {
            Actor::Seat(seat) => format!("Seat {seat}"),
            Actor::Chance => "Chance".to_owned(),
        };
        match action {
            Move::Draw { card } => match state.receiver() {
                Some(seat) if viewer.sees_secrets_of(seat) || FLAW == flaw::DESCRIBE_SHOWS_CARD => {
                    format!("Seat {seat} draws a {card}")
                }
                Some(seat) => format!("Seat {seat} draws a card"),
                None => format!("{who} draws a card"),
            },
            Move::Roll { face } => format!("The die shows {face}"),
            Move::Play { card } if FLAW == flaw::PLAY_TELLS_THE_REST => {
                let higher = state.hands[state.turn].iter().filter(|&c| c > card).count();
                format!("{who} plays a {card} and keeps {higher} higher cards")
            }
            Move::Play { card } => format!("{who} plays a {card}"),
            Move::Pass => format!("{who} passes"),
        }
    }

    /// A seat may have only "pass" because its hand holds no card the roll allows: asking it
    /// anyway is what keeps that secret.
    fn keeps_asking(_state: &State, _seat: Seat) -> bool {
        FLAW != flaw::FORCES_THE_LONE_PASS
    }

    fn notation(state: &State, seat: Seat, action: &Move) -> String {
        let _ = (state, seat);
        match action {
            Move::Play { .. } if FLAW == flaw::NOTATION_WITHOUT_THE_CARD => "play".into(),
            Move::Play { card } => format!("play {card}"),
            Move::Pass => "pass".into(),
            other => {
                crate::rules::notation::from_json(&serde_json::to_value(other).unwrap_or_default())
            }
        }
    }

    /// The other hands dealt anew from them and the deck.
    fn imagine(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> State {
        let mut believed = state.clone();
        if FLAW == flaw::IMAGINES_THE_TRUTH {
            return believed;
        }
        let mut pool = deck_cards(state);
        let mut hands: Vec<&mut Vec<Card>> = believed
            .hands
            .iter_mut()
            .enumerate()
            .filter(|&(s, _)| s != seat || FLAW == flaw::IMAGINES_ITS_OWN_HAND)
            .map(|(_, hand)| hand)
            .collect();
        crate::rules::deal_anew(&mut hands, &mut pool, pick);
        for hand in &mut believed.hands {
            hand.sort_unstable();
        }
        believed.deck = deck_counts(pool);
        believed
    }

    fn default_action(state: &State, seat: Seat) -> Option<Move> {
        if FLAW == flaw::DEFAULT_PLAYS_THE_FIRST_CARD {
            return Self::legal_actions(state, seat).into_iter().next();
        }
        matches!(state.phase, Phase::Choose { .. } if seat == state.turn).then_some(Move::Pass)
    }
}

impl<const FLAW: u8> Secrets for Toy<FLAW> {
    const MARKER: &'static str = "4242";

    fn plant(state: &mut State, seat: Seat) {
        if let Some(hand) = state
            .hands
            .get_mut(seat)
            .filter(|_| FLAW != flaw::PLANTS_NOTHING)
        {
            hand.fill(MARKER_CARD);
        }
    }

    fn plant_action(action: &Move) -> Option<Move> {
        let hidden = matches!(action, Move::Draw { .. }) && FLAW != flaw::PLANTS_NOTHING;
        hidden.then_some(Move::Draw { card: MARKER_CARD })
    }

    fn perturb(state: &State, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> Option<State> {
        let mut twin = state.clone();
        let mut pool = deck_cards(state);
        let hand = twin.hands.get_mut(seat)?;
        if !super::redeal(hand, &mut pool, pick) {
            return None;
        }
        hand.sort_unstable();
        twin.deck = deck_counts(pool);
        Some(twin)
    }
}

/// The cards left in the deck, one entry a card.
fn deck_cards(state: &State) -> Vec<Card> {
    (1..=VALUES)
        .flat_map(|v| std::iter::repeat_n(v as Card, usize::from(state.deck[v - 1])))
        .collect()
}

/// The deck's copies of each value, from its cards.
fn deck_counts(cards: Vec<Card>) -> [u8; VALUES] {
    let mut deck = [0; VALUES];
    for card in cards {
        deck[usize::from(card) - 1] += 1;
    }
    deck
}
