//! The simulation report as a table.
use super::SimReport;
use crate::combat::side::{labels, First};

impl SimReport {
    /// The two sides' names as the reports print them (see `side::labels`).
    pub(crate) fn side_names(&self) -> [String; 2] {
        labels(&self.a.name, &self.b.name)
    }

    /// Every outcome kind's share of the battles, in words: "destroyed 61.2%, captured 0.0%,
    /// escaped by warp 1.0%, disengaged 3.1%, unfinished 0.2%".
    pub(crate) fn outcome_split(&self) -> String {
        use crate::combat::turn::OutcomeKind;
        let n = self.battles.max(1) as f64;
        OutcomeKind::ALL
            .iter()
            .map(|k| {
                let name = match k {
                    OutcomeKind::Escaped => "escaped by warp",
                    k => k.name(),
                };
                let x = self.outcomes.of(*k) as f64 / n;
                format!("{name} {}", crate::output::percent(x))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub(crate) fn render(&self, layout: crate::output::Layout) -> String {
        use crate::output::{percent, trim_number, Align, Table};
        let mut t = Table::new(&[
            ("ship", Align::Left),
            ("wins", Align::Right),
            ("win rate", Align::Right),
            ("95% CI", Align::Right),
            ("destroyed", Align::Right),
            ("captured", Align::Right),
            ("escaped", Align::Right),
        ]);
        t.key(&["win rate"]);
        let names = self.side_names();
        for (s, name) in [&self.a, &self.b].into_iter().zip(&names) {
            t.row([
                name.clone(),
                s.wins.to_string(),
                percent(s.win_rate),
                format!("{}–{}", percent(s.ci95[0]), percent(s.ci95[1])),
                s.destroyed.to_string(),
                s.captured.to_string(),
                s.escaped.to_string(),
            ]);
        }
        let l = &self.limit_states;
        let headline = format!(
            "{} battles (ruleset {}, seed {}, first move: {}): {}\n\n",
            self.battles,
            self.ruleset,
            self.seed,
            match self.first {
                First::A => "a",
                First::B => "b",
                First::Alternate => "alternate",
            },
            self.outcome_split(),
        );
        let o = &self.outcomes;
        let mut out = format!(
            "destroyed {}, captured {}, escaped by warp {}, disengaged {}, unfinished (turn \
             limit {}) {}   mean turns: {}\n",
            o.destroyed,
            o.captured,
            o.escaped,
            o.disengaged,
            self.turn_limit,
            o.unfinished,
            trim_number(self.mean_turns, 2)
        );
        if l.battles > 0 {
            out += &format!(
                "unfinished at the turn limit: both fighting {}, one crippled {}, out of torpedoes {}, out \
                 of range {}; mean distance {}\n",
                l.both_fighting,
                l.one_crippled,
                l.out_of_torpedoes,
                l.out_of_range,
                trim_number(l.mean_distance, 2)
            );
        }
        out += &format!(
            "mean distance: {}   turns cloaked: {} {}, {} {}   shots per battle: {} {}, {} {}\n",
            trim_number(self.mean_distance, 2),
            names[0],
            percent(self.a.cloaked_share),
            names[1],
            percent(self.b.cloaked_share),
            names[0],
            trim_number(self.a.shots_per_battle, 1),
            names[1],
            trim_number(self.b.shots_per_battle, 1)
        );
        for (who, c) in [
            ("a", &self.by_initiative.a_first),
            ("b", &self.by_initiative.b_first),
        ] {
            if c.battles == 0 {
                continue;
            }
            let share = |x: u64| percent(x as f64 / c.battles as f64);
            out += &format!(
                "{who} moved first ({} battles): a wins {}, b wins {}, escaped {}, disengaged \
                 {}, unfinished {}\n",
                c.battles,
                share(c.a_wins),
                share(c.b_wins),
                share(c.escapes),
                share(c.disengaged),
                share(c.unfinished)
            );
        }
        let fit = crate::output::fit_prose;
        format!(
            "{}{}\n{}",
            fit(&headline, layout),
            t.render(layout),
            fit(&out, layout)
        )
    }
}
