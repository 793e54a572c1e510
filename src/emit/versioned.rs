//! Versioned output: the new loops behind the run-time checks that
//! choose them over the SCoP's source text (enough work, storage
//! allocated, parameters where contracted storage is proven, variables
//! apart, tables of row pointers walked first: `emit::rows`).
//!
//! The checks, each with the SCoP's source text as the other branch:
//!
//! - Enough work: in the optimising modes, a plan with tiles or threads
//!   (which cost time at run time) runs only if the sum over statements of
//!   the product of their iterators' extents ([`Program::work`], from
//!   `Scop::iterator_range`) reaches `POLYC_MIN_WORK` (a macro, 1e7 unless
//!   defined), or the bytes of the array cells it touches ([`Program::data`],
//!   a box per array) reach `POLYC_MIN_DATA` (4 MiB unless defined: data
//!   beyond the L2 cache, where trisolv's 2 million instances gained 1.3x
//!   tiled on one thread and 1.8x on two); below both, the loops for little
//!   work ([`Program::small`]: the source's order with what costs nothing at
//!   run time), else the source.
//!   A plan whose only tiles are strips, and whose regions no sequential
//!   loop surrounds, usually has no work check: its regions decide alone
//!   (`driver::regenerate::print_for_any_work`, `emit::gate`).
//!   jacobi-1d's 2 million instances took 0.3 ms as written and 0.9 ms
//!   time-tiled (2.6-14 ms on two threads); the smallest kernel that gains,
//!   gemver, has 12 million. The tests compile with `-DPOLYC_MIN_WORK=0`, to
//!   run the new loops at their small sizes.
//! - Subscripts in bounds: the dependences hold only if no access leaves
//!   its array (a row overrun aliases another row), which C does not
//!   guarantee. Wherever the output may run the statements in another
//!   order or on other storage (`Options::reorders`), the new loops run
//!   only for the parameter values of `Scop::in_bounds`
//!   ([`Program::in_bounds`]).
//! - Variables apart: `polyc_disjoint` for each pair `Scop::alias_checks`
//!   gives, after walking each table of row pointers for its range
//!   (`rows`); pointers are then redeclared `restrict`.
//! - Storage: each expanded variable's array, and each contracted array
//!   whose original is not a local (a local's replacement stays on the
//!   stack, as the original was), is allocated with `__builtin_malloc`
//!   (extents checked positive and their product against overflow),
//!   aligned to 64 bytes by hand (a row across cache lines measured doitgen
//!   67 ms against 43 ms), reached through a `restrict` pointer, and freed
//!   after; a refused allocation runs the source text. A contracted array
//!   is declared in the block of the new loops, its mapping in a comment,
//!   and used only where the parameters satisfy the context its mapping was
//!   proven for.
//!
//! A multifor's text is not C and the trace's is instrumented: neither is
//! versioned.

use super::exprs::conjunction;
use super::printer::Printer;
use super::program::Program;
use super::rows::RowWalk;
use crate::model::affine::{Constraint, LinExpr};
use crate::model::alias::{AliasCheck, Footprint};
use crate::scan::ast::Node;
use crate::storage::Contraction;

const SIZE: &str = "__SIZE_TYPE__";
const UINTPTR: &str = "__UINTPTR_TYPE__";
/// Rows start on a cache line, as a static array's do: vector loads
/// across lines measured doitgen 67 ms against 43 ms.
const ALIGN: usize = 64;

/// An array the versioned code allocates on the heap.
struct HeapArray<'a> {
    name: &'a str,
    ty: &'a str,
    extents: Vec<LinExpr>,
}

impl<'a> Printer<'a> {
    /// `nodes` behind the run-time checks that choose them over the
    /// SCoP's source text: enough work ([`Program::work`] against
    /// `POLYC_MIN_WORK`; with less, [`Program::small`] if there is one,
    /// else the source), and each expanded variable's array, and each
    /// contracted array whose original was not on the stack, allocated
    /// on the heap (its extents checked, so that the size cannot
    /// overflow; only when the work is enough), reached through a
    /// `restrict` pointer: nothing else points into it.
    pub(super) fn versioned(&mut self, nodes: &[Node]) {
        let enough_work = self.program.work.map(|w| self.enough_work(w));
        let mut wanted: Vec<String> = enough_work.iter().cloned().collect();
        let mut reasons = Vec::new();
        if enough_work.is_some() && self.program.small.is_none() {
            reasons.push("too little work");
        }
        let contexts = std::iter::once((self.program.in_bounds, "a subscript may leave its array")).chain(
            self.program
                .contracted
                .iter()
                .map(|c| (&c.context[..], "the parameters leave a contraction's proven range")),
        );
        for (context, reason) in contexts {
            if let Some(proven) = self.proven_where(context).filter(|p| !wanted.contains(p)) {
                wanted.push(proven);
                reasons.push(reason);
            }
        }
        let heap = self.heap_arrays();
        let blocked = !heap.is_empty() || !self.program.tables.is_empty();
        let depth = usize::from(blocked);
        if blocked {
            self.line(0, "{");
        }
        // With `small`, its loops need the walks too, whatever the work.
        let walk_guard = enough_work.as_deref().filter(|_| self.program.small.is_none());
        let walks = self.walk_rows(walk_guard, 1);
        wanted.extend(walks.iter().map(|w| w.holds.clone()));
        if !walks.is_empty() {
            reasons.push("rows of a pointer table overlap");
        }
        if !self.program.disjoint.is_empty() {
            reasons.push("arrays overlap");
        }
        for check in self.program.disjoint {
            let disjoint = self.disjoint(check, &walks);
            wanted.push(disjoint);
        }
        let mut memories = Vec::new();
        for a in &heap {
            let memory = self.fresh_name(&format!("{}_memory", a.name));
            let extents: Vec<String> = a.extents.iter().map(|e| self.atom(e)).collect();
            let mut checks = wanted.clone();
            for positive in extents.iter().map(|e| format!("{e} > 0")) {
                if !checks.contains(&positive) {
                    checks.push(positive);
                }
            }
            self.allocation(1, &memory, a.ty, &extents, checks);
            memories.push((memory, extents));
        }
        let memory_names = || memories.iter().map(|(m, _)| m.clone()).collect::<Vec<String>>();
        // With `small`, the checks but the work's choose between the two
        // new versions and the source, and the work (or the memories
        // allocated with it) between the two.
        let small = self.program.small.zip(enough_work.clone());
        let (outer, inner) = match &small {
            Some((_, work)) => {
                let checks = wanted.iter().filter(|w| *w != work).cloned().collect();
                (checks, Some(if memories.is_empty() { vec![work.clone()] } else { memory_names() }))
            }
            None if memories.is_empty() => (wanted, None),
            None => (memory_names(), None),
        };
        // Nothing to check (no parameters, no work test): a plain block
        // for the declarations, and no source to fall back on.
        let guarded = !outer.is_empty();
        if !memories.is_empty() {
            reasons.push("an allocation fails");
        }
        if guarded {
            self.fallback = reasons;
        }
        self.line(depth, &if guarded { format!("if ({}) {{", conjunction(&outer)) } else { "{".to_string() });
        self.redeclare_restrict(depth + 1);
        let body = depth + 1 + usize::from(inner.is_some());
        if let Some(inner) = &inner {
            self.line(depth + 1, &format!("if ({}) {{", conjunction(inner)));
        }
        for (a, (memory, extents)) in heap.iter().zip(&memories) {
            self.aligned_view(body, a.ty, a.name, memory, extents);
        }
        for c in self.program.contracted {
            self.declare_contracted(c, body);
        }
        self.nodes(nodes, body);
        if let Some((small, _)) = small {
            self.line(depth + 1, "} else {");
            self.indented(small, depth + 2);
            self.line(depth + 1, "}");
        }
        if guarded {
            self.line(depth, "} else {");
            self.out.push_str(self.program.source);
            if !self.out.ends_with('\n') {
                self.out.push('\n');
            }
        }
        self.line(depth, "}");
        if blocked {
            for (memory, _) in &memories {
                self.line(1, &format!("__builtin_free({memory});"));
            }
            self.line(0, "}");
        }
    }

    /// `void *memory = 0;`, then, where `checks` hold and the size of an
    /// array of `ty` with `extents` (each positive) fits in a `size_t`,
    /// that many bytes from `__builtin_malloc`, and enough to align them.
    pub(super) fn allocation(
        &mut self,
        depth: usize,
        memory: &str,
        ty: &str,
        extents: &[String],
        mut checks: Vec<String>,
    ) {
        let divisors: String = extents[1..].iter().map(|e| format!(" / ({SIZE}){e}")).collect();
        checks.push(format!("({SIZE}){} <= (({SIZE})-1 - {ALIGN}) / sizeof({ty}){divisors}", extents[0]));
        let bytes: String = extents.iter().map(|e| format!(" * ({SIZE}){e}")).collect();
        self.line(depth, &format!("void *{memory} = 0;"));
        self.line(depth, &format!("if ({})", conjunction(&checks)));
        self.line(depth + 1, &format!("{memory} = __builtin_malloc(sizeof({ty}){bytes} + {ALIGN});"));
    }

    /// `name`, an array of `ty` with `extents` on the first aligned byte
    /// of `memory` (an [`allocation`](Self::allocation)), through a
    /// `restrict` pointer: nothing else points into it.
    pub(super) fn aligned_view(&mut self, depth: usize, ty: &str, name: &str, memory: &str, extents: &[String]) {
        let rows: String = extents[1..].iter().map(|e| format!("[{e}]")).collect();
        let mask = ALIGN - 1;
        self.line(
            depth,
            &format!("{ty} (*restrict {name}){rows} = (void *)((({UINTPTR}){memory} + {mask}) & ~({UINTPTR}){mask});"),
        );
    }

    /// `text` (printed at depth 0 with the program's indentation) at `depth`.
    fn indented(&mut self, text: &str, depth: usize) {
        let indent = self.program.indent;
        for line in text.lines() {
            self.line(depth, line.strip_prefix(indent).unwrap_or(line));
        }
    }

    /// The C condition of a parameter set given as its disjuncts (`None`
    /// when it holds everywhere).
    pub(super) fn proven_where(&mut self, context: &[Vec<Constraint>]) -> Option<String> {
        match context {
            _ if context.iter().any(|conj| conj.is_empty()) => None,
            [] => Some("0".to_string()),
            _ => Some(format!("({})", self.condition(context))),
        }
    }

    /// The arrays to allocate on the heap: the expanded ones, and the
    /// contracted ones (not scalars) whose original was not on the stack:
    /// a global array's new extents may not fit there.
    fn heap_arrays(&self) -> Vec<HeapArray<'a>> {
        let program: &'a Program<'a> = self.program;
        let expanded =
            program.expanded.iter().map(|a| HeapArray { name: &a.name, ty: &a.ty, extents: a.extents.clone() });
        let contracted = program
            .contracted
            .iter()
            .filter(|c| c.on_heap && !c.mapping.is_one_cell())
            .map(|c| HeapArray { name: &c.name, ty: &c.ty, extents: c.mapping.stored_extents() });
        expanded.chain(contracted).collect()
    }

    /// The declaration of a contracted array (its pointer, if it is on
    /// the heap), with its mapping beside it.
    fn declare_contracted(&mut self, c: &Contraction, depth: usize) {
        self.helpers.modulo |= c.mapping.rows.iter().any(|r| r.modulus.is_some() && !r.is_one_cell());
        self.line(depth, &format!("/* {} */", c.text));
        if c.on_heap && !c.mapping.is_one_cell() {
            return;
        }
        let rows: Vec<String> = c.mapping.stored_extents().iter().map(|e| format!("[{}]", self.expr(e))).collect();
        self.line(depth, &format!("{} {}{};", c.ty, c.name, rows.concat()));
    }

    /// Each pointer of [`Program::restricted`] shadowed by a `restrict`
    /// copy of the same name (through a fresh one: a declaration's
    /// initializer already sees the name it declares).
    fn redeclare_restrict(&mut self, depth: usize) {
        for name in self.program.restricted {
            let copy = self.fresh_name(&format!("polyc_{name}"));
            self.line(depth, &format!("__typeof__({name}) {copy} = {name};"));
            self.line(depth, &format!("__typeof__({name}) restrict {name} = {copy};"));
        }
    }

    /// `polyc_disjoint(...)`: the addresses `check`'s two footprints span
    /// do not meet.
    fn disjoint(&mut self, check: &AliasCheck, walks: &[RowWalk]) -> String {
        self.helpers.disjoint = true;
        let [first, second] = [&check.first, &check.second].map(|f| self.address_range(f, walks));
        format!("polyc_disjoint({}, {})", first, second)
    }

    /// `low, end`: the address of a footprint's lowest corner, and one
    /// past its highest (behind a table's rows: what its walk found).
    fn address_range(&mut self, footprint: &Footprint, walks: &[RowWalk]) -> String {
        if let Some(walk) = walks.iter().find(|w| footprint.through_rows && w.array == footprint.array) {
            return format!("{}, {}", walk.low, walk.end);
        }
        let low: Vec<String> = footprint.low.iter().map(|b| self.extreme(b, false)).collect();
        let high: Vec<String> = footprint.high.iter().map(|b| self.extreme(b, true)).collect();
        format!("{}, {} + 1", footprint.address(&low), footprint.address(&high))
    }

    /// `work >= POLYC_MIN_WORK`, `work` summing each statement's product
    /// of iterator extents (see [`Program::work`]), in `double`; or the
    /// data's bytes (see [`Program::data`]) reaching `POLYC_MIN_DATA`.
    fn enough_work(&mut self, work: &[Vec<LinExpr>]) -> String {
        self.helpers.min_work = true;
        let products: Vec<Vec<&LinExpr>> = work.iter().map(|extents| extents.iter().collect()).collect();
        let enough = format!("{} >= POLYC_MIN_WORK", self.work_sum(&products));
        if self.program.data.is_empty() {
            return enough;
        }
        self.helpers.min_data = true;
        format!("({} >= POLYC_MIN_DATA || {enough})", self.data_bytes())
    }

    /// The bytes of the cells [`Program::data`] bounds, array by array
    /// (a box per array, at least what it holds), in `double`.
    fn data_bytes(&mut self) -> String {
        self.helpers.max = true;
        let mut arrays = Vec::new();
        for footprint in self.program.data {
            let origin = vec!["0".to_string(); footprint.low.len()];
            let address = footprint.address(&origin);
            // `sizeof` evaluates nothing: the element's size.
            let mut factors = vec![format!("(double)sizeof({})", address.strip_prefix('&').unwrap_or(&address))];
            for (low, high) in footprint.low.iter().zip(&footprint.high) {
                let extent = match (&low[..], &high[..]) {
                    ([low], [high]) => self.expr(&high.sub(low).add(&LinExpr::constant(1))),
                    _ => format!("{} - ({}) + 1", self.extreme(high, true), self.extreme(low, false)),
                };
                factors.push(format!("(double)polyc_max({extent}, 0)"));
            }
            arrays.push(factors.join(" * "));
        }
        arrays.join(" + ")
    }

    /// The sum of `products` of extents, each extent at least 0, in
    /// `double` (no overflow), equal products counted once and multiplied.
    pub(super) fn work_sum(&mut self, products: &[Vec<&LinExpr>]) -> String {
        self.helpers.max = true;
        let mut terms: Vec<(String, usize)> = Vec::new();
        for extents in products {
            let product: Vec<String> =
                extents.iter().map(|e| format!("(double)polyc_max({}, 0)", self.expr(e))).collect();
            let product = if product.is_empty() { "1.0".to_string() } else { product.join(" * ") };
            match terms.iter_mut().find(|(p, _)| *p == product) {
                Some((_, count)) => *count += 1,
                None => terms.push((product, 1)),
            }
        }
        let sum: Vec<String> = terms.into_iter().map(|(p, n)| if n == 1 { p } else { format!("{n} * {p}") }).collect();
        sum.join(" + ")
    }
}
