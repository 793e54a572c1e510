//! How deeply a syntax tree nests, measured without recursion.
//!
//! Extraction, the quasi-affine translation, the isl text, the printing of
//! statements, lang-c's parser of the unit and the `Drop` of its AST all
//! recurse once per level of an expression, so 12,000 nested parentheses
//! (or a sum of 12,000 terms, as deep: `a + b + c` is `(a + b) + c`)
//! would overflow any stack. They only ever see trees at most
//! [`MAX_DEPTH`] (1000) levels deep (tree-sitter nodes, tokens included):
//! a SCoP whose function nests deeper, before or after its macros are
//! expanded, is kept as written with `P0023`, `--autodetect` does not
//! search such a function, and a unit that nests deeper is not given to
//! lang-c (as when it does not parse). Text outside SCoPs is copied
//! whatever its depth: the walks over the whole file
//! (`syntax::walk`, the syntax errors) are iterative. Each file is
//! compiled on a thread with [`crate::driver::COMPILE_STACK`] bytes of
//! stack reserved, room for this depth many times over.

use super::syntax::{parse_tree, Preorder};
use crate::diagnostics::{Code, Diagnostic};
use tree_sitter::Node;

/// The deepest tree the recursive passes are given: far above what C
/// written by hand or by a generator nests (a sum of a few hundred terms),
/// far below what would exhaust the compile thread's stack.
pub const MAX_DEPTH: usize = 1000;

/// The first node found more than `bound` levels below `root`, if any;
/// walks with a cursor, so its own depth costs no stack.
pub fn deeper_than(root: Node, bound: usize) -> Option<Node> {
    let mut nodes = Preorder::new(root);
    loop {
        if nodes.depth > bound {
            return Some(nodes.node());
        }
        if !nodes.advance() {
            return None;
        }
    }
}

/// `P0023` when `scope` (the function holding a SCoP) nests deeper than
/// [`MAX_DEPTH`], pointing at where it does.
pub fn check(scope: Node, region_open: std::ops::Range<usize>) -> Result<(), Diagnostic> {
    let Some(deep) = deeper_than(scope, MAX_DEPTH) else { return Ok(()) };
    Err(Diagnostic::warning(
        Code::P0023,
        region_open,
        format!("the code around this SCoP nests more than {MAX_DEPTH} levels deep"),
    )
    .with_label("kept as written")
    .with_note(format!("the nesting passes {MAX_DEPTH} levels at line {}", deep.start_position().row + 1)))
}

/// An error when the preprocessed unit nests deeper than [`MAX_DEPTH`],
/// which lang-c would recurse through; measured on tree-sitter's parse,
/// whose parser keeps its stack on the heap.
pub fn check_unit(preprocessed: &str) -> Result<(), String> {
    let tree = parse_tree(preprocessed).map_err(|d| d.message)?;
    match deeper_than(tree.root_node(), MAX_DEPTH) {
        Some(deep) => Err(format!(
            "the preprocessed unit nests more than {MAX_DEPTH} levels deep (at its line {})",
            deep.start_position().row + 1
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The depth of the deepest node of `body` inside a function.
    fn depth(body: &str) -> usize {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&super::super::language::language()).expect("the grammar loads");
        let tree = parser.parse(format!("void f(void) {{ {body} }}"), None).expect("tree-sitter parses");
        assert!(!tree.root_node().has_error());
        let (mut shallow, mut deep) = (0, 100_000);
        while shallow < deep {
            let mid = (shallow + deep) / 2;
            match deeper_than(tree.root_node(), mid) {
                Some(_) => shallow = mid + 1,
                None => deep = mid,
            }
        }
        shallow
    }

    #[test]
    fn each_parenthesis_is_a_level() {
        let nested = |n: usize| format!("x = {}y{};", "(".repeat(n), ")".repeat(n));
        assert_eq!(depth(&nested(60)) - depth(&nested(50)), 10);
    }

    #[test]
    fn a_long_flat_sum_is_as_deep_as_it_is_long() {
        let sum = |n: usize| format!("x = {};", vec!["y"; n].join(" + "));
        assert_eq!(depth(&sum(3000)) - depth(&sum(2000)), 1000);
    }
}
