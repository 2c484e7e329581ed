//! Type erasure: the service handles every ruleset through JSON, by ruleset id.

use std::marker::PhantomData;
use std::ops::RangeInclusive;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::contract::{
    Actor, Next, OptionDoc, OrderDoc, Outcome, RuleError, Ruleset, Seat, SetupError, Viewer,
    Visibility, raw_json,
};
use super::notation;
use super::present::{self, ChoiceGroup, Presented};
use super::schema::Schemas;

/// What the game waits for, without the ruleset's types.
#[derive(Clone, Debug, PartialEq)]
pub enum Waiting {
    Players(Vec<Seat>),
    /// A chance step with these outcome weights (see [`crate::rules::Chance`]).
    Chance(Vec<u32>),
    Over(Outcome),
}

/// A logged action in all its forms, computed from the state before it was applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    pub actor: Actor,
    pub action: Value,
    pub visibility: Visibility,
    /// What those outside `visibility` see instead of `action`.
    pub redacted: Value,
    /// The description for those who see the action in full.
    pub description: String,
    /// The description for everyone else.
    pub redacted_description: String,
    /// The action's notation ([`Ruleset::notation`]) for a seat's action, shown with the
    /// action to those who see it in full; `None` for chance.
    pub notation: Option<String>,
}

/// A legal action with its one-line description.
#[derive(Clone, Debug, PartialEq)]
pub struct LegalAction {
    pub action: Value,
    pub description: String,
    /// Its notation ([`Ruleset::notation`]), unique among the seat's legal actions.
    pub notation: String,
}

/// A game state behind the erased interface.
pub trait GameState: Send + Sync {
    fn waiting(&self) -> Waiting;
    fn legal_actions(&self, seat: Seat) -> Vec<LegalAction>;
    /// Applies a player's action given as JSON (malformed JSON is an illegal action).
    /// `{"notation": "..."}` names the legal action of `seat` with that notation.
    fn apply_json(&mut self, seat: Seat, action: &Value) -> Result<Applied, RuleError>;
    /// Whether `seat` must be asked even when it has one legal action ([`Ruleset::keeps_asking`]).
    fn keeps_asking(&self, seat: Seat) -> bool;
    /// The forced choice of `seat`: its only legal action, where the ruleset does not keep
    /// asking (`Ruleset::keeps_asking`); the service plays it without asking.
    fn forced_action(&self, seat: Seat) -> Option<LegalAction>;
    /// The forced choice the service plays next, before `seat`'s next step: the first waiting
    /// seat's forced choice ([`GameState::forced_action`]), unless it is `seat`'s own and
    /// `named` says the next step names it (that step then plays it, as the player's own).
    /// `None` while the game waits for chance or is over. The submission, its preview and a
    /// mail reply's plan all play forced choices by this one rule.
    fn next_forced(
        &self,
        seat: Seat,
        named: &dyn Fn(&LegalAction) -> bool,
    ) -> Option<(Seat, LegalAction)> {
        let Waiting::Players(seats) = self.waiting() else {
            return None;
        };
        seats.into_iter().find_map(|s| {
            let forced = self.forced_action(s)?;
            (s != seat || !named(&forced)).then_some((s, forced))
        })
    }
    /// The first of `orders` (standing order ids) that answers `seat`'s decision now, with the
    /// action it takes ([`Ruleset::standing_answer`]); only a legal action counts.
    fn standing_answer(&self, seat: Seat, orders: &[String]) -> Option<(String, Value)>;
    /// Applies the chance outcome at `index` of the current chance step's weights.
    fn apply_chance(&mut self, index: usize) -> Result<Applied, RuleError>;
    /// Applies an action given as JSON for any actor (replaying a log).
    fn apply_as(&mut self, actor: Actor, action: &Value) -> Result<Applied, RuleError>;
    fn view(&self, viewer: Viewer) -> Value;
    /// [`GameState::view`] as JSON text ([`crate::rules::Ruleset::view_text`]).
    fn view_text(&self, viewer: Viewer) -> Box<RawValue>;
    fn to_json(&self) -> Value;
    /// [`GameState::to_json`] as JSON text, written straight from the typed state.
    fn to_json_text(&self) -> Box<RawValue>;
    fn default_action(&self, seat: Seat) -> Option<Value>;
    /// For each legal action of `seat` (in order), whether it takes back a step the seat began
    /// ([`crate::rules::Ruleset::takes_back`]).
    fn take_backs(&self, seat: Seat) -> Vec<bool>;
    /// The table as `viewer` may see it, for people, with the players' `names` (by seat).
    fn present(&self, viewer: Viewer, names: &[String]) -> Presented;
    /// The legal actions of `seat` and the same actions grouped into numbered choices for
    /// people (numbers are positions in the list, from 1; every one appears exactly once).
    fn choices(&self, seat: Seat, names: &[String]) -> (Vec<LegalAction>, Vec<ChoiceGroup>);
    /// The picture of the table for `viewer` (an SVG document), if the ruleset draws one.
    fn picture(&self, viewer: Viewer, names: &[String]) -> Option<String>;
    /// For each legal action of `seat` (in order), the `data-target` of the picture's shape
    /// it is about, if any.
    fn targets(&self, seat: Seat) -> Vec<Option<String>>;

    // For the built-in bots (`crate::bots`): look-ahead on copies.

    /// A copy of the state.
    fn clone_box(&self) -> Box<dyn GameState>;
    /// Whether `other` is a state of the same ruleset, equal to this one (a look-ahead that
    /// comes back to where it was is going round in circles).
    fn same_state(&self, other: &dyn GameState) -> bool;
    /// The state as `Any`, for [`GameState::same_state`].
    fn as_any(&self) -> &dyn std::any::Any;
    /// A state `seat` could believe it is in ([`Ruleset::imagine`]): the secrets it has not
    /// seen dealt anew with `pick(n)` (a random number below `n`).
    fn imagine(&self, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> Box<dyn GameState>;
    /// How well `seat` stands ([`Ruleset::evaluate`]: a finished game is ±[`crate::rules::WIN`]).
    fn evaluate(&self, seat: Seat) -> i64;
    /// The states after choices of `actor`: a seat's legal actions in [`GameState::legal_actions`]
    /// order, or chance's outcomes in the order of [`Waiting::Chance`]'s weights. `picks` names
    /// the choices by index (all of them when `None`); an index that is out of range, or a
    /// choice that does not apply, gives `None`. Nothing is described or logged, so this is the
    /// cheap way to try actions.
    fn successors(&self, actor: Actor, picks: Option<&[usize]>) -> Vec<Option<Box<dyn GameState>>>;
}

/// A ruleset behind the erased interface.
pub trait Game: Send + Sync {
    fn id(&self) -> &'static str;
    fn name(&self) -> &'static str;
    fn option_docs(&self) -> Vec<OptionDoc>;
    /// The standing orders a player may give ([`Ruleset::standing_orders`]).
    fn standing_orders(&self) -> Vec<OrderDoc>;
    /// A standing order as a player gave it (`characters Oracle, queen`), checked against those
    /// offered ([`Game::standing_orders`]) and normalised to the text that is kept and given to
    /// [`GameState::standing_answer`] (`characters oracle queen`): its id first (any case), then
    /// an argument exactly when the order takes one ([`OrderDoc::argument`]), which the ruleset
    /// checks ([`Ruleset::check_order`]). `Err` says why not, naming what would do.
    fn check_order(&self, order: &str) -> Result<String, String>;
    /// The JSON Schemas of the ruleset's options, actions and view.
    fn schemas(&self) -> Schemas;
    /// Seat range for the given options (`null` means the defaults).
    fn seats(&self, options: &Value) -> Result<RangeInclusive<usize>, SetupError>;
    /// Validates options and fills in defaults, returning the normalised JSON.
    fn normalise_options(&self, options: &Value) -> Result<Value, SetupError>;
    fn new_game(&self, options: &Value, seats: usize) -> Result<Box<dyn GameState>, SetupError>;
    /// Loads a snapshot written by [`GameState::to_json`].
    fn load(&self, state: &Value) -> Result<Box<dyn GameState>, serde_json::Error>;
    /// Rebuilds a state by folding a log of (actor, action) from a new game.
    fn fold(
        &self,
        options: &Value,
        seats: usize,
        log: &[(Actor, Value)],
    ) -> Result<Box<dyn GameState>, String> {
        let mut state = self.new_game(options, seats).map_err(|e| e.to_string())?;
        for (n, (actor, action)) in log.iter().enumerate() {
            state
                .apply_as(*actor, action)
                .map_err(|e| format!("log entry {} ({actor:?}): {e}", n + 1))?;
        }
        Ok(state)
    }
}

struct Typed<R: Ruleset>(R::State);

/// The standing order every ruleset offers: a lone choice the service does not play by itself
/// (asking keeps a secret there: `Ruleset::keeps_asking`) is played at once anyway, as the
/// player's own, because the player chose to let the table see that they had no other.
pub const LONE_CHOICES: OrderDoc = OrderDoc {
    id: "play-lone-choices",
    description: "Play at once any choice that is my only one, also where the game would ask \
                  me to keep a secret (the table may then tell that I had no other choice).",
    argument: None,
    example: None,
};

/// Whether `next`, an action as a client sends it (its JSON, or `{"notation": ...}`), names
/// the legal action `choice`.
pub fn names_choice(next: &Value, choice: &LegalAction) -> bool {
    match notation_of(next) {
        Some(text) => notation::key(text) == notation::key(&choice.notation),
        None => *next == choice.action,
    }
}

/// The text of an action given by its notation: `{"notation": "<text>"}` and nothing else.
pub fn notation_of(action: &Value) -> Option<&str> {
    match action.as_object() {
        Some(map) if map.len() == 1 => map.get("notation").and_then(Value::as_str),
        _ => None,
    }
}

fn parse<R: Ruleset>(action: &Value) -> Result<R::Action, RuleError> {
    R::Action::deserialize(action)
        .map_err(|e| RuleError::illegal(format!("not an action of {}: {e}", R::NAME)))
}

impl<R: Ruleset> Typed<R> {
    fn applied(&mut self, actor: Actor, action: R::Action) -> Result<Applied, RuleError> {
        // Describe from the state before the action; `describe` is total, so doing it first
        // costs nothing when the action turns out illegal and saves cloning the state.
        let state = &self.0;
        let applied = Applied {
            actor,
            visibility: R::visibility(state, actor, &action),
            redacted: R::redact(state, actor, &action),
            description: R::describe(state, actor, &action, Viewer::Everyone),
            redacted_description: R::describe(state, actor, &action, Viewer::Spectator),
            notation: match actor {
                Actor::Seat(seat) => Some(R::notation(state, seat, &action)),
                Actor::Chance => None,
            },
            action: serde_json::to_value(&action).unwrap_or(Value::Null),
        };
        R::apply(&mut self.0, actor, &action)?;
        Ok(applied)
    }
}

impl<R: Ruleset> GameState for Typed<R>
where
    R::State: Send + Sync,
{
    fn waiting(&self) -> Waiting {
        match R::next(&self.0) {
            Next::Players(seats) => Waiting::Players(seats),
            Next::Chance(chance) => {
                Waiting::Chance(chance.outcomes.iter().map(|(_, w)| *w).collect())
            }
            Next::Over(outcome) => Waiting::Over(outcome),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<LegalAction> {
        R::legal_actions(&self.0, seat)
            .into_iter()
            .map(|a| LegalAction {
                description: R::label(&self.0, seat, &a),
                notation: R::notation(&self.0, seat, &a),
                action: serde_json::to_value(&a).unwrap_or(Value::Null),
            })
            .collect()
    }

    fn apply_json(&mut self, seat: Seat, action: &Value) -> Result<Applied, RuleError> {
        if let Some(text) = notation_of(action) {
            let legal = R::legal_actions(&self.0, seat);
            if legal.is_empty() {
                return Err(RuleError::NotYourDecision);
            }
            let notations: Vec<String> = legal
                .iter()
                .map(|a| R::notation(&self.0, seat, a))
                .collect();
            let index = notation::find(text, &notations)
                .map_err(|miss| RuleError::illegal(miss.explain(text)))?;
            let Some(action) = legal.into_iter().nth(index) else {
                return Err(RuleError::illegal("no such choice"));
            };
            return self.applied(Actor::Seat(seat), action);
        }
        // Matched as listed (issue 43): the JSON must be the action as `legal_actions` writes
        // it, so `{"end_move": null}` for `"end_move"`, or an unknown field beside the
        // listed ones, is refused rather than read as the listed action.
        let parsed = parse::<R>(action)?;
        let listed = serde_json::to_value(&parsed).unwrap_or(Value::Null);
        if listed != *action {
            return Err(RuleError::illegal(format!(
                "{action} is not an action as listed; send it exactly as `legal_actions` \
                 lists it, with no other field (here {listed})"
            )));
        }
        self.applied(Actor::Seat(seat), parsed)
    }

    fn keeps_asking(&self, seat: Seat) -> bool {
        R::keeps_asking(&self.0, seat)
    }

    fn standing_answer(&self, seat: Seat, orders: &[String]) -> Option<(String, Value)> {
        let legal = R::legal_actions(&self.0, seat);
        if legal.is_empty() {
            return None;
        }
        orders.iter().find_map(|order| {
            if order == LONE_CHOICES.id {
                return match legal.as_slice() {
                    [only] => Some((
                        order.clone(),
                        serde_json::to_value(only).unwrap_or(Value::Null),
                    )),
                    _ => None,
                };
            }
            let action = R::standing_answer(&self.0, seat, order)?;
            legal.contains(&action).then(|| {
                (
                    order.clone(),
                    serde_json::to_value(&action).unwrap_or(Value::Null),
                )
            })
        })
    }

    fn forced_action(&self, seat: Seat) -> Option<LegalAction> {
        let mut legal = R::legal_actions(&self.0, seat);
        if legal.len() != 1 || R::keeps_asking(&self.0, seat) {
            return None;
        }
        let action = legal.pop()?;
        Some(LegalAction {
            description: R::label(&self.0, seat, &action),
            notation: R::notation(&self.0, seat, &action),
            action: serde_json::to_value(&action).unwrap_or(Value::Null),
        })
    }

    fn apply_as(&mut self, actor: Actor, action: &Value) -> Result<Applied, RuleError> {
        let action = parse::<R>(action)?;
        self.applied(actor, action)
    }

    fn apply_chance(&mut self, index: usize) -> Result<Applied, RuleError> {
        let Next::Chance(chance) = R::next(&self.0) else {
            return Err(RuleError::NotYourDecision);
        };
        let Some((action, _)) = chance.outcomes.into_iter().nth(index) else {
            return Err(RuleError::illegal("no such chance outcome"));
        };
        self.applied(Actor::Chance, action)
    }

    fn view(&self, viewer: Viewer) -> Value {
        R::view(&self.0, viewer)
    }

    fn view_text(&self, viewer: Viewer) -> Box<RawValue> {
        R::view_text(&self.0, viewer)
    }

    fn to_json(&self) -> Value {
        serde_json::to_value(&self.0).unwrap_or(Value::Null)
    }

    fn to_json_text(&self) -> Box<RawValue> {
        raw_json(&self.0)
    }

    fn default_action(&self, seat: Seat) -> Option<Value> {
        R::default_action(&self.0, seat).and_then(|a| serde_json::to_value(a).ok())
    }

    fn take_backs(&self, seat: Seat) -> Vec<bool> {
        R::legal_actions(&self.0, seat)
            .iter()
            .map(|a| R::takes_back(&self.0, seat, a))
            .collect()
    }

    fn present(&self, viewer: Viewer, names: &[String]) -> Presented {
        present::with_names(R::present(&self.0, viewer, names), names)
    }

    fn picture(&self, viewer: Viewer, names: &[String]) -> Option<String> {
        R::picture(&self.0, viewer, names)
    }

    fn clone_box(&self) -> Box<dyn GameState> {
        Box::new(Typed::<R>(self.0.clone()))
    }

    fn same_state(&self, other: &dyn GameState) -> bool {
        other
            .as_any()
            .downcast_ref::<Typed<R>>()
            .is_some_and(|o| o.0 == self.0)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn imagine(&self, seat: Seat, pick: &mut dyn FnMut(usize) -> usize) -> Box<dyn GameState> {
        Box::new(Typed::<R>(R::imagine(&self.0, seat, pick)))
    }

    fn evaluate(&self, seat: Seat) -> i64 {
        R::evaluate(&self.0, seat)
    }

    fn successors(&self, actor: Actor, picks: Option<&[usize]>) -> Vec<Option<Box<dyn GameState>>> {
        let choices: Vec<R::Action> = match actor {
            Actor::Seat(seat) => R::legal_actions(&self.0, seat),
            Actor::Chance => match R::next(&self.0) {
                Next::Chance(chance) => chance.outcomes.into_iter().map(|(a, _)| a).collect(),
                _ => Vec::new(),
            },
        };
        let after = |action: &R::Action| -> Option<Box<dyn GameState>> {
            let mut state = self.0.clone();
            R::apply(&mut state, actor, action).ok()?;
            Some(Box::new(Typed::<R>(state)))
        };
        match picks {
            None => choices.iter().map(after).collect(),
            Some(picks) => picks
                .iter()
                .map(|&i| choices.get(i).and_then(after))
                .collect(),
        }
    }

    fn targets(&self, seat: Seat) -> Vec<Option<String>> {
        let actions = R::legal_actions(&self.0, seat);
        let mut targets = R::targets(&self.0, seat, &actions);
        targets.resize(actions.len(), None);
        targets
    }

    fn choices(&self, seat: Seat, names: &[String]) -> (Vec<LegalAction>, Vec<ChoiceGroup>) {
        let actions = R::legal_actions(&self.0, seat);
        let legal: Vec<LegalAction> = actions
            .iter()
            .map(|a| LegalAction {
                description: R::label(&self.0, seat, a),
                notation: R::notation(&self.0, seat, a),
                action: serde_json::to_value(a).unwrap_or(Value::Null),
            })
            .collect();
        let groups = present::complete(
            R::choices(&self.0, seat, &actions, names),
            legal.len(),
            |i| {
                legal
                    .get(i)
                    .map(|a| a.description.clone())
                    .unwrap_or_default()
            },
        );
        (legal, present::groups_with_names(groups, names))
    }
}

/// Erases a ruleset type.
pub struct Erased<R>(PhantomData<fn() -> R>);

impl<R: Ruleset> Default for Erased<R> {
    fn default() -> Self {
        Erased(PhantomData)
    }
}

fn options_of<R: Ruleset>(options: &Value) -> Result<R::Options, SetupError> {
    if options.is_null() {
        return Ok(R::Options::default());
    }
    // serde reads a struct from an array too (`[]` is every default): the document says object.
    if !options.is_object() {
        return Err(SetupError(format!(
            "invalid options for {}: an object, or null for the defaults",
            R::ID
        )));
    }
    R::Options::deserialize(options)
        .map_err(|e| SetupError(format!("invalid options for {}: {e}", R::ID)))
}

impl<R: Ruleset> Game for Erased<R>
where
    R::State: Send + Sync,
{
    fn id(&self) -> &'static str {
        R::ID
    }

    fn name(&self) -> &'static str {
        R::NAME
    }

    fn option_docs(&self) -> Vec<OptionDoc> {
        R::option_docs()
    }

    fn standing_orders(&self) -> Vec<OrderDoc> {
        let mut orders = vec![LONE_CHOICES];
        orders.extend(R::standing_orders());
        orders
    }

    fn check_order(&self, order: &str) -> Result<String, String> {
        let words: Vec<&str> = order
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        let Some((first, rest)) = words.split_first() else {
            return Err("a standing order is its id, not an empty text".into());
        };
        let offered = self.standing_orders();
        let Some(doc) = offered.iter().find(|o| o.id.eq_ignore_ascii_case(first)) else {
            let known: Vec<&str> = offered.iter().map(|o| o.id).collect();
            return Err(format!(
                "{first:?} is not a standing order of this game; there are: {}",
                known.join(", ")
            ));
        };
        match (doc.argument, rest.is_empty()) {
            (None, true) => Ok(doc.id.to_owned()),
            (None, false) => Err(format!(
                "{} takes nothing after it, not {:?}",
                doc.id,
                rest.join(" ")
            )),
            (Some(what), true) => Err(format!(
                "{} needs {what} after it (as in `{}`)",
                doc.id,
                doc.example.unwrap_or(doc.id)
            )),
            (Some(_), false) => R::check_order(&format!("{} {}", doc.id, rest.join(" "))),
        }
    }

    fn schemas(&self) -> Schemas {
        super::schema::schemas_of::<R>()
    }

    fn seats(&self, options: &Value) -> Result<RangeInclusive<usize>, SetupError> {
        Ok(R::seats(&options_of::<R>(options)?))
    }

    fn normalise_options(&self, options: &Value) -> Result<Value, SetupError> {
        let typed = R::for_new_game(options_of::<R>(options)?);
        serde_json::to_value(typed).map_err(|e| SetupError(e.to_string()))
    }

    fn new_game(&self, options: &Value, seats: usize) -> Result<Box<dyn GameState>, SetupError> {
        let options = options_of::<R>(options)?;
        let range = R::seats(&options);
        if !range.contains(&seats) {
            return Err(SetupError(format!(
                "{} takes {} to {} seats, not {seats}",
                R::NAME,
                range.start(),
                range.end()
            )));
        }
        Ok(Box::new(Typed::<R>(R::new_game(&options, seats)?)))
    }

    fn load(&self, state: &Value) -> Result<Box<dyn GameState>, serde_json::Error> {
        Ok(Box::new(Typed::<R>(R::State::deserialize(state)?)))
    }
}

/// Every ruleset Turnpost hosts, by id.
pub struct Registry {
    games: Vec<Box<dyn Game>>,
}

impl Registry {
    /// A registry of these rulesets (`Registry::standard()` in `rules` lists the hosted ones).
    pub fn new(games: Vec<Box<dyn Game>>) -> Self {
        Registry { games }
    }

    pub fn get(&self, id: &str) -> Option<&dyn Game> {
        self.games.iter().find(|g| g.id() == id).map(|g| g.as_ref())
    }

    pub fn all(&self) -> impl Iterator<Item = &dyn Game> {
        self.games.iter().map(|g| g.as_ref())
    }
}
