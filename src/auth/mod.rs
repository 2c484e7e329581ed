//! Authentication: argon2id password hashes, HS256 JWTs, the signed reply addresses of
//! turn mail, and the signatures of webhook deliveries.

pub mod jwt;
pub mod password;
pub mod reply;
pub mod webhooks;

pub use jwt::{Claims, Jwt, Session};
