//! The real `liftdesk serve` binary as a child process: started on an
//! ephemeral port (its address read from its first stdout line), killed with
//! SIGKILL when a test wants a crash, killed anyway on drop.

use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Stdio};

use serde_json::Value;

pub struct Served {
    child: Child,
    pub base_url: String,
    log: PathBuf,
    /// Kept open: the server's stdout must stay writable.
    _stdout: BufReader<ChildStdout>,
}

impl Served {
    /// `liftdesk --data-dir DIR serve --bind 127.0.0.1:0 ARGS…`, its log
    /// (stderr) written to `log`.
    pub fn start(data_dir: &Path, log: PathBuf, args: &[&str]) -> Served {
        let log_file = std::fs::File::create(&log).expect("log file");
        let mut child = crate::common::cli_command(data_dir)
            .args(["serve", "--bind", "127.0.0.1:0"])
            .args(args)
            .env_remove("LIFTDESK_DATA_DIR")
            .env_remove("LIFTDESK_RATE_LIMIT")
            .env("LIFTDESK_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log_file))
            .spawn()
            .expect("start liftdesk serve");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut first_line = String::new();
        stdout.read_line(&mut first_line).expect("first line");
        let base_url = first_line.trim().to_owned();
        assert!(
            base_url.starts_with("http://127.0.0.1:") || base_url.starts_with("https://127.0.0.1:"),
            "the server did not announce its address ({base_url:?}); its log:\n{}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        Served {
            child,
            base_url,
            log,
            _stdout: stdout,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    /// SIGKILL, as `kill -9`: no shutdown code runs.
    pub fn kill_9(mut self) {
        self.child.kill().expect("kill -9");
        let status = self.child.wait().expect("wait");
        assert_eq!(status.signal(), Some(9), "killed by SIGKILL: {status:?}");
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// `liftdesk --data-dir DIR serve ARGS…` that must refuse to start: what
/// it said on stderr (nothing announced on stdout).
pub fn refused(data_dir: &Path, args: &[&str]) -> String {
    let out = crate::common::cli_command(data_dir)
        .arg("serve")
        .args(args)
        .output()
        .expect("serve");
    assert!(!out.status.success(), "serve {args:?} started");
    assert!(out.stdout.is_empty(), "serve {args:?} announced an address");
    crate::common::stderr_of(&out)
}

/// `DIR/demo-credentials.json`, written by `serve --demo` on an empty directory.
pub fn demo_credentials(data_dir: &Path) -> Value {
    serde_json::from_slice(
        &std::fs::read(data_dir.join("demo-credentials.json")).expect("demo credentials"),
    )
    .expect("demo credentials json")
}
