//! The loop AST the scanner produces and the printer consumes: loops,
//! single-value bindings, guards and statement instances, with bounds as
//! affine expressions over dimensions, parameters and floor divisions.

use crate::model::affine::{Constraint, LinExpr};

#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// `for (c_dim = max(lower); c_dim <= min(upper); c_dim += stride)`.
    /// Every lower bound is already aligned on the stride's lattice.
    For { dim: usize, lower: Vec<LinExpr>, upper: Vec<LinExpr>, stride: i64, body: Vec<Node> },
    /// Dimension `dim` takes a single value here: no loop.
    Let { dim: usize, value: LinExpr, body: Vec<Node> },
    /// Run `body` only where one of the conjunctions holds.
    Guard { cond: Vec<Vec<Constraint>>, body: Vec<Node> },
    /// One instance of statement `id`.
    Stmt { id: usize },
}

impl Node {
    /// Statement ids in execution order of first appearance.
    pub fn statements(nodes: &[Node], out: &mut Vec<usize>) {
        for n in nodes {
            match n {
                Node::Stmt { id } => out.push(*id),
                Node::For { body, .. } | Node::Let { body, .. } | Node::Guard { body, .. } => {
                    Node::statements(body, out)
                }
            }
        }
    }

    /// Whether any guard appears in the tree.
    pub fn has_guard(nodes: &[Node]) -> bool {
        nodes.iter().any(|n| match n {
            Node::Guard { .. } => true,
            Node::For { body, .. } | Node::Let { body, .. } => Node::has_guard(body),
            Node::Stmt { .. } => false,
        })
    }
}
