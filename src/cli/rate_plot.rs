//! `rate --plot FILE.svg`: each chosen player's rating over the games, drawn as steps: a
//! rating holds until the game (or, for games rated against their period's start, the period's
//! end) that changed it, so every level drawn is one the player held. Players whose ratings
//! were the same throughout share one line and one legend entry. The legend stands beside the
//! chart; each line has its own colour (dark enough to read on white) and dash pattern (so
//! it still reads in grey print); the band of ± the ruleset's conservative multiple of the
//! deviation is drawn for the players named with --players, or for all with --bands.
use crate::error::{Error, Result};
use crate::scoring::rating_report::RatingReport;
use crate::scoring::rating_steps::{held, Held};
use plotters::element::DashedPathElement;
use plotters::prelude::*;

/// Line colours in order: distinct hues, each at least 3:1 in contrast against white (WCAG's
/// floor for graphics; see the test).
const PALETTE: [(u8, u8, u8); 10] = [
    (0x00, 0x72, 0xB2), // blue
    (0xD5, 0x5E, 0x00), // vermillion
    (0x00, 0x9E, 0x73), // green
    (0x00, 0x00, 0x00), // black
    (0xAA, 0x33, 0x77), // purple-red
    (0x8C, 0x56, 0x4B), // brown
    (0x6A, 0x3D, 0x9A), // violet
    (0x80, 0x80, 0x00), // olive
    (0x01, 0x66, 0x5E), // teal
    (0x66, 0x66, 0x66), // grey
];

/// Dash patterns in order, (dash, gap) in pixels; `None` is a solid line. With the palette's
/// ten colours, no two of the first ten lines share both colour and pattern, and neighbours
/// in the legend differ in pattern (for grey print).
const DASHES: [Option<(u32, u32)>; 4] = [None, Some((10, 5)), Some((2, 4)), Some((18, 5))];

/// Beyond this many steps a line gets no dot at each step (the dots would merge).
const MOST_DOTS: usize = 60;

/// One drawn line: the players it stands for, their steps.
struct Drawn {
    names: Vec<String>,
    steps: Vec<Held>,
}

pub(super) fn svg(report: &RatingReport, players: &[String], bands: bool) -> Result<String> {
    let mut lines: Vec<Drawn> = Vec::new();
    for p in players {
        let shown = report
            .players
            .iter()
            .find(|r| crate::names::same(&r.name, p))
            .map_or_else(|| p.clone(), |r| r.name.clone());
        let steps = held(report, p);
        if steps.is_empty() {
            continue;
        }
        // A line identical to one already drawn would hide under it: name both on one line.
        match lines.iter_mut().find(|l| same_steps(&l.steps, &steps)) {
            Some(line) => line.names.push(shown),
            None => lines.push(Drawn {
                names: vec![shown],
                steps,
            }),
        }
    }
    if lines.is_empty() {
        return Err(Error::msg("none of these players has a rated game to plot"));
    }
    let band = report.conservative.unwrap_or(1.0);
    let banded = bands
        && lines
            .iter()
            .any(|l| l.steps.iter().any(|h| h.deviation.is_some()));
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    for h in lines.iter().flat_map(|l| &l.steps) {
        let w = if banded {
            h.deviation.unwrap_or(0.0) * band
        } else {
            0.0
        };
        low = low.min(h.rating - w);
        high = high.max(h.rating + w);
    }
    if !(low.is_finite() && high.is_finite()) {
        return Err(Error::msg("these ratings cannot be drawn (not finite)"));
    }
    if high - low < 1e-9 {
        (low, high) = (low - 1.0, high + 1.0);
    }
    let pad = (high - low) * 0.05;
    // Whole numbers on an Elo-like scale; a decimal on TrueSkill's.
    let decimals = if high - low < 100.0 { 1 } else { 0 };
    let last = report.games_rated.max(1);
    let caption = format!(
        "{} ratings ({}), {} games",
        report.system, report.ruleset, report.games_rated
    );
    let mut legend: Vec<String> = lines
        .iter()
        .map(|l| {
            let end = l.steps.last().map_or(0.0, |h| h.rating);
            format!("{} ({end:.decimals$})", l.names.join(" = "))
        })
        .collect();
    let note = if banded {
        format!(
            "bands: ± {} deviations",
            crate::output::trim_number(band, 2)
        )
    } else {
        String::new()
    };
    let widest = legend
        .iter()
        .chain(std::iter::once(&note))
        .map(|t| t.chars().count())
        .max()
        .unwrap_or(0);
    let legend_width = (60 + 8 * widest as u32).clamp(160, 420);
    let size = (760 + legend_width, 560);
    let fail = |e: &dyn std::fmt::Display| Error::msg(format!("cannot draw the chart: {e}"));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let root = root
            .titled(&caption, ("sans-serif", 20))
            .map_err(|e| fail(&e))?;
        let (plot, side) = root.split_horizontally(size.0 - legend_width);
        let mut chart = ChartBuilder::on(&plot)
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..last as f64, (low - pad)..(high + pad))
            .map_err(|e| fail(&e))?;
        let whole = |v: &f64| format!("{v:.0}");
        let y_label = |v: &f64| format!("{v:.decimals$}");
        chart
            .configure_mesh()
            .x_desc("games rated")
            .y_desc("rating")
            .x_labels((report.games_rated + 1).min(11))
            .x_label_formatter(&whole)
            .y_label_formatter(&y_label)
            .light_line_style(WHITE)
            .draw()
            .map_err(|e| fail(&e))?;
        // Bands first, under every line.
        if banded {
            for (k, line) in lines.iter().enumerate() {
                if let Some(outline) = band_outline(&line.steps, band, last) {
                    chart
                        .draw_series(std::iter::once(Polygon::new(
                            outline,
                            colour(k).mix(0.12).filled(),
                        )))
                        .map_err(|e| fail(&e))?;
                }
            }
        }
        for (k, line) in lines.iter().enumerate() {
            let style = colour(k).stroke_width(2);
            let path = step_path(&line.steps, last);
            match DASHES[k % DASHES.len()] {
                None => chart.draw_series(LineSeries::new(path, style)),
                Some((dash, gap)) => {
                    chart.draw_series(DashedLineSeries::new(path, dash, gap, style))
                }
            }
            .map_err(|e| fail(&e))?;
            if line.steps.len() <= MOST_DOTS {
                chart
                    .draw_series(
                        line.steps[1..]
                            .iter()
                            .map(|h| Circle::new((h.at as f64, h.rating), 3, colour(k).filled())),
                    )
                    .map_err(|e| fail(&e))?;
            }
        }
        // The legend, beside the chart: a sample of each line's stroke, its players and
        // their final rating.
        let font = ("sans-serif", 15).into_font();
        let top = 30;
        side.draw_text("player (final rating)", &font.color(&BLACK), (10, top - 22))
            .map_err(|e| fail(&e))?;
        for (k, text) in legend.drain(..).enumerate() {
            let y = top + 22 * k as i32;
            let sample = vec![(10, y + 8), (46, y + 8)];
            let style = colour(k).stroke_width(2);
            match DASHES[k % DASHES.len()] {
                None => side.draw(&PathElement::new(sample, style)),
                Some((dash, gap)) => side.draw(&DashedPathElement::new(sample, dash, gap, style)),
            }
            .map_err(|e| fail(&e))?;
            side.draw_text(&text, &font.color(&BLACK), (54, y))
                .map_err(|e| fail(&e))?;
        }
        if !note.is_empty() {
            let y = top + 22 * lines.len() as i32 + 10;
            side.draw_text(&note, &font.color(&BLACK), (10, y))
                .map_err(|e| fail(&e))?;
        }
        root.present().map_err(|e| fail(&e))?;
    }
    Ok(svg)
}

fn colour(k: usize) -> RGBColor {
    let (r, g, b) = PALETTE[k % PALETTE.len()];
    RGBColor(r, g, b)
}

fn same_steps(a: &[Held], b: &[Held]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.at == y.at && (x.rating - y.rating).abs() < 1e-9)
}

/// The steps as a path: each rating level runs flat to the game that changed it, then the
/// line rises or falls there; the last level runs to the end of the history.
fn step_path(steps: &[Held], last: usize) -> Vec<(f64, f64)> {
    let mut path = Vec::with_capacity(2 * steps.len() + 1);
    for (i, h) in steps.iter().enumerate() {
        if i > 0 {
            path.push((h.at as f64, steps[i - 1].rating));
        }
        path.push((h.at as f64, h.rating));
    }
    if let Some(h) = steps.last().filter(|h| h.at < last) {
        path.push((last as f64, h.rating));
    }
    path
}

/// The band around the steps that have a deviation (a start has none): along the top, then
/// back along the bottom.
fn band_outline(steps: &[Held], band: f64, last: usize) -> Option<Vec<(f64, f64)>> {
    let first = steps.iter().position(|h| h.deviation.is_some())?;
    let kept = &steps[first..];
    let edge = |sign: f64| -> Vec<(f64, f64)> {
        let shifted: Vec<Held> = kept
            .iter()
            .map(|h| Held {
                rating: h.rating + sign * band * h.deviation.unwrap_or(0.0),
                ..*h
            })
            .collect();
        step_path(&shifted, last)
    };
    let mut outline = edge(1.0);
    outline.extend(edge(-1.0).into_iter().rev());
    Some(outline)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG relative luminance of an sRGB colour.
    fn luminance((r, g, b): (u8, u8, u8)) -> f64 {
        let lin = |c: u8| {
            let c = c as f64 / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    }

    #[test]
    fn every_colour_reads_on_white_and_none_repeats() {
        for c in PALETTE {
            let contrast = 1.05 / (luminance(c) + 0.05);
            assert!(contrast >= 3.0, "{c:?} has contrast {contrast:.2} on white");
        }
        for (i, a) in PALETTE.iter().enumerate() {
            assert!(!PALETTE[i + 1..].contains(a), "{a:?} twice");
        }
        // Lines next to each other in the legend never share a dash pattern.
        for k in 0..PALETTE.len() - 1 {
            assert_ne!(DASHES[k % DASHES.len()], DASHES[(k + 1) % DASHES.len()]);
        }
    }

    #[test]
    fn a_step_path_is_flat_until_the_rating_changes() {
        let h = |at, rating| Held {
            at,
            rating,
            deviation: None,
        };
        let path = step_path(&[h(0, 1500.0), h(3, 1516.0), h(5, 1490.0)], 8);
        assert_eq!(
            path,
            vec![
                (0.0, 1500.0),
                (3.0, 1500.0),
                (3.0, 1516.0),
                (5.0, 1516.0),
                (5.0, 1490.0),
                (8.0, 1490.0)
            ]
        );
    }
}
