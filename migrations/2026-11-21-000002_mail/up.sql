-- Mail: verified addresses, preferences, invitations, and outbox rows that carry their
-- rendered message.

ALTER TABLE users
    ADD COLUMN email_verified_at timestamptz,
    ADD COLUMN mail_preference text NOT NULL DEFAULT 'all'
        CHECK (mail_preference IN ('all', 'turns', 'none'));

CREATE TABLE invitations (
    id          uuid PRIMARY KEY,
    game_id     uuid NOT NULL REFERENCES games (id),
    seat        integer,
    email       text NOT NULL,
    invited_by  uuid NOT NULL REFERENCES users (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    accepted_by uuid REFERENCES users (id),
    accepted_at timestamptz
);
CREATE INDEX invitations_game_idx ON invitations (game_id);

-- Invitations go to addresses that may have no account yet.
ALTER TABLE outbox
    ALTER COLUMN user_id DROP NOT NULL,
    ADD COLUMN to_address text NOT NULL DEFAULT '',
    ADD COLUMN message_id text NOT NULL DEFAULT '';

-- 'skipped': the recipient unsubscribed (or lost their verified address) before it was sent.
ALTER TABLE outbox DROP CONSTRAINT outbox_status_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_status_check
    CHECK (status IN ('pending', 'sent', 'failed', 'skipped'));
