-- Games that survive absent players (issue 16): a clock per game, a deadline row per waiting
-- seat, seats a bot plays (bots seated at creation, absent and resigned players), votes to
-- abort, and vacations.

-- The game's clock (NULL: no clock, a friendly game). See `service::clock::ClockSettings`.
ALTER TABLE games ADD COLUMN clock jsonb;
-- Seats the built-in bot plays at once whenever they have to decide.
ALTER TABLE games ADD COLUMN robots integer[] NOT NULL DEFAULT '{}';

-- Built-in bots are accounts of their own that can neither sign in nor receive mail.
ALTER TABLE users ADD COLUMN is_bot boolean NOT NULL DEFAULT false;
-- A player's absence: their clocks are paused between these instants.
ALTER TABLE users ADD COLUMN vacation_from timestamptz;
ALTER TABLE users ADD COLUMN vacation_until timestamptz;
-- Vacation days taken in `vacation_year` (bounded per year).
ALTER TABLE users ADD COLUMN vacation_year integer;
ALTER TABLE users ADD COLUMN vacation_days integer NOT NULL DEFAULT 0;

-- Decisions in a row this seat let time out (reset when its player acts).
ALTER TABLE seats ADD COLUMN timeouts integer NOT NULL DEFAULT 0;
-- Set when too many decisions timed out in a row: a bot plays the seat until its player is back.
ALTER TABLE seats ADD COLUMN absent_since timestamptz;
ALTER TABLE seats ADD COLUMN resigned_at timestamptz;
-- The seat's time bank in seconds (NULL when the clock has none).
ALTER TABLE seats ADD COLUMN bank_secs bigint;
-- This seat's player asked to abort the game.
ALTER TABLE seats ADD COLUMN abort_vote boolean NOT NULL DEFAULT false;

-- One row per seat that is waiting in a game with a clock, written in the transaction that
-- makes it wait and removed in the one that ends the wait. Workers claim due rows by locking
-- their game with FOR UPDATE SKIP LOCKED.
CREATE TABLE deadlines (
    game_id    uuid NOT NULL REFERENCES games (id),
    seat       integer NOT NULL,
    started_at timestamptz NOT NULL,
    due_at     timestamptz NOT NULL,
    -- The next reminder (NULL when no reminder point is left before the deadline).
    remind_at  timestamptz,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX deadlines_due_idx ON deadlines (due_at);
CREATE INDEX deadlines_remind_idx ON deadlines (remind_at) WHERE remind_at IS NOT NULL;
CREATE INDEX seats_away_idx ON seats (game_id) WHERE absent_since IS NOT NULL OR resigned_at IS NOT NULL;
