//! One way to draw a line chart as SVG (plotters): lines with an optional shaded band and
//! point markers, a caption, axis titles and a legend. The sim's outcome curves, the rating
//! history and the lab's sweep all draw through it.
use arbiter::{Error, Result};
use plotters::prelude::*;

/// One line: its label and colour, its points, and optionally a band (low, high) at each point.
pub struct Line {
    pub label: String,
    pub colour: RGBAColor,
    pub points: Vec<(f64, f64)>,
    pub band: Option<Vec<(f64, f64)>>,
    /// A dot at each point (for measured values, as a sweep's).
    pub markers: bool,
}

/// What the chart says around its lines.
pub struct Chart<'a> {
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
}

fn fail(e: &dyn std::fmt::Display) -> Error {
    Error::msg(format!("cannot draw the chart: {e}"))
}

pub fn svg(chart: &Chart, lines: &[Line]) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, chart.size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let mut c = ChartBuilder::on(&root)
            .caption(&chart.caption, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(chart.x.clone(), chart.y.clone())
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
