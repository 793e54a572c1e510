//! The printing of loops, guards and statements: each loop's variable,
//! bounds and pragma, and which of the other files prints it instead
//! (SIMD, unroll-and-jam, parallel with copy-out).
//!
//! A loop marked parallel is printed so only outside any parallel region,
//! if it is not short, and, when it privatises an array, only where every
//! iteration runs every statement inside (the array is copied out whole
//! from the last iteration, `lastprivate(..)`). Such a loop runs in
//! parallel only behind `if (sizeof(a) <= 256 KiB && the loop runs)`,
//! each thread's copy living on its stack (and gcc 12 copying garbage out
//! of a loop that runs no iteration), and sequentially otherwise. A SIMD
//! mark goes only on a loop with no loop inside, and a SIMD loop that
//! writes a scalar copied out runs as a plain loop (see `copy_out`).

use super::exprs::parenthesised;
use super::gate::Gate;
use super::nest::{
    contains_loop, is_short, leaves, loop_depth, moving_with, printed_items, runs_all_inside, work_varies_with, Leaf,
};
use super::printer::{LoopHead, Printer};
use super::registers::BLOCK_ROWS_PER_COPY;
use crate::frontend::qexpr::{QExpr, Var};
use crate::frontend::AccessKind;
use crate::model::affine::LinExpr;
use crate::plan::marks::LoopMark;
use crate::scan::ast::Node;
use std::collections::BTreeSet;

/// The most bytes of private arrays a parallel loop may copy onto each
/// thread's stack (threads other than the first get a few MiB).
const PRIVATE_ARRAYS_MAX: usize = 1 << 18;

impl Printer<'_> {
    pub(super) fn nodes(&mut self, nodes: &[Node], depth: usize) {
        if let Some(branches) = self.branches_of(nodes) {
            self.branches(&branches, depth);
            return;
        }
        let mut at = 0;
        while let Some(n) = nodes.get(at) {
            at += 1;
            if let Some(which) = self.packed_at(n) {
                // The scanner may give the product's instances several nodes in a row.
                let run = at - 1 + nodes[at - 1..].iter().take_while(|m| self.packed_at(m) == Some(which)).count();
                self.packed(which, &nodes[at - 1..run], depth);
                at = run;
                continue;
            }
            match n {
                Node::Stmt { .. } if self.sharing => {
                    self.on_one_thread(depth, |p| p.nodes(std::slice::from_ref(n), depth + 1))
                }
                Node::Stmt { id } => {
                    let text = self.statement(*id);
                    self.line(depth, &text);
                }
                Node::Let { dim, value, body } => {
                    let saved = self.env[*dim].clone();
                    self.env[*dim] = value.substitute(&|k| self.env[k].clone());
                    self.nodes(body, depth);
                    self.env[*dim] = saved;
                }
                Node::Guard { cond, body } => {
                    let c = self.condition(cond);
                    self.block(depth, &format!("if ({c})"), body);
                }
                Node::For { dim, lower, upper, stride, body } => {
                    self.for_loop(*dim, lower, upper, *stride, body, depth)
                }
            }
        }
    }

    /// `head` then `body`, braced only when it prints more than one line
    /// at its own level.
    pub(super) fn block(&mut self, depth: usize, head: &str, body: &[Node]) {
        if printed_items(body) == 1 {
            self.line(depth, head);
            self.nodes(body, depth + 1);
        } else {
            self.line(depth, &format!("{head} {{"));
            self.nodes(body, depth + 1);
            self.line(depth, "}");
        }
    }

    fn for_loop(&mut self, dim: usize, lower: &[LinExpr], upper: &[LinExpr], stride: i64, body: &[Node], depth: usize) {
        let (name, ty, sign) = self.loop_variable(dim, body);
        let mark = self.program.loop_mark(dim, body);
        let parallel = (!self.in_parallel || self.sharing) && self.worth_threads(&mark, dim, (lower, upper), body);
        if self.sharing && !parallel {
            self.on_one_thread(depth, |p| p.for_loop(dim, lower, upper, stride, body, depth + 1));
            return;
        }
        let simd = mark.simd && !parallel && !contains_loop(body);
        let lower: Vec<LinExpr> = lower.iter().map(|e| e.substitute(&|k| self.env[k].clone())).collect();
        let mut upper: Vec<LinExpr> = upper.iter().map(|e| e.substitute(&|k| self.env[k].clone())).collect();
        // With sign -1 the variable is -c: it starts at -max(lower) and runs down to -min(upper).
        let neg = |v: &[LinExpr]| v.iter().map(|e| e.scale(-1)).collect::<Vec<_>>();
        let start = if sign > 0 { self.extreme(&lower, true) } else { self.extreme(&neg(&lower), false) };
        if let Some(factor) = self.program.unroll_jam {
            let block = !mark.jam && mark.block && self.blocks_registers(dim, body);
            let jammable = self.jammable(dim, body) || block && self.jammable_in_parts(dim, body);
            let ragged = block && !jammable && self.jammable_ragged(dim, body);
            if (mark.jam || block) && !parallel && stride == 1 && sign > 0 && (ragged || jammable) {
                let end = self.extreme(&upper, false);
                let head = LoopHead { dim, sign, text: String::new(), name };
                let factor = if block { BLOCK_ROWS_PER_COPY * factor } else { factor };
                self.jammed_loop(head, &ty, &start, &end, body, depth, (factor, ragged));
                return;
            }
        }
        let mut depth = depth;
        let hoisted = simd && (upper.len() > 1 || upper.iter().any(LinExpr::has_floor));
        if hoisted {
            // A plain local bound lets the vectoriser see the trip count.
            let end_name = self.fresh_local(&format!("{name}_end"));
            let end = if sign > 0 { self.extreme(&upper, false) } else { self.extreme(&neg(&upper), true) };
            self.line(depth, "{");
            depth += 1;
            self.line(depth, &format!("const {ty} {end_name} = {end};"));
            let var = self.env.len();
            // The hoisted bound is the variable's own (negated with it).
            upper = vec![LinExpr::dim(var).scale(sign)];
            self.env.push(LinExpr::dim(var));
            self.vars.push(Some(end_name));
        }
        let end =
            if sign > 0 { self.bound_cmp(&name, &upper, false) } else { self.bound_cmp(&name, &neg(&upper), true) };
        let step = match (sign > 0, stride) {
            (true, 1) => format!("{name}++"),
            (false, 1) => format!("{name}--"),
            (true, s) => format!("{name} += {s}"),
            (false, s) => format!("{name} -= {s}"),
        };
        let head = LoopHead { dim, sign, text: format!("for ({ty} {name} = {start}; {end}; {step})"), name };
        let arrays = self.program.private_arrays(mark.private);
        if parallel && !arrays.is_empty() {
            // Each thread's copy of a private array lives on its stack:
            // only arrays small enough run in parallel. gcc 12 copies an
            // indeterminate array out of a loop that runs no iteration:
            // only a loop that runs does.
            let size: Vec<String> = arrays.iter().map(|a| format!("sizeof({a})")).collect();
            let first = parenthesised(start.clone());
            let runs = if sign > 0 {
                self.bound_cmp(&first, &upper, false)
            } else {
                self.bound_cmp(&first, &neg(&upper), true)
            };
            self.line(depth, &format!("if ({} <= {PRIVATE_ARRAYS_MAX} && {runs}) {{", size.join(" + ")));
            self.parallel_loop(&head, mark, body, depth + 1);
            self.line(depth, "} else {");
            self.loop_body(&head, body, depth + 1, true);
            self.line(depth, "}");
        } else if parallel {
            self.parallel_loop(&head, mark, body, depth);
        } else if self.steps_wavefront(body) {
            self.wavefront_region(&head, body, depth);
        } else {
            if simd && self.program.openmp && self.writes_copied_scalars(mark, body) {
                self.loop_body(&head, body, depth, self.in_parallel);
            } else if simd && self.program.openmp {
                // The SIMD loop's private copies of what the parallel loop
                // around privatises (a nested construct's own).
                let outside = self.program.written_in(self.private_outside, body);
                let private = self.program.private_clauses(mark.private | outside, mark.copy_out);
                let filters = self.program.filter_clause(body);
                let pragma = format!("#pragma omp simd{private}{filters}");
                self.simd_loop(&head, mark, &pragma, &lower, &upper, body, depth);
            } else if simd {
                self.simd_loop(&head, mark, "#pragma GCC ivdep", &lower, &upper, body, depth);
            } else if !(self.program.unroll_jam.is_some()
                && stride == 1
                && sign > 0
                && self.chains_loop(&head, mark, (&lower, &upper), body, depth))
            {
                self.loop_body(&head, body, depth, self.in_parallel);
            }
        }
        if hoisted {
            self.env.pop();
            self.vars.pop();
            self.line(depth - 1, "}");
        }
    }

    /// `#pragma omp parallel for` and the loop `head` over `body`; where
    /// the program gates regions on their work, only if that is enough
    /// (see `emit::gate`).
    fn parallel_loop(&mut self, head: &LoopHead, mark: LoopMark, body: &[Node], depth: usize) {
        match self.region_gate(head.dim, body) {
            Gate::When(gate) => self.gated_parallel_loop(
                &gate,
                |p, depth| p.ungated_parallel_loop(head, mark, body, depth),
                (head, body),
                depth,
            ),
            // No region inside either.
            Gate::Never => self.loop_body(head, body, depth, true),
            Gate::Always => self.ungated_parallel_loop(head, mark, body, depth),
        }
    }

    /// [`Printer::parallel_loop`], always on threads.
    fn ungated_parallel_loop(&mut self, head: &LoopHead, mark: LoopMark, body: &[Node], depth: usize) {
        self.parallel = true;
        // Coarse iterations of unequal work (triangular bounds around a
        // nest, or tiles of a triangle: `work_varies_with`): a static split leaves one thread with most of
        // it (syrk: 1.34x on two threads static, 1.95x dynamic; cholesky's
        // tiles inside its wavefront 0.26 s static, 0.20 s dynamic). Not
        // for fine iterations (seidel-2d's wavefront of points: 0.40 s
        // static, 0.8-4.6 s dynamic), nor inside two or more loops, where
        // each thread's data stays in its own cache only with a static
        // split (floyd-warshall: 2.5 s static, 5.8-7.5 s dynamic), nor
        // where neighbouring iterations write neighbouring parts of rows
        // (see `writes_share_rows`). Every other loop says `static`
        // (equal blocks of iterations, one per thread): its iterations do
        // equal work, or one of the measurements above says so, and
        // OpenMP leaves the schedule of a loop that says none to the
        // implementation. Full tiles are equal work (gemm's and 2mm's
        // tiles, medians of five runs on two shared cores: 0.063 s and
        // 0.093 s static, 0.060 s and 0.096 s dynamic, within the noise).
        let unequal = work_varies_with(head.dim, body);
        let dynamic =
            unequal && loop_depth(body) >= 2 && self.loops_outside <= 1 && !self.writes_share_rows(head.dim, body);
        let schedule = if dynamic { " schedule(dynamic)" } else { " schedule(static)" };
        let private = self.program.private_clauses(mark.private, mark.copy_out);
        let filters = self.program.filter_clause(body);
        let copied: Vec<String> =
            self.program.copied_scalars(mark.private, mark.copy_out).iter().map(|v| v.name.clone()).collect();
        if !copied.is_empty() {
            let clauses = format!("{schedule}{private}{filters}");
            self.parallel_loop_copying_out(head, mark, &copied, &clauses, body, depth);
            return;
        }
        let construct = if self.sharing { "for" } else { "parallel for" };
        self.line(depth, &format!("#pragma omp {construct}{schedule}{private}{filters}"));
        let outside = std::mem::replace(&mut self.private_outside, self.program.private_scalars(mark.private));
        self.with_sharing(false, |p| p.loop_body(head, body, depth, true));
        self.private_outside = outside;
    }

    /// Whether the loop over `dim` marked `mark` runs on threads where a
    /// team is free: a few iterations (a filter's taps) are no work for
    /// threads, and a private array is copied out whole from the loop's
    /// last iteration, so only where every iteration runs every
    /// statement inside.
    pub(super) fn worth_threads(
        &self,
        mark: &LoopMark,
        dim: usize,
        bounds: (&[LinExpr], &[LinExpr]),
        body: &[Node],
    ) -> bool {
        let arrays_exact = self.program.private_arrays(mark.private).is_empty() || runs_all_inside(dim, body);
        mark.parallel && !is_short(bounds.0, bounds.1) && arrays_exact
    }

    /// Whether iterations of the loop over `dim` write neighbouring parts
    /// of the same rows: some write's last subscript moves with the loop
    /// (directly or through inner loop bounds) and none of its others
    /// (there are some: a row per value of them) does. A dynamic
    /// schedule hands neighbouring iterations to
    /// different threads, whose writes then share a cache line in every
    /// row (gramschmidt's column tiles on two threads: 95 ms dynamic,
    /// 55 ms static).
    fn writes_share_rows(&self, dim: usize, body: &[Node]) -> bool {
        let mut moving = vec![dim];
        moving_with(body, &mut moving);
        let mut found = Vec::new();
        leaves(body, &mut Vec::new(), &mut found);
        let base = self.program.iter_base;
        found.iter().any(|leaf| {
            let stmt = &self.program.stmts[leaf.id];
            let moves =
                |e: &QExpr| (0..stmt.iterators.len()).any(|j| e.mentions(Var::Iter(j)) && moving.contains(&(base + j)));
            stmt.accesses.iter().filter(|a| a.kind == AccessKind::Write).any(|a| match a.subscripts.split_last() {
                Some((last, others)) => !others.is_empty() && moves(last) && !others.iter().any(moves),
                None => false,
            })
        })
    }

    /// The loop `head` over `body`; `in_parallel`: inside a parallel
    /// region (no nested ones).
    pub(super) fn loop_body(&mut self, head: &LoopHead, body: &[Node], depth: usize, in_parallel: bool) {
        self.in_loop(head, in_parallel, |p| p.block(depth, &head.text, body));
    }

    /// Name, type and direction of the loop over `dim`: the original
    /// iterator's when every statement below binds its iterator of that
    /// name to exactly this dimension (or its negation).
    fn loop_variable(&mut self, dim: usize, body: &[Node]) -> (String, String, i64) {
        let mut found = Vec::new();
        leaves(body, &mut Vec::new(), &mut found);
        let base = self.program.iter_base;
        let binding =
            |leaf: &Leaf, it_dim: usize| leaf.bindings.iter().rev().find(|(d, _)| *d == it_dim).map(|(_, v)| v.clone());
        let in_scope: BTreeSet<String> = self.vars.iter().flatten().cloned().collect();
        for sign in [1, -1] {
            let target = LinExpr::dim(dim).scale(sign);
            let candidate = found.iter().find_map(|leaf| {
                let its = &self.program.stmts[leaf.id].iterators;
                its.iter()
                    .enumerate()
                    .find(|(j, _)| binding(leaf, base + j).as_ref() == Some(&target))
                    .map(|(_, it)| it.clone())
            });
            let Some(it) = candidate else { continue };
            let consistent = found.iter().all(|leaf| {
                self.program.stmts[leaf.id]
                    .iterators
                    .iter()
                    .enumerate()
                    .filter(|(_, other)| other.name == it.name)
                    .all(|(j, _)| binding(leaf, base + j).as_ref() == Some(&target))
            });
            if consistent && !in_scope.contains(&it.name) {
                return (it.name, it.ty, sign);
            }
        }
        (self.fresh_local(&format!("c{dim}")), "int".to_string(), 1)
    }

    fn statement(&mut self, id: usize) -> String {
        let text = self.unwrapped(id);
        self.program.stmts[id].wrap(&text)
    }

    /// The statement's text as printed, without its filters or the
    /// variable it sets (see `branches`).
    pub(super) fn unwrapped(&mut self, id: usize) -> String {
        let scalars = std::mem::take(&mut self.scalars);
        let text = self.render(id, 0..self.program.stmts[id].text.len(), &scalars);
        self.scalars = scalars;
        self.recording_writes(id, text)
    }
}
