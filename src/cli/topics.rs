//! `arbiter help [TOPIC | COMMAND...]`: reference pages on the languages arbiter reads (the
//! texts live in doc/help/), or a command's own help, as clap's `help` subcommand gives it.
use crate::error::Result;

/// A reference page: its name after `arbiter help`, a line for the list, and its text.
pub(super) struct Topic {
    pub name: &'static str,
    pub summary: &'static str,
    text: &'static str,
}

/// Every topic, in the order `arbiter help help` lists them.
pub(super) const TOPICS: &[Topic] = &[
    Topic {
        name: "rules",
        summary: "the rules language: sections, keys, extends and pins, new entries, YAML",
        text: include_str!("../../doc/help/rules.md"),
    },
    Topic {
        name: "formulas",
        summary: "formulas in rulesets: operators, precedence, functions, variables",
        text: include_str!("../../doc/help/formulas.md"),
    },
    Topic {
        name: "dice",
        summary: "dice notation: NdS, sums, constants, intact/damaged pairs, limits",
        text: include_str!("../../doc/help/dice.md"),
    },
    Topic {
        name: "league",
        summary: "leagues: schedule methods, home and away, breaks, seasons, tie-breakers",
        text: include_str!("../../doc/help/league.md"),
    },
    Topic {
        name: "ratings",
        summary: "rating systems: periods, idle time, leaderboards, the backtest",
        text: include_str!("../../doc/help/ratings.md"),
    },
    Topic {
        name: "scripting",
        summary: "rhai scripts and the REPL: every function, the sandbox, REPL commands",
        text: include_str!("../../doc/help/scripting.md"),
    },
];

/// Width the generated parts of a page are wrapped to (the pages themselves keep to it).
const PAGE_WIDTH: usize = 78;

#[derive(clap::Args)]
#[command(after_help = "Examples:\
        \n  arbiter help rules\
        \n  arbiter help formulas\
        \n  arbiter help dice\
        \n  arbiter help scripting\
        \n  arbiter help combat sim\
        \n\
        \nTopics: rules (the rules language), formulas, dice (dice notation), league (schedules, \
        home and away, seasons), ratings (rating systems), scripting (rhai and the REPL). A topic's name comes first: `arbiter help rules` is the rules language; the \
        `rules` command's own help is `arbiter rules --help` (or `arbiter help rules list`, for a \
        subcommand).")]
pub(super) struct Args {
    /// A topic (rules, formulas, dice, league, ratings, scripting), or a command and its
    /// subcommands (combat sim);
    /// none: the list of commands
    #[arg(value_name = "TOPIC|COMMAND")]
    words: Vec<String>,
}

pub(super) fn run(args: Args) -> Result<()> {
    if let [word] = args.words.as_slice() {
        if let Some(topic) = find(word) {
            return super::print(&styled(&page(topic)));
        }
    }
    command_help(&args.words)
}

/// The topic called `name` (exactly, or ignoring case).
pub(super) fn find(name: &str) -> Option<&'static Topic> {
    TOPICS.iter().find(|t| t.name.eq_ignore_ascii_case(name))
}

/// A topic's whole text, with the parts generated from the code filled in.
pub(super) fn page(topic: &Topic) -> String {
    topic
        .text
        .replace("{{api}}", &api_list())
        .replace("{{commands}}", &repl_commands())
}

/// Headings (`# ...`) bold when the output is coloured.
fn styled(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        if line.starts_with('#') {
            out.push_str(&crate::style::header(line, super::layout().color));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The scripting API, from the table `:help` reads: usage, then the summary indented below.
fn api_list() -> String {
    let mut out = String::new();
    for doc in crate::script::api::help() {
        out.push_str(&format!("    {}\n", doc.usage));
        out.push_str(&wrap(doc.summary, 8));
    }
    out.trim_end().to_string()
}

fn repl_commands() -> String {
    let mut out = String::new();
    for (name, summary) in crate::script::repl::COMMANDS {
        // A summary that starts with its own usage ("`:load FILE` — ...") shows it once.
        let (usage, summary) = match summary.split_once(" — ") {
            Some((usage, rest)) if usage.starts_with(name) => (usage, rest),
            _ => (*name, *summary),
        };
        out.push_str(&format!("    {usage}\n"));
        out.push_str(&wrap(summary, 8));
    }
    out.trim_end().to_string()
}

/// `text` broken into lines of at most `PAGE_WIDTH` columns, each indented by `indent`.
fn wrap(text: &str, indent: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent + line.chars().count() + 1 + word.chars().count() > PAGE_WIDTH
        {
            out.push_str(&format!("{:indent$}{line}\n", ""));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&format!("{:indent$}{line}\n", ""));
    }
    out
}

/// A name that is no topic (when it comes first) and no command: a usage error (exit 2) with
/// the nearest name and the known ones.
fn unknown(word: &str, commands: &[String], first: bool) -> ! {
    let topics: Vec<&str> = if first {
        TOPICS.iter().map(|t| t.name).collect()
    } else {
        Vec::new()
    };
    let names = commands
        .iter()
        .map(String::as_str)
        .chain(topics.iter().copied());
    let what = if first {
        "help topic or command"
    } else {
        "command"
    };
    let mut message = format!(
        "no {what} `{word}`{}; ",
        crate::names::suggestion(word, names)
    );
    if first {
        message.push_str(&format!("topics: {}; ", topics.join(", ")));
    }
    message.push_str(&format!("commands: {}", commands.join(", ")));
    let mut root = super::command();
    root.build();
    let help = root
        .find_subcommand_mut("help")
        .expect("arbiter has a help command");
    help.error(clap::error::ErrorKind::InvalidSubcommand, message)
        .exit()
}

/// The long help of `arbiter WORDS...` (of arbiter itself when there are none), as clap's own
/// `help` subcommand prints it; an unknown name is a usage error that lists what is known.
fn command_help(words: &[String]) -> Result<()> {
    let mut cmd = super::command();
    cmd.build();
    let mut current = &mut cmd;
    for (depth, word) in words.iter().enumerate() {
        let known: Vec<String> = current
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        match current.find_subcommand_mut(word) {
            Some(sub) => current = sub,
            None => unknown(word, &known, depth == 0),
        }
    }
    let help = current.render_long_help();
    let text = if crate::style::colored(crate::style::Stream::Out) {
        help.ansi().to_string()
    } else {
        help.to_string()
    };
    super::print(&text)
}
