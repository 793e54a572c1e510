//! Statements rewritten onto contracted arrays: `A[e0][e1]` becomes
//! `polyc_A[polyc_mod(e0, 2)][e1 - 1]`, each subscript's text kept (its
//! iterator occurrences move with it, for the printer to substitute).
//!
//! `polyc_mod` is a non-negative modulo (a helper macro of `emit`). Only
//! the statements' text changes: the model is not rebuilt, so the accesses
//! still describe the original array, and the run-time checks that the
//! mapping's parameter context holds keep the new array to where it was
//! proven (`emit::versioned`).

use super::mapping::Row;
use super::Contraction;
use crate::frontend::Stmt;
use std::ops::Range;

/// Iterator occurrences: a byte range and the loop depth (as in [`Stmt`]).
type IterUses = Vec<(Range<usize>, usize)>;

/// Statement `k`, `stmt`, with every access the contracted array takes
/// redirected to its new cell. Rows of one cell disappear: an array of
/// one cell becomes a scalar. `None` if an access's text is not
/// `name[..][..]`.
pub fn contracted_statement(k: usize, stmt: &Stmt, c: &Contraction, params: &[String]) -> Option<Stmt> {
    let mut out = stmt.clone();
    let mut spans: Vec<Range<usize>> = stmt
        .accesses
        .iter()
        .enumerate()
        .filter(|&(j, a)| a.array == c.array && c.takes(k, j))
        .map(|(_, a)| a)
        .map(|a| a.span.start - stmt.span.start..a.span.end - stmt.span.start)
        .collect();
    spans.sort_by_key(|r| std::cmp::Reverse(r.start));
    spans.dedup();
    for span in spans {
        let access = stmt.text.get(span.clone())?;
        if !access.starts_with(&c.array) {
            return None;
        }
        let subscripts = subscripts(access, c.array.len())?;
        let mut text = c.name.clone();
        let mut moved = Vec::new();
        for row in c.mapping.rows.iter().filter(|r| !r.is_one_cell()) {
            text.push('[');
            let (image, uses) = image(row, &subscripts, span.start, text.len(), stmt, params)?;
            text.push_str(&image);
            moved.extend(uses);
            text.push(']');
        }
        out.replace_text(span, &text, moved);
    }
    Some(out)
}

/// The ranges of each subscript's text in an access `name[e0][e1]`
/// (relative to it), the name being `name_len` bytes.
fn subscripts(access: &str, name_len: usize) -> Option<Vec<Range<usize>>> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (k, ch) in access.char_indices().skip(name_len) {
        match ch {
            '[' if depth == 0 => {
                depth = 1;
                start = k + 1;
            }
            '[' => depth += 1,
            ']' if depth == 1 => {
                depth = 0;
                out.push(start..k);
            }
            ']' => depth -= 1,
            c if depth == 0 && !c.is_whitespace() => return None,
            _ => {}
        }
    }
    Some(out)
}

/// The text of `row` applied to the subscripts (copied from `stmt`'s
/// text at `access_start`), placed `at` bytes into the new access; with
/// the iterator occurrences it carries, relative to the new access.
fn image(
    row: &Row,
    subscripts: &[Range<usize>],
    access_start: usize,
    at: usize,
    stmt: &Stmt,
    params: &[String],
) -> Option<(String, IterUses)> {
    let mut text = String::new();
    let mut uses = Vec::new();
    let (open, close) = match &row.modulus {
        Some(m) => ("polyc_mod(".to_string(), format!(", {})", m.param_text(params)?)),
        None if row.range.0.is_constant() && row.range.0.constant == 0 => (String::new(), String::new()),
        None => {
            let shift = row.range.0.scale(-1).param_text(params)?;
            let close = match shift.strip_prefix('-') {
                Some(negative) => format!(") - {negative}"),
                None => format!(") + {shift}"),
            };
            ("(".to_string(), close)
        }
    };
    text.push_str(&open);
    let terms: Vec<(usize, i64)> = row.normal.iter().copied().enumerate().filter(|(_, a)| *a != 0).collect();
    for (n, (d, a)) in terms.iter().enumerate() {
        let sub = subscripts.get(*d)?;
        let sign = match (n, *a < 0) {
            (0, false) => "",
            (0, true) => "-",
            (_, false) => " + ",
            (_, true) => " - ",
        };
        text.push_str(sign);
        if a.abs() != 1 {
            text.push_str(&format!("{} * ", a.abs()));
        }
        let from = access_start + sub.start;
        let copied = stmt.text[from..access_start + sub.end].trim();
        let from = from + stmt.text[from..].find(copied).unwrap_or(0);
        let simple = copied.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
        if !simple {
            text.push('(');
        }
        let placed = at + text.len();
        text.push_str(copied);
        if !simple {
            text.push(')');
        }
        for (r, depth) in stmt.iter_uses.iter().filter(|(r, _)| from <= r.start && r.end <= from + copied.len()) {
            uses.push((r.start - from + placed..r.end - from + placed, *depth));
        }
    }
    if terms.is_empty() {
        text.push('0');
    }
    text.push_str(&close);
    Some((text, uses))
}
