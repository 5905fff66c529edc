//! The SVG charts of the report: log-log time against size, one curve per implementation,
//! each with its least-squares growth exponent in the legend.

use std::path::Path;

use benches::gmp;

use super::harness::Measured;
use super::rsa_rows;

/// One curve of a chart: its label and (size, value) points.
type Curve = (String, Vec<(f64, f64)>);

/// Least-squares slope of ln(value) against ln(size): t ∝ size^slope.
fn growth_exponent(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(sx, sy), &(x, y)| (sx + x.ln(), sy + y.ln()));
    let (mx, my) = (sx / n, sy / n);
    let (num, den) = points.iter().fold((0.0, 0.0), |(num, den), &(x, y)| {
        let dx = x.ln() - mx;
        (num + dx * (y.ln() - my), den + dx * dx)
    });
    num / den
}

/// An SVG chart, log-log, one line per curve, the fitted growth exponent in each legend entry.
fn chart(path: &Path, title: &str, y_desc: &str, curves: &[Curve]) -> Result<(), String> {
    use plotters::prelude::*;
    let all = curves.iter().flat_map(|(_, p)| p.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, 0.0f64, f64::MAX, 0.0f64);
    for &(x, y) in all {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let root = SVGBackend::new(path, (900, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut ch = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(
            (x0 * 0.9..x1 * 1.1).log_scale(),
            (y0 * 0.8..y1 * 1.25).log_scale(),
        )
        .map_err(|e| err(&e))?;
    ch.configure_mesh()
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y}"))
        .x_desc("operand size (bits)")
        .y_desc(y_desc)
        .draw()
        .map_err(|e| err(&e))?;
    for (i, (label, points)) in curves.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let style = ShapeStyle::from(color).stroke_width(2);
        let k = growth_exponent(points);
        ch.draw_series(LineSeries::new(points.iter().copied(), style))
            .map_err(|e| err(&e))?
            .label(format!("{label}: time ∝ bits^{k:.2}"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        ch.draw_series(
            points
                .iter()
                .map(|&p| Circle::new(p, 3, ShapeStyle::from(color).filled())),
        )
        .map_err(|e| err(&e))?;
    }
    ch.configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// The curves of the operations `ops` (one per operation and implementation), in µs.
fn curves(results: &[Measured], ops: &[&str]) -> Vec<Curve> {
    let mut out: Vec<Curve> = Vec::new();
    for m in results.iter().filter(|m| ops.contains(&m.op)) {
        for (name, t) in &m.times {
            let label = if ops.len() > 1 {
                format!("{} {name}", m.op)
            } else {
                name.clone()
            };
            let point = (m.size as f64, t * 1e6);
            match out.iter_mut().find(|(l, _)| *l == label) {
                Some((_, points)) => points.push(point),
                None => out.push((label, vec![point])),
            }
        }
    }
    out
}

/// Writes `powm.svg` and `mulsqr.svg` into `dir`; returns the Markdown that shows them.
pub fn charts(results: &[Measured], dir: &Path, gmp_host: &str) -> Result<String, String> {
    let note = format!("GMP {} --host={gmp_host}", gmp::version());
    chart(
        &dir.join("powm.svg"),
        &format!("modular exponentiation, base = exponent = modulus size ({note})"),
        "µs per call",
        &curves(results, &["powm"]),
    )?;
    chart(
        &dir.join("mulsqr.svg"),
        &format!("multiply and square, n × n bits ({note})"),
        "µs per call",
        &curves(results, &["mul", "sqr"]),
    )?;
    chart(
        &dir.join("rsa.svg"),
        "RSA private operation with the CRT (raw, blinded, checked), modulus bits",
        "µs per call",
        &curves(results, &[rsa_rows::PRIVATE_CRT]),
    )?;
    Ok(
        "Charts (log-log; the legend gives each curve's least-squares growth exponent):\n\n\
        ![powm: time against size](benches/results/powm.svg)\n\n\
        ![mul and sqr: time against size](benches/results/mulsqr.svg)\n\n\
        ![RSA CRT private operation: time against modulus size](benches/results/rsa.svg)\n\n"
            .to_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_exponent_recovers_a_power_law() {
        let points: Vec<(f64, f64)> = [256.0, 512.0, 1024.0, 4096.0]
            .iter()
            .map(|&x: &f64| (x, 3.5 * x.powf(2.6)))
            .collect();
        assert!((growth_exponent(&points) - 2.6).abs() < 1e-9);
    }
}
