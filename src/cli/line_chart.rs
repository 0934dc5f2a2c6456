//! One way to draw a line chart as SVG (plotters): lines with an optional shaded band and
//! point markers, a caption, axis titles and a legend. The sim's outcome curves, the rating
//! history and the lab's sweep all draw through it.
use crate::error::{Error, Result};
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

/// One line: its label and colour, its points, and optionally a band (low, high) at each point.
pub(super) struct Line {
    pub label: String,
    pub colour: RGBAColor,
    pub points: Vec<(f64, f64)>,
    pub band: Option<Vec<(f64, f64)>>,
    /// A dot at each point (for measured values, as a sweep's).
    pub markers: bool,
}

/// What the chart says around its lines.
pub(super) struct Chart<'a> {
    pub caption: String,
    pub size: (u32, u32),
    pub x: std::ops::Range<f64>,
    pub y: std::ops::Range<f64>,
    pub x_desc: String,
    pub y_desc: String,
    /// How many x labels at most (plotters' default when `None`).
    pub x_labels: Option<usize>,
    pub x_format: &'a dyn Fn(&f64) -> String,
    pub y_format: &'a dyn Fn(&f64) -> String,
    /// Where the y labels go (plotters' own choice when `None`).
    pub y_ticks: Option<Vec<f64>>,
}

fn fail(e: &dyn std::fmt::Display) -> Error {
    Error::msg(format!("cannot draw the chart: {e}"))
}

/// A y axis with its labels exactly where the chart asks and a fainter line at each fifth
/// between (plotters' own f64 axis picks its own places, and its key-point wrapper cannot be
/// given a label format).
struct Ticked {
    inner: RangedCoordf64,
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl Ranged for Ticked {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }
}

impl ValueFormatter<f64> for Ticked {
    fn format(value: &f64) -> String {
        RangedCoordf64::format(value)
    }
}

fn y_axis(chart: &Chart) -> Ticked {
    let inner = RangedCoordf64::from(chart.y.clone());
    let bold = chart
        .y_ticks
        .clone()
        .unwrap_or_else(|| inner.key_points(LABELS));
    let light = bold
        .windows(2)
        .flat_map(|w| (1..5).map(move |k| w[0] + (w[1] - w[0]) * k as f64 / 5.0))
        .collect();
    Ticked { inner, bold, light }
}

/// The caption's font size: 20 pixels, smaller when a long caption would not fit the width
/// (a generous 0.6 of the size a character: the viewer's sans-serif font is not known here).
fn caption_size(chart: &Chart) -> f64 {
    let chars = chart.caption.chars().count().max(1) as f64;
    let room = chart.size.0 as f64 - 2.0 * MARGIN as f64;
    (room / (chars * 0.6)).clamp(10.0, 20.0)
}

/// Space around the chart (pixels).
const MARGIN: u32 = 15;

/// Labels on an axis when the chart does not place them (plotters' default).
const LABELS: usize = 10;

pub(super) fn svg(chart: &Chart, lines: &[Line]) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, chart.size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let mut c = ChartBuilder::on(&root)
            .caption(&chart.caption, ("sans-serif", caption_size(chart)))
            .margin(MARGIN)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(chart.x.clone(), y_axis(chart))
            .map_err(|e| fail(&e))?;
        let mut mesh = c.configure_mesh();
        mesh.x_desc(chart.x_desc.as_str())
            .y_desc(chart.y_desc.as_str())
            .x_label_formatter(chart.x_format)
            .y_label_formatter(chart.y_format);
        if let Some(n) = chart.x_labels {
            mesh.x_labels(n);
        }
        mesh.draw().map_err(|e| fail(&e))?;
        for line in lines {
            let colour = line.colour;
            if let Some(band) = &line.band {
                let mut outline: Vec<(f64, f64)> = line
                    .points
                    .iter()
                    .zip(band)
                    .map(|(p, b)| (p.0, b.1))
                    .collect();
                outline.extend(line.points.iter().zip(band).rev().map(|(p, b)| (p.0, b.0)));
                c.draw_series(std::iter::once(Polygon::new(
                    outline,
                    colour.mix(0.15).filled(),
                )))
                .map_err(|e| fail(&e))?;
            }
            c.draw_series(LineSeries::new(
                line.points.iter().copied(),
                colour.stroke_width(2),
            ))
            .map_err(|e| fail(&e))?
            .label(line.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
            if line.markers {
                c.draw_series(
                    line.points
                        .iter()
                        .map(|p| Circle::new(*p, 3, colour.filled())),
                )
                .map_err(|e| fail(&e))?;
            }
        }
        c.configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE)
            .draw()
            .map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
    }
    Ok(svg)
}
