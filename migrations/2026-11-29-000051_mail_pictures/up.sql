-- Whether a player's game mail carries the board as an inline picture. Off by default: in
-- words only a turn mail is 12-16 KB on average, with the picture 23-39 KB (issue 14 wants a
-- typical mail well under 20 KB); a player turns it on in the settings.
ALTER TABLE users ADD COLUMN mail_pictures boolean NOT NULL DEFAULT false;
