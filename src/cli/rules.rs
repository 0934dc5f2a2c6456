//! `arbiter rules list | check | show | convert | fmt`.
use arbiter::output::{Align, Table};
use arbiter::rules::edit::{self, Syntax};
use arbiter::rules::{builtin, canonical, load, Format};
use arbiter::{Error, Result};
use clap::{Subcommand, ValueEnum};

#[derive(clap::Args)]
#[command(after_help = "Examples:\
        \n  arbiter rules list\
        \n  arbiter rules check rulesets/*\
        \n  arbiter rules show startrek --format yaml\
        \n  arbiter rules convert house.yaml --to rules -o house.rules")]
pub struct Args {
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
        #[arg(long, value_enum, default_value = "rules")]
        format: ShowFormat,
    },
    /// Convert a ruleset file between the rules language and YAML, as written (`extends` kept)
    #[command(after_help = "Examples:\
            \n  arbiter rules convert house.yaml --to rules\
            \n  arbiter rules convert rulesets/startrek.rules --to yaml -o startrek.yaml")]
    Convert {
        file: String,
        #[arg(long, value_enum)]
        to: ShowFormat,
        /// Write here (atomically) instead of standard output
        #[arg(short, long)]
        output: Option<String>,
    },
    /// Lay ruleset files out canonically, comments kept with their keys (standard output,
    /// `--check` or `--write`)
    #[command(after_help = "Examples:\
            \n  arbiter rules fmt house.rules\
            \n  arbiter rules fmt --check rulesets/*\
            \n  arbiter rules fmt --write house.rules house.yaml")]
    Fmt {
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

pub fn run(args: Args) -> Result<()> {
    match args.command {
        RulesCommand::List => {
            let mut t = Table::new(&[
                ("name", Align::Left),
                ("file", Align::Left),
                ("ships", Align::Right),
                ("description", Align::Left),
            ]);
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
            super::print(&t.render())?;
            Ok(())
        }
        RulesCommand::Check { files } => {
            let mut failed = 0;
            for f in &files {
                match load::load(f) {
                    Ok(r) => super::print(&format!(
                        "{f}: ok (ruleset `{}`, {} ships)\n",
                        r.name,
                        r.ships.len()
                    ))?,
                    Err(e) => {
                        failed += 1;
                        super::report(&e);
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
        RulesCommand::Convert { file, to, output } => {
            let source = arbiter::io::read_text(&file)?;
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
                    super::write_atomically(&path, &text)
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

/// `rules fmt`: the canonical layout on standard output, or checked, or written back.
fn fmt(files: &[String], check: bool, write: bool) -> Result<()> {
    if !check && !write && files.len() > 1 {
        return Err(Error::msg(
            "give one file to print formatted, or --check or --write for several",
        ));
    }
    let mut unformatted = 0;
    for file in files {
        let text = arbiter::io::read_text(file)?;
        let formatted = canonical::formatted(file, &text)?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        if check {
            if formatted != text {
                unformatted += 1;
                super::print(&format!("{file}: not formatted\n"))?;
            }
        } else if write {
            if formatted != text {
                arbiter::io::write_file(file, &formatted, arbiter::io::Replace::ItsOwnInput)?;
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
