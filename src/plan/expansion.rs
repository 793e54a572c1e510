//! Storage expansion as a consequence of live-range violations (seed
//! 004): which variables a SCoP expands, and the plan of the expanded
//! SCoP.
//!
//! Seed 004's order ([`expanded_plan`]): with `--schedule=auto` and tiles,
//! and no data-dependent condition (expansion rests on every write
//! happening), a plan is first proposed with only the flow dependences
//! through the variables an expansion could copy (where that drops no
//! dependence, the plan of the SCoP as written, planned once); `storage::expand` then
//! expands those whose live ranges that plan reverses (a copy per
//! iteration, or in place: `storage::in_place`), under a budget of its
//! own, and the expanded SCoP is modelled and planned anew with all its
//! dependences. The driver prints it only if its plan tiles some band, or
//! leaves fewer statements with a dependence carried by their innermost
//! loop than the plan of the SCoP as written (`unexpanded`, planned
//! here if the caller has not yet): symm's sum
//! `temp2`, expanded over `(i, j)`, lets `j` run in vectors inside its
//! reduction over `k` (0.35 s -> 0.08 s at LARGE on one thread). Where
//! isl's fusion of the expanded SCoP leaves nothing tiled, its nests are
//! planned apart if that tiles them.

use super::analyses::Analyses;
use super::budget::planning_budget;
use super::{plan, plan_relaxing, Plan};
use crate::deps::live;
use crate::deps::Dependences;
use crate::model::isl::{self, IslResult};
use crate::model::{ModelError, Scop};
use crate::names::FreshNames;
use crate::options::{PlanRequest, ScheduleKind};
use crate::schedule::live::reverses_some;
use crate::schedule::{analysis, Fuse};
use crate::storage::{self, expand::ExpandedArray};
use std::cell::OnceCell;

/// The model with its expandable variables expanded (into new arrays
/// or in place), and its plan, if that plan tiles some band or runs more
/// loops in vectors than `unexpanded` (see the module's doc). Seed 004's order:
/// a plan is proposed with only the flow dependences through the
/// variables an expansion could give copies to; a variable is expanded
/// only if that plan reverses two of its live ranges (a breach a private
/// copy per iteration of a parallel loop cannot repair, which the plan
/// without expansion finds by itself). The expanded SCoP is then planned
/// with all its dependences.
pub fn expanded_plan(
    analyses: &Analyses,
    unexpanded: &OnceCell<Plan>,
    names: &mut FreshNames,
    request: &PlanRequest,
) -> Result<Option<Expanded>, ModelError> {
    let scop = analyses.scop();
    // Expansion and contraction rest on every write happening: not
    // under data-dependent conditions.
    let filtered = scop.ast.has_filters();
    if request.schedule != ScheduleKind::Auto || request.tile.is_none() || filtered {
        return Ok(None);
    }
    let candidates = storage::expand::candidates(&scop.ast);
    if candidates.is_empty() {
        return Ok(None);
    }
    let proposed = proposal(analyses, unexpanded, &candidates, request);
    if !proposed.tiles() {
        return Ok(None);
    }
    let budget = planning_budget(request);
    let phase = isl::phase("storage expansion");
    let expansion = isl::within_budget(budget, || {
        let broken = reversed_by(analyses, &proposed, &candidates)?;
        if broken.is_empty() {
            return Ok(None);
        }
        storage::expand::expand(scop, &broken, names)
    })?;
    drop(phase);
    let Some(Some(expansion)) = expansion else {
        return Ok(None);
    };
    let as_written = analyses;
    let scop = Scop::build(expansion.ast)?;
    let analyses = Analyses::new(&scop);
    let mut plan = plan(&analyses, request);
    if !plan.tiles() && request.fuse == Fuse::Smart {
        // isl fuses the expanded variable's statements back into one
        // nest (symm's reset, sum and store of `temp2`, skewed, untiled):
        // apart, the sum's nest tiles (0.093 s -> 0.077 s at LARGE on one
        // thread).
        let apart = super::plan(&analyses, &PlanRequest { fuse: Fuse::None, ..request.clone() });
        if apart.tiles() {
            plan = apart;
        }
    }
    let vectorises = !plan.tiles()
        && isl::within_budget(budget, || {
            let unexpanded = unexpanded.get_or_init(|| super::plan(as_written, request));
            fewer_reductions_innermost(&analyses, &plan, as_written, unexpanded)
        })? == Some(true);
    if !plan.tiles() && !vectorises {
        return Ok(None);
    }
    plan.notes.applied.insert(0, "expand-storage".to_string());
    let deps = analyses.into_deps();
    Ok(Some(Expanded { scop, deps, arrays: expansion.arrays, in_place: expansion.in_place, plan, vectorises }))
}

/// Seed 004's proposal: the plan with only the flow dependences through
/// `candidates`. Where that drops no dependence (the candidates' anti and
/// output dependences lie within their flow, or they have no group of
/// their own: gemm's `C`, 13 of the 16 PolyBench kernels with
/// candidates), it is the plan of the SCoP as written, planned once and
/// kept in `unexpanded` for the caller.
fn proposal(analyses: &Analyses, unexpanded: &OnceCell<Plan>, candidates: &[String], request: &PlanRequest) -> Plan {
    let drops = isl::within_budget(planning_budget(request), || analyses.deps()?.relaxing_drops_any(candidates));
    match drops {
        Ok(Some(false)) => unexpanded.get_or_init(|| plan(analyses, request)).clone(),
        _ => plan_relaxing(analyses, request, candidates),
    }
}

/// Whether `plan`, of the expanded SCoP, leaves fewer statements whose
/// innermost loop carries a dependence than `unexpanded`, of the SCoP as
/// written (see [`analysis::innermost_costs`]).
fn fewer_reductions_innermost(
    expanded: &Analyses,
    plan: &Plan,
    as_written: &Analyses,
    unexpanded: &Plan,
) -> IslResult<bool> {
    let costs = |analyses: &Analyses, plan: &Plan| -> IslResult<usize> {
        let legality = analyses.deps()?.generators()?;
        Ok(analysis::innermost_costs(analyses.scop(), &plan.scattering, &legality)?.0)
    };
    Ok(costs(expanded, plan)? < costs(as_written, unexpanded)?)
}

/// The variables of `candidates` two of whose live ranges `plan`
/// reverses.
fn reversed_by(analyses: &Analyses, plan: &Plan, candidates: &[String]) -> IslResult<Vec<String>> {
    let scop = analyses.scop();
    let mut broken = Vec::new();
    for live in live::of_scop(scop, analyses.known_deps(), &|v| candidates.iter().any(|c| c == v))? {
        if reverses_some(scop, &live, &plan.scattering)? {
            broken.push(live.variable);
        }
    }
    Ok(broken)
}

/// `scop` with transposed copies of the operands that gain by them
/// (`storage::transpose`), modelled anew; `None` where none does, or
/// where `request` asks for no new schedule: the copies are there for
/// one (`--schedule=auto`).
pub fn transposed(scop: &Scop, names: &mut FreshNames, request: &PlanRequest) -> Option<Transposed> {
    if request.schedule != ScheduleKind::Auto {
        return None;
    }
    let packed = super::packing::packable(scop, request).ok()?;
    let transposition = storage::transpose::transpose(scop, names, &packed).ok()??;
    let scop = Scop::build(transposition.ast).ok()?;
    Some(Transposed { scop, arrays: transposition.arrays })
}

/// A SCoP whose reads of some matrices go to transposed copies.
pub struct Transposed {
    pub scop: Scop,
    /// The copies, to allocate.
    pub arrays: Vec<ExpandedArray>,
}

/// A SCoP with some variables expanded, and its plan.
pub struct Expanded {
    pub scop: Scop,
    /// The expanded SCoP's dependences, as its planning computed them.
    pub deps: Option<Dependences>,
    /// The new arrays that hold copies of variables.
    pub arrays: Vec<ExpandedArray>,
    /// Variables held in the cells their values are stored to, with that cell.
    pub in_place: Vec<(String, String)>,
    pub plan: Plan,
    /// Its plan tiles nothing, but vectorises loops the plan of the SCoP
    /// as written cannot: it is worth printing only with vector loops.
    pub vectorises: bool,
}
