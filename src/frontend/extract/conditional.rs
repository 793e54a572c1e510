//! Whether part of a statement's expression is evaluated only under a
//! condition: an operand of `?:` other than its condition, the right
//! operand of `&&` or `||`. A run-time check must not read what such an
//! access reads (a row pointer, `model::rows`): the source may not.
//!
//! The extractor descends each expression once; at each such operator it
//! notes the operands' byte ranges ([`guarded_operands`]), so that an
//! access below asks its statement's notes ([`Guarded::covers`]) instead
//! of climbing the tree (tree-sitter finds a parent from the root: a
//! climb per access is cubic in a long sum's length).

use std::ops::Range;
use tree_sitter::Node;

/// The byte ranges of a statement's operands evaluated only under a
/// condition, noted on the way down.
#[derive(Default)]
pub(super) struct Guarded(Vec<Range<usize>>);

impl Guarded {
    /// Note the operands of `n` that only a condition lets run.
    pub(super) fn note(&mut self, n: Node) {
        self.0.extend(guarded_operands(n));
    }

    /// Whether `n` lies in an operand noted so far (its ancestors' are).
    pub(super) fn covers(&self, n: Node) -> bool {
        let r = n.byte_range();
        self.0.iter().any(|g| g.start <= r.start && r.end <= g.end)
    }
}

/// The operands of `n` evaluated only when `n`'s own condition says so.
fn guarded_operands(n: Node) -> Vec<Range<usize>> {
    let field = |name: &str| n.child_by_field_name(name).map(|c| c.byte_range());
    match n.kind() {
        "conditional_expression" => [field("consequence"), field("alternative")].into_iter().flatten().collect(),
        "binary_expression" => {
            let operator = n.child_by_field_name("operator").map(|o| o.kind());
            match operator {
                Some("&&" | "||") => field("right").into_iter().collect(),
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}
