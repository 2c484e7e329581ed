-- A game's snapshot (a few KB of JSON, rewritten by every turn) is compressed with lz4 instead
-- of PostgreSQL's default pglz: under load pglz_compress was the largest single function in
-- PostgreSQL's profile. Only new values are affected; old ones still read as they are.
-- A server built without lz4 keeps pglz (the setting is an optimisation, not a requirement).
DO $$
BEGIN
    ALTER TABLE games ALTER COLUMN state SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
    RAISE NOTICE 'lz4 is not available: snapshots stay pglz-compressed';
END
$$;
