//! A real browser for the web pages' tests: Debian's Chromium driven over W3C WebDriver by
//! Debian's chromedriver (both installed by `.ci/run` when missing). A small client of the
//! protocol's JSON over HTTP: sessions, navigation, CSS lookups, clicks, keys, scripts,
//! accessible names and roles, screenshots.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
/// WebDriver's code points for the Tab and Enter keys.
pub const TAB: &str = "\u{E004}";
pub const ENTER: &str = "\u{E007}";

/// A chromedriver process on a loopback port; killed when dropped.
pub struct Driver {
    child: Child,
    url: String,
    client: reqwest::Client,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

fn chromedriver() -> String {
    for path in ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"] {
        if std::path::Path::new(path).exists() {
            return path.to_owned();
        }
    }
    panic!(
        "chromedriver is not installed: the web pages are tested in a real browser. Install \
         Debian's chromium and chromium-driver (`apt-get install chromium chromium-driver`; \
         .ci/run does this)"
    );
}

impl Driver {
    pub async fn start() -> Driver {
        let port = free_port();
        let child = Command::new(chromedriver())
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let driver = Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
            client: reqwest::Client::new(),
        };
        // Up to 30 s: a loaded machine starts it slowly.
        for _ in 0..300 {
            if let Ok(r) = driver
                .client
                .get(format!("{}/status", driver.url))
                .send()
                .await
                && let Ok(v) = r.json::<Value>().await
                && v["value"]["ready"] == json!(true)
            {
                return driver;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("chromedriver did not become ready");
    }

    /// A new browser with its own profile (its own cookies).
    pub async fn browser(&self) -> Browser {
        let profile = tempfile::tempdir().expect("profile dir");
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                    "--window-size=1400,1100",
                    format!("--user-data-dir={}", profile.path().display()),
                ]
            }
        }}});
        let r: Value = self
            .client
            .post(format!("{}/session", self.url))
            .json(&caps)
            .send()
            .await
            .expect("new session")
            .json()
            .await
            .expect("session reply");
        let id = r["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {r}"))
            .to_owned();
        Browser {
            session: format!("{}/session/{id}", self.url),
            client: self.client.clone(),
            _profile: profile,
        }
    }
}

/// One browser window.
pub struct Browser {
    session: String,
    client: reqwest::Client,
    _profile: tempfile::TempDir,
}

impl Browser {
    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self
            .client
            .request(method, format!("{}{path}", self.session));
        if let Some(b) = body {
            req = req.json(&b);
        }
        let r: Value = req
            .send()
            .await
            .expect("webdriver call")
            .json()
            .await
            .expect("webdriver reply");
        r["value"].clone()
    }

    fn ok(v: Value, what: &str) -> Value {
        if v.get("error").is_some() {
            panic!("webdriver {what}: {v}");
        }
        v
    }

    pub async fn goto(&self, url: &str) {
        let v = self
            .call(reqwest::Method::POST, "/url", Some(json!({ "url": url })))
            .await;
        Self::ok(v, "navigate");
    }

    pub async fn url(&self) -> String {
        let v = self.call(reqwest::Method::GET, "/url", None).await;
        v.as_str().unwrap_or_default().to_owned()
    }

    /// The elements matching a CSS selector.
    pub async fn find_all(&self, css: &str) -> Vec<String> {
        let v = self
            .call(
                reqwest::Method::POST,
                "/elements",
                Some(json!({"using": "css selector", "value": css})),
            )
            .await;
        Self::ok(v, "find")
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|e| e[ELEMENT].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }

    pub async fn find(&self, css: &str) -> Option<String> {
        self.find_all(css).await.into_iter().next()
    }

    /// Waits (bounded, 15 s) for an element.
    pub async fn wait_for(&self, css: &str) -> String {
        for _ in 0..300 {
            if let Some(e) = self.find(css).await {
                return e;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "no {css} on {} after 15 s: {}",
            self.url().await,
            self.text_of_page().await
        );
    }

    pub async fn click(&self, element: &str) {
        let v = self
            .call(
                reqwest::Method::POST,
                &format!("/element/{element}/click"),
                Some(json!({})),
            )
            .await;
        Self::ok(v, "click");
    }

    /// Types into an input.
    pub async fn type_into(&self, element: &str, text: &str) {
        let v = self
            .call(
                reqwest::Method::POST,
                &format!("/element/{element}/value"),
                Some(json!({ "text": text })),
            )
            .await;
        Self::ok(v, "type");
    }

    /// Runs a script in the page and returns its result.
    pub async fn script(&self, source: &str) -> Value {
        let v = self
            .call(
                reqwest::Method::POST,
                "/execute/sync",
                Some(json!({"script": source, "args": []})),
            )
            .await;
        Self::ok(v, "script")
    }

    /// Presses and releases each key in turn, as the keyboard would (WebDriver's actions;
    /// special keys are the protocol's code points, see [`TAB`] and [`ENTER`]).
    pub async fn press(&self, keys: &[&str]) {
        let actions: Vec<Value> = keys
            .iter()
            .flat_map(|k| {
                [
                    json!({"type": "keyDown", "value": k}),
                    json!({"type": "keyUp", "value": k}),
                ]
            })
            .collect();
        let v = self
            .call(
                reqwest::Method::POST,
                "/actions",
                Some(json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})),
            )
            .await;
        Self::ok(v, "keys");
    }

    /// The element's accessible name, as the browser's accessibility tree computes it.
    pub async fn accessible_name(&self, element: &str) -> String {
        self.element_get(element, "computedlabel").await
    }

    /// The element's role in the browser's accessibility tree.
    pub async fn accessible_role(&self, element: &str) -> String {
        self.element_get(element, "computedrole").await
    }

    /// The start of the element's HTML (for failure messages).
    pub async fn outer_html(&self, element: &str) -> String {
        let html = self.element_get(element, "property/outerHTML").await;
        html.chars().take(160).collect()
    }

    async fn element_get(&self, element: &str, what: &str) -> String {
        let v = self
            .call(
                reqwest::Method::GET,
                &format!("/element/{element}/{what}"),
                None,
            )
            .await;
        Self::ok(v, what).as_str().unwrap_or_default().to_owned()
    }

    pub async fn text_of_page(&self) -> String {
        self.script("return document.body ? document.body.innerText : ''")
            .await
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// A PNG of the window.
    pub async fn screenshot(&self) -> Vec<u8> {
        let v = self.call(reqwest::Method::GET, "/screenshot", None).await;
        data_encoding::BASE64
            .decode(v.as_str().unwrap_or_default().as_bytes())
            .expect("a base64 screenshot")
    }

    pub async fn close(self) {
        let _ = self.client.delete(self.session.clone()).send().await;
    }
}
