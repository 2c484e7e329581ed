//! One random playout and the checks made along it (see the list in `conformance.rs`).

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::viewers::viewers;
use super::{
    Config, Secrets, Stats, belief, first_difference, probe, secrets, short, to_json, twins,
};
use crate::rules::registry::{Applied, Erased, Game, GameState, Waiting};
use crate::rules::{Actor, Chance, Next, Outcome, RuleError, Ruleset, Seat, Viewer, notation};

#[path = "rejections.rs"]
mod rejections;

/// Earlier actions kept to try again once they are no longer listed.
const POOL: usize = 64;

/// What may be applied now, by whom.
pub(super) enum Listed<'a, A> {
    /// The legal actions of every seat, by seat (empty for seats not to act).
    Players(&'a [Vec<A>]),
    Chance(&'a [(A, u32)]),
    Over,
}

impl<A: PartialEq> Listed<'_, A> {
    fn allows(&self, actor: Actor, action: &A) -> bool {
        match (self, actor) {
            (Listed::Players(legal), Actor::Seat(s)) => {
                legal.get(s).is_some_and(|l| l.contains(action))
            }
            (Listed::Chance(outcomes), Actor::Chance) => outcomes.iter().any(|(o, _)| o == action),
            _ => false,
        }
    }

    /// Every listed action, whoever it is listed for.
    fn all(&self) -> Vec<&A> {
        match self {
            Listed::Players(legal) => legal.iter().flatten().collect(),
            Listed::Chance(outcomes) => outcomes.iter().map(|(o, _)| o).collect(),
            Listed::Over => Vec::new(),
        }
    }

    /// The actions listed for `seat`.
    fn of(&self, seat: Seat) -> &[A] {
        match self {
            Listed::Players(legal) => legal.get(seat).map_or(&[], Vec::as_slice),
            _ => &[],
        }
    }

    /// The seats that act now.
    fn acting(&self) -> Vec<Seat> {
        match self {
            Listed::Players(legal) => (0..legal.len()).filter(|&s| !legal[s].is_empty()).collect(),
            _ => Vec::new(),
        }
    }
}

struct Playout<'a, R: Secrets> {
    config: &'a Config,
    options: &'a R::Options,
    options_json: &'a Value,
    seats: usize,
    /// Whether every state gets the full checks, for every seat.
    thorough: bool,
    /// Chooses the actions and chance outcomes: the course of the game depends on it alone.
    play: ChaCha8Rng,
    /// Chooses the probes and the fully checked states.
    probe: ChaCha8Rng,
    state: R::State,
    /// The same game behind the erased interface, fed the same actions as JSON.
    erased: Box<dyn GameState>,
    log: Vec<(Actor, R::Action)>,
    pool: Vec<R::Action>,
    /// Keys and strings of the actions seen, for random JSON that looks almost right.
    words: Vec<String>,
    stats: &'a mut Stats,
}

/// Plays the playout of `seed` to the end, checking as it goes; returns its log.
/// `at` follows the number of actions applied, for the message of a panic.
pub(super) fn play<R: Secrets>(
    config: &Config,
    options: &R::Options,
    options_json: &Value,
    seats: usize,
    seed: u64,
    stats: &mut Stats,
    at: &mut usize,
) -> Vec<(Actor, R::Action)> {
    let state = R::new_game(options, seats)
        .unwrap_or_else(|e| panic!("new_game refused {seats} seats: {e}"));
    let erased = Erased::<R>::default()
        .new_game(options_json, seats)
        .unwrap_or_else(|e| panic!("Game::new_game refused {seats} seats: {e}"));
    let mut probe = ChaCha8Rng::seed_from_u64(seed);
    probe.set_stream(1);
    let mut p = Playout::<R> {
        config,
        options,
        options_json,
        seats,
        thorough: seed < config.thorough_playouts,
        play: ChaCha8Rng::seed_from_u64(seed),
        probe,
        state,
        erased,
        log: Vec::new(),
        pool: Vec::new(),
        words: Vec::new(),
        stats,
    };
    loop {
        *at = p.log.len();
        if p.thorough && p.log.len() >= config.thorough_steps {
            p.thorough = false;
        }
        let full = p.thorough || p.probe.random_ratio(1, config.sample_every);
        match R::next(&p.state) {
            Next::Over(outcome) => {
                p.game_over(&outcome);
                return p.log;
            }
            _ if p.log.len() >= config.max_steps => panic!(
                "the game did not end within max_steps = {} actions; the last ones: {:?}",
                config.max_steps,
                &p.log[p.log.len().saturating_sub(5)..]
            ),
            Next::Players(acting) => p.players(&acting, full),
            Next::Chance(chance) => p.chance(&chance, full),
        }
        if p.log.len().is_power_of_two() {
            p.check_refold();
        }
    }
}

impl<R: Secrets> Playout<'_, R> {
    fn players(&mut self, acting: &[Seat], full: bool) {
        let n = self.seats;
        assert!(
            !acting.is_empty() && acting.windows(2).all(|w| w[0] < w[1]),
            "Next::Players({acting:?}) must be non-empty, sorted and without duplicates"
        );
        if let Some(s) = acting.iter().find(|&&s| s >= n) {
            panic!("Next::Players({acting:?}) names seat {s} at a table of {n}");
        }
        let legal: Vec<Vec<R::Action>> = (0..n).map(|s| R::legal_actions(&self.state, s)).collect();
        for (s, actions) in legal.iter().enumerate() {
            match (acting.contains(&s), actions.is_empty()) {
                (true, true) => panic!(
                    "seat {s} is to act (Next::Players({acting:?})) but legal_actions lists nothing"
                ),
                (false, false) => panic!(
                    "seat {s} is not to act (Next::Players({acting:?})) but legal_actions lists {actions:?}"
                ),
                _ => {}
            }
        }
        let listed = Listed::Players(&legal);
        self.probes(&listed, full);
        let seat = acting[self.play.random_range(0..acting.len())];
        let action = legal[seat][self.play.random_range(0..legal[seat].len())].clone();
        if let Some(&other) = listed.all().choose(&mut self.probe) {
            self.remember(other);
        }
        self.apply(Actor::Seat(seat), action, None);
    }

    fn chance(&mut self, chance: &Chance<R::Action>, full: bool) {
        let outcomes = &chance.outcomes;
        assert!(!outcomes.is_empty(), "a chance step without outcomes");
        if let Some((outcome, _)) = outcomes.iter().find(|(_, w)| *w == 0) {
            panic!("the chance outcome {outcome:?} has weight 0 (leave it out instead)");
        }
        for (i, (a, _)) in outcomes.iter().enumerate() {
            if outcomes[..i].iter().any(|(b, _)| a == b) {
                panic!("the chance outcome {a:?} is listed twice (sum its weights instead)");
            }
        }
        self.nobody_acts("during a chance step");
        self.probes(&Listed::Chance(outcomes), full);
        // Drawn as the service draws: a point in the total weight, mapped by `Chance::pick`.
        let point = self.play.random_range(0..chance.total_weight());
        let index = chance
            .pick(point)
            .and_then(|picked| outcomes.iter().position(|(o, _)| std::ptr::eq(o, picked)))
            .unwrap_or_else(|| panic!("Chance::pick({point}) found no outcome"));
        self.apply(Actor::Chance, outcomes[index].0.clone(), Some(index));
    }

    fn game_over(&mut self, outcome: &Outcome) {
        let n = self.seats;
        let winners = &outcome.winners;
        for (i, w) in winners.iter().enumerate() {
            assert!(
                *w < n && !winners[..i].contains(w),
                "the outcome's winners {winners:?} must be distinct seats of the {n}"
            );
        }
        if let Some(scores) = &outcome.scores {
            assert_eq!(
                scores.len(),
                n,
                "the outcome has {scores:?}: one score per seat"
            );
        }
        one_line(&outcome.summary, || "the outcome's summary".to_owned());
        self.nobody_acts("after the game is over");
        self.probes(&Listed::Over, true);
        self.check_refold();
        let log: Vec<(Actor, Value)> = self.log.iter().map(|(a, x)| (*a, to_json(x))).collect();
        let folded = Erased::<R>::default()
            .fold(self.options_json, n, &log)
            .unwrap_or_else(|e| panic!("Game::fold refused the JSON log of the playout: {e}"))
            .to_json();
        let json = to_json(&self.state);
        if folded != json {
            panic!(
                "Game::fold of the JSON log gives another state than the playout: {}",
                first_difference(&json, &folded)
            );
        }
        let loaded = Erased::<R>::default()
            .load(&json)
            .unwrap_or_else(|e| panic!("Game::load refused a snapshot: {e}"))
            .to_json();
        if loaded != json {
            panic!(
                "Game::load changed a snapshot: {}",
                first_difference(&json, &loaded)
            );
        }
        for viewer in viewers(n).into_iter().chain([Viewer::Everyone]) {
            R::view(&self.state, viewer);
        }
    }

    fn nobody_acts(&self, when: &str) {
        for s in 0..self.seats {
            let actions = R::legal_actions(&self.state, s);
            assert!(
                actions.is_empty(),
                "seat {s} has legal actions {when}: {actions:?}"
            );
        }
    }

    /// The rejection probes of every state, and the full checks where `full`.
    fn probes(&mut self, listed: &Listed<R::Action>, full: bool) {
        if full {
            self.full_checks(listed);
        }
        self.refuse_unlisted(listed, full);
    }

    fn full_checks(&mut self, listed: &Listed<R::Action>) {
        self.stats.full_states += 1;
        // The presenters (words and pictures, the dearest checks) at every fully checked state
        // of a sampled playout, and at one in `sample_every` of a thorough one: the thorough
        // playouts of the long games would otherwise present tens of thousands of states.
        let present = !self.thorough || self.probe.random_ratio(1, self.config.sample_every);
        let json = to_json(&self.state);
        self.check_snapshot(&json, listed);
        self.check_erased_agrees(&json, listed);
        // The published schemas where the presenters are checked: a view per viewer costs as
        // much as the rest of a state's checks, and neighbouring states have the same shapes.
        if present {
            super::schemas::check_state::<R>(
                &self.state,
                self.seats,
                matches!(listed, Listed::Over),
                &listed.all(),
            );
        }
        match listed {
            Listed::Players(legal) => {
                for (s, actions) in legal.iter().enumerate() {
                    let actor = Actor::Seat(s);
                    for (i, a) in actions.iter().enumerate() {
                        if actions[..i].contains(a) {
                            panic!("legal_actions of seat {s} lists {a:?} twice: {actions:?}");
                        }
                        self.must_apply(actor, a);
                    }
                    if actions.is_empty() {
                        continue;
                    }
                    check_notation::<R>(&self.state, s, actions);
                    self.stats.notations += actions.len();
                    if present {
                        check_choices::<R>(&self.state, s, actions);
                    }
                    if let Some(d) =
                        R::default_action(&self.state, s).filter(|d| !actions.contains(d))
                    {
                        panic!(
                            "default_action of seat {s} is {d:?}, which is not listed: {actions:?}"
                        );
                    }
                }
            }
            Listed::Chance(outcomes) => {
                for (o, _) in *outcomes {
                    self.must_apply(Actor::Chance, o);
                }
            }
            // Views may show everything once the game is over.
            Listed::Over => return,
        }
        // The seats whose secrets and twins are checked: in a thorough playout each seat in
        // turn, one per state (so every seat over any `seats` states in a row; all of them at
        // every state cost the suite most of its time, for states much like their neighbours);
        // in the others one seat at random. The twin is an acting seat's at a decision (whose
        // secrets its next move may give away).
        let acting = listed.acting();
        let turn = self.log.len();
        let viewers: Vec<Seat> = if self.thorough {
            vec![turn % self.seats]
        } else {
            vec![self.probe.random_range(0..self.seats)]
        };
        let twinned: Vec<Seat> = if self.thorough && !acting.is_empty() {
            vec![acting[turn % acting.len()]]
        } else if self.thorough {
            vec![turn % self.seats]
        } else if let Some(&seat) = acting.choose(&mut self.probe) {
            vec![seat]
        } else {
            vec![self.probe.random_range(0..self.seats)]
        };
        secrets::check_state::<R>(&self.state, self.seats, &viewers, present, self.stats);
        for &seat in &viewers {
            // A seed of the playout's own (the probe's draws would change every later state).
            let seed = turn as u64;
            belief::nothing_forgotten::<R>(&self.state, seat, seed, self.stats);
        }
        for seat in twinned {
            twins::check::<R>(&self.state, self.seats, seat, &mut self.probe, self.stats);
        }
    }

    fn must_apply(&self, actor: Actor, action: &R::Action) {
        let mut copy = self.state.clone();
        if let Err(e) = R::apply(&mut copy, actor, action) {
            panic!("{action:?} is listed for {actor:?} but apply refused it: {e}");
        }
        round_trip::<R>(action);
    }

    /// The state survives the JSON snapshot the service stores (`json`), to an equal state that
    /// lists the same actions in the same order.
    fn check_snapshot(&self, json: &Value, listed: &Listed<R::Action>) {
        let back: R::State = serde_json::from_value(json.clone()).unwrap_or_else(|e| {
            panic!(
                "the state's JSON does not read back: {e}: {}",
                short(&json.to_string())
            )
        });
        if back != self.state {
            panic!(
                "the state does not survive a JSON round trip (the service stores snapshots as \
                 JSON): {}",
                state_difference::<R>(&self.state, &back)
            );
        }
        // The service writes the snapshot as text straight from the state
        // (`GameState::to_json_text`): the same JSON.
        let text = crate::rules::raw_json(&self.state);
        let read: Value = serde_json::from_str(text.get()).unwrap_or(Value::Null);
        assert!(
            read == *json,
            "the state's JSON text is not its JSON value: {}",
            short(text.get())
        );
        assert!(
            R::next(&back) == R::next(&self.state),
            "next() differs after a JSON round trip of the state"
        );
        for s in 0..self.seats {
            assert!(
                R::legal_actions(&back, s).iter().eq(listed.of(s)),
                "legal_actions of seat {s} differ (or come in another order) after a JSON round \
                 trip of the state: a HashMap? Emails number the actions"
            );
        }
    }

    /// The erased state has followed the typed one (`json`), and shows the same choices.
    fn check_erased_agrees(&self, json: &Value, listed: &Listed<R::Action>) {
        let erased = self.erased.to_json();
        if erased != *json {
            panic!(
                "the same actions applied through the erased interface gave another state: apply \
                 is not deterministic (or depends on something outside the state): {}",
                first_difference(json, &erased)
            );
        }
        let waiting = self.erased.waiting();
        let expected = match (listed, R::next(&self.state)) {
            (Listed::Players(_), Next::Players(seats)) => Waiting::Players(seats),
            (Listed::Chance(o), _) => Waiting::Chance(o.iter().map(|(_, w)| *w).collect()),
            (_, Next::Over(outcome)) => Waiting::Over(outcome),
            (_, next) => panic!("next() changed between two calls on the same state: {next:?}"),
        };
        assert!(
            waiting == expected,
            "GameState::waiting is {waiting:?}, expected {expected:?}"
        );
        for s in 0..self.seats {
            let typed: Vec<Value> = listed.of(s).iter().map(to_json).collect();
            let erased = self.erased.legal_actions(s);
            if !typed.iter().eq(erased.iter().map(|e| &e.action)) {
                let erased: Vec<&Value> = erased.iter().map(|e| &e.action).collect();
                panic!(
                    "the erased copy of the game (the same actions, applied as JSON) lists other \
                     actions for seat {s}, or in another order (a HashMap?): {} vs {}",
                    short(&Value::from(typed).to_string()),
                    short(&serde_json::to_string(&erased).unwrap_or_default())
                );
            }
            for e in &erased {
                one_line(&e.description, || {
                    format!("the description of {} offered to seat {s}", e.action)
                });
            }
        }
    }

    /// Applies the chosen action (or outcome at `chance_index`), typed and erased, and logs it.
    fn apply(&mut self, actor: Actor, action: R::Action, chance_index: Option<usize>) {
        let before = &self.state;
        for viewer in viewers(self.seats).into_iter().chain([Viewer::Everyone]) {
            let text = R::describe(before, actor, &action, viewer);
            one_line(&text, || {
                format!("the description of {action:?} by {actor:?} for {viewer:?}")
            });
        }
        secrets::check_logged::<R>(before, self.seats, actor, &action, self.stats);
        let json = round_trip::<R>(&action);
        if let Err(e) = R::apply(&mut self.state, actor, &action) {
            panic!("{action:?} is listed for {actor:?} but apply refused it: {e}");
        }
        let applied = match chance_index {
            Some(index) => self.erased.apply_chance(index),
            None => apply_erased(self.erased.as_mut(), actor, &json),
        };
        match applied {
            Ok(applied) if applied.action == json => {}
            Ok(applied) => panic!("the erased interface logged {json} as {}", applied.action),
            Err(e) => panic!("the erased interface refused {json}, listed for {actor:?}: {e}"),
        }
        self.remember(&action);
        self.log.push((actor, action));
    }

    fn remember(&mut self, action: &R::Action) {
        probe::collect_words(&to_json(action), &mut self.words);
        if self.pool.contains(action) {
            return;
        }
        if self.pool.len() < POOL {
            self.pool.push(action.clone());
        } else {
            let slot = self.probe.random_range(0..POOL);
            self.pool[slot] = action.clone();
        }
    }

    /// Folding the log from a new game gives the state reached step by step.
    fn check_refold(&self) {
        let mut state = R::new_game(self.options, self.seats)
            .unwrap_or_else(|e| panic!("new_game refused {} seats: {e}", self.seats));
        for (i, (actor, action)) in self.log.iter().enumerate() {
            if let Err(e) = R::apply(&mut state, *actor, action) {
                panic!(
                    "folding the log again from new_game, entry {i} ({actor:?} {action:?}) was \
                     refused: {e}; apply is not deterministic (or depends on something outside \
                     the state)"
                );
            }
        }
        if state != self.state {
            panic!(
                "folding the log of {} actions from new_game gives another state than applying \
                 them one by one: apply is not deterministic (or depends on something outside the \
                 state): {}",
                self.log.len(),
                state_difference::<R>(&self.state, &state)
            );
        }
    }
}

/// The action's JSON, once checked to read back as the same action (the log stores JSON).
/// The largest presentation (table and choices) a person may be sent: mail stays well under
/// the ~102 KB at which Gmail clips a message, with room for the log and the HTML part.
const MAX_PRESENTED_BYTES: usize = 40_000;

/// The presenter numbers every legal action of `seat` exactly once, in one-line labels, and
/// its table and choices stay small enough for a mail.
fn check_choices<R: Secrets>(state: &R::State, seat: Seat, actions: &[R::Action]) {
    let names = super::secrets::names();
    let groups = R::choices(state, seat, actions, &names);
    let mut numbers: Vec<usize> = groups
        .iter()
        .flat_map(|g| g.choices.iter().map(|c| c.number))
        .collect();
    numbers.sort_unstable();
    let expected: Vec<usize> = (1..=actions.len()).collect();
    assert!(
        numbers == expected,
        "the choices of seat {seat} number {numbers:?}, not each of 1..={} once: {groups:?}",
        actions.len()
    );
    for group in &groups {
        assert!(
            !group.title.contains(['\n', '\r']),
            "a choice group title of seat {seat} spans lines: {:?}",
            group.title
        );
        for choice in &group.choices {
            assert!(
                !choice.label.trim().is_empty(),
                "choice {} of seat {seat} has no label",
                choice.number
            );
            one_line(&choice.label, || {
                format!("choice {} of seat {seat}", choice.number)
            });
        }
    }
    let size = super::secrets::presented_text::<R>(state, Viewer::Seat(seat)).len();
    assert!(
        size <= MAX_PRESENTED_BYTES,
        "seat {seat}'s table and choices take {size} bytes, over {MAX_PRESENTED_BYTES}"
    );
    check_picture::<R>(state, seat, actions);
}

/// The longest notation: short enough to type on a line of a reply.
const MAX_NOTATION_CHARS: usize = 60;

/// Every legal action of `seat` has a notation (`Ruleset::notation`): one line, short, and
/// found again by it (`notation::find`), that action and no other.
fn check_notation<R: Ruleset>(state: &R::State, seat: Seat, actions: &[R::Action]) {
    let notations: Vec<String> = actions
        .iter()
        .map(|a| R::notation(state, seat, a))
        .collect();
    for (i, (n, a)) in notations.iter().zip(actions).enumerate() {
        assert!(
            !n.trim().is_empty() && n.chars().count() <= MAX_NOTATION_CHARS,
            "the notation of {a:?} (seat {seat}) is {n:?}: empty, or over {MAX_NOTATION_CHARS} characters"
        );
        one_line(n, || format!("the notation of {a:?}"));
        match notation::find(n, &notations) {
            Ok(found) if found == i => {}
            Ok(found) => panic!(
                "the notation {n:?} of {a:?} finds {:?} (seat {seat})",
                actions.get(found)
            ),
            Err(miss) => panic!(
                "the notation {n:?} of {a:?} (seat {seat}) does not name it alone: {miss:?}; all: {notations:?}"
            ),
        }
    }
}

/// The most an SVG picture may take (it is sent with every page view and rendered for mail).
const MAX_PICTURE_BYTES: usize = 200_000;

/// A ruleset's picture, if it draws one, is one well-formed SVG document with a `viewBox`, a
/// size and a `<title>`, under [`MAX_PICTURE_BYTES`]; and every target an action of `seat` names
/// is a shape in the picture of that seat.
fn check_picture<R: Secrets>(state: &R::State, seat: Seat, actions: &[R::Action]) {
    let names = super::secrets::names();
    let targets = R::targets(state, seat, actions);
    assert_eq!(
        targets.len(),
        actions.len(),
        "Ruleset::targets gives {} entries for seat {seat}'s {} actions",
        targets.len(),
        actions.len()
    );
    let Some(svg) = R::picture(state, Viewer::Seat(seat), &names) else {
        assert!(
            targets.iter().all(Option::is_none),
            "targets without a picture to click on: {targets:?}"
        );
        return;
    };
    assert!(
        svg.len() <= MAX_PICTURE_BYTES,
        "seat {seat}'s picture takes {} bytes, over {MAX_PICTURE_BYTES}",
        svg.len()
    );
    let doc = match roxmltree::Document::parse(&svg) {
        Ok(doc) => doc,
        Err(e) => panic!(
            "seat {seat}'s picture is not well-formed XML ({e}): {}",
            short(&svg)
        ),
    };
    let root = doc.root_element();
    assert_eq!(
        root.tag_name().name(),
        "svg",
        "the picture's root is not <svg>"
    );
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg"),
        "the picture's <svg> has no SVG namespace"
    );
    for attribute in ["viewBox", "width", "height"] {
        assert!(
            root.attribute(attribute).is_some(),
            "the picture's <svg> has no {attribute}"
        );
    }
    assert!(
        root.children()
            .any(|c| c.tag_name().name() == "title"
                && c.text().is_some_and(|t| !t.trim().is_empty())),
        "the picture has no <title> (its text alternative)"
    );
    let shapes: std::collections::HashSet<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("data-target"))
        .collect();
    for (i, target) in targets.iter().enumerate() {
        if let Some(t) = target {
            assert!(
                shapes.contains(t.as_str()),
                "action {} of seat {seat} targets {t:?}, which the picture has no shape for",
                i + 1
            );
        }
    }
}

fn round_trip<R: Ruleset>(action: &R::Action) -> Value {
    let json = to_json(action);
    let back = serde_json::from_value::<R::Action>(json.clone());
    if back.as_ref().ok() != Some(action) {
        panic!(
            "the action {action:?} does not survive a JSON round trip: {json} reads as {back:?}"
        );
    }
    json
}

fn apply_erased(
    state: &mut dyn GameState,
    actor: Actor,
    value: &Value,
) -> Result<Applied, RuleError> {
    match actor {
        Actor::Seat(s) => state.apply_json(s, value),
        Actor::Chance => state.apply_as(actor, value),
    }
}

fn one_line(text: &str, what: impl FnOnce() -> String) {
    if text.trim().is_empty() || text.contains(['\n', '\r']) {
        panic!("{} must be one non-empty line, not {text:?}", what());
    }
}

/// Where two states differ: in their JSON, or else around the first difference of their Debug.
fn state_difference<R: Ruleset>(a: &R::State, b: &R::State) -> String {
    let (x, y) = (to_json(a), to_json(b));
    if x != y {
        return first_difference(&x, &y);
    }
    let (a, b) = (format!("{a:?}"), format!("{b:?}"));
    let at = a.chars().zip(b.chars()).take_while(|(p, q)| p == q).count();
    let around =
        |text: &str| -> String { text.chars().skip(at.saturating_sub(80)).take(160).collect() };
    format!(
        "their JSON is equal: they differ in something serde skips, at character {at} of their Debug:\n…{}…\n…{}…",
        around(&a),
        around(&b)
    )
}
