//! A ruleset file in its canonical layout, comments kept: what `rules fmt` writes and what
//! `rules convert` gives in the other format.
use super::comments::Comments;
use super::doc::Doc;
use super::edit::Syntax;
use super::{lang, yaml};
use crate::error::{Error, Result};
use crate::io::Format;
use serde_json::Value;

/// Parse text of either format with its comments.
pub fn parse_with_comments(name: &str, text: &str, format: Format) -> Result<(Doc, Comments)> {
    match format {
        Format::Rules => lang::parse_with_comments(name, text),
        Format::Yaml => yaml::parse_with_comments(name, text),
    }
}

/// A value tree as text with its comments (JSON has none: they are left out).
pub fn render_with_comments(value: &Value, comments: &Comments, syntax: Syntax) -> String {
    match syntax {
        Syntax::Rules => lang::write_with_comments(value, comments),
        Syntax::Yaml => crate::rules::yaml_write::write_with_comments(value, comments),
        Syntax::Json => super::edit::render(value, Syntax::Json),
    }
}

/// The canonical layout of a ruleset file's text, in the syntax its name asks for. Text that
/// is not in that syntax is refused, never laid out as something else (rules-language text in
/// a `.yaml` file reads as YAML, but as one long string).
pub fn formatted(path: &str, text: &str) -> Result<String> {
    let syntax = Syntax::of_path(path)?;
    if syntax == Syntax::Json {
        if let Err(e) = serde_json::from_str::<Value>(text) {
            return Err(Error::msg(format!(
                "{path}: is not JSON ({e}); rename it to what it holds (.yaml, .rules)"
            )));
        }
    }
    let (doc, comments) = parse_with_comments(path, text, Format::of(path))?;
    if !matches!(doc.value, Value::Object(_) | Value::Array(_)) {
        let holds = match &doc.value {
            Value::Null => "nothing but comments",
            Value::String(_) if lang::parse(path, text).is_ok() => {
                "rules-language text (YAML reads it as one string); rename it to .rules"
            }
            Value::String(_) => "one string",
            _ => "one value",
        };
        return Err(Error::msg(format!(
            "{path}: is not a YAML document of keys: it holds {holds}"
        )));
    }
    Ok(render_with_comments(&doc.value, &comments, syntax))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_not_in_its_extensions_format_is_refused() {
        let rules = "name = house\nships {\n  a { shields = 1 }\n}\n";
        let e = formatted("house.yaml", rules).unwrap_err().to_string();
        assert!(
            e.contains("house.yaml: is not a YAML document of keys")
                && e.contains("rules-language text"),
            "{e}"
        );
        let e = formatted("x.yml", "just words\n").unwrap_err().to_string();
        assert!(e.ends_with("it holds one string"), "{e}");
        let e = formatted("x.json", "name: house\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("x.json: is not JSON"), "{e}");
        assert_eq!(
            formatted("x.yaml", "name:   house\n").unwrap(),
            "name: house\n"
        );
    }

    fn convert(name: &str, text: &str, to: Syntax) -> String {
        let (doc, comments) = parse_with_comments(name, text, Format::of(name)).unwrap();
        render_with_comments(&doc.value, &comments, to)
    }

    /// Every kind of place a comment can have, in the canonical layout.
    const EVERY_PLACE: &str = r#"# header comment
# second line
extends startrek  # the base

name = house  # trailing name
description = "x # not a comment"

ships {  # ships trailing
  # before heavy
  "UFP heavy cruiser" {
    shields = 12  # more shields
    aliases = [a, b]  # alias note
    # end of heavy
  }
  # end of ships
}

combat {
  list = [
    # before first
    1,  # one
    2,
    # end of list
  ]
  nested = [
    {  # the first item
      # before a
      a = 1
    },
    [  # the second item
      1,
      # end of the inner list
    ],
  ]

  empty {  # empty section
    # inside empty
  }

  none = []  # an empty list
}

# end of file
"#;

    #[test]
    fn every_comment_survives_rules_yaml_rules_in_its_place() {
        assert_eq!(formatted("c.rules", EVERY_PLACE).unwrap(), EVERY_PLACE);
        let yaml = convert("c.rules", EVERY_PLACE, Syntax::Yaml);
        assert_eq!(formatted("c.yaml", &yaml).unwrap(), yaml, "{yaml}");
        assert_eq!(
            convert("c.yaml", &yaml, Syntax::Rules),
            EVERY_PLACE,
            "{yaml}"
        );
        let (_, comments) = parse_with_comments("c.yaml", &yaml, Format::Yaml).unwrap();
        assert_eq!(comments.count(), 21);
    }

    #[test]
    fn a_header_parted_by_a_blank_line_stays_the_files_in_both_formats() {
        let text = "# Our club's house rule.\n# Agreed at the May meeting.\n\n# the base\n\
                    extends startrek\n\nname = house\n";
        assert_eq!(formatted("h.rules", text).unwrap(), text);
        let yaml = convert("h.rules", text, Syntax::Yaml);
        assert!(
            yaml.starts_with("# Our club's house rule.\n# Agreed at the May meeting.\n\n# the base\nextends: startrek\n"),
            "{yaml}"
        );
        assert_eq!(formatted("h.yaml", &yaml).unwrap(), yaml);
        assert_eq!(convert("h.yaml", &yaml, Syntax::Rules), text);
        // Without the blank line the comment is the first key's, as before.
        let joined = "# the base\nextends startrek\n\nname = house\n";
        assert_eq!(formatted("j.rules", joined).unwrap(), joined);
    }
}
