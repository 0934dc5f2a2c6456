//! A ship's rivals, and its record against them: what the editor's live balance shows on each
//! ship. The rivals are the ones `combat.rivals` names, else the ship it is most naturally
//! compared with (the next ship of its size, in the ruleset's order, wrapping, whose name
//! starts with another word, another faction; else the next of its size). Each matchup is `combat sim A B -n N --seed S` (the
//! default tactic on both sides, alternate first move), so the figures are the ones that
//! command prints, whatever the thread count.
use super::sampling::Share;
use crate::combat::sim::{simulate, SimOptions};
use crate::error::Result;
use crate::rules::model::Ruleset;
use rayon::prelude::*;

/// The ruleset's keys of `ship`'s rivals: the ones `combat.rivals` names (by name or alias),
/// else the one the module's rule picks; none for an unknown ship or one without a size.
pub fn rivals(rules: &Ruleset, ship: &str) -> Vec<String> {
    let Some(key) = rules.ship_key(ship) else {
        return Vec::new();
    };
    let named = rules.combat.as_ref().and_then(|c| {
        c.rivals
            .iter()
            .find(|(k, _)| rules.ship_key(k) == Some(key))
            .map(|(_, r)| r)
    });
    if let Some(named) = named {
        return named
            .iter()
            .filter_map(|r| rules.ship_key(r))
            .filter(|r| *r != key)
            .map(str::to_string)
            .collect();
    }
    let Some(size) = rules.ships[key].size.as_deref() else {
        return Vec::new();
    };
    let at = rules.ships.get_index_of(key).expect("a key of the ships");
    let n = rules.ships.len();
    let same_size: Vec<&str> = (1..n)
        .map(|k| {
            rules
                .ships
                .get_index((at + k) % n)
                .expect("an index in range")
        })
        .filter(|(_, s)| s.size.as_deref() == Some(size))
        .map(|(name, _)| name.as_str())
        .collect();
    let faction = |name: &str| name.split_whitespace().next().map(str::to_lowercase);
    same_size
        .iter()
        .find(|other| faction(other) != faction(key))
        .or(same_size.first())
        .map(|r| vec![r.to_string()])
        .unwrap_or_default()
}

/// Side a's record in `battles` battles against side b.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    pub wins: u64,
    pub losses: u64,
    pub battles: u64,
}

impl Record {
    pub(crate) fn decided(&self) -> u64 {
        self.wins + self.losses
    }

    /// The share of the decided battles a won (0.5 when none was decided), as the lab counts it.
    pub(crate) fn share(&self) -> f64 {
        self.decided_share().value()
    }

    /// Wilson 95% interval of the share.
    pub(crate) fn ci95(&self) -> [f64; 2] {
        self.decided_share().ci95()
    }

    fn decided_share(&self) -> Share {
        Share {
            wins: self.wins,
            decided: self.decided(),
        }
    }

    /// The share of all battles neither ship won.
    pub(crate) fn undecided(&self) -> f64 {
        match self.battles {
            0 => 0.0,
            n => (n - self.decided()) as f64 / n as f64,
        }
    }
}

/// Each pair's record, `combat sim A B -n battles --seed seed`, the pairs in parallel (on the
/// rayon pool this is called in, the caller's bound in force in every worker).
pub fn records(
    rules: &Ruleset,
    pairs: &[(String, String)],
    battles: u64,
    seed: u64,
) -> Vec<Result<Record>> {
    let bound = crate::stop::current();
    pairs
        .par_iter()
        .map(|(a, b)| {
            crate::stop::enter(bound.clone(), || {
                let r = simulate(rules, &SimOptions::new(a, b, battles, seed))?;
                Ok(Record {
                    wins: r.a.wins,
                    losses: r.b.wins,
                    battles: r.battles,
                })
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{io::Format, rules::load};

    fn load_text(name: &str, text: &str) -> Result<Ruleset> {
        let doc = load::parse_text(name, text, Format::of(name))?;
        load::ruleset_from_doc(&load::resolve_loaded(doc, name, None)?)
    }

    #[test]
    fn a_ship_meets_the_next_of_its_size_from_another_faction() {
        let r = crate::rules::load::load("startrek").unwrap();
        // Large: UFP heavy cruiser, Gorn attack cruiser, Klingon and Romulan battle cruisers.
        assert_eq!(rivals(&r, "UFP heavy cruiser"), ["Gorn attack cruiser"]);
        assert_eq!(rivals(&r, "Romulan battle cruiser"), ["UFP heavy cruiser"]);
        // Small, after the UFP frigate: the Pirate frigate.
        assert_eq!(rivals(&r, "Fragata de la UFP"), ["Pirate frigate"]);
        assert!(rivals(&r, "Nobody").is_empty());
    }

    #[test]
    fn named_rivals_come_first_and_must_be_ships() {
        let text = "extends startrek\ncombat {\n  rivals { \"UFP heavy cruiser\" = \
                    [\"Crucero de batalla Klingon\", \"UFP light cruiser\"] }\n}\n";
        let r = load_text("house.rules", text).unwrap();
        assert_eq!(
            rivals(&r, "UFP heavy cruiser"),
            ["Klingon battle cruiser", "UFP light cruiser"]
        );
        let bad = text.replace("UFP light cruiser", "UFP light crusier");
        let e = load_text("house.rules", &bad).unwrap_err();
        assert!(e.to_string().contains("UFP light crusier"), "{e}");
        let own = text.replace("UFP light cruiser", "Crucero pesado de la UFP");
        let e = load_text("house.rules", &own).unwrap_err();
        assert!(e.to_string().contains("its own rival"), "{e}");
    }

    #[test]
    fn records_are_the_sims_whatever_the_thread_count() {
        let r = crate::rules::load::load("startrek").unwrap();
        let pairs = [
            ("UFP frigate".to_string(), "Pirate frigate".to_string()),
            ("Pirate frigate".to_string(), "UFP frigate".to_string()),
        ];
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| records(&r, &pairs, 300, 7))
                .into_iter()
                .map(Result::unwrap)
                .collect::<Vec<_>>()
        };
        let one = on(1);
        assert_eq!(one, on(2));
        let sim = simulate(
            &r,
            &SimOptions::new("UFP frigate", "Pirate frigate", 300, 7),
        )
        .unwrap();
        assert_eq!((one[0].wins, one[0].losses), (sim.a.wins, sim.b.wins));
        assert_eq!(one[0].battles, 300);
        let [lo, hi] = one[0].ci95();
        assert!(lo < one[0].share() && one[0].share() < hi);
    }
}
