//! The built-in SMTP listener for inbound mail (`TURNPOST_INBOUND_SMTP_ADDR`): the receiving
//! end of RFC 5321 that an MX or a relay forwards replies to. It takes mail only for the reply
//! address's domain (it relays nothing), refuses messages over the size limit, and answers
//! `250` only after the message has been handled (recorded, and acted on or refused), so a
//! relay keeps and retries anything that was not: `451` on a failure such as a database
//! outage. What a message says is never logged.

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};

/// One received message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Envelope {
    /// The reverse path (`MAIL FROM`): empty for the null sender of bounces.
    pub from: String,
    /// The forward paths (`RCPT TO`).
    pub to: Vec<String>,
    /// The message as received (RFC 5322), dot-unstuffed.
    pub data: Vec<u8>,
    /// The client's address.
    pub peer: Option<std::net::IpAddr>,
}

/// What the listener hands each message to.
pub type Handler = Arc<dyn Fn(Envelope) -> BoxFuture<'static, anyhow::Result<()>> + Send + Sync>;

#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest message accepted, in bytes.
    pub max_bytes: usize,
    /// The domain mail is accepted for (the reply address's).
    pub domain: String,
    /// How long the listener waits for a client's next line.
    pub idle: Duration,
    /// Connections served at once (more are told to come back later).
    pub connections: usize,
}

const MAX_LINE: usize = 4096;
const MAX_RECIPIENTS: usize = 50;

/// Serves SMTP on `listener` until `stop` turns true.
pub async fn serve(
    listener: TcpListener,
    handler: Handler,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
) {
    let slots = Arc::new(Semaphore::new(limits.connections.max(1)));
    let limits = Arc::new(limits);
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = stop.changed() => break,
        };
        let Ok((stream, peer)) = accepted else {
            continue;
        };
        let handler = handler.clone();
        let limits = limits.clone();
        match slots.clone().try_acquire_owned() {
            Ok(permit) => {
                tokio::spawn(async move {
                    let _ = session(stream, peer.ip(), &handler, &limits).await;
                    drop(permit);
                });
            }
            Err(_) => {
                tokio::spawn(async move {
                    let mut stream = stream;
                    let _ = stream
                        .write_all(b"421 4.3.2 too busy, try again later\r\n")
                        .await;
                });
            }
        }
        if *stop.borrow() {
            break;
        }
    }
}

#[derive(Default)]
struct Transaction {
    from: Option<String>,
    to: Vec<String>,
}

/// The address inside `<…>` of a `MAIL FROM:` / `RCPT TO:` argument.
fn path(argument: &str) -> Option<String> {
    let argument = argument.trim();
    let open = argument.find('<')?;
    let close = argument[open..].find('>')? + open;
    Some(argument[open + 1..close].trim().to_owned())
}

/// The `SIZE=` parameter of `MAIL FROM`, if given.
fn declared_size(argument: &str) -> Option<usize> {
    argument.split_whitespace().find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.eq_ignore_ascii_case("SIZE").then(|| v.parse().ok())?
    })
}

fn domain_of(address: &str) -> &str {
    address.rsplit_once('@').map(|(_, d)| d).unwrap_or("")
}

async fn session(
    stream: TcpStream,
    peer: std::net::IpAddr,
    handler: &Handler,
    limits: &Limits,
) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    write.write_all(b"220 turnpost ESMTP ready\r\n").await?;
    let mut tx = Transaction::default();
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = match tokio::time::timeout(limits.idle, read_line(&mut reader, &mut line)).await {
            Ok(r) => r?,
            Err(_) => {
                write.write_all(b"421 4.4.2 idle too long\r\n").await?;
                return Ok(());
            }
        };
        if n == 0 {
            return Ok(());
        }
        if line.len() > MAX_LINE {
            write.write_all(b"500 5.5.2 line too long\r\n").await?;
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        let (verb, argument) = match text.split_once([' ', ':']) {
            Some((v, a)) => (v.to_ascii_uppercase(), a),
            None => (text.to_ascii_uppercase(), ""),
        };
        let reply: &[u8] = match verb.as_str() {
            "EHLO" => {
                let greeting = format!(
                    "250-turnpost\r\n250-SIZE {}\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n",
                    limits.max_bytes
                );
                tx = Transaction::default();
                write.write_all(greeting.as_bytes()).await?;
                continue;
            }
            "HELO" => {
                tx = Transaction::default();
                b"250 turnpost\r\n"
            }
            "MAIL" => {
                let argument = argument.trim_start_matches([':', ' ']);
                let argument = strip_prefix_ci(argument, "FROM:").unwrap_or(argument);
                match path(argument) {
                    _ if tx.from.is_some() => b"503 5.5.1 sender already given\r\n",
                    Some(_) if declared_size(argument).is_some_and(|s| s > limits.max_bytes) => {
                        b"552 5.3.4 message too big\r\n"
                    }
                    Some(from) => {
                        tx.from = Some(from);
                        b"250 2.1.0 OK\r\n"
                    }
                    None => b"501 5.5.4 syntax: MAIL FROM:<address>\r\n",
                }
            }
            "RCPT" => {
                let argument = argument.trim_start_matches([':', ' ']);
                let argument = strip_prefix_ci(argument, "TO:").unwrap_or(argument);
                match path(argument) {
                    _ if tx.from.is_none() => b"503 5.5.1 MAIL first\r\n",
                    _ if tx.to.len() >= MAX_RECIPIENTS => b"452 4.5.3 too many recipients\r\n",
                    Some(to) if domain_of(&to).eq_ignore_ascii_case(&limits.domain) => {
                        tx.to.push(to);
                        b"250 2.1.5 OK\r\n"
                    }
                    Some(_) => b"550 5.7.1 relaying denied\r\n",
                    None => b"501 5.5.4 syntax: RCPT TO:<address>\r\n",
                }
            }
            "DATA" => {
                if tx.from.is_none() || tx.to.is_empty() {
                    b"503 5.5.1 RCPT first\r\n"
                } else {
                    write
                        .write_all(b"354 end data with <CR><LF>.<CR><LF>\r\n")
                        .await?;
                    let data = match read_data(&mut reader, limits).await? {
                        Data::Complete(data) => data,
                        Data::TooBig => {
                            tx = Transaction::default();
                            write.write_all(b"552 5.3.4 message too big\r\n").await?;
                            continue;
                        }
                        Data::Closed => return Ok(()),
                    };
                    let envelope = Envelope {
                        from: tx.from.take().unwrap_or_default(),
                        to: std::mem::take(&mut tx.to),
                        data,
                        peer: Some(peer),
                    };
                    tx = Transaction::default();
                    match handler(envelope).await {
                        Ok(()) => b"250 2.0.0 OK\r\n",
                        Err(e) => {
                            tracing::warn!(error = %format!("{e:#}"), "inbound mail not handled; the relay will retry");
                            b"451 4.3.0 not handled, try again later\r\n"
                        }
                    }
                }
            }
            "RSET" => {
                tx = Transaction::default();
                b"250 2.0.0 OK\r\n"
            }
            "NOOP" => b"250 2.0.0 OK\r\n",
            "VRFY" => b"252 2.5.0 cannot verify\r\n",
            "QUIT" => {
                write.write_all(b"221 2.0.0 bye\r\n").await?;
                return Ok(());
            }
            _ => b"502 5.5.2 command not implemented\r\n",
        };
        write.write_all(reply).await?;
    }
}

fn strip_prefix_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// Reads one line (up to and including `\n`), keeping at most `MAX_LINE + 1` bytes of it.
async fn read_line<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
    out: &mut Vec<u8>,
) -> std::io::Result<usize> {
    let mut total = 0;
    loop {
        let buf = reader.fill_buf().await?;
        if buf.is_empty() {
            return Ok(total);
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let n = chunk.len();
        let room = (MAX_LINE + 1).saturating_sub(out.len());
        out.extend_from_slice(&chunk[..n.min(room)]);
        reader.consume(n);
        total += n;
        if done {
            return Ok(total);
        }
    }
}

enum Data {
    Complete(Vec<u8>),
    TooBig,
    Closed,
}

/// The message after `DATA`, up to the line with a single dot, dot-unstuffed.
async fn read_data(
    reader: &mut BufReader<tokio::net::tcp::OwnedReadHalf>,
    limits: &Limits,
) -> std::io::Result<Data> {
    let mut data = Vec::new();
    let mut too_big = false;
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = match tokio::time::timeout(limits.idle, read_line(reader, &mut line)).await {
            Ok(r) => r?,
            Err(_) => return Ok(Data::Closed),
        };
        if n == 0 {
            return Ok(Data::Closed);
        }
        if line == b".\r\n" || line == b".\n" {
            return Ok(if too_big {
                Data::TooBig
            } else {
                Data::Complete(data)
            });
        }
        let content = line.strip_prefix(b".").unwrap_or(&line);
        // Keep reading to the end of an oversized message, so the refusal comes in turn.
        if n > MAX_LINE || data.len() + content.len() > limits.max_bytes {
            too_big = true;
        }
        if !too_big {
            data.extend_from_slice(content);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_sizes_are_read_from_arguments() {
        assert_eq!(path("<a@b.c>"), Some("a@b.c".into()));
        assert_eq!(path(" <> "), Some(String::new()));
        assert_eq!(path("<a@b.c> SIZE=100"), Some("a@b.c".into()));
        assert_eq!(path("a@b.c"), None);
        assert_eq!(declared_size("<a@b.c> SIZE=100 BODY=8BITMIME"), Some(100));
        assert_eq!(declared_size("<a@b.c>"), None);
        assert_eq!(strip_prefix_ci("from:<x>", "FROM:"), Some("<x>"));
    }
}
