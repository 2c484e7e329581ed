//! `turnpost bot-serve`: this build's bot behind a pipe, so that a duel of another build can
//! play against it (`turnpost duel --against exec:CMD`, `docs/BOTS.md`). One JSON line in, one
//! line out:
//!
//! ```text
//! {"ruleset": "wiz-war", "state": <the state as stored>, "seat": 0, "seed": 42}
//! {"action": <one of the seat's legal actions>}      or      {"error": "..."}
//! ```
//!
//! The state is the ruleset's serialized state, as the service stores it (`GameState::to_json`,
//! read back with `Game::load`). An optional `"continues": true` says that the seat decided
//! last too, in what the service would play as one request: the bot then never comes back to
//! a state it decided in since (its `Memory`); without it the memory starts afresh.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde::Deserialize;
use serde_json::{Value, json};

use super::duel::{Decision, Player};
use crate::bots::Memory;
use crate::rules::{Registry, Seat};

/// One request of the protocol.
#[derive(Deserialize)]
struct Request {
    ruleset: String,
    state: Value,
    seat: Seat,
    seed: u64,
    #[serde(default)]
    continues: bool,
}

/// The answering side: pure, a line in and a line out.
pub struct Server {
    registry: Registry,
    memory: Memory,
}

impl Default for Server {
    fn default() -> Self {
        Server {
            registry: Registry::standard(),
            memory: Memory::default(),
        }
    }
}

impl Server {
    /// The answer line (without its newline) to a request line. Never panics: whatever is
    /// wrong with the request is an `{"error": ...}` line.
    pub fn answer(&mut self, line: &str) -> String {
        let answer = match self.decide(line) {
            Ok(action) => json!({ "action": action }),
            Err(error) => json!({ "error": error }),
        };
        answer.to_string()
    }

    fn decide(&mut self, line: &str) -> Result<Value, String> {
        let request: Request =
            serde_json::from_str(line).map_err(|e| format!("not a request: {e}"))?;
        let game = self
            .registry
            .get(&request.ruleset)
            .ok_or_else(|| format!("no ruleset {}", request.ruleset))?;
        let state = game
            .load(&request.state)
            .map_err(|e| format!("not a state of {}: {e}", request.ruleset))?;
        if !request.continues {
            self.memory = Memory::default();
        }
        let seat = request.seat;
        let memory = &mut self.memory;
        // A state that reads but is not one the rules could reach may break them: an error
        // line, never a dead server.
        let chosen = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let state = state.as_ref();
            if state.legal_actions(seat).is_empty() {
                return None;
            }
            memory.choose(state, seat, request.seed)
        }));
        match chosen {
            Ok(Some(action)) => Ok(action),
            Ok(None) => Err(format!("seat {seat} has nothing to decide")),
            Err(_) => Err("the bot failed on this state".to_owned()),
        }
    }
}

/// Answers the requests of `input` on `output`, a line each, until `input` ends.
pub fn serve(input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut server = Server::default();
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        writeln!(output, "{}", server.answer(&line))?;
        output.flush()?;
    }
    Ok(())
}

/// The bot of another build, asked through a command that speaks this protocol (started once,
/// by `sh -c`).
pub struct Exec {
    child: Child,
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
}

impl Exec {
    /// Starts `command`.
    pub fn start(command: &str) -> std::io::Result<Exec> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let input = child.stdin.take();
        let output = child
            .stdout
            .take()
            .map(BufReader::new)
            .ok_or_else(|| std::io::Error::other("no pipe from the command"))?;
        Ok(Exec {
            child,
            input,
            output,
        })
    }

    fn ask(&mut self, request: &Value) -> Result<Value, String> {
        let input = self.input.as_mut().ok_or("the command's input is closed")?;
        writeln!(input, "{request}")
            .and_then(|()| input.flush())
            .map_err(|e| format!("writing to the command: {e}"))?;
        let mut line = String::new();
        let read = self
            .output
            .read_line(&mut line)
            .map_err(|e| format!("reading from the command: {e}"))?;
        if read == 0 {
            return Err("the command ended".to_owned());
        }
        let mut answer: Value =
            serde_json::from_str(&line).map_err(|e| format!("not an answer: {e}: {line}"))?;
        if let Some(error) = answer.get("error") {
            return Err(format!("the command answered an error: {error}"));
        }
        answer
            .get_mut("action")
            .map(Value::take)
            .ok_or_else(|| format!("an answer without an action: {line}"))
    }
}

impl Player for Exec {
    fn decide(&mut self, asked: &Decision<'_>) -> Result<Value, String> {
        self.ask(&json!({
            "ruleset": asked.ruleset,
            "state": asked.state.to_json(),
            "seat": asked.seat,
            "seed": asked.seed,
            "continues": asked.continues,
        }))
    }
}

impl Drop for Exec {
    fn drop(&mut self) {
        // Closing its input ends a bot-serve; then it is waited for.
        self.input = None;
        let _ = self.child.wait();
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;
