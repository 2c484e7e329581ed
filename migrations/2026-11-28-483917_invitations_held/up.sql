-- Invitations a person can accept (issue 35): an invitation holds its seat until it expires
-- or is declined, so it needs both times. Earlier invitations expire as their links did
-- (the default link lifetime, 7 days).
ALTER TABLE invitations
    ADD COLUMN expires_at timestamptz,
    ADD COLUMN declined_at timestamptz;
UPDATE invitations SET expires_at = created_at + interval '7 days';
ALTER TABLE invitations ALTER COLUMN expires_at SET NOT NULL;
