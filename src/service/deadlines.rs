//! A game's clock: its settings (chosen when the game is created), when a decision is due (a
//! vacation stops the clock), the time bank, the reminder points, and the `deadlines` rows,
//! written in the transaction that makes a seat wait ([`sync`], called by `Play::commit`) and
//! removed in the one that ends the wait. The deadline worker that acts on them is `clock`.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{Result, ServiceError};
use crate::store::Conn;
use crate::store::clocks::{self as store_clocks, Deadline};
use crate::store::models::{Game, GameStatus, User};

/// The shortest and longest time per decision.
pub const MIN_DECISION_SECS: i64 = 3_600;
pub const MAX_DECISION_SECS: i64 = 14 * 86_400;
/// The largest time bank (reserve, credit or cap).
pub const MAX_BANK_SECS: i64 = 60 * 86_400;
/// At most this many reminder points per decision.
pub const MAX_REMINDERS: usize = 4;

/// A game's clock, chosen when it is created (`clock` in `POST /v1/games`; absent or null for
/// a game without deadlines).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockSettings {
    /// Seconds each decision may take, 3600 (1 hour) to 1209600 (14 days).
    #[schema(minimum = 3600, maximum = 1209600)]
    pub per_decision_secs: i64,
    /// An optional time bank on top of the time per decision (as Board Game Arena's
    /// turn-based speeds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank: Option<TimeBank>,
    /// Reminder mails, in seconds before the deadline (default 24 h and 1 h before; points
    /// not after the decision began are skipped). At most 4, each 60 to 6393600 (the longest
    /// decision and the largest bank).
    #[serde(default = "default_reminders")]
    #[schema(max_items = 4, value_type = Vec<ReminderSecs>)]
    pub reminders_secs: Vec<i64>,
    /// Decisions in a row a seat may let time out before it is marked absent and the bot plays
    /// it (default 2, 1 to 10).
    #[serde(default = "default_absent_after")]
    #[schema(minimum = 1, maximum = 10)]
    pub absent_after: i32,
}

/// Seconds before a deadline, 60 to 6393600.
#[derive(ToSchema)]
#[schema(minimum = 60, maximum = 6393600)]
#[allow(dead_code)]
pub struct ReminderSecs(i64);

/// A reserve of time: it starts at `initial_secs`; time a decision takes beyond the time per
/// decision is taken from it; each decision then adds `credit_secs`, up to `cap_secs`. Each
/// 0 to 5184000 (60 days); `initial_secs` and `credit_secs` not over `cap_secs`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TimeBank {
    #[schema(minimum = 0, maximum = 5184000)]
    pub initial_secs: i64,
    #[schema(minimum = 0, maximum = 5184000)]
    pub credit_secs: i64,
    #[schema(minimum = 0, maximum = 5184000)]
    pub cap_secs: i64,
}

fn default_reminders() -> Vec<i64> {
    vec![86_400, 3_600]
}

fn default_absent_after() -> i32 {
    2
}

impl ClockSettings {
    /// The clock asked for in a request: `null` or absent is no clock.
    pub fn parse(value: Option<&Value>) -> Result<Option<ClockSettings>> {
        let Some(value) = value.filter(|v| !v.is_null()) else {
            return Ok(None);
        };
        let settings: ClockSettings = serde_json::from_value(value.clone())
            .map_err(|e| ServiceError::Invalid(format!("clock: {e}")))?;
        settings.check()?;
        Ok(Some(settings))
    }

    fn check(&self) -> Result<()> {
        let bad = |m: String| Err(ServiceError::Invalid(format!("clock: {m}")));
        if !(MIN_DECISION_SECS..=MAX_DECISION_SECS).contains(&self.per_decision_secs) {
            return bad(format!(
                "per_decision_secs must be from {MIN_DECISION_SECS} (1 hour) to \
                 {MAX_DECISION_SECS} (14 days)"
            ));
        }
        if let Some(b) = &self.bank {
            let ok = |v: i64| (0..=MAX_BANK_SECS).contains(&v);
            if !(ok(b.initial_secs) && ok(b.credit_secs) && ok(b.cap_secs)) {
                return bad(format!(
                    "the bank's values must be from 0 to {MAX_BANK_SECS} seconds"
                ));
            }
            if b.initial_secs > b.cap_secs || b.credit_secs > b.cap_secs {
                return bad(
                    "the bank's initial_secs and credit_secs must not exceed its cap_secs".into(),
                );
            }
        }
        if self.reminders_secs.len() > MAX_REMINDERS
            || self
                .reminders_secs
                .iter()
                .any(|r| !(60..=MAX_DECISION_SECS + MAX_BANK_SECS).contains(r))
        {
            return bad(format!(
                "reminders_secs takes at most {MAX_REMINDERS} points, each at least 60 seconds \
                 before the deadline"
            ));
        }
        if !(1..=10).contains(&self.absent_after) {
            return bad("absent_after must be from 1 to 10".into());
        }
        Ok(())
    }

    /// The clock of a game (none when it has none, or its stored form is not one).
    pub fn of(game: &Game) -> Option<ClockSettings> {
        serde_json::from_value(game.clock.clone()?).ok()
    }

    /// The time bank a seat starts with.
    pub fn initial_bank(&self) -> Option<i64> {
        self.bank.as_ref().map(|b| b.initial_secs)
    }

    /// The bank after a decision that began at `started`, was due at `due` (which includes any
    /// vacation pause) and was taken at `at`.
    pub fn bank_after(
        &self,
        bank: Option<i64>,
        started: DateTime<Utc>,
        due: DateTime<Utc>,
        at: DateTime<Utc>,
    ) -> Option<i64> {
        let b = self.bank.as_ref()?;
        let held = bank.unwrap_or(b.initial_secs);
        let allowance = self.per_decision_secs + held;
        let pause = ((due - started).num_seconds() - allowance).max(0);
        let used = ((at - started).num_seconds() - pause).max(0);
        let over = (used - self.per_decision_secs).max(0);
        Some(((held - over).max(0) + b.credit_secs).min(b.cap_secs))
    }

    /// The first reminder point of a deadline after `after` (and after the decision began).
    pub fn next_reminder(
        &self,
        started: DateTime<Utc>,
        due: DateTime<Utc>,
        after: DateTime<Utc>,
    ) -> Option<DateTime<Utc>> {
        self.reminders_secs
            .iter()
            .map(|r| due - Duration::seconds(*r))
            .filter(|t| *t > after && *t > started)
            .min()
    }
}

/// When a decision that began at `start` with `allowance_secs` to take is due, for a player
/// whose vacation (if any) runs from `from` to `until`: the clock stands still during the part
/// of the vacation after the start, so the deadline moves by exactly that pause.
pub fn due_at(
    start: DateTime<Utc>,
    allowance_secs: i64,
    vacation: Option<(DateTime<Utc>, DateTime<Utc>)>,
) -> DateTime<Utc> {
    let plain = start + Duration::seconds(allowance_secs);
    match vacation {
        Some((from, until)) if until > start => {
            let paused_at = from.max(start);
            if paused_at < plain {
                plain + (until - paused_at)
            } else {
                plain
            }
        }
        _ => plain,
    }
}

fn vacation_of(user: Option<&User>) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
    let u = user?;
    Some((u.vacation_from?, u.vacation_until?))
}

/// Brings the deadlines of a game with a clock up to date after a committed turn (in the
/// turn's transaction): a seat that decided or stopped waiting loses its deadline (and its
/// time bank is settled), a seat that now waits gets one, a seat still waiting keeps its own;
/// a player who decided themselves has no timeouts in a row any more.
pub async fn sync(
    conn: &mut Conn,
    game: &Game,
    users: &[User],
    deciders: &[(i32, bool)],
    now: DateTime<Utc>,
) -> Result<()> {
    let Some(settings) = ClockSettings::of(game) else {
        return Ok(());
    };
    if game.status() != GameStatus::Active {
        store_clocks::clear(conn, game.id).await?;
        return Ok(());
    }
    let rows = store_clocks::deadlines_of(conn, game.id).await?;
    let mut seats = store_clocks::seat_clocks(conn, game.id).await?;
    let decided = |s: i32| deciders.iter().any(|(d, _)| *d == s);
    let mut removed = vec![];
    let mut changed: Vec<i32> = vec![];
    for row in &rows {
        let waits = game.to_act.contains(&row.seat) && !game.robots.contains(&row.seat);
        if waits && !decided(row.seat) {
            continue;
        }
        removed.push(row.seat);
        if decided(row.seat)
            && let Some(sc) = seats.iter_mut().find(|s| s.seat == row.seat)
        {
            sc.bank_secs = settings.bank_after(sc.bank_secs, row.started_at, row.due_at, now);
            changed.push(row.seat);
        }
    }
    for (seat, own) in deciders {
        if let Some(sc) = seats.iter_mut().find(|s| s.seat == *seat)
            && *own
            && sc.timeouts != 0
        {
            sc.timeouts = 0;
            changed.push(*seat);
        }
    }
    let mut fresh = vec![];
    for &seat in &game.to_act {
        if game.robots.contains(&seat) {
            continue;
        }
        let kept = rows.iter().any(|r| r.seat == seat) && !removed.contains(&seat);
        if kept {
            continue;
        }
        let sc = seats.iter().find(|s| s.seat == seat);
        let bank = sc
            .and_then(|s| s.bank_secs)
            .or(settings.initial_bank())
            .filter(|_| settings.bank.is_some())
            .unwrap_or(0);
        let user = sc.and_then(|s| users.iter().find(|u| u.id == s.user_id));
        let due = due_at(now, settings.per_decision_secs + bank, vacation_of(user));
        fresh.push(Deadline {
            game_id: game.id,
            seat,
            started_at: now,
            due_at: due,
            remind_at: settings.next_reminder(now, due, now),
        });
        if !removed.contains(&seat) {
            removed.push(seat);
        }
    }
    store_clocks::replace(conn, game.id, &removed, &fresh).await?;
    changed.sort_unstable();
    changed.dedup();
    for seat in changed {
        if let Some(sc) = seats.iter().find(|s| s.seat == seat) {
            store_clocks::save_seat(conn, game.id, sc).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn at(h: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + h * 3600, 0).unwrap()
    }

    fn settings(bank: Option<TimeBank>) -> ClockSettings {
        ClockSettings {
            per_decision_secs: 24 * 3600,
            bank,
            reminders_secs: default_reminders(),
            absent_after: 2,
        }
    }

    #[test]
    fn a_vacation_moves_the_deadline_by_exactly_the_pause() {
        // A day per decision from hour 0: due at hour 24.
        assert_eq!(due_at(at(0), 24 * 3600, None), at(24));
        // Away from hour 10 to hour 40: the clock stood still for 30 hours.
        assert_eq!(due_at(at(0), 24 * 3600, Some((at(10), at(40)))), at(54));
        // A vacation that began before the decision pauses it from its start.
        assert_eq!(due_at(at(0), 24 * 3600, Some((at(-5), at(6)))), at(30));
        // One that is over, or that begins after the deadline, changes nothing.
        assert_eq!(due_at(at(0), 24 * 3600, Some((at(-9), at(-1)))), at(24));
        assert_eq!(due_at(at(0), 24 * 3600, Some((at(30), at(40)))), at(24));
    }

    #[test]
    fn the_bank_pays_for_overtime_and_earns_its_credit_up_to_its_cap() {
        let s = settings(Some(TimeBank {
            initial_secs: 10 * 3600,
            credit_secs: 3600,
            cap_secs: 12 * 3600,
        }));
        // Quick decision: +1 h credit.
        assert_eq!(s.bank_after(None, at(0), at(34), at(2)), Some(11 * 3600));
        // 30 h for a 24 h decision: 6 h from the bank, then +1 h.
        assert_eq!(
            s.bank_after(Some(10 * 3600), at(0), at(34), at(30)),
            Some(5 * 3600)
        );
        // Never above the cap, never below zero.
        assert_eq!(
            s.bank_after(Some(12 * 3600), at(0), at(36), at(1)),
            Some(12 * 3600)
        );
        assert_eq!(s.bank_after(Some(3600), at(0), at(25), at(25)), Some(3600));
        assert_eq!(
            settings(None).bank_after(Some(5), at(0), at(24), at(1)),
            None
        );
    }

    #[test]
    fn reminders_come_at_their_points_after_the_decision_began() {
        let s = settings(None);
        assert_eq!(s.next_reminder(at(0), at(24), at(0)), Some(at(23)));
        // With 48 hours: 24 h before, then 1 h before.
        assert_eq!(s.next_reminder(at(0), at(48), at(0)), Some(at(24)));
        assert_eq!(s.next_reminder(at(0), at(48), at(24)), Some(at(47)));
        assert_eq!(s.next_reminder(at(0), at(48), at(47)), None);
    }

    #[test]
    fn clock_settings_are_checked() {
        let ok = json!({"per_decision_secs": 3600});
        let parsed = ClockSettings::parse(Some(&ok)).unwrap().unwrap();
        assert_eq!(parsed.reminders_secs, vec![86_400, 3_600]);
        assert_eq!(parsed.absent_after, 2);
        assert_eq!(ClockSettings::parse(Some(&Value::Null)).unwrap(), None);
        assert_eq!(ClockSettings::parse(None).unwrap(), None);
        for bad in [
            json!({"per_decision_secs": 60}),
            json!({"per_decision_secs": 15 * 86_400}),
            json!({"per_decision_secs": 3600, "absent_after": 0}),
            json!({"per_decision_secs": 3600, "reminders_secs": [1]}),
            json!({"per_decision_secs": 3600, "bank": {"initial_secs": 5, "credit_secs": 1, "cap_secs": 2}}),
            json!({"per_decision_secs": 3600, "speed": "fast"}),
            json!("daily"),
        ] {
            assert!(
                matches!(
                    ClockSettings::parse(Some(&bad)),
                    Err(ServiceError::Invalid(_))
                ),
                "{bad}"
            );
        }
    }
}
