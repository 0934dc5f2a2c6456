//! The simulation report as a table.
use super::SimReport;

impl SimReport {
    pub fn render(&self) -> String {
        use crate::output::{percent, trim_number, Align, Table};
        let pct = |x: f64| percent(x, 1);
        let mut t = Table::new(&[
            ("ship", Align::Left),
            ("wins", Align::Right),
            ("win rate", Align::Right),
            ("95% CI", Align::Right),
            ("destroyed", Align::Right),
            ("captured", Align::Right),
            ("escaped", Align::Right),
        ]);
        for s in [&self.a, &self.b] {
            t.row([
                s.name.clone(),
                s.wins.to_string(),
                pct(s.win_rate),
                format!("{}–{}", pct(s.ci95[0]), pct(s.ci95[1])),
                s.destroyed.to_string(),
                s.captured.to_string(),
                s.escaped.to_string(),
            ]);
        }
        format!(
            "{} battles (ruleset {}, seed {})\n\n{}\ndraws (turn limit {}): {}   escapes: {}   \
             captures: {}   mean turns: {}\n",
            self.battles,
            self.ruleset,
            self.seed,
            t.render(),
            self.turn_limit,
            self.draws,
            self.escapes,
            self.captures,
            trim_number(self.mean_turns, 2)
        )
    }
}
