DROP TABLE idempotency_keys;
DROP TABLE outbox;
DROP TRIGGER game_events_no_update ON game_events;
DROP TABLE game_events;
DROP FUNCTION game_events_append_only();
DROP TABLE seats;
DROP TABLE games;
DROP TABLE users;
