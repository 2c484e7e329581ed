-- Registrations waiting for their address to be confirmed (issue 43): registering answers the
-- same whether or not the address has an account, and the mail says the rest. Nothing is in
-- `users` until the link mailed to the address is used. Only the SHA-256 of the link's token
-- is kept; a row is good until `expires_at`.
CREATE TABLE pending_registrations (
    id uuid PRIMARY KEY,
    email text NOT NULL,
    display_name text NOT NULL,
    password_hash text NOT NULL,
    token_sha256 bytea NOT NULL UNIQUE,
    next_path text NOT NULL DEFAULT '/',
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);
CREATE INDEX pending_registrations_expires_idx ON pending_registrations (expires_at);
-- The per-address cap on registration mail counts these.
CREATE INDEX outbox_registration_idx ON outbox (lower(to_address), created_at)
    WHERE kind IN ('confirm_registration', 'account_exists');
