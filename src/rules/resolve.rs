//! Which ruleset an input names, for every command and the script API alike: the one typed
//! (`--rules`), else the input's own `rules:` (a relative path from the input's folder), else
//! the command's default. A problem with the ruleset is reported at the ruleset: its own file's
//! line, or `--rules R: ...`, or the input's `rules:` line (the line that named it), never at
//! some other line of the input.
use super::load::{self};
use super::model::Ruleset;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// Where the ruleset came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum How {
    /// `--rules` (or a script's own choice), as typed.
    Typed,
    /// The input's `rules:` line.
    Named,
    /// The command's default.
    Default,
}

/// What a command knows when it picks a ruleset.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Choice<'a> {
    /// `--rules`, as typed.
    pub typed: Option<&'a str>,
    /// The input's `rules:` and the input's path (a relative reference starts beside it).
    pub named: Option<(&'a str, Option<&'a str>)>,
    /// The built-in used when neither names one.
    pub default: &'a str,
}

/// The chosen ruleset, how it was chosen, and the reference it was chosen by.
#[derive(Debug, Clone)]
pub(crate) struct Chosen {
    pub ruleset: Ruleset,
    pub how: How,
    pub reference: String,
}

impl Choice<'_> {
    /// The reference this choice resolves to, and how.
    pub(crate) fn reference(&self) -> (String, How) {
        match (self.typed, self.named) {
            (Some(t), _) => (t.to_string(), How::Typed),
            (None, Some((n, _))) => (n.to_string(), How::Named),
            (None, None) => (self.default.to_string(), How::Default),
        }
    }

    /// Load the chosen ruleset and check it has what the command needs (`needs` says what is
    /// missing, in words: "has no `scoring` section"). An error inside a ruleset file keeps its
    /// own place; any other is said of the ruleset (`--rules startrek: ...`), or, for the
    /// input's `rules:`, left unplaced for the caller to put at that line (`at_rules_line`).
    pub(crate) fn load(
        &self,
        needs: impl Fn(&Ruleset) -> Option<String>,
        at_rules_line: impl FnOnce(Error) -> Error,
    ) -> Result<Chosen> {
        let (reference, how) = self.reference();
        let loaded = match (how, self.named) {
            (How::Named, Some((n, input))) => load::load_beside(n, input),
            _ => load::load(&reference),
        };
        let checked = loaded.and_then(|r| match needs(&r) {
            Some(missing) => Err(Error::msg(format!("ruleset `{}` {missing}", r.name))),
            None => Ok(r),
        });
        let ruleset = checked.map_err(|e| {
            if e.is_located() {
                return e;
            }
            match how {
                How::Typed => e.context(&format!("--rules {reference}")),
                How::Named => at_rules_line(e),
                How::Default => e.context(&format!("the default ruleset `{reference}`")),
            }
        })?;
        Ok(Chosen {
            ruleset,
            how,
            reference,
        })
    }
}

impl Chosen {
    /// Which ruleset this is and why, in words (`ruleset `cep`: named by the input's `rules:`
    /// line`).
    pub(crate) fn why(&self) -> String {
        let why = match self.how {
            How::Typed => "chosen on the command line (or by the script)",
            How::Named => "named by the input's `rules:` line",
            How::Default => "the command's default",
        };
        let name = &self.ruleset.name;
        // The hash's first 12 digits, as `rules hash` prints it whole: enough to tell apart.
        let hash = super::identity::hash(&self.ruleset);
        let short = hash.get(..12).unwrap_or(&hash);
        if *name == self.reference {
            format!("ruleset `{name}` (sha256 {short}…): {why}")
        } else {
            format!(
                "ruleset `{name}` from {} (sha256 {short}…): {why}",
                self.reference
            )
        }
    }
}

/// How a record (a season, a tournament) at `record` writes down a ruleset typed on the
/// command line as `typed`, so that reading its `rules:` beside the record finds the same
/// file from any folder: a built-in's name as it is; a path, from the record's folder.
pub(crate) fn recorded_reference(typed: &str, record: &str) -> String {
    let looks_like_path = typed.contains(['/', '\\', '.']);
    if !looks_like_path && super::builtin::find(typed).is_some() {
        return typed.to_string();
    }
    let folder = match Path::new(record).parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (Ok(target), Ok(folder)) = (std::fs::canonicalize(typed), std::fs::canonicalize(folder))
    else {
        return typed.to_string();
    };
    let shared = target
        .components()
        .zip(folder.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut relative = PathBuf::new();
    for _ in folder.components().skip(shared) {
        relative.push("..");
    }
    for part in target.components().skip(shared) {
        relative.push(part);
    }
    relative.to_string_lossy().into_owned()
}

/// `needs` for commands that score or rate: a `scoring` section.
pub(crate) fn needs_scoring(r: &Ruleset) -> Option<String> {
    r.scoring
        .is_none()
        .then(|| "has no `scoring` section".to_string())
}

/// `needs` for Swiss tournaments: a `swiss` section.
pub(crate) fn needs_swiss(r: &Ruleset) -> Option<String> {
    r.swiss
        .is_none()
        .then(|| "has no `swiss` section (try --rules swiss)".to_string())
}

/// `needs` for a command that takes any ruleset.
pub(crate) fn needs_nothing(_: &Ruleset) -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_then_named_then_default() {
        let c = Choice {
            typed: Some("figf"),
            named: Some(("elo", None)),
            default: "startrek",
        };
        assert_eq!(c.reference(), ("figf".to_string(), How::Typed));
        let c = Choice { typed: None, ..c };
        assert_eq!(c.reference(), ("elo".to_string(), How::Named));
        let c = Choice { named: None, ..c };
        assert_eq!(c.reference(), ("startrek".to_string(), How::Default));
    }

    #[test]
    fn a_ruleset_without_what_is_needed_is_said_of_the_ruleset() {
        let typed = Choice {
            typed: Some("startrek"),
            named: Some(("elo", None)),
            default: "elo",
        };
        let e = typed.load(needs_scoring, |e| e).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--rules startrek: ruleset `startrek` has no `scoring` section"
        );
        let named = Choice {
            typed: None,
            named: Some(("startrek", None)),
            default: "elo",
        };
        let e = named
            .load(needs_scoring, |e| e.context("at the rules line"))
            .unwrap_err();
        assert!(e.to_string().starts_with("at the rules line: "), "{e}");
        let default = Choice {
            typed: None,
            named: None,
            default: "startrek",
        };
        let e = default.load(needs_swiss, |e| e).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("the default ruleset `startrek`: ruleset `startrek` has no `swiss`"),
            "{e}"
        );
        let ok = default.load(needs_nothing, |e| e).unwrap();
        assert_eq!(
            (ok.how, ok.ruleset.name.as_str()),
            (How::Default, "startrek")
        );
    }

    #[test]
    fn a_typed_path_is_recorded_from_the_records_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sw")).unwrap();
        std::fs::write(dir.path().join("club.rules"), "name = club\n").unwrap();
        let typed = dir.path().join("club.rules");
        let record = dir.path().join("sw/t.yaml");
        assert_eq!(
            recorded_reference(typed.to_str().unwrap(), record.to_str().unwrap()),
            "../club.rules"
        );
        assert_eq!(recorded_reference("swiss", "sw/t.yaml"), "swiss");
    }
}
