//! Whether part of a statement's expression is evaluated only under a
//! condition: an operand of `?:` other than its condition, the right
//! operand of `&&` or `||`. A run-time check must not read what such an
//! access reads (a row pointer, `model::rows`): the source may not.

use tree_sitter::Node;

/// Whether `n` is evaluated only when some enclosing `?:`, `&&` or `||`
/// of its statement says so.
pub(super) fn evaluated_conditionally(n: Node) -> bool {
    let mut child = n;
    while let Some(parent) = child.parent() {
        let is = |field: &str| parent.child_by_field_name(field).is_some_and(|f| f.id() == child.id());
        let operator = parent.child_by_field_name("operator").map(|o| o.kind());
        let guarded = match parent.kind() {
            "conditional_expression" => !is("condition"),
            "binary_expression" => matches!(operator, Some("&&" | "||")) && is("right"),
            _ => false,
        };
        if guarded {
            return true;
        }
        if parent.kind().ends_with("statement") {
            return false;
        }
        child = parent;
    }
    false
}
