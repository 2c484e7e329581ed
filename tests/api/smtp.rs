//! A real SMTP server on loopback for the mail tests (mailin-embedded), collecting what it
//! receives. It runs on its own threads for the rest of the test process.

use std::io;
use std::net::{IpAddr, TcpListener};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mailin_embedded::{Handler, Response, Server, SslConfig, response};

/// One received message: envelope and raw RFC 5322 text.
#[derive(Clone, Debug)]
pub struct Received {
    pub to: Vec<String>,
    pub raw: String,
}

impl Received {
    fn parsed(&self) -> mail_parser::Message<'_> {
        mail_parser::MessageParser::default()
            .parse(self.raw.as_bytes())
            .expect("a parseable message")
    }

    /// A header's raw value, unfolded.
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.raw.split("\r\n\r\n").next().unwrap_or("");
        let unfolded = head.replace("\r\n ", " ").replace("\r\n\t", " ");
        unfolded.split("\r\n").find_map(|line| {
            let (k, v) = line.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_owned())
        })
    }

    pub fn subject(&self) -> String {
        self.parsed().subject().unwrap_or("").to_owned()
    }

    /// The decoded text and HTML parts together.
    pub fn body_text(&self) -> String {
        let msg = self.parsed();
        let mut out = String::new();
        for i in 0..msg.text_body_count() {
            out.push_str(&msg.body_text(i).unwrap_or_default());
        }
        for i in 0..msg.html_body_count() {
            out.push_str(&msg.body_html(i).unwrap_or_default());
        }
        out
    }

    pub fn has_text_and_html(&self) -> bool {
        let msg = self.parsed();
        msg.text_body_count() > 0 && msg.html_body_count() > 0
    }
}

#[derive(Clone)]
struct Sink {
    inbox: Arc<Mutex<Vec<Received>>>,
    current: Vec<u8>,
    to: Vec<String>,
    delay: Duration,
}

impl Handler for Sink {
    fn data_start(&mut self, _domain: &str, _from: &str, _is8bit: bool, to: &[String]) -> Response {
        self.current.clear();
        self.to = to.to_vec();
        response::OK
    }

    fn data(&mut self, buf: &[u8]) -> io::Result<()> {
        self.current.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        if !self.delay.is_zero() {
            std::thread::sleep(self.delay);
        }
        let raw = String::from_utf8_lossy(&self.current).into_owned();
        self.inbox.lock().unwrap().push(Received {
            to: self.to.clone(),
            raw,
        });
        response::OK
    }

    fn helo(&mut self, _ip: IpAddr, _domain: &str) -> Response {
        response::OK
    }
}

pub struct SmtpServer {
    pub port: u16,
    inbox: Arc<Mutex<Vec<Received>>>,
}

impl SmtpServer {
    /// Starts a server on a free loopback port.
    pub fn start() -> SmtpServer {
        Self::start_on(TcpListener::bind("127.0.0.1:0").unwrap(), Duration::ZERO)
    }

    /// A free loopback port with nothing listening on it yet (the server is "down").
    pub fn reserve_port() -> u16 {
        TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    }

    /// Starts a server on `port` (after `reserve_port`: the server "comes back").
    pub fn start_at(port: u16, delay: Duration) -> SmtpServer {
        Self::start_on(TcpListener::bind(("127.0.0.1", port)).unwrap(), delay)
    }

    fn start_on(listener: TcpListener, delay: Duration) -> SmtpServer {
        let port = listener.local_addr().unwrap().port();
        let inbox = Arc::new(Mutex::new(vec![]));
        let sink = Sink {
            inbox: inbox.clone(),
            current: vec![],
            to: vec![],
            delay,
        };
        let mut server = Server::new(sink);
        server
            .with_name("sink.test")
            .with_ssl(SslConfig::None)
            .unwrap()
            .with_num_threads(4)
            .with_tcp_listener(listener);
        std::thread::spawn(move || {
            let _ = server.serve();
        });
        SmtpServer { port, inbox }
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    pub fn received(&self) -> Vec<Received> {
        self.inbox.lock().unwrap().clone()
    }

    /// Waits (bounded) until `done` holds for the inbox.
    pub async fn wait_for(&self, what: &str, done: impl Fn(&[Received]) -> bool) -> Vec<Received> {
        for _ in 0..600 {
            let got = self.received();
            if done(&got) {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "timed out waiting for {what}; received {}",
            self.received().len()
        );
    }
}

pub fn smtp_url(port: u16) -> String {
    format!("smtp://127.0.0.1:{port}")
}
