//! Questions about the shape of a loop AST (what a body holds, how
//! deeply loops nest, which bounds move with a loop), asked before
//! deciding how to print it.

use crate::model::affine::LinExpr;
use crate::scan::ast::Node;

/// A statement instance below a loop: its id and the bindings on the way.
pub(super) struct Leaf {
    pub(super) id: usize,
    pub(super) bindings: Vec<(usize, LinExpr)>,
}

pub(super) fn leaves(nodes: &[Node], path: &mut Vec<(usize, LinExpr)>, out: &mut Vec<Leaf>) {
    for n in nodes {
        match n {
            Node::Stmt { id } => out.push(Leaf { id: *id, bindings: path.clone() }),
            Node::Let { dim, value, body } => {
                path.push((*dim, value.clone()));
                leaves(body, path, out);
                path.pop();
            }
            Node::For { body, .. } | Node::Guard { body, .. } => leaves(body, path, out),
        }
    }
}

/// Whether `nodes` hold a loop. Only a loop without inner loops gets a
/// SIMD mark: gcc fully unrolls short inner loops (a filter's taps) and
/// vectorises around them better by itself (conv2d: 0.94x with the mark
/// on the loop around its taps, 0.99x without).
pub(super) fn contains_loop(nodes: &[Node]) -> bool {
    nodes.iter().any(|n| match n {
        Node::For { .. } => true,
        Node::Let { body, .. } | Node::Guard { body, .. } => contains_loop(body),
        Node::Stmt { .. } => false,
    })
}

/// Loops with constant bounds up to this many iterations are short.
const SHORT_TRIP: i64 = 16;

/// Whether bounds `lower..=upper` are constants at most [`SHORT_TRIP`] apart.
pub(super) fn is_short(lower: &[LinExpr], upper: &[LinExpr]) -> bool {
    matches!((lower, upper), ([l], [u]) if l.is_constant() && u.is_constant() && u.constant - l.constant < SHORT_TRIP)
}

/// How deeply loops nest in `nodes`.
pub(super) fn loop_depth(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|n| match n {
            Node::For { body, .. } => 1 + loop_depth(body),
            Node::Let { body, .. } | Node::Guard { body, .. } => loop_depth(body),
            Node::Stmt { .. } => 0,
        })
        .max()
        .unwrap_or(0)
}

/// Whether each iteration of a loop over `dim` around `body` runs every
/// statement of `body` at least once: no guard inside, no inner loop
/// whose bounds move with it (the loops inside, the same for every
/// iteration, are not empty where some statement runs).
pub(super) fn runs_all_inside(dim: usize, body: &[Node]) -> bool {
    fn unguarded(nodes: &[Node]) -> bool {
        nodes.iter().all(|n| match n {
            Node::Guard { .. } => false,
            Node::For { body, .. } | Node::Let { body, .. } => unguarded(body),
            Node::Stmt { .. } => true,
        })
    }
    unguarded(body) && !inner_bounds_vary_with(body, &mut vec![dim])
}

/// Whether some loop in `nodes` has a bound that depends on one of the
/// dimensions `varying` (a dimension bound to an expression of them joins
/// them): the iterations of a loop over `varying[0]` then differ in work.
pub(super) fn inner_bounds_vary_with(nodes: &[Node], varying: &mut Vec<usize>) -> bool {
    let depends = |e: &LinExpr, varying: &[usize]| varying.iter().any(|&d| e.involves_dim(d));
    nodes.iter().any(|n| match n {
        Node::For { lower, upper, body, .. } => {
            lower.iter().chain(upper).any(|e| depends(e, varying)) || inner_bounds_vary_with(body, varying)
        }
        Node::Let { dim: bound, value, body } => {
            let joins = depends(value, varying);
            if joins {
                varying.push(*bound);
            }
            let found = inner_bounds_vary_with(body, varying);
            if joins {
                varying.pop();
            }
            found
        }
        Node::Guard { body, .. } => inner_bounds_vary_with(body, varying),
        Node::Stmt { .. } => false,
    })
}

/// Whether the iterations of a loop over `dim` around `body` differ in
/// work: some loop inside runs a number of iterations that moves with it.
/// A loop whose every upper bound lies a distance that does not move
/// from every lower bound runs as many in every iteration; so does, but
/// at the edges of the domain, one with a lower and an upper bound a
/// constant distance apart (a full tile's points, clipped there). One
/// distance that does not move bounds nothing: symm's tiles of a
/// triangle, `c2 <= min(floord(m - 2, 32), c1)`, grow with `c1`.
pub(super) fn work_varies_with(dim: usize, body: &[Node]) -> bool {
    let mut moving = vec![dim];
    moving_with(body, &mut moving);
    let moves = |e: &LinExpr| moving.iter().any(|&d| e.involves_dim(d));
    let fixed_width = |lower: &[LinExpr], upper: &[LinExpr]| {
        let mut distances = lower.iter().flat_map(|l| upper.iter().map(move |u| u.sub(l)));
        distances.clone().all(|w| !moves(&w)) || distances.any(|w| w.is_constant())
    };
    fn any_loop(nodes: &[Node], found: &dyn Fn(&[LinExpr], &[LinExpr]) -> bool) -> bool {
        nodes.iter().any(|n| match n {
            Node::For { lower, upper, body, .. } => found(lower, upper) || any_loop(body, found),
            Node::Let { body, .. } | Node::Guard { body, .. } => any_loop(body, found),
            Node::Stmt { .. } => false,
        })
    }
    any_loop(body, &|lower, upper| !fixed_width(lower, upper))
}

/// Extend `moving` with the dimensions of `nodes` that move with one in
/// it: loops whose bounds involve one, and bindings to one.
pub(super) fn moving_with(nodes: &[Node], moving: &mut Vec<usize>) {
    let involved = |e: &LinExpr, moving: &[usize]| moving.iter().any(|&d| e.involves_dim(d));
    for n in nodes {
        let (dim, moves, body) = match n {
            Node::For { dim, lower, upper, body, .. } => {
                (Some(*dim), lower.iter().chain(upper).any(|e| involved(e, moving)), body)
            }
            Node::Let { dim, value, body } => (Some(*dim), involved(value, moving), body),
            Node::Guard { body, .. } => (None, false, body),
            Node::Stmt { .. } => continue,
        };
        if let Some(dim) = dim.filter(|d| moves && !moving.contains(d)) {
            moving.push(dim);
        }
        moving_with(body, moving);
    }
}

/// How many lines a body prints at its own level (bindings print nothing).
pub(super) fn printed_items(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|n| match n {
            Node::Let { body, .. } => printed_items(body),
            _ => 1,
        })
        .sum()
}
