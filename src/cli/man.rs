//! `arbiter man [COMMAND...] [--out DIR]`: manual pages (roff) from the clap tree, by
//! clap_mangen, and the help topics as section 7 pages.
use super::topics::{self, Topic};
use crate::error::{Error, Result};
use crate::io::Replace;

#[derive(clap::Args)]
#[command(after_help = "Examples:\
        \n  arbiter man | man -l -\
        \n  arbiter man combat sim | man -l -\
        \n  arbiter man --out ~/.local/share/man/man1\
        \n\
        \nWith --out, every page is written into DIR (which must exist): arbiter.1, one page a \
        command (arbiter-combat-sim.1, ...), and the help topics as section 7 pages \
        (arbiter-help-rules.7, arbiter-help-formulas.7, ...). Each write says `wrote FILE`.")]
pub(super) struct Args {
    /// The command whose page to print (combat sim); none: arbiter's own page
    #[arg(value_name = "COMMAND", conflicts_with = "out")]
    words: Vec<String>,
    /// Write every page into this folder instead of printing one (the folder must exist)
    #[arg(long, value_name = "DIR")]
    out: Option<String>,
}

pub(super) fn run(args: Args) -> Result<()> {
    let pages = pages()?;
    let Some(dir) = args.out else {
        let name = std::iter::once("arbiter".to_string())
            .chain(args.words.iter().map(|w| w.to_lowercase()))
            .collect::<Vec<_>>()
            .join("-");
        let file = format!("{name}.1");
        return match pages.iter().find(|(f, _)| *f == file) {
            Some((_, text)) => super::print(text),
            None => Err(Error::msg(format!(
                "no command `{}`; the commands are those of `arbiter --help`",
                args.words.join(" ")
            ))),
        };
    };
    if !std::path::Path::new(&dir).is_dir() {
        return Err(Error::msg(format!(
            "{dir}: no such folder (create it first)"
        )));
    }
    for (file, text) in &pages {
        let path = std::path::Path::new(&dir).join(file);
        crate::io::write_file(&path.to_string_lossy(), text, Replace::Output)?;
    }
    Ok(())
}

/// The footer and header of every page: the program, its version (where the date would go:
/// an empty field would shift the others) and the manual's title.
const SOURCE: &str = "arbiter";
const VERSION: &str = env!("CARGO_PKG_VERSION");
const MANUAL: &str = "Arbiter Manual";

/// Every page, (file name, roff text): commands in section 1, topics in section 7.
pub(super) fn pages() -> Result<Vec<(String, String)>> {
    let mut cmd = super::command();
    cmd.build();
    let mut pages = Vec::new();
    command_pages(&cmd, &mut pages)?;
    for topic in topics::TOPICS {
        pages.push((format!("arbiter-help-{}.7", topic.name), topic_page(topic)));
    }
    Ok(pages)
}

fn command_pages(cmd: &clap::Command, pages: &mut Vec<(String, String)>) -> Result<()> {
    let man = clap_mangen::Man::new(cmd.clone())
        .date(VERSION)
        .source(SOURCE)
        .manual(MANUAL);
    let mut roff = Vec::new();
    man.render(&mut roff)
        .map_err(|e| Error::msg(format!("cannot render the manual page: {e}")))?;
    pages.push((
        man.get_filename(),
        String::from_utf8_lossy(&roff).into_owned(),
    ));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        command_pages(sub, pages)?;
    }
    Ok(())
}

/// A topic as a section 7 page: its text as written (no filling), headings as sections.
fn topic_page(topic: &Topic) -> String {
    use roff::{roman, Roff};
    let name = format!("arbiter-help-{}", topic.name);
    let mut page = Roff::new();
    page.control(
        "TH",
        [name.to_uppercase().as_str(), "7", VERSION, SOURCE, MANUAL],
    );
    page.control("SH", ["NAME"]);
    page.text([roman(format!("{name} - {}", topic.summary))]);
    page.control("SH", ["DESCRIPTION"]);
    page.control("nf", []);
    for line in topics::page(topic).lines() {
        match line.strip_prefix("## ") {
            Some(heading) => {
                page.control("fi", []);
                page.control("SH", [heading.to_uppercase().as_str()]);
                page.control("nf", []);
            }
            None if line.starts_with("# ") => {}
            None => {
                page.text([roman(line)]);
            }
        }
    }
    page.control("fi", []);
    page.render()
}
