//! Histories as CSV: one row per player per game.
//!
//! ```text
//! period,game,player,place        # or `score` instead of `place`; `period` is optional
//! 1,g1,Bo,1
//! 1,g1,Ana,2
//! ```
//! Rows of one game are consecutive; equal places are a tie. Errors point at the row and cell.
use super::history::{History, HistoryGame, Period, Placing};
use crate::error::{Error, Result, Source, Span};
use crate::rules::doc::{pointer_push, Doc, Place};
use indexmap::IndexMap;
use std::sync::Arc;

struct Row {
    player: String,
    value: f64,
    span: Span,
}

struct Columns {
    game: usize,
    player: usize,
    place: Option<usize>,
    score: Option<usize>,
    period: Option<usize>,
}

pub fn parse(name: &str, text: &str) -> Result<(Doc, History)> {
    let source = Arc::new(Source { name: name.to_string(), text: text.to_string() });
    let line_starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let span_at = |byte: usize| {
        let line = line_starts.partition_point(|&s| s <= byte).max(1);
        let start = line_starts[line - 1];
        let col = text.get(start..byte.min(text.len())).map(|s| s.chars().count()).unwrap_or(0) + 1;
        Span::new(&source, line, col)
    };
    let csv_error = |e: csv::Error| -> Error {
        match e.position() {
            Some(p) => span_at(p.byte() as usize).at(format!("bad CSV: {}", plain_csv_message(&e))),
            None => Error::msg(format!("{name}: bad CSV: {e}")),
        }
    };
    let mut reader = csv::ReaderBuilder::new().trim(csv::Trim::All).comment(Some(b'#')).from_reader(text.as_bytes());
    let headers = reader.headers().map_err(csv_error)?.clone();
    let find = |n: &str| headers.iter().position(|h| h.eq_ignore_ascii_case(n));
    let header_span = Span::new(&source, 1, 1);
    let columns = Columns {
        game: find("game").ok_or_else(|| header_span.clone().at("the CSV header needs a `game` column (rows of one game share its value)"))?,
        player: find("player").ok_or_else(|| header_span.clone().at("the CSV header needs a `player` column"))?,
        place: find("place"),
        score: find("score"),
        period: find("period"),
    };
    if columns.place.is_some() == columns.score.is_some() {
        return Err(header_span.at("the CSV header needs a `place` column (1 = first) or a `score` column, one of the two"));
    }
    let value_column = columns.place.or(columns.score).expect("checked above");

    let mut doc = Doc::new(serde_json::Value::Null);
    let mut history = History::default();
    let mut seen_games: IndexMap<String, usize> = IndexMap::new();
    let mut current: Option<(String, Option<Period>, Vec<Row>, Span)> = None;
    let mut record = csv::StringRecord::new();
    loop {
        let more = reader.read_record(&mut record).map_err(csv_error)?;
        let next = if more {
            let start = record.position().map(|p| p.byte() as usize).unwrap_or(0);
            let cell_span = |k: usize| span_at(start + field_offset(&text[start.min(text.len())..], k));
            let cell = |k: usize| record.get(k).unwrap_or("");
            let game = cell(columns.game).to_string();
            let player = cell(columns.player).to_string();
            if player.is_empty() {
                return Err(cell_span(columns.player).at("a row needs a player"));
            }
            let raw = cell(value_column);
            let value: f64 = raw.parse().ok().filter(|v: &f64| v.is_finite()).ok_or_else(|| {
                cell_span(value_column).at(format!("`{raw}` is not a number"))
            })?;
            let period = columns.period.map(|k| cell(k)).filter(|p| !p.is_empty()).map(|p| match p.parse::<i64>() {
                Ok(n) => Period::Number(n),
                Err(_) => Period::Name(p.to_string()),
            });
            Some((game, period, Row { player, value, span: cell_span(columns.player) }, cell_span(columns.game)))
        } else {
            None
        };
        let same_game = matches!((&current, &next), (Some(c), Some(n)) if c.0 == n.0);
        if same_game {
            let (_, period, row, _) = next.expect("matched");
            let c = current.as_mut().expect("matched");
            if c.1 != period {
                return Err(row.span.at("a game's rows must all have the same period"));
            }
            c.2.push(row);
            continue;
        }
        if let Some((key, period, rows, span)) = current.take() {
            finish_game(&mut history, &mut doc, period, rows, span, columns.score.is_some())?;
            seen_games.insert(key, history.games.len() - 1);
        }
        match next {
            None => break,
            Some((game, period, row, span)) => {
                if seen_games.contains_key(&game) {
                    return Err(span.at(format!("game `{game}` continues after other games: keep a game's rows together")));
                }
                current = Some((game, period, vec![row], span));
            }
        }
    }
    Ok((doc, history))
}

/// Turn one game's rows into a history game, noting where each player's row is.
fn finish_game(history: &mut History, doc: &mut Doc, period: Option<Period>, rows: Vec<Row>, span: Span, scores: bool) -> Result<()> {
    let g = history.games.len();
    let base = format!("/games/{g}");
    let place = |span: &Span| Place { key: None, value: span.clone() };
    doc.places.insert(base.clone(), place(&span));
    doc.places.insert(format!("{base}/period"), place(&span));
    let mut game = HistoryGame { period, ..HistoryGame::default() };
    if scores {
        let mut map = IndexMap::new();
        for row in rows {
            doc.places.insert(pointer_push(&format!("{base}/scores"), &row.player), place(&row.span));
            if map.contains_key(&row.player) {
                return Err(row.span.at(format!("`{}` is listed twice in this game", row.player)));
            }
            map.insert(row.player, row.value);
        }
        game.scores = Some(map);
    } else {
        let mut sorted: Vec<Row> = rows;
        sorted.sort_by(|a, b| a.value.total_cmp(&b.value));
        let mut order: Vec<Placing> = Vec::new();
        let mut i = 0;
        while i < sorted.len() {
            let j = (i..sorted.len()).find(|&j| sorted[j].value != sorted[i].value).unwrap_or(sorted.len());
            let slot = order.len();
            if j - i == 1 {
                doc.places.insert(format!("{base}/order/{slot}"), place(&sorted[i].span));
                order.push(Placing::One(sorted[i].player.clone()));
            } else {
                for (m, row) in sorted[i..j].iter().enumerate() {
                    doc.places.insert(format!("{base}/order/{slot}/{m}"), place(&row.span));
                }
                order.push(Placing::Tied(sorted[i..j].iter().map(|r| r.player.clone()).collect()));
            }
            i = j;
        }
        game.order = Some(order);
    }
    history.games.push(game);
    Ok(())
}

/// Byte offset of the `k`-th field in a CSV record that starts `raw` (quotes respected):
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

fn plain_csv_message(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::UnequalLengths { expected_len, len, .. } => format!("this row has {len} cells, the header {expected_len}"),
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".to_string(),
        _ => e.to_string(),
    }
}
