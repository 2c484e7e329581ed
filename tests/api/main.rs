//! Integration tests over real HTTP against real PostgreSQL; one binary (see helpers.rs).

mod accounts;
mod bad_input;
mod browser;
mod clocks;
mod cluster;
mod games;
mod garden_gnomes;
mod gnomes_and_wizards;
mod hardening;
mod helpers;
mod limits;
mod mail;
mod mailbox;
mod monsters_and_magic;
mod notify;
mod openapi;
mod play;
mod play_by_mail;
mod pool;
mod secrets;
mod shutdown;
mod smtp;
mod talk;
mod web;
mod wiz_war;
