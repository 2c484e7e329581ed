-- Table talk (issue 16): messages in a game, to the whole table or privately to one seat.
-- A private message names its recipient's account as well as the seat: it stays theirs
-- (and invisible to whoever takes the seat over later).
CREATE TABLE messages (
    game_id    uuid NOT NULL REFERENCES games (id),
    id         bigint GENERATED ALWAYS AS IDENTITY,
    from_seat  integer NOT NULL,
    from_user  uuid NOT NULL REFERENCES users (id),
    -- NULL: to the whole table.
    to_seat    integer,
    to_user    uuid REFERENCES users (id),
    body       text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 2000),
    created_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, id),
    CHECK ((to_seat IS NULL) = (to_user IS NULL))
);
-- The rate limit counts a sender's recent messages in a game.
CREATE INDEX messages_sender_idx ON messages (game_id, from_user, created_at);
