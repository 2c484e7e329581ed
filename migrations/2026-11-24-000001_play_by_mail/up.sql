-- Play by mail: game mail composed by the worker when it is sent (the submission only queues
-- a small row), the version each recipient was last shown, and the inbound mail acted on.

-- The last version of a game each player was shown by mail: "since your last mail" starts
-- after it, and a turn mail for a version already shown is not sent twice.
CREATE TABLE mail_shown (
    game_id    uuid NOT NULL REFERENCES games (id),
    user_id    uuid NOT NULL REFERENCES users (id),
    version    bigint NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, user_id)
);

-- Every inbound message, by Message-ID: a message is acted on once, however often a relay
-- delivers it. Only the verdict is kept, never the message.
CREATE TABLE inbound_mail (
    message_id  text PRIMARY KEY,
    received_at timestamptz NOT NULL DEFAULT now(),
    verdict     text NOT NULL,
    game_id     uuid,
    user_id     uuid
);
