//! Histories as CSV: one row per player per game.
//!
//! ```text
//! period,game,player,place        # or `score` instead of `place`; `period` is optional
//! 1,g1,Bo,1
//! 1,g1,Ana,2
//! ```
//! Rows of one game are consecutive; equal places are a tie. Errors point at the row and
//! cell. Positions are worked out only when there is an error, so big files load fast.
use super::game::Invalid;
use super::prepared::{Prepared, Ranking};
use super::seen_games::SeenGames;
use crate::error::{Error, Place, Result, Source, Span};
use std::sync::Arc;

/// Where each game is in the file, to locate problems found after loading: the file is read
/// as a stream and not kept, so each game keeps its first row's line number and text.
#[derive(Debug, Clone)]
pub(crate) struct CsvIndex {
    name: String,
    columns: Columns,
    /// Line of each game's first row.
    lines: Vec<usize>,
    /// Each game's first row, as text (cells joined by commas), one after another.
    first_rows: String,
    /// Where each game's first row starts in `first_rows` (and one past the last).
    first_row_ends: Vec<usize>,
}

#[derive(Debug, Clone, Copy)]
struct Columns {
    game: usize,
    player: usize,
    value: usize,
    period: Option<usize>,
    date: Option<usize>,
}

/// The game being read: its period and date; its rows wait in reused buffers.
struct Open {
    period: Option<usize>,
    day: Option<i64>,
}

/// A history's CSV text (a script's, a test's).
pub(crate) fn parse(name: &str, text: String) -> Result<(CsvIndex, Prepared)> {
    parse_stream(name, text.as_bytes(), usize::MAX)
}

/// Read a CSV history row by row from `input`, holding no more than the games it makes; at
/// most `max_rows` player rows (one per player per game), a bound on the memory it takes.
pub(crate) fn parse_stream(
    name: &str,
    input: impl std::io::Read,
    max_rows: usize,
) -> Result<(CsvIndex, Prepared)> {
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(input);
    let csv_error = |e: csv::Error| -> Error {
        match e.position() {
            Some(p) => Span::new(&no_text(name), p.line() as usize, 1)
                .at(format!("bad CSV: {}", plain_csv_message(&e))),
            None => Error::msg(format!("{name}: bad CSV: {e}")),
        }
    };
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) if matches!(e.kind(), csv::ErrorKind::Utf8 { .. }) => {
            return Err(Span::new(&no_text(name), 1, 1).at("not UTF-8 text (a binary file?)"))
        }
        Err(e) => return Err(csv_error(e)),
    };
    let find = |n: &str| {
        headers
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(n))
    };
    let header_text = headers.iter().collect::<Vec<_>>().join(",");
    let header = Span::new(&row_source(name, 1, &header_text), 1, 1);
    let (place, score) = (find("place"), find("score"));
    if place.is_some() == score.is_some() {
        return Err(header.at(
            "the CSV header needs a `place` column (1 = first) or a `score` column, one of the two",
        ));
    }
    let columns = Columns {
        game: find("game").ok_or_else(|| {
            header
                .clone()
                .at("the CSV header needs a `game` column (rows of one game share its value)")
        })?,
        player: find("player")
            .ok_or_else(|| header.clone().at("the CSV header needs a `player` column"))?,
        value: place.or(score).expect("checked above"),
        period: find("period"),
        date: find("date"),
    };
    let ranking = if score.is_some() {
        Ranking::Descending
    } else {
        Ranking::Ascending
    };

    let mut index = CsvIndex {
        name: name.to_string(),
        columns,
        lines: Vec::new(),
        first_rows: String::new(),
        first_row_ends: vec![0],
    };
    let mut prepared = Prepared::default();
    let mut seen = SeenGames::default();
    let mut last_period: Option<(Vec<u8>, usize)> = None;
    let mut open: Option<Open> = None;
    let mut key: Vec<u8> = Vec::new();
    // The open game's rows: (player, value, row number in the game), and each row's line
    // and text (for an error naming one of them).
    let mut rows: Vec<(usize, f64, usize)> = Vec::new();
    let mut row_lines: Vec<usize> = Vec::new();
    // Kept from game to game (cleared, not freed): a row's text is one allocation less.
    let mut row_texts: Vec<String> = Vec::new();
    let mut raw_buffer = String::new();
    let mut total_rows = 0usize;
    let mut record = csv::ByteRecord::new();
    while reader.read_byte_record(&mut record).map_err(csv_error)? {
        let line = record.position().map_or(1, |p| p.line() as usize);
        record_text(&record, &mut raw_buffer);
        let raw = raw_buffer.as_str();
        let at = |k: usize| Span::new(&row_source(name, line, raw), line, column_of(raw, k));
        if std::str::from_utf8(record.as_slice()).is_err() {
            return Err(Span::new(&no_text(name), line, 1).at("not UTF-8 text (a binary file?)"));
        }
        total_rows += 1;
        if total_rows > max_rows {
            // The way out is an option: the CLI names it `--max-rows`, a script its key.
            let message = format!(
                "more than {max_rows} rows (one per player per game): rate with a larger \
                 `max_rows`, or split the history"
            );
            return Err(Error::options(&["max_rows"], message).with_place(Place::Span(at(0))));
        }
        // Cells stay bytes until they are needed as text: most rows repeat the game and
        // period of the row before.
        let cell = |k: usize| record.get(k).unwrap_or(b"").trim_ascii();
        let game = cell(columns.game);
        let player = text_of(cell(columns.player));
        if player.is_empty() {
            return Err(at(columns.player).at("a row needs a player"));
        }
        let value = match number(cell(columns.value)) {
            Some(v) => v,
            None => {
                return Err(at(columns.value).at(format!(
                    "`{}` is not a number",
                    text_of(cell(columns.value))
                )))
            }
        };
        if ranking == Ranking::Ascending && !(value >= 1.0 && value.fract() == 0.0) {
            return Err(at(columns.value).at(format!(
                "`{}` is not a place: places are whole numbers, 1 for first",
                text_of(cell(columns.value))
            )));
        }
        let period = match columns.period.map(cell) {
            Some(p) if !p.is_empty() => match &last_period {
                Some((bytes, id)) if bytes.as_slice() == p => Some(*id),
                _ => {
                    let id = prepared.period_id(text_of(p));
                    last_period = Some((p.to_vec(), id));
                    Some(id)
                }
            },
            _ => None,
        };
        let day = match columns.date.map(cell) {
            Some(d) if !d.is_empty() => {
                Some(super::dates::day_number(text_of(d)).ok_or_else(|| {
                    at(columns.date.unwrap_or(0)).at(format!(
                        "`{}` is not a date: write it YYYY-MM-DD",
                        text_of(d)
                    ))
                })?)
            }
            _ => None,
        };
        if open.is_none() || key.as_slice() != game {
            if let Some(o) = open.take() {
                close(
                    &mut prepared,
                    &index,
                    &mut rows,
                    &row_lines,
                    &row_texts[..row_lines.len()],
                    ranking,
                    o,
                )?;
            }
            let game_number = index.lines.len();
            index.lines.push(line);
            index.first_rows.push_str(raw);
            index.first_row_ends.push(index.first_rows.len());
            let same = |g: usize| cell_text(index.first_row(g), columns.game).as_bytes() == game;
            if let Err(first) = seen.insert(text_of(game), game_number, same) {
                let began = index.lines[first];
                return Err(at(columns.game).at(format!(
                    "game `{}` began on line {began}, and other games' rows came between: \
                     keep a game's rows together",
                    text_of(game)
                )));
            }
            key.clear();
            key.extend_from_slice(game);
            row_lines.clear();
            open = Some(Open { period, day });
        }
        if open.as_ref().is_some_and(|o| o.period != period) {
            return Err(
                at(columns.period.unwrap_or(0)).at("a game's rows must all have the same period")
            );
        }
        if open.as_ref().is_some_and(|o| o.day != day) {
            return Err(
                at(columns.date.unwrap_or(0)).at("a game's rows must all have the same date")
            );
        }
        if rows.len() == super::game::MAX_PLAYERS_PER_GAME {
            return Err(at(columns.player).at(super::game::too_many("player")));
        }
        rows.push((prepared.names.id(player), value, row_lines.len()));
        match row_texts.get_mut(row_lines.len()) {
            Some(text) => {
                text.clear();
                text.push_str(raw);
            }
            None => row_texts.push(raw.to_string()),
        }
        row_lines.push(line);
    }
    if let Some(o) = open.take() {
        close(
            &mut prepared,
            &index,
            &mut rows,
            &row_lines,
            &row_texts[..row_lines.len()],
            ranking,
            o,
        )?;
    }
    Ok((index, prepared))
}

/// Hand a finished game's rows to the prepared history.
fn close(
    prepared: &mut Prepared,
    index: &CsvIndex,
    rows: &mut Vec<(usize, f64, usize)>,
    lines: &[usize],
    texts: &[String],
    ranking: Ranking,
    open: Open,
) -> Result<()> {
    let at = |row: usize, k: usize| {
        Span::new(
            &row_source(&index.name, lines[row], &texts[row]),
            lines[row],
            column_of(&texts[row], k),
        )
    };
    if rows.len() < 2 {
        return Err(at(0, index.columns.game).at(format!(
            "a game needs at least two players (found {})",
            rows.len()
        )));
    }
    let result = prepared.push_game(rows, ranking, open.period, open.day, None);
    rows.clear();
    result.map_err(|tag| {
        let name = cell_text(&texts[tag], index.columns.player).to_string();
        at(tag, index.columns.player).at(format!("`{name}` is listed twice in this game"))
    })
}

impl CsvIndex {
    fn first_row(&self, game: usize) -> &str {
        &self.first_rows[self.first_row_ends[game]..self.first_row_ends[game + 1]]
    }

    /// The row a problem found while rating concerns: the game's first row.
    pub(crate) fn locate(&self, e: Invalid) -> Error {
        let mut segments = e.pointer().unwrap_or("").split('/').skip(1);
        let game = match (
            segments.next(),
            segments.next().and_then(|s| s.parse::<usize>().ok()),
        ) {
            (Some("games"), Some(g)) => g,
            _ => return e.locate(None),
        };
        let Some(&line) = self.lines.get(game) else {
            return e.locate(None);
        };
        let column = match segments.next() {
            Some("period") => self.columns.period.unwrap_or(self.columns.game),
            Some("date") => self.columns.date.unwrap_or(self.columns.game),
            Some("order") | Some("scores") => self.columns.value,
            _ => self.columns.game,
        };
        let row = self.first_row(game);
        let span = Span::new(
            &row_source(&self.name, line, row),
            line,
            column_of(row, column),
        );
        e.with_place(Place::Span(span))
    }
}

/// A source for an error's place that shows only its row: the file is not kept, so the row
/// stands alone at its line (the lines before it blank).
fn row_source(name: &str, line: usize, row: &str) -> Arc<Source> {
    let mut text = "\n".repeat(line.saturating_sub(1));
    text.push_str(row);
    Arc::new(Source {
        name: name.to_string(),
        text,
    })
}

fn no_text(name: &str) -> Arc<Source> {
    Arc::new(Source {
        name: name.to_string(),
        text: String::new(),
    })
}

/// A record as a row of text in `out`: its cells joined by commas, quoted where they must be.
fn record_text(record: &csv::ByteRecord, out: &mut String) {
    out.clear();
    for (k, cell) in record.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        let cell = String::from_utf8_lossy(cell);
        if cell.contains([',', '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&cell.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(&cell);
        }
    }
}

/// The 1-based column (in characters) of cell `k` of a row.
fn column_of(row: &str, k: usize) -> usize {
    row[..field_offset(row, k)].chars().count() + 1
}

/// A finite number; small whole numbers (places) without going through text.
fn number(bytes: &[u8]) -> Option<f64> {
    if !bytes.is_empty() && bytes.len() <= 15 && bytes.iter().all(u8::is_ascii_digit) {
        return Some(bytes.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0')) as f64);
    }
    text_of(bytes).parse::<f64>().ok().filter(|v| v.is_finite())
}

fn text_of(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap_or("")
}

/// Byte offset of the `k`-th field of the CSV row that starts `raw` (quotes respected):
/// the parsed record no longer knows where its delimiters were.
fn field_offset(raw: &str, k: usize) -> usize {
    let mut field = 0;
    let mut quoted = false;
    for (i, c) in raw.char_indices() {
        if field == k {
            return i;
        }
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => field += 1,
            '\n' if !quoted => break,
            _ => {}
        }
    }
    0
}

/// The (trimmed, unquoted) text of field `k` of the row that starts `raw`.
fn cell_text(raw: &str, k: usize) -> &str {
    let from = field_offset(raw, k);
    let rest = raw[from..].trim_start();
    if let Some(quoted) = rest.strip_prefix('"') {
        return &quoted[..quoted.find('"').unwrap_or(quoted.len())];
    }
    let end = rest.find([',', '\n', '\r']).unwrap_or(rest.len());
    rest[..end].trim()
}

fn plain_csv_message(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("this row has {len} cells, the header {expected_len}"),
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".to_string(),
        _ => e.to_string(),
    }
}
