-- Logout and revocation of sessions (issue 20): every session token (API bearer token, web
-- session cookie) carries the account's token version when it was issued, and is good only
-- while the account still has that version. Logging out and changing the password raise it,
-- which revokes every session of the account at once. Tokens issued before this column
-- existed carry no version and count as version 0.
ALTER TABLE users ADD COLUMN token_version integer NOT NULL DEFAULT 0;
