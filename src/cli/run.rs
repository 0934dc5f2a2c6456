//! `arbiter run` (its engine lands with its own issue).
use arbiter::{Error, Result};

#[derive(clap::Args)]
pub struct Args {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    rest: Vec<String>,
}

pub fn run(_args: Args) -> Result<()> {
    Err(Error::msg("`arbiter run` is not implemented yet"))
}
