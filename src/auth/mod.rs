//! Authentication: argon2id password hashes, HS256 JWTs, and the signed reply addresses of
//! turn mail.

pub mod jwt;
pub mod password;
pub mod reply;

pub use jwt::{Claims, Jwt, Session};
