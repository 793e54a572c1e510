//! Which transformations a SCoP gets, in order: schedule, then per
//! permutable band an intra-band order for vectorisation, tiles (where
//! some access reuses data along the band), and a wavefront when no tile
//! loop is parallel; then the loop marks (parallel, SIMD) read off the
//! final schedule. Every step is checked by the legality verifier and
//! dropped, with a reason (a `P0014` warning), if it fails.
//!
//! [`plan`] is called with a [`PlanRequest`] (the part of the options it
//! reads) and the SCoP's [`Analyses`], whose dependences are computed once
//! however often the SCoP is planned (the proposal for storage expansion,
//! the plan, the loops for little work, a rectangular fallback, a report).
//! It schedules the SCoP as a whole (`--schedule=auto`: isl's schedule with
//! smart fusion, i.e. isl's fusion unless some statement's loops then leave
//! the permutable bands, short loops excepted), splits the scattering into
//! loop nests at constant leading time dimensions (`Scattering::nests`),
//! plans each nest on its own with a `Planner` (`planner.rs`), and joins
//! them back. Per nest, in order:
//!
//! 1. the original order back if isl's schedule leaves an iterator implicit
//!    (hand-written tiles) or moves a short innermost loop out (`order.rs`);
//! 2. time tiles if the outer loop carries dependences and no band spans
//!    it, unless it is parallel with private copies (`bands.rs`; diamonds
//!    and hexagons: `concurrent.rs`); otherwise, when the innermost loop is
//!    no vector loop while an outer one is (utsolve), strips of 256 of that
//!    loop with their points innermost; otherwise, per permutable band of
//!    two or more members (split at short loops, which keep their place):
//!    the best vector loop innermost, tiles where some member is parallel
//!    and some access is reused beyond what the cache keeps (SICA's:
//!    `sica.rs`), the original point order inside tiles when only short
//!    loops follow or when it walks memory more contiguously (for a whole
//!    nest skewed into parallelogram tiles whose original innermost loops
//!    are permutable, the original order untiled), with unroll-and-jam a
//!    parallel point loop innermost of the points where the innermost is
//!    not and loops run inside (`tile-points-for-registers`: a register
//!    block), and a wavefront when no tile loop is parallel;
//! 3. the original order back (and the bands planned again) if the final
//!    innermost loop is no vector loop but the original one is, or walks
//!    columns where the source, two loops deep with a parallel outer loop,
//!    walks rows (a matrix-vector product);
//! 4. the point loop that walks the most accesses contiguously moved
//!    innermost (PLUTO's intra-tile reordering, `permute-for-locality`;
//!    untiled, only when that makes a vector loop);
//! 5. with `--parallel`, in a nest with one tiled band under a sequential
//!    outer loop, the first tile loop no dependence crosses moved outermost
//!    (one parallel region);
//! 6. the loop marks (`marking.rs`, [`marks`]);
//! 7. untiled, the source's order back, marks and all, if it gains as
//!    much as isl's (`source-order`: the same parallel regions, a vector
//!    loop innermost, as contiguous, no fusion undone);
//! 8. the original order back if the nest gains no tile, parallel or SIMD
//!    loop; there, or if it never left it, with unroll-and-jam asked for,
//!    strips of 4 of the innermost parallel loop when the innermost loop
//!    carries a recurrence (four independent chains side by side: adi's
//!    tridiagonal sweeps);
//! 9. untiled, in a nest whose only gain is a parallel region around a
//!    recurrence that walks every access contiguously (atax's and
//!    gesummv's row sums), the same strips of 4 (`row_strips_beside_threads`;
//!    the printer keeps a full strip's four sums in locals, `emit::chains`);
//! 10. with `--parallel`, in a nest with no parallel region whose one
//!     parallel loop is the innermost, a vector loop inside sequential
//!     rows (bicg's column sums), strips of 256 of that loop moved
//!     outermost, one region, and the marks again (`column-strips`; in the
//!     loops for little work too), unless a fixed size makes fewer than
//!     four strips.
//!
//! Where isl split statements the source runs in one loop into more
//! nests than the source has, tiled none, and the source's nests, planned
//! the same way, give every statement the parallel region (no deeper) and
//! vector loop isl's give it, the plan is the source's nests (a loop unrolled by hand
//! stays one loop, not one loop per copy of its body). So it is where the
//! statements isl split off ran beside a recurrence (a value flowing round
//! a cycle from one iteration to the next) touching at most twice its
//! cells: in the source they hid in its latency (TSVC's s222 ran 0.79x
//! split).
//!
//! Short loops (a constant trip count of at most 16, a filter's taps),
//! which gcc unrolls fully and vectorises around, are never tiled, moved
//! out or made parallel, and keep the source's order inside a tile. A nest
//! put back in the source's order gets no SIMD marks: gcc vectorises the
//! source's loops as well, and the pragma can keep it from jamming the
//! loop around (utsolve 0.67x).
//!
//! When transformations were asked for but planning ran out of budget, the
//! scanner could not generate the new loops, or no nest gained a tile, a
//! parallel or a SIMD loop, the SCoP keeps its bytes exactly as written
//! ([`Plan::keep_source`]; a new order of the same loops measured slower,
//! shape_scalars 0.88x, and regenerated modulo guards shape_modguard
//! 0.75x); `driver::scanned` checks again on the scanned loops, as
//! statements marked one by one may share no marked loop.
//! `--schedule=identity` alone still regenerates, which the tests use to
//! exercise the scanner. Invariant: a refused or failed step leaves the
//! last accepted scattering; out of budget, the original one.

mod analyses;
mod bands;
mod budget;
mod concurrent;
pub mod expansion;
mod marking;
pub mod marks;
mod notes;
mod order;
pub mod packing;
mod pieces;
mod planner;
mod sica;

use crate::deps::Dependences;
use crate::model::isl::{self, IslResult, Set, UnionMap};
use crate::model::Scop;
use crate::options::{PlanRequest, ScheduleKind};
use crate::schedule::Fuse;
use crate::schedule::{analysis, strides, Nest, Scattering};
use crate::storage::lifetime::RunOrder;
pub use analyses::Analyses;
use budget::SKEWING_SHARE;
pub use budget::{planning_budget, planning_time};
use marks::{LoopMark, PrivateVar};
pub use notes::Notes;
use notes::{gains, tiles, COLUMN_STRIPS, SOURCE_ORDER, STRIPS};
use order::{flow_edges, in_a_cycle, in_a_recurrence_shadow};
pub use pieces::Piece;
use planner::{checked_by, private_vars, regions_as_outer, Planner};

/// The schedule to scan, how to mark its loops, and what happened.
#[derive(Clone)]
pub struct Plan {
    pub scattering: Scattering,
    /// By statement, then time dimension: how a loop there may be marked
    /// (a loop gets what all its statements allow).
    pub marks: Vec<Vec<LoopMark>>,
    /// The variables a mark's `private` bits stand for, bit 0 first.
    pub private_vars: Vec<PrivateVar>,
    pub notes: Notes,
    /// By statement: how many leading time dimensions name its tile (the
    /// tile loops and the loops outside them); 0 where it is not tiled.
    pub tile_prefix: Vec<usize>,
    /// By statement: whether its tiles are a band's rectangles (not time
    /// tiles, diamonds or hexagons), whose full tiles
    /// [`Plan::with_full_tiles_apart`] looks for.
    pub rect_tiled: Vec<bool>,
    /// Transformations were asked for, but the SCoP keeps its source text:
    /// planning failed, or found nothing worth a new loop order.
    pub keep_source: bool,
    /// Statements' instances printed apart, with marks of their own: piece
    /// `p` is statement `n + p` of the scanner and the printer (`n`
    /// statements), and its marks `marks[n + p]` ([`Plan::with_full_tiles_apart`]).
    pub pieces: Vec<Piece>,
}

/// The transformations `request` asks for, as far as they are legal and
/// affordable; the original schedule, with the reason, when planning fails.
pub fn plan(analyses: &Analyses, request: &PlanRequest) -> Plan {
    plan_relaxing(analyses, request, &[])
}

/// The plan for the loops that run with too little work for tiles to pay
/// (`POLYC_MIN_WORK`): `request` without them (its parallel regions start
/// threads only where their own work pays, see `emit::gate`), in the
/// source's order (a loop moved innermost where that makes a vector
/// loop, SIMD loops, unroll-and-jam, strips of independent chains), or
/// in isl's order, without unroll-and-jam, where fewer statements' inner
/// loops then carry a dependence or, as many, fewer accesses are walked
/// there with a stride ([`analysis::innermost_costs`]). In the
/// corpus's kernels near `POLYC_MIN_WORK`, isl's order ran covariance
/// and trmm 6x faster, and TSVC's s2275 (a column walk fused with a
/// vector statement, split and interchanged) 5.7x; the source's order
/// with strips of independent chains kept mvt's row sums 1.5x ahead of
/// isl's reductions. With unroll-and-jam, isl's untiled order put 2mm's
/// columns in strips of four: 0.2x. isl's order is planned only where
/// `planned` (the SCoP's plan for enough work) lowers the costs too. The
/// comparisons run within a share of the planning budget of their own;
/// out of it, the source's order stays.
pub fn for_little_work(analyses: &Analyses, request: &PlanRequest, planned: &Scattering) -> Plan {
    let untiled = PlanRequest { tile: None, parallel: false, ..request.clone() };
    let source = source_order_for_little_work(analyses, &untiled);
    let plan = match request.schedule {
        ScheduleKind::Auto => isl_order_if_it_lowers_costs(analyses, untiled, source, planned),
        ScheduleKind::Identity => source,
    };
    with_regions_for_little_work(analyses, plan, request)
}

/// Whether the loops for little work in the source's order unroll and
/// jam some loop ([`for_little_work`]; isl's order is planned without):
/// without planning isl's order, which took deriche 0.15 s, nor the
/// source's where no write keeps its element along a loop: a jam needs
/// one (`Planner::jams`), and the source's order for little work only
/// permutes and strip-mines the source's loops, which step the same
/// iterators (deriche's planning of it, 9% of its compile time, found
/// that out).
pub fn little_work_may_jam(analyses: &Analyses, request: &PlanRequest) -> bool {
    if !strides::some_write_stays_put_in_source(analyses.scop()) {
        return false;
    }
    let source = source_order_for_little_work(analyses, request);
    let plan = with_regions_for_little_work(analyses, source, request);
    !plan.keep_source && plan.marks.iter().flatten().any(|m| m.jam)
}

/// `request` in the source's order, without tiles or threads.
fn source_order_for_little_work(analyses: &Analyses, request: &PlanRequest) -> Plan {
    let untiled = PlanRequest { tile: None, parallel: false, schedule: ScheduleKind::Identity, ..request.clone() };
    plan(analyses, &untiled)
}

/// `plan`, planned without threads, with the regions `request` asks for.
fn with_regions_for_little_work(analyses: &Analyses, plan: Plan, request: &PlanRequest) -> Plan {
    if !request.parallel || plan.keep_source {
        return plan;
    }
    with_parallel_regions(analyses, plan, request)
}

/// isl's order of the SCoP, untiled and without unroll-and-jam, where it
/// lowers [`analysis::innermost_costs`] below the `source` order's;
/// `source` otherwise.
fn isl_order_if_it_lowers_costs(analyses: &Analyses, untiled: PlanRequest, source: Plan, planned: &Scattering) -> Plan {
    let scop = analyses.scop();
    let budget = planning_budget(&untiled) / SKEWING_SHARE;
    let Ok(Some(legality)) = isl::within_budget(budget, || analyses.deps()?.generators()) else {
        return source;
    };
    let costs = |sc: &Scattering| isl::within_budget(budget, || analysis::innermost_costs(scop, sc, &legality));
    // Nothing to lower: isl's order is not worth planning.
    let in_source = match costs(&source.scattering) {
        Ok(Some(c)) if c != (0, 0) => c,
        _ => return source,
    };
    // Where isl's order, tiled, lowers nothing, untiled it would not
    // either: not worth planning again (adi's 0.18 s).
    // `planned` may schedule the expanded SCoP, whose copy-back
    // statements this one lacks.
    let known = planned.stmts.iter().all(|&k| k < scop.statements.len());
    if known && !matches!(costs(planned), Ok(Some(c)) if c < in_source) {
        return source;
    }
    let by_isl = plan(analyses, &PlanRequest { unroll_jam: None, ..untiled });
    if by_isl.keep_source {
        return source;
    }
    let fewer = costs(&by_isl.scattering).map(|c| c.is_some_and(|c| c < in_source));
    match fewer {
        Ok(true) => by_isl,
        _ => source,
    }
}

/// `plan`, planned without threads, with OpenMP regions on the loops
/// `request` would run in parallel, its other marks as they were: the
/// order and the strips chosen for one thread stay (gesummv's row sums
/// four side by side: a parallel row loop alone would count as a gain
/// and keep them apart). A nest with no region gets one on strips of its
/// columns where they make one ([`Planner::column_strips`]), marked anew.
/// Within a share of the planning budget of its own: out of it, the plan
/// stays without threads.
fn with_parallel_regions(analyses: &Analyses, mut plan: Plan, request: &PlanRequest) -> Plan {
    let budget = planning_budget(request) / SKEWING_SHARE;
    let Ok(Some(regions)) = isl::within_budget(budget, || parallel_marks(analyses, &plan.scattering, request)) else {
        return plan;
    };
    let dims = regions.scattering.dims;
    for (k, own) in plan.marks.iter_mut().enumerate() {
        let new = &regions.marks[k];
        if regions.restripped[k] {
            own.clone_from(new);
            continue;
        }
        for (mark, region) in own.iter_mut().zip(new) {
            mark.parallel = region.parallel;
            mark.region = region.region;
        }
        own.resize(dims, LoopMark::default());
    }
    if regions.restripped.contains(&true) {
        plan.notes.merge(regions.notes);
    }
    plan.scattering = regions.scattering;
    plan
}

/// The marks [`parallel_marks`] gives, with the scattering they are for.
struct Regions {
    scattering: Scattering,
    /// By statement and time dimension.
    marks: Vec<Vec<LoopMark>>,
    /// By statement: whether its nest's columns now run in strips.
    restripped: Vec<bool>,
    notes: Notes,
}

/// The marks `request` gives the loops of `sc`, by statement and time
/// dimension, after strips of columns where a nest has no region.
fn parallel_marks(analyses: &Analyses, sc: &Scattering, request: &PlanRequest) -> IslResult<Regions> {
    let (scop, deps) = (analyses.scop(), analyses.deps()?);
    let legality = deps.generators()?;
    let n = scop.statements.len();
    let mut planners = Planner::for_nests(scop, deps, &legality, sc.clone(), false)?;
    let mut restripped = vec![false; n];
    let mut notes = Notes::default();
    for p in &mut planners {
        p.mark(request)?;
        if p.column_strips(request)? {
            p.nest.scattering.stmts.iter().for_each(|&k| restripped[k] = true);
        }
        notes.merge(std::mem::take(&mut p.notes));
    }
    let nests: Vec<Nest> = planners.iter().map(|p| p.nest.clone()).collect();
    let scattering =
        if restripped.contains(&true) { Scattering::join(&nests, scop.ast.params.len())? } else { sc.clone() };
    let mut marks = vec![vec![LoopMark::default(); scattering.dims]; n];
    for p in &planners {
        place_marks(p, &mut marks);
    }
    Ok(Regions { scattering, marks, restripped, notes })
}

/// Copy a nest's marks into `marks`, the whole scattering's.
fn place_marks(p: &Planner, marks: &mut [Vec<LoopMark>]) {
    let offset = p.nest.prefix.len();
    for (&k, own) in p.nest.scattering.stmts.iter().zip(&p.marks) {
        marks[k][offset..offset + own.len()].copy_from_slice(own);
    }
}

/// [`plan`] with only the flow dependences through the variables
/// `relaxed` (seed 004's proposal): a plan that may break their live
/// ranges, which the caller checks and repairs before using it.
pub fn plan_relaxing(analyses: &Analyses, request: &PlanRequest, relaxed: &[String]) -> Plan {
    let scop = analyses.scop();
    let original = Plan::original(scop);
    if !request.transforms() {
        return original;
    }
    let budget = isl::budget(planning_budget(request));
    let phase = isl::phase("scheduling and planning");
    let planned = isl::within_time(planning_time(request), || transformed(analyses, request, relaxed));
    drop(phase);
    // Out of budget, the error is whatever operation came next (a parse
    // says "syntax error"): only the budget is worth reporting.
    let out_of_budget = isl::out_of_budget();
    drop(budget);
    let mut kept = original;
    kept.keep_source = !scop.ast.has_multifor();
    match planned {
        Ok(Some(plan)) if !request.optimises() || plan.gains() => plan,
        Ok(Some(plan)) => {
            kept.notes.refused = plan.notes.refused;
            kept.notes.out_of_budget = plan.notes.out_of_budget;
            kept
        }
        Ok(None) => {
            let share = planning_time(request).unwrap_or_default().as_secs_f64();
            kept.notes
                .refused(format!("no transformation applied: scheduling and planning ran out of time ({share} s)"));
            kept
        }
        Err(_) if out_of_budget => {
            let budget = planning_budget(request);
            kept.notes
                .out_of_budget
                .push(format!("no transformation applied: planning ran out of {budget} isl operations"));
            kept
        }
        Err(e) => {
            let kept_how = if kept.keep_source { "kept as written" } else { "in its source order" };
            kept.notes.refused(format!(
                "no transformation applied: polyc's own error, not the input's (isl: {e}); the SCoP is {kept_how}: please report it"
            ));
            kept
        }
    }
}

/// Schedule the SCoP as a whole, then transform each of its loop nests
/// on its own (see [`Scattering::nests`]) and put them back together.
fn transformed(analyses: &Analyses, request: &PlanRequest, relaxed: &[String]) -> IslResult<Plan> {
    let (scop, deps) = (analyses.scop(), analyses.deps()?);
    let legality = deps.generators_relaxing(relaxed)?;
    let n_params = scop.ast.params.len();
    let mut notes = Notes::default();
    // isl's scheduler on memory-based dependences takes seconds where
    // its bound counts few operations: the source's order is planned,
    // without skewed time tiles (`Planner::time_tiled`).
    let memory_based = deps.memory_based_through();
    for through in &memory_based {
        let why = format!(
            "memory-based dependences through {through}, in the source's order: their exact dataflow ran out of isl operations"
        );
        notes.not_applied(why, true);
    }
    let scheduled = match request.schedule {
        ScheduleKind::Auto if memory_based.is_empty() => scheduled(analyses, &legality, request, relaxed, &mut notes)?,
        _ => None,
    };
    let by_isl = scheduled.is_some();
    let mut planners = match scheduled {
        Some(planners) => planners,
        None => Planner::for_nests(scop, deps, &legality, Scattering::original(scop), true)?,
    };
    for p in &mut planners {
        plan_nest(p, request)?;
    }
    if by_isl {
        if let Some(source) = source_nests_if_as_good(scop, deps, &legality, &planners, request)? {
            planners = source;
            notes.applied.retain(|a| a != "schedule=auto");
            notes.applied(SOURCE_ORDER);
        }
    }
    let nests: Vec<Nest> = planners.iter().map(|p| p.nest.clone()).collect();
    let scattering = Scattering::join(&nests, n_params)?;
    let mut marks = vec![vec![LoopMark::default(); scattering.dims]; scop.statements.len()];
    let mut tile_prefix = vec![0; scop.statements.len()];
    let mut rect_tiled = vec![false; scop.statements.len()];
    for p in planners {
        place_marks(&p, &mut marks);
        if p.tile_prefix > 0 {
            for &k in &p.nest.scattering.stmts {
                tile_prefix[k] = p.nest.prefix.len() + p.tile_prefix;
                rect_tiled[k] = !p.tiled_bands.is_empty();
            }
        }
        notes.merge(p.notes);
    }
    let private_vars = private_vars(scop, deps);
    Ok(Plan { scattering, marks, private_vars, notes, tile_prefix, rect_tiled, keep_source: false, pieces: Vec::new() })
}

/// The steps of planning one nest, in order (see the module's doc).
fn plan_nest(p: &mut Planner, request: &PlanRequest) -> IslResult<()> {
    if request.schedule == ScheduleKind::Auto {
        p.original_order_if_iterators_dropped()?;
    }
    if !p.time_tiled(request)? && !p.vector_loop_strips(request)? {
        let mut replan = p.bands(request)?;
        if !replan && request.schedule == ScheduleKind::Auto {
            replan = p.original_order_if_it_vectorises()?;
        }
        if replan {
            p.bands(request)?;
        }
    }
    p.innermost_for_locality(request)?;
    if request.parallel {
        p.tile_loop_outermost()?;
    }
    p.mark(request)?;
    if request.schedule == ScheduleKind::Auto {
        p.source_order_if_as_good(request)?;
    }
    p.original_order_unless_it_gains(request)?;
    p.row_strips_beside_threads(request)?;
    p.column_strips(request)?;
    p.note_rect_fallback();
    Ok(())
}

/// The nests of the source's order, planned, where isl split statements
/// the source runs in one loop into nests of their own and gained
/// nothing by it: no tile, and in the source's order every statement is
/// in a parallel region (inside no more loops) and a vector loop where
/// it is in isl's, or ran in the shadow of a recurrence that stays
/// sequential either way ([`order::in_a_recurrence_shadow`]). Statements without
/// a dependence among them are separate components to isl, which puts
/// them one after the other: TSVC's s351, a loop unrolled by hand into
/// five statements, became five loops of stride five, each its own
/// parallel region. Planned within a share of the planning budget of its
/// own: out of it, isl's nests stay.
fn source_nests_if_as_good<'a>(
    scop: &'a Scop,
    deps: &'a Dependences,
    legality: &'a UnionMap,
    planners: &[Planner],
    request: &PlanRequest,
) -> IslResult<Option<Vec<Planner<'a>>>> {
    if planners.iter().any(|p| tiles(&p.notes)) {
        return Ok(None);
    }
    let mut source = Planner::for_nests(scop, deps, legality, Scattering::original(scop), true)?;
    if source.len() >= planners.len() {
        return Ok(None);
    }
    let budget = planning_budget(request) / SKEWING_SHARE;
    let planned = isl::within_budget(budget, || source.iter_mut().try_for_each(|p| plan_nest(p, request)))?;
    if planned.is_none() {
        return Ok(None);
    }
    let (gained, kept) = (loop_gains(scop, planners)?, loop_gains(scop, &source)?);
    let flows = flow_edges(&deps.flow)?;
    let as_good = source.iter().all(|p| {
        let stmts = &p.nest.scattering.stmts;
        let worse: Vec<usize> = stmts.iter().copied().filter(|&k| gains_more(gained[k], kept[k])).collect();
        let recurrence: Vec<usize> = stmts
            .iter()
            .copied()
            .filter(|&k| gained[k] == kept[k] && !kept[k].1 && in_a_cycle(k, stmts, &flows))
            .collect();
        worse.is_empty() || in_a_recurrence_shadow(scop, &worse, &recurrence)
    });
    Ok(as_good.then_some(source))
}

/// Whether `gained` puts a statement in a parallel region inside fewer
/// loops, or in a vector loop, where `kept` does not.
fn gains_more(gained: (Option<usize>, bool), kept: (Option<usize>, bool)) -> bool {
    !regions_as_outer(&[kept.0], &[gained.0]) || (gained.1 && !kept.1)
}

/// By statement, how many loops run outside its outermost parallel
/// region if it has one, and whether it is in a vector loop.
fn loop_gains(scop: &Scop, planners: &[Planner]) -> IslResult<Vec<(Option<usize>, bool)>> {
    let mut gains = vec![(None, false); scop.statements.len()];
    for p in planners {
        let vector = p.vector_statements()?;
        for ((&k, depth), vector) in p.nest.scattering.stmts.iter().zip(p.region_depths()).zip(vector) {
            gains[k] = (depth, vector);
        }
    }
    Ok(gains)
}

/// isl's schedule with the fusion `fuse` asks for, split into nests;
/// `None` (with the reason noted) when it is refused. `Smart` keeps
/// isl's fusion only if every statement's loops still all lie in
/// permutable bands (fusion that costs tiling or vectorisation is not
/// worth it) and it leaves no matrix product fewer packed panels than
/// keeping strongly connected components apart does (symm's expanded
/// `temp2`, reset, summed and read in one nest: 0.077 s against
/// 0.067 s with its sum on panels, at LARGE on one thread); otherwise
/// it keeps the components apart.
fn scheduled<'a>(
    analyses: &'a Analyses,
    legality: &'a UnionMap,
    request: &PlanRequest,
    relaxed: &[String],
    notes: &mut Notes,
) -> IslResult<Option<Vec<Planner<'a>>>> {
    let (scop, deps) = (analyses.scop(), analyses.deps()?);
    let fuse = request.fuse;
    let verify = |sc: &Scattering| sc.verify_nests(scop, legality);
    let products = packing::packable(scop, request)?;
    let nested = |fuse: Fuse, notes: &mut Notes| -> IslResult<Option<Vec<(Nest, Set)>>> {
        let scheduled = analyses.auto_schedule(legality, fuse, relaxed);
        match checked_by("schedule=auto", scheduled, notes, verify)? {
            Some((_, nests)) if !products.is_empty() => {
                packing::products_apart(scop, &products, nests, verify).map(Some)
            }
            found => Ok(found.map(|(_, nests)| nests)),
        }
    };
    let Some(nests) = nested(fuse, notes)? else {
        return Ok(None);
    };
    let (alone, shared) = packing::products_alone(&products, &nests);
    let planners = Planner::for_verified_nests(scop, deps, legality, nests)?;
    let mut all_banded = true;
    for p in &planners {
        all_banded &= p.fully_banded()?;
    }
    if fuse != Fuse::Smart || (all_banded && !shared) {
        notes.applied("schedule=auto");
        return Ok(Some(planners));
    }
    // Where the fusion keeps its bands, it stands unless the components
    // apart pack more products; their refusal is then no reason to note.
    let mut unnoted = Notes::default();
    let apart = nested(Fuse::None, if all_banded { &mut unnoted } else { notes })?;
    let chosen = match apart {
        Some(apart) if !all_banded || packing::products_alone(&products, &apart).0 > alone => {
            Planner::for_verified_nests(scop, deps, legality, apart)?
        }
        None if !all_banded => return Ok(None),
        _ => planners,
    };
    notes.applied("schedule=auto");
    Ok(Some(chosen))
}

impl Plan {
    /// The original schedule, unmarked.
    pub fn original(scop: &Scop) -> Plan {
        Plan {
            scattering: Scattering::original(scop),
            marks: Vec::new(),
            private_vars: Vec::new(),
            notes: Notes::default(),
            tile_prefix: vec![0; scop.statements.len()],
            rect_tiled: vec![false; scop.statements.len()],
            keep_source: false,
            pieces: Vec::new(),
        }
    }

    /// Whether some loop is tiled or marked parallel or SIMD: what a new
    /// loop order is for. An order that gains none of these (isl merely
    /// moving statements around) measured slower than the source
    /// (shape_scalars 0.88x).
    fn gains(&self) -> bool {
        gains(&self.notes, &self.marks)
    }

    /// The order this plan runs `scop` in: a statement's loops are
    /// concurrent from the outermost one marked parallel, SIMD or jammed
    /// (whether or not the printer uses the mark: a sound
    /// over-approximation).
    pub fn run_order<'a>(&'a self, scop: &Scop) -> RunOrder<'a> {
        let concurrent = (0..scop.statements.len())
            .map(|k| self.marks.get(k)?.iter().position(|m| m.parallel || m.simd || m.jam))
            .collect();
        RunOrder { schedule: &self.scattering, concurrent }
    }

    /// The plan with the full tiles of its statements' rectangular tiles
    /// apart, as pieces with marks of their own, where those gain a loop
    /// to jam or a register block (`pieces`): each piece appended to
    /// `pieces`, its marks to `marks`. Within a share of the planning
    /// budget of its own: out of it, no piece.
    pub fn with_full_tiles_apart(mut self, analyses: &Analyses, request: &PlanRequest) -> Plan {
        if request.unroll_jam.is_none() || self.keep_source || self.starts_concurrently() || !self.tiles_beyond_strips()
        {
            return self;
        }
        let rect_prefix: Vec<usize> =
            self.tile_prefix.iter().zip(&self.rect_tiled).map(|(&p, &rect)| if rect { p } else { 0 }).collect();
        let budget = planning_budget(request) / SKEWING_SHARE;
        let found =
            isl::within_budget(budget, || pieces::full_tiles(analyses, &self.scattering, &self.marks, &rect_prefix));
        if let Ok(Some(found)) = found {
            for (piece, marks) in found {
                self.pieces.push(piece);
                self.marks.push(marks);
            }
        }
        self
    }

    /// The plan without its pieces: each statement printed whole.
    pub fn without_pieces(mut self) -> Plan {
        self.marks.truncate(self.tile_prefix.len());
        self.pieces.clear();
        self
    }

    /// Whether some band is tiled.
    pub fn tiles(&self) -> bool {
        tiles(&self.notes)
    }

    /// Whether some nest has concurrent-start tiles (diamonds, hexagons),
    /// whose bounds cost the scanner more.
    pub fn starts_concurrently(&self) -> bool {
        self.notes.applied.iter().any(|a| concurrent::CONCURRENT_TILES.contains(&a.as_str()))
    }

    /// Whether some statement's parallel region sits inside a loop of its
    /// schedule, starting threads once per iteration (a wavefront's steps,
    /// a time loop), or isl cannot tell.
    pub fn regions_inside_loops(&self) -> bool {
        self.scattering.stmts.iter().zip(&self.scattering.maps).any(|(&stmt, map)| {
            let region = self.marks.get(stmt).and_then(|marks| marks.iter().position(|m| m.parallel && m.region));
            region.is_some_and(|dim| (0..dim).any(|k| !map.out_is_constant(k).unwrap_or(false)))
        })
    }

    /// Whether every tiling is strips, of points or of columns: loops that
    /// cost no more than those they split, on one thread as on many.
    pub fn strips_only(&self) -> bool {
        self.notes.applied.iter().all(|a| !a.starts_with("tile") || a == STRIPS || a == COLUMN_STRIPS)
    }

    /// Whether some band is tiled for the cache or a wavefront, not only
    /// strip-mined (strips cost no more than the loops they split).
    pub fn tiles_beyond_strips(&self) -> bool {
        self.notes.applied.iter().any(|a| a.starts_with("tile") && a != STRIPS)
    }
}
