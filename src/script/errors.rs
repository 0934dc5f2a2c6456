//! Script errors as arbiter errors: `SCRIPT:LINE:COL: message`, with the line and a caret.
use crate::error::{Error, Source, Span};
use rhai::{EvalAltResult, ParseError, Position};
use std::sync::Arc;

/// A compile error in `source`.
pub fn parse_error(source: &Arc<Source>, e: &ParseError) -> Error {
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
pub fn eval_error(source: &Arc<Source>, e: &EvalAltResult) -> Error {
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
        EvalAltResult::ErrorRuntime(value, _) => value.to_string(),
        EvalAltResult::ErrorTerminated(reason, _) => reason.to_string(),
        EvalAltResult::ErrorTooManyOperations(_) => {
            "the script did too much work (operation limit reached; an endless loop?)".to_string()
        }
        EvalAltResult::ErrorStackOverflow(_) => {
            "calls nested too deeply (call limit reached; endless recursion?)".to_string()
        }
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
}
