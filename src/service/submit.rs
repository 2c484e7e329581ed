//! Submitting actions: one transaction that locks the game, checks the version, applies the
//! actions and the chance steps that follow, appends them, writes the snapshot, enqueues
//! mail and webhook deliveries for the seats that now have to act and queues a `NOTIFY` (all
//! these writes are one statement, `store::games::save_turn`), and commits; PostgreSQL delivers the notification to
//! listeners at the commit, and only if it commits.

use std::time::Instant;

use chrono::{DateTime, SubsecRound, Utc};
use diesel_async::AsyncConnection;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::game_views::{event_view, seat_of, state_view, viewer_of};
use super::hot::HotGame;
use super::views::SubmitResult;
use super::{Result, ServiceError, Services, chance};
use crate::notify::{Compose, Notice};

use crate::rules::registry::names_choice;
use crate::rules::{
    Actor, Applied, GameState, LegalAction, Outcome, RuleError, Visibility, Waiting,
};
use crate::store::idempotency::Claim;
use crate::store::models::{
    Event, EventKind, Game, GameStatus, GameUpdate, JsonText, SeatPlayer, User,
};
use crate::store::{self, Conn};

/// Chance steps in a row beyond which a ruleset is considered broken (no game needs this many
/// draws between two decisions; it stops a buggy ruleset from spinning forever).
const MAX_CHANCE_RUN: usize = 100_000;

/// Decisions the service makes on its own in one request at most (the bot's, bounded further
/// by `bots::DECISIONS_PER_REQUEST`, forced choices and standing orders): far more than a turn
/// of any ruleset needs, so that no request holds a game for long whatever a ruleset does.
const AUTOMATIC_PER_REQUEST: usize = 1_000;

pub fn lifecycle_event(
    game: &Game,
    seq: i64,
    at: DateTime<Utc>,
    kind: EventKind,
    action: Value,
    description: String,
) -> Event {
    Event {
        game_id: game.id,
        seq,
        actor: "system".into(),
        seat: None,
        kind: kind.as_str().into(),
        action,
        visible_to: None,
        redacted: None,
        description,
        redacted_description: None,
        created_at: at,
        request_id: None,
        notation: None,
    }
}

fn seat_i32(seat: usize) -> i32 {
    i32::try_from(seat).unwrap_or(i32::MAX)
}

/// A game being played forward in memory, collecting the log entries it makes.
pub struct Play {
    pub game_id: Uuid,
    pub seed: Vec<u8>,
    pub state: Box<dyn GameState>,
    pub next_seq: i64,
    pub events: Vec<Event>,
    pub now: DateTime<Utc>,
    /// The version of the game row as stored: the turn is written only if it is still that.
    pub stored_version: i64,
    /// An end the rules did not reach (a resignation in a two-seat game).
    pub ended: Option<Outcome>,
    /// Whether [`Play::commit`] is the whole transaction (a caller outside any transaction):
    /// the turn then goes without a `NOTIFY`, and the caller announces it once committed
    /// ([`super::announce`]). Inside a caller's transaction the `NOTIFY` goes with it.
    pub standalone: bool,
    /// The seats' standing orders ([`Play::with_orders`]), answered in [`Play::run_robots`].
    pub orders: Vec<(usize, Vec<String>)>,
}

impl Play {
    pub fn new(game: &Game, state: Box<dyn GameState>, next_seq: i64, now: DateTime<Utc>) -> Self {
        // PostgreSQL keeps microseconds: the entries returned now and read back later agree.
        let now = now.trunc_subsecs(6);
        Play {
            game_id: game.id,
            seed: game.seed.clone(),
            state,
            next_seq,
            events: vec![],
            now,
            stored_version: game.version,
            ended: None,
            standalone: false,
            orders: vec![],
        }
    }

    /// The standing orders of `players`' seats, which [`Play::run_robots`] follows.
    pub fn with_orders(mut self, players: &[SeatPlayer]) -> Self {
        self.orders = players
            .iter()
            .filter(|p| !p.orders.is_empty())
            .filter_map(|p| Some((usize::try_from(p.seat).ok()?, p.orders.clone())))
            .collect();
        self
    }

    fn record(&mut self, applied: Applied) {
        self.record_as(applied, EventKind::Action);
    }

    /// Logs an applied action; a seat's action is of `kind`: `action` (its player's own),
    /// `timeout` (played when its deadline passed) or `bot` (played by the built-in bot).
    fn record_as(&mut self, applied: Applied, kind: EventKind) {
        let (actor, seat, kind) = match applied.actor {
            Actor::Seat(s) => ("seat", Some(seat_i32(s)), kind),
            Actor::Chance => ("chance", None, EventKind::Chance),
        };
        let (visible_to, redacted, redacted_description) = match applied.visibility {
            Visibility::Public => (None, None, None),
            Visibility::Seats(seats) => (
                Some(seats.into_iter().map(seat_i32).collect()),
                Some(applied.redacted),
                Some(applied.redacted_description),
            ),
        };
        self.events.push(Event {
            game_id: self.game_id,
            seq: self.next_seq,
            actor: actor.into(),
            seat,
            kind: kind.as_str().into(),
            action: applied.action,
            visible_to,
            redacted,
            description: applied.description,
            redacted_description,
            created_at: self.now,
            request_id: None,
            notation: applied.notation,
        });
        self.next_seq += 1;
    }

    /// Runs chance steps until a player must decide or the game is over. The outcome of the
    /// step logged at `seq` is drawn from the RNG derived from the seed and `seq`.
    pub fn run_chance(&mut self) -> Result<()> {
        for _ in 0..MAX_CHANCE_RUN {
            let Waiting::Chance(weights) = self.state.waiting() else {
                return Ok(());
            };
            let index = chance::pick(&self.seed, self.next_seq, &weights).ok_or_else(|| {
                ServiceError::Unexpected(anyhow::anyhow!("a chance step with no outcomes"))
            })?;
            let applied = self.state.apply_chance(index).map_err(|e| {
                ServiceError::Unexpected(anyhow::anyhow!("a listed chance outcome failed: {e}"))
            })?;
            self.record(applied);
        }
        Err(ServiceError::Unexpected(anyhow::anyhow!(
            "more than {MAX_CHANCE_RUN} chance steps in a row"
        )))
    }

    /// Logs a lifecycle entry everyone sees (a timeout, an absence, a resignation).
    pub fn log(&mut self, kind: EventKind, action: Value, description: String) {
        let event = Event {
            game_id: self.game_id,
            seq: self.next_seq,
            actor: "system".into(),
            seat: None,
            kind: kind.as_str().into(),
            action,
            visible_to: None,
            redacted: None,
            description,
            redacted_description: None,
            created_at: self.now,
            request_id: None,
            notation: None,
        };
        self.events.push(event);
        self.next_seq += 1;
    }

    /// Applies one player's action (then the chance steps after it).
    pub fn play(&mut self, seat: usize, index: usize, action: &Value) -> Result<()> {
        self.play_as(seat, index, action, EventKind::Action)
    }

    /// Lets the built-in bot decide for the seats in `robots` that have to, plays every forced
    /// choice of the other seats ([`Play::forced`]) and follows their standing orders
    /// ([`Play::with_orders`]), until the game waits for a person's decision or is over (then
    /// the chance steps after each decision). Forced choices come before standing orders, so
    /// that a lone choice is logged as `forced` whether or not its player gave orders. The bot
    /// decides at most [`crate::bots::DECISIONS_PER_REQUEST`] times (a turn's worth): a bot
    /// seat that still has to decide then waits for the bot worker ([`super::robots`]), so no
    /// request holds the game for longer, and a player's move is never refused because of a
    /// bot.
    pub fn run_robots(&mut self, robots: &[i32]) -> Result<()> {
        // Within this run the bot never comes back to a state it decided in.
        let mut memory = crate::bots::Memory::default();
        let mut bot_decisions = 0;
        for _ in 0..AUTOMATIC_PER_REQUEST {
            let Waiting::Players(seats) = self.state.waiting() else {
                return Ok(());
            };
            if let Some(seat) = seats
                .iter()
                .copied()
                .find(|s| robots.contains(&seat_i32(*s)))
            {
                if bot_decisions >= crate::bots::DECISIONS_PER_REQUEST {
                    return Ok(());
                }
                bot_decisions += 1;
                self.play_robot(seat, &mut memory)?;
                continue;
            }
            // No step of a player's comes next here: every forced choice is played.
            if let Some((seat, forced)) = self.state.next_forced(0, &|_| false) {
                self.play_as(seat, 0, &forced.action, EventKind::Forced)?;
                continue;
            }
            // A standing order answers as its player would: logged as the player's own action.
            let ordered = seats.iter().find_map(|&seat| {
                let (_, orders) = self.orders.iter().find(|(s, _)| *s == seat)?;
                let (_, action) = self.state.standing_answer(seat, orders)?;
                Some((seat, action))
            });
            let Some((seat, action)) = ordered else {
                return Ok(());
            };
            self.play_as(seat, 0, &action, EventKind::Action)?;
        }
        // No game comes near this; the decision left is asked of its player as usual.
        tracing::warn!(
            game = %self.game_id,
            "{AUTOMATIC_PER_REQUEST} decisions made by the service in one request; the rest waits"
        );
        Ok(())
    }

    /// One decision of the bot for `seat`. Should the bot fail (no action, an action the rules
    /// refuse, a panic), the ruleset's default action is played instead and a warning logged:
    /// the game moves on.
    fn play_robot(&mut self, seat: usize, memory: &mut crate::bots::Memory) -> Result<()> {
        let seed = chance::bot_seed(&self.seed, self.next_seq);
        let state = self.state.as_ref();
        let chosen = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            memory.choose(state, seat, seed)
        }));
        let failure = match chosen {
            Ok(Some(action)) => match self.play_as(seat, 0, &action, EventKind::Bot) {
                Ok(()) => return Ok(()),
                Err(e) => format!("its action {action} was refused: {e}"),
            },
            Ok(None) => "it found no action".to_owned(),
            Err(_) => "it panicked".to_owned(),
        };
        tracing::warn!(
            game = %self.game_id,
            seat,
            failure,
            "the bot failed; the default action is played"
        );
        let action = self.state.default_action(seat).ok_or_else(|| {
            ServiceError::Unexpected(anyhow::anyhow!(
                "the bot failed for seat {seat} ({failure}) and there is no default action"
            ))
        })?;
        self.play_as(seat, 0, &action, EventKind::Bot)
    }

    /// Plays the forced choices the game waits for before a submission's next action (`seat`
    /// plays `next`), unless that action is the forced choice itself: a reply's lines, or a
    /// client's list, need not spell out what has no alternative.
    pub fn run_forced_before(&mut self, seat: usize, next: &Value) -> Result<()> {
        for _ in 0..AUTOMATIC_PER_REQUEST {
            let named = |choice: &LegalAction| names_choice(next, choice);
            let Some((s, forced)) = self.state.next_forced(seat, &named) else {
                return Ok(());
            };
            self.play_as(s, 0, &forced.action, EventKind::Forced)?;
        }
        // The next action then meets the choice left, and is refused if it is not that.
        Ok(())
    }

    /// Seats that decided in this play, each with whether its player did (not a bot or a
    /// timeout).
    pub fn deciders(&self) -> Vec<(i32, bool)> {
        let mut out: Vec<(i32, bool)> = vec![];
        for e in &self.events {
            let (Some(seat), "seat") = (e.seat, e.actor.as_str()) else {
                continue;
            };
            let own = e.kind == "action";
            match out.iter_mut().find(|(s, _)| *s == seat) {
                Some(entry) => entry.1 |= own,
                None => out.push((seat, own)),
            }
        }
        out
    }

    /// Applies an action of `kind` for `seat` (then the chance steps after it).
    pub fn play_as(
        &mut self,
        seat: usize,
        index: usize,
        action: &Value,
        kind: EventKind,
    ) -> Result<()> {
        match self.state.waiting() {
            Waiting::Players(seats) if seats.contains(&seat) => {}
            Waiting::Over(_) => return Err(ServiceError::WrongStatus("finished".into())),
            _ => return Err(ServiceError::NotYourDecision),
        }
        let applied = self.state.apply_json(seat, action).map_err(|e| match e {
            RuleError::NotYourDecision => ServiceError::NotYourDecision,
            RuleError::GameOver => ServiceError::WrongStatus("finished".into()),
            RuleError::Illegal(reason) => ServiceError::IllegalAction { index, reason },
        })?;
        self.record_as(applied, kind);
        self.run_chance()
    }

    /// Writes everything to the store: the entries (plus an `ended` entry if the game is
    /// over), the snapshot, and mail and webhook events (`your-turn`, `game-over`) for
    /// `notices` plus the seats that newly have to act.
    #[allow(
        clippy::too_many_arguments,
        reason = "the one write of a submission: what it writes, each already loaded"
    )]
    pub async fn commit(
        &mut self,
        svc: &Services,
        conn: &mut Conn,
        game: &mut Game,
        before_to_act: &[i32],
        players: &[SeatPlayer],
        users: &[User],
        mut notices: Vec<(i32, Compose)>,
    ) -> Result<()> {
        let waiting = match self.ended.clone() {
            Some(outcome) => Waiting::Over(outcome),
            None => self.state.waiting(),
        };
        let (status, to_act, outcome) = match waiting {
            Waiting::Players(seats) => (
                GameStatus::Active,
                seats.into_iter().map(seat_i32).collect::<Vec<_>>(),
                None,
            ),
            Waiting::Over(outcome) => (GameStatus::Finished, vec![], Some(outcome)),
            Waiting::Chance(_) => {
                return Err(ServiceError::Unexpected(anyhow::anyhow!(
                    "committing while a chance step is pending"
                )));
            }
        };
        let outcome_json = match &outcome {
            Some(o) => Some(serde_json::to_value(o).map_err(anyhow::Error::from)?),
            None => None,
        };
        if let Some(o) = &outcome {
            let ended = lifecycle_event(
                game,
                self.next_seq,
                self.now,
                EventKind::Ended,
                json!({"outcome": o, "seed": hex::encode(&game.seed)}),
                format!("Game over: {}", o.summary),
            );
            self.events.push(ended);
            self.next_seq += 1;
            notices.extend(
                players
                    .iter()
                    .map(|p| (p.seat, Compose::notice(p.seat, Notice::GameOver))),
            );
        }
        // One mail per wait: only seats that were not already waiting, and not the seats the
        // bot plays (the bot worker continues those).
        notices.extend(
            to_act
                .iter()
                .filter(|s| !before_to_act.contains(s) && !game.robots.contains(s))
                .map(|s| (*s, Compose::notice(*s, Notice::YourTurn))),
        );
        // The snapshot written straight from the typed state as JSON text (a `Value` built
        // first and written out again cost a twentieth of a submission's CPU in the server).
        let snapshot = JsonText(self.state.to_json_text());
        let expected = self.stored_version;
        let version = self.next_seq - 1;
        let waiting_since = if to_act.is_empty() {
            None
        } else if to_act == before_to_act {
            game.waiting_since.or(Some(self.now))
        } else {
            Some(self.now)
        };
        game.status = status.as_str().into();
        game.version = version;
        // The committed snapshot is in the row and, decoded, in `self.state`: `game` does not
        // keep a copy (nothing after a commit reads it; a reader would fail, not read a stale one).
        game.state = None;
        game.to_act = to_act;
        game.outcome = outcome_json;
        game.updated_at = self.now;
        game.waiting_since = waiting_since;
        let mail = super::mail::game_mail(svc, game, players, users, &notices)?;
        let hooks = super::webhooks::events_json(game, players, &notices, self.now)?;
        let change = GameUpdate {
            status: status.as_str(),
            version,
            state: None,
            to_act: &game.to_act,
            outcome: game.outcome.as_ref(),
            updated_at: self.now,
            waiting_since,
        };
        let saved = store::games::save_turn(
            conn,
            game.id,
            expected,
            &self.events,
            change,
            &snapshot,
            &mail,
            (!self.standalone).then_some(NOTIFY_CHANNEL),
            &format!("{}:{version}", game.id),
            &hooks,
        )
        .await?;
        if !saved {
            // Another turn was committed since the game was read (or the game is gone).
            return Err(ServiceError::VersionConflict {
                expected,
                actual: expected + 1,
            });
        }
        if game.clock.is_some() {
            // A game with a clock is always played in a transaction that holds its row lock
            // (see `submit`): its deadlines change with the turn, atomically.
            super::deadlines::sync(conn, game, users, &self.deciders(), self.now).await?;
        }
        Ok(())
    }
}

/// An `Idempotency-Key` with the fingerprint of the request it came with.
pub struct Idempotency {
    pub key: String,
    pub request_sha256: String,
}

impl Idempotency {
    pub fn new(key: String, method: &str, path: &str, body: &[u8]) -> Self {
        let mut h = Sha256::new();
        h.update(method.as_bytes());
        h.update(b" ");
        h.update(path.as_bytes());
        h.update(b"\n");
        h.update(body);
        Idempotency {
            key,
            request_sha256: hex::encode(h.finalize()),
        }
    }
}

/// `POST /v1/games/{id}/actions`.
pub async fn submit(
    svc: &Services,
    user: Uuid,
    game_id: Uuid,
    expected_version: Option<i64>,
    actions: &[Value],
    idempotency: Option<&Idempotency>,
) -> Result<SubmitResult> {
    if actions.is_empty() {
        return Err(ServiceError::Invalid("actions must not be empty".into()));
    }
    match idempotency {
        None => submit_unlocked(svc, user, game_id, expected_version, actions).await,
        Some(_) => submit_locked(svc, user, game_id, expected_version, actions, idempotency).await,
    }
}

/// A submission in a transaction that locks the game row (`SELECT … FOR UPDATE`): with an
/// `Idempotency-Key` (saved with the turn), or for a game with a clock.
async fn submit_locked(
    svc: &Services,
    user: Uuid,
    game_id: Uuid,
    expected_version: Option<i64>,
    actions: &[Value],
    idempotency: Option<&Idempotency>,
) -> Result<SubmitResult> {
    let mut conn = svc.conn().await?;
    let (result, _) = conn
        .transaction::<_, ServiceError, _>(async |conn| {
            if let Some(idem) = idempotency {
                match store::idempotency::claim(conn, user, &idem.key, &idem.request_sha256).await?
                {
                    Claim::Fresh => {}
                    Claim::Replay { body, .. } => {
                        let result: SubmitResult = serde_json::from_value(body)
                            .map_err(|e| ServiceError::Unexpected(e.into()))?;
                        return Ok((result, None));
                    }
                    Claim::Mismatch => return Err(ServiceError::IdempotencyMismatch),
                }
            }
            let (mut game, players, users) = store::games::lock_with_players(conn, game_id)
                .await?
                .ok_or(ServiceError::NotFound("game"))?;
            if let Some(expected) = expected_version
                && expected != game.version
            {
                return Err(ServiceError::VersionConflict {
                    expected,
                    actual: game.version,
                });
            }
            let seat = seat_of(&players, user).ok_or(ServiceError::NotAPlayer)?;
            let play = act(
                svc,
                conn,
                &mut game,
                &players,
                &users,
                seat,
                actions,
                vec![],
                None,
                false,
            )
            .await?;
            let result = submitted(svc, &game, seat, &play)?;
            if let Some(idem) = idempotency {
                let body = serde_json::to_value(&result).map_err(anyhow::Error::from)?;
                store::idempotency::save(conn, user, &idem.key, 200, &body).await?;
            }
            Ok((result, Some(game.version)))
        })
        .await?;
    Ok(result)
}

/// How often a submission without a version is tried again when another turn of the same
/// game is committed between its read and its write (a simultaneous decision).
const UNLOCKED_TRIES: usize = 8;

/// A submission without an `Idempotency-Key` needs no transaction of its own: it reads the
/// game and its players (no lock), applies the actions, and writes the turn with one call of
/// `turnpost_save_turn`, which writes only if the game is still at the version that was read
/// (one statement, so atomic). Two round trips instead of BEGIN, a locking read, the write and
/// COMMIT. If another turn came first, the client's `expected_version` no longer matches (409),
/// or, without one, the submission is tried again on the new state.
async fn submit_unlocked(
    svc: &Services,
    user: Uuid,
    game_id: Uuid,
    expected_version: Option<i64>,
    actions: &[Value],
) -> Result<SubmitResult> {
    let mut conn = svc.conn().await?;
    let mut last_seen = None;
    let mut cached = svc.hot.get(game_id, expected_version, Instant::now());
    for _ in 0..UNLOCKED_TRIES {
        let from_cache = cached.is_some();
        let (mut game, players, users, loaded, read_at) = match cached.take() {
            Some(hot) => (
                hot.game,
                hot.players,
                hot.users,
                Some(hot.state),
                hot.read_at,
            ),
            None => {
                let read_at = Instant::now();
                let (game, players, users) = store::games::read_with_players(&mut conn, game_id)
                    .await?
                    .ok_or(ServiceError::NotFound("game"))?;
                (game, players, users, None, read_at)
            }
        };
        if let Some(expected) = expected_version
            && expected != game.version
        {
            return Err(ServiceError::VersionConflict {
                expected,
                actual: game.version,
            });
        }
        if game.clock.is_some() {
            // Its deadlines change with the turn: written under the game's row lock.
            drop(conn);
            return submit_locked(svc, user, game_id, expected_version, actions, None).await;
        }
        last_seen = Some(game.version);
        let Some(seat) = seat_of(&players, user) else {
            if from_cache {
                svc.hot.forget(game_id);
                continue;
            }
            return Err(ServiceError::NotAPlayer);
        };
        match act(
            svc,
            &mut conn,
            &mut game,
            &players,
            &users,
            seat,
            actions,
            vec![],
            loaded,
            true,
        )
        .await
        {
            Ok(play) => {
                let result = submitted(svc, &game, seat, &play)?;
                // The next submission to this game starts from here, without a read.
                game.state = None;
                svc.hot.put(
                    HotGame {
                        game,
                        players,
                        users,
                        state: play.state,
                        read_at,
                    },
                    Instant::now(),
                );
                return Ok(result);
            }
            // Read again: with an expected version that is a 409 now, without one a new try.
            Err(ServiceError::VersionConflict { .. }) => svc.hot.forget(game_id),
            // A refusal is answered from the database's state, never from a cached one that
            // another process may have moved on.
            Err(
                ServiceError::IllegalAction { .. }
                | ServiceError::NotYourDecision
                | ServiceError::NotAPlayer
                | ServiceError::WrongStatus(_),
            ) if from_cache => svc.hot.forget(game_id),
            Err(e) => return Err(e),
        }
    }
    let seen = last_seen.unwrap_or_default();
    Err(ServiceError::VersionConflict {
        expected: expected_version.unwrap_or(seen),
        actual: seen + 1,
    })
}

/// The answer to a committed submission: the actor's state and the new entries as they may
/// see them.
fn submitted(svc: &Services, game: &Game, seat: i32, play: &Play) -> Result<SubmitResult> {
    let viewer = viewer_of(game, Some(seat));
    Ok(SubmitResult {
        version: game.version,
        state: state_view(svc, game, Some(seat), Some(play.state.as_ref()))?,
        entries: play.events.iter().map(|e| event_view(e, viewer)).collect(),
    })
}

/// Plays `actions` for `seat` in `game` (as read by the caller, locked or not, with its
/// players and their accounts) and commits the turn if the game is still at that version: the one path every move takes, by API or by mail.
/// `notices` adds mail for the committed game (the answer to a mail that made the move);
/// `loaded` is the game's state at its version when the caller has it decoded already (the
/// hot-game cache), instead of the row's snapshot. `standalone`: `conn` is in no transaction,
/// so the turn's write is its own, and the turn is announced after it ([`super::announce`]).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn act(
    svc: &Services,
    conn: &mut Conn,
    game: &mut Game,
    players: &[SeatPlayer],
    users: &[User],
    seat: i32,
    actions: &[Value],
    notices: Vec<(i32, Compose)>,
    loaded: Option<Box<dyn GameState>>,
    standalone: bool,
) -> Result<Play> {
    if game.status() != GameStatus::Active {
        return Err(ServiceError::WrongStatus(game.status.clone()));
    }
    let state = match loaded {
        Some(state) => state,
        None => {
            let snapshot = game.state.as_ref().ok_or_else(|| {
                ServiceError::Unexpected(anyhow::anyhow!("active game without a snapshot"))
            })?;
            svc.load_state(game, snapshot)?
        }
    };
    let seat_index = usize::try_from(seat).map_err(anyhow::Error::from)?;
    let mut play = Play::new(game, state, game.version + 1, svc.clock.now()).with_orders(players);
    play.standalone = standalone;
    for (index, action) in actions.iter().enumerate() {
        if index > 0 {
            play.run_forced_before(seat_index, action)?;
        }
        play.play(seat_index, index, action)?;
    }
    play.run_robots(&game.robots)?;
    let before = game.to_act.clone();
    play.commit(svc, conn, game, &before, players, users, notices)
        .await?;
    if standalone {
        svc.announcer.announce(game.id, game.version);
    }
    Ok(play)
}

/// The channel on which every committed turn is announced as `<game id>:<version>`: by a
/// `NOTIFY` in the turn's transaction, or, for a turn written by one statement of its own, by
/// the server right after it ([`super::announce`]). Either way listeners hear only of
/// committed turns.
pub const NOTIFY_CHANNEL: &str = "turnpost_games";

/// `turnpost replay`: refolds the log of a game and compares it with the snapshot.
pub async fn replay(svc: &Services, game_id: Uuid) -> Result<ReplayReport> {
    let mut conn = svc.conn().await?;
    let game = store::games::get(&mut conn, game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    let events = store::events::all(&mut conn, game_id).await?;
    let rules = svc
        .rules
        .get(&game.ruleset)
        .ok_or_else(|| ServiceError::UnknownRuleset(game.ruleset.clone()))?;
    let log = play_log(&events)?;
    let seats = usize::try_from(game.seat_count).map_err(anyhow::Error::from)?;
    let contiguous = events
        .iter()
        .enumerate()
        .all(|(i, e)| e.seq == i64::try_from(i).unwrap_or(-1) + 1);
    let folded = if game.status() == GameStatus::Open {
        None
    } else {
        Some(
            rules
                .fold(&game.options, seats, &log)
                .map_err(|e| ServiceError::Unexpected(anyhow::anyhow!("refolding: {e}")))?
                .to_json(),
        )
    };
    Ok(ReplayReport {
        entries: events.len(),
        contiguous,
        version_matches: events.last().map(|e| e.seq).unwrap_or(0) == game.version,
        snapshot_matches: folded == game.state,
    })
}

/// The id of every game, in order (`turnpost replay --all`).
pub async fn all_game_ids(svc: &Services) -> Result<Vec<Uuid>> {
    let mut conn = svc.conn().await?;
    Ok(store::games::all_ids(&mut conn).await?)
}

/// The play entries of a log as (actor, action), for folding.
pub fn play_log(events: &[Event]) -> Result<Vec<(Actor, Value)>> {
    events
        .iter()
        .filter(|e| e.actor != "system")
        .map(|e| {
            let actor = match (e.actor.as_str(), e.seat) {
                ("chance", _) => Actor::Chance,
                ("seat", Some(s)) => Actor::Seat(usize::try_from(s).map_err(anyhow::Error::from)?),
                _ => {
                    return Err(ServiceError::Unexpected(anyhow::anyhow!(
                        "log entry {} has no actor",
                        e.seq
                    )));
                }
            };
            Ok((actor, e.action.clone()))
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayReport {
    pub entries: usize,
    pub contiguous: bool,
    pub version_matches: bool,
    pub snapshot_matches: bool,
}

impl ReplayReport {
    pub fn ok(&self) -> bool {
        self.contiguous && self.version_matches && self.snapshot_matches
    }
}
