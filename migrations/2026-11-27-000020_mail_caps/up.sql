-- Per-day caps on mail (issue 20): each invitation and verification mail first counts the
-- ones of the last 24 hours by the same sender or to the same address; these indexes find
-- them without scanning the tables.
CREATE INDEX invitations_inviter_idx ON invitations (invited_by, created_at);
CREATE INDEX invitations_address_idx ON invitations (lower(email), created_at);
CREATE INDEX outbox_verify_email_idx ON outbox (user_id, created_at) WHERE kind = 'verify_email';
