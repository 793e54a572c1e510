//! The statements of a region: the walk over them, `if` statements
//! (an affine condition bounds the domain, any other is evaluated into a
//! variable of its own), and each expression statement as a [`Stmt`]
//! under the conditions around it.
//!
//! An `if` whose condition is affine adds it (or its negation, in the
//! `else`) to the domain of the statements inside. Any other condition
//! (seed 001's filters) is evaluated by a statement of its own into a fresh
//! condition variable, one element per instance of the `if`, and the
//! branches' statements run under that variable being true or false
//! (`Stmt::filters`). An `else if` is evaluated under the first test's
//! `else`. Without an `else`, leading affine conjuncts
//! (`i > 0 && A[i-1] > 0`) bound the domain instead, so that the
//! condition's reads are modelled only where C evaluates them. A condition
//! that writes a variable is rejected (`P0003`), as is a data-dependent
//! condition inside a `multifor`.

use super::state::{reject, Extractor, Res, StmtParts, Substitution};
use crate::diagnostics::{Code, Diagnostic};
use crate::frontend::ast::{Access, AccessKind, Stmt};
use crate::frontend::qexpr::{Cond, QExpr, Var};
use std::ops::Range;
use tree_sitter::Node;

impl<'a> Extractor<'a> {
    pub(super) fn statement(&mut self, n: Node) -> Res<()> {
        // Reads noted while reading bounds and conditions belong to no statement.
        self.local_reads.clear();
        match n.kind() {
            "comment" => Ok(()),
            "compound_statement" => {
                let mut cursor = n.walk();
                let children: Vec<Node> = n.named_children(&mut cursor).collect();
                self.in_block(|x| children.into_iter().try_for_each(|c| x.statement(c)))
            }
            "declaration" => self.declaration(n),
            "for_statement" => self.for_loop(n),
            "multifor_statement" => self.nested_multifor(n),
            "if_statement" => self.if_statement(n),
            "expression_statement" => match n.named_child(0) {
                None => Ok(()),
                Some(e) => self.expression_statement(n, e),
            },
            k if k.starts_with("preproc") => {
                Err(reject(Code::P0010, n, "preprocessor directive inside a SCoP", "move this outside the region"))
            }
            k => {
                let control = matches!(
                    k,
                    "while_statement"
                        | "do_statement"
                        | "break_statement"
                        | "continue_statement"
                        | "goto_statement"
                        | "return_statement"
                        | "switch_statement"
                        | "case_statement"
                        | "labeled_statement"
                );
                let (code, label) = if control {
                    (Code::P0001, "irregular control flow")
                } else {
                    (Code::P0020, "unsupported statement")
                };
                Err(reject(
                    code,
                    n,
                    format!("`{}` is not allowed in a SCoP", k.trim_end_matches("_statement").replace('_', " ")),
                    label,
                ))
            }
        }
    }

    fn if_statement(&mut self, n: Node) -> Res<()> {
        let c = n
            .child_by_field_name("condition")
            .ok_or_else(|| reject(Code::P0003, n, "`if` without condition", "here"))?;
        let cond = match self.tentatively(|x| x.condition(c)) {
            Ok(cond) => cond,
            Err(not_affine) => return self.dynamic_if(n, c, not_affine),
        };
        self.conds.push(cond.clone());
        let r = n.child_by_field_name("consequence").map_or(Ok(()), |b| self.statement(b));
        self.conds.pop();
        r?;
        if let Some(alt) = n.child_by_field_name("alternative") {
            self.conds.push(cond.negated());
            let branch = if alt.kind() == "else_clause" { alt.named_child(0) } else { Some(alt) };
            let r = branch.map_or(Ok(()), |b| self.statement(b));
            self.conds.pop();
            r?;
        }
        Ok(())
    }

    /// `f` on the extractor, or its error with the parameters and
    /// definitions it introduced forgotten.
    fn tentatively<T>(&mut self, f: impl FnOnce(&mut Self) -> Res<T>) -> Res<T> {
        let (params, definitions) = (self.params.len(), self.definitions.len());
        f(self).inspect_err(|_| {
            self.params.truncate(params);
            self.definitions.truncate(definitions);
        })
    }

    /// An `if` whose condition `c` is not affine (`not_affine` says why):
    /// a statement evaluates it into a variable of its own at each
    /// instance of the `if`, and the branches run under that variable
    /// (seed 001's filters). Without `else`, leading affine conjuncts
    /// (`i > 0 && A[i-1] > 0`) bound the domain instead, so that the
    /// condition's reads are modelled only where C evaluates them.
    fn dynamic_if(&mut self, n: Node, c: Node, not_affine: Diagnostic) -> Res<()> {
        if self.multifor.component().is_some() {
            return Err(not_affine);
        }
        let inner = match c.kind() {
            "parenthesized_expression" => c.named_child(0).ok_or(not_affine)?,
            _ => c,
        };
        let alternative = n.child_by_field_name("alternative");
        let mut conjuncts = Vec::new();
        conjunct_nodes(inner, &mut conjuncts);
        let last_end = conjuncts.last().map_or(inner.end_byte(), |l| l.end_byte());
        let mut bounds = Vec::new();
        while alternative.is_none() && bounds.len() + 1 < conjuncts.len() {
            let rest = conjuncts[bounds.len() + 1].start_byte()..last_end;
            if !balanced(&self.src[rest]) {
                break;
            }
            match self.tentatively(|x| x.condition(conjuncts[bounds.len()])) {
                Ok(cond) => bounds.push(cond),
                Err(_) => break,
            }
        }
        let dynamic = &conjuncts[bounds.len()..];
        let span = match dynamic.first() {
            Some(first) if !bounds.is_empty() => first.start_byte()..last_end,
            _ => inner.byte_range(),
        };
        self.local_reads.clear();
        let mut parts = StmtParts::default();
        for node in dynamic {
            self.value(*node, &mut parts)?;
        }
        if let Some(w) = parts.accesses.iter().find(|a| a.kind == AccessKind::Write) {
            return Err(Diagnostic::warning(Code::P0003, w.span.clone(), "a condition that writes a variable")
                .with_label("written here"));
        }
        let depth = self.loops.len();
        let name = self.fresh.mint(&format!("polyc_c{}", self.filter_names.len()));
        self.filter_names.push(name.clone());
        parts.accesses.push(self.filter_access(&name, AccessKind::Write, depth, span.start));
        let pushed = bounds.len();
        self.conds.extend(bounds);
        let stmt = self.statement_at(span, parts, Some(name.clone()));
        self.push(stmt);
        let branch = |x: &mut Self, holds: bool, node: Option<Node>| -> Res<()> {
            x.filters.push((name.clone(), holds, depth));
            let r = node.map_or(Ok(()), |b| x.statement(b));
            x.filters.pop();
            r
        };
        let r = branch(self, true, n.child_by_field_name("consequence"));
        let r = r.and_then(|()| match alternative {
            Some(alt) => {
                let body = if alt.kind() == "else_clause" { alt.named_child(0) } else { Some(alt) };
                branch(self, false, body)
            }
            None => Ok(()),
        });
        self.conds.truncate(self.conds.len() - pushed);
        r
    }

    /// An access to the condition variable `name` of an `if` at loop
    /// depth `depth`: one element per instance of the `if`.
    fn filter_access(&self, name: &str, kind: AccessKind, depth: usize, at: usize) -> Access {
        let subscripts = (0..depth).map(|d| QExpr::Var(Var::Iter(d))).collect();
        Access { array: name.to_string(), kind, subscripts, span: at..at, conditional: false }
    }

    fn expression_statement(&mut self, n: Node, e: Node) -> Res<()> {
        let mut parts = StmtParts::default();
        match e.kind() {
            "assignment_expression" | "update_expression" => self.value(e, &mut parts)?,
            "call_expression" => self.call_statement(e, &mut parts)?,
            _ => {
                return Err(reject(
                    Code::P0020,
                    n,
                    "a SCoP statement must be an assignment or a call",
                    "expression statement",
                ))
            }
        }
        let mut stmt = self.statement_at(n.byte_range(), parts, None);
        self.pick_index_lists(n, &mut stmt)?;
        self.push(stmt);
        Ok(())
    }

    /// The statement of text `span` with what `parts` collected, under
    /// the current conditions.
    pub(super) fn statement_at(&self, span: Range<usize>, mut parts: StmtParts, sets: Option<String>) -> Stmt {
        let start = span.start;
        let within = |a: &Access| span.start <= a.span.start && a.span.end <= span.end;
        parts.accesses.extend(self.local_reads.iter().filter(|a| within(a)).cloned());
        for (name, _, depth) in &self.filters {
            parts.accesses.push(self.filter_access(name, AccessKind::Read, *depth, start));
        }
        let domain = self.conds.iter().cloned().fold(Cond::True, Cond::and);
        let mut stmt = Stmt {
            text: self.src[span.clone()].to_string(),
            span,
            iterators: self.loops.iter().map(|l| l.iter.clone()).collect(),
            domain,
            beta: self.beta.clone(),
            accesses: parts.accesses,
            iter_uses: parts.iter_uses.into_iter().map(|(r, d)| (r.start - start..r.end - start, d)).collect(),
            referential: self.referential.clone(),
            component: self.multifor.component(),
            filters: self.filters.iter().map(|(name, holds, _)| (name.clone(), *holds)).collect(),
            sets,
        };
        substitute(&mut stmt, parts.substitutions);
        self.rename_locals(&mut stmt);
        stmt
    }

    /// `stmt` at the current position; the next one comes after it.
    pub(super) fn push(&mut self, stmt: Stmt) {
        self.stmts.push(stmt);
        *self.beta.last_mut().expect("beta always has the current depth") += 1;
    }
}

/// `stmt`'s text with each of `substitutions` (the span of a name, its
/// new text and the iterator occurrences in that) made.
fn substitute(stmt: &mut Stmt, mut substitutions: Vec<Substitution>) {
    substitutions.sort_by_key(|(span, ..)| std::cmp::Reverse(span.start));
    substitutions.dedup_by_key(|(span, ..)| span.start);
    for (span, text, uses) in substitutions {
        let at = span.start - stmt.span.start;
        stmt.replace_text(at..at + span.len(), &text, uses);
    }
}

/// Whether every `)` of `text` closes a `(` of it, and every `(` is closed.
fn balanced(text: &str) -> bool {
    let mut open = 0usize;
    for c in text.chars() {
        match c {
            '(' => open += 1,
            ')' if open == 0 => return false,
            ')' => open -= 1,
            _ => {}
        }
    }
    open == 0
}

/// The operands of a chain of `&&` (through parentheses), in order.
fn conjunct_nodes<'t>(n: Node<'t>, out: &mut Vec<Node<'t>>) {
    let operator = n.child_by_field_name("operator").map(|o| o.kind());
    match (n.kind(), operator) {
        ("parenthesized_expression", _) if n.named_child_count() == 1 => {
            conjunct_nodes(n.named_child(0).expect("one child"), out)
        }
        ("binary_expression", Some("&&")) => {
            let mut cursor = n.walk();
            let operands: Vec<Node> = n.named_children(&mut cursor).collect();
            operands.into_iter().for_each(|o| conjunct_nodes(o, out));
        }
        _ => out.push(n),
    }
}
