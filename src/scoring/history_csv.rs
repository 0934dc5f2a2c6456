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
use super::prepared::{NameState, Prepared, Ranking};
use crate::error::{Error, Place, Result, Source, Span};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;

/// Where each game's rows are in the text, to locate problems found after loading.
#[derive(Debug, Clone)]
pub struct CsvIndex {
    source: Arc<Source>,
    columns: Columns,
    /// Byte offset of every row, in file order.
    rows: Vec<usize>,
    /// Index into `rows` of each game's first row (and one past the last game).
    games: Vec<usize>,
}

#[derive(Debug, Clone, Copy)]
struct Columns {
    game: usize,
    player: usize,
    value: usize,
    period: Option<usize>,
    date: Option<usize>,
}

/// The game being read: its key and period; its rows wait in a reused buffer.
struct Open {
    period: Option<usize>,
    day: Option<i64>,
}

/// The games met so far, by a hash of their key and the row that started them (no copy of
/// each key: on a hash match the key is compared with the text of that row).
#[derive(Default)]
struct SeenGames {
    first: HashMap<u64, usize, NameState>,
    more: Vec<(u64, usize)>,
}

impl SeenGames {
    /// Note a game starting at `row`; `Err(first)` if the same key started an earlier game
    /// at row `first` (a byte offset).
    fn insert(
        &mut self,
        key: &str,
        row: usize,
        index: &CsvIndex,
    ) -> std::result::Result<(), usize> {
        let mut h = self.first.hasher().build_hasher();
        h.write(key.as_bytes());
        let hash = h.finish();
        let same = |r: usize| cell_text(&index.source.text[r..], index.columns.game) == key;
        match self.first.get(&hash) {
            None => {
                self.first.insert(hash, row);
                Ok(())
            }
            Some(&r) if same(r) => Err(r),
            Some(_) => {
                if let Some(&(_, r)) = self.more.iter().find(|&&(h2, r)| h2 == hash && same(r)) {
                    return Err(r);
                }
                self.more.push((hash, row));
                Ok(())
            }
        }
    }
}

pub fn parse(name: &str, text: String) -> Result<(CsvIndex, Prepared)> {
    let source = Arc::new(Source {
        name: name.to_string(),
        text,
    });
    let text = source.text.as_str();
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let csv_error = |e: csv::Error| -> Error {
        match e.position() {
            Some(p) => span_at(&source, p.byte() as usize, 0)
                .at(format!("bad CSV: {}", plain_csv_message(&e))),
            None => Error::msg(format!("{name}: bad CSV: {e}")),
        }
    };
    let headers = reader.headers().map_err(csv_error)?.clone();
    let find = |n: &str| {
        headers
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(n))
    };
    let header = Span::new(&source, 1, 1);
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
        source: source.clone(),
        columns,
        rows: Vec::new(),
        games: Vec::new(),
    };
    let mut prepared = Prepared::default();
    // One row a line: size the arrays once instead of growing them.
    let lines = text.as_bytes().iter().filter(|&&b| b == b'\n').count();
    prepared.reserve(lines);
    index.rows.reserve(lines);
    let mut seen = SeenGames::default();
    seen.first.reserve(lines / 2);
    let mut last_period: Option<(Vec<u8>, usize)> = None;
    let mut open: Option<Open> = None;
    let mut key: Vec<u8> = Vec::new();
    let mut rows: Vec<(usize, f64, usize)> = Vec::new();
    let mut record = csv::ByteRecord::new();
    while reader.read_byte_record(&mut record).map_err(csv_error)? {
        let start = record.position().map(|p| p.byte() as usize).unwrap_or(0);
        // Cells stay bytes until they are needed as text: most rows repeat the game and
        // period of the row before. The file was read as UTF-8 text, so every cell is UTF-8.
        let cell = |k: usize| record.get(k).unwrap_or(b"").trim_ascii();
        let at = |k: usize| span_at(&source, start, k);
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
                close(&mut prepared, &index, &mut rows, ranking, o.period, o.day)?;
            }
            let game = text_of(game);
            if let Err(first) = seen.insert(game, start, &index) {
                let began = span_at(&source, first, columns.game).line;
                return Err(at(columns.game).at(format!(
                    "game `{game}` began on line {began}, and other games' rows came between: \
                     keep a game's rows together"
                )));
            }
            index.games.push(index.rows.len());
            key.clear();
            key.extend_from_slice(game.as_bytes());
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
        rows.push((prepared.names.id(player), value, index.rows.len()));
        index.rows.push(start);
    }
    if let Some(o) = open.take() {
        close(&mut prepared, &index, &mut rows, ranking, o.period, o.day)?;
    }
    index.games.push(index.rows.len());
    Ok((index, prepared))
}

/// Hand a finished game's rows to the prepared history.
fn close(
    prepared: &mut Prepared,
    index: &CsvIndex,
    rows: &mut Vec<(usize, f64, usize)>,
    ranking: Ranking,
    period: Option<usize>,
    day: Option<i64>,
) -> Result<()> {
    if rows.len() < 2 {
        let row = index.rows[rows[0].2];
        return Err(span_at(&index.source, row, index.columns.game).at(format!(
            "a game needs at least two players (found {})",
            rows.len()
        )));
    }
    let result = prepared.push_game(rows, ranking, period, day, None);
    rows.clear();
    result.map_err(|tag| {
        let row = index.rows[tag];
        let name = cell_text(&index.source.text[row..], index.columns.player).to_string();
        span_at(&index.source, row, index.columns.player)
            .at(format!("`{name}` is listed twice in this game"))
    })
}

impl CsvIndex {
    /// The row a problem found while rating concerns: the game's first row.
    pub fn locate(&self, e: Invalid) -> Error {
        let mut segments = e.pointer().unwrap_or("").split('/').skip(1);
        let game = match (
            segments.next(),
            segments.next().and_then(|s| s.parse::<usize>().ok()),
        ) {
            (Some("games"), Some(g)) => g,
            _ => return e.locate(None),
        };
        let Some(&first) = self.games.get(game) else {
            return e.locate(None);
        };
        let Some(&row) = self.rows.get(first) else {
            return e.locate(None);
        };
        let column = match segments.next() {
            Some("period") => self.columns.period.unwrap_or(self.columns.game),
            Some("date") => self.columns.date.unwrap_or(self.columns.game),
            Some("order") | Some("scores") => self.columns.value,
            _ => self.columns.game,
        };
        e.with_place(Place::Span(span_at(&self.source, row, column)))
    }
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

/// The place of cell `k` of the row starting at byte `row`.
fn span_at(source: &Arc<Source>, row: usize, k: usize) -> Span {
    let text = &source.text;
    let row = row.min(text.len());
    let byte = row + field_offset(&text[row..], k);
    let before = &text[..byte];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    Span::new(source, line, text[line_start..byte].chars().count() + 1)
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
