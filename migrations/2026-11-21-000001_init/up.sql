-- Turnpost's store: users, games with their snapshots, the append-only event log,
-- the mail outbox and idempotency keys. Every table is keyed by game_id where it can be,
-- so the schema can be distributed by game.

CREATE TABLE users (
    id            uuid PRIMARY KEY,
    email         text NOT NULL,
    display_name  text NOT NULL,
    password_hash text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE games (
    id            uuid PRIMARY KEY,
    ruleset       text NOT NULL,
    options       jsonb NOT NULL,
    seat_count    integer NOT NULL CHECK (seat_count > 0),
    status        text NOT NULL CHECK (status IN ('open', 'active', 'finished', 'abandoned')),
    -- The seq of the last event; the snapshot in `state` is the fold of events 1..=version.
    version       bigint NOT NULL,
    state         jsonb,
    seed          bytea NOT NULL,
    seed_sha256   text NOT NULL,
    to_act        integer[] NOT NULL DEFAULT '{}',
    outcome       jsonb,
    created_by    uuid NOT NULL REFERENCES users (id),
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    -- When the seats in `to_act` started waiting (for "longest wait first").
    waiting_since timestamptz
);
CREATE INDEX games_open_idx ON games (created_at, id) WHERE status = 'open';

CREATE TABLE seats (
    game_id   uuid NOT NULL REFERENCES games (id),
    seat      integer NOT NULL,
    user_id   uuid NOT NULL REFERENCES users (id),
    joined_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX seats_user_idx ON seats (user_id);

CREATE TABLE game_events (
    game_id              uuid NOT NULL REFERENCES games (id),
    seq                  bigint NOT NULL CHECK (seq > 0),
    -- 'system' (lifecycle), 'chance' or 'seat' (with `seat`).
    actor                text NOT NULL CHECK (actor IN ('system', 'chance', 'seat')),
    seat                 integer,
    kind                 text NOT NULL,
    action               jsonb NOT NULL,
    -- NULL when everyone sees the entry in full; otherwise the seats that do.
    visible_to           integer[],
    redacted             jsonb,
    description          text NOT NULL,
    redacted_description text,
    created_at           timestamptz NOT NULL DEFAULT now(),
    request_id           uuid,
    PRIMARY KEY (game_id, seq)
);

-- The log is append-only: no entry is ever changed or removed.
CREATE FUNCTION game_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'game_events is append-only';
END;
$$;
CREATE TRIGGER game_events_no_update BEFORE UPDATE OR DELETE ON game_events
    FOR EACH ROW EXECUTE FUNCTION game_events_append_only();

CREATE TABLE outbox (
    id              bigserial PRIMARY KEY,
    game_id         uuid REFERENCES games (id),
    user_id         uuid NOT NULL REFERENCES users (id),
    -- 'game_started' | 'your_turn' | 'game_over' | 'invitation' ...
    kind            text NOT NULL,
    payload         jsonb NOT NULL DEFAULT '{}',
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    lease_until     timestamptz,
    last_error      text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz
);
CREATE INDEX outbox_due_idx ON outbox (next_attempt_at) WHERE status = 'pending';

CREATE TABLE idempotency_keys (
    user_id         uuid NOT NULL REFERENCES users (id),
    key             text NOT NULL,
    request_sha256  text NOT NULL,
    response_status integer,
    response_body   jsonb,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, key)
);
