DROP TABLE deadlines;
ALTER TABLE seats DROP COLUMN abort_vote, DROP COLUMN bank_secs, DROP COLUMN resigned_at,
    DROP COLUMN absent_since, DROP COLUMN timeouts;
ALTER TABLE users DROP COLUMN vacation_days, DROP COLUMN vacation_year,
    DROP COLUMN vacation_until, DROP COLUMN vacation_from, DROP COLUMN is_bot;
ALTER TABLE games DROP COLUMN robots, DROP COLUMN clock;
