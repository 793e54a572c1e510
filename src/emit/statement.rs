//! A statement's text as printed at one point of the loops: its source
//! text with each iterator occurrence replaced by the iterator's value
//! there, except where a whole subscript prints simpler from its value.
//!
//! A subscript that is affine in the iterators and parameters
//! (`subscripts`) and holds an iterator whose value is not its own name
//! is printed from its value over the loop variables: a shifted schedule
//! then gives `A[i][j]` where the text reads `A[i - 1][j]` and `i` stands
//! for `i + 1`, not `A[(i + 1) - 1][j]`. A subscript picks an element by
//! its value alone, so the element is the same. Other occurrences (in
//! values, possibly floating-point contexts) keep the text around them
//! and get their value in parentheses. Elements kept in locals
//! (`promote`) are replaced by their names.

use super::printer::{Printer, Scalar};
use super::subscripts::{read_affine, subscript_ranges};
use crate::frontend::Stmt;
use crate::model::affine::{LinExpr, Term};
use std::ops::Range;

/// Replacements of byte ranges of a statement's text.
type Edits = Vec<(Range<usize>, String)>;

impl Printer<'_> {
    /// The bytes `range` of statement `id`'s text, iterators replaced by
    /// their values here and the elements of `scalars` by their names.
    pub(super) fn render(&mut self, id: usize, range: Range<usize>, scalars: &[Scalar]) -> String {
        let mut edits = self.scalar_edits(id, &range, scalars);
        self.subscript_edits(id, &range, &mut edits);
        self.iterator_edits(id, &range, &mut edits);
        edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
        let mut text = self.program.stmts[id].text[range.clone()].to_string();
        for (r, replacement) in edits {
            text.replace_range(r.start - range.start..r.end - range.start, &replacement);
        }
        text
    }

    /// The accesses within `range` that spell an element of `scalars`,
    /// replaced by its name.
    fn scalar_edits(&mut self, id: usize, range: &Range<usize>, scalars: &[Scalar]) -> Edits {
        let program = self.program;
        let stmt = &program.stmts[id];
        let mut edits = Edits::new();
        if scalars.is_empty() {
            return edits;
        }
        for a in stmt.accesses.iter().filter(|a| !a.subscripts.is_empty()) {
            let Some(r) = stmt.relative_span(&a.span) else { continue };
            if !within(&r, range) || edits.iter().any(|(e, _)| *e == r) {
                continue;
            }
            let text = self.render(id, r.clone(), &[]);
            if let Some(s) = scalars.iter().find(|s| s.access == text) {
                edits.push((r, s.name.clone()));
            }
        }
        edits
    }

    /// The subscripts within `range`, outside `edits`, that hold an
    /// iterator standing for something else here and are affine:
    /// printed from their values.
    fn subscript_edits(&mut self, id: usize, range: &Range<usize>, edits: &mut Edits) {
        let program = self.program;
        let stmt = &program.stmts[id];
        for r in subscript_ranges(&stmt.text) {
            if !within(&r, range) || edits.iter().any(|(e, _)| within(&r, e)) {
                continue;
            }
            let moved = stmt.iter_uses.iter().filter(|(u, _)| within(u, &r)).any(|(u, depth)| {
                let value = self.env[program.iter_base + depth].clone();
                self.atom(&value) != stmt.text[u.clone()]
            });
            if !moved {
                continue;
            }
            if let Some(value) = read_affine(&stmt.text, r.clone(), &|name| self.value_of(stmt, name)) {
                let text = self.expr(&value);
                edits.push((r, text));
            }
        }
    }

    /// The iterator occurrences within `range`, outside `edits`, replaced
    /// by their values in parentheses.
    fn iterator_edits(&mut self, id: usize, range: &Range<usize>, edits: &mut Edits) {
        let program = self.program;
        let stmt = &program.stmts[id];
        for (r, depth) in &stmt.iter_uses {
            if within(r, range) && !edits.iter().any(|(e, _)| within(r, e)) {
                let value = self.env[program.iter_base + depth].clone();
                let replacement = self.atom(&value);
                if replacement != stmt.text[r.clone()] {
                    edits.push((r.clone(), replacement));
                }
            }
        }
    }

    /// The value here of the name at `name` in `stmt`'s text: an
    /// iterator's, or a parameter.
    fn value_of(&self, stmt: &Stmt, name: Range<usize>) -> Option<LinExpr> {
        if let Some((_, depth)) = stmt.iter_uses.iter().find(|(u, _)| *u == name) {
            return Some(self.env[self.program.iter_base + depth].clone());
        }
        let p = self.program.params.iter().position(|p| *p == stmt.text[name.clone()])?;
        let mut param = LinExpr::default();
        param.add_term(Term::Param(p), 1);
        Some(param)
    }
}

/// Whether `inner` lies within `outer`.
fn within(inner: &Range<usize>, outer: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}
