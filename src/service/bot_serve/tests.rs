use serde_json::{Value, json};

use super::*;
use crate::rules::GameState;
use crate::service::duel::tests::Recorder;
use crate::service::duel::{Bot, RandomPlayer, duel_game};

/// Decision points of a game of two random players (states where a seat had a choice).
fn decision_points(id: &str, seed: u64) -> Vec<(Box<dyn GameState>, Seat)> {
    let registry = Registry::standard();
    let game = registry.get(id).unwrap();
    let mut first = Recorder::new(RandomPlayer::default());
    let mut second = Recorder::new(RandomPlayer::default());
    duel_game(game, seed, 0, &mut first, &mut second, 200).unwrap();
    first
        .asked
        .into_iter()
        .chain(second.asked)
        .map(|(_, seat, state, _)| (state, seat))
        .filter(|(state, seat)| state.legal_actions(*seat).len() > 1)
        .step_by(9)
        .collect()
}

fn parsed(line: &str) -> Value {
    assert!(!line.contains('\n'), "one line: {line}");
    serde_json::from_str(line).unwrap()
}

/// A state read back from its JSON (as the service stores states) is the same state, and the
/// served bot decides there as the bot decides on the state itself.
#[test]
fn the_served_bot_decides_as_the_bot() {
    let registry = Registry::standard();
    let mut server = Server::default();
    for game in registry.all() {
        let points = decision_points(game.id(), 3);
        assert!(points.len() >= 3, "{}: {} points", game.id(), points.len());
        for (i, (state, seat)) in points.iter().enumerate() {
            let json = state.to_json();
            let back = game.load(&json).unwrap();
            assert!(back.same_state(state.as_ref()), "{}: {json}", game.id());
            let seed = 77 + i as u64;
            let request = json!({"ruleset": game.id(), "state": json, "seat": seat, "seed": seed});
            let answer = parsed(&server.answer(&request.to_string()));
            let expected = crate::bots::choose(state.as_ref(), *seat, seed).unwrap();
            assert_eq!(answer, json!({ "action": expected }), "{}", game.id());
        }
    }
}

/// Whatever is wrong with a request is an error line, never a panic: not JSON, not a request,
/// an unknown ruleset, a state that is not one, a seat with nothing to decide.
#[test]
fn a_bad_request_is_an_error_line() {
    let mut server = Server::default();
    let registry = Registry::standard();
    let game = registry.get("wiz-war").unwrap();
    // A state where the other seat has nothing to decide.
    let (state, seat) = decision_points("wiz-war", 1)
        .into_iter()
        .find(|(state, seat)| state.legal_actions(1 - seat).is_empty())
        .unwrap();
    let state = state.to_json();
    let other = 1 - seat;
    let cases = [
        ("not json".to_owned(), "not a request"),
        (json!({"ruleset": "wiz-war"}).to_string(), "not a request"),
        (
            json!({"ruleset": "chess", "state": state, "seat": seat, "seed": 1}).to_string(),
            "no ruleset chess",
        ),
        (
            json!({"ruleset": "bag-of-fate", "state": state, "seat": seat, "seed": 1}).to_string(),
            "not a state of bag-of-fate",
        ),
        (
            json!({"ruleset": "wiz-war", "state": {"board": 3}, "seat": 0, "seed": 1}).to_string(),
            "not a state of wiz-war",
        ),
        (
            json!({"ruleset": "wiz-war", "state": state, "seat": other, "seed": 1}).to_string(),
            "nothing to decide",
        ),
        (
            json!({"ruleset": "wiz-war", "state": state, "seat": 9, "seed": 1}).to_string(),
            "",
        ),
        (
            json!({"ruleset": "wiz-war", "state": state, "seat": -1, "seed": 1}).to_string(),
            "not a request",
        ),
    ];
    for (line, why) in cases {
        let answer = parsed(&server.answer(&line));
        let error = answer["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{answer}"));
        assert!(error.contains(why), "{line}: {error}");
    }
    assert!(game.load(&state).is_ok());
}

/// `serve` answers every request line with one line, in order, and skips blank lines.
#[test]
fn every_request_gets_its_line() {
    let (state, seat) = decision_points("bag-of-fate", 2)
        .into_iter()
        .next()
        .unwrap();
    let request =
        json!({"ruleset": "bag-of-fate", "state": state.to_json(), "seat": seat, "seed": 5});
    let input = format!("{request}\n\nnonsense\n{request}\n");
    let mut output = Vec::new();
    serve(input.as_bytes(), &mut output).unwrap();
    let lines: Vec<Value> = String::from_utf8(output)
        .unwrap()
        .lines()
        .map(parsed)
        .collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].get("action").is_some());
    assert!(lines[1].get("error").is_some());
    assert_eq!(lines[2], lines[0]);
}

/// A command that answers nonsense: every answer is counted as illegal and the default action
/// is played; the game goes on to its bound.
#[test]
fn a_command_that_answers_nonsense_is_counted() {
    let registry = Registry::standard();
    let game = registry.get("bag-of-fate").unwrap();
    let mut nonsense =
        Exec::start(r#"while read -r line; do echo '{"action": {"nonsense": 1}}'; done"#).unwrap();
    let played = duel_game(game, 0, 0, &mut Bot::default(), &mut nonsense, 40).unwrap();
    assert!(played.illegal > 0);
    let mut ended = Exec::start("true").unwrap();
    let played = duel_game(game, 0, 1, &mut Bot::default(), &mut ended, 40).unwrap();
    assert!(played.illegal > 0, "no answer from a command that ended");
}
