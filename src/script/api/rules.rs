//! `rules(name_or_path)` and reading and writing ruleset values from a script.
//!
//! ```rhai
//! let r = rules("startrek");
//! r.ship("UFP heavy cruiser").shields = 9;     // writes back into r (checked)
//! r.get("combat.start_distance");              // any value by path
//! r.set("combat.start_distance", 8);
//! r.extend("house.rules");                     // or r.extend(#{ combat: #{ start_distance: 6 } })
//! r.save("house.rules");                       // REPL or --allow-write only
//! ```
use super::convert::{checked, dynamic_to_json, json_to_dynamic, script_error, ScriptResult};
use super::fields::fields_at;
use super::ApiDoc;
use crate::script::engine::Session;
use crate::script::hook::CompiledHook;
use crate::script::sandbox::engine_call;
use crate::{
    rules::edit::{parse_path, show_path},
    script::handle::{Node, RulesHandle},
};
use rhai::{Array, Dynamic, Engine};
use serde_json::Value;

pub(crate) const HELP: &[ApiDoc] = &[
    ApiDoc::new(
        "rules",
        "rules(name_or_path)",
        "load a ruleset (built-in name or file) to read and change",
    ),
    ApiDoc::new(
        "rules",
        "rules()",
        "the session's ruleset (--rules, or :rules in the REPL)",
    ),
    ApiDoc::new(
        "ship",
        "r.ship(name)",
        "a ship of r by name or alias; its fields read and write back (s.shields = 9)",
    ),
    ApiDoc::new("ship_names", "r.ship_names()", "the names of r's ships"),
    ApiDoc::new(
        "get",
        "r.get(path)",
        "a value by path: r.get(\"combat.start_distance\")",
    ),
    ApiDoc::new(
        "set",
        "r.set(path, value)",
        "change a value by path (checked; () removes it)",
    ),
    ApiDoc::new(
        "extend",
        "r.extend(path_or_map)",
        "apply an overlay (a house-rule file or a map), like extends",
    ),
    ApiDoc::new(
        "changes",
        "r.changes()",
        "what was changed since loading, as an overlay map",
    ),
    ApiDoc::new(
        "copy",
        "r.copy()",
        "an independent copy of r (let v = r shares it)",
    ),
    ApiDoc::new(
        "to_map",
        "r.to_map()",
        "the whole ruleset (or a ship, a section) as a plain map",
    ),
    ApiDoc::new(
        "save",
        "r.save(path)",
        "write r as .rules/.yaml/.json (REPL or --allow-write only)",
    ),
    ApiDoc::new(
        "save_changes",
        "r.save_changes(path)",
        "write `extends` plus the changes: a house-rule file",
    ),
    ApiDoc::new(
        "hook",
        "r.hook(rule, args)",
        "call the ruleset's rhai hook for a rule with an array of arguments",
    ),
    ApiDoc::new(
        "keys",
        "node.keys()",
        "the keys of a ship or section (r.ships.keys())",
    ),
];

pub(crate) fn register(engine: &mut Engine, session: &Session) {
    engine.register_type_with_name::<RulesHandle>("Ruleset");
    engine.register_type_with_name::<Node>("RulesNode");

    engine.register_fn("rules", |reference: &str| -> ScriptResult<RulesHandle> {
        // A path passes the read policy here; loading checks again (a bare name is a built-in).
        if reference.contains(['/', '\\', '.']) {
            super::convert::readable(reference, crate::io::policy::Kind::Ruleset)?;
        }
        checked(engine_call(|| RulesHandle::load(reference)))
    });
    let s = session.clone();
    engine.register_fn("rules", move || -> ScriptResult<RulesHandle> {
        checked(s.current())
    });

    engine.register_fn("ship", |r: &mut RulesHandle, name: &str| {
        checked(r.ship(name))
    });
    engine.register_fn("ship_names", |r: &mut RulesHandle| -> Array {
        r.ship_names().into_iter().map(Dynamic::from).collect()
    });
    engine.register_fn(
        "get",
        |r: &mut RulesHandle, path: &str| -> ScriptResult<Dynamic> {
            let node = Node {
                rules: r.clone(),
                path: r.resolve(&parse_path(path)),
            };
            read(&node.path, &node.rules)
        },
    );
    engine.register_fn(
        "set",
        |r: &mut RulesHandle, path: &str, value: Dynamic| -> ScriptResult<()> {
            let p = r.resolve(&parse_path(path));
            write(r, &p, &value)
        },
    );
    engine.register_fn(
        "extend",
        |r: &mut RulesHandle, overlay: Dynamic| -> ScriptResult<RulesHandle> {
            let doc = super::convert::input_doc(&overlay, "an overlay")?;
            checked(r.extend(doc))?;
            Ok(r.clone())
        },
    );
    engine.register_fn("changes", |r: &mut RulesHandle| {
        json_to_dynamic(&r.changes())
    });
    engine.register_fn("copy", |r: &mut RulesHandle| r.copy());
    engine.register_fn("to_map", |r: &mut RulesHandle| json_to_dynamic(&r.tree()));
    engine.register_fn("name", |r: &mut RulesHandle| r.name());
    for (name, house_rule) in [("save", false), ("save_changes", true)] {
        let writes = session.writes.clone();
        engine.register_fn(
            name,
            move |r: &mut RulesHandle, path: &str| -> ScriptResult<()> {
                let call = format!("r.{name}(\"{path}\")");
                checked(writes.write(&call, path, || engine_call(|| r.save(path, house_rule))))
            },
        );
    }
    engine.register_fn(
        "hook",
        |r: &mut RulesHandle, rule: &str, args: Array| -> ScriptResult<Dynamic> {
            let hook = r.with(|rs| crate::script::hook::compiled(rs, rule));
            let hook = hook
                .as_deref()
                .and_then(|h| h.as_any().downcast_ref::<CompiledHook>());
            match hook {
                Some(h) => checked(h.call_dynamic(args.into_iter().collect())),
                None => {
                    let hooks: Vec<String> = r.with(|rs| {
                        rs.script
                            .as_ref()
                            .map(|s| s.hooks.keys().cloned().collect())
                            .unwrap_or_default()
                    });
                    let known = if hooks.is_empty() {
                        "it names none (a ruleset names them in `script { hooks { RULE = \
                         \"FILE.rhai\" } }`)"
                            .to_string()
                    } else {
                        format!("its hooks: {}", hooks.join(", "))
                    };
                    Err(script_error(format!(
                        "ruleset `{}` has no hook for `{rule}`{}; {known}",
                        r.name(),
                        crate::names::suggestion(rule, hooks.iter().map(String::as_str)),
                    )))
                }
            }
        },
    );
    engine.register_indexer_get(|r: &mut RulesHandle, key: &str| -> ScriptResult<Dynamic> {
        // `r.ship[NAME]` (what `r.ship(NAME)` is read as on the left of `=`) is `r.ships[NAME]`.
        let root = Node {
            rules: r.clone(),
            path: Vec::new(),
        };
        node_get(&root, if key == "ship" { "ships" } else { key })
    });
    engine.register_indexer_set(
        |r: &mut RulesHandle, key: &str, value: Dynamic| -> ScriptResult<()> {
            let root = Node {
                rules: r.clone(),
                path: Vec::new(),
            };
            node_set(&root, if key == "ship" { "ships" } else { key }, &value)
        },
    );
    engine.register_fn("to_string", |r: &mut RulesHandle| describe(r));
    engine.register_fn("to_debug", |r: &mut RulesHandle| describe(r));

    engine.register_indexer_get(|n: &mut Node, key: &str| node_get(n, key));
    engine.register_indexer_set(|n: &mut Node, key: &str, value: Dynamic| node_set(n, key, &value));
    engine.register_fn("keys", |n: &mut Node| -> ScriptResult<Array> {
        match checked(n.value())? {
            Value::Object(map) => Ok(map.keys().cloned().map(Dynamic::from).collect()),
            _ => Ok(Array::new()),
        }
    });
    engine.register_fn("len", |n: &mut Node| -> ScriptResult<rhai::INT> {
        Ok(match checked(n.value())? {
            Value::Object(map) => map.len() as rhai::INT,
            Value::Array(items) => items.len() as rhai::INT,
            _ => 0,
        })
    });
    engine.register_fn("to_map", |n: &mut Node| -> ScriptResult<Dynamic> {
        Ok(json_to_dynamic(&checked(n.value())?))
    });
    engine.register_fn("to_string", |n: &mut Node| node_text(n));
    engine.register_fn("to_debug", |n: &mut Node| node_text(n));
}

/// `node.key`: a section or ship comes back as a node (edits write through), a value as a value.
fn node_get(node: &Node, key: &str) -> ScriptResult<Dynamic> {
    let path = node.child(key);
    read(&path, &node.rules)
}

fn read(path: &[String], rules: &RulesHandle) -> ScriptResult<Dynamic> {
    match rules.value_at(path) {
        Some(Value::Object(_)) => Ok(Dynamic::from(Node {
            rules: rules.clone(),
            path: path.to_vec(),
        })),
        Some(v) => Ok(json_to_dynamic(&v)),
        None => {
            let (key, parent) = path
                .split_last()
                .map(|(k, p)| (k.as_str(), p))
                .unwrap_or(("", &[]));
            if parent.len() == 1 && parent[0] == "ships" {
                return checked(rules.ship(key).map(|_| Dynamic::UNIT));
            }
            match fields_at(parent) {
                // A field the model knows but this ruleset leaves out.
                Some(fields) if fields.contains(&key) => Ok(Dynamic::UNIT),
                Some(fields) => Err(unknown_key(key, parent, fields.iter().copied())),
                None => match rules.value_at(parent) {
                    Some(Value::Object(map)) => {
                        Err(unknown_key(key, parent, map.keys().map(|k| k.as_str())))
                    }
                    _ => Err(script_error(format!(
                        "`{}` is not in the ruleset",
                        show_path(path)
                    ))),
                },
            }
        }
    }
}

fn node_set(node: &Node, key: &str, value: &Dynamic) -> ScriptResult<()> {
    let path = node.child(key);
    write(&node.rules, &path, value)
}

fn write(rules: &RulesHandle, path: &[String], value: &Dynamic) -> ScriptResult<()> {
    // rhai writes a property back after changing something inside it (`r.combat.x = 1` ends
    // with `r.combat = <that node>`): a node put back where it is changes nothing.
    if let Some(n) = value.read_lock::<Node>() {
        if n.rules.same_as(rules) && n.path == path {
            return Ok(());
        }
    }
    if let Some((key, parent)) = path.split_last() {
        if let Some(fields) = fields_at(parent) {
            if !fields.contains(&key.as_str()) {
                return Err(unknown_key(key, parent, fields.iter().copied()));
            }
        }
    }
    let json = dynamic_to_json(value)
        .map_err(|e| script_error(format!("cannot set `{}`: {e}", show_path(path))))?;
    checked(engine_call(|| rules.set(path, json)))
}

fn unknown_key<'a>(
    key: &str,
    parent: &[String],
    known: impl IntoIterator<Item = &'a str> + Clone,
) -> Box<rhai::EvalAltResult> {
    let hint = crate::names::suggestion(key, known.clone());
    let list: Vec<&str> = known.into_iter().collect();
    let place = if parent.is_empty() {
        "a ruleset".to_string()
    } else {
        format!("`{}`", show_path(parent))
    };
    script_error(format!(
        "{place} has no `{key}`{hint}; it has: {}",
        list.join(", ")
    ))
}

fn describe(r: &mut RulesHandle) -> String {
    let ships = r.ship_names();
    format!(
        "ruleset `{}` ({} ship{})",
        r.name(),
        ships.len(),
        if ships.len() == 1 { "" } else { "s" }
    )
}

fn node_text(n: &mut Node) -> String {
    match n.value() {
        Ok(v) => format!(
            "{}: {}",
            n.shown(),
            serde_json::to_string(&v).unwrap_or_default()
        ),
        Err(e) => e.to_string(),
    }
}
