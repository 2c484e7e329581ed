DROP INDEX outbox_verify_email_idx;
DROP INDEX invitations_address_idx;
DROP INDEX invitations_inviter_idx;
