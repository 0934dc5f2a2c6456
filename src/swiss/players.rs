//! A tournament's player list: a CSV with a `name` column (and optionally `rating`), or one
//! name a line. Pure: the caller reads the file.
use super::tournament::MAX_RATING;
use crate::error::{Error, Result, Source, Span};
use std::collections::HashMap;
use std::sync::Arc;

/// The players (name, rating) in the list's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PlayerList {
    pub players: Vec<(String, u32)>,
    /// A warning for the person, when the list was read in a way they may not expect.
    pub warning: Option<String>,
}

/// Read a player list; `name` is its file's name in messages. A name given twice (case and
/// accents ignored) is refused at its line and column, naming the first.
pub(crate) fn parse(name: &str, text: &str) -> Result<PlayerList> {
    let path = name;
    let first = text.lines().next().unwrap_or("");
    let header: Vec<String> = first.split(',').map(|h| h.trim().to_lowercase()).collect();
    // Each player with the line and column its name is at.
    let mut out: Vec<(String, u32, usize, usize)> = Vec::new();
    let mut warning = None;
    if let Some(name_col) = header.iter().position(|h| h == "name") {
        let rating_col = header.iter().position(|h| h == "rating");
        let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
        for (i, rec) in reader.records().enumerate() {
            let line = i + 2;
            let rec = rec.map_err(|e| Error::msg(format!("{path}:{line}: {e}")))?;
            let name = rec.get(name_col).unwrap_or("").trim().to_string();
            if name.is_empty() {
                return Err(Error::msg(format!("{path}:{line}: a player has no name")));
            }
            let rating = match rating_col.and_then(|c| rec.get(c)).map(str::trim) {
                None | Some("") => 0,
                Some(r) => r
                    .parse()
                    .ok()
                    .filter(|&r: &u32| r <= MAX_RATING)
                    .ok_or_else(|| {
                        Error::msg(format!(
                            "{path}:{line}: rating `{r}` is not a number from 0 to {MAX_RATING}"
                        ))
                    })?,
            };
            let line = rec.position().map_or(line, |p| p.line() as usize);
            let col = column_of_cell(text.lines().nth(line - 1).unwrap_or(""), name_col);
            out.push((name, rating, line, col));
        }
    } else {
        // A list of names, one a line. A line `Ann,2000` (a CSV without its `name,rating`
        // header) is read as a name and a rating, and said so: taken whole it would be a
        // player called "Ann,2000" rated 0.
        let mut headerless = None;
        for (i, l) in text.lines().enumerate() {
            let mut name = l.trim();
            if name.is_empty() || name.starts_with('#') {
                continue;
            }
            let col = l.chars().take_while(|c| c.is_whitespace()).count() + 1;
            let mut rating = 0;
            if let Some((n, r)) = name.rsplit_once(',') {
                if let Ok(r) = r.trim().parse::<u32>() {
                    if r > MAX_RATING {
                        return Err(Error::msg(format!(
                            "{path}:{}: rating `{r}` is not a number from 0 to {MAX_RATING}",
                            i + 1
                        )));
                    }
                    (name, rating) = (n.trim(), r);
                    headerless.get_or_insert(i + 1);
                    if name.is_empty() {
                        return Err(Error::msg(format!(
                            "{path}:{}: a player has no name",
                            i + 1
                        )));
                    }
                }
            }
            out.push((name.to_string(), rating, i + 1, col));
        }
        if let Some(line) = headerless {
            warning = Some(format!(
                "{path}:{line}: no header line `name,rating`: lines like `Ann,2000` read as a \
                 name and a rating"
            ));
        }
    }
    let mut seen: HashMap<String, (usize, usize)> = HashMap::new();
    for (i, (name, _, line, col)) in out.iter().enumerate() {
        if let Some(&(first, line_first)) = seen.get(&crate::names::normalize(name)) {
            let first = &out[first].0;
            let same = if first == name {
                String::new()
            } else {
                format!(", as `{first}`: case and accents are ignored")
            };
            let source = Arc::new(Source {
                name: path.to_string(),
                text: text.to_string(),
            });
            return Err(Span::new(&source, *line, *col).at(format!(
                "player `{name}` is listed twice (first on line {line_first}{same})"
            )));
        }
        seen.insert(crate::names::normalize(name), (i, *line));
    }
    Ok(PlayerList {
        players: out.into_iter().map(|(n, r, _, _)| (n, r)).collect(),
        warning,
    })
}

/// The column (from 1) where cell `k` of a CSV line starts, past its spaces (quotes aside:
/// only for pointing at it).
fn column_of_cell(line: &str, k: usize) -> usize {
    let mut cells = line.split(',');
    let before: usize = cells.by_ref().take(k).map(|c| c.chars().count() + 1).sum();
    let spaces = cells
        .next()
        .map_or(0, |c| c.chars().take_while(|c| c.is_whitespace()).count());
    before + spaces + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_csv_with_ratings_and_a_plain_list() {
        let l = parse("p.csv", "name,rating\nAnn,2100\n Bo ,\n").unwrap();
        assert_eq!(l.players, vec![("Ann".into(), 2100), ("Bo".into(), 0)]);
        assert_eq!(l.warning, None);
        let l = parse("p.txt", "# club\nAnn\nBo,1800\n").unwrap();
        assert_eq!(l.players, vec![("Ann".into(), 0), ("Bo".into(), 1800)]);
        assert!(l.warning.unwrap().starts_with("p.txt:3: no header line"));
    }

    #[test]
    fn a_name_twice_is_refused_where_it_is() {
        let e = parse("p.csv", "name,rating\nAnn,1\n ann,2\n").unwrap_err();
        assert_eq!(e.location(), Some(("p.csv", 3, 2)));
        assert!(e.message().contains("listed twice (first on line 2"), "{e}");
    }
}
