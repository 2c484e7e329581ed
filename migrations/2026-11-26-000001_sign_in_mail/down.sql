DROP INDEX outbox_sign_in_idx;
