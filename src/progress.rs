//! The progress bar of long engine calls, on standard error, only at a terminal: the CLI's
//! commands and the REPL's calls show the same one.
use std::io::IsTerminal;

/// Below this much work a bar would only flicker.
const WORTH_SHOWING: u64 = 5000;

/// A progress bar, or nothing when standard error is not a terminal or the work is short.
/// It clears itself when dropped, so an error or Ctrl-C leaves no half-drawn bar.
pub(crate) struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    /// A bar counting `total` battles.
    pub(crate) fn battles(total: u64) -> Progress {
        Progress::new(total, "battles")
    }

    pub(crate) fn new(total: u64, unit: &str) -> Progress {
        if !std::io::stderr().is_terminal() || total < WORTH_SHOWING {
            return Progress(None);
        }
        let bar = indicatif::ProgressBar::new(total);
        let template = format!("{{bar:40}} {{pos}}/{{len}} {unit}, {{eta}} left");
        if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
            bar.set_style(style);
        }
        Progress(Some(bar))
    }

    /// A counter of battles for work whose total is not known (a search).
    pub(crate) fn counting_battles() -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = indicatif::ProgressBar::new_spinner();
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{spinner} {pos} battles, {elapsed}")
        {
            bar.set_style(style);
        }
        Progress(Some(bar))
    }

    /// `n` more units done (engines report in batches, from any thread).
    pub(crate) fn tick(&self, n: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(n);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// Run `work` with a bar for `total` battles (a counter when not known), which it ticks.
pub(crate) fn with_battles<T>(
    total: Option<u64>,
    work: impl FnOnce(&(dyn Fn(u64) + Sync)) -> T,
) -> T {
    let bar = match total {
        Some(t) => Progress::battles(t),
        None => Progress::counting_battles(),
    };
    work(&|n| bar.tick(n))
}
