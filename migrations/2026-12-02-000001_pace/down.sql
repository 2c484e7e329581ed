-- The save function as before, then the column.
CREATE OR REPLACE FUNCTION turnpost_save_turn(
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


ALTER TABLE game_events DROP COLUMN notation;
ALTER TABLE seats DROP COLUMN standing_orders;
