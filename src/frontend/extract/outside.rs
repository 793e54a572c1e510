//! What the function around a region does with the SCoP's names outside
//! it: arrays nothing else sees (temporaries, values dead after it), the
//! arrays its `#pragma polyc` lines name, and iterators read after it.
//!
//! - Temporaries (`ScopAst::temporaries`): local arrays (automatic, not
//!   pointers) that the function names nowhere but in their declaration and
//!   inside the region, and the arrays `#pragma polyc temporary(A, B)` names.
//!   Storage contraction may fold them.
//! - Live-out arrays (`ScopAst::live_out`): those `#pragma polyc live_out(A)`
//!   names, whose last values are read after the SCoP.
//! - Dead after the SCoP (`ScopAst::dead_after`): the automatic locals named
//!   outside the region only in their declaration, when no loop around the
//!   region and no `goto` in the function may run it again. A loop that
//!   privatises one need not copy it out.
//! - An iterator declared outside its loop must not be read after the SCoP
//!   (nor anywhere else in a loop around it) before it is assigned again
//!   (`P0009`): polyc does not keep an iterator's final value.

use super::state::{reject, Res};
use crate::diagnostics::Code;
use crate::frontend::decls::{polyc_pragma_list, VarDecl};
use crate::frontend::regions::Region;
use crate::frontend::syntax::{text, walk};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use tree_sitter::Node;

/// The names listed by `#pragma polyc <what>(A, B)` lines in `function`.
pub(super) fn named_by_pragma(function: Node, src: &str, what: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    walk(function, &mut |n| {
        let is_pragma =
            n.kind() == "preproc_call" && n.child_by_field_name("directive").is_some_and(|d| text(d, src) == "#pragma");
        let argument = n.child_by_field_name("argument").filter(|_| is_pragma);
        names.extend(argument.and_then(|a| polyc_pragma_list(text(a, src), what)).unwrap_or_default());
    });
    names
}

/// The automatic locals of `arrays` (not pointers) that `function`
/// names only in their declaration and inside `region`: nothing outside
/// the SCoP reads or points to them.
pub(super) fn unseen_outside(
    arrays: &[(String, VarDecl)],
    function: Node,
    src: &str,
    region: &Range<usize>,
) -> BTreeSet<String> {
    let mut outside: BTreeMap<&str, usize> = BTreeMap::new();
    walk(function, &mut |n| {
        if n.kind() == "identifier" && !(region.start <= n.start_byte() && n.end_byte() <= region.end) {
            *outside.entry(text(n, src)).or_default() += 1;
        }
    });
    arrays
        .iter()
        .filter(|(name, d)| d.is_local && !d.is_static && !d.is_pointer && outside.get(name.as_str()) == Some(&1))
        .map(|(name, _)| name.clone())
        .collect()
}

/// The arrays among `unseen` (see [`unseen_outside`]), as declared.
pub(super) fn temporaries(arrays: &[(String, VarDecl)], unseen: &BTreeSet<String>) -> BTreeSet<String> {
    arrays
        .iter()
        .filter(|(name, d)| unseen.contains(name) && !d.extents.is_empty() && d.delinearised.is_none())
        .map(|(name, _)| name.clone())
        .collect()
}

/// `unseen` (see [`unseen_outside`]) when the region runs once per call
/// of `function`: inside a loop, or where a `goto` may jump back, the
/// values one run leaves may be read by the next.
pub(super) fn dead_after(unseen: BTreeSet<String>, region: &Region, function: Node) -> BTreeSet<String> {
    let mut repeats = false;
    walk(function, &mut |n| repeats |= n.kind() == "goto_statement");
    let mut at = region.open.parent();
    while let Some(n) = at.filter(|n| n.id() != function.id()) {
        repeats |= matches!(n.kind(), "for_statement" | "while_statement" | "do_statement" | "multifor_statement");
        at = n.parent();
    }
    if repeats {
        BTreeSet::new()
    } else {
        unseen
    }
}

/// Iterators declared outside their loops must not be read after the SCoP
/// (nor, when the SCoP sits in a loop, anywhere else in that loop) before
/// being assigned again.
pub(super) fn check_iterators_dead_after(
    region: &Region,
    function: Node,
    src: &str,
    iterators: &BTreeSet<String>,
) -> Res<()> {
    if iterators.is_empty() {
        return Ok(());
    }
    let inside = region.open.start_byte()..region.close.end_byte();
    let mut enclosing_loop = None;
    let mut cur = region.block.parent();
    while let Some(c) = cur {
        if matches!(c.kind(), "for_statement" | "while_statement" | "do_statement") {
            enclosing_loop = Some(c.byte_range());
        }
        if c.id() == function.id() {
            break;
        }
        cur = c.parent();
    }
    let mut first_after: BTreeMap<String, Node> = BTreeMap::new();
    let mut in_loop_reads: Vec<Node> = Vec::new();
    walk(function, &mut |n| {
        if n.kind() != "identifier" || !iterators.contains(text(n, src)) || inside.contains(&n.start_byte()) {
            return;
        }
        if n.start_byte() >= inside.end {
            first_after.entry(text(n, src).to_string()).or_insert(n);
        }
        if enclosing_loop.as_ref().is_some_and(|l| l.contains(&n.start_byte())) && !is_plain_assignment_target(n) {
            in_loop_reads.push(n);
        }
    });
    let offender = first_after.values().find(|n| !is_plain_assignment_target(**n)).or(in_loop_reads.first());
    match offender {
        Some(n) => Err(reject(
            Code::P0009,
            *n,
            format!("iterator `{}` of the SCoP is read after it", text(*n, src)),
            "read here",
        )
        .with_note("polyc does not preserve an iterator's final value")),
        None => Ok(()),
    }
}

fn is_plain_assignment_target(n: Node) -> bool {
    n.parent().is_some_and(|p| {
        p.kind() == "assignment_expression"
            && p.child_by_field_name("left").is_some_and(|l| l.id() == n.id())
            && p.child_by_field_name("operator").is_some_and(|o| o.kind() == "=")
    })
}
