//! A fast reader for the plain shape most YAML histories have: `rules:`, a one-line
//! `ratings: { Ana: 1613 }`, and `games:` with one flow mapping a line
//! (`  - { period: 1, order: [Bo, [Ana, Cy]] }`). Anything it is not sure of (quotes,
//! anchors, block mappings, a name YAML would read as a number or a boolean, a repeated
//! key) makes it give up, and the full YAML parser reads the file instead: it never reads a
//! file differently from that parser, it only reads the usual ones faster.
use super::history::{History, HistoryGame, Period, Placing, StartRating};
use indexmap::IndexMap;

/// The history in `text`, or None to let the full parser decide.
pub(crate) fn fast(text: &str) -> Option<History> {
    let mut history = History::default();
    let (mut rules, mut ratings, mut games) = (false, false, false);
    let mut in_games = false;
    for line in text.lines() {
        let content = strip_comment(line)?;
        if content.trim().is_empty() {
            continue;
        }
        if content.contains('\t') {
            return None;
        }
        if in_games && content.starts_with(' ') {
            let item = content.trim_start().strip_prefix("- ")?;
            history.games.push(game(item.trim())?);
            continue;
        }
        in_games = false;
        let (key, value) = content.split_once(':')?;
        let value = value.trim();
        match key {
            "rules" if !rules => {
                rules = true;
                history.rules = Some(plain(value)?.to_string());
            }
            "ratings" if !ratings => {
                ratings = true;
                for (name, v) in flow_map(value)? {
                    let r = number(v)?;
                    if history
                        .ratings
                        .insert(name.to_string(), StartRating::Rating(r))
                        .is_some()
                    {
                        return None;
                    }
                }
            }
            "games" if !games && value.is_empty() => {
                games = true;
                in_games = true;
            }
            _ => return None,
        }
    }
    // An empty `games:` is null to YAML: the full parser says what is wrong.
    if !games || history.games.is_empty() {
        return None;
    }
    Some(history)
}

/// The line without a trailing comment; None if a `#` might be inside something.
fn strip_comment(line: &str) -> Option<&str> {
    match line.find('#') {
        None => Some(line),
        // A comment starts at the line's start or after a space.
        Some(i) if i == 0 || line[..i].ends_with(' ') => Some(&line[..i]),
        Some(_) => None,
    }
}

fn game(item: &str) -> Option<HistoryGame> {
    let mut g = HistoryGame::default();
    let mut seen = [false; 5];
    for (key, value) in flow_map(item)? {
        let slot = ["period", "label", "date", "order", "scores"]
            .iter()
            .position(|k| *k == key)?;
        if std::mem::replace(&mut seen[slot], true) {
            return None;
        }
        match slot {
            0 => {
                g.period = Some(match integer(value) {
                    Some(n) => Period::Number(n),
                    None => Period::Name(plain(value)?.to_string()),
                })
            }
            1 => g.label = Some(plain(value)?.to_string()),
            2 => g.date = Some(plain_date(value)?.to_string()),
            3 => g.order = Some(order(value)?),
            _ => {
                let mut scores = IndexMap::new();
                for (name, v) in flow_map(value)? {
                    if scores.insert(name.to_string(), number(v)?).is_some() {
                        return None;
                    }
                }
                g.scores = Some(scores);
            }
        }
    }
    Some(g)
}

/// `[A, B, [C, D]]`.
fn order(text: &str) -> Option<Vec<Placing>> {
    let inner = text.strip_prefix('[')?.strip_suffix(']')?;
    let mut out = Vec::new();
    let mut rest = inner.trim();
    while !rest.is_empty() {
        if let Some(tie) = rest.strip_prefix('[') {
            let end = tie.find(']')?;
            let names = tie[..end]
                .split(',')
                .map(|n| plain(n.trim()).map(str::to_string))
                .collect::<Option<Vec<String>>>()?;
            out.push(Placing::Tied(names));
            rest = tie[end + 1..].trim_start();
        } else {
            let end = rest.find(',').unwrap_or(rest.len());
            out.push(Placing::One(plain(rest[..end].trim())?.to_string()));
            rest = &rest[end..];
        }
        rest = match rest.strip_prefix(',') {
            Some(r) => {
                let r = r.trim_start();
                // `[A, B, ]`: leave trailing commas to the full parser.
                if r.is_empty() {
                    return None;
                }
                r
            }
            None if rest.trim().is_empty() => "",
            None => return None,
        };
    }
    if out.is_empty() {
        return None;
    }
    Some(out)
}

/// `{ k: v, k: v }` with no nesting but one `[...]` value list; keys and values as text.
fn flow_map(text: &str) -> Option<Vec<(&str, &str)>> {
    let inner = text.strip_prefix('{')?.strip_suffix('}')?.trim();
    let mut out = Vec::new();
    let mut rest = inner;
    while !rest.is_empty() {
        let colon = rest.find(": ")?;
        let key = plain(rest[..colon].trim())?;
        let after = rest[colon + 2..].trim_start();
        let end = match after.as_bytes().first()? {
            b'[' => matching(after, b'[', b']')? + 1,
            b'{' => matching(after, b'{', b'}')? + 1,
            _ => after.find(',').unwrap_or(after.len()),
        };
        out.push((key, after[..end].trim()));
        rest = after[end..].trim_start();
        match rest.strip_prefix(',') {
            Some(r) if !r.trim().is_empty() => rest = r.trim_start(),
            Some(_) => return None,
            None if rest.is_empty() => {}
            None => return None,
        }
    }
    Some(out)
}

/// Where the bracket opened at 0 closes (one level of nesting inside, as ties have).
fn matching(text: &str, open: u8, close: u8) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in text.bytes().enumerate() {
        if b == open {
            depth += 1;
        } else if b == close {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// A scalar YAML reads as this very string: letters first, then letters, digits, spaces,
/// `_`, `-`, `.` and `'`; not a word YAML gives a meaning.
fn plain(text: &str) -> Option<&str> {
    let mut chars = text.chars();
    if !chars.next()?.is_alphabetic() || text.ends_with(' ') {
        return None;
    }
    if !chars.all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.' | '\'')) {
        return None;
    }
    if text.contains("  ") {
        return None;
    }
    const MEANINGFUL: &[&str] = &["true", "false", "null", "yes", "no", "on", "off", "y", "n"];
    if MEANINGFUL.iter().any(|w| w.eq_ignore_ascii_case(text)) {
        return None;
    }
    Some(text)
}

/// `2024-03-17`: digits and dashes, kept as text (the history checks it is a date).
fn plain_date(text: &str) -> Option<&str> {
    let ok = text.len() == 10
        && text.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    ok.then_some(text)
}

fn integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // A leading zero (`007`) is left to the full parser.
    if digits.len() > 1 && digits.starts_with('0') {
        return None;
    }
    text.parse().ok()
}

/// A plain decimal number (`1613`, `-2.5`).
fn number(text: &str) -> Option<f64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "0"));
    let all = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !(all(whole) && all(fraction)) || whole.len() > 15 {
        return None;
    }
    if whole.len() > 1 && whole.starts_with('0') {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn full(text: &str) -> Option<History> {
        serde_yaml::from_str(text).ok()
    }

    #[test]
    fn reads_the_usual_shape() {
        let text = "# a season\nrules: elo\nratings: { Ana: 1613, Bo: 1609 }\ngames:\n  - { period: 1, order: [Bo, Ana] }\n  - { order: [[Ana, Cy], Di] }   # a tie\n  - { scores: { Ana: 7500, Bo: 7200.5 } }\n  - { period: spring, label: final, date: 2024-03-17, order: [Ana María, Bo] }\n";
        let fast = fast(text).expect("the usual shape");
        assert_eq!(Some(fast), full(text));
    }

    #[test]
    fn gives_up_on_what_it_is_not_sure_of() {
        for text in [
            "games:\n  - { order: [true, Bo] }\n",
            "games:\n  - { order: [\"Ana\", Bo] }\n",
            "games:\n  - { order: [1613, Bo] }\n",
            "games:\n  - { order: [Ana, Bo], order: [Bo, Ana] }\n",
            "games:\n  - order: [Ana, Bo]\n",
            "games:\n  - { order: [Ana, Bo] }\nratings:\n  Ana: 3\n",
            "games:\n  - { order: [Ana, Bo], extra: 1 }\n",
            "games:\n  - { period: 007, order: [Ana, Bo] }\n",
            "---\ngames:\n  - { order: [Ana, Bo] }\n",
            "games:\n",
            "games: &a\n  - { order: [Ana, Bo] }\n",
            "games:\n  - { order: [Ana#1, Bo] }\n",
        ] {
            assert_eq!(fast(text), None, "{text}");
        }
    }

    fn name() -> impl Strategy<Value = String> {
        prop_oneof![
            "[A-Za-zé][A-Za-z0-9 _.'-]{0,8}",
            Just("true".to_string()),
            Just("No".to_string()),
            Just("null".to_string()),
            "[0-9][0-9.e-]{0,4}",
            "[-.~!&*?|>%@`\"' ][A-Za-z ]{0,3}",
            "[A-Za-z]{1,3}[:#,\\[\\]{}][A-Za-z ]{0,3}",
        ]
    }

    proptest! {
        // Whatever it accepts, the full parser reads the same way.
        #[test]
        fn never_disagrees_with_the_full_parser(
            names in proptest::collection::vec(name(), 2..6),
            period in prop_oneof![Just(String::new()), "[0-9]{1,3}", name()],
            score in prop_oneof![Just(false), Just(true)],
            number in "-?[0-9]{1,4}(\\.[0-9]{1,3})?",
        ) {
            let period = if period.is_empty() { String::new() } else { format!("period: {period}, ") };
            let body = if score {
                let pairs: Vec<String> = names.iter().map(|n| format!("{n}: {number}")).collect();
                format!("scores: {{ {} }}", pairs.join(", "))
            } else {
                format!("order: [{}, [{}]]", names[0], names[1..].join(", "))
            };
            let text = format!("rules: elo\nratings: {{ {}: {number} }}\ngames:\n  - {{ {period}{body} }}\n", names[0]);
            if let Some(h) = fast(&text) {
                prop_assert_eq!(Some(h), full(&text), "{}", text);
            }
        }
    }
}
