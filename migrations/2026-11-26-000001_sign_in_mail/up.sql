-- "Mail me a sign-in link" sends at most one mail per account a minute: the check looks up
-- the account's latest sign-in mails, which this index finds without scanning the outbox.
CREATE INDEX outbox_sign_in_idx ON outbox (user_id, created_at) WHERE kind = 'sign_in';
