//! `--emit=live-ranges`: each variable's live ranges (seed 004), and
//! which of their boundaries the final plan breaks, each with its
//! repair: a private copy per iteration of the loop that runs the two
//! sides apart, or the expansion of the variable (into a new array, or
//! in place, into the cell its value is stored to). An expanded SCoP is
//! another program: the variables it expanded are listed with their
//! live ranges in the source and their repair, then the final program's
//! variables (the new arrays among them) under its plan.

use crate::deps::live::{self, LiveRanges};
use crate::deps::Dependences;
use crate::model::isl::IslResult;
use crate::model::{readable, statement_index, ModelError, Scop};
use crate::names::FreshNames;
use crate::options::Options;
use crate::plan::expansion::expanded_plan;
use crate::plan::{self, Analyses, Plan};
use crate::schedule::live::{violations, Breach, Violation};
use crate::storage::expand::ExpandedArray;
use std::cell::OnceCell;

/// The report for one SCoP, under the plan the C output starts from.
pub fn report(analyses: &Analyses, names: &mut FreshNames, options: &Options) -> Result<String, ModelError> {
    let (scop, request) = (analyses.scop(), &options.plan);
    let mut out = String::new();
    let planned = OnceCell::new();
    let expanded = if options.trace { None } else { expanded_plan(analyses, &planned, names, request)? };
    let planned = || planned.into_inner().unwrap_or_else(|| plan::plan(analyses, request));
    let Some(e) = expanded else {
        report_under(scop, analyses.known_deps(), &planned(), &mut out)?;
        return Ok(out);
    };
    let expanded = |v: &str| e.in_place.iter().any(|(w, _)| w == v) || e.arrays.iter().any(|a| a.variable == v);
    for live in live::of_scop(scop, analyses.known_deps(), &expanded)? {
        out.push_str(&variable_header(scop, &live.variable));
        push_ranges(scop, &live, &mut out)?;
        out.push_str(&format!("  {}\n", expansion(&live.variable, &e.arrays, &e.in_place, &scop.ast.params)));
    }
    report_under(&e.scop, e.deps.as_ref(), &e.plan, &mut out)?;
    Ok(out)
}

/// Each variable of `scop` (whose dependences are `known`, if computed)
/// with its live ranges and what `plan` breaks.
fn report_under(scop: &Scop, known: Option<&Dependences>, plan: &Plan, out: &mut String) -> IslResult<()> {
    // A jammed loop runs its copies in order at each point of the loops
    // inside, which keeps the live ranges its legality check allows.
    let concurrent = |k: usize, dim: usize| {
        plan.marks.get(k).and_then(|m| m.get(dim)).is_some_and(|m| m.parallel && m.region || m.simd)
    };
    for live in live::of_scop(scop, known, &|_| true)? {
        out.push_str(&variable_header(scop, &live.variable));
        push_ranges(scop, &live, out)?;
        let broken = violations(scop, &live, &plan.scattering, &concurrent)?;
        if broken.is_empty() {
            out.push_str("  under the final schedule: every live range kept whole\n");
            continue;
        }
        out.push_str("  under the final schedule, boundaries broken:\n");
        for v in &broken {
            out.push_str(&format!("    {}\n      {}\n", describe(v, &live, plan), v.pairs));
        }
    }
    Ok(())
}

/// The live ranges of `live`, a line per statement pair.
fn push_ranges(scop: &Scop, live: &LiveRanges, out: &mut String) -> IslResult<()> {
    let ranges = live.ranges.coalesce()?.maps()?;
    if ranges.is_empty() {
        out.push_str("  live ranges: none in the SCoP (no read of a value it writes)\n");
    } else {
        out.push_str("  live ranges (each write to the last read of its value):\n");
    }
    for range in ranges {
        let pair = (statement_index(&range.domain_name()?), statement_index(&range.range_name()?));
        let text = readable(&range.to_text()?, &scop.ast.params);
        out.push_str(&format!("    S{} -> S{}: {text}\n", pair.0, pair.1));
    }
    Ok(())
}

/// How the final plan's expansion repaired `variable`.
fn expansion(variable: &str, arrays: &[ExpandedArray], in_place: &[(String, String)], params: &[String]) -> String {
    let held = in_place.iter().filter(|(v, _)| v == variable);
    let mut repairs: Vec<String> = held
        .map(|(_, home)| format!("expanded in place: held in {home}, the cell its value is stored to (no new memory)"))
        .collect();
    let extent = |e: &crate::model::affine::LinExpr| e.param_text(params).unwrap_or_else(|| "?".to_string());
    let copies: Vec<String> = arrays
        .iter()
        .filter(|a| a.variable == variable)
        .map(|a| format!("{}{}", a.name, a.extents.iter().map(|e| format!("[{}]", extent(e))).collect::<String>()))
        .collect();
    if !copies.is_empty() {
        repairs.push(format!("expanded into {}, a copy per iteration of the loops around it", copies.join(" and ")));
    }
    repairs.join("; ")
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
fn describe(v: &Violation, live: &LiveRanges, plan: &Plan) -> String {
    let what = match v.breach {
        Breach::Reversed { dim } => format!("S{} -> S{}: reversed at c{dim}", v.source, v.sink),
        Breach::Concurrent { dim } => format!("S{} -> S{}: apart in the concurrent loop over c{dim}", v.source, v.sink),
    };
    format!("{what}; {}", repair(v, live, plan))
}

/// How the plan repairs `v`: a private copy per iteration of the
/// concurrent loop, or nothing (a defect: the verifier lets no
/// unrepaired breach through).
fn repair(v: &Violation, live: &LiveRanges, plan: &Plan) -> String {
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
