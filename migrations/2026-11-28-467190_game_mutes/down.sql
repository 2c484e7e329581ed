DROP TABLE game_mutes;
