//! The CLI tests' server, the mock node (`near-rpc-mock`) answering scripted replies on
//! a thread of its own, and a runner for the built binary that kills it after a deadline,
//! so a test can never hang.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub use near_rpc_mock::{unused_url as refused_url, HttpReply as Reply, Recorded as Seen};
use near_rpc_mock::{BackgroundServer, MockNode};

/// Every run of the binary is killed after this long.
const DEADLINE: Duration = Duration::from_secs(60);

/// The mock node answering scripted replies in order (the last repeats), on a thread of
/// its own while the binary runs; it stops when dropped.
pub struct Server(BackgroundServer);

impl Server {
    /// Serves `replies` in order.
    pub fn start(replies: Vec<Reply>) -> Self {
        Self(MockNode::start_scripted(replies))
    }

    /// The base URL with `path` appended.
    pub fn url(&self, path: &str) -> String {
        self.0.url_with(path)
    }

    /// The requests received so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.0.requests()
    }

    /// The one request received (fails the test otherwise).
    pub fn only_request(&self) -> Seen {
        let seen = self.seen();
        assert_eq!(seen.len(), 1, "expected one request, got {seen:?}");
        seen[0].clone()
    }
}

/// The outcome of one run of the binary.
#[derive(Debug)]
pub struct Run {
    /// The exit status (-1 when killed by a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// Stdout as JSON (fails the test if it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        match serde_json::from_str(&self.stdout) {
            Ok(value) => value,
            Err(e) => panic!("stdout is not JSON ({e}): {self:?}"),
        }
    }

    /// Asserts neither output contains `secret`.
    pub fn assert_hides(&self, secret: &str) {
        assert!(
            !self.stdout.contains(secret) && !self.stderr.contains(secret),
            "`{secret}` was printed: {self:?}"
        );
    }
}

/// Runs `near-rpc` with `args` and no input.
pub fn near_rpc(args: &[&str]) -> Run {
    near_rpc_with_stdin(args, b"")
}

/// Runs `near-rpc` with `args`, feeding `stdin`; kills it if it outlives the deadline.
pub fn near_rpc_with_stdin(args: &[&str], stdin: &[u8]) -> Run {
    near_rpc_with_env(args, &[], stdin)
}

/// The environment variables the binary reads; a run sees only the ones a test sets.
const ENV_VARS: [&str; 2] = ["NEAR_RPC_URL", "NEAR_RPC_API_KEY"];

/// Runs `near-rpc` with `args` and the environment variables `env`, feeding `stdin`;
/// kills it if it outlives the deadline.
pub fn near_rpc_with_env(args: &[&str], env: &[(&str, &str)], stdin: &[u8]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_near-rpc"));
    for name in ENV_VARS {
        command.env_remove(name);
    }
    let mut child = command
        .envs(env.iter().copied())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start near-rpc");
    let input = stdin.to_vec();
    let mut child_stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = child_stdin.write_all(&input);
    });
    // Each output is read to its end on a thread of its own, which the binary's exit
    // brings; the run waits for those two events, up to the deadline, then for the exit
    // itself (no polling, no sleep).
    let (sender, outputs) = std::sync::mpsc::channel();
    let pipes: [(usize, Box<dyn Read + Send>); 2] = [
        (0, Box::new(child.stdout.take().expect("stdout"))),
        (1, Box::new(child.stderr.take().expect("stderr"))),
    ];
    for (which, mut pipe) in pipes {
        let sender = sender.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            let _ = sender.send((which, text));
        });
    }
    let deadline = Instant::now() + DEADLINE;
    let mut texts = [String::new(), String::new()];
    for _ in 0..texts.len() {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok((which, text)) = outputs.recv_timeout(left) else {
            let _ = child.kill();
            panic!("near-rpc {args:?} did not finish within {DEADLINE:?}");
        };
        texts[which] = text;
    }
    let status = child.wait().expect("wait for near-rpc");
    let _ = writer.join();
    let [stdout, stderr] = texts;
    Run {
        code: status.code().unwrap_or(-1),
        stdout,
        stderr,
    }
}

/// A `near-rpc` running in the background, its output collected as it comes; killed if
/// still running when dropped.
pub struct Running {
    child: std::process::Child,
    /// Each output, whole, once the process has closed it.
    stdout: std::sync::mpsc::Receiver<String>,
    stderr: std::sync::mpsc::Receiver<String>,
}

impl Running {
    /// Starts `near-rpc args` with no input.
    pub fn start(args: &[&str]) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_near-rpc"));
        for name in ENV_VARS {
            command.env_remove(name);
        }
        let mut child = command
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start near-rpc");
        let read = |mut from: Box<dyn Read + Send>| {
            let (sender, receiver) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let mut text = String::new();
                let _ = from.read_to_string(&mut text);
                let _ = sender.send(text);
            });
            receiver
        };
        let stdout = read(Box::new(child.stdout.take().expect("stdout")));
        let stderr = read(Box::new(child.stderr.take().expect("stderr")));
        Self {
            child,
            stdout,
            stderr,
        }
    }

    /// Sends it SIGTERM; its exit status and output once it has exited (killed, and the
    /// test failed, if its output is not closed within the deadline).
    #[cfg(unix)]
    pub fn terminate(mut self) -> Run {
        let pid = self.child.id().to_string();
        let status = Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -TERM {pid} failed");
        let closed = |receiver: &std::sync::mpsc::Receiver<String>| {
            receiver
                .recv_timeout(DEADLINE)
                .unwrap_or_else(|_| panic!("near-rpc did not exit within {DEADLINE:?} of SIGTERM"))
        };
        let (stdout, stderr) = (closed(&self.stdout), closed(&self.stderr));
        let status = self.child.wait().expect("wait for near-rpc");
        Run {
            code: status.code().unwrap_or(-1),
            stdout,
            stderr,
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `near-rpc` that serves (`mock`, `record`) until killed, with the URL it printed.
pub struct Serving {
    child: std::process::Child,
    /// The URL on its first line of output.
    pub url: String,
}

impl Serving {
    /// Starts `near-rpc args` and waits (at most the deadline) for its URL.
    pub fn start(args: &[&str]) -> Self {
        use std::io::BufRead;
        let mut command = Command::new(env!("CARGO_BIN_EXE_near-rpc"));
        for name in ENV_VARS {
            command.env_remove(name);
        }
        let mut child = command
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start near-rpc");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = std::io::BufReader::new(stdout).read_line(&mut line);
            let _ = sender.send(line);
        });
        let line = match receiver.recv_timeout(DEADLINE) {
            Ok(line) => line,
            Err(_) => {
                let _ = child.kill();
                panic!("near-rpc {args:?} printed no URL within {DEADLINE:?}");
            }
        };
        let url = line.trim().to_owned();
        assert!(url.starts_with("http://127.0.0.1:"), "{url:?}");
        Self { child, url }
    }
}

impl Serving {
    /// Sends it SIGINT (Ctrl-C) and waits for it to exit; its exit code.
    #[cfg(unix)]
    pub fn interrupt(self) -> Option<i32> {
        self.signal("-INT")
    }

    /// Sends it SIGTERM and waits for it to exit; its exit code.
    #[cfg(unix)]
    pub fn terminate(self) -> Option<i32> {
        self.signal("-TERM")
    }

    #[cfg(unix)]
    fn signal(mut self, which: &str) -> Option<i32> {
        let status = Command::new("kill")
            .args([which, &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill {which} failed");
        self.child.wait().expect("it exits").code()
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
