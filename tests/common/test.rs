//! A fluent builder for a run of the real binary, in the style of just's test harness:
//!
//! ```ignore
//! Test::new()
//!     .file("game.yaml", GAME)
//!     .args(["score", "game.yaml"])
//!     .status(1)
//!     .stderr_regex(r"^game\.yaml:4:9: unknown ship")
//!     .run();
//! ```
//!
//! Each test runs in a temporary folder of its own (its current folder), where `file` writes
//! its inputs. Expectations are exact (`stdout`, `stderr`), by regex (`stdout_regex`,
//! `stderr_regex`) or by substring (`stdout_has`, `stderr_has`); the status defaults to 0.
//! Every run also fails on a panic message. `run` returns what happened, for checks of files
//! the command wrote.
use regex::Regex;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[must_use = "a Test runs nothing until `.run()`"]
pub struct Test {
    dir: tempfile::TempDir,
    /// Where the command runs: the temporary folder, or the project's root (`in_project`).
    cwd: Option<PathBuf>,
    args: Vec<String>,
    stdin: Option<String>,
    env: Vec<(String, String)>,
    status: i32,
    stdout: Vec<Expect>,
    stderr: Vec<Expect>,
}

enum Expect {
    Exact(String),
    Regex(Regex),
    Has(String),
    Empty,
}

/// What a run did, and the folder it ran in (kept until this is dropped).
pub struct Ran {
    pub stdout: String,
    pub stderr: String,
    pub status: Option<i32>,
    pub dir: tempfile::TempDir,
}

impl Ran {
    /// A path inside the folder the test ran in.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The text of a file in the folder the test ran in.
    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// Standard output parsed as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", self.stdout))
    }
}

impl Default for Test {
    fn default() -> Test {
        Test::new()
    }
}

impl Test {
    pub fn new() -> Test {
        Test {
            dir: tempfile::tempdir().expect("a temporary folder"),
            cwd: None,
            args: Vec::new(),
            stdin: None,
            env: vec![("NO_COLOR".into(), "1".into())],
            status: 0,
            stdout: Vec::new(),
            stderr: Vec::new(),
        }
    }

    /// A run in the project's root, for arguments such as `examples/cep-game.yaml` (files
    /// written with `file` are still in the temporary folder: name them with `dir()`).
    pub fn in_project() -> Test {
        Test {
            cwd: Some(PathBuf::from(env!("CARGO_MANIFEST_DIR"))),
            ..Test::new()
        }
    }

    pub fn arg(mut self, arg: impl Into<String>) -> Test {
        self.args.push(arg.into());
        self
    }

    pub fn args<S: Into<String>>(mut self, args: impl IntoIterator<Item = S>) -> Test {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    pub fn stdin(mut self, text: impl Into<String>) -> Test {
        self.stdin = Some(text.into());
        self
    }

    pub fn env(mut self, key: &str, value: &str) -> Test {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Write a file (folders made as needed) in the test's folder before the run.
    pub fn file(self, name: &str, contents: impl AsRef<[u8]>) -> Test {
        let path = self.dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("folders for a test file");
        }
        std::fs::write(&path, contents).expect("a test file");
        self
    }

    /// The test's folder (to name it in arguments, or to set files up by hand).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    pub fn status(mut self, code: i32) -> Test {
        self.status = code;
        self
    }

    pub fn stdout(mut self, exact: impl Into<String>) -> Test {
        self.stdout.push(Expect::Exact(exact.into()));
        self
    }

    pub fn stdout_regex(mut self, pattern: &str) -> Test {
        self.stdout
            .push(Expect::Regex(Regex::new(pattern).expect("a valid regex")));
        self
    }

    pub fn stdout_has(mut self, part: impl Into<String>) -> Test {
        self.stdout.push(Expect::Has(part.into()));
        self
    }

    pub fn stdout_empty(mut self) -> Test {
        self.stdout.push(Expect::Empty);
        self
    }

    pub fn stderr(mut self, exact: impl Into<String>) -> Test {
        self.stderr.push(Expect::Exact(exact.into()));
        self
    }

    pub fn stderr_regex(mut self, pattern: &str) -> Test {
        self.stderr
            .push(Expect::Regex(Regex::new(pattern).expect("a valid regex")));
        self
    }

    pub fn stderr_has(mut self, part: impl Into<String>) -> Test {
        self.stderr.push(Expect::Has(part.into()));
        self
    }

    pub fn stderr_empty(mut self) -> Test {
        self.stderr.push(Expect::Empty);
        self
    }

    /// Run the binary and check every expectation; panics with the whole output otherwise.
    #[track_caller]
    pub fn run(self) -> Ran {
        let mut command = Command::new(super::BIN);
        // Tables fit COLUMNS when it is set: the tests' expectations are the whole tables.
        command
            .args(&self.args)
            .env_remove("COLUMNS")
            .current_dir(self.cwd.as_deref().unwrap_or(self.dir.path()))
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in &self.env {
            command.env(k, v);
        }
        let mut child = command.spawn().expect("arbiter runs");
        if let Some(text) = &self.stdin {
            let mut input = child.stdin.take().expect("a stdin pipe");
            // A command may stop reading early; a closed pipe is its business.
            let _ = input.write_all(text.as_bytes());
        }
        let output = child.wait_with_output().expect("arbiter finishes");
        let ran = Ran {
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            status: output.status.code(),
            dir: self.dir,
        };
        let mut problems = Vec::new();
        if ran.status != Some(self.status) {
            problems.push(format!("status {:?}, expected {}", ran.status, self.status));
        }
        if ran.stderr.contains("panicked") {
            problems.push("it panicked".to_string());
        }
        for (stream, text, expects) in [
            ("stdout", &ran.stdout, &self.stdout),
            ("stderr", &ran.stderr, &self.stderr),
        ] {
            for e in expects {
                if let Some(p) = e.mismatch(stream, text) {
                    problems.push(p);
                }
            }
        }
        assert!(
            problems.is_empty(),
            "arbiter {:?}:\n  {}\n--- stdout\n{}\n--- stderr\n{}",
            self.args,
            problems.join("\n  "),
            ran.stdout,
            ran.stderr
        );
        ran
    }
}

impl Expect {
    fn mismatch(&self, stream: &str, text: &str) -> Option<String> {
        match self {
            Expect::Exact(want) if text != want => {
                Some(format!("{stream} is not exactly:\n{want}"))
            }
            Expect::Regex(re) if !re.is_match(text) => {
                Some(format!("{stream} does not match /{}/", re.as_str()))
            }
            Expect::Has(part) if !text.contains(part.as_str()) => {
                Some(format!("{stream} does not contain `{part}`"))
            }
            Expect::Empty if !text.is_empty() => Some(format!("{stream} is not empty")),
            _ => None,
        }
    }
}
