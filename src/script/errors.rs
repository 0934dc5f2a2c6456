//! Script errors as arbiter errors: `SCRIPT:LINE:COL: message`, with the line and a caret.
use crate::error::{Error, Source, Span};
use rhai::{EvalAltResult, ParseError, Position};
use std::sync::Arc;

/// A compile error in `source`.
pub(crate) fn parse_error(source: &Arc<Source>, e: &ParseError) -> Error {
    let mut message = e.err_type().to_string();
    if message.contains("'import'") || message.contains("'export'") {
        message = "modules are not available: scripts run sandboxed, without `import` or file \
                   access"
            .to_string();
    }
    locate(source, e.position(), message)
}

/// A run-time error in `source`. An error inside a function reports where it happened and
/// names the calls that led there ("in `f` called at 3:5").
pub(crate) fn eval_error(source: &Arc<Source>, e: &EvalAltResult) -> Error {
    let mut calls = Vec::new();
    let mut inner = e;
    while let EvalAltResult::ErrorInFunctionCall(name, _, next, pos) = inner {
        let name = if name.starts_with("anon$") {
            "a closure"
        } else {
            name.as_str()
        };
        calls.push(match (pos.line(), pos.position()) {
            (Some(l), Some(c)) => format!("in `{name}` called at {l}:{c}"),
            _ => format!("in `{name}`"),
        });
        inner = next;
    }
    let position = inner.position();
    let mut message = describe(inner);
    if !calls.is_empty() {
        calls.reverse();
        message = format!("{message} ({})", calls.join(", "));
    }
    if position.is_none() {
        // No position of its own (raised inside a native call): use the outermost one.
        return locate(source, e.position(), message);
    }
    locate(source, position, message)
}

/// The message of one error, without rhai's own "(line L, position C)" suffix.
fn describe(e: &EvalAltResult) -> String {
    match e {
        EvalAltResult::ErrorRuntime(value, _) => super::api::convert::error_text(value),
        EvalAltResult::ErrorTerminated(reason, _) => reason.to_string(),
        EvalAltResult::ErrorTooManyOperations(_) => {
            "the script did too much work (operation limit reached; an endless loop?)".to_string()
        }
        EvalAltResult::ErrorStackOverflow(_) => {
            "calls nested too deeply (call limit reached; endless recursion?)".to_string()
        }
        EvalAltResult::ErrorFunctionNotFound(signature, _) => not_found(signature),
        EvalAltResult::ErrorDataTooLarge(what, _) => {
            format!("{what} is over the sandbox limit (runaway growth?)")
        }
        other => {
            let text = other.to_string();
            match text.rfind(" (line ") {
                Some(i) if text.ends_with(')') => text[..i].to_string(),
                _ => text,
            }
        }
    }
}

/// rhai's "Function not found: simulte (RulesHandle, &str | ImmutableString | String)" in the
/// API's words: a name nearly right gets "did you mean", a known name called wrongly its usage.
fn not_found(signature: &str) -> String {
    let (name, args) = match signature.split_once(" (") {
        Some((name, args)) => (name.trim(), args.trim_end_matches(')')),
        None => (signature.trim(), ""),
    };
    let args = args
        .split(", ")
        .filter(|a| !a.is_empty())
        .map(friendly_type)
        .collect::<Vec<_>>()
        .join(", ");
    let docs = super::api::help();
    let usages: Vec<&str> = docs
        .iter()
        .filter(|d| d.name == name)
        .map(|d| d.usage)
        .collect();
    if !usages.is_empty() {
        return format!(
            "`{name}` cannot take ({args}); call it as {}",
            usages.join(" or ")
        );
    }
    if let Some(field) = name
        .strip_prefix("get$")
        .or_else(|| name.strip_prefix("set$"))
    {
        return format!("no property `{field}` on a {args}");
    }
    format!(
        "unknown function `{name}` for ({args}){}; :help lists the API",
        crate::names::suggestion(name, docs.iter().map(|d| d.name))
    )
}

/// A rhai or Rust type name as a script writer knows it.
fn friendly_type(name: &str) -> &str {
    let name = name.trim();
    if name.contains("ImmutableString") || name == "&str" || name == "String" {
        return "string";
    }
    match name.rsplit("::").next().unwrap_or(name) {
        "i64" | "i32" | "INT" => "int",
        "f64" | "f32" | "FLOAT" => "float",
        "bool" => "bool",
        "char" => "char",
        "()" => "()",
        "RulesHandle" | "Ruleset" => "ruleset",
        "Node" => "ruleset section",
        "Map" | "BTreeMap<SmartString, Dynamic>" => "map",
        "Array" | "Vec<Dynamic>" => "array",
        "FnPtr" => "Fn",
        other => other,
    }
}

fn locate(source: &Arc<Source>, position: Position, message: String) -> Error {
    match (position.line(), position.position()) {
        (Some(line), col) => Span::new(source, line, col.unwrap_or(1)).at(message),
        _ => Error::msg(format!("{}: {message}", source.name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(text: &str) -> Arc<Source> {
        Arc::new(Source {
            name: "t.rhai".into(),
            text: text.into(),
        })
    }

    #[test]
    fn parse_errors_name_file_line_and_column() {
        let s = source("let x = 1;\nlet = 2;");
        let e = rhai::Engine::new().compile(&s.text).unwrap_err();
        let shown = parse_error(&s, &e).to_string();
        assert!(shown.starts_with("t.rhai:2:5: "), "{shown}");
    }

    #[test]
    fn errors_inside_functions_point_inside_and_name_the_call() {
        let s = source("fn f(x) {\n  x / 0\n}\nf(1)");
        let e = rhai::Engine::new().run(&s.text).unwrap_err();
        let shown = eval_error(&s, &e).to_string();
        assert!(shown.starts_with("t.rhai:2:5: "), "{shown}");
        assert!(shown.contains("in `f` called at 4:1"), "{shown}");
    }

    #[test]
    fn an_unknown_function_gets_did_you_mean_and_a_known_one_its_usage() {
        assert_eq!(
            not_found("simulte (&str | ImmutableString | String, i64)"),
            "unknown function `simulte` for (string, int) (did you mean `simulate`?); \
             :help lists the API"
        );
        let wrong = not_found("dice (i64)");
        assert!(
            wrong.starts_with("`dice` cannot take (int); call it as dice("),
            "{wrong}"
        );
    }
}
