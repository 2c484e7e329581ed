-- A turn's writes check the version they were computed from, so a submission needs no
-- transaction of its own: it reads the game (no lock), applies the actions, and calls this
-- function, one statement and so one atomic transaction. If another turn of the game was
-- committed in between, the row's version is no longer `p_expected`: nothing is written and
-- the function returns false (the service answers 409, or tries again when the client did
-- not name a version). Under READ COMMITTED a concurrent call waits for the first one's row
-- lock and then sees the new version, so two turns can never both be written.
--
-- A submission was BEGIN, SELECT … FOR UPDATE, this call, COMMIT: four round trips and a
-- row lock written to the WAL. It is now one read and this call.
DROP FUNCTION turnpost_save_turn(uuid, text, text, bigint, jsonb, integer[], jsonb, timestamptz, timestamptz, text, text, text);

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
    p_payload       text
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

    PERFORM pg_notify(p_channel, p_payload);
    RETURN true;
END;
$$;
