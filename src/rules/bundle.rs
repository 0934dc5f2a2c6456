//! A bundle (`rules bundle`): a ruleset with its `extends` resolved, in one self-contained file
//! under a comment header that names its sources and states its hash.
use super::comments::Comments;
use super::edit::{self, Syntax};
use super::identity::Identity;
use super::load::{self};
use crate::error::{Error, Result};
use crate::names::escaped;

/// The bundle of the ruleset `reference` names, written in `syntax` (the rules language or
/// YAML: the header is a comment, which JSON has not). Every name and path in the header is
/// one comment line whatever it holds: a control character in it is written out (`\u{a}`),
/// so no header field can start a line of the ruleset below.
pub fn bundle(reference: &str, syntax: Syntax) -> Result<String> {
    if syntax == Syntax::Json {
        return Err(Error::msg(
            "a bundle is .rules or .yaml (its header is a comment, which JSON has not)",
        ));
    }
    let r = load::load(reference)?;
    let chain = load::chain(reference)?;
    let id = Identity::of(&r);
    let mut text = format!(
        "# Bundled by arbiter {}: `{}`{} with its `extends` resolved, self-contained.\n",
        env!("CARGO_PKG_VERSION"),
        escaped(&id.name),
        id.version
            .as_deref()
            .map(|v| format!(" {}", escaped(v)))
            .unwrap_or_default()
    );
    text.push_str("# Sources, each extending the next:\n");
    for link in &chain {
        let name = link
            .name
            .as_deref()
            .map(|n| format!(" (`{}`", escaped(n)))
            .unwrap_or(" (".into());
        let version = escaped(link.version.as_deref().unwrap_or("no version")).into_owned();
        let sep = if link.name.is_some() { ", " } else { "" };
        // Each base's hash in full: a pin on it can be copied from here.
        let sha = link.sha256.as_deref().unwrap_or("unknown");
        text.push_str(&format!(
            "#   {}{name}{sep}{version}, sha256 {sha})\n",
            escaped(&link.source)
        ));
    }
    text.push_str(&format!(
        "# sha256 {} (`arbiter rules hash` of this file prints the same)\n\n",
        id.sha256
    ));
    let mut tree = edit::tree(&r);
    super::doc::tidy_numbers(&mut tree);
    let comments = chain_comments(&chain, &tree);
    text.push_str(&super::canonical::render_with_comments(
        &tree, &comments, syntax,
    ));
    Ok(text)
}

/// Every comment of every file in the chain, at its node of the bundle, each group under a
/// line naming the file it came from (the base's first). A comment whose node the bundle has
/// not (the `extends` line, a removed entry) goes to the end of the file, still under its
/// source's line. End-of-line comments become lines above their node.
fn chain_comments(chain: &[load::Link], tree: &serde_json::Value) -> Comments {
    let mut merged = Comments::default();
    for link in chain.iter().rev() {
        let from = format!(" (from {})", escaped(&link.source));
        for (pointer, notes) in link.comments.entries() {
            let clean = without_new_markers(pointer);
            let kept = !clean.starts_with("/extends") && tree.pointer(&clean).is_some();
            let at = if kept { clean.as_str() } else { "" };
            let mut group = |lines: Vec<&str>, end: bool| {
                if lines.is_empty() {
                    return;
                }
                let mut add = |text: String| match end || at.is_empty() && !pointer.is_empty() {
                    true => merged.add_end(at, text),
                    false => merged.add_before(at, text),
                };
                add(from.clone());
                for line in lines {
                    add(line.to_string());
                }
            };
            let mut before: Vec<&str> = notes.before.iter().map(String::as_str).collect();
            before.extend(notes.after.as_deref());
            group(before, false);
            group(notes.end.iter().map(String::as_str).collect(), true);
        }
    }
    merged
}

/// A comment's pointer with `new` markers (`+NAME`) taken off its segments.
fn without_new_markers(pointer: &str) -> String {
    crate::pointer::pointer_segments(pointer).fold(String::new(), |p, seg| {
        let seg = seg
            .strip_prefix(super::doc::NEW_MARKER)
            .unwrap_or(&seg)
            .to_string();
        crate::pointer::pointer_push(&p, &seg)
    })
}

/// The hash a bundle's header states (`None` if it states none).
pub fn stated_hash(bundle: &str) -> Option<&str> {
    bundle
        .lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| l.strip_prefix("# sha256 "))
        .and_then(|rest| rest.split_whitespace().next())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_field_with_a_newline_stays_one_comment_line() {
        let d = tempfile::tempdir().unwrap();
        // The base's own name is not validated (the child's name overrides it), so only the
        // header's escaping keeps it in its comment.
        let base = d.path().join("base.rules");
        std::fs::write(
            &base,
            "extends startrek\nname = \"base\\nname = evil\\n# \"\n",
        )
        .unwrap();
        let child = d.path().join("child.rules");
        std::fs::write(&child, "extends \"base.rules\"\nname = child\n").unwrap();
        let text = bundle(child.to_str().unwrap(), Syntax::Rules).unwrap();
        let header: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
        assert!(header.iter().all(|l| l.starts_with('#')), "{text}");
        assert!(text.contains("(`base\\u{a}name = evil\\u{a}# `"), "{text}");
        let r = load::load(child.to_str().unwrap()).unwrap();
        assert_eq!(stated_hash(&text), Some(Identity::of(&r).sha256.as_str()));
        // Each source is named with its own sha256 (the child's is the bundle's).
        let startrek = Identity::of(&load::load("startrek").unwrap()).sha256;
        assert!(
            text.contains(&format!(
                "#   built-in startrek (`startrek`, 2.0.0, sha256 {startrek})\n"
            )),
            "{text}"
        );
        let child_line = format!(
            "child.rules (`child`, no version, sha256 {})\n",
            Identity::of(&r).sha256
        );
        assert!(text.contains(&child_line), "{text}");
    }
}
