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

/// The server started in `dir` (its cache folder in `cache` when given), not yet initialised,
/// and a client talking to it.
fn spawn_server(
    dir: &std::path::Path,
    cache: Option<&std::path::Path>,
) -> (std::process::Child, Client) {
    let mut command = Command::new(BIN);
    command.arg("lsp").current_dir(dir);
    if let Some(cache) = cache {
        command.env("XDG_CACHE_HOME", cache);
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let c = Client {
        stdin: child.stdin.take().unwrap(),
        incoming: read_messages(child.stdout.take().unwrap()),
        next_id: 0,
    };
    (child, c)
}

/// The server, initialised, and a client talking to it.
fn start(dir: &std::path::Path) -> (std::process::Child, Client) {
    let (child, mut c) = spawn_server(dir, None);
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

/// The server started in `dir` with its cache folder in `cache`, opening `dir` as the
/// workspace.
fn start_in(dir: &std::path::Path, cache: &std::path::Path) -> (std::process::Child, Client) {
    let (child, mut c) = spawn_server(dir, Some(cache));
    let root = format!("file://{}", dir.display());
    let init = c.request(
        "initialize",
        json!({"capabilities": {}, "processId": null, "rootUri": root}),
    );
    let caps = &init["result"]["capabilities"];
    for capability in [
        "definitionProvider",
        "documentSymbolProvider",
        "workspaceSymbolProvider",
        "documentFormattingProvider",
        "documentRangeFormattingProvider",
        "renameProvider",
    ] {
        assert_eq!(caps[capability], json!(true), "{capability}: {caps}");
    }
    assert_eq!(
        caps["codeActionProvider"]["codeActionKinds"],
        json!(["quickfix"])
    );
    c.notify("initialized", json!({}));
    (child, c)
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

/// The 0-based line of the first line of `text` that contains `needle`.
fn line_of(text: &str, needle: &str) -> u32 {
    text.lines().position(|l| l.contains(needle)).unwrap() as u32
}

/// Apply LSP text edits (ASCII text: UTF-16 columns are bytes) to `text`.
fn apply(text: &str, edits: &Value) -> String {
    let offsets: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let byte = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        match offsets.get(line) {
            Some(o) => (o + p["character"].as_u64().unwrap() as usize).min(text.len()),
            None => text.len(),
        }
    };
    let mut edits: Vec<(usize, usize, String)> = edits
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                byte(&e["range"]["start"]),
                byte(&e["range"]["end"]),
                e["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (from, to, new) in edits {
        out.replace_range(from..to, &new);
    }
    out
}

const BASE: &str = "extends startrek\nname = club\nships {\n  \"UFP heavy cruiser\" {\n    shields = 14\n  }\n  new \"Scout\" {\n    shields = 4\n    hull = 1D6/1D3\n    max_speed = 4\n    maneuverability = 2\n    phasers = 1D6\n    torpedoes = 0\n    cloak = false\n    repair_teams = 1\n    security_teams = 1\n    size = small\n  }\n}\n";

/// Go to definition: from `extends` to the base file, from an overlay entry to the entry it
/// changes in the nearest base that has it (a built-in opening as a read-only copy in the cache
/// folder), from a size class or a ship named as a value to its entry.
#[test]
fn definitions_lead_through_extends_to_the_entry_changed() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("club.rules"), BASE).unwrap();
    let house = "extends \"club.rules\"\nships {\n  \"UFP heavy cruiser\" {\n    shields = 15\n    size = medium\n  }\n  \"Klingon battle cruiser\" { shields = 8 }\n}\ntactic { rival = \"Scout\" }\n";
    let uri = format!("file://{}", dir.path().join("house.rules").display());
    let club = dir.path().canonicalize().unwrap().join("club.rules");
    let club_uri = format!("file://{}", club.display());
    let (child, mut c) = start_in(dir.path(), cache.path());
    open(&mut c, &uri, house);
    c.notification("textDocument/publishDiagnostics");

    let d = c.request("textDocument/definition", at(&uri, 0, 12));
    assert_eq!(d["result"]["uri"], json!(club_uri), "{d}");
    assert_eq!(
        d["result"]["range"]["start"],
        json!({"line": 0, "character": 0})
    );

    // The ship's key: its entry in club.rules; its `shields`: the field there.
    let d = c.request("textDocument/definition", at(&uri, 2, 6));
    assert_eq!(d["result"]["uri"], json!(club_uri), "{d}");
    assert_eq!(
        d["result"]["range"],
        json!({"start": {"line": 3, "character": 2}, "end": {"line": 3, "character": 21}})
    );
    let d = c.request("textDocument/definition", at(&uri, 3, 5));
    assert_eq!(
        d["result"]["range"],
        json!({"start": {"line": 4, "character": 4}, "end": {"line": 4, "character": 11}}),
        "{d}"
    );

    // A ship club.rules does not change: the built-in, as a read-only file in the cache.
    let d = c.request("textDocument/definition", at(&uri, 6, 10));
    let builtin = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/rulesets/startrek.rules"
    ))
    .unwrap();
    let copy = d["result"]["uri"]
        .as_str()
        .unwrap()
        .strip_prefix("file://")
        .unwrap()
        .to_string();
    assert!(copy.starts_with(&cache.path().display().to_string()), "{d}");
    assert!(copy.ends_with("/startrek.rules"), "{d}");
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), builtin);
    assert!(std::fs::metadata(&copy).unwrap().permissions().readonly());
    let klingon = line_of(&builtin, "\"Klingon battle cruiser\" {");
    assert_eq!(
        d["result"]["range"]["start"],
        json!({"line": klingon, "character": 2})
    );

    // A size class named as a value: its entry in combat.sizes of the built-in.
    let d = c.request("textDocument/definition", at(&uri, 4, 13));
    let medium = line_of(&builtin, "    medium { damaged");
    assert_eq!(
        d["result"]["range"]["start"],
        json!({"line": medium, "character": 4}),
        "{d}"
    );
    // A ship named as a value: where club.rules adds it.
    let d = c.request("textDocument/definition", at(&uri, 8, 19));
    assert_eq!(d["result"]["uri"], json!(club_uri), "{d}");
    assert_eq!(
        d["result"]["range"]["start"],
        json!({"line": 6, "character": 2}),
        "{d}"
    );
    // Nothing to go to on a number.
    let d = c.request("textDocument/definition", at(&uri, 3, 15));
    assert_eq!(d["result"], Value::Null, "{d}");
    stop(child, c);
}

/// A base outside what a file may name is never read: a diagnostic says so, and going to
/// definition from its `extends` goes nowhere.
#[test]
fn an_extends_outside_the_read_policy_is_a_diagnostic_and_no_definition() {
    let root = tempfile::tempdir().unwrap();
    let inside = root.path().join("club");
    let outside = root.path().join("elsewhere");
    std::fs::create_dir_all(&inside).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.rules"), "extends startrek\n").unwrap();
    let uri = format!("file://{}", inside.join("house.rules").display());
    let cache = tempfile::tempdir().unwrap();
    let (child, mut c) = start_in(&inside, cache.path());
    open(
        &mut c,
        &uri,
        "extends \"../elsewhere/secret.rules\"\nships {\n  sh\n}\n",
    );
    let d = c.notification("textDocument/publishDiagnostics");
    let messages = d["diagnostics"].to_string();
    assert!(messages.contains("outside what a file may name"), "{d}");
    let d = c.request("textDocument/definition", at(&uri, 0, 14));
    assert_eq!(d["result"], Value::Null, "{d}");
    let s = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    assert!(s.get("error").is_none(), "{s}");
    stop(child, c);
}

fn symbol<'a>(symbols: &'a Value, name: &str) -> &'a Value {
    symbols
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {symbols}"))
}

/// The outline: sections, their ships and torpedo kinds, each with the range it spans (to its
/// closing brace) and the range of its name; a half-typed entry does not hide the others.
#[test]
fn document_symbols_outline_sections_ships_and_kinds() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let uri = format!("file://{}", dir.path().join("house.rules").display());
    let (child, mut c) = start_in(dir.path(), cache.path());
    let text = "extends startrek\nships {\n  \"UFP heavy cruiser\" {\n    shields = 15\n  }\n  \"Gorn attack cruiser\" { shields = = }\n}\ncombat {\n  torpedoes {\n    new quantum { damage = 7D6, energy = 1, loss_per_hex = 1 }\n  }\n}\n";
    open(&mut c, &uri, text);
    c.notification("textDocument/publishDiagnostics");
    let r = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let roots = &r["result"];
    let names: Vec<&str> = roots
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["extends", "ships", "combat"], "{r}");
    let ships = symbol(roots, "ships");
    assert_eq!(ships["kind"], json!(3), "namespace: {ships}");
    assert_eq!(
        ships["range"],
        json!({"start": {"line": 1, "character": 0}, "end": {"line": 6, "character": 1}})
    );
    let ufp = symbol(&ships["children"], "UFP heavy cruiser");
    assert_eq!(ufp["kind"], json!(23), "struct: {ufp}");
    assert_eq!(
        ufp["range"],
        json!({"start": {"line": 2, "character": 2}, "end": {"line": 4, "character": 3}})
    );
    assert_eq!(
        ufp["selectionRange"],
        json!({"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 21}})
    );
    assert_eq!(symbol(&ufp["children"], "shields")["detail"], json!("15"));
    let torpedoes = symbol(&symbol(roots, "combat")["children"], "torpedoes");
    let quantum = symbol(&torpedoes["children"], "quantum");
    assert_eq!(quantum["kind"], json!(22), "enum member: {quantum}");
    assert_eq!(
        quantum["range"]["end"],
        json!({"line": 9, "character": 62}),
        "{quantum}"
    );
    stop(child, c);
}

/// Workspace symbols: the ships, kinds and ruleset names of every ruleset in the open folder
/// (below it too), matched by the letters typed.
#[test]
fn workspace_symbols_find_ships_across_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("clubs")).unwrap();
    std::fs::write(dir.path().join("clubs/club.rules"), BASE).unwrap();
    std::fs::write(
        dir.path().join("fleet.yaml"),
        "extends: startrek\nships:\n  +Scout cutter:\n    shields: 3\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("notes.yaml"), "- not: [a ruleset\n").unwrap();
    let (child, mut c) = start_in(dir.path(), cache.path());
    let r = c.request("workspace/symbol", json!({"query": "scout"}));
    let mut found: Vec<(String, String, u64)> = r["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{r}"))
        .iter()
        .map(|s| {
            let file = s["location"]["uri"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string();
            (
                s["name"].as_str().unwrap().to_string(),
                file,
                s["location"]["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            ("Scout".to_string(), "club.rules".to_string(), 6),
            ("Scout cutter".to_string(), "fleet.yaml".to_string(), 2)
        ]
    );
    let r = c.request("workspace/symbol", json!({"query": "club"}));
    assert_eq!(r["result"][0]["name"], json!("club"), "{r}");
    assert_eq!(r["result"][0]["containerName"], json!("ruleset"), "{r}");
    stop(child, c);
}

/// Formatting gives the edits that turn the buffer into exactly what `rules fmt` prints; range
/// formatting only those on the lines asked for.
#[test]
fn formatting_edits_give_the_rules_fmt_layout() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let path = dir.path().join("house.rules");
    let uri = format!("file://{}", path.display());
    let text = "extends startrek\n# the club's\nships {\n\"UFP heavy cruiser\" {shields=15}\n}\ncombat {\n      sensor_range=12\n}\n";
    std::fs::write(&path, text).unwrap();
    let fmt = run_in(dir.path(), &["rules", "fmt", "house.rules"], None);
    assert!(fmt.status.success());
    let expected = String::from_utf8(fmt.stdout).unwrap();
    assert_ne!(expected, text);
    let (child, mut c) = start_in(dir.path(), cache.path());
    open(&mut c, &uri, text);
    c.notification("textDocument/publishDiagnostics");
    let options = json!({"tabSize": 2, "insertSpaces": true});
    let r = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": options}),
    );
    assert_eq!(apply(text, &r["result"]), expected, "{r}");
    // Line 0 is already laid out: no edit.
    let r = c.request(
        "textDocument/rangeFormatting",
        json!({"textDocument": {"uri": uri}, "options": options,
               "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 3}}}),
    );
    assert_eq!(r["result"], json!([]), "{r}");
    let r = c.request(
        "textDocument/rangeFormatting",
        json!({"textDocument": {"uri": uri}, "options": options,
               "range": {"start": {"line": 6, "character": 0}, "end": {"line": 6, "character": 5}}}),
    );
    let edits = r["result"].as_array().unwrap();
    assert_eq!(edits.len(), 1, "{r}");
    // Line 6 sits in a block `rules fmt` writes on one line: the edit is that block's.
    assert_eq!(edits[0]["range"]["start"]["line"], json!(5), "{r}");
    assert_eq!(edits[0]["range"]["end"]["line"], json!(8), "{r}");
    assert!(
        edits[0]["newText"]
            .as_str()
            .unwrap()
            .contains("combat { sensor_range = 12 }\n"),
        "{r}"
    );
    // A buffer that does not parse cannot be laid out: an error, never edits.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": "ships {\n  \"UFP\n"}]}),
    );
    let r = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": options}),
    );
    assert!(r["error"]["message"].as_str().is_some(), "{r}");
    stop(child, c);
}

/// Rename a ship: its key, the values naming it in the document, and the ruleset of the folder
/// that extends the document; a number under the cursor cannot be renamed.
#[test]
fn rename_reaches_every_mention_and_the_files_that_extend_it() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let club = dir.path().join("club.rules");
    std::fs::write(&club, BASE).unwrap();
    let fleet = "extends: club.rules\nships:\n  Scout:\n    shields: 5\n";
    std::fs::write(dir.path().join("fleet.yaml"), fleet).unwrap();
    std::fs::write(
        dir.path().join("other.yaml"),
        "extends: startrek\nships:\n  Scout: {}\n",
    )
    .unwrap();
    let uri = format!("file://{}", club.display());
    let (child, mut c) = start_in(dir.path(), cache.path());
    let text = format!("{BASE}tactic {{ rival = \"Scout\" }}\n");
    open(&mut c, &uri, &text);
    c.notification("textDocument/publishDiagnostics");
    let mut params = at(&uri, 19, 19);
    params["newName"] = json!("Long Scout");
    let r = c.request("textDocument/rename", params);
    let changes = &r["result"]["changes"];
    let mine = &changes[uri.as_str()];
    assert_eq!(mine.as_array().map(Vec::len), Some(2), "{r}");
    let renamed = apply(&text, mine);
    assert!(
        renamed.contains("  new \"Long Scout\" {\n") && renamed.contains("rival = \"Long Scout\""),
        "{renamed}"
    );
    assert!(!renamed.contains("\"Scout\""), "{renamed}");
    let fleet_uri = format!(
        "file://{}",
        dir.path()
            .canonicalize()
            .unwrap()
            .join("fleet.yaml")
            .display()
    );
    let theirs = changes
        .as_object()
        .unwrap()
        .iter()
        .find(|(k, _)| k.ends_with("/fleet.yaml"))
        .map(|(_, v)| v)
        .unwrap_or_else(|| panic!("fleet.yaml is not renamed: {r} ({fleet_uri})"));
    assert_eq!(apply(fleet, theirs), fleet.replace("Scout:", "Long Scout:"));
    assert!(!changes.to_string().contains("other.yaml"), "{r}");
    let mut params = at(&uri, 4, 15);
    params["newName"] = json!("x");
    let r = c.request("textDocument/rename", params);
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("only a ship"),
        "{r}"
    );
    stop(child, c);
}

/// Every "did you mean" diagnostic has a quick fix that writes the suggestion in its place.
#[test]
fn a_did_you_mean_diagnostic_has_a_quick_fix() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let uri = format!("file://{}", dir.path().join("house.rules").display());
    let (child, mut c) = start_in(dir.path(), cache.path());
    let text = "extends startrek\nships {\n  \"UFP heavy cruiser\" {\n    sheilds = 4\n  }\n  \"Klingon battle cruisr\" { shields = 3 }\n}\n";
    open(&mut c, &uri, text);
    let d = c.notification("textDocument/publishDiagnostics");
    let diagnostics = d["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 2, "{d}");
    assert_eq!(
        diagnostics[0]["range"],
        json!({"start": {"line": 3, "character": 4}, "end": {"line": 3, "character": 11}}),
        "{d}"
    );
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri},
               "range": {"start": {"line": 0, "character": 0}, "end": {"line": 7, "character": 0}},
               "context": {"diagnostics": diagnostics}}),
    );
    let actions = r["result"].as_array().unwrap_or_else(|| panic!("{r}"));
    assert_eq!(actions.len(), 2, "{r}");
    assert_eq!(actions[0]["kind"], json!("quickfix"));
    assert_eq!(actions[0]["title"], json!("Change `sheilds` to `shields`"));
    assert_eq!(
        actions[0]["diagnostics"][0]["range"],
        diagnostics[0]["range"]
    );
    let mut fixed = text.to_string();
    for a in actions {
        fixed = apply(&fixed, &a["edit"]["changes"][uri.as_str()]);
    }
    assert_eq!(
        fixed,
        text.replace("sheilds", "shields")
            .replace("cruisr", "cruiser")
    );
    // Fixed, the file has no problem left.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    let d = c.notification("textDocument/publishDiagnostics");
    assert_eq!(d["diagnostics"], json!([]), "{d}");
    stop(child, c);
}

/// Hover on an entry that changes a base's value names the value inherited and the base.
#[test]
fn hover_shows_the_inherited_value_and_its_base() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("club.rules"), BASE).unwrap();
    let uri = format!("file://{}", dir.path().join("house.rules").display());
    let (child, mut c) = start_in(dir.path(), cache.path());
    let text = "extends \"club.rules\"\nships {\n  \"UFP heavy cruiser\" {\n    shields = 15\n    max_speed = 4\n  }\n}\n";
    open(&mut c, &uri, text);
    c.notification("textDocument/publishDiagnostics");
    let shown = |c: &mut Client, line, character| {
        let r = c.request("textDocument/hover", at(&uri, line, character));
        r["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let club = dir.path().canonicalize().unwrap().join("club.rules");
    let h = shown(&mut c, 3, 5);
    assert!(
        h.contains(&format!("Inherited from {}: `14`", club.display())),
        "{h}"
    );
    let h = shown(&mut c, 4, 5);
    assert!(h.contains("Inherited from startrek (built-in): `3`"), "{h}");
    stop(child, c);
}

/// Records are not rulesets: a game record opened in the editor has no diagnostic, and a
/// scenario naming a ship its ruleset lacks gets the one `combat sim --scenario` gives, at the
/// same line and column; its ship names complete and lead to their entry.
#[test]
fn a_record_is_checked_as_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let game = std::fs::read_to_string(format!("{examples}/cep-game.yaml")).unwrap();
    let ambush = std::fs::read_to_string(format!("{examples}/ambush.yaml")).unwrap();
    let scenario = ambush.replace("ship: UFP frigate", "ship: UFP frigat");
    std::fs::write(dir.path().join("ambush.yaml"), &scenario).unwrap();
    let cli = run_in(
        dir.path(),
        &["combat", "sim", "--scenario", "ambush.yaml", "-n", "10"],
        None,
    );
    assert!(!cli.status.success());
    let said = String::from_utf8(cli.stderr).unwrap();

    let (child, mut c) = start_in(dir.path(), cache.path());
    let game_uri = format!("file://{}", dir.path().join("game.yaml").display());
    open(&mut c, &game_uri, &game);
    let d = c.notification("textDocument/publishDiagnostics");
    assert_eq!(d["diagnostics"], json!([]), "{d}");

    let uri = format!("file://{}", dir.path().join("ambush.yaml").display());
    open(&mut c, &uri, &scenario);
    let d = c.notification("textDocument/publishDiagnostics");
    let diagnostics = d["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{d}");
    let message = diagnostics[0]["message"].as_str().unwrap();
    let start = &diagnostics[0]["range"]["start"];
    let line = line_of(&scenario, "ship: UFP frigat");
    assert_eq!(start["line"], json!(line), "{d}");
    let place = format!(
        "ambush.yaml:{}:{}: {message}",
        line + 1,
        start["character"].as_u64().unwrap() + 1
    );
    assert!(said.contains(&place), "{said}\nvs {place}");

    let ships = labels(&mut c, &uri, line, 8);
    assert!(ships.contains(&"UFP frigate".to_string()), "{ships:?}");
    let bird = line_of(&scenario, "ship: Klingon bird of prey");
    let r = c.request("textDocument/definition", at(&uri, bird, 12));
    assert!(
        r["result"]["uri"]
            .as_str()
            .unwrap_or_default()
            .ends_with("/startrek.rules"),
        "{r}"
    );
    stop(child, c);
}

/// Inside a formula: the variables this key's formula may read (each saying what it is), the
/// functions with their signatures, in a half-typed `.rules` formula spanning lines and in a
/// YAML one.
#[test]
fn a_formula_completes_its_variables_and_functions() {
    let dir = tempfile::tempdir().unwrap();
    let (child, mut c) = start(dir.path());
    let uri = format!("file://{}", dir.path().join("long.rules").display());
    let text = "extends cep\nscoring {\n  cep {\n    points = result * max(1,\n      tu";
    open(&mut c, &uri, text);
    c.notification("textDocument/publishDiagnostics");
    let r = c.request("textDocument/completion", at(&uri, 4, 8));
    let items = r["result"].as_array().unwrap_or_else(|| panic!("{r}"));
    let item = |label: &str| {
        items
            .iter()
            .find(|i| i["label"] == label)
            .unwrap_or_else(|| panic!("no {label}: {r}"))
    };
    // CompletionItemKind: 3 function, 6 variable.
    assert_eq!(item("turns")["kind"], json!(6));
    let turns = item("turns")["documentation"]["value"].as_str().unwrap();
    assert!(turns.contains("how many turns the game lasted"), "{turns}");
    assert!(turns.contains("scoring.cep.points"), "{turns}");
    assert_eq!(item("grade_index")["kind"], json!(6));
    assert_eq!(item("max")["kind"], json!(3));
    assert_eq!(item("clamp")["detail"], json!("clamp(x, lo, hi)"));
    assert!(!items.iter().any(|i| i["label"] == "rating"), "{r}");
    assert!(!items.iter().any(|i| i["label"] == "shields"), "{r}");

    let uri = format!("file://{}", dir.path().join("k.yaml").display());
    open(&mut c, &uri, "extends: elo\nscoring:\n  elo:\n    k: if ga");
    c.notification("textDocument/publishDiagnostics");
    let k = labels(&mut c, &uri, 3, 12);
    for wanted in ["games", "idle_days", "field", "round", "and"] {
        assert!(k.contains(&wanted.to_string()), "{wanted}: {k:?}");
    }
    // `initial` is the decay formula's, not k's.
    assert!(!k.contains(&"initial".to_string()), "{k:?}");
    stop(child, c);
}

mod balance;
mod typing;
