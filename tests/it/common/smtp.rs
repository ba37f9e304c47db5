//! A real local SMTP receiver for the e-mail tests: `tests/smtp/sink.py`
//! (aiosmtpd, installed by `scripts/setup.sh` in the shared Python venv),
//! started on a free loopback port; each message it accepts is read back as
//! Python's e-mail parser saw it (`<n>.json`). It stops when dropped (its
//! standard input closes).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tempfile::TempDir;

pub struct SmtpSink {
    child: Child,
    dir: TempDir,
    pub port: u16,
}

fn python() -> PathBuf {
    let venv = std::env::var_os("LIFTDESK_PY_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache/liftdesk/venv")
        });
    venv.join("bin/python")
}

impl SmtpSink {
    /// A receiver with the sink's options (`--user`, `--password`,
    /// `--fail-first N`, `--reject`).
    pub fn start(options: &[&str]) -> SmtpSink {
        let dir = tempfile::tempdir().expect("temp dir");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/smtp/sink.py");
        let python = python();
        assert!(
            python.exists(),
            "{} absent : lancez scripts/setup.sh (aiosmtpd)",
            python.display()
        );
        let mut child = Command::new(python)
            .arg(script)
            .arg("--out")
            .arg(dir.path())
            .args(options)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("sink.py");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("port line");
        let port = line
            .trim()
            .strip_prefix("PORT ")
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("sink.py n'a pas donné son port : « {line} »"));
        SmtpSink { child, dir, port }
    }

    /// The messages received so far, in order.
    pub fn messages(&self) -> Vec<Value> {
        let mut out = Vec::new();
        for n in 1.. {
            let path = self.dir.path().join(format!("{n}.json"));
            let Ok(text) = std::fs::read_to_string(&path) else {
                break;
            };
            out.push(serde_json::from_str(&text).expect("message json"));
        }
        out
    }

    /// The raw message `n` (from 1).
    pub fn raw(&self, n: usize) -> Vec<u8> {
        std::fs::read(self.dir.path().join(format!("{n}.eml"))).expect("eml")
    }

    /// Waits until `count` messages were received (at most 20 s).
    pub async fn wait_for(&self, count: usize) -> Vec<Value> {
        let start = Instant::now();
        loop {
            let messages = self.messages();
            if messages.len() >= count {
                return messages;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "{count} message(s) attendu(s), {} reçu(s)",
                messages.len()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        // Closing its standard input stops it; kill it should it linger.
        drop(self.child.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
