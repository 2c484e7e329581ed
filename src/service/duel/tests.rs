use serde_json::{Value, json};

use super::*;
use crate::rules::{Outcome, Registry};

/// A player that records what it was asked, then lets `inner` answer.
pub(in crate::service) struct Recorder<P> {
    pub inner: P,
    /// Per decision: the game's seed, the seat, the state and the answer.
    pub asked: Vec<(u64, Seat, Box<dyn GameState>, Value)>,
    seed: u64,
}

impl<P> Recorder<P> {
    pub fn new(inner: P) -> Self {
        Recorder {
            inner,
            asked: Vec::new(),
            seed: 0,
        }
    }
}

impl<P: Player> Player for Recorder<P> {
    fn start(&mut self, ruleset: &str, seed: u64) {
        self.seed = seed;
        self.inner.start(ruleset, seed);
    }

    fn decide(&mut self, asked: &Decision<'_>) -> Result<Value, String> {
        let answer = self.inner.decide(asked)?;
        self.asked.push((
            self.seed,
            asked.seat,
            asked.state.clone_box(),
            answer.clone(),
        ));
        Ok(answer)
    }
}

/// A player whose answers are never legal actions.
struct Nonsense;

impl Player for Nonsense {
    fn decide(&mut self, _asked: &Decision<'_>) -> Result<Value, String> {
        Ok(json!({ "nonsense": true }))
    }
}

/// Decisions a test game is cut at: enough for many decisions of both seats, few enough that
/// a game of two random players (which may never end without a round limit) is quick.
const SHORT: usize = 300;

/// The random player takes one of the seat's legal actions, and the same one again in a game
/// from the same seed: two random players, recorded, play each ruleset's game twice alike;
/// no answer was refused (an illegal one would be counted), and another seed plays otherwise.
#[test]
fn the_random_player_is_legal_and_reproducible() {
    let registry = Registry::standard();
    for game in registry.all() {
        let run = |seed: u64| {
            let mut first = Recorder::new(RandomPlayer::default());
            let mut second = Recorder::new(RandomPlayer::default());
            let played = duel_game(game, seed, 0, &mut first, &mut second, SHORT).unwrap();
            let answers: Vec<(Seat, Value)> = first
                .asked
                .iter()
                .chain(&second.asked)
                .map(|(_, seat, _, action)| (*seat, action.clone()))
                .collect();
            for (_, seat, state, action) in first.asked.iter().chain(&second.asked) {
                assert!(
                    state
                        .legal_actions(*seat)
                        .iter()
                        .any(|a| &a.action == action),
                    "{}: {action} is not a legal action of seat {seat}",
                    game.id()
                );
            }
            (played, answers)
        };
        let (played, answers) = run(4);
        assert_eq!(played.illegal, 0, "{}", game.id());
        assert!(
            answers.len() > 10,
            "{}: {} answers",
            game.id(),
            answers.len()
        );
        assert_eq!(run(4), (played, answers.clone()), "{}", game.id());
        assert_ne!(run(5).1, answers, "{}: another seed", game.id());
    }
}

/// "alternating which seat the bot takes (half the games each)": each seed is played twice,
/// the bot at seat 1 and then at seat 2, and each player is only ever asked for its own seat.
#[test]
fn the_bot_takes_each_seat_in_turn() {
    let plan: Vec<(u64, Seat)> = (0..6).map(game_plan).collect();
    assert_eq!(plan, [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]);
    let registry = Registry::standard();
    let game = registry.get("bag-of-fate").unwrap();
    let mut bot = Recorder::new(RandomPlayer::default());
    let mut opponent = Recorder::new(RandomPlayer::default());
    let tally = duel(game, 4, &mut bot, &mut opponent, SHORT);
    assert_eq!(tally.games, 4);
    // Per seed, the first game asks the bot for seat 0 only, the second for seat 1 only.
    let seats_of = |asked: &[(u64, Seat, Box<dyn GameState>, Value)], seed: u64| {
        let mut seats: Vec<Seat> = asked
            .iter()
            .filter(|(s, ..)| *s == seed)
            .map(|(_, seat, ..)| *seat)
            .collect();
        seats.dedup();
        seats
    };
    for seed in 0..2 {
        assert_eq!(seats_of(&bot.asked, seed), [0, 1], "seed {seed}: bot");
        assert_eq!(
            seats_of(&opponent.asked, seed),
            [1, 0],
            "seed {seed}: opponent"
        );
    }
    assert_eq!(tally.bot_wins_by_seat.iter().sum::<u64>(), tally.bot_wins);
    assert_eq!(
        tally.bot_wins + tally.opponent_wins + tally.shared + tally.unfinished,
        tally.games
    );
}

/// The bot against itself comes out even, exactly: the bot decides alike from the same state
/// and seed, and each seed is played from both seats, so a seed's two games are one game with
/// the players exchanged (its memory starting afresh alike on both sides).
#[test]
fn a_mirror_match_comes_out_even() {
    let registry = Registry::standard();
    let game = registry.get("bag-of-fate").unwrap();
    let tally = duel(
        game,
        6,
        &mut Bot::default(),
        &mut Bot::default(),
        decision_bound(game.id()),
    );
    assert_eq!(tally.games, 6);
    assert_eq!(tally.unfinished + tally.shared, 0, "{tally:?}");
    assert_eq!(tally.bot_wins, tally.opponent_wins, "{tally:?}");
}

/// Nine wiz-war duels against the random player did not end: the bot, maintaining Homonculus
/// (a pick-up costs no movement), dropped a stone and picked it up again until the bound. Now
/// dropping what was picked up this turn is a take-back, and the first of them ends.
#[test]
fn the_wiz_war_duel_that_went_round_ends() {
    let played = against_random("wiz-war", 27, 1);
    assert_ne!(played.result, Ending::Unfinished, "{played:?}");
}

/// One duel game of `id`'s seed `seed` against the random player, the bot at `seat`, within
/// the ruleset's bound of decisions.
fn against_random(id: &str, seed: u64, seat: usize) -> DuelGame {
    let registry = Registry::standard();
    let game = registry.get(id).unwrap();
    duel_game(
        game,
        seed,
        seat,
        &mut Bot::default(),
        &mut RandomPlayer::default(),
        decision_bound(game.id()),
    )
    .unwrap()
}

/// Garden-gnomes: "When at least one player have completed all of his/her Objectives the game
/// ends." (l.189). In the duel of seed 39 against the random player (the bot at the first
/// seat) the bot's red clan met all its objectives during movement, but its white clan wanted
/// the same statues and the two fought there before every loot, because the evaluation summed
/// both clans' shortfalls: at round 135 the game was still going when it reached its bound.
/// Now the clan nearer to completing leads and a shared statue is only half held; the game
/// ends, won.
#[test]
fn the_garden_gnomes_duel_whose_clans_fought_each_other_ends() {
    let played = against_random("garden-gnomes", 39, 0);
    assert_eq!(played.result, Ending::BotWon, "{played:?}");
}

/// A game that reaches the bound of decisions is unfinished, neither won nor lost: with a
/// bound of one decision no game ends.
#[test]
fn a_game_past_the_bound_is_unfinished() {
    let registry = Registry::standard();
    for game in registry.all() {
        let mut bot = Bot::default();
        let mut opponent = RandomPlayer::default();
        let tally = duel(game, 2, &mut bot, &mut opponent, 1);
        assert_eq!(
            (
                tally.games,
                tally.unfinished,
                tally.bot_wins,
                tally.opponent_wins,
                tally.shared
            ),
            (2, 2, 0, 0, 0),
            "{}",
            game.id()
        );
        assert_eq!(
            tally.not_won,
            [(0, 0, Ending::Unfinished), (0, 1, Ending::Unfinished)],
            "{}",
            game.id()
        );
        assert!(tally.failures.is_empty(), "{:?}", tally.failures);
    }
}

/// What a finished game's winners mean for the bot: a win alone is a win; won by both seats
/// or by neither is shared.
#[test]
fn a_win_is_the_bots_alone() {
    let outcome = |winners: &[Seat]| Outcome {
        winners: winners.to_vec(),
        scores: None,
        summary: String::new(),
    };
    assert_eq!(ending(Some(&outcome(&[1])), 1), Ending::BotWon);
    assert_eq!(ending(Some(&outcome(&[0])), 1), Ending::OpponentWon);
    assert_eq!(ending(Some(&outcome(&[0])), 0), Ending::BotWon);
    assert_eq!(ending(Some(&outcome(&[0, 1])), 0), Ending::Shared);
    assert_eq!(ending(Some(&outcome(&[])), 0), Ending::Shared);
    assert_eq!(ending(None, 0), Ending::Unfinished);
}

/// An answer that is no legal action is counted, and the seat's default action is played
/// instead: the game goes on.
#[test]
fn an_illegal_answer_plays_the_default_action() {
    let registry = Registry::standard();
    for game in registry.all() {
        let mut bot = Recorder::new(RandomPlayer::default());
        let played = duel_game(game, 1, 0, &mut bot, &mut Nonsense, 60).unwrap();
        assert!(played.illegal > 0, "{}", game.id());
        assert!(played.decisions > 1, "{}", game.id());
        assert!(!bot.asked.is_empty(), "{}: the game went on", game.id());
    }
}

/// The table's row says what the games came to.
#[test]
fn a_row_of_the_table() {
    let tally = Tally {
        ruleset: "wiz-war".into(),
        games: 200,
        bot_wins: 170,
        bot_wins_by_seat: [86, 84],
        opponent_wins: 20,
        shared: 4,
        unfinished: 6,
        illegal: 0,
        not_won: vec![],
        failures: vec![],
    };
    assert_eq!(
        tally.markdown(),
        "| wiz-war | 200 | 170 | 86 / 84 | 20 | 4 | 6 | 85.0 % | 0 |"
    );
    assert_eq!(
        Tally::HEADER.lines().next().unwrap().matches('|').count(),
        tally.markdown().matches('|').count()
    );
}

#[test]
fn the_opponent_is_named() {
    assert_eq!("random".parse(), Ok(Against::Random));
    assert_eq!("self".parse(), Ok(Against::Itself));
    assert_eq!(
        "exec:/old/turnpost bot-serve".parse(),
        Ok(Against::Exec("/old/turnpost bot-serve".into()))
    );
    assert!("exec:".parse::<Against>().is_err());
    assert!("first".parse::<Against>().is_err());
}

/// A game of a duel against the random player looked at again: the bot's last decisions and
/// the table at the end. `ONLY=<ruleset> SEED=<n> SEAT=<1|2> cargo test --lib
/// service::duel::tests::trace -- --ignored --nocapture` (the seeds `turnpost duel` lists as
/// not won).
#[test]
#[ignore = "exploration: prints one duel game's ending"]
fn trace() {
    let number = |name: &str, default: u64| -> u64 {
        std::env::var(name).map_or(default, |v| v.parse().expect("a number"))
    };
    let id = std::env::var("ONLY").unwrap_or_else(|_| "wiz-war".into());
    let registry = Registry::standard();
    let game = registry.get(&id).unwrap();
    let seat = usize::try_from(number("SEAT", 1).saturating_sub(1)).unwrap();
    let mut bot = Recorder::new(Bot::default());
    let mut opponent = Recorder::new(RandomPlayer::default());
    let played = duel_game(
        game,
        number("SEED", 0),
        seat,
        &mut bot,
        &mut opponent,
        decision_bound(&id),
    )
    .unwrap();
    println!("{played:?}");
    let tail = bot.asked.len().saturating_sub(number("LAST", 30) as usize);
    for (_, _, state, action) in &bot.asked[tail..] {
        let evals: Vec<i64> = (0..2).map(|s| state.evaluate(s)).collect();
        println!("{evals:?} {action}");
    }
    let last = opponent.asked.last().map(|(_, _, state, _)| state);
    if let Some(state) = last {
        println!("{}", state.view(crate::rules::Viewer::Spectator));
    }
}
