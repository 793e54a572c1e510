//! Statements that add a product to one element: `X += L * R`,
//! `X -= L * R`, `X = X + L * R` and `X = X - L * R`, or, with `+=` and
//! `-=`, the sum of two products (`X += L * R + L2 * R2`, syr2k's shape).
//! This is the shape of a matrix product, which `plan::packing` gives
//! packed panels. The module reads syntax only: which bytes hold the
//! element and which hold the factors. Which iterators each factor reads
//! is the caller's question.
//!
//! A factor qualifies only if evaluating it has no effect and cannot
//! skip part of itself. So it holds no call, assignment, increment,
//! comma or conditional. The packed code evaluates each factor once per
//! pair of its iterators, not once per instance, and only that is what
//! the source computes.

use super::syntax::{parse_tree, text, walk};
use std::ops::Range;
use tree_sitter::Node;

/// `target op= terms`, as byte ranges of the statement's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Update {
    /// The element updated (the assignment's left side).
    pub target: Range<usize>,
    /// The products summed, as written: each term after the first is
    /// added to or subtracted from those before it.
    pub terms: Vec<Term>,
    /// `-=`, or `X = X - L * R`.
    pub subtract: bool,
}

/// One product of an update.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// The product's operands, left first.
    pub factors: [Range<usize>; 2],
    /// Subtracted from the terms before it (never the first).
    pub minus: bool,
}

/// The most products an update sums: each needs panels of its own.
pub const MAX_TERMS: usize = 2;

/// What a statement's text wraps in to parse as C.
const BEFORE: &str = "void polyc_update(void) {\n";

/// `stmt_text` (one C statement, `;` included) as an [`Update`], or `None`
/// if it is anything else.
pub fn product_update(stmt_text: &str) -> Option<Update> {
    let wrapped = format!("{BEFORE}{stmt_text}\n}}\n");
    let tree = parse_tree(&wrapped).ok()?;
    let root = tree.root_node();
    if root.has_error() {
        return None;
    }
    let body = root.named_child(0)?.child_by_field_name("body")?;
    let [statement] = named_children(body)[..] else { return None };
    if statement.kind() != "expression_statement" {
        return None;
    }
    let assignment = statement.named_child(0)?;
    if assignment.kind() != "assignment_expression" {
        return None;
    }
    let target = assignment.child_by_field_name("left")?;
    let right = assignment.child_by_field_name("right")?;
    let (products, subtract) = match operator(assignment, &wrapped)? {
        "+=" => (summed(right, &wrapped)?, false),
        "-=" => (summed(right, &wrapped)?, true),
        "=" => {
            let (product, subtract) = accumulated(target, right, &wrapped)?;
            (vec![(product, false)], subtract)
        }
        _ => return None,
    };
    let relative = |n: Node| n.start_byte() - BEFORE.len()..n.end_byte() - BEFORE.len();
    let mut terms = Vec::new();
    for (product, minus) in products {
        let factors = factors(product, &wrapped)?;
        terms.push(Term { factors: factors.map(relative), minus });
    }
    Some(Update { target: relative(target), terms, subtract })
}

/// The terms of `P`, `P + P2` or `P - P2` (at most [`MAX_TERMS`], each
/// whether it is subtracted), left first. A parenthesised sum on the
/// right would group differently: it is not read.
fn summed<'t>(right: Node<'t>, source: &str) -> Option<Vec<(Node<'t>, bool)>> {
    let mut terms = Vec::new();
    let mut rest = without_parentheses(right);
    while rest.kind() == "binary_expression" && matches!(operator(rest, source)?, "+" | "-") {
        let minus = operator(rest, source)? == "-";
        terms.push((rest.child_by_field_name("right")?, minus));
        rest = without_parentheses(rest.child_by_field_name("left")?);
        if terms.len() >= MAX_TERMS {
            return None;
        }
    }
    terms.push((rest, false));
    terms.reverse();
    Some(terms)
}

/// The operands of `product`, if it is a product of two pure operands.
fn factors<'t>(product: Node<'t>, source: &str) -> Option<[Node<'t>; 2]> {
    let product = without_parentheses(product);
    if product.kind() != "binary_expression" || operator(product, source)? != "*" {
        return None;
    }
    let factors = [product.child_by_field_name("left")?, product.child_by_field_name("right")?];
    factors.iter().all(|f| is_pure(*f)).then_some(factors)
}

/// `X + P` or `X - P` on the right of `X = ...`, `X` spelt as the target
/// is: `P`, and whether it is subtracted.
fn accumulated<'t>(target: Node<'t>, right: Node<'t>, source: &str) -> Option<(Node<'t>, bool)> {
    let right = without_parentheses(right);
    if right.kind() != "binary_expression" {
        return None;
    }
    let subtract = match operator(right, source)? {
        "+" => false,
        "-" => true,
        _ => return None,
    };
    let first = right.child_by_field_name("left")?;
    (spelling(first, source) == spelling(target, source)).then_some(())?;
    Some((right.child_by_field_name("right")?, subtract))
}

/// The operator token of an assignment or binary expression.
fn operator<'s>(n: Node, source: &'s str) -> Option<&'s str> {
    n.child_by_field_name("operator").map(|op| text(op, source))
}

fn without_parentheses(mut n: Node) -> Node {
    while n.kind() == "parenthesized_expression" {
        match n.named_child(0) {
            Some(inner) => n = inner,
            None => break,
        }
    }
    n
}

/// A node's text without white space, so that `X[i][j]` and `X[i] [j]`
/// compare equal.
fn spelling(n: Node, source: &str) -> String {
    text(n, source).chars().filter(|c| !c.is_whitespace()).collect()
}

fn named_children(n: Node) -> Vec<Node> {
    let mut cursor = n.walk();
    n.named_children(&mut cursor).collect()
}

/// Whether evaluating `n` has no effect and always evaluates all of it.
fn is_pure(n: Node) -> bool {
    const EFFECTS: [&str; 6] = [
        "call_expression",
        "assignment_expression",
        "update_expression",
        "comma_expression",
        "conditional_expression",
        "compound_literal_expression",
    ];
    let mut pure = true;
    walk(n, &mut |node| {
        let shortcut =
            node.kind() == "binary_expression" && matches!(node.child(1).map(|op| op.kind()), Some("&&" | "||"));
        pure &= !EFFECTS.contains(&node.kind()) && !shortcut;
    });
    pure
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(text: &str) -> Option<(String, [String; 2], bool)> {
        let u = product_update(text)?;
        let at = |r: &Range<usize>| text[r.clone()].to_string();
        let [term] = &u.terms[..] else { return None };
        Some((at(&u.target), [at(&term.factors[0]), at(&term.factors[1])], u.subtract))
    }

    fn strings(a: &str, b: &str) -> [String; 2] {
        [a.to_string(), b.to_string()]
    }

    #[test]
    fn the_four_forms_of_an_accumulated_product_are_read() {
        let gemm = parts("C[i][j] += alpha * A[i][k] * B[k][j];").unwrap();
        assert_eq!(gemm, ("C[i][j]".to_string(), strings("alpha * A[i][k]", "B[k][j]"), false));
        let minus = parts("C[i][j] -= A[k][i] * (B[k][j]);").unwrap();
        assert_eq!(minus, ("C[i][j]".to_string(), strings("A[k][i]", "(B[k][j])"), true));
        let spelt = parts("C[i][j] = C[i] [j] + A[i][k] * B[k][j];").unwrap();
        assert_eq!(spelt.1, strings("A[i][k]", "B[k][j]"));
        assert!(parts("C[i][j] = C[i][j] - (A[i][k] * B[k][j]);").unwrap().2);
    }

    #[test]
    fn two_products_summed_are_read_left_first() {
        let text = "C[i][j] += A[j][k] * alpha * B[i][k] - (B[j][k] * A[i][k]);";
        let u = product_update(text).unwrap();
        let spelt: Vec<(String, String, bool)> = u
            .terms
            .iter()
            .map(|t| (text[t.factors[0].clone()].to_string(), text[t.factors[1].clone()].to_string(), t.minus))
            .collect();
        let expected = [("A[j][k] * alpha", "B[i][k]", false), ("B[j][k]", "A[i][k]", true)];
        assert_eq!(spelt, expected.map(|(l, r, m)| (l.to_string(), r.to_string(), m)));
    }

    #[test]
    fn anything_else_is_not() {
        for text in [
            "C[i][j] = A[i][k] * B[k][j];",
            "C[i][j] = C[i][k] + A[i][k] * B[k][j];",
            "C[i][j] += A[i][k] + B[k][j];",
            "C[i][j] += A[i][k] * B[k][j] + (A[i][k] * B[k][j] + A[i][k] * B[k][j]);",
            "C[i][j] += A[i][k] * B[k][j] + A[i][k] * B[k][j] + A[i][k] * B[k][j];",
            "C[i][j] = C[i][j] + A[i][k] * B[k][j] + A[i][k] * B[k][j];",
            "C[i][j] *= A[i][k] * B[k][j];",
            "C[i][j] += f(A[i][k]) * B[k][j];",
            "C[i][j] += A[i][k]++ * B[k][j];",
            "C[i][j] += (c ? A[i][k] : 0) * B[k][j];",
            "C[i][j] += (c && A[i][k]) * B[k][j];",
            "C[i][j] += A[i][k] * B[k][j]; x = 1;",
            "if (c) C[i][j] += A[i][k] * B[k][j];",
        ] {
            assert_eq!(product_update(text), None, "{text}");
        }
    }
}
