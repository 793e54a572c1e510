//! isl's dataflow analysis, and the memory-based analysis polyc falls
//! back to where isl's value-based one fails on a valid input.
//!
//! isl's value-based analysis takes, for each sink, the lexicographic
//! optimum of its must-sources. On the way, isl looks for a source
//! dimension that is a modulo of the sink's (`isl_map.c`,
//! `isl_basic_map_try_find_output_mod_eq`); when the equality it builds
//! that modulo from also holds other source dimensions (multiples of the
//! modulus, which the modulo would cancel), it refuses its own expression:
//! "affine expression involves some of the domain dimensions". A
//! downward loop around a triangular one whose statement writes with
//! `%` subscripts on both axes meets it. Taking every must-source as a
//! may-source gives the memory-based dependences instead: a superset of
//! the value-based ones, so whatever respects them respects the true
//! dependences (fewer transformations are proved legal, none wrongly).

use super::check::{out_of_budget, Checked};
use super::clock::time_is_up;
use super::error::IslResult;
use super::union::UnionMap;
use isl_rs::UnionAccessInfo;

/// Which of `compute_flow`'s results to return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowResult {
    /// Exact (value-based) dependences from the must-sources.
    Must,
    /// Every dependence that may exist (memory-based for may-sources).
    May,
}

/// isl's dataflow analysis: for each `sink` access, its sources in
/// `must_sources` (writes that overwrite, so they hide older ones) and
/// `may_sources` (accesses that hide nothing), ordered by `schedule`.
/// With [`FlowResult::May`], where isl fails on the must-sources (not
/// for lack of operations or time), the must-sources count as may-sources
/// (see the module's documentation).
pub fn compute_flow(
    sink: &UnionMap,
    must_sources: Option<&UnionMap>,
    may_sources: Option<&UnionMap>,
    schedule: &UnionMap,
    result: FlowResult,
) -> IslResult<UnionMap> {
    let exact = analyse(sink, must_sources, may_sources, schedule, result);
    match (exact, must_sources) {
        (Err(e), Some(must)) if result == FlowResult::May && !time_is_up() && !out_of_budget() => {
            let sources = match may_sources {
                Some(may) => must.union(may),
                None => Ok(must.clone()),
            };
            analyse(sink, None, Some(&sources?), schedule, result).map_err(|_| e)
        }
        (flow, _) => flow,
    }
}

fn analyse(
    sink: &UnionMap,
    must_sources: Option<&UnionMap>,
    may_sources: Option<&UnionMap>,
    schedule: &UnionMap,
    result: FlowResult,
) -> IslResult<UnionMap> {
    let mut info = UnionAccessInfo::from_sink(sink.copy()?).checked()?;
    if let Some(m) = must_sources {
        info = info.set_must_source(m.copy()?).checked()?;
    }
    if let Some(m) = may_sources {
        info = info.set_may_source(m.copy()?).checked()?;
    }
    let flow = info.set_schedule_map(schedule.copy()?).checked()?.compute_flow().checked()?;
    match result {
        FlowResult::Must => flow.get_must_dependence(),
        FlowResult::May => flow.get_may_dependence(),
    }
    .checked()
    .map(UnionMap)
}
