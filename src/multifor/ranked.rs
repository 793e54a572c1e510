//! The paper's non-linear mapping (seed 001, section 5) in two
//! dimensions: the K-th iteration of a 2-deep nest (the ranked loop of a
//! multifor, grain `rank`) runs at the K-th iteration of the other nest
//! (the host). The ranked nest's rows have a length `w0 + s.t` in their
//! number `t`, so its ranking polynomial is `Q(t) + j` with
//! `Q(t) = w0.t + s.t(t-1)/2`; inverting it at rank K takes the largest
//! `t` with `Q(t) <= K`: the quadratic's root, through an integer square
//! root of its discriminant (Newton's method: no libm, no rounding), then
//! corrected with `Q(t) <= K < Q(t+1)`. The mapping is not affine, so
//! this code is written here, not scanned.
//!
//! The front end checks the nest's shape and hands over its headers as
//! text ([`RankMapping`]: the host's loops as written, the ranked nest as
//! [`Rows`] of length `w0 + s.t`, `s >= 0` from its affine bounds). The
//! code runs the host's loops as written and, at each of their iterations,
//! the ranked nest's iteration of the same rank; what is left of the
//! ranked nest runs after. Only when no dependence links the two nests,
//! and the SCoP is the multifor alone ([`lower`] says why not, and the
//! multifor is then an error). Invariant: each nest runs its own
//! iterations once, in its own order.

use super::apart::{apart, loops, Loops};
use crate::deps::Dependences;
use crate::frontend::{LoopText, RankMapping, Rows};
use crate::model::isl::IslResult;
use crate::model::Scop;

/// The C text of the SCoP's rank-mapped multifor, at the SCoP's indentation;
/// `Err` with the reason when the two nests are not independent or the
/// SCoP holds more than the multifor.
pub fn lower(scop: &Scop, deps: &Dependences) -> IslResult<Result<String, String>> {
    let Some(mapping) = &scop.ast.rank_mapping else { return Ok(Err("no rank mapping".into())) };
    let Some(groups) = loops(scop) else {
        return Ok(Err("a rank-mapped multifor is alone in its region, with statements in both loops".into()));
    };
    if groups.len() != 2 || scop.ast.stmts.iter().any(|s| s.iterators.len() != 2) {
        return Ok(Err("a rank-mapped multifor is alone in its region, with statements in both loops".into()));
    }
    if let Loops::Linked(a, b) = apart(scop, deps)? {
        let text = |k: usize| scop.ast.stmts[k].text.trim().to_string();
        return Ok(Err(format!(
            "its two nests run in an order of their own, so no dependence may link them: `{}` and `{}` touch the same data",
            text(a),
            text(b)
        )));
    }
    let texts = |g: &[usize]| -> Vec<String> { g.iter().map(|&k| scop.ast.stmts[k].text.trim().to_string()).collect() };
    let host = texts(&groups[1 - mapping.ranked]);
    let ranked = texts(&groups[mapping.ranked]);
    Ok(Ok(code(mapping, &host, &ranked, &scop.ast.indent)))
}

fn code(m: &RankMapping, host: &[String], ranked: &[String], indent: &str) -> String {
    let rows = &m.rows;
    let s = rows.slope;
    let mut out = Lines { text: String::new(), indent: indent.to_string() };
    out.open("{");
    out.line("long polyc_rank = 0, polyc_ranks = 0, polyc_row_width, polyc_row;");
    out.line(&format!("long polyc_rows = {}, polyc_first = {};", rows.count, rows.first));
    out.line(&format!("{{ int {} = polyc_first; polyc_row_width = {}; }}", rows.outer, rows.length));
    out.line("/* Rows of no iteration before the first one do not count. */");
    out.line(&format!(
        "for (; polyc_rows > 0 && polyc_row_width <= 0; polyc_rows--) {{ polyc_first++; polyc_row_width += {s}; }}"
    ));
    out.line(&format!("if (polyc_rows > 0) polyc_ranks = {};", q(s, "polyc_rows")));
    let block = ranked_block(rows, ranked);
    let [outer, inner] = &m.host;
    out.open(&header(outer));
    out.open(&header(inner));
    let body: Vec<String> = if m.ranked == 0 {
        block.iter().cloned().chain(host.iter().cloned()).collect()
    } else {
        host.iter().cloned().chain(block.iter().cloned()).collect()
    };
    body.iter().for_each(|l| out.line(l));
    out.line("polyc_rank++;");
    out.close("}");
    out.close("}");
    out.line("/* What is left of the ranked nest. */");
    out.open("for (; polyc_rank < polyc_ranks; polyc_rank++) {");
    block.iter().for_each(|l| out.line(l));
    out.close("}");
    out.close("}");
    out.text
}

/// `for (int i = init; cond; update) {`
fn header(l: &LoopText) -> String {
    format!("for (int {} = {}; {}; {}) {{", l.index, l.init, l.cond, l.update)
}

/// `Q(t)`: the rank of the first iteration of row `t`.
fn q(slope: i64, t: &str) -> String {
    if slope == 0 {
        format!("polyc_row_width * {t}")
    } else {
        format!("(polyc_row_width * {t} + {slope} * {t} * ({t} - 1) / 2)")
    }
}

/// The ranked nest's iteration of rank `polyc_rank`, guarded by the
/// number of ranks. The row is the root of
/// `s.t^2 + (2.w0 - s).t - 2.K = 0`, through an integer square root
/// (Newton's method: no libm, no rounding), then corrected.
fn ranked_block(rows: &Rows, ranked: &[String]) -> Vec<String> {
    let s = rows.slope;
    let mut lines = vec!["if (polyc_rank < polyc_ranks) {".to_string()];
    if s == 0 {
        lines.push("  polyc_row = polyc_rank / polyc_row_width;".to_string());
    } else {
        let b = format!("(2 * polyc_row_width - {s})");
        lines.extend([
            format!("  long polyc_disc = {b} * {b} + 8 * {s} * polyc_rank, polyc_root = polyc_disc, polyc_next;"),
            "  if (polyc_root > 1)".to_string(),
            "    for (polyc_next = (polyc_root + 1) / 2; polyc_next < polyc_root; polyc_next = (polyc_root + polyc_disc / polyc_root) / 2)".to_string(),
            "      polyc_root = polyc_next;".to_string(),
            format!("  polyc_row = (polyc_root - {b}) / (2 * {s});"),
        ]);
    }
    lines.extend([
        "  if (polyc_row < 0) polyc_row = 0;".to_string(),
        "  if (polyc_row > polyc_rows - 1) polyc_row = polyc_rows - 1;".to_string(),
        format!("  while (polyc_row + 1 < polyc_rows && {} <= polyc_rank) polyc_row++;", q(s, "(polyc_row + 1)")),
        format!("  while (polyc_row > 0 && {} > polyc_rank) polyc_row--;", q(s, "polyc_row")),
        format!("  int {} = polyc_first + polyc_row;", rows.outer),
        format!("  int {} = {} + (polyc_rank - {});", rows.inner, rows.start, q(s, "polyc_row")),
    ]);
    lines.extend(ranked.iter().map(|t| format!("  {t}")));
    lines.push("}".to_string());
    lines
}

/// Lines of C at a growing and shrinking indentation.
struct Lines {
    text: String,
    indent: String,
}

impl Lines {
    fn line(&mut self, l: &str) {
        self.text.push_str(&format!("{}{l}\n", self.indent));
    }

    fn open(&mut self, l: &str) {
        self.line(l);
        self.indent.push_str("  ");
    }

    fn close(&mut self, l: &str) {
        self.indent.truncate(self.indent.len().saturating_sub(2));
        self.line(l);
    }
}
