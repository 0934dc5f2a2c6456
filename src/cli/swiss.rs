//! `arbiter swiss ...`: a thin layer over arbiter::swiss.
use arbiter::output::json_string;
use arbiter::swiss::{dutch, trf};
use arbiter::{Error, Result};
use clap::Subcommand;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  arbiter swiss pair round5.trf --json\n  arbiter swiss pair round5.trf --trf round5-paired.trf"
)]
pub struct Args {
    #[command(subcommand)]
    command: SwissCommand,
}

#[derive(Subcommand)]
enum SwissCommand {
    /// Pair the next round (FIDE Dutch system) of a TRF file
    Pair {
        /// A TRF (TRF-2026, TRF(x) or TRF(bx))
        file: String,
        /// JSON: {"round", "pairs": [{"white", "black"}], "bye"}
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        SwissCommand::Pair { file, json } => pair(&file, json),
    }
}

#[derive(serde::Serialize)]
struct PairJson {
    round: usize,
    pairs: Vec<PairEntry>,
    bye: Option<usize>,
}

#[derive(serde::Serialize)]
struct PairEntry {
    white: usize,
    black: usize,
}

fn pair(file: &str, json: bool) -> Result<()> {
    let text = arbiter::io::read_text(file)?;
    let field = trf::parse(file, &text, true)?;
    let pairing = dutch::pair(&field).map_err(|e| Error::msg(format!("{file}: {e}")))?;
    let round = field.played_rounds + 1;
    if json {
        let doc = PairJson {
            round,
            pairs: pairing
                .pairs
                .iter()
                .map(|&(w, b)| PairEntry {
                    white: w + 1,
                    black: b + 1,
                })
                .collect(),
            bye: pairing.bye.map(|b| b + 1),
        };
        return super::print(&json_string(&doc));
    }
    let mut out = format!("Round {round}\n");
    for (board, &(w, b)) in pairing.pairs.iter().enumerate() {
        out += &format!(
            "{:>3}. {} - {}\n",
            board + 1,
            field.entrants[w].name,
            field.entrants[b].name
        );
    }
    if let Some(b) = pairing.bye {
        out += &format!("bye: {}\n", field.entrants[b].name);
    }
    super::print(&out)
}
