//! What the event streams for programs send (`http::streams`): a game's log from a cursor, and
//! an account's notices (your turn, game over, invitation).
//!
//! Both are read from the database, never from a process's memory: an announcement on the
//! `turnpost_games` channel (or a heartbeat) only says "look again", so a stream served by one
//! process follows moves taken on any other, and a lost announcement delays a notice by one
//! heartbeat at most.

use std::collections::HashSet;

use chrono::{DateTime, TimeDelta, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::views::{EventPage, GameOverNotice, InvitationNotice, TurnNotice};
use super::{Result, ServiceError, Services, games};
use crate::store::{self, games::GameMark, models::GameStatus, models::Invitation};

/// A page of a game's log for its stream, and whether the game is over (then nothing will
/// follow what the page ends with, once `next` is `null`).
pub async fn log_after(
    svc: &Services,
    user: Uuid,
    game: Uuid,
    after: i64,
    limit: i64,
) -> Result<(EventPage, bool)> {
    let page = games::events(svc, user, game, after, limit).await?;
    let mut conn = svc.conn().await?;
    let over = match store::games::waits(&mut conn, &[game]).await?.first() {
        Some((_, status, _, _)) => {
            matches!(
                GameStatus::parse(status),
                Some(GameStatus::Finished | GameStatus::Abandoned)
            )
        }
        None => return Err(ServiceError::NotFound("game")),
    };
    Ok((page, over))
}

/// One notice of an account's stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// The SSE `id`: `<micros>.<game or invitation>[.<version>]`, where `<micros>` is the
    /// time (µs since 1970) of the change it reports; a reconnect resumes from that time.
    pub id: String,
    /// The SSE `event`: `your-turn`, `game-over` or `invitation`.
    pub event: &'static str,
    pub data: Value,
    at: DateTime<Utc>,
}

/// How far before the last notice a look (and a resumed stream) reads again: a change
/// committed a little after a later one can carry an earlier time.
const OVERLAP: TimeDelta = TimeDelta::seconds(10);

/// Where an account's stream stands: what it has sent, and which games it follows.
pub struct AccountWatch {
    user: Uuid,
    email: String,
    /// Games that ended after this are reported.
    since: DateTime<Utc>,
    sent: HashSet<String>,
    /// The games whose announcements make the stream look again.
    games: HashSet<Uuid>,
    /// Running or ended games without a seat of the account's: their announcements are
    /// ignored (only an open game can still seat it).
    strangers: HashSet<Uuid>,
}

/// The time a `Last-Event-ID` of an account's stream resumes from, or why it is not one.
pub fn resume_time(last_event_id: &str) -> Result<DateTime<Utc>> {
    last_event_id
        .split('.')
        .next()
        .and_then(|micros| micros.parse::<i64>().ok())
        .and_then(DateTime::from_timestamp_micros)
        .ok_or_else(|| {
            ServiceError::Invalid("Last-Event-ID is not an id this stream sent".to_owned())
        })
}

impl AccountWatch {
    /// A watch for `user`'s stream: from `resume` (a `Last-Event-ID`'s time) or from now.
    pub async fn open(
        svc: &Services,
        user: Uuid,
        resume: Option<DateTime<Utc>>,
    ) -> Result<AccountWatch> {
        let account = super::users::current(svc, user)
            .await?
            .ok_or(ServiceError::NotFound("account"))?;
        Ok(AccountWatch {
            user,
            email: account.email,
            since: resume.map_or_else(Utc::now, |at| at - OVERLAP),
            sent: HashSet::new(),
            games: HashSet::new(),
            strangers: HashSet::new(),
        })
    }

    /// Whether an announcement about `game` may bring a notice: a game of the account's, or
    /// one it may just have joined (asked once for each game that is not open).
    pub async fn concerns(&mut self, svc: &Services, game: Uuid) -> Result<bool> {
        if self.games.contains(&game) {
            return Ok(true);
        }
        if self.strangers.contains(&game) {
            return Ok(false);
        }
        let mut conn = svc.conn().await?;
        match store::games::seated(&mut conn, game, self.user).await? {
            Some((_, true)) => Ok(true),
            Some((status, false)) => {
                if GameStatus::parse(&status) != Some(GameStatus::Open) {
                    self.strangers.insert(game);
                }
                Ok(false)
            }
            None => Ok(false),
        }
    }

    /// The notices not sent yet, oldest first.
    pub async fn look(&mut self, svc: &Services) -> Result<Vec<Notice>> {
        let mut conn = svc.conn().await?;
        let marks = store::games::marks_of_user(&mut conn, self.user, self.since).await?;
        let invitations =
            store::invitations::pending_for(&mut conn, &self.email, chrono::Utc::now()).await?;
        self.games = marks.iter().map(|m| m.id).collect();
        let fresh: Vec<Notice> = notices(&marks, &invitations, self.since)
            .into_iter()
            .filter(|n| !self.sent.contains(&n.id))
            .collect();
        for n in &fresh {
            self.sent.insert(n.id.clone());
            self.since = self.since.max(n.at - OVERLAP);
        }
        Ok(fresh)
    }
}

fn id_of(at: DateTime<Utc>, what: Uuid, version: Option<i64>) -> String {
    match version {
        Some(v) => format!("{}.{what}.{v}", at.timestamp_micros()),
        None => format!("{}.{what}", at.timestamp_micros()),
    }
}

/// The notices an account's games and invitations stand for, oldest first: a `your-turn` for
/// every running game waiting on its seat, a `game-over` for every game that ended after
/// `ended_after`, an `invitation` for every pending invitation.
pub fn notices(
    marks: &[GameMark],
    invitations: &[Invitation],
    ended_after: DateTime<Utc>,
) -> Vec<Notice> {
    let mut out = Vec::new();
    for m in marks {
        let status = GameStatus::parse(&m.status);
        let (event, data) = match status {
            Some(GameStatus::Active) if m.to_act.contains(&m.seat) => (
                "your-turn",
                serde_json::to_value(TurnNotice {
                    game: m.id,
                    ruleset: m.ruleset.clone(),
                    version: m.version,
                    seat: m.seat,
                }),
            ),
            Some(GameStatus::Finished | GameStatus::Abandoned) if m.updated_at > ended_after => (
                "game-over",
                serde_json::to_value(GameOverNotice {
                    game: m.id,
                    ruleset: m.ruleset.clone(),
                    version: m.version,
                    status: m.status.clone(),
                    outcome: m.outcome.clone(),
                }),
            ),
            _ => continue,
        };
        let Ok(data) = data else { continue };
        out.push(Notice {
            id: id_of(m.updated_at, m.id, Some(m.version)),
            event,
            data,
            at: m.updated_at,
        });
    }
    for inv in invitations {
        let Ok(data) = serde_json::to_value(InvitationNotice {
            invitation: inv.id,
            game: inv.game_id,
            seat: inv.seat,
            invited_by: inv.invited_by,
        }) else {
            continue;
        };
        out.push(Notice {
            id: id_of(inv.created_at, inv.id, None),
            event: "invitation",
            data,
            at: inv.created_at,
        });
    }
    out.sort_by(|a, b| a.at.cmp(&b.at).then_with(|| a.id.cmp(&b.id)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(status: &str, to_act: Vec<i32>, seat: i32, at: DateTime<Utc>) -> GameMark {
        GameMark {
            id: Uuid::new_v4(),
            ruleset: "bag-of-fate".into(),
            status: status.into(),
            version: 7,
            to_act,
            outcome: None,
            updated_at: at,
            seat,
        }
    }

    #[test]
    fn a_turn_is_noticed_only_for_the_seat_that_has_to_act() {
        let now = Utc::now();
        let mine = mark("active", vec![1], 1, now);
        let theirs = mark("active", vec![0], 1, now);
        let open = mark("open", vec![], 0, now);
        let got = notices(&[mine.clone(), theirs, open], &[], now);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].event, "your-turn");
        assert_eq!(got[0].data["game"], mine.id.to_string());
        assert_eq!(got[0].data["version"], 7);
        assert_eq!(got[0].data["seat"], 1);
    }

    #[test]
    fn an_end_is_noticed_only_after_the_resume_time_and_ids_resume_there() {
        let now = Utc::now();
        let old = mark("finished", vec![], 0, now - TimeDelta::hours(1));
        let new = mark("abandoned", vec![], 0, now);
        let got = notices(&[old, new.clone()], &[], now - TimeDelta::minutes(1));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].event, "game-over");
        assert_eq!(got[0].data["status"], "abandoned");
        let resumed = resume_time(&got[0].id).expect("an id of ours");
        assert_eq!(resumed.timestamp_micros(), now.timestamp_micros());
        assert!(resume_time("nonsense").is_err());
    }

    #[test]
    fn notices_come_oldest_first_invitations_among_them() {
        let now = Utc::now();
        let later = mark("active", vec![0], 0, now);
        let inv = Invitation {
            id: Uuid::new_v4(),
            game_id: Uuid::new_v4(),
            seat: None,
            email: "a@example.test".into(),
            invited_by: Uuid::new_v4(),
            created_at: now - TimeDelta::seconds(5),
            accepted_by: None,
            accepted_at: None,
            expires_at: now + TimeDelta::days(7),
            declined_at: None,
        };
        let got = notices(&[later], std::slice::from_ref(&inv), now);
        let events: Vec<_> = got.iter().map(|n| n.event).collect();
        assert_eq!(events, ["invitation", "your-turn"]);
        assert_eq!(got[0].data["invitation"], inv.id.to_string());
    }
}
