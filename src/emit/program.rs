//! What the printer is given besides the loop AST, and what it derives
//! from the planner's marks: which loop is marked, and which private
//! copies its clauses name.

use crate::frontend::decls::VarDecl;
use crate::frontend::Stmt;
use crate::model::affine::{Constraint, LinExpr};
use crate::model::alias::{AliasCheck, Footprint};
use crate::model::rows::RowTable;
use crate::plan::marks::{LoopMark, PrivateVar};
use crate::plan::packing::PackedProduct;
use crate::scan::ast::Node;
use crate::storage::expand::ExpandedArray;
use crate::storage::Contraction;
use std::collections::BTreeSet;

/// Each statement's iterator extents, which gate the regions.
#[derive(Clone, Copy)]
pub struct RegionWork<'a> {
    pub extents: &'a [Vec<LinExpr>],
    /// Whether these loops run only below `POLYC_MIN_WORK` (the loops for
    /// little work), where a region with one iterator varying inside
    /// never pays its threads.
    pub below_min_work: bool,
}

/// What the printer needs besides the loop AST. The default has no
/// statements, checks, storage or source text.
#[derive(Clone, Copy, Default)]
pub struct Program<'a> {
    pub stmts: &'a [Stmt],
    pub params: &'a [String],
    /// First dimension holding statement iterators.
    pub iter_base: usize,
    pub dims: usize,
    pub indent: &'a str,
    /// How loops may be marked, by statement, then time dimension
    /// (missing: no mark); see [`Program::loop_mark`].
    pub marks: &'a [Vec<LoopMark>],
    /// The variables a mark's `private` bits stand for.
    pub private_vars: &'a [PrivateVar],
    /// By statement (missing: none), the pairs of its accesses (positions,
    /// the first less) that meet at no element among the instances a
    /// loop body holds (a piece's tiles, `plan::Piece::apart`).
    pub accesses_apart: &'a [Vec<(usize, usize)>],
    /// Whether the output is compiled with OpenMP (else SIMD loops get `GCC ivdep`).
    pub openmp: bool,
    /// Unroll-and-jam factor for loops marked `jam`.
    pub unroll_jam: Option<i64>,
    /// Scalars the statements hold in arrays instead: the loops run in a
    /// block that allocates them, with `source` (the SCoP's text) as
    /// the fallback if an allocation fails.
    pub expanded: &'a [ExpandedArray],
    /// Each statement's iterator extents over the parameters: the loops
    /// run only if the sum of their products reaches `POLYC_MIN_WORK`
    /// (a macro, [`DEFAULT_MIN_WORK`](super::helpers::DEFAULT_MIN_WORK) unless defined), else `small`.
    pub work: Option<&'a [Vec<LinExpr>]>,
    /// The cells of each array the SCoP touches: with `work`, the loops
    /// run also where these come to `POLYC_MIN_DATA` bytes (a macro,
    /// [`DEFAULT_MIN_DATA`](super::helpers::DEFAULT_MIN_DATA) unless defined).
    pub data: &'a [Footprint],
    /// The same extents where each parallel region is to run on more than
    /// one thread only when the work inside it (the products of the
    /// extents of the iterators that vary inside) reaches
    /// `POLYC_MIN_REGION_WORK` (see `emit::gate`): the loops for little
    /// work, and loops without tiles, whose regions decide alone.
    pub region_work: Option<RegionWork<'a>>,
    /// The loops for less work than that ([`print_loops`](super::print_loops)' text: what
    /// costs nothing at run time, no tiles, no threads), where the
    /// run-time checks hold; `None`: `source` serves.
    pub small: Option<&'a str>,
    /// The parameter values (disjuncts of constraints) where every
    /// subscript stays within its array's declared extents: the new
    /// loops run only there, else `source`.
    pub in_bounds: &'a [Vec<Constraint>],
    /// Variables that may share memory: the new loops run only where
    /// the address ranges of each pair do not meet, else `source`.
    pub disjoint: &'a [AliasCheck],
    /// Tables of row pointers whose rows `disjoint` compares, or that
    /// the SCoP writes: walked before the checks, which need them walked
    /// and (written) their rows apart.
    pub tables: &'a [RowTable],
    /// Pointers the new loops redeclare `restrict` (they run only where
    /// `disjoint` holds, or the user assumes it), so that the C compiler
    /// need not keep values in memory or check for overlaps itself.
    pub restricted: &'a [String],
    /// Temporary arrays folded onto fewer cells (the statements already
    /// access them): declared in the block of the new loops, which run
    /// only where the mappings are proven.
    pub contracted: &'a [Contraction],
    /// Contractions computed on packed panels (`emit::packed`) in place
    /// of their loops.
    pub packed: &'a [PackedProduct],
    pub source: &'a str,
    /// Parameters the front end defined (name, C expression over the
    /// others; [`crate::frontend::ScopAst::definitions`]): declared
    /// first, in a block around everything else, so that the run-time
    /// checks and the new loops see them.
    pub definitions: &'a [(String, String)],
    /// The variables the region declares in its blocks
    /// ([`crate::frontend::ScopAst::locals`]): declared in the same
    /// block, after the definitions.
    pub locals: &'a [(String, VarDecl)],
}

/// The mark of a loop over `dim` around `body`, given each statement's
/// `marks`: what every statement inside allows.
fn loop_mark(marks: &[Vec<LoopMark>], dim: usize, body: &[Node]) -> LoopMark {
    let mut ids = Vec::new();
    Node::statements(body, &mut ids);
    let marks: Vec<LoopMark> =
        ids.iter().map(|&id| marks.get(id).and_then(|m| m.get(dim)).copied().unwrap_or_default()).collect();
    LoopMark {
        parallel: !marks.is_empty() && marks.iter().all(|m| m.parallel) && marks.iter().any(|m| m.region),
        region: marks.iter().any(|m| m.region),
        simd: !marks.is_empty() && marks.iter().all(|m| m.simd),
        private: marks.iter().fold(0, |bits, m| bits | m.private),
        copy_out: marks.iter().fold(0, |bits, m| bits | m.copy_out),
        jam: !marks.is_empty() && marks.iter().all(|m| m.jam),
        block: !marks.is_empty() && marks.iter().all(|m| m.block),
    }
}

/// Whether some loop of `nodes` gets a parallel or SIMD mark from
/// `marks`: statements marked one by one may still share no marked loop.
pub fn marks_some_loop(marks: &[Vec<LoopMark>], nodes: &[Node]) -> bool {
    nodes.iter().any(|n| match n {
        Node::For { dim, body, .. } => {
            let mark = loop_mark(marks, *dim, body);
            mark.parallel || mark.simd || marks_some_loop(marks, body)
        }
        Node::Let { body, .. } | Node::Guard { body, .. } => marks_some_loop(marks, body),
        Node::Stmt { .. } => false,
    })
}

impl Program<'_> {
    /// The mark of a loop over `dim` around `body`: what every statement
    /// inside allows, with private copies only of the variables some
    /// statement inside writes. The scanner may split a loop into several
    /// (statements apart): one whose statements never write a variable
    /// must not copy its uninitialised private copy out.
    pub(super) fn loop_mark(&self, dim: usize, body: &[Node]) -> LoopMark {
        let mark = loop_mark(self.marks, dim, body);
        LoopMark { private: self.written_in(mark.private, body), ..mark }
    }

    /// The variables of `private` that some statement of `body` writes.
    pub(super) fn written_in(&self, private: u64, body: &[Node]) -> u64 {
        let mut ids = Vec::new();
        Node::statements(body, &mut ids);
        let written = |var: &PrivateVar| {
            ids.iter().filter_map(|&id| self.stmts.get(id)).any(|st| {
                st.accesses.iter().any(|a| a.kind == crate::frontend::AccessKind::Write && a.array == var.name)
            })
        };
        (0..self.private_vars.len())
            .filter(|&bit| private & (1 << bit) != 0 && written(&self.private_vars[bit]))
            .fold(0, |bits, bit| bits | 1 << bit)
    }

    /// The variables of the bit set `private`.
    pub(super) fn private_vars(&self, private: u64) -> impl Iterator<Item = &PrivateVar> {
        self.private_vars.iter().enumerate().filter(move |(bit, _)| private & (1 << bit) != 0).map(|(_, v)| v)
    }

    /// Whether statement `id`'s accesses at positions `a` and `b` meet at
    /// no element among the instances a loop body holds (see
    /// [`Program::accesses_apart`]).
    pub(super) fn accesses_apart(&self, id: usize, a: usize, b: usize) -> bool {
        self.accesses_apart.get(id).is_some_and(|pairs| pairs.contains(&(a.min(b), a.max(b))))
    }

    /// The scalars among the variables of `private`, as a bit set.
    pub(super) fn private_scalars(&self, private: u64) -> u64 {
        (0..self.private_vars.len())
            .filter(|&bit| private & (1 << bit) != 0 && !self.private_vars[bit].is_array)
            .fold(0, |bits, bit| bits | 1 << bit)
    }

    /// The arrays among the variables of `private`.
    pub(super) fn private_arrays(&self, private: u64) -> Vec<&str> {
        self.private_vars(private).filter(|v| v.is_array).map(|v| v.name.as_str()).collect()
    }

    /// The clauses giving each iteration a copy of the variables of
    /// `private`, or nothing: scalars `private(..)`, plain locals the C
    /// compiler keeps in registers (those of `copy_out` the printer copies
    /// out itself, see [`copy_out`](super::copy_out)); arrays of `copy_out`, which OpenMP
    /// copies out whole from the last iteration, `lastprivate(row)`.
    pub(super) fn private_clauses(&self, private: u64, copy_out: u64) -> String {
        let names = |vars: Vec<&PrivateVar>| vars.iter().map(|v| v.name.as_str()).collect::<Vec<_>>().join(", ");
        let (arrays, local): (Vec<&PrivateVar>, Vec<&PrivateVar>) =
            self.private_vars(private).partition(|v| v.is_array && self.private_bit(v) & copy_out != 0);
        let mut clause = String::new();
        if !local.is_empty() {
            clause.push_str(&format!(" private({})", names(local)));
        }
        if !arrays.is_empty() {
            clause.push_str(&format!(" lastprivate({})", names(arrays)));
        }
        clause
    }

    /// The bit of `var` in marks' `private` sets.
    pub(super) fn private_bit(&self, var: &PrivateVar) -> u64 {
        self.private_vars.iter().position(|v| v.name == var.name).map_or(0, |bit| 1 << bit)
    }

    /// `private(..)` for the condition variables the statements of
    /// `body` set ([`Stmt::sets`]): each value lives within one iteration
    /// of any loop that carries no dependence (its readers depend on it).
    pub(super) fn filter_clause(&self, body: &[Node]) -> String {
        let mut ids = Vec::new();
        Node::statements(body, &mut ids);
        // A statement the scanner split over pieces appears once per piece.
        let names: BTreeSet<&str> = ids.iter().filter_map(|&id| self.stmts[id].sets.as_deref()).collect();
        if names.is_empty() {
            return String::new();
        }
        format!(" private({})", names.into_iter().collect::<Vec<_>>().join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loop_over(dim: usize, body: Vec<Node>) -> Node {
        Node::For { dim, lower: vec![LinExpr::constant(0)], upper: vec![LinExpr::constant(9)], stride: 1, body }
    }

    #[test]
    fn a_loop_is_marked_only_if_every_statement_inside_allows_it() {
        let parallel = LoopMark { parallel: true, region: true, ..LoopMark::default() };
        let nodes = vec![loop_over(0, vec![Node::Stmt { id: 0 }, loop_over(1, vec![Node::Stmt { id: 1 }])])];
        // Statement 1 alone allows a parallel loop over dimension 0.
        let one_only = vec![vec![LoopMark::default(); 2], vec![parallel, LoopMark::default()]];
        assert!(!marks_some_loop(&one_only, &nodes));
        let both = vec![vec![parallel, LoopMark::default()], vec![parallel, LoopMark::default()]];
        assert!(marks_some_loop(&both, &nodes));
        // The inner loop holds statement 1 only.
        let inner = vec![vec![LoopMark::default(); 2], vec![LoopMark::default(), parallel]];
        assert!(marks_some_loop(&inner, &nodes));
    }
}
