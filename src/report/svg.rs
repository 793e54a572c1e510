//! `--emit=svg`: a picture of one statement's iteration space for fixed
//! parameter values, projected on two of its iterators: its points, its
//! dependences (to itself and to other statements, projected), the
//! outline of each tile and, as colour and number, the wavefront the
//! tile runs in (its longest-path level in the tile graph of
//! [`super::simulate`], so the picture shows the schedule the
//! simulator measures).
//!
//! The points drawn are at most [`MAX_POINTS`]; the dependences from the
//! statement are projected and deduplicated; each tile's outline is the
//! hull of its points, widened so that a tile of one point still shows.
//! The document is self-contained, and `--emit=svg` writes one: the first
//! tiled SCoP's picture, else the first (`driver`), or the SCoP at the line
//! `--svg-scop` names. Invariant: one circle per distinct projected point,
//! one polygon per tile of the statement.

use super::final_plan::with_final_plan;
use super::parallelism::parameter_values;
use super::simulate::{self, TileGraph};
use crate::model::isl::{Map, Set, UnionMap};
use crate::model::{params_decl, ModelError, Scop};
use crate::names::FreshNames;
use crate::options::{Options, SvgOptions};
use crate::plan::{Analyses, Plan};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;

/// More points than this make a picture no one can read.
pub const MAX_POINTS: usize = 4000;

/// Projected dependences beyond this are not drawn one by one.
const MAX_ARROWS: usize = 100_000;

/// The picture of the plan the C output starts from, and whether it is tiled.
pub fn of_final_plan(
    analyses: &Analyses,
    names: &mut FreshNames,
    options: &Options,
) -> Result<(bool, String), ModelError> {
    with_final_plan(analyses, names, options, |analyses, plan| Ok((plan.tiles(), picture(analyses, plan, options)?)))
}

/// The SVG document of the SCoP of `analyses` under `plan`, with its
/// parameters at their `--param` values.
fn picture(analyses: &Analyses, plan: &Plan, options: &Options) -> Result<String, ModelError> {
    let scop = analyses.scop();
    let values = &parameter_values(scop, options)?;
    let options = &options.svg;
    let params = simulate::fixed_params(values)?;
    let namings = simulate::tile_namings(scop, &plan.scattering, &plan.tile_prefix, &params)?;
    let at = chosen_statement(scop, plan, options)?;
    let k = plan.scattering.stmts[at];
    let name = &scop.statements[k].name;
    let iterators: Vec<&str> = scop.ast.stmts[k].iterators.iter().map(|it| it.name.as_str()).collect();
    // Before the tile graph: too many points is the likely error, and
    // the graph of large parameters takes a while.
    let instances = points_with_tiles(&namings[at].map, iterators.len(), name)?;
    let dependences = analyses.deps()?.generators()?;
    let graph = TileGraph::build(scop, &plan.scattering, &namings, &dependences, &params)?;
    let order = simulate::topological_order(&graph.successors).map_err(|c| ModelError::Input(c.to_string()))?;
    let levels = simulate::wavefronts(&graph.successors, &order);
    let wavefront: HashMap<&[i64], usize> = graph.tiles.iter().map(Vec::as_slice).zip(levels.iter().copied()).collect();
    let (a, b) = match options.dims {
        Some(dims) => checked_dims(dims, iterators.len(), name)?,
        None => default_dims(&instances, iterators.len(), name)?,
    };
    let arrows = projected_dependences(scop, &dependences, k, (a, b), &params)?;
    let mut tiles: BTreeMap<&[i64], BTreeSet<(i64, i64)>> = BTreeMap::new();
    for (point, tile) in &instances {
        tiles.entry(tile.as_slice()).or_default().insert((point[a], point[b]));
    }
    let drawn: Vec<DrawnTile> = tiles
        .into_iter()
        .map(|(tile, points)| DrawnTile { wavefront: wavefront.get(tile).copied().unwrap_or(1), points })
        .collect();
    let params_text: Vec<String> = scop.ast.params.iter().zip(values).map(|(p, v)| format!("{p}={v}")).collect();
    let figure = Figure {
        title: format!("{name}: iterations ({}, {}), {}", iterators[a], iterators[b], params_text.join(", ")),
        axes: (iterators[a], iterators[b]),
        tiles: drawn,
        arrows,
        wavefronts: levels.iter().copied().max().unwrap_or(1),
    };
    Ok(figure.svg())
}

/// The position in `plan.scattering.stmts` of the statement to draw.
fn chosen_statement(scop: &Scop, plan: &Plan, options: &SvgOptions) -> Result<usize, ModelError> {
    let stmts = &plan.scattering.stmts;
    let found = match &options.stmt {
        Some(wanted) => stmts.iter().position(|&k| scop.statements[k].name == *wanted).ok_or_else(|| {
            let names: Vec<&str> = stmts.iter().map(|&k| scop.statements[k].name.as_str()).collect();
            ModelError::Input(format!("no statement `{wanted}` in this SCoP (it has {})", names.join(", ")))
        })?,
        None => stmts.iter().position(|&k| plan.tile_prefix.get(k).is_some_and(|&p| p > 0)).unwrap_or(0),
    };
    match stmts.get(found) {
        Some(_) => Ok(found),
        None => Err(ModelError::Input("the SCoP has no statement to draw".into())),
    }
}

/// Each point of the statement with the tile it runs in.
type Instance = (Vec<i64>, Vec<i64>);

/// The statement's points (`depth` iterators) and their tiles, from
/// the pairs of its tile naming `map`.
fn points_with_tiles(map: &Map, depth: usize, name: &str) -> Result<Vec<Instance>, ModelError> {
    let pairs = map.domain_then_range()?.points(MAX_POINTS)?.ok_or_else(|| {
        ModelError::Input(format!(
            "{name} has more than {MAX_POINTS} points for these parameters: too many to draw; pass smaller --param values"
        ))
    })?;
    if pairs.is_empty() {
        return Err(ModelError::Input(format!("{name} runs no instance for these parameters: nothing to draw")));
    }
    Ok(pairs
        .into_iter()
        .map(|mut pair| {
            let tile = pair.split_off(depth);
            (pair, tile)
        })
        .collect())
}

fn checked_dims((a, b): (usize, usize), depth: usize, name: &str) -> Result<(usize, usize), ModelError> {
    if a == b || a >= depth || b >= depth {
        return Err(ModelError::Input(format!(
            "--svg-dims {a},{b}: {name} has iterators 0 to {}; give two different ones",
            depth.saturating_sub(1)
        )));
    }
    Ok((a, b))
}

/// The first two iterators along which the tile changes (the outer
/// dimensions of the tiled band), completed by the outermost others.
fn default_dims(instances: &[Instance], depth: usize, name: &str) -> Result<(usize, usize), ModelError> {
    if depth < 2 {
        return Err(ModelError::Input(format!("{name} has fewer than two iterators: nothing to draw in a plane")));
    }
    let tiled: Vec<usize> = (0..depth).filter(|&d| tile_changes_along(instances, d)).collect();
    let mut dims = tiled.into_iter().chain(0..depth);
    let a = dims.next().unwrap_or(0);
    let b = dims.find(|&d| d != a).unwrap_or(1);
    Ok((a.min(b), a.max(b)))
}

/// Whether two points that differ only in iterator `d` lie in different tiles.
fn tile_changes_along(instances: &[Instance], d: usize) -> bool {
    let mut tile_of_line: HashMap<Vec<i64>, &[i64]> = HashMap::new();
    instances.iter().any(|(point, tile)| {
        let mut line = point.clone();
        line[d] = 0;
        *tile_of_line.entry(line).or_insert(tile) != tile.as_slice()
    })
}

/// A dependence drawn from one projected point to another.
type Arrow = ((i64, i64), (i64, i64));

/// The dependences from statement `k` (to any statement with iterators
/// `a` and `b`), projected on those two iterators; deduplicated, and
/// without those that project to a point.
fn projected_dependences(
    scop: &Scop,
    dependences: &UnionMap,
    k: usize,
    (a, b): (usize, usize),
    params: &Set,
) -> Result<Vec<Arrow>, ModelError> {
    let source = &scop.statements[k].name;
    let mut arrows = BTreeSet::new();
    for dep in dependences.maps()? {
        if dep.domain_name()? != *source {
            continue;
        }
        let sink = dep.range_name()?;
        let Some(sink_depth) =
            scop.statements.iter().position(|s| s.name == sink).map(|s| scop.ast.stmts[s].iterators.len())
        else {
            continue;
        };
        if a.max(b) >= sink_depth {
            continue;
        }
        let depth = scop.ast.stmts[k].iterators.len();
        let projected = dep
            .intersect_params(params)?
            .reverse()?
            .apply_range(&projection(source, depth, (a, b), scop.ast.params.len())?)?
            .reverse()?
            .apply_range(&projection(&sink, sink_depth, (a, b), scop.ast.params.len())?)?;
        let Some(pairs) = projected.domain_then_range()?.points(MAX_ARROWS)? else {
            return Err(ModelError::Input(format!(
                "more than {MAX_ARROWS} projected dependences: pass smaller --param values"
            )));
        };
        arrows.extend(pairs.into_iter().filter(|p| p[..2] != p[2..]).map(|p| ((p[0], p[1]), (p[2], p[3]))));
    }
    Ok(arrows.into_iter().collect())
}

/// `{ S[i0..] -> [ia, ib] }`.
fn projection(name: &str, depth: usize, (a, b): (usize, usize), n_params: usize) -> Result<Map, ModelError> {
    let dims: Vec<String> = (0..depth).map(|d| format!("i{d}")).collect();
    Ok(Map::parse(&format!("{} -> {{ {name}[{}] -> [i{a}, i{b}] }}", params_decl(n_params), dims.join(", ")))?)
}

/// A tile's projected points and its wavefront.
struct DrawnTile {
    wavefront: usize,
    points: BTreeSet<(i64, i64)>,
}

/// Everything on the picture, in iteration coordinates `(vertical, horizontal)`.
struct Figure<'a> {
    title: String,
    axes: (&'a str, &'a str),
    tiles: Vec<DrawnTile>,
    arrows: Vec<Arrow>,
    wavefronts: usize,
}

/// Pixels between neighbouring points.
const CELL: i64 = 24;
/// Room around the plot for the axes' names.
const MARGIN: i64 = 40;
/// The legend's width, right of the plot.
const LEGEND: i64 = 190;
/// A point's radius.
const RADIUS: f64 = 3.5;
/// How far (in tenths of a cell) a tile's outline stays from its points.
const OUTLINE_GAP: i64 = 4;

impl Figure<'_> {
    fn svg(&self) -> String {
        let points: BTreeSet<(i64, i64)> = self.tiles.iter().flat_map(|t| t.points.iter().copied()).collect();
        let (v_lo, v_hi) = bounds(points.iter().map(|p| p.0));
        let (h_lo, h_hi) = bounds(points.iter().map(|p| p.1));
        let plot_w = (h_hi - h_lo + 1) * CELL;
        let plot_h = (v_hi - v_lo + 1) * CELL;
        // Horizontal left to right, vertical upwards (time grows up).
        let x = |h10: i64| MARGIN as f64 + (h10 - h_lo * 10) as f64 * CELL as f64 / 10.0 + CELL as f64 / 2.0;
        let y = |v10: i64| MARGIN as f64 + (v_hi * 10 - v10) as f64 * CELL as f64 / 10.0 + CELL as f64 / 2.0;
        let width = MARGIN * 2 + plot_w + LEGEND;
        let height = (MARGIN * 2 + plot_h).max(MARGIN * 2 + 40 + 20 * self.wavefronts.min(12) as i64 + 80);
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-family="sans-serif" font-size="11">"#
        );
        let _ = writeln!(s, "<title>{}</title>", escaped(&self.title));
        s.push_str(
            "<defs><marker id=\"arrowhead\" viewBox=\"0 0 6 6\" refX=\"6\" refY=\"3\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0 L6,3 L0,6 z\" fill=\"#444\"/></marker></defs>\n",
        );
        let _ = writeln!(s, r#"<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>"#);
        let _ = writeln!(s, r#"<text x="{MARGIN}" y="18" font-size="13">{}</text>"#, escaped(&self.title));
        s.push_str("<g class=\"tiles\">\n");
        for tile in &self.tiles {
            let corners: Vec<String> =
                hull(&tile.points).iter().map(|&(v, h)| format!("{:.1},{:.1}", x(h), y(v))).collect();
            let _ = writeln!(
                s,
                r#"<polygon points="{}" fill="{}" fill-opacity="0.35" stroke="{}" stroke-width="1.5"/>"#,
                corners.join(" "),
                colour(tile.wavefront, self.wavefronts),
                colour(tile.wavefront, self.wavefronts)
            );
        }
        s.push_str("</g>\n<g class=\"dependences\" stroke=\"#444\" stroke-width=\"0.8\">\n");
        for &((v0, h0), (v1, h1)) in &self.arrows {
            let (x0, y0, x1, y1) = (x(h0 * 10), y(v0 * 10), x(h1 * 10), y(v1 * 10));
            let (dx, dy) = (x1 - x0, y1 - y0);
            let len = (dx * dx + dy * dy).sqrt();
            let (ux, uy) = (dx / len * RADIUS, dy / len * RADIUS);
            let _ = writeln!(
                s,
                r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" marker-end="url(#arrowhead)"/>"#,
                x0 + ux,
                y0 + uy,
                x1 - ux,
                y1 - uy
            );
        }
        s.push_str("</g>\n<g class=\"points\" fill=\"#222\">\n");
        for &(v, h) in &points {
            let _ = writeln!(s, r#"<circle cx="{:.1}" cy="{:.1}" r="{RADIUS}"/>"#, x(h * 10), y(v * 10));
        }
        s.push_str("</g>\n<g class=\"order\" font-size=\"12\" font-weight=\"bold\" text-anchor=\"middle\">\n");
        for tile in &self.tiles {
            let n = tile.points.len() as f64;
            let cv = tile.points.iter().map(|p| p.0 as f64).sum::<f64>() / n;
            let ch = tile.points.iter().map(|p| p.1 as f64).sum::<f64>() / n;
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" fill="black" stroke="white" stroke-width="3" paint-order="stroke">{}</text>"#,
                x((ch * 10.0).round() as i64),
                y((cv * 10.0).round() as i64) + 4.0,
                tile.wavefront
            );
        }
        s.push_str("</g>\n");
        self.axes_and_legend(&mut s, (plot_w, plot_h), (h_lo, v_lo));
        s.push_str("</svg>\n");
        s
    }

    /// The axes' names and ranges, and the legend right of the plot.
    fn axes_and_legend(&self, s: &mut String, (plot_w, plot_h): (i64, i64), (h_lo, v_lo): (i64, i64)) {
        let (vertical, horizontal) = self.axes;
        let bottom = MARGIN + plot_h;
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{} → (from {h_lo})</text>"#,
            MARGIN + plot_w / 2,
            bottom + 24,
            escaped(horizontal)
        );
        let _ = writeln!(
            s,
            r#"<text x="14" y="{}" text-anchor="middle" transform="rotate(-90 14 {})">{} → (from {v_lo})</text>"#,
            MARGIN + plot_h / 2,
            MARGIN + plot_h / 2,
            escaped(vertical)
        );
        let lx = MARGIN * 2 + plot_w;
        let mut ly = MARGIN;
        let _ = writeln!(s, "<g class=\"legend\">\n<text x=\"{lx}\" y=\"{ly}\" font-weight=\"bold\">legend</text>");
        ly += 18;
        let _ = writeln!(s, r##"<rect x="{lx}" y="{}" width="7" height="7" rx="3.5" fill="#222"/>"##, ly - 7);
        let _ = writeln!(s, r#"<text x="{}" y="{ly}">iteration</text>"#, lx + 14);
        ly += 18;
        let _ = writeln!(
            s,
            r##"<path d="M{lx},{} h10" stroke="#444" marker-end="url(#arrowhead)"/><text x="{}" y="{ly}">dependence (projected)</text>"##,
            ly - 4,
            lx + 14
        );
        ly += 18;
        let _ = writeln!(s, r#"<text x="{lx}" y="{ly}">tile: outline, number = wavefront</text>"#);
        // At most a dozen swatches: the palette is a gradient, so the
        // ends and some steps between tell the order.
        let shown = self.wavefronts.min(12);
        for step in 0..shown {
            let w = if shown <= 1 { 1 } else { 1 + step * (self.wavefronts - 1) / (shown - 1) };
            ly += 18;
            let fill = colour(w, self.wavefronts);
            let _ = writeln!(s, r#"<rect x="{lx}" y="{}" width="12" height="12" fill="{fill}"/>"#, ly - 10);
            let _ = writeln!(s, r#"<text x="{}" y="{ly}">wavefront {w}</text>"#, lx + 18);
        }
        s.push_str("</g>\n");
    }
}

fn bounds(values: impl Iterator<Item = i64>) -> (i64, i64) {
    values.fold((i64::MAX, i64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

/// The convex hull of the points, each widened to a small square so that
/// a tile of one point, or of one line of points, still has an outline;
/// in tenths of a cell, counter-clockwise (Andrew's monotone chain).
fn hull(points: &BTreeSet<(i64, i64)>) -> Vec<(i64, i64)> {
    let g = OUTLINE_GAP;
    let mut corners: Vec<(i64, i64)> = points
        .iter()
        .flat_map(|&(v, h)| [(-g, -g), (-g, g), (g, -g), (g, g)].map(|(dv, dh)| (v * 10 + dv, h * 10 + dh)))
        .collect();
    corners.sort_unstable();
    corners.dedup();
    let cross = |o: (i64, i64), a: (i64, i64), b: (i64, i64)| (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
    let mut chain: Vec<(i64, i64)> = Vec::new();
    for pass in [corners.clone(), corners.into_iter().rev().collect()] {
        let start = chain.len();
        for p in pass {
            while chain.len() >= start + 2 && cross(chain[chain.len() - 2], chain[chain.len() - 1], p) <= 0 {
                chain.pop();
            }
            chain.push(p);
        }
        chain.pop();
    }
    chain
}

/// The colour of wavefront `w` of `n`: from blue (first) to red (last).
fn colour(w: usize, n: usize) -> String {
    let share = if n <= 1 { 0.0 } else { (w.saturating_sub(1)) as f64 / (n - 1) as f64 };
    let (r, g, b) = hsl_to_rgb(240.0 * (1.0 - share), 0.75, 0.5);
    format!("#{r:02x}{g:02x}{b:02x}")
}

fn hsl_to_rgb(hue: f64, saturation: f64, lightness: f64) -> (u8, u8, u8) {
    let c = (1.0 - (2.0 * lightness - 1.0).abs()) * saturation;
    let h = hue / 60.0;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = lightness - c / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    (byte(r), byte(g), byte(b))
}

/// Text safe inside an XML element or attribute.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_point_gets_a_square_outline() {
        let hull = hull(&BTreeSet::from([(2, 3)]));
        assert_eq!(hull.len(), 4);
        assert!(hull.contains(&(16, 26)) && hull.contains(&(24, 34)));
    }

    #[test]
    fn a_parallelogram_keeps_its_corners_only() {
        let points: BTreeSet<(i64, i64)> = (0..3).flat_map(|v| (0..4).map(move |h| (v, h + v))).collect();
        // Each slanted side touches two squares at one corner each, each
        // flat side two squares along an edge: six corners in all.
        assert_eq!(hull(&points), vec![(-4, -4), (4, -4), (24, 16), (24, 54), (16, 54), (-4, 34)]);
    }

    #[test]
    fn the_palette_runs_from_blue_to_red() {
        assert_eq!(colour(1, 5), "#2020df");
        assert_eq!(colour(5, 5), "#df2020");
    }
}
