//! Writing TRF-2026: the header, points system, rounds and one `001` line per player, as the
//! reference engine reads them.
use super::model::{Colour, Field, Outcome};
use super::trf::show_tenths;

/// The field as TRF; `next`: a round paired but not played, written with its colours only
/// (results blank), or `None`.
pub fn write(field: &Field, title: &str, next: Option<&super::dutch::Pairing>) -> String {
    let mut out = String::new();
    out.push_str(&format!("012 {title}\n"));
    out.push_str("092 FIDE_DUTCH_2025\n");
    out.push_str(&format!("XXR {}\n", field.total_rounds));
    match field.initial_colour.unwrap_or(Colour::White) {
        Colour::White => out.push_str("XXC white1\n"),
        Colour::Black => out.push_str("XXC black1\n"),
    }
    let p = &field.points;
    let mut codes = String::new();
    let mut put = |c: char, v: u32| codes.push_str(&format!("{c}{:>4}    ", show_tenths(v)));
    if (p.win, p.draw, p.loss, p.zero_bye, p.pairing_bye) != (10, 5, 0, 0, 10) {
        put('W', p.win);
        put('D', p.draw);
        if p.loss != 0 {
            put('L', p.loss);
        }
        if p.zero_bye != 0 {
            put('A', p.zero_bye);
        }
        if p.pairing_bye != p.win {
            put('P', p.pairing_bye);
        }
        out.push_str(&format!("162  {}\n", codes.trim_end()));
    }
    let rounds = field.played_rounds;
    for (i, e) in field.entrants.iter().enumerate() {
        let score = field.score_after(i, rounds);
        let mut line = format!(
            "001 {:>4}      {:<34}{:>4}{:>28}{:>4}{:>5}",
            e.number,
            truncate(&e.name, 33),
            if e.rating > 0 {
                e.rating.to_string()
            } else {
                String::new()
            },
            "",
            show_tenths(score),
            ""
        );
        for r in &e.rounds[..rounds] {
            line.push_str("  ");
            line.push_str(&cell(r, p.pairing_bye));
        }
        if let Some(pairing) = next {
            if let Some(&(w, b)) = pairing.pairs.iter().find(|&&(w, b)| w == i || b == i) {
                let (o, c) = if w == i { (b, 'w') } else { (w, 'b') };
                line.push_str(&format!("  {:>4} {c}  ", o + 1));
            } else if pairing.bye == Some(i) {
                line.push_str("  0000 - U");
            } else if let Some(r) = e.rounds.get(rounds) {
                line.push_str("  ");
                line.push_str(&cell(r, p.pairing_bye));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

fn cell(r: &super::model::Round, _pab: u32) -> String {
    match (r.opponent, r.paired) {
        (None, true) => "0000 - U".into(),
        (None, false) => format!(
            "0000 - {}",
            match r.outcome {
                Outcome::Win => 'F',
                Outcome::Draw => 'H',
                Outcome::Loss => 'Z',
            }
        ),
        (Some(o), _) => {
            let c = match r.colour {
                Some(Colour::White) => 'w',
                Some(Colour::Black) => 'b',
                None => '-',
            };
            let res = match (r.played, r.outcome) {
                (true, Outcome::Win) => '1',
                (true, Outcome::Draw) => '=',
                (true, Outcome::Loss) => '0',
                (false, Outcome::Win) => '+',
                (false, _) => '-',
            };
            format!("{:>4} {c} {res}", o + 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::trf;

    #[test]
    fn a_written_trf_reads_back_the_same() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/swiss/p05.trf"
        ))
        .unwrap();
        let f = trf::parse("p05.trf", &text, false).unwrap();
        let again = trf::parse("out.trf", &super::write(&f, "t", None), false).unwrap();
        assert_eq!(f.entrants.len(), again.entrants.len());
        for (a, b) in f.entrants.iter().zip(&again.entrants) {
            assert_eq!(a.rounds, b.rounds);
            assert_eq!(a.rating, b.rating);
        }
        assert_eq!(f.points, again.points);
    }
}
