//! Reading FIDE's Tournament Report File (TRF-2016/2026 and the TRF(x)/(bx) extensions used by
//! pairing programs) into a [`Field`]. Columns are counted in characters, line ends may be
//! `\r`, `\n` or `\r\n`, and every refusal names its line and column.
use super::model::{Colour, Entrant, Field, Outcome, Points, Round};
use crate::error::{Error, Result, Source, Span};
use std::sync::Arc;

/// More players than any TRF can number (four digits).
pub(crate) const MAX_PLAYERS: usize = 9999;
/// More rounds than any Swiss tournament plays.
pub(crate) const MAX_ROUNDS: usize = 99;

struct Line<'a> {
    number: usize,
    chars: Vec<char>,
    source: &'a Arc<Source>,
}

impl Line<'_> {
    fn err(&self, col: usize, message: impl Into<String>) -> Error {
        Span::new(self.source, self.number, col + 1).at(message)
    }
    fn field(&self, from: usize, to: usize) -> String {
        self.chars[from.min(self.chars.len())..to.min(self.chars.len())]
            .iter()
            .collect()
    }
    fn number_at(&self, from: usize, to: usize, what: &str) -> Result<Option<u64>> {
        let text = self.field(from, to);
        let t = text.trim();
        if t.is_empty() {
            return Ok(None);
        }
        if t.len() > 9 || !t.chars().all(|c| c.is_ascii_digit()) {
            return Err(self.err(from, format!("{what} must be a whole number, not `{t}`")));
        }
        Ok(Some(t.parse().expect("digits")))
    }
    /// A score like `3.5` or `12`, in tenths.
    fn tenths(&self, from: usize, to: usize, what: &str) -> Result<u32> {
        let text = self.field(from, to);
        parse_tenths(text.trim()).ok_or_else(|| {
            self.err(
                from,
                format!(
                    "{what} must be a number of points like 2.5, not `{}`",
                    text.trim()
                ),
            )
        })
    }
}

/// `2.5` → 25, `3` → 30; at most one decimal, as TRF writes them.
pub(crate) fn parse_tenths(t: &str) -> Option<u32> {
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    if whole.is_empty() && frac.is_empty() || whole.len() > 6 || frac.len() > 1 {
        return None;
    }
    if !whole.chars().all(|c| c.is_ascii_digit()) || !frac.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let w: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let f: u32 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    Some(w * 10 + f)
}

/// The round of an absence given without a round number (`XXZ`): the one being paired.
const NEXT_ROUND: usize = usize::MAX;

/// The tournament's name (line `012`), or nothing.
pub(crate) fn tournament_name(text: &str) -> String {
    text.split(['\n', '\r'])
        .find_map(|l| l.trim_start_matches('\u{feff}').strip_prefix("012"))
        .map(|n| n.trim().to_string())
        .unwrap_or_default()
}

/// Whether a file is a TRF: by its name (`.trf`) or its content.
pub(crate) fn is_trf(name: &str, text: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".trf") || looks_like_trf(text)
}

/// Whether a text is a TRF, whatever its file is called: its first line with anything on it
/// starts with a TRF record code (three digits, or TRF(x)'s `XX?` and TRF(bx)'s `BB?`) and a
/// space. A YAML tournament starts with a key and a colon, never like that.
pub(crate) fn looks_like_trf(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(first) = text.split(['\n', '\r']).find(|l| !l.trim().is_empty()) else {
        return false;
    };
    let b = first.as_bytes();
    let code_ok = b.len() >= 3
        && (b[..3].iter().all(u8::is_ascii_digit)
            || (matches!(&b[..2], b"XX" | b"BB") && b[2].is_ascii_uppercase()));
    code_ok && b.get(3).is_none_or(|&c| c == b' ')
}

struct Pending {
    entrant: Entrant,
    /// The points column as written, and where.
    stated_points: u32,
    line: usize,
    /// The round (0-based) paired but not played yet, read outside pairing.
    to_be_played: Option<usize>,
}

/// Parse a TRF. `for_pairing`: the file is the input to pairing its next round, so a round
/// already written for some player but not paired for anyone is a bye requested in advance,
/// and the total number of rounds must be known.
pub fn parse(name: &str, text: &str, for_pairing: bool) -> Result<Field> {
    // Some Windows exports begin with a byte-order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let source = Arc::new(Source {
        name: name.to_string(),
        text: text.to_string(),
    });
    let mut pending: Vec<Option<Pending>> = Vec::new();
    let mut played_rounds = 0usize;
    let mut total_rounds = None;
    let mut initial_colour = None;
    let mut points = Points::default();
    let mut explicit_pab = false;
    let mut requested_byes: Vec<(usize, usize, usize)> = Vec::new();
    let mut forbidden = Vec::new();
    let mut accelerations: Vec<Accelerated> = Vec::new();
    let mut baku_line = None;
    let mut line_no = 0;
    for raw in text.split('\n') {
        for piece in raw.split('\r') {
            line_no += 1;
            let line = Line {
                number: line_no,
                chars: piece.chars().collect(),
                source: &source,
            };
            if line.chars.len() < 3 {
                if !piece.trim().is_empty() {
                    return Err(line.err(0, "a TRF line starts with a three-character code"));
                }
                continue;
            }
            let code: String = line.chars[..3].iter().collect();
            match code.as_str() {
                "001" => {
                    let mut line = line;
                    complete_last_round(&mut line.chars);
                    let p = player(&line, &mut played_rounds, for_pairing)?;
                    let idx = p.entrant.number - 1;
                    if idx >= pending.len() {
                        pending.resize_with(idx + 1, || None);
                    }
                    if pending[idx].is_some() {
                        return Err(
                            line.err(4, format!("starting number {} is used twice", idx + 1))
                        );
                    }
                    pending[idx] = Some(p);
                }
                "142" | "XXR" => {
                    let n = line.number_at(3, line.chars.len(), "the number of rounds")?;
                    match n {
                        Some(n) if (1..=MAX_ROUNDS as u64).contains(&n) => {
                            total_rounds = Some(n as usize)
                        }
                        _ => {
                            return Err(line.err(
                                3,
                                format!("the number of rounds must be between 1 and {MAX_ROUNDS}"),
                            ))
                        }
                    }
                }
                "XXC" => {
                    for word in line.field(3, line.chars.len()).split_whitespace() {
                        match word {
                            "white1" => initial_colour = Some(Colour::White),
                            "black1" => initial_colour = Some(Colour::Black),
                            "rank" => {
                                return Err(
                                    line.err(3, "`XXC rank` (pairing by rank) is not supported")
                                )
                            }
                            _ => {}
                        }
                    }
                }
                "152" => match line.field(3, line.chars.len()).trim() {
                    "W" => initial_colour = Some(Colour::White),
                    "B" => initial_colour = Some(Colour::Black),
                    other => {
                        return Err(
                            line.err(4, format!("the first colour is W or B, not `{other}`"))
                        )
                    }
                },
                "162" => point_system(&line, &mut points, &mut explicit_pab)?,
                "BBW" => {
                    points.win = line.tenths(4, 12, "points for a win")?;
                    points.forfeit_win = points.win;
                    if !explicit_pab {
                        points.pairing_bye = points.win;
                    }
                }
                "BBD" => {
                    points.draw = line.tenths(4, 12, "points for a draw")?;
                    points.half_bye = points.draw;
                }
                "BBL" => points.loss = line.tenths(4, 12, "points for a loss")?,
                "BBZ" => points.zero_bye = line.tenths(4, 12, "points for a zero-point bye")?,
                "BBF" => points.forfeit_loss = line.tenths(4, 12, "points for a forfeit loss")?,
                "BBU" => {
                    points.pairing_bye =
                        line.tenths(4, 12, "points for the pairing-allocated bye")?;
                    explicit_pab = true;
                }
                "240" => {
                    let round = line.number_at(6, 9, "the round")?.unwrap_or(0) as usize;
                    if round == 0 {
                        return Err(line.err(6, "a 240 line names its round (columns 7-9)"));
                    }
                    let mut col = 10;
                    while col + 4 <= line.chars.len() {
                        match line.number_at(col, col + 4, "a starting number")? {
                            Some(p) if p >= 1 => {
                                requested_byes.push((round - 1, p as usize - 1, line_no))
                            }
                            Some(_) => return Err(line.err(col, "starting numbers begin at 1")),
                            None => {}
                        }
                        col += 5;
                    }
                }
                "XXP" => {
                    let mut group = Vec::new();
                    for word in line.field(3, line.chars.len()).split_whitespace() {
                        match word.parse::<usize>() {
                            Ok(p) if (1..=MAX_PLAYERS).contains(&p) => group.push(p - 1),
                            _ => {
                                return Err(
                                    line.err(3, format!("`{word}` is not a starting number"))
                                )
                            }
                        }
                    }
                    // A player named twice in a line forbids nothing more: without the
                    // repeats a line is at most the field, and the pairs it forbids (its
                    // square) stay within the field's square however long the line is.
                    group.sort_unstable();
                    group.dedup();
                    forbidden.push(group);
                }
                // 092 is the type of tournament in words ("Individual: Swiss-System"), for
                // people; 192 is the coded system a program acts on.
                "192" => {
                    let system = line.field(4, line.chars.len());
                    let system = system.trim();
                    if !system.is_empty() && !system.starts_with("FIDE_DUTCH") {
                        return Err(line.err(
                            4,
                            format!("only the FIDE Dutch system is supported, not `{system}`"),
                        ));
                    }
                    // FIDE_DUTCH_BAKU, FIDE_DUTCH_2026_BAKU...: the Baku acceleration
                    // (C.04.5.1), unless the file gives the virtual points itself.
                    baku_line = system.ends_with("_BAKU").then_some(line_no);
                }
                "XXS" => javafo_points(&line, &mut points, &mut explicit_pab)?,
                "XXZ" => {
                    // JaVaFo's absent players: not paired in the round being paired.
                    for word in line.field(3, line.chars.len()).split_whitespace() {
                        match word.parse::<usize>() {
                            Ok(p) if (1..=MAX_PLAYERS).contains(&p) => {
                                requested_byes.push((NEXT_ROUND, p - 1, line_no))
                            }
                            _ => {
                                return Err(
                                    line.err(3, format!("`{word}` is not a starting number"))
                                )
                            }
                        }
                    }
                }
                "XXA" => accelerations.push(javafo_acceleration(&line)?),
                "250" => accelerations.push(acceleration_250(&line)?),
                "013" | "310" => return Err(line.err(0, "team tournaments are not supported")),
                "299" => {
                    return Err(line.err(0, "abnormal points assignments (299) are not supported"))
                }
                _ => {}
            }
        }
    }
    let mut entrants = Vec::with_capacity(pending.len());
    let mut stated = Vec::with_capacity(pending.len());
    // A round paired but not played yet ends the tournament so far for everyone, its
    // pairing-allocated bye included (nothing of it counts before its results).
    let to_be_played = pending
        .iter()
        .flatten()
        .filter_map(|p| p.to_be_played)
        .min();
    for (i, p) in pending.into_iter().enumerate() {
        match p {
            Some(mut p) => {
                if let Some(r) = to_be_played {
                    p.entrant.rounds.truncate(r);
                }
                stated.push((p.stated_points, p.line));
                entrants.push(p.entrant);
            }
            None => {
                return Err(Error::msg(format!(
                    "{name}: starting number {} is missing (numbers run from 1 without gaps)",
                    i + 1
                )))
            }
        }
    }
    if entrants.is_empty() {
        return Err(Error::msg(format!("{name}: no players (no `001` lines)")));
    }
    if let Some(r) = to_be_played {
        played_rounds = played_rounds.min(r);
    }
    // A round written for everyone but paired for no one was still paired (a round of byes).
    if for_pairing && entrants.iter().all(|e| e.rounds.len() > played_rounds) {
        played_rounds += 1;
    }
    for e in &mut entrants {
        if e.rounds.len() < played_rounds {
            e.rounds.resize(played_rounds, Round::absent());
        }
    }
    let total_rounds = match total_rounds {
        Some(t) => t,
        None if for_pairing => {
            return Err(Error::msg(format!(
                "{name}: the total number of rounds is not given (add a line `XXR N`)"
            )))
        }
        None => played_rounds,
    };
    if played_rounds + for_pairing as usize > total_rounds {
        return Err(Error::msg(format!(
            "{name}: {played_rounds} rounds are already paired, but the tournament has {total_rounds}"
        )));
    }
    if for_pairing {
        for &(round, p, line) in &requested_byes {
            if round != played_rounds && round != NEXT_ROUND {
                continue;
            }
            let Some(e) = entrants.get_mut(p) else {
                return Err(Span::new(&source, line, 11).at(format!("no player {}", p + 1)));
            };
            if e.rounds.len() <= played_rounds {
                e.rounds.push(Round::absent());
            }
        }
    }
    for group in &forbidden {
        if let Some(&p) = group.iter().find(|&&p| p >= entrants.len()) {
            return Err(Error::msg(format!(
                "{name}: XXP names player {}, who is not entered",
                p + 1
            )));
        }
    }
    let acceleration = virtual_points(
        &accelerations,
        baku_line,
        &entrants,
        total_rounds,
        &points,
        &source,
    )?;
    let mut field = Field {
        entrants,
        played_rounds,
        total_rounds,
        points,
        initial_colour,
        forbidden,
        acceleration,
    };
    check_opponents(&field, &source, &stated)?;
    check_points(&field, &source, &stated)?;
    if field.initial_colour.is_none() {
        field.initial_colour = infer_initial_colour(&field);
    }
    Ok(field)
}

/// Whether some player's last round is paired but not played yet (opponent and colour, no
/// result): a file written between pairing a round and entering its results.
pub fn round_to_be_played(text: &str) -> bool {
    text.split(['\n', '\r'])
        .filter(|l| l.starts_with("001"))
        .any(|l| {
            let mut chars: Vec<char> = l.trim_end().chars().collect();
            complete_last_round(&mut chars);
            let n = chars.len();
            n >= 99 && (n - 91) % 10 == 8 && {
                let cell = &chars[n - 8..];
                cell[..4].iter().any(|c| ('1'..='9').contains(c))
                    && "wbWB".contains(cell[5])
                    && cell[7] == ' '
            }
        })
}

/// Programs trim a line's trailing blanks, so the round paired but not played yet
/// (`   8 b` and no result) loses its blank result column: put it back.
fn complete_last_round(chars: &mut Vec<char>) {
    let last = chars.len().saturating_sub(91) % 10;
    if chars.len() > 91 && (6..8).contains(&last) {
        chars.resize(chars.len() + 8 - last, ' ');
    }
}

/// One `001` line. Outside pairing (standings, import) a round paired but not played yet
/// ends the player's record: it has no result to count.
fn player(line: &Line, played_rounds: &mut usize, for_pairing: bool) -> Result<Pending> {
    if line.chars.len() < 84 {
        return Err(line.err(
            line.chars.len(),
            "a player line (001) runs at least to its points, column 84",
        ));
    }
    let number = match line.number_at(4, 8, "the starting number")? {
        Some(n) if n >= 1 && n as usize <= MAX_PLAYERS => n as usize,
        _ => {
            return Err(line.err(
                4,
                format!("the starting number (columns 5-8) runs from 1 to {MAX_PLAYERS}"),
            ))
        }
    };
    let rating = line.number_at(48, 52, "the rating")?.unwrap_or(0) as u32;
    let stated_points = line.tenths(80, 84, "the points (columns 81-84)")?;
    let mut rounds = Vec::new();
    let mut skipped = 0usize;
    let mut to_be_played = None;
    let mut start = 91;
    while start + 8 <= line.chars.len() {
        let opp_text = line.field(start, start + 4);
        let mut blank = true;
        let mut opponent = None;
        if opp_text != "    " {
            blank = false;
            // No opponent: `0000`, or a bare `0` as some programs write it.
            if !opp_text.trim().trim_start_matches('0').is_empty() {
                match line.number_at(start, start + 4, "the opponent")? {
                    Some(o) if o >= 1 && o as usize <= MAX_PLAYERS => {
                        if o as usize == number {
                            return Err(line.err(start, "a player cannot meet themselves"));
                        }
                        opponent = Some(o as usize - 1);
                    }
                    _ => return Err(line.err(start, "the opponent is a starting number or 0000")),
                }
            }
        }
        if line.chars[start + 4] != ' ' || line.chars[start + 6] != ' ' {
            return Err(line.err(
                start + 4,
                "a round is `OPPO C R`: opponent, colour, result, single spaces",
            ));
        }
        let colour_char = line.chars[start + 5];
        let colour = match colour_char {
            'w' | 'W' => Some(Colour::White),
            'b' | 'B' => Some(Colour::Black),
            '-' | ' ' => None,
            c => return Err(line.err(start + 5, format!("the colour is w, b or -, not `{c}`"))),
        };
        if colour_char != ' ' {
            blank = false;
        }
        let result_char = line.chars[start + 7];
        let outcome = match result_char.to_ascii_uppercase() {
            '1' | '+' | 'W' | 'F' | 'U' => Outcome::Win,
            '=' | 'D' | 'H' => Outcome::Draw,
            '0' | '-' | 'L' | 'Z' | ' ' => Outcome::Loss,
            c => {
                return Err(line.err(
                    start + 7,
                    format!("`{c}` is not a TRF result (1 = 0 + - W D L H F U Z)"),
                ))
            }
        };
        if result_char != ' ' {
            blank = false;
        }
        let r = result_char.to_ascii_uppercase();
        if let (Some(o), Some(_), ' ') = (opponent, colour, r) {
            // What `swiss pair --trf` writes for the round it paired: the game is to be played.
            if !for_pairing {
                to_be_played = Some(rounds.len() + skipped);
                break;
            }
            return Err(line.err(
                start + 7,
                format!(
                    "round {}: paired against {} but not played yet (no result); write the \
                     round's results (1 = 0 + -) before pairing the next",
                    rounds.len() + skipped + 1,
                    o + 1
                ),
            ));
        }
        let forfeit_or_bye = matches!(r, '+' | '-' | 'H' | 'F' | 'U' | 'Z' | ' ');
        if opponent.is_none() && colour.is_some() {
            return Err(line.err(start + 5, "a bye has no colour (write `-`)"));
        }
        if forfeit_or_bye && !matches!(r, '+' | '-') && opponent.is_some() && !blank {
            return Err(line.err(
                start + 7,
                format!("`{r}` is a bye, but an opponent is named"),
            ));
        }
        if !forfeit_or_bye && colour.is_none() && !(r == '=' && opponent.is_none()) {
            return Err(line.err(start + 5, "a played game has a colour (w or b)"));
        }
        let played = !forfeit_or_bye && opponent.is_some() && colour.is_some();
        let paired = opponent.is_some() || r == 'U' || r == '+';
        if blank {
            skipped += 1;
        } else {
            if rounds.len() + skipped >= MAX_ROUNDS {
                return Err(line.err(start, format!("more than {MAX_ROUNDS} rounds")));
            }
            rounds.extend(std::iter::repeat_n(Round::absent(), skipped));
            skipped = 0;
            *played_rounds = (*played_rounds).max(rounds.len());
            rounds.push(Round {
                opponent,
                colour,
                outcome,
                played,
                paired,
            });
            if paired {
                *played_rounds = (*played_rounds).max(rounds.len());
            }
        }
        start += 10;
    }
    if to_be_played.is_none()
        && line
            .field(start.min(line.chars.len()), line.chars.len())
            .trim()
            != ""
    {
        return Err(line.err(
            start,
            "a round is 8 characters and 2 spaces from column 92 on",
        ));
    }
    Ok(Pending {
        entrant: Entrant {
            number,
            name: line.field(14, 47).trim().to_string(),
            rating,
            rounds,
        },
        stated_points,
        line: line.number,
        to_be_played,
    })
}

fn point_system(line: &Line, points: &mut Points, explicit_pab: &mut bool) -> Result<()> {
    let mut col = 5;
    while col + 5 <= line.chars.len() {
        let code = line.chars[col];
        let value = line.tenths(col + 1, col + 5, "a point value")?;
        match code {
            'W' => {
                points.win = value;
                points.forfeit_win = value;
                if !*explicit_pab {
                    points.pairing_bye = value;
                }
            }
            'D' => {
                points.draw = value;
                points.half_bye = value;
            }
            'L' => points.loss = value,
            'A' => {
                points.zero_bye = value;
                points.forfeit_loss = value;
            }
            'P' => {
                points.pairing_bye = value;
                *explicit_pab = true;
            }
            c => return Err(line.err(col, format!("`{c}` is not a 162 code (W D L A P)"))),
        }
        col += 9;
    }
    if line
        .field(col.min(line.chars.len()), line.chars.len())
        .trim()
        != ""
    {
        return Err(line.err(
            col,
            "162 entries are `C PPPP` every 9 columns from column 6",
        ));
    }
    Ok(())
}

/// JaVaFo's `XXS CODE=VALUE ...` (TRF(x)): points per kind of result, later codes overriding
/// earlier ones. Points are kept per kind of result, not per colour, so a win (or draw, or
/// loss) worth differently with white and black is refused rather than misread.
/// As in JaVaFo, the pairing-allocated bye keeps its 1 point unless `PAB` is given.
fn javafo_points(line: &Line, points: &mut Points, explicit_pab: &mut bool) -> Result<()> {
    let text = line.field(3, line.chars.len());
    let mut end = 0;
    let mut by_colour: Vec<(&str, u32)> = Vec::new();
    for word in text.split_whitespace() {
        let at = end + text[end..].find(word).unwrap_or(0);
        end = at + word.len();
        let col = 3 + at;
        let Some((code, value)) = word.split_once('=') else {
            return Err(line.err(col, format!("`{word}` is not CODE=VALUE")));
        };
        let value = parse_tenths(value).ok_or_else(|| {
            line.err(col, format!("`{value}` is not a number of points like 0.5"))
        })?;
        match code {
            "W" => {
                (points.win, points.forfeit_win) = (value, value);
                by_colour.retain(|(c, _)| !matches!(*c, "WW" | "BW"));
            }
            "D" => {
                (points.draw, points.half_bye) = (value, value);
                by_colour.retain(|(c, _)| !matches!(*c, "WD" | "BD"));
            }
            "WW" | "BW" => {
                points.win = value;
                by_colour.push((code, value));
            }
            "WD" | "BD" => {
                points.draw = value;
                by_colour.push((code, value));
            }
            "WL" | "BL" => {
                points.loss = value;
                by_colour.push((code, value));
            }
            "FW" => points.forfeit_win = value,
            "FL" => points.forfeit_loss = value,
            "ZPB" => points.zero_bye = value,
            "HPB" => points.half_bye = value,
            "PAB" => {
                points.pairing_bye = value;
                *explicit_pab = true;
            }
            "FPB" if value == points.win => {}
            "FPB" => {
                return Err(line.err(
                    col,
                    "a full-point bye worth other than a win (FPB) is not supported",
                ))
            }
            _ => {
                return Err(line.err(
                    col,
                    format!(
                        "`{code}` is not an XXS code (W D WW BW WD BD WL BL FW FL ZPB HPB FPB PAB)"
                    ),
                ))
            }
        }
    }
    for pair in [("WW", "BW"), ("WD", "BD"), ("WL", "BL")] {
        let get = |c: &str| by_colour.iter().rev().find(|(k, _)| *k == c).map(|x| x.1);
        if let (Some(a), Some(b)) = (get(pair.0), get(pair.1)) {
            if a != b {
                return Err(line.err(
                    3,
                    format!(
                        "{} and {} differ: points that depend on the colour are not supported",
                        pair.0, pair.1
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn check_opponents(field: &Field, source: &Arc<Source>, stated: &[(u32, usize)]) -> Result<()> {
    for (i, e) in field.entrants.iter().enumerate() {
        for (k, r) in e.rounds.iter().enumerate() {
            let Some(o) = r.opponent else { continue };
            let agrees = field
                .entrants
                .get(o)
                .and_then(|oe| oe.rounds.get(k))
                .is_some_and(|or| {
                    or.opponent == Some(i) && (!r.played || (or.played && or.colour != r.colour))
                });
            if !agrees {
                return Err(Span::new(source, stated[i].1, 92 + 10 * k).at(format!(
                    "round {}: player {} is listed against {}, but {}'s line says otherwise",
                    k + 1,
                    i + 1,
                    o + 1,
                    o + 1
                )));
            }
        }
    }
    Ok(())
}

fn check_points(field: &Field, source: &Arc<Source>, stated: &[(u32, usize)]) -> Result<()> {
    for i in 0..field.entrants.len() {
        let done = field.score_after(i, field.played_rounds);
        let with_next = field.score_after(i, field.played_rounds + 1);
        // Some programs write the pairing score, the round's virtual points included.
        let extra = field.virtual_points(i, field.played_rounds);
        let (written, line) = stated[i];
        if ![done, with_next, done + extra, with_next + extra].contains(&written) {
            let diff = written as i64 - done as i64;
            return Err(Span::new(source, line, 81).at(format!(
                "player {} has {} points written but {} from the results ({}{})",
                i + 1,
                show_tenths(written),
                show_tenths(done),
                if diff > 0 { "+" } else { "-" },
                show_tenths(diff.unsigned_abs() as u32)
            )));
        }
    }
    Ok(())
}

/// Virtual points given in the file: JaVaFo's `XXA` (one player, every round) or TRF-2026's
/// `250` (a range of players over a range of rounds).
struct Accelerated {
    line: usize,
    /// Column of the first player named, for errors.
    col: usize,
    /// First and last player (0-based).
    players: (usize, usize),
    /// The first round (0-based) and the virtual points from it on, one a round.
    first_round: usize,
    points: Vec<u32>,
}

/// `XXA NNNN pp.p pp.p ...`: the player from column 5, then the virtual points of round r in
/// the five columns from 10 + 5(r − 1) (JaVaFo AUM, "Accelerated rounds"); a blank is zero.
fn javafo_acceleration(line: &Line) -> Result<Accelerated> {
    let player = match line.number_at(4, 9, "the player")? {
        Some(p) if (1..=MAX_PLAYERS as u64).contains(&p) => p as usize - 1,
        _ => return Err(line.err(4, "an XXA line names its player in columns 5-8")),
    };
    let len = line.chars.len()
        - line
            .chars
            .iter()
            .rev()
            .take_while(|c| c.is_whitespace())
            .count();
    let mut points = Vec::new();
    let mut col = 9;
    while col < len {
        let end = (col + 5).min(len);
        if points.len() == MAX_ROUNDS {
            return Err(line.err(
                col,
                format!("more than {MAX_ROUNDS} rounds of virtual points"),
            ));
        }
        points.push(if line.field(col, end).trim().is_empty() {
            0
        } else {
            virtual_tenths(line, col, end)?
        });
        col += 5;
    }
    Ok(Accelerated {
        line: line.number,
        col: 4,
        players: (player, player),
        first_round: 0,
        points,
    })
}

/// How many times over a file may give every player's virtual points for every round.
const MAX_ACCELERATION_PASSES: usize = 4;

/// Virtual points, no more than a TRF score holds.
fn virtual_tenths(line: &Line, from: usize, to: usize) -> Result<u32> {
    let v = line.tenths(from, to, "virtual points")?;
    if v > super::tournament::MAX_SCORE_TENTHS {
        return Err(line.err(from, "virtual points are at most 99.9"));
    }
    Ok(v)
}

/// `250 MMMM GGGG RRR RRR PPPP PPPP` (TRF-2026): match points (blank: an individual event),
/// game points, first and last round, first and last player.
fn acceleration_250(line: &Line) -> Result<Accelerated> {
    if line.chars.len() < 31 {
        return Err(line.err(
            line.chars.len(),
            "a 250 line runs to column 31: points, first and last round, first and last player",
        ));
    }
    let team = !line.field(4, 8).trim().is_empty() && line.tenths(4, 8, "the match points")? != 0;
    if team {
        return Err(line.err(4, "match points (team tournaments) are not supported"));
    }
    let points = virtual_tenths(line, 9, 13)?;
    let number = |from: usize, to: usize, what: &str, most: usize| -> Result<usize> {
        match line.number_at(from, to, what)? {
            Some(n) if n >= 1 && n as usize <= most => Ok(n as usize - 1),
            _ => Err(line.err(from, format!("{what} runs from 1 to {most}"))),
        }
    };
    let first = number(14, 17, "the first round (columns 15-17)", MAX_ROUNDS)?;
    let last = number(18, 21, "the last round (columns 19-21)", MAX_ROUNDS)?;
    let from = number(22, 26, "the first player (columns 23-26)", MAX_PLAYERS)?;
    let to = number(27, 31, "the last player (columns 28-31)", MAX_PLAYERS)?;
    if first > last {
        return Err(line.err(18, "the last round comes before the first"));
    }
    if from > to {
        return Err(line.err(27, "the last player comes before the first"));
    }
    if !line.field(31, line.chars.len()).trim().is_empty() {
        return Err(line.err(31, "a 250 line ends at column 31"));
    }
    Ok(Accelerated {
        line: line.number,
        col: 22,
        players: (from, to),
        first_round: first,
        points: vec![points; last - first + 1],
    })
}

/// Each player's virtual points by round: those the file gives (later lines override earlier
/// ones, round by round), else the Baku method's when `192` asks for it.
fn virtual_points(
    given: &[Accelerated],
    baku_line: Option<usize>,
    entrants: &[Entrant],
    total_rounds: usize,
    points: &Points,
    source: &Arc<Source>,
) -> Result<Vec<Vec<u32>>> {
    let n = entrants.len();
    if given.is_empty() {
        let Some(line) = baku_line else {
            return Ok(Vec::new());
        };
        // C.04.5.1 is for the standard scoring: a win's points, then half of them.
        if points.loss != 0 || points.draw * 2 != points.win {
            return Err(Span::new(source, line, 5).at(format!(
                "the Baku acceleration is for a point system of win, half of it for a draw and \
                 nothing for a loss, not {}/{}/{}",
                show_tenths(points.win),
                show_tenths(points.draw),
                show_tenths(points.loss)
            )));
        }
        let rounds = super::acceleration::baku_rounds(total_rounds);
        return Ok(super::acceleration::baku(
            n,
            rounds,
            &[points.win, points.draw],
        ));
    }
    let mut table = vec![Vec::new(); n];
    // Lines may overlap (later ones win), but a file of many wide 250 lines would otherwise
    // rewrite the whole table again and again: a few passes over it are all a file may ask.
    let budget = MAX_ACCELERATION_PASSES * n * total_rounds.max(1);
    let mut written = 0usize;
    for a in given {
        if a.players.1 >= n {
            return Err(Span::new(source, a.line, a.col + 1).at(format!(
                "virtual points for player {}, who is not entered",
                a.players.1 + 1
            )));
        }
        let rounds = a
            .points
            .len()
            .min(total_rounds.saturating_sub(a.first_round));
        written += (a.players.1 - a.players.0 + 1) * rounds.max(1);
        if written > budget {
            return Err(Span::new(source, a.line, 1).at(format!(
                "virtual points given more than {MAX_ACCELERATION_PASSES} times over for every \
                 player and round"
            )));
        }
        let end = a.first_round + a.points.len();
        if end > total_rounds
            && a.points[total_rounds.saturating_sub(a.first_round)..]
                .iter()
                .any(|&v| v != 0)
        {
            return Err(Span::new(source, a.line, 1).at(format!(
                "virtual points for round {end}, but the tournament has {total_rounds} rounds"
            )));
        }
        let end = end.min(total_rounds);
        for row in &mut table[a.players.0..=a.players.1] {
            if row.len() < end {
                row.resize(end, 0);
            }
            row[a.first_round.min(end)..end]
                .copy_from_slice(&a.points[..end.saturating_sub(a.first_round)]);
        }
    }
    Ok(table)
}

pub(crate) fn show_tenths(t: u32) -> String {
    format!("{}.{}", t / 10, t % 10)
}

/// Where no `XXC` says it: the colour the top-ranked player had in the first round anyone had
/// colours, worked back from whoever was paired then.
fn infer_initial_colour(field: &Field) -> Option<Colour> {
    let first = field
        .entrants
        .iter()
        .filter_map(|e| e.rounds.iter().position(|r| r.colour.is_some()))
        .min()?;
    let mut rank = 0;
    for e in &field.entrants {
        if e.rounds.iter().take(first + 1).any(|r| r.paired) {
            if let Some(c) = e.rounds[first].colour {
                return Some(if rank % 2 == 1 { c.other() } else { c });
            }
            rank += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: usize, pts: &str, rounds: &str) -> String {
        format!(
            "001 {n:>4}      Player{n:<28}{:>4}{:>28}{pts:>4}{:>7}{rounds}",
            1500, "", ""
        )
    }

    #[test]
    fn reads_players_rounds_and_points() {
        let text = [
            "012 Test".to_string(),
            "XXR 3".into(),
            "XXC white1".into(),
            line(1, "1.0", "   2 w 1"),
            line(2, "0.0", "   1 b 0"),
            line(3, "1.0", "0000 - U  0000 - H"),
        ]
        .join("\r");
        let f = parse("t.trf", &text, true).unwrap();
        assert_eq!(f.played_rounds, 1);
        assert_eq!(f.total_rounds, 3);
        assert_eq!(f.entrants[0].rating, 1500);
        assert!(f.entrants[0].rounds[0].played);
        assert!(f.entrants[2].rounds[0].is_pairing_bye());
        // The half-point bye for round 2 is asked for ahead.
        assert_eq!(f.entrants[2].rounds.len(), 2);
        assert!(!f.entrants[2].rounds[1].paired);
        assert_eq!(f.score_after(2, 1), 10);
    }

    #[test]
    fn points_that_disagree_are_located() {
        let text = [
            "XXR 3".to_string(),
            line(1, "1.5", "   2 w 1"),
            line(2, "0.0", "   1 b 0"),
        ]
        .join("\n");
        let e = parse("t.trf", &text, true).unwrap_err().to_string();
        assert!(e.contains("t.trf:2:81"), "{e}");
        assert!(
            e.contains("1.5 points written but 1.0") && e.contains("+0.5"),
            "{e}"
        );
    }

    #[test]
    fn three_one_zero_points() {
        let text = [
            "XXR 3".to_string(),
            "162  W 3.0    D 1.0".into(),
            line(1, "3.0", "   2 w 1"),
            line(2, "0.0", "   1 b 0"),
        ]
        .join("\r\n");
        let f = parse("t.trf", &text, true).unwrap();
        assert_eq!(
            (f.points.win, f.points.draw, f.points.pairing_bye),
            (30, 10, 30)
        );
    }

    #[test]
    fn malformed_rounds_are_refused_with_their_column() {
        let text = [
            "XXR 3".to_string(),
            line(1, "1.0", "   2 x 1"),
            line(2, "0.0", "   1 b 0"),
        ]
        .join("\n");
        let e = parse("t.trf", &text, true).unwrap_err().to_string();
        assert!(e.contains("t.trf:2:97") && e.contains("colour"), "{e}");
        let text = [
            "XXR 3".to_string(),
            line(1, "1.0", "   3 w 1"),
            line(2, "0.0", "   1 b 0"),
        ]
        .join("\n");
        assert!(parse("t.trf", &text, true).is_err());
        let text = [line(1, "0.0", ""), line(2, "0.0", "")].join("\n");
        let e = parse("t.trf", &text, true).unwrap_err().to_string();
        assert!(e.contains("XXR"), "{e}");
    }

    #[test]
    fn a_round_paired_but_not_played_is_left_out_of_standings() {
        // As programs write it between pairing round 2 and its results: blanks trimmed.
        let text = [
            "XXR 3".to_string(),
            line(1, "1.0", "   2 w 1     3 b"),
            line(2, "0.0", "   1 b 0  0000 - U"),
            line(3, "0.0", "0000 - Z     1 w"),
        ]
        .join("\n");
        assert!(round_to_be_played(&text));
        let field = parse("t.trf", &text, false).unwrap();
        // Round 2's pairing-allocated bye waits for the round with the rest.
        assert_eq!(field.played_rounds, 1);
        assert!(field.entrants.iter().all(|e| e.rounds.len() == 1));
        assert_eq!(field.score_after(0, 1), 10);
        let e = parse("t.trf", &text, true).unwrap_err().to_string();
        assert!(
            e.contains("round 2: paired against 3 but not played yet"),
            "{e}"
        );
        let played = text
            .replace("   3 b", "   3 b 1")
            .replace("   1 w", "   1 w 0");
        assert!(!round_to_be_played(&played));
    }
}
