//! Full strips of independent chains: a sequential loop whose body is a
//! strip's point loops (the planner's recurrence strips: four rows `i` of
//! `t[i] += A[i][j] * x[j]` inside the loop over `j`) runs, where the
//! strip is full, with each point loop's body written out once per point
//! and the elements each chain sums kept in locals across the whole loop.
//!
//! gcc keeps the sums in memory otherwise: inside an OpenMP region the
//! `restrict` of the block-scope copies is lost, so every store to
//! `t[i]` may change `A` or `x`, and each chain waits on a store and a
//! reload besides its addition (atax's row sums at LARGE, one thread:
//! 0.0082 s as point loops, 0.0055-0.0064 s with locals). The points run
//! in the order the point loops ran them, so every value and every order
//! of operations is the source's. Where the strip is not full (the last
//! one), or nothing may be kept, the loop prints as it was.

use super::nest::contains_loop;
use super::printer::{LoopHead, Printer, Scalar};
use crate::model::affine::LinExpr;
use crate::plan::marks::LoopMark;
use crate::scan::ast::Node;

/// The most points a strip may have for its bodies to be written out.
const MOST_POINTS: i64 = 8;

/// The point loops of a strip inside a sequential loop.
struct Strip {
    /// The points' dimension.
    point: usize,
    /// The first point and the other upper bounds (the strip's own is
    /// `lower + points - 1`): the strip is full where that is below them.
    lower: LinExpr,
    others: Vec<LinExpr>,
    points: i64,
}

impl Printer<'_> {
    /// The sequential loop `head` over `body`, bounds `lower..=upper`
    /// (substituted): with a full strip's chains in locals if `body` is a
    /// strip's point loops and some chain may be kept (see the module's
    /// doc); `false` if not, nothing printed.
    pub(super) fn chains_loop(
        &mut self,
        head: &LoopHead,
        mark: LoopMark,
        (lower, upper): (&[LinExpr], &[LinExpr]),
        body: &[Node],
        depth: usize,
    ) -> bool {
        let Some(strip) = strip_inside(head.dim, body) else { return false };
        let first = strip.lower.substitute(&|k| self.env[k].clone());
        let others: Vec<LinExpr> = strip.others.iter().map(|e| e.substitute(&|k| self.env[k].clone())).collect();
        let saved = std::mem::replace(&mut self.env[strip.point], first.clone());
        let copies = points_written_out(strip.point, strip.points, body);
        let kept = self.kept_across_loop(head.dim, mark, &copies);
        if kept.is_empty() {
            self.env[strip.point] = saved;
            return false;
        }
        let mut depth = depth;
        if !others.is_empty() {
            let last = self.expr(&first.add(&LinExpr::constant(strip.points - 1)));
            let full = self.bound_cmp(&last, &others, false);
            self.line(depth, &format!("if ({full}) {{"));
            depth += 1;
        }
        self.loop_with_locals(head, &kept, (lower, upper), &copies, depth);
        self.env[strip.point] = saved;
        if !others.is_empty() {
            self.line(depth - 1, "} else {");
            self.loop_body(head, body, depth, self.in_parallel);
            self.line(depth - 1, "}");
        }
        true
    }

    /// The loop `head` over `body` with `kept` in locals: loaded before it
    /// (where the first use reads them) and stored after, only if the
    /// loop runs (the elements may lie outside their arrays otherwise).
    fn loop_with_locals(
        &mut self,
        head: &LoopHead,
        kept: &[Scalar],
        (lower, upper): (&[LinExpr], &[LinExpr]),
        body: &[Node],
        depth: usize,
    ) {
        self.open_if_runs(lower, upper, depth);
        self.declare_locals(kept, depth + 1);
        let saved = self.scalars.len();
        self.scalars.extend(kept.iter().cloned());
        self.loop_body(head, body, depth + 1, self.in_parallel);
        self.scalars.truncate(saved);
        self.store_locals(kept, depth + 1);
        self.line(depth, "}");
    }
}

/// The strip whose point loops are all of `body`, the body of a loop over
/// `dim`: loops over one dimension, with the same bounds free of `dim`,
/// one upper bound a few points past the single lower one, and no loop
/// inside; they may sit under bindings of constant dimensions (the
/// schedule's statement order), which their bounds do not involve.
fn strip_inside(dim: usize, body: &[Node]) -> Option<Strip> {
    let mut loops = Vec::new();
    let mut bound = vec![dim];
    point_loops(body, &mut loops, &mut bound)?;
    let (&(point, lower, upper), rest) = loops.split_first()?;
    if rest.iter().any(|&(p, l, u)| p != point || l != lower || u != upper) {
        return None;
    }
    if bound.iter().any(|&d| lower.involves_dim(d) || upper.iter().any(|u| u.involves_dim(d))) {
        return None;
    }
    let span = |u: &LinExpr| Some(u.sub(lower)).filter(LinExpr::is_constant).map(|d| d.constant);
    let own = upper.iter().position(|u| span(u).is_some_and(|s| (1..MOST_POINTS).contains(&s)))?;
    let points = span(&upper[own])? + 1;
    let others = upper.iter().enumerate().filter(|&(k, _)| k != own).map(|(_, u)| u.clone()).collect();
    Some(Strip { point, lower: lower.clone(), others, points })
}

/// The loops of `nodes` (dimension, lower bound, upper bounds), each
/// with a single lower bound, stride 1 and no loop inside, and the
/// dimensions bound to constants around them; `None` if anything else
/// is there.
fn point_loops<'n>(
    nodes: &'n [Node],
    loops: &mut Vec<(usize, &'n LinExpr, &'n [LinExpr])>,
    bound: &mut Vec<usize>,
) -> Option<()> {
    for n in nodes {
        match n {
            Node::For { dim, lower, upper, stride: 1, body } if lower.len() == 1 && !contains_loop(body) => {
                loops.push((*dim, &lower[0], upper));
            }
            Node::Let { dim, value, body } if value.is_constant() => {
                bound.push(*dim);
                point_loops(body, loops, bound)?;
            }
            _ => return None,
        }
    }
    Some(())
}

/// Each point loop of `body` (over `point`, from its current value)
/// replaced by its body once per point, in the order the loop ran them.
fn points_written_out(point: usize, points: i64, body: &[Node]) -> Vec<Node> {
    body.iter()
        .flat_map(|n| match n {
            Node::For { body: inner, .. } => (0..points)
                .map(|u| Node::Let {
                    dim: point,
                    value: LinExpr::dim(point).add(&LinExpr::constant(u)),
                    body: inner.clone(),
                })
                .collect(),
            Node::Let { dim, value, body } => {
                vec![Node::Let { dim: *dim, value: value.clone(), body: points_written_out(point, points, body) }]
            }
            other => vec![other.clone()],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point_loop(lower: LinExpr, upper: Vec<LinExpr>, stmts: &[usize]) -> Node {
        Node::For {
            dim: 1,
            lower: vec![lower],
            upper,
            stride: 1,
            body: stmts.iter().map(|&id| Node::Stmt { id }).collect(),
        }
    }

    #[test]
    fn a_strip_of_four_under_its_row_bound_is_found() {
        let first = LinExpr::dim(0).scale(4);
        let upper = vec![first.add(&LinExpr::constant(3)), LinExpr::constant(99)];
        let body = [point_loop(first.clone(), upper.clone(), &[0]), point_loop(first, upper, &[1])];
        let strip = strip_inside(2, &body).expect("a strip");
        assert_eq!((strip.point, strip.points), (1, 4));
        assert_eq!(strip.others, vec![LinExpr::constant(99)]);
        let copies = points_written_out(strip.point, strip.points, &body);
        let mut order = Vec::new();
        Node::statements(&copies, &mut order);
        assert_eq!(order, vec![0, 0, 0, 0, 1, 1, 1, 1]);
    }

    #[test]
    fn loops_of_other_bounds_or_with_loops_inside_are_no_strip() {
        let first = LinExpr::dim(0).scale(4);
        let four = vec![first.add(&LinExpr::constant(3))];
        let five = vec![first.add(&LinExpr::constant(4))];
        assert!(strip_inside(
            2,
            &[point_loop(first.clone(), four.clone(), &[0]), point_loop(first.clone(), five, &[1])]
        )
        .is_none());
        let nested = Node::For {
            dim: 1,
            lower: vec![first.clone()],
            upper: four.clone(),
            stride: 1,
            body: vec![point_loop(first.clone(), four.clone(), &[0])],
        };
        assert!(strip_inside(2, &[nested]).is_none());
        // Bounds that move with the loop around are no strip of it.
        let moving = LinExpr::dim(2);
        assert!(strip_inside(2, &[point_loop(moving.clone(), vec![moving.add(&LinExpr::constant(3))], &[0])]).is_none());
    }
}
