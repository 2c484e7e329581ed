-- Personal API tokens for bots and tools (issue 19): created, listed and revoked by their
-- owner, each with scopes. Only the SHA-256 of the token's secret is kept (the secret is 256
-- random bits, so a fast hash is enough: nothing to guess from it); the token is shown once,
-- when it is made. A revoked token keeps its row, so its owner still sees when it was used.
CREATE TABLE api_tokens (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name text NOT NULL,
    scopes text[] NOT NULL,
    secret_sha256 bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at timestamptz
);
CREATE INDEX api_tokens_by_user ON api_tokens (user_id, created_at);
