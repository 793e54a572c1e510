//! A SCoP's new code: the plan (with storage expanded where that lets a
//! band be tiled), its loops scanned, printed with the run-time checks
//! and the loops for little work; a multifor's loops apart or by rank.
//!
//! Only a plan that costs time at run time (tiles beyond strips, or
//! threads: `costs_at_run_time`) waits for `POLYC_MIN_WORK`, with the loops
//! for little work beside it (`small_loops`: planned without tiles or
//! threads, in the source's order or isl's, `plan::for_little_work`; none
//! where that is the source's order with SIMD marks at most), unless its
//! only tiles are strips: then its regions decide alone
//! (`print_for_any_work`). A new order, strips, SIMD loops and
//! unroll-and-jam run always. Storage
//! expansion (`plan::expansion::expanded_plan`, seed 004) is tried first,
//! on a copy of the file's names, and kept only if its plan tiles some
//! band. The run-time checks (subscripts in bounds, variables apart,
//! `restrict` copies) are asked for wherever the output reorders
//! (`Options::reorders`), except for a multifor and for `--trace`, which
//! have no source text to fall back on. A multifor's loops run apart in
//! OpenMP sections when `--parallel` keeps the original order and no
//! dependence links them; a multifor with a loop run by rank is written by
//! `multifor::ranked`.

use super::comment::{Done, Order};
use super::scanned::{scan_planned, scan_scop, work_estimate, Contracted, Scanned};
use super::trace::traced_statement;
use crate::emit::{self, Helpers, Program, RegionWork};
use crate::frontend::Stmt;
use crate::model::affine::LinExpr;
use crate::model::isl::{self, IslResult};
use crate::model::{alias::AliasChecks, ModelError, Scop};
use crate::multifor;
use crate::names::FreshNames;
use crate::options::{Options, PlanRequest, ScheduleKind};
use crate::plan::expansion::{expanded_plan, Expanded};
use crate::plan::{self, Analyses, Notes, Plan};
use crate::scan::ast::Node;
use crate::schedule::Scattering;
use crate::storage::expand::ExpandedArray;
use std::cell::OnceCell;

/// A SCoP's new code (`None`: its source text stays) and what was done to it.
pub struct Regenerated {
    pub code: Option<String>,
    pub helpers: Helpers,
    pub notes: Notes,
    /// Why the loops of a multifor stay interleaved under `--parallel`.
    pub interleaved: Option<String>,
    /// What the new code does, for its comment line.
    pub done: Done,
}

/// The SCoP's loops regenerated from its model, transformed as `options`
/// ask: with transposed copies of the operands that gain by them, and
/// storage expanded if that lets a band be tiled.
pub fn regenerate(
    analyses: &Analyses,
    source: &str,
    names: &mut FreshNames,
    options: &Options,
) -> Result<Regenerated, ModelError> {
    let scop = analyses.scop();
    if scop.ast.rank_mapping.is_some() {
        return rank_mapped(analyses);
    }
    let as_written = Start { as_written: analyses, copies: &[] };
    if let Some(r) = transposed(as_written, source, names, options) {
        return Ok(r);
    }
    regenerate_from(analyses, as_written, source, names, options)
}

/// The SCoP as written, and the arrays copied before its loops run.
#[derive(Clone, Copy)]
struct Start<'a> {
    /// The source's model, which the loops for little work schedule.
    as_written: &'a Analyses<'a>,
    copies: &'a [ExpandedArray],
}

/// The SCoP regenerated with transposed copies of the operands that
/// gain by them (`storage::transpose`), with `--schedule=auto`; `None`
/// if none does, or anything fails on the way, or its plan keeps the
/// source text: the SCoP is regenerated as written then. The names it
/// mints are kept in `names` only with its result.
fn transposed(start: Start, source: &str, names: &mut FreshNames, options: &Options) -> Option<Regenerated> {
    if options.trace || !options.reorders() {
        return None;
    }
    let mut minted = names.clone();
    let transposed = plan::expansion::transposed(start.as_written.scop(), &mut minted, &options.plan)?;
    let analyses = Analyses::new(&transposed.scop);
    let start = Start { copies: &transposed.arrays, ..start };
    let r = regenerate_from(&analyses, start, source, &mut minted, options).ok().filter(|r| r.code.is_some())?;
    *names = minted;
    Some(r)
}

/// [`regenerate`] from `analyses`, the model of `start`'s SCoP with its
/// copies.
fn regenerate_from(
    analyses: &Analyses,
    start: Start,
    source: &str,
    names: &mut FreshNames,
    options: &Options,
) -> Result<Regenerated, ModelError> {
    let scop = analyses.scop();
    let request = &options.plan;
    let planned = OnceCell::new();
    let mut refused = None;
    let expanded = if options.trace { Ok(None) } else { expanded(analyses, &planned, start, source, names, options) };
    match expanded {
        Ok(Some(r)) => return Ok(r),
        Ok(None) => {}
        Err(e) => refused = Some(format!("storage expansion not applied: {e}")),
    }
    let planned = planned.into_inner().unwrap_or_else(|| plan::plan(analyses, request));
    let (plan, scanned, contracted) = scan_planned(analyses, planned, names, options, request)?;
    let loops = multifor_loops(analyses, &plan, options, &contracted)?;
    let storage = Storage { source, start, expanded: &[], contracted };
    let mut r = match &loops {
        multifor::Loops::Apart(groups) => print_sections(analyses, &plan, groups, storage, names, options)?,
        _ => print_planned(scop, plan, scanned, storage, names, options)?,
    };
    if let multifor::Loops::Linked(a, b) = loops {
        let text = |k: usize| scop.ast.stmts[k].text.trim().to_string();
        r.interleaved = Some(format!("a dependence links `{}` and `{}`", text(a), text(b)));
    }
    r.notes.refused.extend(refused);
    Ok(r)
}

/// The SCoP regenerated with its expandable variables expanded
/// (`storage::expand`), if the plan for that tiles some band (what
/// expansion is for: the nest as a whole is permutable) or vectorises
/// loops `unexpanded_plan` cannot (see `plan::expansion`); `None`
/// otherwise, or if the analysis runs out of its budget. The names it
/// mints are kept in `names` only with its result.
fn expanded(
    unexpanded: &Analyses,
    unexpanded_plan: &OnceCell<Plan>,
    start: Start,
    source: &str,
    names: &mut FreshNames,
    options: &Options,
) -> Result<Option<Regenerated>, ModelError> {
    let mut minted = names.clone();
    let request = &options.plan;
    let Some(Expanded { scop, deps, arrays, plan, vectorises, .. }) =
        expanded_plan(unexpanded, unexpanded_plan, &mut minted, request)?
    else {
        return Ok(None);
    };
    let analyses = Analyses::known(&scop, deps);
    let (plan, scanned, contracted) = scan_planned(&analyses, plan, &mut minted, options, request)?;
    let simd = plan.marks.iter().flatten().any(|m| m.simd);
    if !(plan.tiles() || vectorises && simd) {
        return Ok(None);
    }
    let storage = Storage { source, start, expanded: &arrays, contracted };
    let printed = print_planned(&scop, plan, scanned, storage, &mut minted, options)?;
    *names = minted;
    Ok(Some(printed))
}

/// A multifor with a loop run by rank: written by `multifor::ranked`,
/// whatever the options (the mapping is not affine: nothing else can
/// transform it).
fn rank_mapped(analyses: &Analyses) -> Result<Regenerated, ModelError> {
    let text = multifor::ranked::lower(analyses.scop(), analyses.deps()?)?.map_err(ModelError::Input)?;
    let mut notes = Notes::default();
    notes.applied("multifor-rank");
    let done = Done { ranked: true, ..Done::default() };
    Ok(Regenerated { code: Some(text), helpers: Helpers::default(), notes, interleaved: None, done })
}

/// Whether the loops of a multifor SCoP run apart: asked by `--parallel`
/// with the original order (no `--schedule=auto`, no tiles), planned in
/// that order (the sections take the plan's marks), and legal.
fn multifor_loops(
    analyses: &Analyses,
    plan: &Plan,
    options: &Options,
    contracted: &Contracted,
) -> IslResult<multifor::Loops> {
    let scop = analyses.scop();
    let asked = options.plan.parallel && options.plan.schedule == ScheduleKind::Identity && options.plan.tile.is_none();
    if !asked || options.trace || !contracted.arrays.is_empty() || multifor::loops(scop).is_none() {
        return Ok(multifor::Loops::Interleaved);
    }
    if !plan.scattering.is_equal(&Scattering::original(scop))? {
        return Ok(multifor::Loops::Interleaved);
    }
    multifor::apart(scop, analyses.deps()?)
}

/// A multifor whose loops run apart: each loop's statements scanned on
/// their own and printed as `plan` marks them, in an OpenMP section.
fn print_sections(
    analyses: &Analyses,
    plan: &Plan,
    groups: &[Vec<usize>],
    storage: Storage,
    names: &mut FreshNames,
    options: &Options,
) -> Result<Regenerated, ModelError> {
    let scop = analyses.scop();
    let outer = &scop.ast.indent;
    let mut text = format!("{outer}#pragma omp parallel sections\n{outer}{{\n");
    let mut helpers = Helpers::default();
    let mut done = Done { sections: true, ..Done::default() };
    for group in groups {
        let scanned = scan_scop(scop, &Scattering::original_of(scop, group.clone()))?;
        let own = Storage { contracted: Contracted::default(), ..storage };
        let printed = print_planned(scop, plan.clone(), Some(scanned), own, names, options)?;
        let code: String = printed.code.unwrap_or_default().lines().map(|l| format!("    {l}\n")).collect();
        text.push_str(&format!("{outer}#pragma omp section\n{outer}{{\n{code}{outer}}}\n"));
        helpers = helpers.union(printed.helpers);
        done.parallel |= printed.done.parallel;
        done.simd |= printed.done.simd;
        done.jam = done.jam.or(printed.done.jam);
    }
    text.push_str(&format!("{outer}}}\n"));
    let mut notes = plan.notes.clone();
    notes.applied("multifor-sections");
    Ok(Regenerated { code: Some(text), helpers, notes, interleaved: None, done })
}

/// What the printer needs to know about storage: the SCoP's source
/// text, the arrays copied before its loops, and the scalars held in
/// arrays.
struct Storage<'a> {
    source: &'a str,
    start: Start<'a>,
    expanded: &'a [ExpandedArray],
    contracted: Contracted,
}

/// The C text of `plan`'s loops (`None`: the SCoP keeps its source text).
fn print_planned(
    scop: &Scop,
    mut plan: Plan,
    scanned: Option<Scanned>,
    storage: Storage,
    names: &mut FreshNames,
    options: &Options,
) -> Result<Regenerated, ModelError> {
    let Some((nodes, dims)) = scanned else {
        let notes = plan.notes;
        return Ok(Regenerated {
            code: None,
            helpers: Helpers::default(),
            notes,
            interleaved: None,
            done: Done::default(),
        });
    };
    let _phase = isl::phase("printing");
    // Without an estimate (an isl error) the new loops run unguarded:
    // they are correct, only maybe not worth it.
    // The other branch of the work check is the source text, which a
    // multifor's is not.
    let versioned = !options.trace && !scop.ast.has_multifor();
    let gated = versioned && options.plan.optimises() && costs_at_run_time(&plan);
    let estimate = if gated { work_estimate(scop).unwrap_or(None) } else { None };
    // A SCoP with a data-dependent condition goes behind the work check:
    // below it run the loops for little work, or the source text. (TSVC's
    // s441 measured 0.7x on one thread printed once, with its condition
    // in a variable; code placement moves that loop by 2x, and gcc 12
    // compiles the variable's form and the source's `if` alike.)
    let may_print_once =
        estimate.is_some() && plan.strips_only() && !plan.regions_inside_loops() && !scop.ast.has_filters();
    // Subscripts the source does not keep within their arrays are checked
    // at run time where the output rests on the dependences, which assume
    // them in bounds. A multifor has no source text to run instead, nor
    // has the trace.
    let in_bounds = if versioned && options.reorders() { scop.in_bounds()?.disjuncts()? } else { vec![Vec::new()] };
    // So are variables that may share memory, which the dependences
    // treat as distinct.
    let alias = if versioned && options.reorders() && !options.assume_no_alias {
        scop.alias_checks()?.map_err(ModelError::Alias)?
    } else {
        AliasChecks::default()
    };
    let restricted = if versioned && options.reorders() { scop.unrestricted_pointers() } else { Vec::new() };
    // Tiles say the order is new already.
    let order = if plan.notes.tiled.is_empty() { order(scop, &plan, options) } else { Order::Unchecked };
    let mut notes = std::mem::take(&mut plan.notes);
    let Contracted { arrays: contracted, stmts: rewritten } = storage.contracted;
    if !contracted.is_empty() {
        notes.applied(&format!("storage={}", options.storage.method.name()));
    }
    // A plan's pieces print their statement's text (see `Plan::pieces`).
    let traced: Vec<Stmt>;
    let stmts = if options.trace {
        traced = scop.ast.stmts.iter().enumerate().map(|(k, s)| traced_statement(k, s)).collect();
        &traced
    } else if !contracted.is_empty() {
        &rewritten
    } else {
        &scop.ast.stmts
    };
    let with_pieces: Vec<Stmt>;
    let stmts = if plan.pieces.is_empty() {
        stmts
    } else {
        with_pieces = stmts.iter().chain(plan.pieces.iter().map(|p| &stmts[p.stmt])).cloned().collect();
        &with_pieces
    };
    let accesses_apart: Vec<Vec<(usize, usize)>> = std::iter::repeat_with(Vec::new)
        .take(scop.statements.len())
        .chain(plan.pieces.iter().map(|p| p.apart.clone()))
        .collect();
    let heap: Vec<ExpandedArray> = storage.start.copies.iter().chain(storage.expanded).cloned().collect();
    // Packing evaluates each factor once per pair of its iterators: only
    // behind the checks that the reordered loops rest on.
    let packs = versioned && options.reorders() && contracted.is_empty() && !plan.keep_source;
    let packed = if packs {
        plan::packing::packed_products(scop, &plan.scattering, &plan.pieces, &options.plan)?
    } else {
        Vec::new()
    };
    let program = Program {
        packed: &packed,
        expanded: &heap,
        in_bounds: &in_bounds,
        disjoint: &alias.pairs,
        tables: &alias.tables,
        restricted: &restricted,
        contracted: &contracted,
        source: storage.source,
        definitions: &scop.ast.definitions,
        locals: &scop.ast.locals,
        accesses_apart: &accesses_apart,
        ..planned_loops(scop, stmts, &plan, dims, options)
    };
    let as_written = storage.start.as_written;
    let versions = Versions { estimate: estimate.as_deref(), as_written, planned: &plan.scattering, may_print_once };
    let (printed, small, regions_gated) = print_for_any_work(program, &nodes, versions, names, options)?;
    if !printed.packed.is_empty() {
        notes.applied("packed-panels");
    }
    if printed.jammed {
        notes.applied("unroll-jam");
    }
    let (has_small, small_threads) = (small.is_some(), small.as_ref().is_some_and(|s| s.parallel));
    let helpers = small.map_or(printed.helpers, |s| printed.helpers.union(s.helpers));
    let done = Done {
        order,
        tiled: notes.tiled.clone(),
        transposed: storage.start.copies.iter().map(|a| a.variable.clone()).collect(),
        expanded: expanded_variables(storage.expanded),
        contracted: contracted.iter().map(|c| c.array.clone()).collect(),
        packed: printed.packed,
        parallel: printed.parallel,
        regions_gated: printed.parallel && regions_gated,
        simd: printed.simd,
        jam: options.plan.unroll_jam.filter(|_| printed.jammed),
        traced: options.trace,
        fallback: printed.fallback,
        small: has_small,
        small_threads,
        ..Done::default()
    };
    Ok(Regenerated { code: Some(printed.text), helpers, notes, interleaved: None, done })
}

/// What decides how a plan's loops run with little work.
struct Versions<'a> {
    /// Each statement's iterator extents (`None`: no work check).
    estimate: Option<&'a [Vec<LinExpr>]>,
    /// The SCoP as the source writes it: the loops for little work are
    /// its own, and the work check weighs its arrays.
    as_written: &'a Analyses<'a>,
    /// The plan's schedule, which the loops for little work consult.
    planned: &'a Scattering,
    /// No tiles beyond strips (of points or columns), no region inside a
    /// sequential loop, no data-dependent condition.
    may_print_once: bool,
}

/// `program`'s loops for any amount of work, with the loops for little
/// work they keep (if any) and whether each region decides alone. Where
/// the plan has no tiles beyond strips (of points or columns), threads
/// started once per region are all its loops cost: printed once, each
/// region starting threads only where its own work pays, unless a
/// sequential loop surrounds a region (a wavefront's steps), the SCoP
/// has a data-dependent condition (see `print_planned`), or the loops
/// for little work unroll-and-jam and these do not. At LARGE (8 million
/// instances, below `POLYC_MIN_WORK`) atax's and bicg's loops ran 1.5x to
/// 2x faster than the source and the loops for little work, on 1 and 2
/// threads; gemver's, fused without the jam, 0.75x at 1,000 x 1,000.
/// Elsewhere they run behind the work check, the loops for little work
/// (or the source) beside them. The loops for little work are planned
/// only where they may be printed: printing once, only where the source's
/// order would jam a loop these do not (deriche saved 0.2 s).
fn print_for_any_work(
    program: Program,
    nodes: &[Node],
    versions: Versions,
    names: &mut FreshNames,
    options: &Options,
) -> Result<(emit::Printed, Option<emit::Printed>, bool), ModelError> {
    let Versions { estimate, as_written, planned, may_print_once } = versions;
    let Some(extents) = estimate else {
        return Ok((emit::print(&program, nodes, names), None, false));
    };
    let small = if may_print_once {
        let mut alone = names.clone();
        let region_work = Some(RegionWork { extents, below_min_work: false });
        let printed = emit::print(&Program { region_work, ..program }, nodes, &mut alone);
        let may_jam = !printed.jammed && small_loops_may_jam(as_written, options);
        let small = if may_jam { small_loops(as_written, planned, extents, names, options)? } else { None };
        if !small.as_ref().is_some_and(|s| s.jammed) {
            *names = alone;
            return Ok((printed, None, true));
        }
        small
    } else {
        small_loops(as_written, planned, extents, names, options)?
    };
    // The arrays the source declares, outside the region (not those
    // polyc allocates behind the check); without them (an isl error),
    // the instances alone decide.
    let data = as_written.scop().data().unwrap_or_default();
    let small_text = small.as_ref().map(|s| s.text.as_str());
    let versioned = Program { work: estimate, small: small_text, data: &data, ..program };
    let printed = emit::print(&versioned, nodes, names);
    Ok((printed, small, false))
}

/// The share of planning's isl operations and time that finding out
/// whether a plan keeps the source's order may take: it only words a
/// comment, and hex tiles' order took jacobi-1d past its whole 10 s.
const ORDER_CHECK_SHARE: u32 = 10;

/// Whether `plan` runs `scop`'s statement instances in the source's
/// order, for the comment on its code.
fn order(scop: &Scop, plan: &Plan, options: &Options) -> Order {
    let original = Scattering::original(scop);
    let request = &options.plan;
    let time = plan::planning_time(request).map(|t| t / ORDER_CHECK_SHARE);
    let operations = plan::planning_budget(request) / u64::from(ORDER_CHECK_SHARE);
    let same =
        isl::within_time(time, || isl::within_budget(operations, || plan.scattering.same_order(&original, scop)));
    match same {
        Ok(Some(Some(true))) => Order::Source,
        Ok(Some(Some(false))) => Order::New,
        _ => Order::Unchecked,
    }
}

/// The printer's input for `plan`'s loops over `stmts`, as `options`
/// mark them: no run-time checks, storage or source text.
fn planned_loops<'a>(scop: &'a Scop, stmts: &'a [Stmt], plan: &'a Plan, dims: usize, options: &Options) -> Program<'a> {
    Program {
        stmts,
        params: &scop.ast.params,
        iter_base: plan.scattering.dims,
        dims,
        indent: &scop.ast.indent,
        marks: &plan.marks,
        private_vars: &plan.private_vars,
        openmp: options.plan.parallel,
        unroll_jam: options.plan.unroll_jam,
        ..Program::default()
    }
}

/// Whether `plan` costs time at run time, whatever it saves: tiles
/// (loop overhead: jacobi-1d's 2 million instances took 0.3 ms as
/// written, 0.9 ms time-tiled) or threads. Such loops run only with
/// enough work; a new order, strips, SIMD loops and unrolling run always.
fn costs_at_run_time(plan: &Plan) -> bool {
    plan.tiles_beyond_strips() || plan.marks.iter().flatten().any(|m| m.parallel && m.region)
}

/// The loops `scop` (as written, not expanded) runs with less work than
/// `POLYC_MIN_WORK`: planned without tiles, so with only what pays at any
/// size (`plan::for_little_work`: a new order for vector loops, SIMD
/// loops, unroll-and-jam, strips of independent chains), and parallel
/// regions that start threads only where the work inside one pays them
/// (`work`, each statement's iterator extents; see `emit::gate`). At 2 to
/// 8 million instances: mvt's column walk 1.9x, gesummv's row sums in
/// strips of four 2.7x. `None` where that is the source's order with at
/// most SIMD marks (gcc vectorises those loops as well), or its planning
/// or scan fails: the source serves then.
fn small_loops(
    analyses: &Analyses,
    planned: &Scattering,
    work: &[Vec<LinExpr>],
    names: &mut FreshNames,
    options: &Options,
) -> Result<Option<emit::Printed>, ModelError> {
    let request = &options.plan;
    if !optimises_untiled(request) {
        return Ok(None);
    }
    let plan = plan::for_little_work(analyses, request, planned);
    if plan.keep_source {
        return Ok(None);
    }
    let scop = analyses.scop();
    let budget = isl::budget(plan::planning_budget(request));
    let scanned = isl::within_time(plan::planning_time(request), || scan_scop(scop, &plan.scattering));
    drop(budget);
    let Ok(Some((nodes, dims))) = scanned else {
        return Ok(None);
    };
    let region_work = Some(RegionWork { extents: work, below_min_work: true });
    let program = Program { region_work, ..planned_loops(scop, &scop.ast.stmts, &plan, dims, options) };
    let printed = emit::print_loops(&program, &nodes, names);
    // gcc vectorises the source's own loops as well (jacobi-1d's 0.3 ms
    // measured 0.94x with the pragmas, within the timer's noise).
    if !printed.jammed && !printed.parallel && order(scop, &plan, options) == Order::Source {
        return Ok(None);
    }
    Ok(Some(printed))
}

/// Whether [`small_loops`] may unroll and jam a loop: where they are
/// planned at all, in the source's order (`plan::little_work_may_jam`).
fn small_loops_may_jam(analyses: &Analyses, options: &Options) -> bool {
    optimises_untiled(&options.plan) && plan::little_work_may_jam(analyses, &options.plan)
}

/// Whether `request` changes the loops without tiles.
fn optimises_untiled(request: &PlanRequest) -> bool {
    PlanRequest { tile: None, ..request.clone() }.optimises()
}

/// The variables `arrays` hold copies of, each once: a variable reused by
/// several loop nests (deriche's filter states) has a new array per nest.
fn expanded_variables(arrays: &[ExpandedArray]) -> Vec<String> {
    let mut variables: Vec<String> = Vec::new();
    for a in arrays {
        if !variables.contains(&a.variable) {
            variables.push(a.variable.clone());
        }
    }
    variables
}
