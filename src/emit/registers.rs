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
    /// register block: a loop of the perfect nest inside is jammed, and
    /// the innermost (SIMD) loop reads an element that moves with it but
    /// not with `dim`, which the copies then load once. Rows jammed
    /// without a jammed loop inside only multiply memory streams (gemm's
    /// rows alone 1.12x -> 1.00x); with its `k` jammed by 4 and its rows
    /// by 8, LARGE gemm 0.112 s -> 0.075 s.
    pub(super) fn blocks_registers(&mut self, dim: usize, body: &[Node]) -> bool {
        let mut nodes = body;
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
}
