//! `--emit=live-ranges`: each variable's live ranges (seed 004), and
//! which of their boundaries the final plan breaks, each with its
//! repair: a private copy per iteration of the loop that runs the two
//! sides apart, or the expansion of the variable into an array.

use super::plan::{self, Plan};
use super::{expanded_plan, Options};
use crate::deps::live::{self, Breach, LiveRanges, Violation};
use crate::model::isl::IslResult;
use crate::model::{readable, statement_index, ModelError, Scop};
use crate::storage::expand::ExpandedArray;
use std::collections::BTreeSet;

/// The report for one SCoP, under the plan `regenerate` starts from.
pub(super) fn report(scop: &Scop, taken: &BTreeSet<String>, options: &Options) -> Result<String, ModelError> {
    let (plan, expanded) = match expanded_plan(scop, taken, options)? {
        Some((_, arrays, plan)) => (plan, arrays),
        None => (plan::plan(scop, options), Vec::new()),
    };
    // A jammed loop runs its copies in order at each point of the loops
    // inside, which keeps the live ranges its legality check allows.
    let concurrent = |k: usize, dim: usize| {
        plan.marks.get(k).and_then(|m| m.get(dim)).is_some_and(|m| m.parallel && m.region || m.simd)
    };
    let mut out = String::new();
    for live in live::of_scop(scop, &|_| true)? {
        out.push_str(&variable_header(scop, &live.variable));
        let ranges = live.ranges.coalesce()?.maps()?;
        if ranges.is_empty() {
            out.push_str("  live ranges: none in the SCoP (no read of a value it writes)\n");
        } else {
            out.push_str("  live ranges (each write to the last read of its value):\n");
        }
        for range in ranges {
            let pair = (statement_index(&range.domain_name()?), statement_index(&range.range_name()?));
            out.push_str(&format!(
                "    S{} -> S{}: {}\n",
                pair.0,
                pair.1,
                readable(&range.to_text()?, &scop.ast.params)
            ));
        }
        let broken = live::violations(scop, &live, &plan.scattering, &concurrent)?;
        if broken.is_empty() {
            out.push_str("  under the final schedule: every live range kept whole\n");
            continue;
        }
        out.push_str("  under the final schedule, boundaries broken:\n");
        for v in &broken {
            out.push_str(&format!(
                "    {}\n      {}\n",
                describe(v, &live, &plan, &expanded, &scop.ast.params),
                v.pairs
            ));
        }
    }
    Ok(out)
}

/// The variables of `candidates` two of whose live ranges `plan`
/// reverses.
pub(super) fn reversed_by(scop: &Scop, plan: &Plan, candidates: &[String]) -> IslResult<Vec<String>> {
    let mut broken = Vec::new();
    for live in live::of_scop(scop, &|v| candidates.iter().any(|c| c == v))? {
        let violations = live::violations(scop, &live, &plan.scattering, &|_, _| false)?;
        if violations.iter().any(|v| matches!(v.breach, Breach::Reversed { .. })) {
            broken.push(live.variable);
        }
    }
    Ok(broken)
}

/// `name (scalar|array; whether anything reads it after the SCoP)`.
fn variable_header(scop: &Scop, name: &str) -> String {
    let decl = scop.ast.arrays.iter().find(|(a, _)| a == name).map(|(_, d)| d);
    let kind = if decl.is_some_and(|d| d.is_array()) { "array" } else { "scalar" };
    let after = if scop.ast.dead_after.contains(name) {
        "nothing reads it after the SCoP"
    } else {
        "may be read after the SCoP"
    };
    format!("{name} ({kind}; {after})\n")
}

/// What `v` breaks and how the plan repairs it.
fn describe(v: &Violation, live: &LiveRanges, plan: &Plan, expanded: &[ExpandedArray], params: &[String]) -> String {
    let what = match v.breach {
        Breach::Reversed { dim } => format!("S{} -> S{}: reversed at c{dim}", v.source, v.sink),
        Breach::Concurrent { dim } => format!("S{} -> S{}: apart in the concurrent loop over c{dim}", v.source, v.sink),
    };
    format!("{what}; {}", repair(v, live, plan, expanded, params))
}

/// How the plan repairs `v`: privatisation on the concurrent loop, the
/// expansion of the variable, or nothing (a defect: the verifier lets no
/// unrepaired breach through).
fn repair(v: &Violation, live: &LiveRanges, plan: &Plan, expanded: &[ExpandedArray], params: &[String]) -> String {
    if let Some(array) = expanded.iter().find(|a| a.variable == live.variable) {
        let extent = |e: &crate::model::affine::LinExpr| e.param_text(params).unwrap_or_else(|| "?".to_string());
        let extents: Vec<String> = array.extents.iter().map(|e| format!("[{}]", extent(e))).collect();
        return format!("repaired: expanded into {}{}", array.name, extents.concat());
    }
    let bit = plan.private_vars.iter().position(|p| p.name == live.variable).map_or(0, |b| 1u64 << b);
    let mark = |k: usize, dim: usize| plan.marks.get(k).and_then(|m| m.get(dim)).copied().unwrap_or_default();
    match v.breach {
        Breach::Concurrent { dim }
            if bit != 0 && [v.source, v.sink].iter().all(|&k| mark(k, dim).private & bit != 0) =>
        {
            let copied = if mark(v.source, dim).copy_out & bit != 0 {
                "the last iteration's copied out"
            } else {
                "not copied out"
            };
            format!("repaired: a private copy per iteration of c{dim}, {copied}")
        }
        _ => "NOT REPAIRED".to_string(),
    }
}
