//! The rules-engine contract (DESIGN.md, "The rules engine contract").
//!
//! A ruleset is plain data plus pure functions: no I/O, no clock, no RNG. Randomness is a
//! *chance step*: [`Ruleset::next`] returns [`Next::Chance`] with the weighted outcomes, the
//! service samples one with the game's seeded RNG and applies it as an action of
//! [`Actor::Chance`]. Decisions are small and enumerable ([`Ruleset::legal_actions`]); `apply`
//! is total: an illegal action is an `Err` and leaves the state unchanged.

use std::fmt::Debug;
use std::ops::RangeInclusive;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::present::{ChoiceGroup, Presented};
pub use super::seats::{Actor, Seat, Viewer};

/// The weighted outcomes of a chance step: each distinct outcome once, with how many of the
/// equally likely elementary outcomes it stands for (a die: six outcomes of weight 1; a bag
/// draw: each kind of token weighted by how many of it are in the bag).
#[derive(Clone, Debug, PartialEq)]
pub struct Chance<A> {
    pub outcomes: Vec<(A, u32)>,
}

impl<A> Chance<A> {
    pub fn total_weight(&self) -> u64 {
        self.outcomes.iter().map(|(_, w)| u64::from(*w)).sum()
    }

    /// The outcome at `point` in `0..total_weight()` (see [`weighted_index`]).
    pub fn pick(&self, point: u64) -> Option<&A> {
        weighted_index(self.outcomes.iter().map(|(_, w)| *w), point)
            .and_then(|i| self.outcomes.get(i))
            .map(|(a, _)| a)
    }
}

/// The index of the outcome at `point` in `0..sum(weights)`, walking the weights in order.
/// The service draws `point` from the game's RNG; this keeps the mapping in one place.
pub fn weighted_index(weights: impl IntoIterator<Item = u32>, point: u64) -> Option<usize> {
    let mut rest = point;
    for (i, weight) in weights.into_iter().enumerate() {
        let w = u64::from(weight);
        if rest < w {
            return Some(i);
        }
        rest -= w;
    }
    None
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Outcome {
    /// The winning seats (several on a shared win; empty if nobody won).
    pub winners: Vec<Seat>,
    /// Final scores by seat, where the game keeps score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i64>>,
    /// One human sentence: how the game ended.
    pub summary: String,
}

/// What [`Ruleset::evaluate`] gives a seat that has won the game alone; a seat that lost gets
/// `-WIN`, and each of several winners `WIN / winners`. The evaluation of an unfinished game
/// stays strictly between `-WIN` and `WIN`, so that any finished game ranks above or below
/// every unfinished one: a unit is a millionth of a win.
pub const WIN: i64 = 1_000_000;

/// The evaluation for `seat` of a game that `winners` won (see [`WIN`]).
pub fn outcome_value(winners: &[Seat], seat: Seat) -> i64 {
    if winners.contains(&seat) {
        WIN / i64::try_from(winners.len()).unwrap_or(1).max(1)
    } else {
        -WIN
    }
}

/// How far `own` is ahead of its rivals (`others`), clamped to an unfinished game's range: the
/// usual last step of an evaluation. The rivals' mark is the mean of the best rival's standing
/// and the rivals' average, so a seat both keeps up with the leader and gains from setting any
/// rival back (the leader alone would make hurting the others worthless at a table of four).
/// With no rivals (a solo game), `own`.
pub fn lead(own: i64, others: impl IntoIterator<Item = i64>) -> i64 {
    let others: Vec<i128> = others.into_iter().map(i128::from).collect();
    let mark = match (others.iter().max(), i128::try_from(others.len())) {
        (Some(&best), Ok(n)) if n > 0 => (best + others.iter().sum::<i128>() / n) / 2,
        _ => 0,
    };
    let lead = (i128::from(own) - mark).clamp(i128::from(-(WIN - 1)), i128::from(WIN - 1));
    i64::try_from(lead).unwrap_or(0)
}

/// Deals the cards of `hands` anew, at random, from those cards and `pool`'s together: each
/// hand keeps its size, the pool takes the rest; `pick(n)` is a random number below `n`. The
/// cards are put in order before they are shuffled, so hands and pools that hold the same
/// cards between them, whoever held which, get the same deal for the same `pick` (what
/// [`Ruleset::imagine`] needs). The caller restores any order its state keeps.
pub fn deal_anew<T: Ord>(
    hands: &mut [&mut Vec<T>],
    pool: &mut Vec<T>,
    pick: &mut dyn FnMut(usize) -> usize,
) {
    let sizes: Vec<usize> = hands.iter().map(|h| h.len()).collect();
    let mut cards: Vec<T> = hands.iter_mut().flat_map(|h| h.drain(..)).collect();
    cards.append(pool);
    cards.sort();
    // Fisher–Yates, from the back; an answer out of range counts as the last place.
    for i in (1..cards.len()).rev() {
        cards.swap(i, pick(i + 1).min(i));
    }
    let mut cards = cards.into_iter();
    for (hand, size) in hands.iter_mut().zip(sizes) {
        hand.extend(cards.by_ref().take(size));
    }
    pool.extend(cards);
}

/// `hand` split into the cards of `known` it holds (each card of `known` once) and the rest.
pub fn split_known<T: PartialEq>(hand: Vec<T>, known: &[T]) -> (Vec<T>, Vec<T>) {
    let mut rest = hand;
    let mut kept = Vec::new();
    for card in known {
        if let Some(i) = rest.iter().position(|c| c == card) {
            kept.push(rest.remove(i));
        }
    }
    (kept, rest)
}

/// Deals anew, from `pool` and themselves ([`deal_anew`]), the cards of every hand but
/// `seat`'s (`hands`, by seat) that `known` does not name for it ([`split_known`]): what
/// [`Ruleset::imagine`] does with hands of cards. The hands dealt and the pool end sorted.
pub fn deal_others_anew<T: Ord>(
    hands: Vec<&mut Vec<T>>,
    seat: Seat,
    known: impl Fn(Seat) -> Vec<T>,
    pool: &mut Vec<T>,
    pick: &mut dyn FnMut(usize) -> usize,
) {
    let mut kept: Vec<Vec<T>> = Vec::new();
    let mut hidden: Vec<Vec<T>> = Vec::new();
    let mut others: Vec<&mut Vec<T>> = Vec::new();
    for (s, hand) in hands.into_iter().enumerate() {
        if s == seat {
            continue;
        }
        let (k, h) = split_known(std::mem::take(hand), &known(s));
        kept.push(k);
        hidden.push(h);
        others.push(hand);
    }
    let mut dealt: Vec<&mut Vec<T>> = hidden.iter_mut().collect();
    deal_anew(&mut dealt, pool, pick);
    pool.sort();
    for ((hand, k), h) in others.into_iter().zip(kept).zip(hidden) {
        *hand = k;
        hand.extend(h);
        hand.sort();
    }
}

/// `state` once every seat that `waiting` names has answered `pass`, one answer at a time
/// (at most 16), as far as that goes: what evaluations look at while a reaction window is open
/// ("if everyone lets it happen").
pub fn after_passes<'a, R: Ruleset>(
    state: &'a R::State,
    waiting: impl Fn(&R::State) -> Option<Seat>,
    pass: &R::Action,
) -> std::borrow::Cow<'a, R::State> {
    if waiting(state).is_none() {
        return std::borrow::Cow::Borrowed(state);
    }
    let mut after = state.clone();
    for _ in 0..16 {
        let Some(seat) = waiting(&after) else { break };
        if R::apply(&mut after, Actor::Seat(seat), pass).is_err() {
            break;
        }
    }
    std::borrow::Cow::Owned(after)
}

/// What the game waits for.
#[derive(Clone, Debug, PartialEq)]
pub enum Next<A> {
    /// These seats must decide now (one for a plain turn; several for reaction windows and
    /// simultaneous choices). Sorted, without duplicates, never empty.
    Players(Vec<Seat>),
    /// A chance step: the service samples one outcome and applies it as `Actor::Chance`.
    Chance(Chance<A>),
    /// The game is over.
    Over(Outcome),
}

/// Who sees a log entry in full. Everyone else sees [`Ruleset::redact`]'s form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    Public,
    Seats(Vec<Seat>),
}

impl Visibility {
    pub fn allows(&self, viewer: Viewer) -> bool {
        match (self, viewer) {
            (Visibility::Public, _) | (_, Viewer::Everyone) => true,
            (Visibility::Seats(seats), Viewer::Seat(s)) => seats.contains(&s),
            (Visibility::Seats(_), Viewer::Spectator) => false,
        }
    }
}

/// Why an action was refused. The state is unchanged whenever one is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The game is over: nothing more can be played.
    #[error("the game is over")]
    GameOver,
    /// The actor does not have a decision to make now.
    #[error("it is not this seat's decision now")]
    NotYourDecision,
    /// The action is not allowed; the message says why, in the game's words.
    #[error("{0}")]
    Illegal(String),
}

impl RuleError {
    pub fn illegal(reason: impl Into<String>) -> Self {
        RuleError::Illegal(reason.into())
    }
}

/// Why a game cannot be set up (bad options, a seat count out of range).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// One option of a ruleset, for `GET /v1/rulesets`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionDoc {
    pub name: &'static str,
    pub description: &'static str,
    pub default: serde_json::Value,
}

/// A standing order a ruleset offers ([`Ruleset::standing_orders`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OrderDoc {
    /// Short, stable, unique within the ruleset: `pass-unless-targeted`.
    pub id: &'static str,
    /// What it does, for people: "Pass in reaction windows unless you are the target."
    pub description: &'static str,
    /// What the order takes after its id, for people, if it takes anything (a parameterized
    /// order: bag-of-fate's `characters oracle queen`); `None` for an order that is its id
    /// alone. The ruleset checks and normalises the whole text ([`Ruleset::check_order`]).
    pub argument: Option<&'static str>,
    /// For an order that takes an argument: the whole order as a player writes it, id first
    /// (`characters wizard hunter farmer`); the conformance suite plays it, and the pace
    /// measure gives it for every seat (`service::pace`).
    pub example: Option<&'static str>,
}

/// A ruleset: the pure rules of one game.
///
/// Contract (checked for every ruleset by `rules::conformance`):
/// - `apply` never panics; on `Err` the state is exactly as before.
/// - Every action in `legal_actions(s, seat)` applies when `seat` is in `Next::Players`, and
///   `legal_actions` is empty for a seat that is not.
/// - Every outcome of `Next::Chance` applies as `Actor::Chance`; nothing else does.
/// - Folding the same actions from `new_game` always gives an equal state.
/// - `view`, `redact` and `describe` never show a viewer another seat's secrets.
pub trait Ruleset: 'static {
    /// Stable id used in the API and the database, e.g. `bag-of-fate`.
    const ID: &'static str;
    /// Human name of the game.
    const NAME: &'static str;

    /// Its JSON Schema (derived beside the serde derives) is published (`crate::rules::schema`).
    type Options: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + JsonSchema;
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// Its JSON Schema (derived beside the serde derives) is published (`crate::rules::schema`).
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + JsonSchema;
    /// What a viewer sees of a state ([`Ruleset::typed_view`]).
    type View: Serialize;

    /// The options a game may be created with, documented.
    fn option_docs() -> Vec<OptionDoc>;
    /// Every option set the conformance suite must cover (at least the default).
    fn option_sets() -> Vec<Self::Options> {
        vec![Self::Options::default()]
    }
    /// Seat counts allowed with these options.
    fn seats(options: &Self::Options) -> RangeInclusive<usize>;
    /// The options a new game is created with, from those asked for: by default the same. A
    /// ruleset whose rule changed for new games only sets its current edition here, so that
    /// games created before keep the old rule (their stored options lack it; see
    /// docs/rules/conformance.md, "Old logs"). Used by `Game::normalise_options`.
    fn for_new_game(options: Self::Options) -> Self::Options {
        options
    }
    /// The state before any chance step of set-up.
    fn new_game(options: &Self::Options, seats: usize) -> Result<Self::State, SetupError>;
    /// What the game waits for.
    fn next(state: &Self::State) -> Next<Self::Action>;
    /// The actions `seat` may take now; empty when `seat` has no decision to make.
    fn legal_actions(state: &Self::State, seat: Seat) -> Vec<Self::Action>;
    /// Applies one action. Total: illegal input is an `Err` and the state is unchanged.
    fn apply(state: &mut Self::State, actor: Actor, action: &Self::Action)
    -> Result<(), RuleError>;
    /// What `viewer` sees of the state, typed (its schema is [`Ruleset::view_schema`]).
    fn typed_view(state: &Self::State, viewer: Viewer) -> Self::View;
    /// What `viewer` sees of the state, as a JSON value.
    fn view(state: &Self::State, viewer: Viewer) -> serde_json::Value {
        serde_json::to_value(Self::typed_view(state, viewer)).unwrap_or(serde_json::Value::Null)
    }
    /// The same JSON as [`Ruleset::view`], written straight from the typed view as text: the
    /// API's answers embed it as it is (building a `Value` first and writing it out again was
    /// a tenth of a submission's CPU in the server).
    fn view_text(state: &Self::State, viewer: Viewer) -> Box<serde_json::value::RawValue> {
        raw_json(&Self::typed_view(state, viewer))
    }
    /// The JSON Schema of every value `view` returns (`GET /v1/rulesets/{id}`, the OpenAPI
    /// document); the conformance suite checks each view it meets against it. Named parts go
    /// into `generator`'s definitions. By default: some JSON object.
    fn view_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let _ = generator;
        any_object("The view (not described in detail yet).")
    }
    /// Who sees this action in full when it is logged; `state` is the state before it.
    fn visibility(state: &Self::State, actor: Actor, action: &Self::Action) -> Visibility;
    /// The form of the action shown to those outside its visibility.
    fn redact(state: &Self::State, actor: Actor, action: &Self::Action) -> serde_json::Value;
    /// One human line for the action as `viewer` may see it; `state` is the state before it.
    fn describe(state: &Self::State, actor: Actor, action: &Self::Action, viewer: Viewer)
    -> String;
    /// The action as one of `seat`'s choices (a legal action's `description` in the API, and
    /// the label of a choice the presenter does not group): what the player may do now, where
    /// `describe` tells the log what was done. By default the description itself.
    fn label(state: &Self::State, seat: Seat, action: &Self::Action) -> String {
        Self::describe(state, Actor::Seat(seat), action, Viewer::Seat(seat))
    }
    /// The action's notation: a short, unique, stable text for it among `seat`'s legal actions
    /// in `state` (like chess's `e2-e4`), which people write in replies and clients may send
    /// instead of the JSON (`{"notation": "..."}`); matched by [`super::notation::key`], so
    /// case and spacing do not matter. No two legal actions of a seat may share a key, and it
    /// tells no more than the action's JSON does to those who see the action (the conformance
    /// suite checks both). By default read off the action's JSON
    /// ([`super::notation::from_json`]); a ruleset with numbers for cards names them here.
    fn notation(state: &Self::State, seat: Seat, action: &Self::Action) -> String {
        let _ = (state, seat);
        super::notation::from_json(&serde_json::to_value(action).unwrap_or_default())
    }
    /// Whether `seat` must still be asked in `state` when it has only one legal action, because
    /// asking is what keeps a secret: a window where every affected wizard is asked so that
    /// nobody learns who holds a counter spell. Elsewhere the service plays a lone choice at
    /// once (logged as `forced`) and mails nobody for it. The conformance suite checks that a
    /// seat whose lone choice is played would have had a lone choice whatever its secrets (so
    /// playing it tells nobody anything); the rulings are in `docs/rules/<ruleset>.md`. By
    /// default a lone choice is played.
    fn keeps_asking(state: &Self::State, seat: Seat) -> bool {
        let _ = (state, seat);
        false
    }
    /// The standing orders a player may give this game in advance, privately: answers to
    /// recurring small decisions ("pass in reaction windows unless I am the target"). Each id
    /// is short, stable and unique within the ruleset (`[a-z0-9-]`). By default none.
    fn standing_orders() -> Vec<OrderDoc> {
        Vec::new()
    }
    /// The standing order `order`, as a player gave it (its id first, then what it takes, if
    /// it takes anything: `characters Oracle, queen`), checked and normalised to the text that
    /// is kept and given to [`Ruleset::standing_answer`] (`characters oracle queen`); `Err`
    /// says why it is refused, naming what would do. The service has already found the id
    /// among [`Ruleset::standing_orders`] and seen that an argument is there exactly when the
    /// order takes one (`rules::registry`). By default only the bare ids of orders that take
    /// nothing are accepted. Pure and total.
    fn check_order(order: &str) -> Result<String, String> {
        let order = order.trim();
        Self::standing_orders()
            .iter()
            .find(|o| o.argument.is_none() && o.id.eq_ignore_ascii_case(order))
            .map(|o| o.id.to_owned())
            .ok_or_else(|| format!("{order:?} is not a standing order of {}", Self::NAME))
    }
    /// The action the standing order `order` (as [`Ruleset::check_order`] kept it: an id of
    /// [`Ruleset::standing_orders`], then its argument if it takes one) takes for `seat` now, if it answers the decision `seat` faces (one of its legal actions); `None`
    /// leaves the decision to the player. It decides only on what `seat` may see (its view):
    /// never on another seat's secrets, and never on a chance step not yet drawn. The service
    /// logs it as the player's own action.
    fn standing_answer(state: &Self::State, seat: Seat, order: &str) -> Option<Self::Action> {
        let _ = (state, seat, order);
        None
    }
    /// The action taken for `seat` when a deadline passes, if the game has a sensible one.
    fn default_action(state: &Self::State, seat: Seat) -> Option<Self::Action>;

    /// Whether `action` takes back a step `seat` began and has not finished (a power used in
    /// two steps, cancelled before its second): it leads back to the state before that step.
    /// The built-in bot never takes one while it has another choice, so it cannot go round in
    /// circles, beginning a step and taking it back again (`crate::bots`). By default, none.
    fn takes_back(_state: &Self::State, _seat: Seat, _action: &Self::Action) -> bool {
        false
    }

    /// A state `seat` could believe it is in, for the built-in bot's look-ahead
    /// (`crate::bots`): the others' secrets that `seat` has not seen (hands, objectives, cards
    /// being looked at) dealt anew at random from everything `seat` cannot see (the unseen
    /// deck included, with [`deal_anew`]); every count, every public fact and everything
    /// `seat` knows (its own secrets, a hand it was shown, a card a rival declared) kept. The
    /// look-ahead then weighs chance as the seat would (a draw from a deck that may hold the
    /// rivals' cards), not as the true state has it. States that differ only in secrets hidden
    /// from `seat` must give the same state for the same `pick`, and `seat` must see the
    /// result as it sees `state` (the conformance suite checks both). `pick(n)` is a random
    /// number below `n` (the bot draws it from its seed). Pure and total. By default the state
    /// itself: right for a game without secrets.
    fn imagine(
        state: &Self::State,
        seat: Seat,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Self::State {
        let _ = (seat, pick);
        state.clone()
    }

    /// How well `seat` stands, for the built-in bots (`crate::bots`): [`outcome_value`] once
    /// the game is over, otherwise the ruleset's own measure of progress (victory points,
    /// levels, objectives, health ...), usually weighed against the strongest rival with
    /// [`lead`], strictly between `-WIN` and `WIN` (see [`WIN`] for the scale). It reads only
    /// what `seat` may see: the public table and `seat`'s own secrets, never another seat's.
    /// Pure and total like `view`: no panic, no float, no `HashMap` order. The default knows
    /// only finished games (every unfinished game is 0).
    fn evaluate(state: &Self::State, seat: Seat) -> i64 {
        match Self::next(state) {
            Next::Over(outcome) => outcome_value(&outcome.winners, seat),
            _ => 0,
        }
    }

    /// The table as `viewer` may see it, in words for people (`present.rs` beside the rules).
    /// `names` are the players' display names by seat. Pure and total like `view`, and it
    /// shows exactly what `view` shows: the conformance suite plants secrets and checks.
    fn present(state: &Self::State, viewer: Viewer, names: &[String]) -> Presented {
        let _ = (viewer, names);
        Presented {
            headline: match Self::next(state) {
                Next::Players(seats) => format!(
                    "Waiting for {}.",
                    seats
                        .iter()
                        .map(|s| format!("Seat {s}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Next::Chance(_) => "Waiting for the next draw.".into(),
                Next::Over(outcome) => format!("Game over: {}", outcome.summary),
            },
            sections: vec![],
        }
    }

    /// A picture of the table as `viewer` may see it: one complete SVG document (`<svg>` with
    /// `xmlns`, a `viewBox`, `width` and `height`, and a `<title>`), drawn per ruleset
    /// (`picture.rs` beside the rules) for the web page and, rendered to PNG, the HTML mail.
    /// Pure and total like `present`, and it shows no more than `view` shows (the conformance
    /// suite plants secrets and checks the picture too). Shapes a player may choose carry
    /// `data-target="<id>"` (for example a square's name); see [`Ruleset::targets`].
    /// `None`: the ruleset has no picture (the page shows the presenter's text alone).
    fn picture(state: &Self::State, viewer: Viewer, names: &[String]) -> Option<String> {
        let _ = (state, viewer, names);
        None
    }

    /// For each of `actions` (the legal actions of `seat`, in order), the `data-target` id of
    /// the shape in [`Ruleset::picture`] it is about (a square to move to, a tile to place on),
    /// if any: clicking that shape on the page offers those choices. Same length as `actions`.
    fn targets(state: &Self::State, seat: Seat, actions: &[Self::Action]) -> Vec<Option<String>> {
        let _ = (state, seat);
        vec![None; actions.len()]
    }

    /// `actions` (the legal actions of `seat`, numbered from 1 in this order) grouped and
    /// labelled for people. Every number from 1 to `actions.len()` must appear exactly once.
    fn choices(
        state: &Self::State,
        seat: Seat,
        actions: &[Self::Action],
        names: &[String],
    ) -> Vec<ChoiceGroup> {
        let _ = names;
        super::present::plain_list(
            actions
                .iter()
                .map(|a| Self::describe(state, Actor::Seat(seat), a, Viewer::Seat(seat))),
        )
    }
}

/// The [`Ruleset`] methods a ruleset's folder implements by convention, each in the file that
/// owns it, written into the ruleset's `impl Ruleset` block (a macro in item position) instead
/// of a block of one-line methods that forward to those files. Each `part: module` pair names
/// the file whose free functions of the same names (and the trait's signatures) implement the
/// part's methods; a part named alone (`view`) is implemented by the file of its name:
///
/// | part | methods (functions of `module`) |
/// |---|---|
/// | `play` | `next`, `legal_actions`, `apply` (or each on its own: `next`, `legal_actions`, `apply`) |
/// | `view` | `typed_view`, `view_schema`, `visibility`, `redact`, `describe` |
/// | `label` | `label` |
/// | `belief` | `imagine` |
/// | `evaluate` | `evaluate` |
/// | `present` | `present`, `choices` |
/// | `picture` | `picture` (returned as `Some`), `targets` |
/// | `notation` | `notation` |
/// | `orders` | `standing_orders`, `standing_answer` |
/// | `check_order` | `check_order` (an order that takes an argument) |
///
/// ```ignore
/// impl Ruleset for BagOfFate {
///     // ID, NAME, the types, options, seats, new_game, the methods with bodies of their own…
///     crate::rules::parts!(play: actions, view, belief, evaluate, notation);
/// }
/// ```
///
/// A new method of the trait that every ruleset's file implements is one row here.
macro_rules! parts {
    ($($part:ident $(: $module:ident)?),+ $(,)?) => {
        $( $crate::rules::parts!(@ $part $($module)?); )+
    };
    (@ play $m:ident) => {
        $crate::rules::parts!(@ next $m);
        $crate::rules::parts!(@ legal_actions $m);
        $crate::rules::parts!(@ apply $m);
    };
    (@ next $m:ident) => {
        fn next(state: &Self::State) -> $crate::rules::Next<Self::Action> {
            $m::next(state)
        }
    };
    (@ legal_actions $m:ident) => {
        fn legal_actions(state: &Self::State, seat: $crate::rules::Seat) -> Vec<Self::Action> {
            $m::legal_actions(state, seat)
        }
    };
    (@ apply $m:ident) => {
        fn apply(
            state: &mut Self::State,
            actor: $crate::rules::Actor,
            action: &Self::Action,
        ) -> Result<(), $crate::rules::RuleError> {
            $m::apply(state, actor, action)
        }
    };
    (@ view $m:ident) => {
        fn typed_view(state: &Self::State, viewer: $crate::rules::Viewer) -> Self::View {
            $m::typed_view(state, viewer)
        }
        fn view_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
            $m::view_schema(generator)
        }
        fn visibility(
            state: &Self::State,
            actor: $crate::rules::Actor,
            action: &Self::Action,
        ) -> $crate::rules::Visibility {
            $m::visibility(state, actor, action)
        }
        fn redact(
            state: &Self::State,
            actor: $crate::rules::Actor,
            action: &Self::Action,
        ) -> serde_json::Value {
            $m::redact(state, actor, action)
        }
        fn describe(
            state: &Self::State,
            actor: $crate::rules::Actor,
            action: &Self::Action,
            viewer: $crate::rules::Viewer,
        ) -> String {
            $m::describe(state, actor, action, viewer)
        }
    };
    (@ label $m:ident) => {
        fn label(state: &Self::State, seat: $crate::rules::Seat, action: &Self::Action) -> String {
            $m::label(state, seat, action)
        }
    };
    (@ belief $m:ident) => {
        fn imagine(
            state: &Self::State,
            seat: $crate::rules::Seat,
            pick: &mut dyn FnMut(usize) -> usize,
        ) -> Self::State {
            $m::imagine(state, seat, pick)
        }
    };
    (@ evaluate $m:ident) => {
        fn evaluate(state: &Self::State, seat: $crate::rules::Seat) -> i64 {
            $m::evaluate(state, seat)
        }
    };
    (@ present $m:ident) => {
        fn present(
            state: &Self::State,
            viewer: $crate::rules::Viewer,
            names: &[String],
        ) -> $crate::rules::Presented {
            $m::present(state, viewer, names)
        }
        fn choices(
            state: &Self::State,
            seat: $crate::rules::Seat,
            actions: &[Self::Action],
            names: &[String],
        ) -> Vec<$crate::rules::ChoiceGroup> {
            $m::choices(state, seat, actions, names)
        }
    };
    (@ picture $m:ident) => {
        fn picture(
            state: &Self::State,
            viewer: $crate::rules::Viewer,
            names: &[String],
        ) -> Option<String> {
            Some($m::picture(state, viewer, names))
        }
        fn targets(
            state: &Self::State,
            seat: $crate::rules::Seat,
            actions: &[Self::Action],
        ) -> Vec<Option<String>> {
            $m::targets(state, seat, actions)
        }
    };
    (@ notation $m:ident) => {
        fn notation(state: &Self::State, seat: $crate::rules::Seat, action: &Self::Action) -> String {
            $m::notation(state, seat, action)
        }
    };
    (@ check_order $m:ident) => {
        fn check_order(order: &str) -> Result<String, String> {
            $m::check_order(order)
        }
    };
    (@ orders $m:ident) => {
        fn standing_orders() -> Vec<$crate::rules::OrderDoc> {
            $m::standing_orders()
        }
        fn standing_answer(
            state: &Self::State,
            seat: $crate::rules::Seat,
            order: &str,
        ) -> Option<Self::Action> {
            $m::standing_answer(state, seat, order)
        }
    };
    // A part named alone is implemented by the file of its name (`view` for `view: view`).
    (@ $part:ident) => {
        $crate::rules::parts!(@ $part $part);
    };
}
pub(crate) use parts;

/// `value` as JSON text; `null` should it fail to serialise (a map with non-string keys: no
/// ruleset's view has one, and the conformance suite checks the text against `view`).
pub fn raw_json<T: serde::Serialize + ?Sized>(value: &T) -> Box<serde_json::value::RawValue> {
    serde_json::value::to_raw_value(value).unwrap_or_default()
}

/// A schema for a view not typed yet: any JSON object.
fn any_object(description: &str) -> schemars::Schema {
    let mut map = serde_json::Map::new();
    map.insert("type".to_owned(), serde_json::json!("object"));
    map.insert("description".to_owned(), serde_json::json!(description));
    schemars::Schema::from(map)
}
