ALTER TABLE outbox DROP CONSTRAINT outbox_status_check;
UPDATE outbox SET status = 'sent' WHERE status = 'skipped';
ALTER TABLE outbox ADD CONSTRAINT outbox_status_check CHECK (status IN ('pending', 'sent', 'failed'));
ALTER TABLE outbox DROP COLUMN message_id, DROP COLUMN to_address;
DELETE FROM outbox WHERE user_id IS NULL;
ALTER TABLE outbox ALTER COLUMN user_id SET NOT NULL;
DROP TABLE invitations;
ALTER TABLE users DROP COLUMN mail_preference, DROP COLUMN email_verified_at;
