//! `rate --plot FILE.svg`: each chosen player's rating after every game they played, with the
//! band of ± the ruleset's conservative multiple of the deviation where the system keeps one.
use super::line_chart::{Chart, Line};
use arbiter::scoring::RatingReport;
use arbiter::{Error, Result};

/// (game, rating, deviation) after one of a player's games.
type Point = (f64, f64, Option<f64>);

/// One player's line: a point after each of their games, from their start.
fn series(report: &RatingReport, name: &str) -> Vec<Point> {
    let mut points = Vec::new();
    for g in &report.games {
        for c in &g.players {
            if arbiter::names::same(&c.name, name) {
                if points.is_empty() {
                    let start = report
                        .players
                        .iter()
                        .find(|p| p.name == c.name)
                        .map(|p| p.start)
                        .unwrap_or(c.before);
                    points.push(((g.game - 1) as f64, start, None));
                }
                points.push((g.game as f64, c.after, c.deviation));
            }
        }
    }
    // The first point's deviation is the next one's (the start has none recorded).
    if points.len() > 1 {
        points[0].2 = points[1].2;
    }
    points
}

pub fn svg(report: &RatingReport, players: &[String]) -> Result<String> {
    use plotters::style::{Color, Palette, Palette99};
    let lines: Vec<(String, Vec<Point>)> = players
        .iter()
        .map(|p| {
            let shown = report
                .players
                .iter()
                .find(|r| arbiter::names::same(&r.name, p))
                .map(|r| r.name.clone())
                .unwrap_or_else(|| p.clone());
            (shown, series(report, p))
        })
        .filter(|(_, s)| !s.is_empty())
        .collect();
    if lines.is_empty() {
        return Err(Error::msg("none of these players has a rated game to plot"));
    }
    let band = report.conservative.unwrap_or(1.0);
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    for (_, s) in &lines {
        for &(_, r, d) in s {
            let w = d.unwrap_or(0.0) * band;
            low = low.min(r - w);
            high = high.max(r + w);
        }
    }
    if !(low.is_finite() && high.is_finite()) {
        return Err(Error::msg("these ratings cannot be drawn (not finite)"));
    }
    if high - low < 1e-9 {
        (low, high) = (low - 1.0, high + 1.0);
    }
    let pad = (high - low) * 0.05;
    let last = report.games_rated.max(1) as f64;
    let band_text = if lines.iter().any(|(_, s)| s.iter().any(|p| p.2.is_some())) {
        format!(
            " (band: ± {} deviations)",
            arbiter::output::trim_number(band, 2)
        )
    } else {
        String::new()
    };
    let whole = |v: &f64| format!("{v:.0}");
    let chart = Chart {
        caption: format!(
            "{} ratings ({}), {} games",
            report.system, report.ruleset, report.games_rated
        ),
        size: (960, 540),
        x: 0f64..last,
        y: (low - pad)..(high + pad),
        x_desc: "game".into(),
        y_desc: format!("rating{band_text}"),
        x_labels: Some((report.games_rated + 1).min(11)),
        x_format: &whole,
        y_format: &whole,
    };
    let drawn: Vec<Line> = lines
        .iter()
        .enumerate()
        .map(|(k, (name, s))| Line {
            label: name.clone(),
            colour: Palette99::pick(k).to_rgba(),
            points: s.iter().map(|p| (p.0, p.1)).collect(),
            // A band only where every point has a deviation.
            band: s.iter().all(|p| p.2.is_some()).then(|| {
                s.iter()
                    .map(|p| {
                        let w = band * p.2.unwrap_or(0.0);
                        (p.1 - w, p.1 + w)
                    })
                    .collect()
            }),
            markers: false,
        })
        .collect();
    super::line_chart::svg(&chart, &drawn)
}
