//! `arbiter rules list | check | show | convert | fmt | diff | hash | bundle | schema | explain`.
use crate::error::{Error, Result};
use crate::output::{Align, Table};
use crate::rules::changes::{self, Change};
use crate::rules::edit::{self, Syntax};
use crate::rules::explain;
use crate::rules::identity::Identity;
use crate::{
    io::Format,
    rules::{builtin, canonical, load},
};
use clap::{Subcommand, ValueEnum};

#[derive(clap::Args)]
#[command(after_help = "Examples:\
        \n  arbiter rules list\
        \n  arbiter rules check rulesets/*\
        \n  arbiter rules show startrek --format yaml\
        \n  arbiter rules convert house.yaml --to rules -o house.rules\
        \n  arbiter rules diff house.rules --explain\
        \n  arbiter rules hash house.rules\
        \n  arbiter rules bundle house.rules -o house-bundle.rules\
        \n\
        \nA ruleset that `extends` another changes only what it names, and every name must match\
        \none of the base's (ships, ranks, locations, any table of names): a typo is an error with\
        \na suggestion. An entry the base does not have is declared new: `new \"Romulan warbird\" {\
        \n... }` in the rules language, `+Romulan warbird:` in YAML.\
        \nPin the base a file was written against: `extends \"base.rules\" sha256 \"HEX\"` (the hex\
        \nthat `rules hash` prints), or for a built-in `extends startrek version \">=1.0\"`; YAML:\
        \n`extends: {name: base.rules, sha256: HEX}`. A base that changed is then refused.")]
pub(super) struct Args {
    #[command(subcommand)]
    command: RulesCommand,
}

#[derive(Subcommand)]
enum RulesCommand {
    /// The built-in rulesets
    #[command(after_help = "Examples:\n  arbiter rules list")]
    List,
    /// Check ruleset files (or built-in names): exit 1 if any has a problem
    #[command(after_help = "Examples:\
            \n  arbiter rules check rulesets/*\
            \n  arbiter rules check house.rules startrek")]
    Check {
        /// Ruleset files or built-in names (as many as you like)
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Print a ruleset with its `extends` applied
    #[command(after_help = "Examples:\
            \n  arbiter rules show startrek\
            \n  arbiter rules show house.rules --format yaml\
            \n  arbiter rules show cep --format json")]
    Show {
        /// Built-in name or path
        ruleset: String,
        /// Output form: the rules language, YAML or JSON
        #[arg(long, value_enum, default_value = "rules")]
        format: ShowFormat,
    },
    /// Convert a ruleset file between the rules language and YAML, as written (`extends` kept)
    #[command(after_help = "Examples:\
            \n  arbiter rules convert house.yaml --to rules\
            \n  arbiter rules convert rulesets/startrek.rules --to yaml -o startrek.yaml")]
    Convert {
        /// The ruleset file to convert (.rules or .yaml)
        file: String,
        /// The form to convert to: rules or yaml (json also works)
        #[arg(long, value_enum)]
        to: ShowFormat,
        /// Write here (atomically) instead of standard output
        #[arg(short, long)]
        output: Option<String>,
    },
    /// Every value that differs between two rulesets, by path (old -> new); with one, between
    /// it and the ruleset it extends
    #[command(after_help = "Examples:\
            \n  arbiter rules diff house.rules              # against what it extends\
            \n  arbiter rules diff startrek house.rules --explain\
            \n  arbiter rules diff old.yaml new.rules --json\
            \n\
            \nOrder is part of a ruleset: entries listed in another order are one line\
            \n(`~ /ships: order [...] -> [...]`), so `diff` shows nothing exactly when\
            \n`rules hash` gives both the same sha256. A removed entry is one line\
            \n(`- /ships/NAME`).")]
    Diff {
        /// The old ruleset (built-in name or path); alone, the new one, against its base
        old: String,
        /// The new ruleset
        new: Option<String>,
        /// {"changes": [{"path", "change", "old", "new"}]}
        #[arg(long)]
        json: bool,
        /// Say what each value means (the model's description of it)
        #[arg(long)]
        explain: bool,
    },
    /// The sha256 of a ruleset, resolved: the same for the same rules whatever the file's
    /// comments, layout or format
    #[command(after_help = "Examples:\
            \n  arbiter rules hash house.rules\
            \n  arbiter rules hash startrek\
            \n\
            \nPrints the 64 hex digits, then the ruleset's name and version. Pin a base with it:\
            \n  extends \"house.rules\" sha256 \"HEX\"")]
    Hash {
        /// Built-in name or path
        ruleset: String,
    },
    /// Pin a house rule to its base as it is now: write the base's sha256 into its `extends`
    /// and keep the base beside it (FILE's name + `.pinned-base.rules`), so that when the base
    /// changes the refusal names the `rules diff` that shows what changed
    #[command(after_help = "Examples:\
            \n  arbiter rules pin house.rules     # extends startrek sha256 \"...\"\
            \n  arbiter rules diff house.pinned-base.rules startrek   # later: what changed")]
    Pin {
        /// The ruleset file whose `extends` to pin
        file: String,
    },
    /// One self-contained file: the ruleset with its `extends` chain resolved, under a header
    /// naming the sources, their versions and the hash
    #[command(after_help = "Examples:\
            \n  arbiter rules bundle house.rules -o house-bundle.rules\
            \n  arbiter rules bundle house.yaml -o shared.yaml")]
    Bundle {
        /// Built-in name or path
        ruleset: String,
        /// The bundle (.rules or .yaml); never one of the files it bundles
        #[arg(short, long, required = true)]
        output: String,
    },
    /// The JSON Schema of the YAML form, from the model: for editors to complete and check
    #[command(after_help = "Examples:\
            \n  arbiter rules schema > arbiter-ruleset.schema.json\
            \n\
            \nThen make this the first line of a ruleset YAML file:\
            \n  # yaml-language-server: $schema=arbiter-ruleset.schema.json")]
    Schema,
    /// What a value means: its description, type, default, its value in a ruleset (`extends`
    /// resolved) and what the ruleset's files say about it
    #[command(after_help = "Examples:\
            \n  arbiter rules explain combat.start_distance\
            \n  arbiter rules explain \"ships.UFP heavy cruiser.shields\" --rules house.rules\
            \n  arbiter rules explain /league/points/win --rules bloodbowl --json\
            \n\
            \nWithout --rules, the built-in ruleset of the path's engine is read (ships and\
            \ncombat: startrek; league: bloodbowl; swiss: swiss; scoring: elo).")]
    Explain {
        /// "section.key.key" or a JSON pointer "/section/key"
        path: String,
        /// Built-in name or path
        #[arg(long)]
        rules: Option<String>,
        /// {"path", "pointer", "description", "type", "default", "value", "ruleset", "source",
        /// "notes"}
        #[arg(long)]
        json: bool,
    },
    /// Lay ruleset files out canonically, comments kept with their keys (standard output,
    /// `--check` or `--write`)
    #[command(after_help = "Examples:\
            \n  arbiter rules fmt house.rules\
            \n  arbiter rules fmt --check rulesets/*\
            \n  arbiter rules fmt --write house.rules house.yaml")]
    Fmt {
        /// Ruleset files to lay out (.rules or .yaml)
        #[arg(required = true)]
        files: Vec<String>,
        /// Only say which files are not formatted (exit 1 if any)
        #[arg(long, conflicts_with = "write")]
        check: bool,
        /// Rewrite the files that are not formatted, in place
        #[arg(long)]
        write: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum ShowFormat {
    Rules,
    Yaml,
    Json,
}

impl ShowFormat {
    fn syntax(self) -> Syntax {
        match self {
            ShowFormat::Rules => Syntax::Rules,
            ShowFormat::Yaml => Syntax::Yaml,
            ShowFormat::Json => Syntax::Json,
        }
    }
}

pub(super) fn run(args: Args) -> Result<()> {
    match args.command {
        RulesCommand::List => {
            let mut t = Table::new(&[
                ("name", Align::Left),
                ("file", Align::Left),
                ("ships", Align::Right),
                ("description", Align::Left),
            ]);
            t.key(&["description"]);
            for name in builtin::names() {
                let r = load::load(name)?;
                let (_, file, _) = builtin::find(name).expect("built-in");
                t.row([
                    name.to_string(),
                    format!("rulesets/{file}"),
                    r.ships.len().to_string(),
                    r.description.clone(),
                ]);
            }
            super::print(&t.render(super::layout()))?;
            Ok(())
        }
        RulesCommand::Check { files } => {
            let mut failed = 0;
            for f in &files {
                match load::check(f) {
                    Ok(r) => super::print(&format!(
                        "{f}: ok (ruleset `{}`, {} ships)\n",
                        r.name,
                        r.ships.len()
                    ))?,
                    Err(errors) => {
                        failed += 1;
                        for e in &errors {
                            crate::style::report_error(e);
                        }
                        if errors.len() > 1 {
                            crate::style::report_error(&Error::msg(format!(
                                "{f}: {} problems",
                                errors.len()
                            )));
                        }
                    }
                }
            }
            if failed > 0 {
                Err(Error::msg(format!(
                    "{failed} of {} rulesets failed the check",
                    files.len()
                )))
            } else {
                Ok(())
            }
        }
        RulesCommand::Show { ruleset, format } => {
            let r = load::load(&ruleset)?;
            super::print(&edit::show(&r, format.syntax()))?;
            Ok(())
        }
        RulesCommand::Diff {
            old,
            new,
            json,
            explain,
        } => diff(&old, new.as_deref(), json, explain),
        RulesCommand::Hash { ruleset } => {
            let r = load::load(&ruleset)?;
            let id = Identity::of(&r);
            let version = id.version.as_deref().unwrap_or("(no version)");
            super::print(&format!("{}  {} {version}\n", id.sha256, id.name))?;
            Ok(())
        }
        RulesCommand::Pin { file } => pin(&file),
        RulesCommand::Bundle { ruleset, output } => bundle(&ruleset, &output),
        RulesCommand::Schema => {
            let text = serde_json::to_string_pretty(crate::rules::schema::schema())
                .expect("a schema serialises");
            super::print(&format!("{text}\n"))?;
            Ok(())
        }
        RulesCommand::Explain { path, rules, json } => {
            let reference = rules.unwrap_or_else(|| default_ruleset_for(&path).to_string());
            let r = load::load(&reference)?;
            let chain = explain::comment_chain(&reference);
            let e = explain::explain(&path, Some(&r), &chain)?;
            if json {
                super::print(&format!(
                    "{}\n",
                    serde_json::to_string_pretty(&e).expect("serialises")
                ))?;
            } else {
                super::print(&e.text())?;
            }
            Ok(())
        }
        RulesCommand::Convert { file, to, output } => {
            let source = crate::io::read_text(&file)?;
            let (doc, comments) =
                canonical::parse_with_comments(&file, &source, Format::of(&file))?;
            // Check the whole ruleset (with what it extends) before writing anything.
            let dir = std::path::Path::new(&file)
                .parent()
                .map(|p| p.to_path_buf());
            let resolved = load::resolve_loaded(doc.clone(), &file, dir.as_deref())?;
            load::ruleset_from_doc(&resolved)?;
            let text = canonical::render_with_comments(&doc.value, &comments, to.syntax());
            match output {
                Some(path) => {
                    if Format::of(&path) == Format::Rules && !matches!(to, ShowFormat::Rules) {
                        return Err(Error::msg(format!(
                            "{path}: a .rules file name for {} output",
                            match to {
                                ShowFormat::Yaml => "YAML",
                                _ => "JSON",
                            }
                        )));
                    }
                    crate::io::write_atomically(&path, &text)
                }
                None => {
                    super::print(&text)?;
                    Ok(())
                }
            }
        }
        RulesCommand::Fmt {
            files,
            check,
            write,
        } => fmt(&files, check, write),
    }
}

fn diff(old: &str, new: Option<&str>, json: bool, explain: bool) -> Result<()> {
    let (old_name, old_rules, new_name, new_rules) = match new {
        Some(new) => (
            old.to_string(),
            load::load(old)?,
            new.to_string(),
            load::load(new)?,
        ),
        None => {
            let Some((base_name, base)) = load::base_of(old)? else {
                return Err(Error::msg(format!(
                    "{old} extends nothing: name the ruleset to compare it with \
                     (`arbiter rules diff {old} OTHER`)"
                )));
            };
            (base_name, base, old.to_string(), load::load(old)?)
        }
    };
    let mut found = changes::between(&old_rules, &new_rules);
    if explain {
        changes::explain(&mut found);
    }
    if json {
        let report = serde_json::json!({
            "old": Identity::of(&old_rules),
            "new": Identity::of(&new_rules),
            "changes": found,
        });
        return super::print(&crate::output::json_string(&report));
    }
    let mut out = format!("--- {old_name}\n+++ {new_name}\n");
    if found.is_empty() {
        out.push_str("no changes\n");
    }
    for c in &found {
        out.push_str(&change_line(c));
        if let Some(m) = &c.meaning {
            out.push_str(&format!("    {m}\n"));
        }
    }
    super::print(&out)
}

fn change_line(c: &Change) -> String {
    format!("{}\n", changes::line(c))
}

fn pin(file: &str) -> Result<()> {
    let text = crate::io::read_text(file)?;
    let pinned = crate::rules::pinning::pin(file, &text)?;
    let kept = pinned.kept_path.display().to_string();
    crate::io::write_file(&kept, &pinned.kept_text, crate::io::Replace::Output)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if pinned.text != text {
        crate::io::write_file(file, &pinned.text, crate::io::Replace::ItsOwnInput)?;
    }
    super::print(&format!(
        "wrote {kept}\nwrote {file}: pinned to {}\n",
        pinned.base.shown()
    ))
}

fn bundle(reference: &str, output: &str) -> Result<()> {
    let syntax = edit::Syntax::of_path(output)?;
    let text = crate::rules::bundle::bundle(reference, syntax).map_err(|e| {
        if syntax == Syntax::Json {
            e.context(output)
        } else {
            e
        }
    })?;
    crate::io::write_file(output, &text, crate::io::Replace::Output)
}

/// `rules fmt`: the canonical layout on standard output, or checked, or written back.
fn fmt(files: &[String], check: bool, write: bool) -> Result<()> {
    if !check && !write && files.len() > 1 {
        return Err(Error::msg(
            "give one file to print formatted, or --check or --write for several",
        ));
    }
    let mut unformatted = 0;
    for file in files {
        let text = crate::io::read_text(file)?;
        let formatted = canonical::formatted(file, &text)?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        if check {
            if formatted != text {
                unformatted += 1;
                super::print(&format!("{file}: not formatted\n"))?;
            }
        } else if write {
            if formatted != text {
                crate::io::write_file(file, &formatted, crate::io::Replace::ItsOwnInput)?;
            }
        } else {
            super::print(&formatted)?;
        }
    }
    if unformatted > 0 {
        return Err(Error::msg(format!(
            "{unformatted} of {} files are not formatted (`arbiter rules fmt --write` lays them \
             out)",
            files.len()
        )));
    }
    Ok(())
}

/// The built-in ruleset whose engine reads the section a path starts in.
fn default_ruleset_for(path: &str) -> &'static str {
    let first = edit::parse_path(path)
        .into_iter()
        .next()
        .unwrap_or_default();
    match first.as_str() {
        "league" => builtin::DEFAULT_LEAGUE,
        "swiss" => builtin::DEFAULT_SWISS,
        "scoring" => builtin::DEFAULT_RATING,
        _ => builtin::DEFAULT_COMBAT,
    }
}
