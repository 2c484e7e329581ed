-- Webhooks (issue 19, item 5): an account's URLs that receive `your-turn` and `game-over`
-- events, signed with a per-hook secret, delivered from a durable queue with retries.
--
-- A hook registered with an API token belongs to that token (`token_id`): revoking the token
-- stops its hooks (no new deliveries are queued for them, and queued ones are dropped). A hook
-- registered from a session (`token_id` NULL) belongs to the account alone.
--
-- The signing secret is not stored: it is HMAC-SHA256(server webhook key, id || secret_salt),
-- recomputed by the server whenever it signs. A copy of the database alone (a backup, a
-- replica) thus reveals no secret; the key lives outside it (TURNPOST_WEBHOOK_KEY, or a file in
-- the data directory). See docs/SECURITY.md.
CREATE TABLE webhooks (
    id                   uuid PRIMARY KEY,
    user_id              uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_id             uuid REFERENCES api_tokens (id) ON DELETE CASCADE,
    url                  text NOT NULL,
    events               text[] NOT NULL,
    secret_salt          bytea NOT NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    last_delivery_at     timestamptz,
    last_failure_at      timestamptz,
    delivered            bigint NOT NULL DEFAULT 0,
    failed_attempts      bigint NOT NULL DEFAULT 0,
    given_up             bigint NOT NULL DEFAULT 0
);
CREATE INDEX webhooks_by_user ON webhooks (user_id, created_at);

-- One row per (hook, event), written in the transaction of the move that caused the event
-- (so a crash loses nothing and delivers nothing that did not happen). Workers claim due rows
-- FOR UPDATE SKIP LOCKED with a lease, like the mail outbox: delivery is at-least-once, and
-- a repeat carries the same event id.
CREATE TABLE webhook_deliveries (
    id               bigserial PRIMARY KEY,
    webhook_id       uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id         uuid NOT NULL,
    event            text NOT NULL,
    payload          jsonb NOT NULL,
    status           text NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'delivered', 'failed', 'dropped')),
    attempts         integer NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    lease_until      timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    delivered_at     timestamptz,
    last_status      integer,
    last_error       text,
    UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id)
    WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_hook ON webhook_deliveries (webhook_id, id);

-- Queues each event of `p_events` (a JSON array of {user_id, event_id, event, payload}) for
-- every hook of its account that subscribes to it and still works (its token, if any, not
-- revoked): one INSERT, whatever the number of events and hooks; nothing when no account of
-- the events has a hook (an index probe per event).
CREATE FUNCTION turnpost_queue_webhooks(p_events text) RETURNS void LANGUAGE sql AS $$
    INSERT INTO webhook_deliveries (webhook_id, event_id, event, payload)
    SELECT h.id, e.event_id, e.event, e.payload
    FROM jsonb_to_recordset(p_events::jsonb)
         AS e(user_id uuid, event_id uuid, event text, payload jsonb)
    JOIN webhooks h ON h.user_id = e.user_id AND e.event = ANY (h.events)
    LEFT JOIN api_tokens t ON t.id = h.token_id
    WHERE h.token_id IS NULL OR t.revoked_at IS NULL;
$$;

-- The turn's writes gain its webhook events (`p_hooks`), queued in the same statement. A new
-- overload: the 13-argument function stays as it was, for processes of the previous release
-- still running during a rolling upgrade (their turns queue no webhook events).
CREATE FUNCTION turnpost_save_turn(
    p_game          uuid,
    p_expected      bigint,
    p_entries       text,
    p_status        text,
    p_version       bigint,
    p_state         jsonb,
    p_to_act        integer[],
    p_outcome       jsonb,
    p_updated_at    timestamptz,
    p_waiting_since timestamptz,
    p_mail          text,
    p_channel       text,
    p_payload       text,
    p_hooks         text
) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games
    SET status = p_status, version = p_version, state = p_state, to_act = p_to_act,
        outcome = p_outcome, updated_at = p_updated_at, waiting_since = p_waiting_since
    WHERE id = p_game AND version = p_expected;
    IF NOT FOUND THEN
        RETURN false;
    END IF;

    INSERT INTO game_events (game_id, seq, actor, seat, kind, action, visible_to, redacted,
                             description, redacted_description, created_at, request_id)
    SELECT e.game_id, e.seq, e.actor, e.seat, e.kind, e.action, e.visible_to, e.redacted,
           e.description, e.redacted_description, e.created_at, e.request_id
    FROM jsonb_populate_recordset(NULL::game_events, p_entries::jsonb) AS e;

    INSERT INTO outbox (game_id, user_id, kind, payload, to_address, message_id)
    SELECT m.game_id, m.user_id, m.kind, m.payload, m.to_address, m.message_id
    FROM jsonb_populate_recordset(NULL::outbox, p_mail::jsonb) AS m;

    IF p_hooks IS NOT NULL AND p_hooks <> '[]' THEN
        PERFORM turnpost_queue_webhooks(p_hooks);
    END IF;

    IF p_channel IS NOT NULL THEN
        PERFORM pg_notify(p_channel, p_payload);
    END IF;
    RETURN true;
END;
$$;
