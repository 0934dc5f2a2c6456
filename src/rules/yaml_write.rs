//! Writing YAML in one canonical layout (block mappings and lists, two spaces a level; short
//! ones of scalars in flow style on one line), with
//! each comment at its node. Scalars are written as the YAML library writes them, so they
//! read back as the same values.
use super::comments::{push_after, push_before, push_end, Comments, Notes};
use serde_json::{Map, Value};
use yaml_rust2::scanner::TScalarStyle;

/// Write a value tree with its comments.
pub fn write_with_comments(value: &Value, comments: &Comments) -> String {
    let writer = Writer {
        comments,
        marked: comments.commented_paths(),
    };
    let mut out = String::new();
    super::comments::push_header(&mut out, comments);
    let notes = comments.get("");
    match value {
        Value::Object(map) if !map.is_empty() => writer.mapping(map, "", 0, &mut out, false),
        Value::Array(items) if !items.is_empty() => writer.sequence(items, "", 0, &mut out),
        other => {
            out.push_str(&scalar_or_empty(other));
            out.push('\n');
        }
    }
    if notes.is_some_and(|n| !n.end.is_empty()) {
        out.push('\n');
        push_end(&mut out, "", notes);
    }
    out
}

struct Writer<'a> {
    comments: &'a Comments,
    /// The pointers with comments at or below them.
    marked: std::collections::HashSet<String>,
}

impl Writer<'_> {
    /// Entries at `indent`; with `inline_first`, the first goes on the line already begun
    /// (a list item's `- `).
    fn mapping(
        &self,
        map: &Map<String, Value>,
        base: &str,
        indent: usize,
        out: &mut String,
        inline_first: bool,
    ) {
        let pad = " ".repeat(indent);
        for (i, (k, v)) in map.iter().enumerate() {
            let pointer = self.comments.child(base, k);
            let notes = self.comments.get(&pointer);
            if !(inline_first && i == 0) {
                push_before(out, &pad, notes);
                out.push_str(&pad);
            }
            out.push_str(&scalar(&Value::String(k.clone())));
            out.push(':');
            self.node(v, &pointer, indent, notes, false, out);
        }
    }

    fn sequence(&self, items: &[Value], base: &str, indent: usize, out: &mut String) {
        let pad = " ".repeat(indent);
        for (i, item) in items.iter().enumerate() {
            let pointer = self.comments.child(base, &i.to_string());
            let notes = self.comments.get(&pointer);
            push_before(out, &pad, notes);
            out.push_str(&pad);
            out.push('-');
            match item {
                // `- key: value`, unless the item or its first key has comments of its own.
                Value::Object(m) if !m.is_empty() && self.compact(notes, m, &pointer) => {
                    out.push(' ');
                    self.mapping(m, &pointer, indent + 2, out, true);
                    push_end(out, &" ".repeat(indent + 2), notes);
                }
                _ => self.node(item, &pointer, indent, notes, true, out),
            }
        }
    }

    fn compact(&self, notes: Option<&Notes>, m: &Map<String, Value>, pointer: &str) -> bool {
        let first = m.keys().next().map(|k| self.comments.child(pointer, k));
        notes.is_none_or(|n| n.after.is_none())
            && first.is_none_or(|f| self.comments.get(&f).is_none_or(|n| n.before.is_empty()))
    }

    /// The rest of an entry after its `key:` or `-`: a scalar on the line, or a collection
    /// below it two columns in.
    fn node(
        &self,
        v: &Value,
        pointer: &str,
        indent: usize,
        notes: Option<&Notes>,
        in_list: bool,
        out: &mut String,
    ) {
        let inner = " ".repeat(indent + 2);
        let has_end = notes.is_some_and(|n| !n.end.is_empty());
        match v {
            // A list item that is a map stays a block (see `Comments::on_one_line`).
            _ if !(in_list && v.is_object())
                && self.comments.on_one_line(v, pointer, &self.marked) =>
            {
                out.push(' ');
                out.push_str(&flow(v));
                push_after(out, notes);
                out.push('\n');
            }
            Value::Object(m) if !m.is_empty() => {
                push_after(out, notes);
                out.push('\n');
                self.mapping(m, pointer, indent + 2, out, false);
                push_end(out, &inner, notes);
            }
            Value::Array(items) if !items.is_empty() => {
                push_after(out, notes);
                out.push('\n');
                self.sequence(items, pointer, indent + 2, out);
                push_end(out, &inner, notes);
            }
            // An empty collection with comments inside keeps them between its brackets.
            Value::Object(_) | Value::Array(_) if has_end => {
                let (open, close) = if v.is_object() {
                    ("{", "}")
                } else {
                    ("[", "]")
                };
                out.push(' ');
                out.push_str(open);
                push_after(out, notes);
                out.push('\n');
                push_end(out, &inner, notes);
                // Deeper than its key, as YAML asks of a flow collection's lines.
                out.push_str(&inner);
                out.push_str(close);
                out.push('\n');
            }
            other => {
                out.push(' ');
                out.push_str(&scalar_or_empty(other));
                push_after(out, notes);
                out.push('\n');
            }
        }
    }
}

/// A map or list of scalars in flow style: `{ a: 1, b: 2 }`, `[1, 2]`.
fn flow(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let entries: Vec<String> = m
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}: {}",
                        flow_scalar(&Value::String(k.clone())),
                        flow_scalar(v)
                    )
                })
                .collect();
            format!("{{ {} }}", entries.join(", "))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(flow_scalar).collect();
            format!("[{}]", items.join(", "))
        }
        other => scalar(other),
    }
}

/// A scalar inside a flow collection, where `,`, brackets and `#` would end a plain one (and
/// our reader takes a ` -` before a closing bracket for the start of another).
fn flow_scalar(v: &Value) -> String {
    let text = scalar(v);
    let ends_plain = |t: &str| t.contains([',', '[', ']', '{', '}', '#']) || t.contains(" -");
    if !text.starts_with(['"', '\'']) && ends_plain(&text) {
        serde_json::to_string(v).expect("scalars serialise")
    } else {
        text
    }
}

fn scalar_or_empty(v: &Value) -> String {
    match v {
        Value::Object(_) => "{}".to_string(),
        Value::Array(_) => "[]".to_string(),
        other => scalar(other),
    }
}

/// A scalar as the YAML library writes it; a string it would spread over lines, or leave plain
/// although it reads back as something else (`1E310` is a number too large), is written
/// double-quoted on one (JSON's quoting is YAML's).
fn scalar(v: &Value) -> String {
    let text = serde_yaml::to_string(v).unwrap_or_default();
    let text = text.strip_suffix('\n').unwrap_or(&text);
    // What our reader makes of it (the writer's library and ours differ on `1E310`).
    let reads_back = || {
        text.starts_with(['"', '\''])
            || super::yaml::scalar_value(text, TScalarStyle::Plain).is_ok_and(|back| back == *v)
    };
    if text.contains('\n') || text.is_empty() || (v.is_string() && !reads_back()) {
        serde_json::to_string(v).expect("scalars serialise")
    } else {
        text.to_string()
    }
}
