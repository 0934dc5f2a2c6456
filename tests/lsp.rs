//! `arbiter lsp` driven by a scripted client: Content-Length framed JSON-RPC over the
//! binary's stdin and stdout, as an editor speaks it.
use crate::common::*;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;
use wait_timeout::ChildExt;

struct Client {
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Send a request and wait for its response (notifications on the way are kept).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.receive();
            if m["id"] == json!(id) {
                return m;
            }
        }
    }

    fn receive(&self) -> Value {
        let m = self
            .incoming
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers within 30 s");
        assert!(m.get("stray").is_none(), "not the protocol on stdout: {m}");
        m
    }

    /// Send a request; its response, and the messages that came before it.
    fn request_seeing(&mut self, method: &str, params: Value) -> (Value, Vec<Value>) {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut before = Vec::new();
        loop {
            let m = self.receive();
            if m["id"] == json!(id) {
                return (m, before);
            }
            before.push(m);
        }
    }

    /// The next notification of this method.
    fn notification(&self, method: &str) -> Value {
        loop {
            let m = self.receive();
            if m["method"] == json!(method) {
                return m["params"].clone();
            }
        }
    }
}

fn read_messages(out: impl Read + Send + 'static) -> Receiver<Value> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(out);
        loop {
            let mut length = None;
            loop {
                let mut line = String::new();
                if r.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    length = n.parse::<usize>().ok();
                } else if !line.starts_with("Content-Type: ") {
                    // Something else wrote to the protocol's stream (a script's print).
                    let _ = tx.send(json!({ "stray": line }));
                    return;
                }
            }
            let mut body = vec![0; length.expect("a Content-Length header")];
            r.read_exact(&mut body).unwrap();
            if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                return;
            }
        }
    });
    rx
}

/// The server, initialised, and a client talking to it.
fn start(dir: &std::path::Path) -> (std::process::Child, Client) {
    let mut child = Command::new(BIN)
        .arg("lsp")
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut c = Client {
        stdin: child.stdin.take().unwrap(),
        incoming: read_messages(child.stdout.take().unwrap()),
        next_id: 0,
    };
    let init = c.request("initialize", json!({"capabilities": {}, "processId": null}));
    assert_eq!(init["result"]["capabilities"]["hoverProvider"], json!(true));
    c.notify("initialized", json!({}));
    (child, c)
}

fn stop(mut child: std::process::Child, mut c: Client) {
    let shutdown = c.request("shutdown", Value::Null);
    assert_eq!(shutdown["result"], Value::Null);
    c.notify("exit", Value::Null);
    let status = child
        .wait_timeout(Duration::from_secs(30))
        .unwrap()
        .expect("the server exits");
    assert_eq!(status.code(), Some(0));
}

/// Editors send `file://` URIs with percent escapes: the base beside a file in a folder with a
/// space and an accent is found, and hover resolves through it.
#[test]
fn a_file_in_a_folder_with_spaces_finds_its_base() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("club rules é");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(
        dir.join("base.rules"),
        "extends startrek\nships {\n  \"UFP heavy cruiser\" {\n    shields = 14\n  }\n}\n",
    )
    .unwrap();
    let path = dir.join("house.rules").display().to_string();
    let uri = format!("file://{}", path.replace(' ', "%20").replace('é', "%C3%A9"));
    let (child, mut c) = start(root.path());
    let text =
        "extends \"base.rules\"\nships {\n  \"UFP heavy cruiser\" {\n    structure = 3\n  }\n}\n";
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "arbiter-rules", "version": 1, "text": text}}),
    );
    let d = c.notification("textDocument/publishDiagnostics");
    assert_eq!(d["uri"], json!(uri));
    assert_eq!(d["diagnostics"], json!([]), "{d}");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text.replace("structure = 3", "shields = 15\n    structure = 3")}]}),
    );
    c.notification("textDocument/publishDiagnostics");
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 4, "character": 5}}),
    );
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(shown.contains(": 3"), "{hover}");
    stop(child, c);
}

#[test]
fn a_scripted_editor_gets_diagnostics_hover_and_completion() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("house.rules");
    let uri = format!("file://{}", file.display());
    let (child, mut c) = start(dir.path());

    // A formula naming a variable a generator cannot read: an error at its line and column.
    let broken =
        "extends startrek\nships {\n  \"UFP heavy cruiser\" {\n    generator = 2 * warp\n  }\n}\n";
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "arbiter-rules", "version": 1, "text": broken}}),
    );
    let d = c.notification("textDocument/publishDiagnostics");
    assert_eq!(d["uri"], json!(uri));
    let diagnostics = d["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{d}");
    let first = &diagnostics[0];
    assert_eq!(
        first["range"]["start"],
        json!({"line": 3, "character": 20}),
        "{first}"
    );
    assert!(
        first["message"].as_str().unwrap().contains("warp"),
        "{first}"
    );

    // Fixed: the diagnostics are cleared.
    let fixed = "extends startrek\nships {\n  \"UFP heavy cruiser\" {\n    shields = 12\n  }\n}\n";
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    let d = c.notification("textDocument/publishDiagnostics");
    assert_eq!(d["diagnostics"], json!([]));

    // Hover on `shields`: what it means and its value through `extends`.
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 3, "character": 6}}),
    );
    let text = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains("Shield rating of each of the six faces."),
        "{text}"
    );
    assert!(text.contains(": 12"), "{text}");

    // Completion inside the ship: its fields.
    let completion = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 3, "character": 4}}),
    );
    let labels: Vec<&str> = completion["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"max_speed"), "{labels:?}");

    stop(child, c);
    assert!(!file.exists(), "the server wrote no file");
}

fn open(c: &mut Client, uri: &str, text: &str) {
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "arbiter-rules", "version": 1, "text": text}}),
    );
}

/// Changes queued while the server analyses give way to the newest: thirty full changes of a
/// large document are not thirty analyses (they were, one after another, before any answer),
/// and the diagnostics published last are the newest version's.
#[test]
fn changes_queued_behind_an_analysis_give_way_to_the_newest() {
    let dir = tempfile::tempdir().unwrap();
    let uri = format!("file://{}", dir.path().join("ships.rules").display());
    let big = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/hostile/overlay-20000-ships/ships.rules"
    ))
    .unwrap();
    let (child, mut c) = start(dir.path());
    open(&mut c, &uri, &big);
    let changes = 30;
    for v in 0..changes {
        let text = if v + 1 == changes {
            big.replacen("new \"s0\"{shields=1}", "new \"s0\"{shields=\"one\"}", 1)
        } else {
            format!("{big}# version {v}\n")
        };
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": v + 2}, "contentChanges": [{"text": text}]}),
        );
    }
    // Answered once everything sent before it is dealt with.
    let (hover, before) = c.request_seeing(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 2}}),
    );
    assert!(hover.get("error").is_none(), "{hover}");
    let published: Vec<&Value> = before
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .collect();
    assert!(
        !published.is_empty() && published.len() < changes + 1,
        "{} analyses of {} versions",
        published.len(),
        changes + 1
    );
    let last = &published.last().unwrap()["params"]["diagnostics"];
    assert_eq!(last.as_array().map(Vec::len), Some(1), "{last}");
    assert_eq!(last[0]["range"]["start"]["line"], json!(2), "{last}");
    stop(child, c);
}

/// A hook's top level runs under the ruleset's limits in the server too, on the analysis
/// thread: the editor's requests are answered while it runs, and it ends at its time limit.
#[test]
fn a_busy_hook_is_stopped_at_its_limit_and_never_holds_up_the_editor() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("busy.rhai"),
        "fn tiebreak(a) { a }\nlet s = \"\".pad(99000, \"a\");\nlet a = [];\na.pad(19000, s);\n\
         loop { a.contains(\"b\"); }\n",
    )
    .unwrap();
    let rules = dir.path().join("h.rules");
    let uri = format!("file://{}", rules.display());
    let text =
        "extends startrek\nscript {\n  limits { max_seconds = 1 }\n  hooks { tiebreak = \"busy.rhai\" }\n}\n";

    // Shut down while the hook runs: answered at once, before the document's diagnostics.
    let (mut child, mut c) = start(dir.path());
    open(&mut c, &uri, text);
    let (shutdown, before) = c.request_seeing("shutdown", Value::Null);
    assert_eq!(shutdown["result"], Value::Null);
    assert!(before.is_empty(), "{before:?}");
    c.notify("exit", Value::Null);
    let status = child
        .wait_timeout(Duration::from_secs(30))
        .unwrap()
        .expect("the server exits");
    assert_eq!(status.code(), Some(0));

    // Left to run, the hook ends at its limit, as a diagnostic.
    let (child, mut c) = start(dir.path());
    open(&mut c, &uri, text);
    let d = c.notification("textDocument/publishDiagnostics");
    let message = d["diagnostics"][0]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("busy.rhai:5:")
            && message.contains(
                "the script ran out of time (limit 1 s of CPU time, engine calls included)"
            ),
        "{d}"
    );
    stop(child, c);
}

/// What a hook prints goes to standard error: standard output is the protocol's.
#[test]
fn a_hooks_print_stays_out_of_the_protocol() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("loud.rhai"),
        "fn tiebreak(a) { a }\nprint(\"Content-Length: 99\");\nprint(\"hello\");\n",
    )
    .unwrap();
    let uri = format!("file://{}", dir.path().join("h.rules").display());
    let (child, mut c) = start(dir.path());
    open(
        &mut c,
        &uri,
        "extends startrek\nscript {\n  hooks { tiebreak = \"loud.rhai\" }\n}\n",
    );
    let d = c.notification("textDocument/publishDiagnostics");
    assert_eq!(d["diagnostics"], json!([]), "{d}");
    stop(child, c);
}

/// Every problem of the file is a diagnostic at its line and column (a syntax error, an unknown
/// key and a bad value, in three entries); fixing one leaves the other two.
#[test]
fn every_problem_of_a_file_is_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let uri = format!("file://{}", dir.path().join("house.rules").display());
    let (child, mut c) = start(dir.path());
    let text = "extends startrek\nships {\n  \"UFP heavy cruiser\" {\n    shields = = 3\n  }\n  \
                \"Klingon battle cruiser\" {\n    sheilds = 4\n  }\n  \"Romulan battle cruiser\" \
                {\n    shields = \"ten\"\n  }\n}\n";
    open(&mut c, &uri, text);
    let d = c.notification("textDocument/publishDiagnostics");
    let at: Vec<(Value, Value)> = d["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["range"]["start"].clone(), d["message"].clone()))
        .collect();
    assert_eq!(at.len(), 3, "{d}");
    assert_eq!(at[0].0, json!({"line": 3, "character": 14}), "{d}");
    assert_eq!(at[1].0, json!({"line": 6, "character": 4}), "{d}");
    assert!(
        at[1]
            .1
            .as_str()
            .unwrap()
            .contains("did you mean `shields`?"),
        "{d}"
    );
    assert_eq!(at[2].0, json!({"line": 9, "character": 14}), "{d}");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"text": text.replace("= = 3", "= 3")}]}),
    );
    let d = c.notification("textDocument/publishDiagnostics");
    assert_eq!(d["diagnostics"].as_array().unwrap().len(), 2, "{d}");
    stop(child, c);
}

fn labels(c: &mut Client, uri: &str, line: u32, character: u32) -> Vec<String> {
    let r = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
    );
    r["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{r}"))
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

/// Completion while typing, in a buffer that does not parse: the keys of the block the cursor
/// is in, ship names, a ship's size classes from the base, and `extends` targets (a file
/// beside the document among them), each documented.
#[test]
fn completion_comes_from_the_cursors_place_in_a_broken_buffer() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("club.rules"), "extends startrek\n").unwrap();
    let uri = format!("file://{}", dir.path().join("house.rules").display());
    let (child, mut c) = start(dir.path());
    let text =
        "extends startrek\nships {\n  \"UFP\n  \"UFP heavy cruiser\" {\n    sh\n    size = \n";
    open(&mut c, &uri, text);
    let d = c.notification("textDocument/publishDiagnostics");
    assert!(!d["diagnostics"].as_array().unwrap().is_empty(), "{d}");
    let ships = labels(&mut c, &uri, 2, 6);
    assert!(
        ships.contains(&"UFP heavy cruiser".to_string()),
        "{ships:?}"
    );
    assert!(!ships.contains(&"combat".to_string()), "{ships:?}");
    let keys = labels(&mut c, &uri, 4, 6);
    assert!(
        keys.contains(&"shields".to_string()) && keys.contains(&"size".to_string()),
        "{keys:?}"
    );
    assert_eq!(labels(&mut c, &uri, 5, 11), ["large", "medium", "small"]);
    let bases = labels(&mut c, &uri, 0, 10);
    assert!(bases.contains(&"startrek".to_string()), "{bases:?}");
    assert!(bases.contains(&"club.rules".to_string()), "{bases:?}");
    assert!(!bases.contains(&"house.rules".to_string()), "{bases:?}");
    let r = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 4, "character": 6}}),
    );
    let shields = r["result"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "shields")
        .unwrap();
    assert!(
        shields["documentation"]["value"]
            .as_str()
            .unwrap()
            .contains("Shield rating"),
        "{shields}"
    );
    stop(child, c);
}
