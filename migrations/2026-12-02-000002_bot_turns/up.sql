-- Games waiting for a seat the bot plays (issue 38): the bot worker finds them here.
CREATE INDEX games_bot_turns ON games (updated_at)
    WHERE status = 'active' AND to_act && robots;
