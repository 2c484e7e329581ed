//! Turnpost: a play-by-email turn service for asynchronous board games.
//!
//! Layers (dependencies point downwards only): `http` and `web` → `service` → `store` / `rules`;
//! `rules` is the pure engine and knows nothing above it. `pg` runs the private PostgreSQL
//! cluster (process management, not storage). See `../shared/DESIGN.md`.

pub mod app;
pub mod auth;
pub mod bots;
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
