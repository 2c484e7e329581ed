DROP TABLE inbound_mail;
DROP TABLE mail_shown;
