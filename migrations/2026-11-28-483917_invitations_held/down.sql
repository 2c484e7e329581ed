ALTER TABLE invitations DROP COLUMN declined_at, DROP COLUMN expires_at;
