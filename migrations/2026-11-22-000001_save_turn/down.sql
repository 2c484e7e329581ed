DROP FUNCTION turnpost_save_turn(uuid, text, text, bigint, jsonb, integer[], jsonb, timestamptz, timestamptz, text, text, text);
