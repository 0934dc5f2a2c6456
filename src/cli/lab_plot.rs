//! Charts of the balance lab: `sweep --plot` (win rates with their 95% bands against the
//! value) and `matrix --plot` (a heatmap of the row ship's score against each column ship).
use super::line_chart::{Chart, Line as ChartLine};
use crate::combat::lab::{matrix::MatrixReport, sweep::SweepReport};
use crate::error::{Error, Result};
use plotters::prelude::*;

fn fail(e: &dyn std::fmt::Display) -> Error {
    Error::msg(format!("cannot draw the chart: {e}"))
}

/// One line: (x, rate, low, high) at each point.
type Line = (String, RGBAColor, Vec<(f64, f64, f64, f64)>);

/// Win rates against the value: both ships' lines for one parameter; for a grid, the first
/// ship's line for each value of the second parameter.
pub(super) fn sweep_svg(report: &SweepReport) -> Result<String> {
    let numeric = |v: &serde_json::Value| v.as_f64();
    if report.points.iter().any(|p| numeric(&p.value).is_none()) {
        return Err(Error::msg(format!(
            "--plot draws numeric values only (`{}` takes other values: use --csv)",
            report.parameter
        )));
    }
    let (a, b) = match report.points.first() {
        Some(p) => (p.a.name.clone(), p.b.name.clone()),
        None => return Err(Error::msg("nothing to plot")),
    };
    let point = |s: &crate::combat::sim::SideStats, x: f64| (x, s.win_rate, s.ci95[0], s.ci95[1]);
    let lines: Vec<Line> = match &report.parameter_2 {
        None => vec![
            (
                format!("{a} wins"),
                BLUE.to_rgba(),
                report
                    .points
                    .iter()
                    .map(|p| point(&p.a, numeric(&p.value).unwrap_or(0.0)))
                    .collect(),
            ),
            (
                format!("{b} wins"),
                RED.to_rgba(),
                report
                    .points
                    .iter()
                    .map(|p| point(&p.b, numeric(&p.value).unwrap_or(0.0)))
                    .collect(),
            ),
        ],
        Some(p2) => {
            let mut seconds: Vec<&serde_json::Value> = Vec::new();
            for p in &report.points {
                if let Some(v) = &p.value_2 {
                    if !seconds.contains(&v) {
                        seconds.push(v);
                    }
                }
            }
            seconds
                .iter()
                .enumerate()
                .map(|(k, v)| {
                    let label = format!("{a} wins, {p2} = {}", crate::combat::lab::sweep::shown(v));
                    let pts = report
                        .points
                        .iter()
                        .filter(|p| p.value_2.as_ref() == Some(*v))
                        .map(|p| point(&p.a, numeric(&p.value).unwrap_or(0.0)))
                        .collect();
                    (label, Palette99::pick(k).to_rgba(), pts)
                })
                .collect()
        }
    };
    let xs: Vec<f64> = report
        .points
        .iter()
        .filter_map(|p| numeric(&p.value))
        .collect();
    let (mut lo, mut hi) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
            (l.min(*x), h.max(*x))
        });
    if hi - lo < 1e-9 {
        (lo, hi) = (lo - 1.0, hi + 1.0);
    }
    let (low, high) = lines
        .iter()
        .flat_map(|l| l.2.iter())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            (l.min(p.1).min(p.2), h.max(p.1).max(p.3))
        });
    let (y, ticks) = percent_axis(low, high);
    let percent = |y: &f64| format!("{:.0}%", y * 100.0);
    let plain = |x: &f64| crate::output::trim_number(*x, 3);
    let chart = Chart {
        caption: format!(
            "{a} vs {b}: win rates against {} ({} battles a point)",
            report.parameter, report.points[0].battles
        ),
        size: (960, 540),
        x: lo..hi,
        y,
        x_desc: report.parameter.clone(),
        y_desc: "win rate (band: 95% interval)".into(),
        x_labels: whole_steps(&xs),
        x_format: &plain,
        y_format: &percent,
        y_ticks: Some(ticks),
    };
    let drawn: Vec<ChartLine> = lines
        .into_iter()
        .map(|(label, colour, pts)| ChartLine {
            label,
            colour,
            points: pts.iter().map(|p| (p.0, p.1)).collect(),
            band: Some(pts.iter().map(|p| (p.2, p.3)).collect()),
            markers: true,
        })
        .collect();
    super::line_chart::svg(&chart, &drawn)
}

/// For whole-number values (shields, torpedoes), a label count that puts labels on whole
/// numbers only (plotters would halve the steps of a short range: 5.5 shields).
fn whole_steps(xs: &[f64]) -> Option<usize> {
    if xs.is_empty() || xs.iter().any(|x| x.fract() != 0.0) {
        return None;
    }
    let (lo, hi) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
            (l.min(*x), h.max(*x))
        });
    Some(((hi - lo) as usize + 1).clamp(2, MOST_Y_LABELS as usize + 1))
}

/// Steps between y labels, as shares: whole percents, and few enough for ten labels at most.
const PERCENT_STEPS: &[f64] = &[0.01, 0.02, 0.05, 0.1, 0.2, 0.25];
const MOST_Y_LABELS: f64 = 10.0;

/// A y axis for win rates from `low` to `high`: the range they span, widened to whole steps
/// (within 0–100%), and a label at every step, each a whole percent.
fn percent_axis(low: f64, high: f64) -> (std::ops::Range<f64>, Vec<f64>) {
    let (low, high) = if low.is_finite() && high.is_finite() && low <= high {
        (low.clamp(0.0, 1.0), high.clamp(0.0, 1.0))
    } else {
        (0.0, 1.0)
    };
    // Steps are counted in whole percents so that no label comes out as 12.000000001%.
    let (lo_pc, hi_pc) = (low * 100.0, high * 100.0);
    for &step in PERCENT_STEPS {
        let s = (step * 100.0).round();
        let from = ((lo_pc + 1e-9) / s).floor() * s;
        let mut to = ((hi_pc - 1e-9) / s).ceil() * s;
        if to <= from {
            to = from + s;
        }
        let (from, to) = (from.max(0.0), to.min(100.0));
        if (to - from) / s <= MOST_Y_LABELS {
            let count = ((to - from) / s).round() as usize;
            let ticks = (0..=count).map(|k| (from + s * k as f64) / 100.0).collect();
            return ((from / 100.0)..(to / 100.0), ticks);
        }
    }
    let ticks = (0..=10).map(|k| k as f64 / 10.0).collect();
    (0.0..1.0, ticks)
}

/// A heatmap: the row ship's score (wins and half the draws) against each column ship, red for
/// losing through white for even to blue for winning, the score written in each cell.
pub(super) fn matrix_svg(report: &MatrixReport) -> Result<String> {
    let n = report.ships.len();
    let (label_w, top, cell) = (230i32, 200i32, 46i32);
    let title = [
        "row ship's score against the column ship".to_string(),
        format!(
            "({} battles a cell, draws as halves; 50 is even)",
            report.cells.first().map(|c| c.battles).unwrap_or(0)
        ),
    ];
    // Wide enough for the grid and for the title's longer line (a generous width a
    // character: the viewer's sans-serif font is not known here).
    let title_w = title
        .iter()
        .map(|l| (l.chars().count() as f64 * TITLE_SIZE as f64 * 0.6).ceil() as i32)
        .max()
        .unwrap_or(0);
    let size = (
        (label_w + cell * n as i32 + 20).max(title_w + 20) as u32,
        (top + cell * n as i32 + 60) as u32,
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        for (k, line) in title.iter().enumerate() {
            let y = 10 + k as i32 * (TITLE_SIZE + 6);
            root.draw(&Text::new(
                line.clone(),
                (10, y),
                ("sans-serif", TITLE_SIZE),
            ))
            .map_err(|e| fail(&e))?;
        }
        let small = ("sans-serif", 12).into_font();
        for (i, name) in report.ships.iter().enumerate() {
            let y = top + cell * i as i32 + cell / 2 - 6;
            root.draw(&Text::new(name.clone(), (10, y), small.clone()))
                .map_err(|e| fail(&e))?;
            let x = label_w + cell * i as i32 + cell / 2;
            let rotated = small.clone().transform(FontTransform::Rotate270);
            root.draw(&Text::new(name.clone(), (x - 6, top - 8), rotated))
                .map_err(|e| fail(&e))?;
        }
        for (i, a) in report.ships.iter().enumerate() {
            for (j, b) in report.ships.iter().enumerate() {
                let x0 = label_w + cell * j as i32;
                let y0 = top + cell * i as i32;
                let (colour, text) = match report.cell(a, b) {
                    Some(c) => {
                        let s = MatrixReport::score(c);
                        (heat(s), format!("{:.0}", s * 100.0))
                    }
                    None => (RGBColor(220, 220, 220), String::new()),
                };
                root.draw(&Rectangle::new(
                    [(x0, y0), (x0 + cell, y0 + cell)],
                    colour.filled(),
                ))
                .map_err(|e| fail(&e))?;
                root.draw(&Rectangle::new(
                    [(x0, y0), (x0 + cell, y0 + cell)],
                    WHITE.stroke_width(1),
                ))
                .map_err(|e| fail(&e))?;
                root.draw(&Text::new(
                    text,
                    (x0 + cell / 2 - 8, y0 + cell / 2 - 6),
                    small.clone(),
                ))
                .map_err(|e| fail(&e))?;
            }
        }
        root.present().map_err(|e| fail(&e))?;
    }
    Ok(svg)
}

/// The matrix title's font size (pixels).
const TITLE_SIZE: i32 = 16;

/// 0 → red, ½ → white, 1 → blue.
fn heat(score: f64) -> RGBColor {
    let s = score.clamp(0.0, 1.0);
    let mix =
        |from: u8, to: u8, t: f64| (from as f64 + (to as f64 - from as f64) * t).round() as u8;
    if s < 0.5 {
        let t = s / 0.5;
        RGBColor(mix(214, 255, t), mix(39, 255, t), mix(40, 255, t))
    } else {
        let t = (s - 0.5) / 0.5;
        RGBColor(mix(255, 31, t), mix(255, 119, t), mix(255, 180, t))
    }
}

#[cfg(test)]
mod tests {
    use super::percent_axis;

    #[test]
    fn the_y_axis_spans_the_data_in_whole_percents() {
        let (r, ticks) = percent_axis(0.42, 0.61);
        // 19 points wide: steps of 2, from 42% to 62%.
        assert_eq!((r.start, r.end), (0.42, 0.62));
        assert_eq!(ticks.len(), 11);
        let (r, ticks) = percent_axis(0.0, 1.0);
        assert_eq!((r.start, r.end), (0.0, 1.0));
        assert_eq!(ticks.len(), 11);
        for t in percent_axis(0.123, 0.987).1 {
            let pc = t * 100.0;
            assert!((pc - pc.round()).abs() < 1e-9, "{pc}");
        }
        // A flat line still gets a range.
        let (r, _) = percent_axis(0.5, 0.5);
        assert!(r.end > r.start && r.start <= 0.5 && r.end >= 0.5);
    }
}
