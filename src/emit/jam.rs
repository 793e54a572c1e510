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

    /// Whether `body`, the body of a loop over `dim`, is a perfect nest as
    /// [`Printer::jammable`] asks but for its innermost loop, which ends
    /// further for each value of `dim` (the rows of a triangle, `j <=
    /// min(i, X)`): one upper bound grows with `dim`, and no other bound
    /// involves it. The copies then run together over the first one's
    /// iterations, and each over the rest of its own after them
    /// ([`ragged_rest`]): syrk's rows as a register block, 0.048 s ->
    /// 0.030 s at LARGE on one thread. That moves the rest after later
    /// iterations of the loops between, which is legal when each of them
    /// carries dependences only between points that share the values of
    /// the loops inside (`jam` marks).
    pub(super) fn jammable_ragged(&self, dim: usize, body: &[Node]) -> bool {
        let mut nodes = body;
        loop {
            let [Node::For { dim: inner, lower, upper, body: inner_body, .. }] = nodes else { return false };
            if lower.iter().any(|e| e.involves_dim(dim)) {
                return false;
            }
            if !contains_loop(inner_body) {
                return self.program.loop_mark(*inner, inner_body).simd && growing_bound(upper, dim).is_some();
            }
            if upper.iter().any(|e| e.involves_dim(dim)) || !self.program.loop_mark(*inner, inner_body).jam {
                return false;
            }
            nodes = inner_body;
        }
    }

    /// Unroll-and-jam of the loop `head` from `start` to `end` over `body`
    /// (see [`Printer::jammable`]): `factor` iterations per step, their copies of
    /// the innermost body side by side, and with `ragged` (see
    /// [`Printer::jammable_ragged`]) the rest of each copy's iterations after
    /// them; then the iterations left, one by one. Legal as the loop carries
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
            copies.extend((1..factor).map(|u| ragged_rest(steps.dim, body, u)));
        }
        self.loop_body(&steps, &copies, depth + 1, self.in_parallel);
        let rest = LoopHead { text: format!("for (; {name} <= {end_name}; {name}++)"), ..steps };
        self.loop_body(&rest, body, depth + 1, self.in_parallel);
        self.line(depth, "}");
    }
}

/// The perfect nest `body` (see [`Printer::jammable`]) with its innermost body
/// repeated `factor` times, for `dim` plus 0, 1, ...
fn jam_copies(dim: usize, body: &[Node], factor: i64) -> Vec<Node> {
    body.iter()
        .map(|n| match n {
            Node::For { dim: inner, lower, upper, stride, body } => {
                let body = if contains_loop(body) {
                    jam_copies(dim, body, factor)
                } else {
                    (0..factor)
                        .map(|u| Node::Let {
                            dim,
                            value: LinExpr::dim(dim).add(&LinExpr::constant(u)),
                            body: body.clone(),
                        })
                        .collect()
                };
                Node::For { dim: *inner, lower: lower.clone(), upper: upper.clone(), stride: *stride, body }
            }
            other => other.clone(),
        })
        .collect()
}

/// The one bound of `upper` that involves `dim`, if it grows with it (a
/// positive coefficient, outside any floor) and no other does.
fn growing_bound(upper: &[LinExpr], dim: usize) -> Option<&LinExpr> {
    let mut moving = upper.iter().filter(|e| e.involves_dim(dim));
    let bound = moving.next()?;
    let grows = bound.coeff_of_dim(dim) > 0 && !bound.has_floor_involving(dim);
    (grows && moving.next().is_none()).then_some(bound)
}

/// The copy `u` of the nest `body` (see [`Printer::jammable_ragged`]) over
/// the iterations of its innermost loop past the first copy's: `dim`
/// bound to `dim + u`, the innermost loop starting after the bound that
/// grows with `dim` as it is for the first copy. Where that bound is not
/// the smallest of the first copy's, the first copy's smallest is, and no
/// copy has any iteration past it: the rest is empty either way.
fn ragged_rest(dim: usize, body: &[Node], u: i64) -> Node {
    fn rest(nodes: &[Node], dim: usize, u: i64) -> Vec<Node> {
        nodes
            .iter()
            .map(|n| match n {
                Node::For { dim: inner, lower, upper, stride, body } => {
                    let mut lower = lower.clone();
                    let body = if contains_loop(body) {
                        rest(body, dim, u)
                    } else {
                        if let Some(bound) = growing_bound(upper, dim) {
                            let first = bound.add(&LinExpr::constant(1 - bound.coeff_of_dim(dim) * u));
                            lower.push(first);
                        }
                        body.clone()
                    };
                    Node::For { dim: *inner, lower, upper: upper.clone(), stride: *stride, body }
                }
                other => other.clone(),
            })
            .collect()
    }
    Node::Let { dim, value: LinExpr::dim(dim).add(&LinExpr::constant(u)), body: rest(body, dim, u) }
}
