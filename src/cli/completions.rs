//! `arbiter completions SHELL`: shell completion scripts from clap_complete, which also
//! complete the names arbiter knows: built-in rulesets after `--rules` (and the other
//! ruleset arguments), help topics after `help`, and the default combat ruleset's ships
//! where a command takes ships. A path still completes where a name would: bash falls back to
//! file names when no name matches.
use crate::error::Result;
use clap::builder::PossibleValuesParser;
use clap::Command;
use clap_complete::Shell;

#[derive(clap::Args)]
#[command(after_help = "Examples:\
        \n  arbiter completions bash > ~/.local/share/bash-completion/completions/arbiter\
        \n  arbiter completions zsh > ~/.zfunc/_arbiter\
        \n  arbiter completions fish > ~/.config/fish/completions/arbiter.fish")]
pub(super) struct Args {
    /// bash, zsh, fish, elvish or powershell
    shell: Shell,
}

pub(super) fn run(args: Args) -> Result<()> {
    super::print(&script(args.shell)?)
}

/// The completion script for `shell`.
pub(super) fn script(shell: Shell) -> Result<String> {
    let ships = ship_names()?;
    // Bash splits a word list at spaces, and ship names have spaces: its ships are completed
    // by the function added below instead. Fish's generator leaves positionals out, so its
    // ships are lines of their own.
    let listed_ships: &[String] = match shell {
        Shell::Bash | Shell::Fish => &[],
        _ => &ships,
    };
    let mut cmd = with_known_names(super::command(), &[], listed_ships);
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "arbiter", &mut buf);
    let mut text = String::from_utf8_lossy(&buf).into_owned();
    if shell == Shell::Bash {
        text = with_bash_ships(&text, &cmd, &ships);
    }
    if shell == Shell::Fish {
        text.push_str(&fish_ships(&cmd, &ships));
    }
    Ok(text)
}

/// Argument ids that name a ruleset (a built-in name or a path), wherever they appear.
const RULESET_ARGS: &[&str] = &["rules", "vs", "ruleset"];
/// Positional argument ids that name ships, under `combat`.
const SHIP_ARGS: &[&str] = &["a", "b", "ships"];

/// Ships of the default combat ruleset, names then aliases.
fn ship_names() -> Result<Vec<String>> {
    let rules = crate::rules::load::load(crate::rules::builtin::DEFAULT_COMBAT)?;
    let mut names: Vec<String> = rules.ships.keys().cloned().collect();
    names.extend(rules.ships.values().flat_map(|s| s.aliases.iter().cloned()));
    Ok(names)
}

/// The command tree with the names it knows as possible values (for completion only: the
/// command that parses arguments takes any path or name). `path` is the subcommands from
/// the top down to `cmd` (empty for arbiter itself).
fn with_known_names(mut cmd: Command, path: &[String], ships: &[String]) -> Command {
    let rulesets = crate::rules::builtin::names();
    let in_combat = path.first().map(String::as_str) == Some("combat");
    let is_help = path.len() == 1 && path[0] == "help";
    let ids: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    for id in ids {
        if RULESET_ARGS.contains(&id.as_str()) {
            cmd = cmd.mut_arg(&id, |a| {
                a.value_parser(PossibleValuesParser::new(rulesets.clone()))
            });
        } else if in_combat && SHIP_ARGS.contains(&id.as_str()) && !ships.is_empty() {
            cmd = cmd.mut_arg(&id, |a| {
                if a.is_positional() {
                    a.value_parser(listed(ships))
                } else {
                    a
                }
            });
        } else if is_help && id == "words" {
            let mut words: Vec<String> = super::topics::TOPICS
                .iter()
                .map(|t| t.name.to_string())
                .collect();
            let commands: Vec<String> = super::command()
                .get_subcommands()
                .map(|c| c.get_name().to_string())
                .collect();
            let new: Vec<String> = commands
                .into_iter()
                .filter(|c| !words.contains(c))
                .collect();
            words.extend(new);
            cmd = cmd.mut_arg(&id, |a| a.value_parser(listed(&words)));
        }
    }
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for sub in subs {
        let mut inner = path.to_vec();
        inner.push(sub.clone());
        cmd = cmd.mut_subcommand(&sub, |c| with_known_names(c, &inner, ships));
    }
    cmd
}

/// Names as clap's possible values, which it keeps as `&'static str` (without its `string`
/// feature): leaked, a few hundred bytes for a command that prints a script and ends.
fn listed(names: &[String]) -> PossibleValuesParser {
    PossibleValuesParser::new(
        names
            .iter()
            .map(|n| &*Box::leak(n.clone().into_boxed_str()))
            .collect::<Vec<&'static str>>(),
    )
}

/// The subcommand paths (below arbiter) whose positionals are ships, each with the options
/// of that command that take a value (after one of those, the word is no ship).
fn ship_commands(cmd: &Command, path: &mut Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
    let under_combat = path.first().map(String::as_str) == Some("combat");
    if under_combat
        && cmd
            .get_positionals()
            .any(|a| SHIP_ARGS.contains(&a.get_id().as_str()))
    {
        let valued = cmd
            .get_arguments()
            .filter(|a| !a.is_positional() && a.get_action().takes_values())
            .flat_map(|a| {
                let longs = a.get_long().map(|l| format!("--{l}"));
                let shorts = a.get_short().map(|s| format!("-{s}"));
                longs.into_iter().chain(shorts)
            })
            .collect();
        out.push((path.join(" "), valued));
    }
    for sub in cmd.get_subcommands() {
        path.push(sub.get_name().to_string());
        ship_commands(sub, path, out);
        path.pop();
    }
}

/// Fish: a `complete` line per ship command offering the ship names (fish splits `-a`'s
/// text as a command line, so each name is quoted whole).
fn fish_ships(cmd: &Command, ships: &[String]) -> String {
    let mut commands = Vec::new();
    ship_commands(cmd, &mut Vec::new(), &mut commands);
    let quote = |s: &str| format!("'{}'", s.replace('\\', r"\\").replace('\'', r"\'"));
    let names: Vec<String> = ships.iter().map(|s| quote(s)).collect();
    let mut out = String::from("# Ship names, where a combat command takes ships.\n");
    for (path, _) in &commands {
        let mut words = path.split(' ');
        let top = words.next().unwrap_or_default();
        let mut condition = format!("__fish_arbiter_using_subcommand {top}");
        for w in words {
            condition.push_str(&format!("; and __fish_seen_subcommand_from {w}"));
        }
        out.push_str(&format!(
            "complete -c arbiter -n \"{condition}\" -f -a \"{}\"\n",
            names.join(" ")
        ));
    }
    out
}

/// Bash: clap's function renamed, and a function in front of it that offers ship names
/// (quoted for the shell) for a ship command's positionals.
fn with_bash_ships(script: &str, cmd: &Command, ships: &[String]) -> String {
    let mut commands = Vec::new();
    ship_commands(cmd, &mut Vec::new(), &mut commands);
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    // Options whose next word is their value, not a command word or a ship.
    let mut valued: Vec<String> = cmd
        .get_arguments()
        .filter(|a| a.is_global_set() && a.get_action().takes_values())
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect();
    for (_, v) in &commands {
        valued.extend(
            v.iter()
                .filter(|o| !valued.contains(o))
                .cloned()
                .collect::<Vec<_>>(),
        );
    }
    let mut cases = String::new();
    for (path, _) in &commands {
        cases.push_str(&format!(
            "        {}*) ships=1 ;;\n",
            quote(&format!("{path} "))
        ));
    }
    let ship_list: Vec<String> = ships.iter().map(|s| quote(s)).collect();
    let wrapper = format!(
        r#"
# Ship names have spaces, so they are not in clap's word lists: a ship command's
# positionals are completed here, everything else by clap's function.
_arbiter() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="" valued=" {valued} "
    local -a words=()
    local i word skip=0 ships=0
    (( COMP_CWORD > 0 )) && prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    for (( i = 1; i < COMP_CWORD; i++ )); do
        word="${{COMP_WORDS[i]}}"
        if (( skip )); then skip=0; continue; fi
        if [[ $word == -* ]]; then
            [[ $word != *=* && $valued == *" $word "* ]] && skip=1
            continue
        fi
        words+=( "$word" )
    done
    case "${{words[*]}} " in
{cases}    esac
    if (( ships )) && [[ $cur != -* && $valued != *" $prev "* ]]; then
        local typed="${{cur//\\ / }}" ship
        typed="${{typed#[\"\']}}"
        COMPREPLY=()
        for ship in {ships}; do
            [[ $ship == "$typed"* ]] && COMPREPLY+=( "$(printf '%q' "$ship")" )
        done
        return 0
    fi
    _arbiter_clap "$@"
}}
"#,
        valued = valued.join(" "),
        cases = cases,
        ships = ship_list.join(" "),
    );
    let renamed = script.replacen("_arbiter() {", "_arbiter_clap() {", 1);
    // The function goes before the `complete` lines at the end of clap's script.
    match renamed.find("\nif [[ \"${BASH_VERSINFO[0]}\" -eq 4") {
        Some(at) => format!("{}{wrapper}{}", &renamed[..at], &renamed[at..]),
        None => format!("{renamed}{wrapper}"),
    }
}
