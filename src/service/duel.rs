//! Duels: how well the built-in bot plays (issue 38, "A bot worth playing against"). Seeded
//! two-seat games of a ruleset with its default options, the bot against another player, the
//! bot taking seat 1 and seat 2 in turn; no database, no network. Chance is drawn as the
//! service draws it ([`chance::pick`] from the game's seed and the log position), the bot
//! decides with the seed the service gives it ([`chance::bot_seed`]) and a [`Memory`] per
//! request as the service keeps one, and forced choices are played as the service plays them.
//! A game stops at the ruleset's bound of decisions (`docs/BOTS.md`, "Every game of bots
//! ends") and then counts as unfinished, neither won nor lost.
//!
//! `turnpost duel` prints the table of `docs/BOTS.md` ("How well it plays").

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::chance;
use crate::bots::table::{Bound, Table, decision_bound, play_out};
use crate::bots::{DECISIONS_PER_REQUEST, Memory};
use crate::rules::{Game, GameState, Outcome, Registry, Seat};

/// What a player of a duel is asked.
pub struct Decision<'a> {
    /// The ruleset's id.
    pub ruleset: &'a str,
    pub state: &'a dyn GameState,
    pub seat: Seat,
    /// The decision's seed, as the service derives it for its bot.
    pub seed: u64,
    /// Whether the seat decided last too, in what the service would play as one request (a
    /// bot keeps its [`Memory`] then).
    pub continues: bool,
}

/// A player of a duel.
pub trait Player {
    /// A new game of `ruleset` from `seed` begins.
    fn start(&mut self, _ruleset: &str, _seed: u64) {}

    /// The action of the seat asked.
    fn decide(&mut self, asked: &Decision<'_>) -> Result<Value, String>;
}

/// The built-in bot, as the service runs it.
#[derive(Default)]
pub struct Bot {
    memory: Memory,
}

impl Player for Bot {
    fn decide(&mut self, asked: &Decision<'_>) -> Result<Value, String> {
        if !asked.continues {
            self.memory = Memory::default();
        }
        self.memory
            .choose(asked.state, asked.seat, asked.seed)
            .ok_or_else(|| format!("the bot found nothing for seat {}", asked.seat))
    }
}

/// A player who takes one of the seat's legal actions uniformly at random, from a generator
/// seeded with the game's seed (so a game is played again alike).
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl Default for RandomPlayer {
    fn default() -> Self {
        RandomPlayer { rng: Self::rng(0) }
    }
}

impl RandomPlayer {
    /// The generator of a game from `seed` (a stream of its own: the bot's seeds are derived
    /// otherwise).
    fn rng(seed: u64) -> ChaCha8Rng {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(3);
        rng
    }
}

impl Player for RandomPlayer {
    fn start(&mut self, _ruleset: &str, seed: u64) {
        self.rng = Self::rng(seed);
    }

    fn decide(&mut self, asked: &Decision<'_>) -> Result<Value, String> {
        let seat = asked.seat;
        let legal = asked.state.legal_actions(seat);
        if legal.is_empty() {
            return Err(format!("seat {seat} has no legal action"));
        }
        let pick = self.rng.random_range(0..legal.len());
        legal
            .into_iter()
            .nth(pick)
            .map(|a| a.action)
            .ok_or_else(|| format!("seat {seat} has no legal action"))
    }
}

/// Who the bot plays against, as `turnpost duel --against` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Against {
    /// `random`: [`RandomPlayer`].
    Random,
    /// `self`: the bot of this build, in this process.
    Itself,
    /// `exec:CMD`: the bot of another build, asked through `CMD` (`turnpost bot-serve`).
    Exec(String),
}

impl std::str::FromStr for Against {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "random" => Ok(Against::Random),
            "self" => Ok(Against::Itself),
            _ => match s.strip_prefix("exec:") {
                Some(cmd) if !cmd.trim().is_empty() => Ok(Against::Exec(cmd.to_owned())),
                _ => Err(format!(
                    "{s}: expected random, self or exec:CMD (CMD: a bot-serve command)"
                )),
            },
        }
    }
}

/// How one game of a duel ended for the bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    BotWon,
    OpponentWon,
    /// Won by both seats, or by neither.
    Shared,
    /// Past the ruleset's bound of decisions.
    Unfinished,
}

/// One game of a duel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuelGame {
    pub bot_seat: Seat,
    pub result: Ending,
    /// The seats' decisions, forced choices included.
    pub decisions: usize,
    /// Answers of a player that were no legal action (or no answer): the default action was
    /// played instead.
    pub illegal: u64,
}

/// The service's 32-byte game seed for a duel's `seed`.
fn game_seed(seed: u64) -> [u8; chance::SEED_LEN] {
    let mut bytes = [0u8; chance::SEED_LEN];
    for (b, s) in bytes.iter_mut().zip(seed.to_be_bytes()) {
        *b = s;
    }
    bytes
}

/// The table of one duel game.
struct DuelTable<'a> {
    ruleset: &'a str,
    seed: [u8; chance::SEED_LEN],
    bot_seat: Seat,
    bot: &'a mut dyn Player,
    opponent: &'a mut dyn Player,
    /// The seat that decided last (its own decision, not a forced one) and how many times in
    /// a row.
    last: Option<(Seat, usize)>,
    illegal: u64,
}

impl Table for DuelTable<'_> {
    fn chance(&mut self, step: u64, weights: &[u32]) -> Option<usize> {
        chance::pick(&self.seed, i64::try_from(step).ok()?, weights)
    }

    fn decide(
        &mut self,
        state: &dyn GameState,
        acting: &[Seat],
        step: u64,
    ) -> Result<(Seat, Value), String> {
        // As the service: a lone choice is played without asking anyone.
        if let Some((seat, forced)) = state.next_forced(0, &|_| false) {
            return Ok((seat, forced.action));
        }
        let seat = acting.first().copied().ok_or("nobody to act")?;
        let continues = match self.last {
            Some((s, n)) if s == seat && n < DECISIONS_PER_REQUEST => {
                self.last = Some((s, n + 1));
                true
            }
            _ => {
                self.last = Some((seat, 1));
                false
            }
        };
        let seed = chance::bot_seed(&self.seed, i64::try_from(step).unwrap_or(i64::MAX));
        let player: &mut dyn Player = if seat == self.bot_seat {
            &mut *self.bot
        } else {
            &mut *self.opponent
        };
        let answer = player.decide(&Decision {
            ruleset: self.ruleset,
            state,
            seat,
            seed,
            continues,
        });
        match answer {
            Ok(action) if state.legal_actions(seat).iter().any(|a| a.action == action) => {
                Ok((seat, action))
            }
            // As the service does when its bot fails: the default action, and a warning
            // (counted).
            other => {
                self.illegal += 1;
                let action = state
                    .default_action(seat)
                    .ok_or_else(|| format!("no legal answer ({other:?}) and no default action"))?;
                Ok((seat, action))
            }
        }
    }
}

/// Plays one two-seat game of `game` from `seed`, default options, `bot` at `bot_seat` and
/// `opponent` at the other seat, at most `max_decisions` decisions.
pub fn duel_game(
    game: &dyn Game,
    seed: u64,
    bot_seat: Seat,
    bot: &mut dyn Player,
    opponent: &mut dyn Player,
    max_decisions: usize,
) -> Result<DuelGame, String> {
    let mut state = game.new_game(&Value::Null, 2).map_err(|e| e.to_string())?;
    bot.start(game.id(), seed);
    opponent.start(game.id(), seed);
    let mut table = DuelTable {
        ruleset: game.id(),
        seed: game_seed(seed),
        bot_seat,
        bot,
        opponent,
        last: None,
        illegal: 0,
    };
    let played = play_out(state.as_mut(), &mut table, Bound::Decisions(max_decisions))?;
    Ok(DuelGame {
        bot_seat,
        result: ending(played.outcome.as_ref(), bot_seat),
        decisions: played.decisions,
        illegal: table.illegal,
    })
}

/// What a game's result (`None`: unfinished) is for the bot at `bot_seat`: a win is a win
/// alone ([`Outcome::winners`]); a game won by both seats or by nobody is shared.
fn ending(outcome: Option<&Outcome>, bot_seat: Seat) -> Ending {
    match outcome.map(|o| o.winners.as_slice()) {
        None => Ending::Unfinished,
        Some([w]) if *w == bot_seat => Ending::BotWon,
        Some([_]) => Ending::OpponentWon,
        Some(_) => Ending::Shared,
    }
}

/// The games of one ruleset's duel, counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub ruleset: String,
    pub games: u64,
    pub bot_wins: u64,
    /// Of the bot's wins, those at seat 1 and at seat 2.
    pub bot_wins_by_seat: [u64; 2],
    pub opponent_wins: u64,
    pub shared: u64,
    pub unfinished: u64,
    /// Answers that were no legal action (the default action was played instead).
    pub illegal: u64,
    /// The games the bot did not win: their seed, the bot's seat and how they ended (to look
    /// at them again).
    pub not_won: Vec<(u64, Seat, Ending)>,
    /// Games that failed (an action the rules refused): counted in none of the above.
    pub failures: Vec<String>,
}

impl Tally {
    /// The bot's wins in hundredths of the games.
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        100.0 * self.bot_wins as f64 / self.games as f64
    }

    fn count(&mut self, game: &DuelGame) {
        self.games += 1;
        self.illegal += game.illegal;
        match game.result {
            Ending::BotWon => {
                self.bot_wins += 1;
                if let Some(w) = self.bot_wins_by_seat.get_mut(game.bot_seat) {
                    *w += 1;
                }
            }
            Ending::OpponentWon => self.opponent_wins += 1,
            Ending::Shared => self.shared += 1,
            Ending::Unfinished => self.unfinished += 1,
        }
    }

    pub const HEADER: &'static str = "| ruleset | games | bot wins | as seat 1 / 2 | opponent wins | draws or shared | unfinished | bot win rate | illegal answers |\n|---|---|---|---|---|---|---|---|---|";

    /// The tally as a line of the Markdown table of [`Tally::HEADER`].
    pub fn markdown(&self) -> String {
        let [first, second] = self.bot_wins_by_seat;
        format!(
            "| {} | {} | {} | {first} / {second} | {} | {} | {} | {:.1} % | {} |",
            self.ruleset,
            self.games,
            self.bot_wins,
            self.opponent_wins,
            self.shared,
            self.unfinished,
            self.win_rate(),
            self.illegal
        )
    }
}

/// The seed and the bot's seat of a duel's `i`-th game: each seed is played twice, the bot at
/// seat 1 (index 0), then at seat 2.
pub fn game_plan(i: u64) -> (u64, Seat) {
    (i / 2, usize::from(i % 2 == 1))
}

/// A duel of `games` games of `game`, `bot` against `opponent` ([`game_plan`]), each game
/// stopped at `max_decisions` decisions.
pub fn duel(
    game: &dyn Game,
    games: u64,
    bot: &mut dyn Player,
    opponent: &mut dyn Player,
    max_decisions: usize,
) -> Tally {
    let mut tally = Tally {
        ruleset: game.id().to_owned(),
        ..Tally::default()
    };
    for i in 0..games {
        let (seed, bot_seat) = game_plan(i);
        match duel_game(game, seed, bot_seat, bot, opponent, max_decisions) {
            Ok(played) => {
                tally.count(&played);
                if played.result != Ending::BotWon {
                    tally.not_won.push((seed, bot_seat, played.result));
                }
            }
            Err(e) => tally
                .failures
                .push(format!("seed {seed}, bot at seat {}: {e}", bot_seat + 1)),
        }
    }
    tally
}

/// The duel table: [`duel`] for every ruleset (or those named in `rulesets`), `games` games
/// each, the bot against `opponent`, at the ruleset's bound of decisions
/// ([`decision_bound`]); `each` gets every ruleset's tally as it is done (one can take
/// minutes).
pub fn table(
    rulesets: &[String],
    games: u64,
    opponent: &mut dyn Player,
    mut each: impl FnMut(&Tally),
) -> Result<(), String> {
    let registry = Registry::standard();
    if let Some(unknown) = rulesets.iter().find(|r| registry.get(r).is_none()) {
        return Err(format!("no ruleset {unknown}"));
    }
    for game in registry.all() {
        if !rulesets.is_empty() && !rulesets.iter().any(|r| r == game.id()) {
            continue;
        }
        let mut bot = Bot::default();
        let tally = duel(game, games, &mut bot, opponent, decision_bound(game.id()));
        each(&tally);
    }
    Ok(())
}

/// What the table's rows are, for its first line.
pub fn preamble(games: u64, against: &str) -> String {
    format!(
        "{games} seeded two-seat games per ruleset, default options, the built-in bot against \
         {against}, the bot at seat 1 in half of them (seeds 0 to {}, each played from both \
         seats); a game past the ruleset's bound of decisions is unfinished.",
        games.div_ceil(2).saturating_sub(1)
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
pub(super) mod tests;
