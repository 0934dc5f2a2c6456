//! Driving `arbiter` under a pseudo-terminal, as a person at a terminal would: keys in, screen
//! text out (answering the terminal's cursor queries), Ctrl-C delivered as a signal by the
//! terminal's line discipline.
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Long enough for a loaded CI machine; a test waits for text, never for a time.
const PATIENCE: Duration = Duration::from_secs(60);

pub struct Pty {
    keys: std::fs::File,
    child: Child,
    screen: Arc<(Mutex<Vec<u8>>, Condvar)>,
    /// How much of the screen text earlier waits have consumed.
    read_to: usize,
}

impl Pty {
    /// Start the binary with `args` on a new 80×24 terminal.
    pub fn spawn(args: &[&str], env: &[(&str, &str)]) -> Pty {
        let (mut master, mut slave) = (0, 0);
        let size = libc::winsize {
            ws_row: 24,
            ws_col: 80,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: openpty writes two descriptors it opened into the given integers.
        let made = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                &size,
            )
        };
        assert_eq!(made, 0, "openpty: {}", std::io::Error::last_os_error());
        // SAFETY: both descriptors are open and owned by nobody else.
        let (master, slave) =
            unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        let stdio = || Stdio::from(slave.try_clone().expect("dup the terminal"));
        let mut command = Command::new(super::BIN);
        command
            .args(args)
            .env("TERM", "xterm")
            .env("NO_COLOR", "1")
            .stdin(stdio())
            .stdout(stdio())
            .stderr(stdio());
        for (k, v) in env {
            command.env(k, v);
        }
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            command.pre_exec(|| {
                // A session of its own, with this terminal as the controlling one, so that
                // Ctrl-C typed at it signals the program.
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY as _, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("start arbiter on a terminal");
        drop(slave);
        let keys = std::fs::File::from(master);
        let mut reader = keys.try_clone().expect("dup the terminal");
        let mut answers = keys.try_clone().expect("dup the terminal");
        let screen = Arc::new((Mutex::new(Vec::new()), Condvar::new()));
        let shared = screen.clone();
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            // Ends with an error (EIO) once the program has exited and closed the terminal.
            while let Ok(n) = reader.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                if chunk[..n].windows(4).any(|w| w == b"\x1b[6n") {
                    let _ = answers.write_all(b"\x1b[1;1R");
                }
                let (text, changed) = &*shared;
                text.lock().unwrap().extend_from_slice(&chunk[..n]);
                changed.notify_all();
            }
        });
        Pty {
            keys,
            child,
            screen,
            read_to: 0,
        }
    }

    /// Type `keys` (`\r` is Enter, `\t` Tab, `\x03` Ctrl-C, `\x04` Ctrl-D).
    pub fn send(&mut self, keys: &str) -> &mut Pty {
        self.keys
            .write_all(keys.as_bytes())
            .expect("type at the terminal");
        self
    }

    /// Wait for the REPL's prompt: the screen ends with it (escape sequences aside) and has
    /// been quiet a moment. Keys typed earlier may be lost, as a terminal's cursor query in
    /// between reads and drops them, so every entry waits for this first.
    pub fn at_prompt(&mut self) -> &mut Pty {
        let deadline = Instant::now() + PATIENCE;
        let quiet = Duration::from_millis(150);
        let shared = self.screen.clone();
        let (screen, changed) = &*shared;
        let mut seen = screen.lock().unwrap();
        loop {
            let length = seen.len();
            let text = String::from_utf8_lossy(&seen[self.read_to..]).to_string();
            if plain(&text).trim_end_matches('\r').ends_with("arbiter> ") {
                let (again, waited) = changed.wait_timeout(seen, quiet).unwrap();
                seen = again;
                if waited.timed_out() && seen.len() == length {
                    self.read_to = seen.len();
                    drop(seen);
                    return self;
                }
                continue;
            }
            let now = Instant::now();
            if now >= deadline {
                panic!("never saw the prompt; the terminal shows:\n{text:?}");
            }
            seen = changed.wait_timeout(seen, deadline - now).unwrap().0;
        }
    }

    /// Type one entry at the prompt, and Enter.
    pub fn line(&mut self, entry: &str) -> &mut Pty {
        self.at_prompt().send(&format!("{entry}\r"))
    }

    /// Wait until `text` appears after what earlier waits saw; returns the screen text up to
    /// and including it. Panics with the screen if it never comes.
    pub fn wait_for(&mut self, text: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        let (screen, changed) = &*self.screen;
        let mut seen = screen.lock().unwrap();
        loop {
            let fresh = String::from_utf8_lossy(&seen[self.read_to..]).to_string();
            if let Some(at) = fresh.find(text) {
                let upto = &fresh[..at + text.len()];
                self.read_to += upto.len();
                return upto.to_string();
            }
            let now = Instant::now();
            if now >= deadline {
                panic!("never saw {text:?} on the terminal; it shows:\n{fresh}");
            }
            seen = changed.wait_timeout(seen, deadline - now).unwrap().0;
        }
    }

    /// Wait for the program to end; its exit status.
    pub fn finish(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for arbiter") {
                return status;
            }
            assert!(Instant::now() < deadline, "arbiter did not end");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Screen text without its escape sequences (CSI `ESC [ ... letter`, and two-byte ones).
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
            continue;
        }
        if chars.next_if_eq(&'[').is_some() {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() || d == '~' {
                    break;
                }
            }
        } else {
            chars.next();
        }
    }
    out
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
