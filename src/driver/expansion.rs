//! Storage expansion as a consequence of live-range violations (seed
//! 004): which variables a SCoP expands, and the plan of the expanded
//! SCoP.

use super::plan::{self, Plan};
use super::{live, Options, ScheduleKind};
use crate::model::isl;
use crate::model::{ModelError, Scop};
use crate::names::FreshNames;
use crate::storage::{self, expand::ExpandedArray};

/// The model with its expandable variables expanded (into new arrays
/// or in place), and its plan, if that plan tiles some band. Seed 004's order:
/// a plan is proposed with only the flow dependences through the
/// variables an expansion could give copies to; a variable is expanded
/// only if that plan reverses two of its live ranges (a breach a private
/// copy per iteration of a parallel loop cannot repair, which the plan
/// without expansion finds by itself). The expanded SCoP is then planned
/// with all its dependences.
pub(super) fn expanded_plan(
    scop: &Scop,
    names: &mut FreshNames,
    options: &Options,
) -> Result<Option<Expanded>, ModelError> {
    // Expansion and contraction rest on every write happening: not
    // under data-dependent conditions.
    let filtered = scop.ast.has_filters();
    if options.schedule != ScheduleKind::Auto || options.tile.is_none() || options.trace || filtered {
        return Ok(None);
    }
    let candidates = storage::expand::candidates(&scop.ast);
    if candidates.is_empty() {
        return Ok(None);
    }
    let proposed = plan::plan_relaxing(scop, options, &candidates);
    if !proposed.tiles() {
        return Ok(None);
    }
    let budget = plan::planning_budget(options);
    let phase = isl::phase("storage expansion");
    let expansion = isl::within_budget(budget, || {
        let broken = live::reversed_by(scop, &proposed, &candidates)?;
        if broken.is_empty() {
            return Ok(None);
        }
        storage::expand::expand(scop, &broken, names)
    })?;
    drop(phase);
    let Some(Some(expansion)) = expansion else {
        return Ok(None);
    };
    let scop = Scop::build(expansion.ast)?;
    let mut plan = plan::plan(&scop, options);
    if !plan.tiles() {
        return Ok(None);
    }
    plan.notes.applied.insert(0, "expand-storage".to_string());
    Ok(Some(Expanded { scop, arrays: expansion.arrays, in_place: expansion.in_place, plan }))
}

/// A SCoP with some variables expanded, and its plan.
pub(super) struct Expanded {
    pub scop: Scop,
    /// The new arrays that hold copies of variables.
    pub arrays: Vec<ExpandedArray>,
    /// Variables held in the cells their values are stored to, with that cell.
    pub in_place: Vec<(String, String)>,
    pub plan: Plan,
}
