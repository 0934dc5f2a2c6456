//! The hostile corpus (tests/hostile/): files and scripts a hostile club might send. Each case
//! is a folder with a `case.yaml` (the command, the expected status and messages) and its input
//! files; it runs in a temporary copy of the folder under a 1 GB address-space limit and a 10 s
//! limit of CPU time (a wall-clock backstop catches a process that waits forever), and must end with exactly its status, its message, no panic, its inputs untouched
//! and no file left behind that it did not declare (nor one kept that it said would go).
use regex::Regex;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ADDRESS_SPACE: u64 = 1 << 30;
/// CPU seconds a case may use (the kernel stops it past them): CPU time, not wall time, so a
/// busy machine running the suite's other tests cannot fail a case that is quick on its own.
const CPU_LIMIT: u64 = 10;
/// Wall time after which a case that is not using the CPU (waiting on a pipe, say) is stopped.
const WALL_LIMIT: Duration = Duration::from_secs(60);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    args: Vec<String>,
    #[serde(default)]
    stdin: Option<String>,
    status: i32,
    #[serde(default)]
    stderr: Option<String>,
    #[serde(default)]
    stdout: Option<String>,
    /// Files that must be byte for byte the same afterwards.
    #[serde(default)]
    unchanged: Vec<String>,
    /// The only files the run may add.
    #[serde(default)]
    creates: Vec<String>,
    /// Files (present before the run) that must be gone afterwards.
    #[serde(default)]
    gone: Vec<String>,
    /// Modes (octal) that files must have afterwards (the run's umask is 022).
    #[serde(default)]
    modes: BTreeMap<String, String>,
    #[serde(default)]
    generate: Vec<Generate>,
    /// Modes (octal) to give files before the run (git keeps only 644 and 755).
    #[serde(default)]
    chmod: BTreeMap<String, String>,
    /// Named pipes to make before the run.
    #[serde(default)]
    mkfifo: Vec<String>,
    /// Files that must still be symlinks afterwards (written through, not replaced).
    #[serde(default)]
    links: Vec<String>,
    /// Where standard output goes instead of a pipe (`/dev/full`).
    #[serde(default)]
    stdout_file: Option<String>,
}

/// A big input made at run time: `head`, then `repeat` `times` times (`{i}` in it becomes
/// 0, 1, 2...), then `tail`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Generate {
    file: String,
    #[serde(default)]
    head: String,
    repeat: String,
    times: usize,
    #[serde(default)]
    tail: String,
}

/// What one run did.
struct Ran {
    status: Option<i32>,
    stdout: String,
    stderr: String,
    /// CPU time, user and system.
    cpu: Duration,
    peak_kb: i64,
}

fn copy_folder(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            // Links stay links: a case about a link out of the folder must see the link.
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), &target).unwrap();
        } else if kind.is_dir() {
            std::fs::create_dir(&target).unwrap();
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn listing(dir: &Path, below: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        out.push(path.strip_prefix(below).unwrap().to_path_buf());
        if entry.file_type().unwrap().is_dir() {
            listing(&path, below, out);
        }
    }
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    listing(dir, dir, &mut out);
    out.sort();
    out
}

/// Run the binary in `dir` under the limits, measuring its time and peak memory.
fn run(dir: &Path, case: &Case) -> Ran {
    use std::io::{Read, Write};
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    command
        .args(&case.args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .stdin(if case.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(match &case.stdout_file {
            Some(f) => Stdio::from(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(f)
                    .expect("stdout file"),
            ),
            None => Stdio::piped(),
        })
        .stderr(Stdio::piped());
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: ADDRESS_SPACE,
                rlim_max: ADDRESS_SPACE,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            let cpu = libc::rlimit {
                rlim_cur: CPU_LIMIT,
                rlim_max: CPU_LIMIT + 1,
            };
            if libc::setrlimit(libc::RLIMIT_CPU, &cpu) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::umask(0o022);
            Ok(())
        });
    }
    let started = Instant::now();
    // Reaped below with wait4 (for its peak memory), which clippy cannot see.
    #[allow(clippy::zombie_processes)]
    let mut child = command.spawn().expect("arbiter starts");
    if let Some(text) = &case.stdin {
        let mut input = child.stdin.take().unwrap();
        let text = text.clone();
        std::thread::spawn(move || {
            let _ = input.write_all(text.as_bytes());
        });
    }
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let out = match child.stdout.take() {
        Some(pipe) => drain(Box::new(pipe)),
        None => std::thread::spawn(String::new),
    };
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let pid = child.id() as libc::pid_t;
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    let mut killed = false;
    loop {
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            break;
        }
        if !killed && started.elapsed() > WALL_LIMIT {
            let _ = child.kill();
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let seconds = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    let cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    let code = if libc::WIFEXITED(status) && !killed {
        Some(libc::WEXITSTATUS(status))
    } else {
        None
    };
    Ran {
        status: code,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        cpu,
        peak_kb: usage.ru_maxrss,
    }
}

/// Run one case; the problems found, if any.
fn check(folder: &Path) -> (Vec<String>, Ran) {
    let text = std::fs::read_to_string(folder.join("case.yaml")).unwrap();
    let case: Case =
        serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    copy_folder(folder, dir);
    for g in &case.generate {
        let body: String = if g.repeat.contains("{i}") {
            (0..g.times)
                .map(|i| g.repeat.replace("{i}", &i.to_string()))
                .collect()
        } else {
            g.repeat.repeat(g.times)
        };
        std::fs::write(dir.join(&g.file), format!("{}{body}{}", g.head, g.tail)).unwrap();
    }
    for (f, mode) in &case.chmod {
        use std::os::unix::fs::PermissionsExt;
        let mode = u32::from_str_radix(mode, 8)
            .unwrap_or_else(|_| panic!("{}: chmod {mode} is not octal", folder.display()));
        std::fs::set_permissions(dir.join(f), std::fs::Permissions::from_mode(mode)).unwrap();
    }
    for f in &case.mkfifo {
        let c = std::ffi::CString::new(dir.join(f).to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo {f}");
    }
    for f in &case.gone {
        assert!(
            dir.join(f).exists(),
            "{}: `gone: {f}` is not there before the run, so the case cannot fail",
            folder.display()
        );
    }
    let before = files_in(dir);
    let kept: Vec<(String, Vec<u8>)> = case
        .unchanged
        .iter()
        .map(|f| {
            (
                f.clone(),
                std::fs::read(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}")),
            )
        })
        .collect();
    let ran = run(dir, &case);
    let mut problems = Vec::new();
    let shown = || {
        format!(
            "\n--- stdout\n{}\n--- stderr\n{}",
            clip(&ran.stdout),
            clip(&ran.stderr)
        )
    };
    match ran.status {
        None => problems.push(format!(
            "did not end within {CPU_LIMIT} s of CPU or {WALL_LIMIT:?} of wall time (or died \
             of a signal) after {:?} of CPU{}",
            ran.cpu,
            shown()
        )),
        Some(s) if s != case.status => problems.push(format!(
            "exit status {s}, expected {}{}",
            case.status,
            shown()
        )),
        _ => {}
    }
    for f in &case.gone {
        if dir.join(f).exists() {
            problems.push(format!("{f} is still there{}", shown()));
        }
    }
    if ran.stderr.contains("panicked") || ran.stderr.contains("overflowed its stack") {
        problems.push(format!("crashed{}", shown()));
    }
    for (what, pattern, text) in [
        ("stderr", &case.stderr, &ran.stderr),
        ("stdout", &case.stdout, &ran.stdout),
    ] {
        if let Some(p) = pattern {
            let re = Regex::new(p)
                .unwrap_or_else(|e| panic!("{}: bad {what} regex: {e}", folder.display()));
            if !re.is_match(text) {
                problems.push(format!("{what} does not match `{p}`{}", shown()));
            }
        }
    }
    for (f, bytes) in &kept {
        if std::fs::read(dir.join(f)).ok().as_ref() != Some(bytes) {
            problems.push(format!("{f} was changed"));
        }
    }
    for new in files_in(dir).into_iter().filter(|f| !before.contains(f)) {
        if !case.creates.iter().any(|c| Path::new(c) == new) {
            problems.push(format!("left {} behind", new.display()));
        }
    }
    for f in &case.links {
        if !std::fs::symlink_metadata(dir.join(f)).is_ok_and(|m| m.file_type().is_symlink()) {
            problems.push(format!("{f} is no longer a symlink"));
        }
    }
    for (f, want) in &case.modes {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.join(f))
            .map(|m| format!("{:o}", m.permissions().mode() & 0o777))
            .unwrap_or_default();
        if &mode != want {
            problems.push(format!("{f} has mode {mode}, expected {want}"));
        }
    }
    (problems, ran)
}

fn clip(s: &str) -> String {
    s.chars().take(1500).collect()
}

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("case.yaml").exists())
        .collect();
    cases.sort();
    cases
}

#[test]
fn every_hostile_input_fails_cleanly_within_its_limits() {
    let cases = corpus();
    assert!(
        cases.len() >= 80,
        "the corpus has {} cases; it should keep at least 80",
        cases.len()
    );
    let mut failures = Vec::new();
    let (mut slowest, mut largest) = ((Duration::ZERO, String::new()), (0, String::new()));
    for folder in &cases {
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let (problems, ran) = check(folder);
        if ran.cpu > slowest.0 {
            slowest = (ran.cpu, name.clone());
        }
        if ran.peak_kb > largest.0 {
            largest = (ran.peak_kb, name.clone());
        }
        for p in problems {
            failures.push(format!("{name}: {p}"));
        }
    }
    eprintln!(
        "hostile corpus: {} cases; slowest {} ({:.2} s of CPU), largest {} ({:.1} MB peak)",
        cases.len(),
        slowest.1,
        slowest.0.as_secs_f64(),
        largest.1,
        largest.0 as f64 / 1024.0
    );
    assert!(
        failures.is_empty(),
        "{} of {} hostile cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_case_folder_has_a_case_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
    for entry in std::fs::read_dir(root).unwrap() {
        let path = entry.unwrap().path();
        assert!(
            path.join("case.yaml").is_file(),
            "{} has no case.yaml",
            path.display()
        );
    }
}
