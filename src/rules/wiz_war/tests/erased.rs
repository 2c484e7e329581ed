//! A whole game through the erased JSON interface the service uses, with a counter-spell
//! window: the script the HTTP test follows (see the report in docs/rules/wiz-war.md).

use serde_json::{Value, json};

use crate::rules::Seat;
use crate::rules::registry::{Erased, Game as _, GameState, Waiting};
use crate::rules::wiz_war::WizWar;

/// What the script sends for `seat`: a counter when asked in a window (else pass); the first
/// listed cast once, following its first listed target and boost; otherwise draw, end the
/// move, end the turn, or the first listed action.
fn choose(state: &dyn GameState, seat: Seat, cast_done: bool) -> Value {
    let legal: Vec<Value> = state
        .legal_actions(seat)
        .into_iter()
        .map(|a| a.action)
        .collect();
    let find = |pred: &dyn Fn(&Value) -> bool| legal.iter().find(|a| pred(a)).cloned();
    if legal.contains(&json!("pass")) {
        return find(&|a| a.get("counter").is_some()).unwrap_or(json!("pass"));
    }
    if legal.contains(&json!("cancel_cast")) {
        return find(&|a| *a != json!("cancel_cast")).unwrap_or(json!("cancel_cast"));
    }
    if !cast_done && let Some(cast) = find(&|a| a.get("cast").is_some()) {
        return cast;
    }
    for plain in ["draw_card", "end_move", "end_turn"] {
        if legal.contains(&json!(plain)) {
            return json!(plain);
        }
    }
    legal.first().cloned().unwrap_or(Value::Null)
}

#[test]
fn a_whole_game_with_a_counter_spell_window_through_json() {
    let game = Erased::<WizWar>::default();
    let options = json!({"ask_every_affected_wizard": true, "round_limit": 30});
    let mut state = game.new_game(&options, 2).unwrap();
    let (mut cast_done, mut windows, mut counters, mut steps) = (false, 0, 0, 0);
    loop {
        steps += 1;
        assert!(steps < 5_000, "the game must end");
        match state.waiting() {
            Waiting::Over(outcome) => {
                assert!(!outcome.summary.is_empty());
                break;
            }
            // The service samples chance; the script takes the first outcome.
            Waiting::Chance(_) => {
                state.apply_chance(0).unwrap();
            }
            Waiting::Players(seats) => {
                let seat = seats[0];
                let view = state.view(crate::rules::Viewer::Seat(seat));
                if view["phase"] == json!("reaction_window") {
                    windows += 1;
                    assert_eq!(view["to_act"], json!(seat));
                }
                let action = choose(state.as_ref(), seat, cast_done);
                if action.get("cast").is_some() {
                    cast_done = true;
                }
                if action.get("counter").is_some() {
                    counters += 1;
                }
                state.apply_json(seat, &action).unwrap();
            }
        }
    }
    assert!(cast_done && windows >= 1, "a window opened ({windows})");
    println!("{steps} steps, {windows} window answers, {counters} counters");
}
