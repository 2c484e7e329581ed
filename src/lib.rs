//! Turnpost: a play-by-email turn service for asynchronous board games.
//!
//! Layers (dependencies point downwards only; a module uses only the floors below it), top first:
//! `cli` (the command line; `main.rs` only calls it) → `app` (builds the server) → `http` (the
//! JSON API; it also answers a path no route takes, pages' too, and streams through `web::live`) →
//! `web` (the pages, their live updates, who is asking) → `service` (the use cases) → `notify`
//! (mail, webhook delivery) and `loadgen` → `config` and `bots` → `rules`, `store`, `auth`,
//! `clock`, `pg`, `fdlimit`. `rules` is the pure engine and knows nothing above it. `pg` runs the
//! private PostgreSQL cluster (process management, not storage). See `../shared/DESIGN.md` and the
//! map in `docs/LAYOUT.md`.

pub mod app;
pub mod auth;
pub mod bots;
pub mod cli;
pub mod clock;
pub mod config;
pub mod fdlimit;
pub mod http;
#[cfg(test)]
mod layout_tests;
pub mod loadgen;
pub mod notify;
pub mod pg;
pub mod rules;
pub mod service;
pub mod store;
pub mod web;

// The API tests (real HTTP, real PostgreSQL, real mail) are compiled into the library's own
// test binary rather than into an integration-test binary of their own: that one would build
// the whole crate a second time (as the library they link), which was a third of CI's time.
// They name the crate `turnpost::…` as a client would; the alias makes that path resolve here.
#[cfg(test)]
extern crate self as turnpost;
#[cfg(test)]
#[path = "../tests/api/mod.rs"]
mod system_tests;
