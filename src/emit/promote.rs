//! Scalar replacement in SIMD loops: array elements held in local
//! variables across the statements of one iteration, or across the
//! whole loop.
//!
//! gcc keeps an array element in memory whenever another array the
//! loop stores to may be the same memory. Arrays reached through
//! pointers always may, as far as it can tell: polyc's run-time checks
//! prove them apart, and `restrict` on the block-scope copies is lost
//! in the OpenMP outlining. Unroll-and-jam then costs instead of paying:
//! in a jammed matrix product every copy stores `C[i][j]` and reloads
//! `A[i][k+u]`, invariant in the vector loop. Each array name is its own
//! memory in polyc's model (the checks, or distinct declarations, make
//! it so), which is all these rewrites need:
//!
//! - an element the iteration writes, that two or more statements
//!   inside it access, all with one spelling, is loaded once at the start
//!   of the iteration (if the first of them reads it), kept in a local
//!   variable, and stored once at the end (`ptr_gemm` jammed by 4:
//!   0.20 s -> 0.16 s alone, 0.13 s with hoisting). Several elements of
//!   one array are kept so only where each two are a constant apart in
//!   some subscript, so that no two locals stand for one element (the
//!   rows of gemm's register block, `C[i + r][j]`);
//! - an element the loop reads that does not move with the loop, of an
//!   array no statement writes before the last such read in the body, is
//!   read once before the loop into a constant. The loop is a SIMD loop,
//!   so it carries no dependence: an element every iteration reads is
//!   written by none of them, unless the loop has one iteration, where
//!   the reads come first anyway. The loop may run no iteration: the
//!   read is guarded by its bounds, as the element may lie outside the
//!   array then.
//!
//! Both leave every value and every order of operations as it was: the
//! output is bit for bit the same. Bodies with a guard inside are left
//! alone (a statement that may not run must not have its accesses moved
//! out of it), as are the arrays the loop gives each iteration a private
//! copy of (their carried dependences were not counted against the
//! SIMD mark).

use super::nest::leaves;
use super::printer::{LoopHead, Printer, Scalar};
use crate::frontend::qexpr::{QExpr, Var};
use crate::frontend::AccessKind;
use crate::model::affine::{LinExpr, Term};
use crate::plan::marks::LoopMark;
use crate::scan::ast::Node;
use std::ops::Range;

/// What an innermost loop keeps in local variables.
#[derive(Default)]
struct Promotion {
    /// Read once before the loop.
    hoisted: Vec<Scalar>,
    /// Loaded and stored once per iteration.
    kept: Vec<Scalar>,
}

/// One access of a statement instance in the loop body.
struct Use {
    /// Position of the statement instance in the body.
    leaf: usize,
    /// The statement, and the access's position among its accesses.
    stmt: usize,
    access: usize,
    array: String,
    write: bool,
    /// The element as printed here, if its span could be located and the
    /// statement does not take its address.
    text: Option<String>,
    /// Whether it stays put across the loop's iterations.
    invariant: bool,
    /// Its subscripts as affine expressions of the loops, if they are.
    element: Option<Vec<LinExpr>>,
}

impl Printer<'_> {
    /// The SIMD loop `head` over `body` (its `pragma` line above it), bounds
    /// `lower..=upper` (substituted), with the elements [`Promotion`]
    /// finds in local variables.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn simd_loop(
        &mut self,
        head: &LoopHead,
        mark: LoopMark,
        pragma: &str,
        lower: &[LinExpr],
        upper: &[LinExpr],
        body: &[Node],
        depth: usize,
    ) {
        self.simd = true;
        let in_parallel = self.in_parallel;
        self.in_loop(head, in_parallel, |p| {
            let promotion = p.promotion(head.dim, mark, body);
            let hoisting = !promotion.hoisted.is_empty();
            let depth = if hoisting { p.hoist(&promotion.hoisted, lower, upper, depth) } else { depth };
            p.line(depth, pragma);
            let saved = std::mem::replace(&mut p.scalars, promotion.hoisted);
            if promotion.kept.is_empty() {
                p.block(depth, &head.text, body);
            } else {
                p.line(depth, &format!("{} {{", head.text));
                p.declare_locals(&promotion.kept, depth + 1);
                p.scalars.extend(promotion.kept.iter().cloned());
                p.nodes(body, depth + 1);
                p.store_locals(&promotion.kept, depth + 1);
                p.line(depth, "}");
            }
            p.scalars = saved;
            if hoisting {
                p.line(depth - 1, "}");
            }
        });
    }

    /// The locals of `kept`, each loaded from its element where the
    /// first use reads it.
    pub(super) fn declare_locals(&mut self, kept: &[Scalar], depth: usize) {
        for s in kept {
            let init = if s.load { format!(" = {}", s.access) } else { String::new() };
            self.line(depth, &format!("__typeof__({}) {}{init};", s.access, s.name));
        }
    }

    /// Each local of `kept` stored back to its element.
    pub(super) fn store_locals(&mut self, kept: &[Scalar], depth: usize) {
        for s in kept {
            self.line(depth, &format!("{} = {};", s.access, s.name));
        }
    }

    /// Open a block, guarded by the loop bounds `lower..=upper` unless
    /// they always hold, that reads `hoisted` into constants; the depth
    /// inside it.
    fn hoist(&mut self, hoisted: &[Scalar], lower: &[LinExpr], upper: &[LinExpr], depth: usize) -> usize {
        self.open_if_runs(lower, upper, depth);
        for s in hoisted {
            self.line(depth + 1, &format!("const __typeof__({0}) {1} = {0};", s.access, s.name));
        }
        depth + 1
    }

    /// Open a block, guarded by the loop bounds `lower..=upper` unless
    /// they always hold.
    pub(super) fn open_if_runs(&mut self, lower: &[LinExpr], upper: &[LinExpr], depth: usize) {
        if runs_always(lower, upper) {
            self.line(depth, "{");
        } else {
            let start = self.extreme(lower, true);
            let guard = self.bound_cmp(&start, upper, false);
            self.line(depth, &format!("if ({guard}) {{"));
        }
    }

    /// The elements the loop over `dim` around `body` keeps in locals.
    fn promotion(&mut self, dim: usize, mark: LoopMark, body: &[Node]) -> Promotion {
        if !self.all_statements_run(body) {
            return Promotion::default();
        }
        let uses = self.uses(dim, body);
        let private: Vec<String> = self.program.private_vars(mark.private).map(|v| v.name.clone()).collect();
        let mut promotion = Promotion::default();
        for (array, of) in by_array(&uses) {
            let program = self.program;
            let kept = kept_elements(&of, &|u: &Use, v: &Use| {
                u.stmt == v.stmt && program.accesses_apart(u.stmt, u.access, v.access)
            });
            if !kept.is_empty() {
                for element in kept {
                    let name = self.scalar_name(array, &promotion);
                    promotion.kept.push(Scalar { name, ..element });
                }
            } else if !private.iter().any(|v| v == array) {
                for access in hoistable_elements(&of) {
                    let name = self.scalar_name(array, &promotion);
                    promotion.hoisted.push(Scalar { array: array.to_string(), access, name, load: true });
                }
            }
        }
        promotion
    }

    /// The elements the sequential loop over `dim` (marked `mark`) around
    /// `body` keeps in locals across all its iterations ([`kept_across`]),
    /// named.
    pub(super) fn kept_across_loop(&mut self, dim: usize, mark: LoopMark, body: &[Node]) -> Vec<Scalar> {
        if !self.all_statements_run(body) {
            return Vec::new();
        }
        let uses = self.uses(dim, body);
        let private: Vec<String> = self.program.private_vars(mark.private).map(|v| v.name.clone()).collect();
        let mut promotion = Promotion::default();
        for (array, of) in by_array(&uses).into_iter().filter(|(a, _)| !private.iter().any(|v| v == a)) {
            let program = self.program;
            let apart = |u: &Use, v: &Use| u.stmt == v.stmt && program.accesses_apart(u.stmt, u.access, v.access);
            for element in kept_across(&of, &apart) {
                let name = self.scalar_name(array, &promotion);
                promotion.kept.push(Scalar { name, ..element });
            }
        }
        promotion.kept
    }

    /// Whether every statement instance of `body` runs whenever the body
    /// does: no guard, no data-dependent condition. One that may not must
    /// not write what a kept element would store back, nor read what
    /// would be hoisted.
    fn all_statements_run(&self, body: &[Node]) -> bool {
        let mut ids = Vec::new();
        Node::statements(body, &mut ids);
        !has_guard(body) && ids.iter().all(|&id| self.program.stmts[id].filters.is_empty())
    }

    /// Every array access of the statement instances of `body`, in order.
    fn uses(&mut self, dim: usize, body: &[Node]) -> Vec<Use> {
        let mut found = Vec::new();
        leaves(body, &mut Vec::new(), &mut found);
        let program = self.program;
        let base = program.iter_base;
        let mut uses = Vec::new();
        for (leaf, instance) in found.iter().enumerate() {
            let stmt = &program.stmts[instance.id];
            let saved = self.bind(&instance.bindings);
            for (access, a) in stmt.accesses.iter().enumerate().filter(|(_, a)| !a.subscripts.is_empty()) {
                let moves = (0..stmt.iterators.len()).any(|j| {
                    a.subscripts.iter().any(|s| s.mentions(Var::Iter(j))) && self.env[base + j].involves_dim(dim)
                });
                let spelled = stmt.relative_span(&a.span).filter(|r| !address_taken(&stmt.text, r));
                let text = spelled.map(|r| self.render(instance.id, r, &[]));
                let element = a.subscripts.iter().map(|e| affine(e, &|j| self.env[base + j].clone())).collect();
                uses.push(Use {
                    leaf,
                    stmt: instance.id,
                    access,
                    array: a.array.clone(),
                    write: a.kind == AccessKind::Write,
                    text,
                    invariant: !moves,
                    element,
                });
            }
            for (d, value) in saved.into_iter().rev() {
                self.env[d] = value;
            }
        }
        uses
    }

    /// Whether a statement of `body`, the body of the innermost loop over
    /// `inner`, reads an element that moves with `inner` but not with
    /// `dim`: a vector load the copies of a loop over `dim` share.
    pub(super) fn shares_a_vector_load(&mut self, dim: usize, inner: usize, body: &[Node]) -> bool {
        let along_inner = self.uses(inner, body);
        let along_dim = self.uses(dim, body);
        along_inner.iter().zip(&along_dim).any(|(i, d)| !i.write && !i.invariant && d.invariant)
    }

    /// Apply the `Let` bindings on the way to a statement instance; the
    /// values they replaced.
    fn bind(&mut self, bindings: &[(usize, LinExpr)]) -> Vec<(usize, LinExpr)> {
        let mut saved = Vec::new();
        for (d, value) in bindings {
            let bound = value.substitute(&|k| self.env[k].clone());
            saved.push((*d, std::mem::replace(&mut self.env[*d], bound)));
        }
        saved
    }

    /// `polyc_<array>`, then `polyc_<array>_1`, ...: a local name
    /// ([`crate::names::FreshNames::mint_local`]) clear of the loop
    /// variables in scope and of `promotion`'s other scalars.
    fn scalar_name(&mut self, array: &str, promotion: &Promotion) -> String {
        let scalars = || promotion.hoisted.iter().chain(&promotion.kept);
        let before = scalars().filter(|s| s.array == array).count();
        let base = if before == 0 { format!("polyc_{array}") } else { format!("polyc_{array}_{before}") };
        let vars = &self.vars;
        self.names.mint_local(&base, |n| scalars().any(|s| s.name == n) || vars.iter().flatten().any(|v| v == n))
    }
}

/// `uses` by array, the arrays in name order.
fn by_array(uses: &[Use]) -> Vec<(&str, Vec<&Use>)> {
    let mut arrays: Vec<&str> = uses.iter().map(|u| u.array.as_str()).collect();
    arrays.sort_unstable();
    arrays.dedup();
    arrays.into_iter().map(|a| (a, uses.iter().filter(|u| u.array == a).collect())).collect()
}

/// The elements of one array's `uses` to keep in locals: each element
/// the iteration writes and two or more statements access, all spelling
/// it alike. Several elements only where every two are apart (a constant
/// apart in some subscript: the rows of a register block; or spelled by
/// two accesses that meet at no element in the body, `apart_in_body`),
/// so that no local stands for memory another one or an access left
/// alone reaches.
fn kept_elements(uses: &[&Use], apart_in_body: &dyn Fn(&Use, &Use) -> bool) -> Vec<Scalar> {
    let Some(elements) = elements_apart(uses, apart_in_body) else { return Vec::new() };
    elements
        .into_iter()
        .filter(|(_, group)| group.iter().any(|u| u.write) && group.iter().any(|u| u.leaf != group[0].leaf))
        .map(|(access, group)| local_for(access, &group))
        .collect()
}

/// The elements of one array's `uses` in the body of a loop to keep in
/// locals across the whole loop: each element written, where every use
/// of the array stays put along the loop (a reduction's sums, each chain
/// its own element), the elements apart as for [`kept_elements`].
fn kept_across(uses: &[&Use], apart_in_body: &dyn Fn(&Use, &Use) -> bool) -> Vec<Scalar> {
    if uses.iter().any(|u| !u.invariant) {
        return Vec::new();
    }
    let Some(elements) = elements_apart(uses, apart_in_body) else { return Vec::new() };
    elements
        .into_iter()
        .filter(|(_, group)| group.iter().any(|u| u.write))
        .map(|(access, group)| local_for(access, &group))
        .collect()
}

/// The local for the element `access`, all of whose uses are `group`:
/// loaded first if the first statement using it reads it.
fn local_for(access: &str, group: &[&Use]) -> Scalar {
    let load = group.iter().any(|u| u.leaf == group[0].leaf && !u.write);
    Scalar { array: group[0].array.clone(), access: access.to_string(), name: String::new(), load }
}

/// One array's `uses` grouped by the element they spell, if every two
/// elements are apart (see [`kept_elements`]) and every use is spelled.
fn elements_apart<'u>(
    uses: &[&'u Use],
    apart_in_body: &dyn Fn(&Use, &Use) -> bool,
) -> Option<Vec<(&'u str, Vec<&'u Use>)>> {
    let mut elements: Vec<(&str, Vec<&Use>)> = Vec::new();
    for u in uses {
        let text = u.text.as_deref()?;
        match elements.iter_mut().find(|(t, _)| *t == text) {
            Some((_, group)) => group.push(u),
            None => elements.push((text, vec![u])),
        }
    }
    let constant_apart = |a: &Use, b: &Use| match (&a.element, &b.element) {
        (Some(x), Some(y)) => x.iter().zip(y).any(|(x, y)| {
            let d = x.sub(y);
            d.terms.is_empty() && d.constant != 0
        }),
        _ => false,
    };
    // Each group spells one element: one pair of its uses apart is enough.
    let apart =
        |a: &[&Use], b: &[&Use]| constant_apart(a[0], b[0]) || a.iter().any(|u| b.iter().any(|v| apart_in_body(u, v)));
    for (k, (_, group)) in elements.iter().enumerate() {
        if elements[k + 1..].iter().any(|(_, other)| !apart(group, other)) {
            return None;
        }
    }
    Some(elements)
}

/// `e` as an affine expression of the loops, its iterator at depth `j`
/// standing for `iterator(j)`; `None` under a division, modulo, min, max
/// or selection.
fn affine(e: &QExpr, iterator: &dyn Fn(usize) -> LinExpr) -> Option<LinExpr> {
    Some(match e {
        QExpr::Const(c) => LinExpr::constant(*c),
        QExpr::Var(Var::Iter(j)) => iterator(*j),
        QExpr::Var(Var::Param(p)) => {
            let mut param = LinExpr::default();
            param.add_term(Term::Param(*p), 1);
            param
        }
        QExpr::Add(a, b) => affine(a, iterator)?.add(&affine(b, iterator)?),
        QExpr::Neg(a) => affine(a, iterator)?.scale(-1),
        QExpr::Mul(k, a) => affine(a, iterator)?.scale(*k),
        other => LinExpr::constant(other.const_value()?),
    })
}

/// The elements of one array's `uses` that every iteration reads and
/// none writes, each once: no write spells them, and every write to the
/// array comes in or after the last statement reading them.
fn hoistable_elements(uses: &[&Use]) -> Vec<String> {
    let first_write = uses.iter().filter(|u| u.write).map(|u| u.leaf).min();
    let mut elements: Vec<String> = Vec::new();
    for u in uses.iter().filter(|u| !u.write && u.invariant) {
        let Some(text) = &u.text else { continue };
        let spelled_by_write = uses.iter().any(|w| w.write && w.text.as_ref() == Some(text));
        let last_read = uses.iter().filter(|r| !r.write && r.text.as_ref() == Some(text)).map(|r| r.leaf).max();
        let before_writes = match (first_write, last_read) {
            (Some(w), Some(r)) => r <= w,
            _ => true,
        };
        if !spelled_by_write && before_writes && !elements.contains(text) {
            elements.push(text.clone());
        }
    }
    elements
}

/// Whether the access at `r` in `text` has its address taken (`&C[i][j]`
/// passed to a call): that element stays in memory.
fn address_taken(text: &str, r: &Range<usize>) -> bool {
    let before = text[..r.start].trim_end_matches(|c: char| c.is_whitespace() || c == '(');
    before.ends_with('&') && !before.ends_with("&&")
}

/// Whether a loop from `lower` to `upper` always runs: a single bound
/// each, at a constant distance.
fn runs_always(lower: &[LinExpr], upper: &[LinExpr]) -> bool {
    match (lower, upper) {
        ([l], [u]) => {
            let span = u.sub(l);
            span.is_constant() && span.constant >= 0
        }
        _ => false,
    }
}

/// Whether a guard lies anywhere in `nodes`.
fn has_guard(nodes: &[Node]) -> bool {
    nodes.iter().any(|n| match n {
        Node::Guard { .. } => true,
        Node::Let { body, .. } | Node::For { body, .. } => has_guard(body),
        Node::Stmt { .. } => false,
    })
}
