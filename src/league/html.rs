//! A static HTML page of a season a club can post: the table, the results by round and the
//! matches still to play. No scripts, no external files.
use super::season::Season;
use super::standings::Standings;

use crate::output::html_text as escape;

/// The page. `title` is shown as its heading (the season file's name, say).
pub fn page(title: &str, season: &Season, table: &Standings) -> String {
    let title = escape(title);
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str(&format!("<title>{title}</title>\n"));
    h.push_str(
        "<style>\nbody{font-family:system-ui,sans-serif;margin:2em auto;max-width:50em;padding:0 \
         1em}\ntable{border-collapse:collapse;margin-bottom:1.5em}th,td{padding:.25em \
         .7em;border-bottom:1px solid \
         #ccc}\ntd.n{text-align:right}tr:nth-child(even){background:#f4f4f4}h2{margin-top:1.5em}\\
         n</style>\n",
    );
    h.push_str(&format!("</head>\n<body>\n<h1>{title}</h1>\n"));
    h.push_str(&format!(
        "<p>{} of {} matches played",
        table.played, table.scheduled
    ));
    if !table.tiebreakers.is_empty() {
        h.push_str(&format!(
            "; ties broken by {}",
            escape(&table.tiebreakers.join(", ").replace('_', " "))
        ));
    }
    h.push_str(
        ".</p>\n<h2>Table</h2>\n<table>\n<tr><th>#</th><th>Team</th><th>P</th><th>W</th><th>D</\
         th><th>L</th><th>For</th><th>Against</th><th>Diff</th><th>Points</th></tr>\n",
    );
    for s in &table.standings {
        h.push_str(&format!(
            "<tr><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td \
             class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td \
             class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:+}</td><td \
             class=\"n\"><b>{}</b></td></tr>\n",
            s.position,
            escape(&s.team.to_string()),
            s.played,
            s.won,
            s.drawn,
            s.lost,
            s.scored,
            s.against,
            s.difference,
            crate::output::trim_number(s.points, 3)
        ));
    }
    h.push_str("</table>\n<h2>Rounds</h2>\n");
    for r in &season.schedule.rounds {
        h.push_str(&format!("<h3>Round {}</h3>\n<table>\n", r.round));
        for m in &r.matches {
            let result = season
                .results
                .iter()
                .find(|x| x.round == r.round && x.home == m.home && x.away == m.away);
            let score = match result {
                Some(x) => format!("{} – {}", x.home_score, x.away_score),
                None => "–".to_string(),
            };
            h.push_str(&format!(
                "<tr><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>\n",
                escape(&m.home.to_string()),
                score,
                escape(&m.away.to_string())
            ));
        }
        if let Some(b) = &r.bye {
            h.push_str(&format!(
                "<tr><td colspan=\"3\">rests: {}</td></tr>\n",
                escape(&b.to_string())
            ));
        }
        h.push_str("</table>\n");
    }
    h.push_str("<p><small>Made with arbiter.</small></p>\n</body>\n</html>\n");
    h
}
