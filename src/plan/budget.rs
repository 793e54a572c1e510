//! What planning may spend: shares of the SCoP's isl operation budget
//! and of its wall-clock time.

use crate::options::PlanRequest;

/// The share of the SCoP's isl budget that planning may use: a SCoP too
/// hard to transform quickly is still regenerated, untransformed.
const PLANNING_SHARE: u64 = 10;

/// The isl operations allowed for planning, and for scanning a transformed schedule.
pub fn planning_budget(request: &PlanRequest) -> u64 {
    request.isl_budget / PLANNING_SHARE
}

/// The share of the SCoP's wall-clock budget one planning may take:
/// isl's scheduler can spend minutes within its operation budget (nine
/// statements with fragmented dependences: 70 s), and a SCoP whose
/// planning runs out keeps its source text, with time left to say so.
const PLANNING_TIME_SHARE: u32 = 2;

/// The wall-clock time allowed for planning (and for scanning a transformed schedule).
pub fn planning_time(request: &PlanRequest) -> Option<std::time::Duration> {
    request.time_budget.map(|t| t / PLANNING_TIME_SHARE)
}

/// The share of the planning budget that the skewed schedule of one nest
/// (for time tiling) may use.
pub(super) const SKEWING_SHARE: u64 = 4;
