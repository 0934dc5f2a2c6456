//! `arbiter completions SHELL`: shell completion scripts from clap_complete.
use arbiter::Result;

#[derive(clap::Args)]
#[command(after_help = "Examples:\
        \n  arbiter completions bash > ~/.local/share/bash-completion/completions/arbiter\
        \n  arbiter completions zsh > ~/.zfunc/_arbiter\
        \n  arbiter completions fish > ~/.config/fish/completions/arbiter.fish")]
pub struct Args {
    /// bash, zsh, fish, elvish or powershell
    shell: clap_complete::Shell,
}

pub fn run(args: Args) -> Result<()> {
    let mut cmd = super::command();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "arbiter", &mut buf);
    super::print(&String::from_utf8_lossy(&buf))?;
    Ok(())
}
