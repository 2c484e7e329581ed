DROP INDEX IF EXISTS games_bot_turns;
