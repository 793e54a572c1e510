//! Register blocking: which parallel loop around a jammed one is jammed
//! too, so that a block of results stays in registers.

use super::nest::contains_loop;
use super::printer::Printer;
use crate::scan::ast::Node;

/// A register block's rows per copy of the jammed loop inside: eight
/// rows around four copies of gemm's `k` (32 updates of 8 locals per
/// vector) measured 0.075 s at LARGE on one thread, four rows 0.081 s,
/// OpenBLAS 0.057 s.
pub(super) const BLOCK_ROWS_PER_COPY: i64 = 2;

impl Printer<'_> {
    /// Whether copies of `body` for consecutive values of `dim` form a
    /// register block: some part of it (a perfect nest, perhaps under
    /// guards and bindings free of `dim`) holds a jammed loop, and the
    /// innermost (SIMD) loop there reads an element that moves with it but
    /// not with `dim`, which the copies then load once. Rows jammed without a jammed loop
    /// inside only multiply memory streams (gemm's rows alone 1.12x ->
    /// 1.00x); with its `k` jammed by 4 and its rows by 8, LARGE gemm
    /// 0.112 s -> 0.075 s.
    pub(super) fn blocks_registers(&mut self, dim: usize, body: &[Node]) -> bool {
        body.iter().any(|part| match shared_by_copies(dim, part) {
            Some(inner) => self.blocks_registers(dim, inner),
            None => self.nest_blocks_registers(dim, std::slice::from_ref(part)),
        })
    }

    /// [`Printer::blocks_registers`] for one perfect nest.
    fn nest_blocks_registers(&mut self, dim: usize, nest: &[Node]) -> bool {
        let mut nodes = nest;
        let mut jammed_inside = false;
        while let [Node::For { dim: inner, body: inner_body, stride, .. }] = nodes {
            if contains_loop(inner_body) {
                let mark = self.program.loop_mark(*inner, inner_body);
                jammed_inside |= mark.jam && *stride == 1 && self.jammable(*inner, inner_body);
                nodes = inner_body;
                continue;
            }
            return jammed_inside && self.shares_a_vector_load(dim, *inner, inner_body);
        }
        false
    }

    /// Whether the copies of a register block's `body` may run part by
    /// part: each part (a statement, or a perfect nest as
    /// [`Printer::jammable`] asks, perhaps under guards and bindings free
    /// of `dim`) for every copy, then the next part. doitgen's rows of `q` set
    /// their sums, add to them, and store them, each for eight rows at
    /// once. Legal as the block's loop is parallel: no dependence joins
    /// two of its iterations, whatever parts they run.
    pub(super) fn jammable_in_parts(&self, dim: usize, body: &[Node]) -> bool {
        body.iter().all(|part| match (shared_by_copies(dim, part), part) {
            (Some(inner), _) => self.jammable_in_parts(dim, inner),
            (None, Node::Stmt { .. }) => true,
            (None, Node::For { .. }) => self.jammable(dim, std::slice::from_ref(part)),
            (None, _) => false,
        })
    }
}

/// The body of `node` when it is a guard or a binding of another
/// dimension that the copies of a loop over `dim` share: its condition,
/// or value, is free of `dim`.
pub(super) fn shared_by_copies(dim: usize, node: &Node) -> Option<&[Node]> {
    match node {
        Node::Guard { cond, body } if !cond.iter().flatten().any(|c| c.expr.involves_dim(dim)) => Some(body),
        Node::Let { value, body, .. } if !value.involves_dim(dim) => Some(body),
        _ => None,
    }
}
