//! Unroll-and-jam: copies of a loop's body for consecutive iterations,
//! side by side in its innermost loop, so that they share its vector
//! registers.
//!
//! A jammed loop's copies run in their own order inside each iteration of
//! the loops below it. That is legal, and every floating-point sum still
//! runs in the source's order (results are bit-identical), when every
//! dependence the loop carries joins two points with the same values in
//! all inner dimensions (its `jam` mark: `Analysis::carries_only_vertically`,
//! not parallel); the SIMD loop inside stays parallel, as those dependences
//! stay within one of its lanes. Loops that carry such dependences are
//! jammed (a reduction keeps its sums in registers). A parallel loop is
//! jammed only as a register block (`registers`): around a jammed loop,
//! with a vector load its copies share. Every loop of the nest a loop is
//! jammed around has bounds free of it, as the copies run inside bounds
//! computed for the first. The jammed loop runs `factor` iterations per
//! step, then a remainder loop.

use super::nest::{contains_loop, inner_bounds_vary_with};
use super::printer::{LoopHead, Printer};
use super::ragged::ragged_copies;
use super::registers::shared_by_copies;
use crate::model::affine::LinExpr;
use crate::scan::ast::Node;

impl Printer<'_> {
    /// Whether `body`, the body of a loop over `dim`, is a perfect nest of
    /// loops whose bounds do not depend on `dim` and whose innermost loop
    /// is a SIMD loop: copies of its body for several values of `dim` then
    /// run over the same iterations, each from a vector register (gemm
    /// 1.17x -> 1.29-1.36x jammed by 4). Copies walking columns only
    /// multiply cache misses (syr2k 3.2x -> 2.0x).
    pub(super) fn jammable(&self, dim: usize, body: &[Node]) -> bool {
        let mut nodes = body;
        loop {
            match nodes {
                [Node::For { dim: inner, body: inner_body, .. }] if !contains_loop(inner_body) => {
                    // Every loop of the nest, not only the innermost: the
                    // copies run inside bounds evaluated for the first.
                    return self.program.loop_mark(*inner, inner_body).simd
                        && !inner_bounds_vary_with(body, &mut vec![dim]);
                }
                [Node::For { body, .. }] => nodes = body,
                _ => return false,
            }
        }
    }

    /// Unroll-and-jam of the loop `head` from `start` to `end` over `body`
    /// (see [`Printer::jammable`]): `factor` iterations per step, their copies of
    /// the innermost body side by side (with `ragged`, over the iterations
    /// they share, see [`ragged_copies`]); then the iterations left, one by
    /// one. Legal as the loop carries
    /// no dependence but between points that the loops inside share (its
    /// `jam` mark).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn jammed_loop(
        &mut self,
        head: LoopHead,
        ty: &str,
        start: &str,
        end: &str,
        body: &[Node],
        depth: usize,
        (factor, ragged): (i64, bool),
    ) {
        self.jammed = true;
        let name = head.name.clone();
        let end_name = self.fresh_local(&format!("{name}_end"));
        self.line(depth, "{");
        self.line(depth + 1, &format!("const {ty} {end_name} = {end};"));
        self.line(depth + 1, &format!("{ty} {name} = {start};"));
        let steps =
            LoopHead { text: format!("for (; {name} <= {end_name} - {}; {name} += {factor})", factor - 1), ..head };
        let mut copies = jam_copies(steps.dim, body, factor);
        if ragged {
            copies = ragged_copies(steps.dim, body, factor, &copies);
        }
        self.loop_body(&steps, &copies, depth + 1, self.in_parallel);
        let rest = LoopHead { text: format!("for (; {name} <= {end_name}; {name}++)"), ..steps };
        self.loop_body(&rest, body, depth + 1, self.in_parallel);
        self.line(depth, "}");
    }
}

/// The perfect nest `body` (see [`Printer::jammable`]), or the parts of a
/// register block (see [`Printer::jammable_in_parts`]), with each innermost
/// body, or statement, repeated `factor` times, for `dim` plus 0, 1, ...
fn jam_copies(dim: usize, body: &[Node], factor: i64) -> Vec<Node> {
    let copies = |body: &[Node]| {
        (0..factor)
            .map(|u| Node::Let { dim, value: LinExpr::dim(dim).add(&LinExpr::constant(u)), body: body.to_vec() })
            .collect()
    };
    body.iter()
        .flat_map(|n| match n {
            Node::For { dim: inner, lower, upper, stride, body } => {
                let body = if contains_loop(body) { jam_copies(dim, body, factor) } else { copies(body) };
                vec![Node::For { dim: *inner, lower: lower.clone(), upper: upper.clone(), stride: *stride, body }]
            }
            Node::Guard { cond, body } if shared_by_copies(dim, n).is_some() => {
                vec![Node::Guard { cond: cond.clone(), body: jam_copies(dim, body, factor) }]
            }
            Node::Let { dim: other, value, body } if shared_by_copies(dim, n).is_some() => {
                vec![Node::Let { dim: *other, value: value.clone(), body: jam_copies(dim, body, factor) }]
            }
            Node::Stmt { .. } => copies(std::slice::from_ref(n)),
            other => vec![other.clone()],
        })
        .collect()
}
