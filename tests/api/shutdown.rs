//! `turnpost serve` stops by itself on SIGTERM (what `docker stop`, systemd and the load
//! generator send): the mail worker first, then the HTTP server, then the process exits 0.

use std::process::Stdio;

use crate::system_tests::helpers::ServeProcess;

#[tokio::test]
async fn serve_stops_cleanly_on_sigterm() {
    let server = ServeProcess::start(&[], Stdio::inherit(), Stdio::inherit()).await;
    match server.terminate().await {
        Some(status) => assert!(status.success(), "exit status {status}"),
        None => panic!("turnpost serve was still running 30 s after SIGTERM"),
    }
}
