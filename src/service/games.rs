//! Creating, joining and reading games.

use chrono::{DateTime, Utc};
use diesel_async::AsyncConnection;
use serde_json::{Value, json};
use uuid::Uuid;

use super::chance;
use super::deadlines::ClockSettings;
use super::game_views::{
    deadline_views, deadlines_of, event_view, game_view, game_view_with, seat_number, seat_of,
    state_view, viewer_of,
};
use super::submit::{Play, lifecycle_event};
use super::views::{EventPage, GameList, GameView, RulesetOption, RulesetView, StateView};
use super::{Result, ServiceError, Services};
use crate::notify::{Compose, Notice};
use crate::rules::Game as Ruleset;
pub use crate::store::models::GameStatus;
use crate::store::models::{EventKind, Game, GameUpdate, NewGame, Seat, SeatPlayer};
use crate::store::{self, Conn};

pub fn rulesets(svc: &Services) -> Vec<RulesetView> {
    svc.rules.all().map(ruleset_view).collect()
}

/// A hosted ruleset's metadata and the JSON Schemas of its options, actions and view.
pub fn ruleset_with_schemas(
    svc: &Services,
    id: &str,
) -> Option<(RulesetView, crate::rules::schema::Schemas)> {
    svc.rules.get(id).map(|g| (ruleset_view(g), g.schemas()))
}

fn ruleset_view(g: &dyn Ruleset) -> RulesetView {
    let seats = g.seats(&Value::Null).unwrap_or(1..=1);
    RulesetView {
        id: g.id().to_owned(),
        name: g.name().to_owned(),
        min_seats: *seats.start(),
        max_seats: *seats.end(),
        options: g
            .option_docs()
            .into_iter()
            .map(|o| RulesetOption {
                name: o.name.to_owned(),
                description: o.description.to_owned(),
                default: o.default,
            })
            .collect(),
    }
}

fn ruleset<'a>(svc: &'a Services, id: &str) -> Result<&'a dyn Ruleset> {
    svc.rules
        .get(id)
        .ok_or_else(|| ServiceError::UnknownRuleset(id.to_owned()))
}

async fn views_of(conn: &mut Conn, games: Vec<Game>) -> Result<Vec<GameView>> {
    let ids: Vec<Uuid> = games.iter().map(|g| g.id).collect();
    let players = store::games::seat_players_of(conn, &ids).await?;
    let clocked: Vec<Uuid> = games
        .iter()
        .filter(|g| g.clock.is_some())
        .map(|g| g.id)
        .collect();
    let deadlines = if clocked.is_empty() {
        vec![]
    } else {
        store::clocks::deadlines_in(conn, &clocked).await?
    };
    Ok(games
        .iter()
        .map(|g| {
            let mine: Vec<SeatPlayer> = players
                .iter()
                .filter(|(id, _)| *id == g.id)
                .map(|(_, p)| p.clone())
                .collect();
            game_view_with(g, &mine, &deadlines)
        })
        .collect())
}

/// What a new game is made of, besides its ruleset and seats.
#[derive(Clone, Debug, Default)]
pub struct NewTable {
    pub options: Value,
    /// The clock (`clock` of `POST /v1/games`), validated by [`ClockSettings::parse`].
    pub clock: Option<ClockSettings>,
    /// How many seats (the last ones) the built-in bot takes.
    pub bots: i64,
}

/// `POST /v1/games`: a new open game; the creator takes seat 0, bots the last `bots` seats.
pub async fn create(
    svc: &Services,
    user: Uuid,
    ruleset_id: &str,
    seats: i64,
    table: &NewTable,
) -> Result<GameView> {
    let options = &table.options;
    let rules = ruleset(svc, ruleset_id)?;
    let options = rules
        .normalise_options(options)
        .map_err(|e| ServiceError::Invalid(e.to_string()))?;
    let range = rules
        .seats(&options)
        .map_err(|e| ServiceError::Invalid(e.to_string()))?;
    let seat_count = usize::try_from(seats)
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            ServiceError::InvalidSeats(format!(
                "{} takes {} to {} seats, not {seats}",
                rules.name(),
                range.start(),
                range.end()
            ))
        })?;
    // A dry set-up: options the ruleset refuses only when the table is full (three schools in
    // Wiz-War, tribes one per seat) would otherwise make an open game that can never start.
    rules
        .new_game(&options, seat_count)
        .map_err(|e| ServiceError::Invalid(e.to_string()))?;
    let bots = usize::try_from(table.bots)
        .ok()
        .filter(|b| *b < seat_count)
        .ok_or_else(|| {
            ServiceError::InvalidSeats(format!(
                "bots must be from 0 to {} (the creator takes a seat)",
                seat_count - 1
            ))
        })?;
    let bot_seats: Vec<i32> = (seat_count - bots..seat_count)
        .map(|s| i32::try_from(s).unwrap_or(i32::MAX))
        .collect();
    let clock = match &table.clock {
        Some(c) => Some(serde_json::to_value(c).map_err(anyhow::Error::from)?),
        None => None,
    };
    let seed = chance::new_seed();
    let seed_sha256 = chance::seed_sha256(&seed);
    let id = Uuid::new_v4();
    let mut conn = svc.conn().await?;
    let view = conn
        .transaction::<_, ServiceError, _>(async |conn| {
            let now = svc.clock.now();
            let mut game = store::games::insert(
                conn,
                NewGame {
                    id,
                    ruleset: rules.id(),
                    options: &options,
                    seat_count: i32::try_from(seat_count).unwrap_or(i32::MAX),
                    status: GameStatus::Open.as_str(),
                    // The version of the `created` entry below: a game whose creator's seat
                    // fills it (one seat, as a solo Gnomes and Wizards game has) starts from
                    // this stored version.
                    version: 1,
                    seed: &seed,
                    seed_sha256: &seed_sha256,
                    created_by: user,
                    clock: clock.as_ref(),
                    robots: &bot_seats,
                },
            )
            .await?;
            let created = lifecycle_event(
                &game,
                1,
                now,
                EventKind::Created,
                json!({"ruleset": rules.id(), "seats": seat_count, "options": options, "seed_sha256": seed_sha256}),
                format!("Game of {} for {seat_count} created", rules.name()),
            );
            store::events::append(conn, &[created]).await?;
            take_seat(svc, conn, &mut game, user, 0, now).await?;
            for (n, seat) in bot_seats.iter().enumerate() {
                let bot = store::users::insert_bot(conn, &format!("Bot {}", n + 1)).await?;
                take_seat(svc, conn, &mut game, bot, *seat, now).await?;
            }
            let players = store::games::seat_players(conn, id).await?;
            let deadlines = store::clocks::deadlines_of(conn, id).await?;
            Ok(game_view_with(&game, &players, &deadlines))
        })
        .await?;
    Ok(view)
}

/// Seats `user` at `seat` (locked game row), logging it; starts the game when it is full.
async fn take_seat(
    svc: &Services,
    conn: &mut Conn,
    game: &mut Game,
    user: Uuid,
    seat: i32,
    now: DateTime<Utc>,
) -> Result<()> {
    store::games::insert_seat(
        conn,
        Seat {
            game_id: game.id,
            seat,
            user_id: user,
            joined_at: now,
        },
    )
    .await?;
    let name = store::users::by_id(conn, user)
        .await?
        .map(|u| u.display_name)
        .unwrap_or_default();
    let stored = game.version;
    let seq = game.version + 1;
    let joined = lifecycle_event(
        game,
        seq,
        now,
        EventKind::Joined,
        json!({"seat": seat, "user_id": user, "display_name": name}),
        format!("{name} took seat {seat}"),
    );
    store::events::append(conn, &[joined]).await?;
    game.version = seq;
    let taken = store::games::seat_players(conn, game.id).await?;
    if taken.len() == usize::try_from(game.seat_count).unwrap_or(usize::MAX) {
        start(svc, conn, game, stored, &taken, now).await?;
    } else {
        store::games::update(
            conn,
            game.id,
            GameUpdate {
                status: GameStatus::Open.as_str(),
                version: game.version,
                state: None,
                to_act: &[],
                outcome: None,
                updated_at: now,
                waiting_since: None,
            },
        )
        .await?;
        game.updated_at = now;
    }
    Ok(())
}

/// The last seat is taken: set up the rules state, run the set-up chance steps, publish.
/// `stored` is the game row's version in the database (the seat's entry is not on it yet).
async fn start(
    svc: &Services,
    conn: &mut Conn,
    game: &mut Game,
    stored: i64,
    players: &[SeatPlayer],
    now: DateTime<Utc>,
) -> Result<()> {
    let rules = ruleset(svc, &game.ruleset)?;
    let seats = usize::try_from(game.seat_count).unwrap_or(0);
    let state = rules
        .new_game(&game.options, seats)
        .map_err(|e| ServiceError::Unexpected(anyhow::anyhow!("setting up: {e}")))?;
    let started = lifecycle_event(
        game,
        game.version + 1,
        now,
        EventKind::Started,
        json!({"seed_sha256": game.seed_sha256}),
        format!(
            "The game started; the seed's SHA-256 is {}",
            game.seed_sha256
        ),
    );
    let mut play = Play::new(game, state, started.seq + 1, now);
    play.stored_version = stored;
    play.events.push(started);
    play.run_chance()?;
    play.run_robots(&game.robots)?;
    let notices = players
        .iter()
        .map(|p| (p.seat, Compose::notice(p.seat, Notice::GameStarted)))
        .collect();
    let ids: Vec<_> = players.iter().map(|p| p.user_id).collect();
    let users = store::users::by_ids(conn, &ids).await?;
    play.commit(svc, conn, game, &[], players, &users, notices)
        .await?;
    Ok(())
}

/// `POST /v1/games/{id}/join`.
pub async fn join(
    svc: &Services,
    user: Uuid,
    game_id: Uuid,
    seat: Option<i64>,
) -> Result<GameView> {
    let mut conn = svc.conn().await?;
    conn.transaction::<_, ServiceError, _>(async |conn| {
        join_in(svc, conn, user, game_id, seat).await
    })
    .await
}

/// Seats `user` in an open game inside the caller's transaction: at `seat`, or the lowest free one.
pub(crate) async fn join_in(
    svc: &Services,
    conn: &mut Conn,
    user: Uuid,
    game_id: Uuid,
    seat: Option<i64>,
) -> Result<GameView> {
    let mut game = store::games::lock(conn, game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    if game.status() != GameStatus::Open {
        return Err(ServiceError::WrongStatus(game.status.clone()));
    }
    let taken = store::games::seat_players(conn, game_id).await?;
    if taken.iter().any(|p| p.user_id == user) {
        return Err(ServiceError::SeatUnavailable(
            "you already hold a seat in this game".into(),
        ));
    }
    // Seats held for invited players are theirs until the invitation is answered or expires.
    let email = store::users::by_id(conn, user)
        .await?
        .map(|u| u.email)
        .unwrap_or_default();
    let pending = store::invitations::pending_in(conn, &[game_id], Utc::now()).await?;
    let seated: Vec<i32> = taken.iter().map(|p| p.seat).collect();
    let open = super::invitees::seats_open_to(&email, game.seat_count, &seated, &pending);
    let mine = pending
        .iter()
        .find(|i| super::invitees::same_address(&i.email, &email));
    let seat = match seat.or(mine.and_then(|i| i.seat).map(i64::from)) {
        Some(s) => {
            let s = seat_number(&game, s, "seat")?;
            if taken.iter().any(|p| p.seat == s) {
                return Err(ServiceError::SeatUnavailable(format!("seat {s} is taken")));
            }
            if !open.as_ref().is_ok_and(|seats| seats.contains(&s)) {
                return Err(ServiceError::SeatUnavailable(format!(
                    "seat {s} is held for an invited player until the invitation is answered \
                     or expires"
                )));
            }
            s
        }
        None => *open
            .map_err(ServiceError::SeatUnavailable)?
            .first()
            .ok_or_else(|| ServiceError::SeatUnavailable("every seat is taken".into()))?,
    };
    // Joining a game one was invited to answers the invitation.
    if let Some(inv) = mine {
        store::invitations::mark_accepted(conn, inv.id, user).await?;
    }
    take_seat(svc, conn, &mut game, user, seat, svc.clock.now()).await?;
    let players = store::games::seat_players(conn, game_id).await?;
    Ok(game_view(&game, &players))
}

pub async fn get(svc: &Services, game_id: Uuid) -> Result<GameView> {
    let mut conn = svc.conn().await?;
    let (game, players) = store::games::get_with_players(&mut conn, game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    let deadlines = deadlines_of(&mut conn, &game).await?;
    Ok(game_view_with(&game, &players, &deadlines))
}

/// `GET /v1/games`: open games (and active ones with a seat to take over), oldest first.
pub async fn list_open(svc: &Services, cursor: Option<&str>, limit: i64) -> Result<GameList> {
    let after = cursor.map(super::cursor::decode).transpose()?;
    let mut conn = svc.conn().await?;
    let rows = store::games::list_open(&mut conn, after, limit + 1).await?;
    let (games, next) =
        super::cursor::page(rows, limit, |g| super::cursor::encode(g.created_at, g.id));
    Ok(GameList {
        games: views_of(&mut conn, games).await?,
        next,
    })
}

/// `GET /v1/me/games`: the games in which `user` holds a seat, newest first, of these
/// statuses (all when empty).
pub async fn mine(
    svc: &Services,
    user: Uuid,
    statuses: &[GameStatus],
    cursor: Option<&str>,
    limit: i64,
) -> Result<GameList> {
    let before = cursor.map(super::cursor::decode).transpose()?;
    let statuses: Vec<&str> = statuses.iter().map(|s| s.as_str()).collect();
    let mut conn = svc.conn().await?;
    let rows = store::games::of_user(&mut conn, user, &statuses, before, limit + 1).await?;
    let (games, next) =
        super::cursor::page(rows, limit, |g| super::cursor::encode(g.created_at, g.id));
    Ok(GameList {
        games: views_of(&mut conn, games).await?,
        next,
    })
}

/// `GET /v1/me/turns`: the active games waiting on `user`, longest wait first.
pub async fn my_turns(
    svc: &Services,
    user: Uuid,
    cursor: Option<&str>,
    limit: i64,
) -> Result<GameList> {
    let after = cursor.map(super::cursor::decode).transpose()?;
    let mut conn = svc.conn().await?;
    let rows = store::games::waiting_on(&mut conn, user, after, limit + 1).await?;
    let (games, next) = super::cursor::page(rows, limit, |g| {
        super::cursor::encode(g.waiting_since.unwrap_or(g.created_at), g.id)
    });
    Ok(GameList {
        games: views_of(&mut conn, games).await?,
        next,
    })
}

pub async fn state(svc: &Services, user: Uuid, game_id: Uuid) -> Result<StateView> {
    let mut conn = svc.conn().await?;
    let (game, players) = store::games::get_with_players(&mut conn, game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    let deadlines = deadlines_of(&mut conn, &game).await?;
    drop(conn);
    let mut view = state_view(svc, &game, seat_of(&players, user), None)?;
    view.deadlines = deadline_views(&game, &deadlines);
    Ok(view)
}

pub async fn events(
    svc: &Services,
    user: Uuid,
    game_id: Uuid,
    after: i64,
    limit: i64,
) -> Result<EventPage> {
    let mut conn = svc.conn().await?;
    let (game, players) = store::games::get_with_players(&mut conn, game_id)
        .await?
        .ok_or(ServiceError::NotFound("game"))?;
    let viewer = viewer_of(&game, seat_of(&players, user));
    let rows = store::events::page(&mut conn, game_id, after.max(0), limit).await?;
    let next = (rows.len() as i64 == limit)
        .then(|| rows.last().map(|e| e.seq))
        .flatten();
    Ok(EventPage {
        entries: rows.iter().map(|e| event_view(e, viewer)).collect(),
        next,
    })
}
