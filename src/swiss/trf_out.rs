//! Writing TRF-2026: the header, points system, rounds and one `001` line per player, as the
//! reference engine reads them. Every field keeps to its columns: a number too wide for its
//! field is refused, and a name is one line (TRF has no escapes: a control character in it
//! is written as `?`).
use super::model::{Colour, Field, Outcome};
use super::tournament::{MAX_RATING, MAX_SCORE_TENTHS};
use super::trf::show_tenths;
use crate::error::{Error, Result};

/// The field as TRF; `next`: a round paired but not played, written with its colours only
/// (results blank), or `None`.
pub fn write(field: &Field, title: &str, next: Option<&super::dutch::Pairing>) -> Result<String> {
    let mut out = String::new();
    out.push_str(&format!("012 {}\n", one_line(title)));
    out.push_str("092 FIDE_DUTCH_2025\n");
    out.push_str(&format!("XXR {}\n", field.total_rounds));
    match field.initial_colour.unwrap_or(Colour::White) {
        Colour::White => out.push_str("XXC white1\n"),
        Colour::Black => out.push_str("XXC black1\n"),
    }
    let p = &field.points;
    let mut codes = String::new();
    let mut put = |c: char, v: u32| codes.push_str(&format!("{c}{:>4}    ", show_tenths(v)));
    let values = [p.win, p.draw, p.loss, p.zero_bye, p.pairing_bye];
    if let Some(&v) = values.iter().find(|&&v| v > MAX_SCORE_TENTHS) {
        return Err(Error::out_of_range(
            "points",
            format!(
                "a result worth {} points does not fit TRF's point system (at most {})",
                show_tenths(v),
                show_tenths(MAX_SCORE_TENTHS)
            ),
        ));
    }
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
    // Virtual points (accelerated rounds) as JaVaFo's XXA: the player in columns 5-8, round
    // r's points in the four columns from 10 + 5(r - 1).
    for (e, row) in field.entrants.iter().zip(&field.acceleration) {
        if row.iter().any(|&v| v != 0) {
            out.push_str(&format!("XXA {:>4}", e.number));
            for &v in row {
                out.push_str(&format!(" {:>4}", show_tenths(v)));
            }
            out.push('\n');
        }
    }
    let rounds = field.played_rounds;
    for (i, e) in field.entrants.iter().enumerate() {
        let score = field.score_after(i, rounds);
        if e.rating > MAX_RATING {
            return Err(Error::out_of_range(
                "rating",
                format!(
                    "player {} ({}): rating {} does not fit TRF's four digits (at most \
                     {MAX_RATING})",
                    e.number,
                    one_line(&e.name),
                    e.rating
                ),
            ));
        }
        if score > MAX_SCORE_TENTHS {
            return Err(Error::out_of_range(
                "points",
                format!(
                    "player {} ({}): {} points do not fit TRF's points column (at most {})",
                    e.number,
                    one_line(&e.name),
                    show_tenths(score),
                    show_tenths(MAX_SCORE_TENTHS)
                ),
            ));
        }
        let mut line = format!(
            "001 {:>4}      {:<34}{:>4}{:>28}{:>4}{:>5}",
            e.number,
            truncate(&one_line(&e.name), 33),
            if e.rating > 0 {
                e.rating.to_string()
            } else {
                String::new()
            },
            "",
            show_tenths(score),
            ""
        );
        // Columns 1-89, before the first round.
        let fixed = line.len();
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
        // A round is 8 columns whatever it holds: a round paired but not played ends in a
        // blank result, which must stay (only the padding of a line without rounds goes).
        if line.len() == fixed {
            out.push_str(line.trim_end());
        } else {
            out.push_str(&line);
        }
        out.push('\n');
    }
    Ok(out)
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// A name as one line of a fixed-column file: control characters become `?`.
fn one_line(name: &str) -> String {
    name.chars()
        .map(|c| {
            if crate::names::is_unprintable(c) {
                '?'
            } else {
                c
            }
        })
        .collect()
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
        let again = trf::parse("out.trf", &super::write(&f, "t", None).unwrap(), false).unwrap();
        assert_eq!(f.entrants.len(), again.entrants.len());
        for (a, b) in f.entrants.iter().zip(&again.entrants) {
            assert_eq!(a.rounds, b.rounds);
            assert_eq!(a.rating, b.rating);
        }
        assert_eq!(f.points, again.points);
    }
}
