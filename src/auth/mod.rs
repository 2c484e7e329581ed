//! Authentication: argon2id password hashes and HS256 JWTs.

pub mod jwt;
pub mod password;

pub use jwt::{Claims, Jwt};
