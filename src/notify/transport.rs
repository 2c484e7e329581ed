//! Where mail goes: an SMTP server (`TURNPOST_SMTP_URL`), `.eml` files under
//! `<data-dir>/mail/` (the default), or memory (unit tests only).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Context;
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use super::Mail;

pub enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    Files(PathBuf),
    Memory(Arc<Mutex<Vec<Message>>>),
}

impl Transport {
    /// SMTP when a URL is given (TLS, STARTTLS and credentials as the URL says), else files.
    pub fn from_settings(
        smtp_url: Option<&str>,
        data_dir: &std::path::Path,
    ) -> anyhow::Result<Transport> {
        match smtp_url {
            Some(url) => Ok(Transport::Smtp(
                AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                    .context("TURNPOST_SMTP_URL is not a valid SMTP URL")?
                    .timeout(Some(std::time::Duration::from_secs(30)))
                    .build(),
            )),
            None => {
                let dir = data_dir.join("mail");
                private_dir(&dir).with_context(|| format!("creating {}", dir.display()))?;
                Ok(Transport::Files(dir))
            }
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Transport::Smtp(_) => "smtp".into(),
            Transport::Files(dir) => format!("files in {}", dir.display()),
            Transport::Memory(_) => "memory".into(),
        }
    }

    pub async fn send(&self, message: Message, message_id: &str) -> anyhow::Result<()> {
        match self {
            Transport::Smtp(smtp) => {
                smtp.send(message).await?;
            }
            Transport::Files(dir) => {
                // Named by Message-ID: a repeated delivery rewrites the same file.
                let name: String = message_id
                    .chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                            c
                        } else {
                            '_'
                        }
                    })
                    .collect();
                let path = dir.join(format!("{name}.eml"));
                let tmp = dir.join(format!(".{name}.tmp"));
                write_private(&tmp, &message.formatted()).await?;
                tokio::fs::rename(&tmp, &path).await?;
            }
            Transport::Memory(sent) => {
                sent.lock()
                    .map_err(|_| anyhow::anyhow!("memory mailbox poisoned"))?
                    .push(message);
            }
        }
        Ok(())
    }
}

/// Creates `dir` (and its parents) if needed, and makes it its owner's alone (0700): the mail
/// in it carries sign-in, verification and invitation links.
fn private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    // A directory made by an older version, or by hand, is closed too.
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
}

/// Writes a new file that only its owner may read (0600), whatever the umask.
async fn write_private(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use tokio::io::AsyncWriteExt;
    let mut file = tokio::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .await?;
    // A leftover of an interrupted write keeps the mode it was made with: set it.
    file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600))
        .await?;
    file.write_all(contents).await?;
    file.flush().await
}

/// `List-Unsubscribe: <url>` (RFC 2369).
#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }
    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.trim_matches(['<', '>']).to_owned()))
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), format!("<{}>", self.0))
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
#[derive(Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }
    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".into())
    }
}

/// `Auto-Submitted: auto-generated` (RFC 3834): no vacation responder should answer it.
#[derive(Clone)]
struct AutoSubmitted;

impl Header for AutoSubmitted {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Auto-Submitted")
    }
    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(AutoSubmitted)
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "auto-generated".into())
    }
}

/// The message for an outbox row: multipart text + HTML, its stable Message-ID, threaded on
/// the game's root id, with one-click unsubscribe headers for game mail.
pub fn build(mail: &Mail, from: &str, message_id: &str) -> anyhow::Result<Message> {
    let from: Mailbox = from
        .parse()
        .context("TURNPOST_MAIL_FROM is not a mailbox")?;
    let to: Mailbox = mail.to.parse().context("recipient is not a mailbox")?;
    let mut builder = Message::builder()
        .from(from)
        .to(to)
        .subject(mail.subject.clone())
        .message_id(Some(message_id.to_owned()))
        .header(AutoSubmitted);
    if let Some(reply_to) = &mail.reply_to {
        let reply_to: Mailbox = reply_to
            .parse()
            .context("the reply address is not a mailbox")?;
        builder = builder.reply_to(reply_to);
    }
    if let Some(thread) = &mail.thread {
        builder = builder
            .in_reply_to(thread.clone())
            .references(thread.clone());
    }
    if let Some(url) = &mail.unsubscribe {
        builder = builder
            .header(ListUnsubscribe(url.clone()))
            .header(ListUnsubscribePost);
    }
    let text = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(mail.text.clone());
    let html = SinglePart::builder()
        .header(ContentType::TEXT_HTML)
        .body(mail.html.clone());
    let body = MultiPart::alternative().singlepart(text);
    let body = match &mail.picture {
        // multipart/alternative(text, multipart/related(html, the board's PNG)).
        Some(png) => body.multipart(
            MultiPart::related().singlepart(html).singlepart(
                Attachment::new_inline(BOARD_CID.to_owned())
                    .body(png.clone(), ContentType::parse("image/png")?),
            ),
        ),
        None => body.singlepart(html),
    };
    Ok(builder.multipart(body)?)
}

/// The Content-ID of the board's PNG: the HTML part shows it as `<img src="cid:board">`.
pub const BOARD_CID: &str = "board";

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    /// Issue 20: "verification, invitation and unsubscribe tokens are written in clear … to
    /// world-readable `.eml` files": the files are 0600 in a 0700 directory.
    #[tokio::test]
    async fn mail_files_are_their_owner_s_alone() {
        let data = tempfile::tempdir().unwrap();
        // A mail directory left open by an older version is closed at start.
        let dir = data.path().join("mail");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let transport = Transport::from_settings(None, data.path()).unwrap();
        assert_eq!(mode(&dir), 0o700);
        // Even with a umask that would let everybody read.
        // SAFETY: umask(2) only changes this process's file creation mask.
        let old = unsafe { libc::umask(0) };
        let mail = Mail {
            to: "ann@example.test".into(),
            subject: "Confirm your address".into(),
            text: "https://turnpost.test/verify?token=SECRET".into(),
            html: "<p>SECRET</p>".into(),
            thread: None,
            unsubscribe: None,
            reply_to: None,
            picture: None,
        };
        let message = build(
            &mail,
            "Turnpost <turnpost@example.test>",
            "<m1@example.test>",
        )
        .unwrap();
        let sent = transport.send(message, "<m1@example.test>").await;
        // SAFETY: as above, restoring the mask.
        unsafe { libc::umask(old) };
        sent.unwrap();
        let files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        assert_eq!(mode(&files[0]), 0o600, "{}", files[0].display());
        assert!(
            std::fs::read_to_string(&files[0])
                .unwrap()
                .contains("SECRET")
        );

        // A fresh data directory: the mail directory is made 0700.
        let fresh = tempfile::tempdir().unwrap();
        Transport::from_settings(None, &fresh.path().join("deep")).unwrap();
        assert_eq!(mode(&fresh.path().join("deep/mail")), 0o700);
    }
}
