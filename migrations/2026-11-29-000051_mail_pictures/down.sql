ALTER TABLE users DROP COLUMN mail_pictures;
