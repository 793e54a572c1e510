//! The syntax tree: polyc's grammar run over a text, the parts of it that
//! do not parse, and walks over a tree. Every walk here is iterative, as
//! a file may nest deeper than any stack (see [`super::depth`]).

use super::language;
use crate::diagnostics::{Code, Diagnostic};
use tree_sitter::{Node, Parser, Tree};

pub(super) fn parse_tree(text: &str) -> Result<Tree, Diagnostic> {
    parse_tree_within(text, None)
}

/// Parse `text`, or with `within` only those bytes of it (node spans
/// stay on `text`).
pub(super) fn parse_tree_within(text: &str, within: Option<tree_sitter::Range>) -> Result<Tree, Diagnostic> {
    let unusable = |e: String| Diagnostic::error(Code::E0001, 0..0, format!("the C grammar is unusable: {e}"));
    let mut parser = Parser::new();
    parser.set_language(&language::language()).map_err(|e| unusable(e.to_string()))?;
    if let Some(range) = within {
        parser.set_included_ranges(&[range]).map_err(|e| unusable(format!("{e:?}")))?;
    }
    parser.parse(text, None).ok_or_else(|| Diagnostic::error(Code::E0001, 0..0, "the parser gave up"))
}

/// The outermost nodes that do not parse under `n`, in order.
pub(super) fn syntax_errors(n: Node) -> Vec<Node> {
    let mut found = Vec::new();
    // Iterative, as the file may nest deeper than any stack: each node
    // popped a second time (with where its errors start in `found`) stands
    // for its own error when none of its children had one.
    let mut stack: Vec<(Node, Option<usize>)> = vec![(n, None)];
    while let Some((node, errors_from)) = stack.pop() {
        match errors_from {
            Some(before) if found.len() == before => found.push(node),
            Some(_) => {}
            None if !node.has_error() => {}
            None if node.is_error() || node.is_missing() => found.push(node),
            None => {
                stack.push((node, Some(found.len())));
                let mut cursor = node.walk();
                let children: Vec<Node> = node.children(&mut cursor).collect();
                stack.extend(children.into_iter().rev().map(|c| (c, None)));
            }
        }
    }
    found
}

pub fn text<'a>(n: Node, src: &'a str) -> &'a str {
    &src[n.byte_range()]
}

/// Pre-order traversal; with a cursor, as a file may nest deeper than
/// any stack.
pub fn walk<'t>(n: Node<'t>, f: &mut dyn FnMut(Node<'t>)) {
    let mut nodes = Preorder::new(n);
    loop {
        f(nodes.node());
        if !nodes.advance() {
            return;
        }
    }
}

/// A cursor over a node and everything under it in pre-order, counting its
/// own depth (tree-sitter's `TreeCursor::depth` climbs the whole path on
/// each call: a walk asking it at every node of a deep file is quadratic).
pub struct Preorder<'t> {
    cursor: tree_sitter::TreeCursor<'t>,
    /// Levels below the node the walk started on.
    pub depth: usize,
}

impl<'t> Preorder<'t> {
    pub fn new(root: Node<'t>) -> Preorder<'t> {
        Preorder { cursor: root.walk(), depth: 0 }
    }

    pub fn node(&self) -> Node<'t> {
        self.cursor.node()
    }

    /// Move to the next node; `false` when the walk is over.
    pub fn advance(&mut self) -> bool {
        if self.cursor.goto_first_child() {
            self.depth += 1;
            return true;
        }
        while self.depth > 0 {
            if self.cursor.goto_next_sibling() {
                return true;
            }
            self.cursor.goto_parent();
            self.depth -= 1;
        }
        false
    }
}
