//! isl's affine scheduler.

use super::check::Checked;
use super::context::with_ctx;
use super::error::IslResult;
use super::union::{UnionMap, UnionSet};
use isl_rs::{Options, ScheduleConstraints};

/// How isl's scheduler is configured (see its manual, "Scheduling").
#[derive(Clone, Copy, Debug)]
pub struct SchedulerOptions {
    /// Require the outermost band member to be coincident (parallel) when possible.
    pub outer_coincidence: bool,
    /// Give each strongly connected component its own nest (no fusion).
    pub serialize_sccs: bool,
    /// Schedule whole components at once (more fusion).
    pub whole_component: bool,
    /// Bound on schedule coefficients (-1: none), which keeps skews small.
    pub max_coefficient: i32,
}

/// isl's affine scheduler on the statements `domain`: `validity` must be
/// respected, `proximity` distances are minimised, `coincidence` pairs
/// are kept on the same iteration of parallel band members;
/// `conditional`, `(condition, validity)`: those validity constraints
/// may be broken only in bands where the adjacent condition pairs stay
/// within one iteration (isl's conditional validity). The result is
/// the flattened schedule, one map per statement.
pub fn compute_schedule(
    domain: &UnionSet,
    validity: &UnionMap,
    proximity: &UnionMap,
    coincidence: &UnionMap,
    conditional: Option<(&UnionMap, &UnionMap)>,
    options: SchedulerOptions,
) -> IslResult<UnionMap> {
    with_ctx(|ctx| -> IslResult<()> {
        Options::set_schedule_outer_coincidence(ctx, options.outer_coincidence as i32).checked()?;
        Options::set_schedule_serialize_sccs(ctx, options.serialize_sccs as i32).checked()?;
        Options::set_schedule_whole_component(ctx, options.whole_component as i32).checked()?;
        Options::set_schedule_max_coefficient(ctx, options.max_coefficient).checked()?;
        Options::set_schedule_treat_coalescing(ctx, 1).checked()?;
        Ok(())
    })?;
    let mut constraints = ScheduleConstraints::on_domain(domain.copy()?)
        .checked()?
        .set_validity(validity.copy()?)
        .checked()?
        .set_proximity(proximity.copy()?)
        .checked()?
        .set_coincidence(coincidence.copy()?)
        .checked()?;
    if let Some((condition, validity)) = conditional {
        constraints = constraints.set_conditional_validity(condition.copy()?, validity.copy()?).checked()?;
    }
    constraints.compute_schedule().checked()?.get_map().checked().map(UnionMap)
}
