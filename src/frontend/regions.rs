//! Where the SCoPs of a file are: the `#pragma scop` / `#pragma endscop`
//! pairs of one block, and the `multifor` statements outside them, each
//! a [`Region`] of statements for the extractor.

use super::syntax::{text, walk};
use crate::diagnostics::{Code, Diagnostic};
use std::ops::Range;
use tree_sitter::Node;

/// A `#pragma scop` / `#pragma endscop` pair in one block.
pub(super) struct Region<'t> {
    pub block: Node<'t>,
    pub open: Node<'t>,
    pub close: Node<'t>,
    /// The statements between the pragmas.
    pub items: Vec<Node<'t>>,
    pub body: Range<usize>,
}

pub(super) fn pragma_kind(n: Node, src: &str) -> Option<bool> {
    if n.kind() != "preproc_call" || n.child_by_field_name("directive").map(|d| text(d, src)) != Some("#pragma") {
        return None;
    }
    match n.child_by_field_name("argument").map(|a| text(a, src).trim()) {
        Some("scop") => Some(true),
        Some("endscop") => Some(false),
        _ => None,
    }
}

pub(super) fn find_regions<'t>(root: Node<'t>, src: &str) -> (Vec<Region<'t>>, Vec<(Range<usize>, Diagnostic)>) {
    let mut regions = Vec::new();
    let mut rejected = Vec::new();
    let mut misplaced = |n: Node, msg: &str| {
        let d = Diagnostic::warning(Code::P0008, n.byte_range(), msg.to_string()).with_label("this pragma");
        rejected.push((n.byte_range(), d));
    };
    walk(root, &mut |block| {
        let mut cursor = block.walk();
        let children: Vec<Node<'t>> = block.children(&mut cursor).collect();
        let mut open: Option<(usize, Node<'t>)> = None;
        for (k, child) in children.iter().enumerate() {
            match (pragma_kind(*child, src), open) {
                (Some(true), Some((_, prev))) => {
                    misplaced(prev, "`#pragma scop` is not closed before the next `#pragma scop`");
                    open = Some((k, *child));
                }
                (Some(true), None) => open = Some((k, *child)),
                (Some(false), Some((start, o))) => {
                    if block.kind() != "compound_statement" {
                        misplaced(o, "a SCoP must be inside a function body");
                    } else {
                        let body = line_end(src, o.end_byte().saturating_sub(1))..line_start(src, child.start_byte());
                        let items = children[start + 1..k].to_vec();
                        regions.push(Region { block, open: o, close: *child, items, body });
                    }
                    open = None;
                }
                (Some(false), None) => {
                    misplaced(*child, "`#pragma endscop` without a matching `#pragma scop` in this block")
                }
                (None, _) => {}
            }
        }
        if let Some((_, o)) = open {
            misplaced(o, "`#pragma scop` without a matching `#pragma endscop` in this block");
        }
    });
    let nested: Vec<usize> = (0..regions.len())
        .filter(|&a| {
            regions.iter().enumerate().any(|(b, r)| {
                b != a
                    && (r.body.start >= regions[a].body.start && r.body.end <= regions[a].body.end
                        || regions[a].body.start >= r.body.start && regions[a].body.end <= r.body.end)
            })
        })
        .collect();
    for &k in nested.iter().rev() {
        let r = regions.remove(k);
        let d = Diagnostic::warning(Code::P0008, r.open.byte_range(), "nested SCoP regions are not supported")
            .with_label("this region contains or is contained in another");
        rejected.push((r.body.clone(), d));
    }
    (regions, rejected)
}

/// Each outermost `multifor` outside the pragma regions, as a region of
/// its own: its lines, when it has them to itself.
/// One outside any function is an error: lowered, it would be loops at
/// file scope.
pub(super) fn multifor_regions<'t>(
    root: Node<'t>,
    src: &str,
    pragma_regions: &[Region<'t>],
) -> (Vec<Region<'t>>, Vec<(Range<usize>, Diagnostic)>) {
    let mut found = Vec::new();
    walk(root, &mut |n| {
        let outermost = n.kind() == "multifor_statement" && !has_ancestor(n, "multifor_statement");
        if outermost && !pragma_regions.iter().any(|r| r.body.contains(&n.start_byte())) {
            found.push(n);
        }
    });
    let (found, outside): (Vec<Node>, Vec<Node>) = found.into_iter().partition(|n| enclosing_function(*n).is_some());
    let outside = outside
        .into_iter()
        .map(|n| {
            let d = Diagnostic::error(Code::M0003, n.byte_range(), "a multifor outside any function")
                .with_label("move it into a function body");
            (n.byte_range(), d)
        })
        .collect();
    let regions = found
        .into_iter()
        .map(|n| {
            let (start, end) = (line_start(src, n.start_byte()), line_end(src, n.end_byte().saturating_sub(1)));
            let alone = src[start..n.start_byte()].trim().is_empty() && src[n.end_byte()..end].trim().is_empty();
            let body = if alone { start..end } else { n.byte_range() };
            Region { block: n, open: n, close: n, items: vec![n], body }
        })
        .collect();
    (regions, outside)
}

pub(super) fn has_ancestor(n: Node, kind: &str) -> bool {
    let mut cur = n.parent();
    while let Some(c) = cur {
        if c.kind() == kind {
            return true;
        }
        cur = c.parent();
    }
    false
}

pub(super) fn holds_multifor(region: &Region) -> bool {
    let mut found = false;
    for item in &region.items {
        walk(*item, &mut |n| found |= n.kind() == "multifor_statement");
    }
    found
}

/// Offset just past the newline ending the line that contains `at`.
pub(super) fn line_end(src: &str, at: usize) -> usize {
    src[at..].find('\n').map_or(src.len(), |p| at + p + 1)
}

/// Offset of the first byte of the line containing `at`.
pub(super) fn line_start(src: &str, at: usize) -> usize {
    src[..at].rfind('\n').map_or(0, |p| p + 1)
}

pub(super) fn enclosing_function(n: Node) -> Option<Node> {
    let mut cur = Some(n);
    while let Some(c) = cur {
        if c.kind() == "function_definition" {
            return Some(c);
        }
        cur = c.parent();
    }
    None
}
