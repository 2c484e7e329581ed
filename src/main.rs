//! `turnpost`: serve (default), worker, migrate, replay, account, openapi, loadgen, pace, duel,
//! bot-serve (the command line is `turnpost::cli`).

/// mimalloc: under load glibc's malloc/free took about a fifth of the server's CPU (the JSON
/// values of each request), and glibc kept argon2's ~19 MiB buffers resident per thread;
/// see docs/BENCHMARKS.md.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    turnpost::cli::main(std::env::args_os())
}
