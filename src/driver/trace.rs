//! `--trace`: every SCoP statement replaced by a `printf` of its
//! instance, in the regenerated code and, for reference, in the source.

use crate::diagnostics::Diagnostic;
use crate::frontend::{Source, Stmt};
use std::ops::Range;

/// `printf("S<k> %ld %ld\n", (long)(i), (long)(j));` in place of statement
/// `k`; for the evaluation of a condition, `(printf(..), condition)`.
pub fn traced_statement(k: usize, stmt: &Stmt) -> Stmt {
    let format: String = stmt.iterators.iter().map(|_| " %ld").collect();
    let condition = stmt.sets.is_some();
    let mut text = format!("{}printf(\"S{k}{format}\\n\"", if condition { "(" } else { "" });
    let mut iter_uses = Vec::new();
    for (depth, it) in stmt.iterators.iter().enumerate() {
        text.push_str(", (long)(");
        iter_uses.push((text.len()..text.len() + it.name.len(), depth));
        text.push_str(&it.name);
        text.push(')');
    }
    if condition {
        text.push_str("), ");
        let shift = text.len();
        iter_uses.extend(stmt.iter_uses.iter().map(|(r, d)| (r.start + shift..r.end + shift, *d)));
        text.push_str(&stmt.text);
        text.push(')');
    } else {
        text.push_str(");");
    }
    Stmt { text, iter_uses, ..stmt.clone() }
}

/// What replaces statement `k`'s span in the source: the traced
/// statement; for the initialiser of a declaration (`s = e` of `double s
/// = e;`, no `;` of its own), `s = (printf(..), 0)`, so that the
/// declaration stays one.
fn traced_in_source(k: usize, stmt: &Stmt, source: &str) -> String {
    let traced = traced_statement(k, stmt).text;
    let written = &source[stmt.span.clone()];
    if stmt.sets.is_some() || written.trim_end().ends_with(';') {
        return traced;
    }
    let name = written.split('=').next().unwrap_or(written).trim_end();
    format!("{name} = ({}, 0)", traced.trim_end_matches(';'))
}

/// The input with every SCoP statement replaced as with [`Options::trace`](crate::options::Options::trace),
/// and nothing else changed: the reference trace.
pub fn trace_original(text: String) -> Result<String, Diagnostic> {
    let source = Source::parse(text)?;
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    for scop in source.scops().scops {
        for (k, s) in scop.stmts.iter().enumerate() {
            edits.push((s.span.clone(), traced_in_source(k, s, &source.text)));
        }
    }
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut out = source.text.clone();
    for (range, text) in edits {
        out.replace_range(range, &text);
    }
    Ok(out)
}
