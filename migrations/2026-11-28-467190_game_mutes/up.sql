-- A player's games whose mail they muted (MUTE by mail, issue 35): no game mail from it but
-- the answers to their own mail, until UNMUTE. Per account, not per seat: whoever takes the
-- seat over later gets the game's mail.
CREATE TABLE game_mutes (
    game_id    uuid NOT NULL REFERENCES games (id),
    user_id    uuid NOT NULL REFERENCES users (id),
    muted_at   timestamptz NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
