//! Whole games over HTTP: every action taken from `legal_actions`, by separate users.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::system_tests::helpers::{Picker, Player, TestApp, spawn_app};
use crate::system_tests::secrets::assert_no_foreign_secrets;

/// Bound on requests for one game (a random bag-of-fate game takes a few hundred actions).
const MAX_ACTIONS: usize = 20_000;

/// Plays `game` to its end, each seat's user choosing at random among its legal actions.
/// Every few actions the views and logs of all seats and a spectator are checked for leaks.
pub async fn play_to_end(
    app: &TestApp,
    game: Uuid,
    players: &[Player],
    spectator: &Player,
    seed: u64,
) -> Value {
    play_counting_waits(app, game, players, Some(spectator), seed)
        .await
        .0
}

/// Plays to the end and counts, per seat, how often it newly had to act (a "wait": the
/// initial one at the start, then each time a submission left it to act when it was not).
pub async fn play_counting_waits(
    app: &TestApp,
    game: Uuid,
    players: &[Player],
    spectator: Option<&Player>,
    seed: u64,
) -> (Value, Vec<usize>) {
    let mut picker = Picker::new(seed);
    let mut waits = vec![0; players.len()];
    let first = app
        .get(&format!("/v1/games/{game}"), &players[0])
        .await
        .expect(200);
    for s in first["to_act"].as_array().unwrap() {
        waits[s.as_u64().unwrap() as usize] += 1;
    }
    for step in 0..MAX_ACTIONS {
        let record = app
            .get(&format!("/v1/games/{game}"), &players[0])
            .await
            .expect(200);
        if record["status"] == "finished" {
            return (record, waits);
        }
        assert_eq!(record["status"], "active");
        let to_act: Vec<usize> = serde_json::from_value(record["to_act"].clone()).unwrap();
        assert!(!to_act.is_empty());
        let seat = to_act[picker.below(to_act.len())];
        let player = &players[seat];
        let state = app
            .get(&format!("/v1/games/{game}/state"), player)
            .await
            .expect(200);
        assert_eq!(state["seat"], seat);
        let legal = state["legal_actions"].as_array().unwrap();
        assert!(
            !legal.is_empty(),
            "seat {seat} must act but has no legal action"
        );
        let choice = &legal[picker.below(legal.len())];
        assert!(
            choice["description"]
                .as_str()
                .is_some_and(|d| !d.is_empty())
        );
        let body = json!({"expected_version": state["version"], "actions": [choice["action"]]});
        let result = app
            .post(&format!("/v1/games/{game}/actions"), player, &body)
            .await
            .expect(200);
        assert!(result["version"].as_i64().unwrap() > state["version"].as_i64().unwrap());
        assert_eq!(result["state"]["version"], result["version"]);
        for s in result["state"]["to_act"].as_array().unwrap() {
            if !to_act.contains(&(s.as_u64().unwrap() as usize)) {
                waits[s.as_u64().unwrap() as usize] += 1;
            }
        }
        if let Some(spectator) = spectator
            && step % 7 == 0
        {
            assert_no_foreign_secrets(app, game, players, spectator).await;
        }
    }
    panic!("game {game} did not end within {MAX_ACTIONS} actions");
}

/// Everything a finished game publishes checks out: the seed matches its published hash, and
/// re-deriving every chance step from the seed and its log position gives the logged outcome.
pub async fn verify_finished_game(app: &TestApp, game: Uuid, viewer: &Player) {
    let record = app
        .get(&format!("/v1/games/{game}"), viewer)
        .await
        .expect(200);
    assert_eq!(record["status"], "finished");
    let seed = hex::decode(record["seed"].as_str().expect("seed revealed")).unwrap();
    assert_eq!(
        hex::encode(Sha256::digest(&seed)),
        record["seed_sha256"].as_str().unwrap()
    );
    assert!(!record["outcome"]["winners"].as_array().unwrap().is_empty());

    let mut entries = vec![];
    let mut after = 0;
    loop {
        let page = app
            .get(
                &format!("/v1/games/{game}/events?after={after}&limit=1000"),
                viewer,
            )
            .await
            .expect(200);
        let batch = page["entries"].as_array().unwrap().clone();
        entries.extend(batch);
        match page["next"].as_i64() {
            Some(n) => after = n,
            None => break,
        }
    }
    for (i, e) in entries.iter().enumerate() {
        assert_eq!(e["seq"], i as i64 + 1, "seq contiguous from 1");
        assert_eq!(e["redacted"], false, "a finished game's log is public");
    }
    assert_eq!(entries.last().unwrap()["kind"], "ended");
    assert_eq!(record["version"], entries.len() as i64);

    let registry = turnpost::rules::Registry::standard();
    let rules = registry.get(record["ruleset"].as_str().unwrap()).unwrap();
    let seats = record["seats"].as_array().unwrap().len();
    let mut state = rules.new_game(&record["options"], seats).unwrap();
    let mut chance_steps = 0;
    for e in &entries {
        match e["actor"]["type"].as_str().unwrap() {
            "system" => {}
            "seat" => {
                let seat = e["actor"]["seat"].as_u64().unwrap() as usize;
                state
                    .apply_json(seat, &e["action"])
                    .expect("logged action applies");
            }
            "chance" => {
                let turnpost::rules::Waiting::Chance(weights) = state.waiting() else {
                    panic!(
                        "entry {} is chance but the game was not at a chance step",
                        e["seq"]
                    );
                };
                let seq = e["seq"].as_i64().unwrap();
                let index = turnpost::service::chance::pick(&seed, seq, &weights).unwrap();
                let applied = state.apply_chance(index).unwrap();
                assert_eq!(
                    applied.action, e["action"],
                    "chance step {seq} re-derived from the seed"
                );
                chance_steps += 1;
            }
            other => panic!("unknown actor {other}"),
        }
    }
    assert!(chance_steps > 0);
    assert!(matches!(state.waiting(), turnpost::rules::Waiting::Over(_)));
    let final_view = app
        .get(&format!("/v1/games/{game}/state"), viewer)
        .await
        .expect(200);
    assert_eq!(
        final_view["view"],
        state.view(turnpost::rules::Viewer::Everyone)
    );
}

async fn whole_game(seats: usize, seed: u64) {
    let app = spawn_app().await;
    let mut players = vec![];
    for i in 0..seats {
        players.push(app.register(&format!("P{i}")).await);
    }
    let spectator = app.register("Watcher").await;
    let game = app.start_game("bag-of-fate", &players, json!({})).await;
    let finished = play_to_end(&app, game, &players, &spectator, seed).await;
    let winners = finished["outcome"]["winners"].as_array().unwrap();
    assert_eq!(winners.len(), 1, "the Wizard's win has one winner");
    verify_finished_game(&app, game, &players[1]).await;
    verify_finished_game(&app, game, &spectator).await;
    // The snapshot equals the refold of the log (what `turnpost replay` checks).
    let svc = turnpost::app::services(
        &turnpost::config::Settings {
            data_dir: std::env::temp_dir().join(format!("tp-replay-{}", Uuid::new_v4())),
            jwt_secret: Some("x".repeat(32)),
            migrate: false,
            ..Default::default()
        },
        &app.database_url,
    )
    .await
    .unwrap();
    let report = turnpost::service::submit::replay(&svc, game).await.unwrap();
    assert!(report.ok(), "{report:?}");
}

#[tokio::test]
async fn a_three_seat_game_is_played_to_a_winner_over_http() {
    whole_game(3, 3).await;
}

#[tokio::test]
async fn a_five_seat_game_is_played_to_a_winner_over_http() {
    whole_game(5, 5).await;
}
