//! The published schemas hold: at fully checked states every view (for each seat, the
//! spectator, and everyone once the game is over), every listed action and chance outcome, and
//! every option set validate against the JSON Schemas `GET /v1/rulesets/{id}` serves
//! (`crate::rules::schema`). A client generated from the OpenAPI document reads them with
//! those schemas, so a view or an action outside its schema breaks such clients.

use std::any::TypeId;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use jsonschema::Validator;
use serde_json::Value;

use super::viewers::viewers;
use crate::rules::Ruleset;
use crate::rules::schema::schemas_of;

/// The three schemas of one ruleset, compiled.
pub(super) struct Validators {
    options: Validator,
    action: Validator,
    view: Validator,
}

thread_local! {
    static COMPILED: RefCell<BTreeMap<TypeId, Rc<Validators>>> = const { RefCell::new(BTreeMap::new()) };
}

/// The compiled schemas of `R` (compiled once per thread and ruleset type).
pub(super) fn validators<R: Ruleset>() -> Rc<Validators> {
    COMPILED.with(|compiled| {
        compiled
            .borrow_mut()
            .entry(TypeId::of::<R>())
            .or_insert_with(|| {
                let schemas = schemas_of::<R>();
                let compile = |what: &str, schema: &Value| {
                    jsonschema::draft202012::new(schema).unwrap_or_else(|e| {
                        panic!(
                            "{}: the published {what} schema is not valid JSON Schema: {e}",
                            R::ID
                        )
                    })
                };
                Rc::new(Validators {
                    options: compile("options", &schemas.options),
                    action: compile("action", &schemas.action),
                    view: compile("view", &schemas.view),
                })
            })
            .clone()
    })
}

fn holds(validator: &Validator, what: &str, value: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .take(5)
        .map(|e| format!("at {}: {e}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} does not match its published schema ({}):\n{value}",
        errors.join("; ")
    );
}

/// An option set, as JSON.
pub(super) fn check_options<R: Ruleset>(options: &Value) {
    holds(
        &validators::<R>().options,
        &format!("{}: the options", R::ID),
        options,
    );
}

/// The views of `state` for every viewer of a table of `seats` (and for everyone once the game
/// is `over`), and `actions` (listed actions or chance outcomes).
pub(super) fn check_state<R: Ruleset>(
    state: &R::State,
    seats: usize,
    over: bool,
    actions: &[&R::Action],
) {
    let compiled = validators::<R>();
    let everyone = over.then_some(crate::rules::Viewer::Everyone);
    for viewer in viewers(seats).into_iter().chain(everyone) {
        let view = R::view(state, viewer);
        holds(&compiled.view, &format!("the view of {viewer:?}"), &view);
        // The API answers with the view's text (`Ruleset::view_text`): the same JSON.
        let text = R::view_text(state, viewer);
        let read: Value = serde_json::from_str(text.get()).unwrap_or(Value::Null);
        if read != view {
            panic!(
                "view_text of {viewer:?} is not the view's JSON:\n{}\nagainst\n{view}",
                text.get()
            );
        }
    }
    for action in actions {
        let json = serde_json::to_value(action).unwrap_or(Value::Null);
        holds(&compiled.action, &format!("the action {action:?}"), &json);
    }
}
