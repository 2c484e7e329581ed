DROP INDEX IF EXISTS outbox_registration_idx;
DROP TABLE IF EXISTS pending_registrations;
