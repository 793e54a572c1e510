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
//!
//! The original schedule goes to isl as a schedule tree where its times
//! have one length (`schedule_tree`), a flat map otherwise: the same
//! dependences, 11% fewer instructions over PolyBench's 30 kernels.

use super::check::{out_of_budget, Checked};
use super::clock::time_is_up;
use super::error::{IslError, IslResult};
use super::map::Map;
use super::union::{UnionMap, UnionSet};
use isl_rs::{DimType, MultiUnionPwAff, Schedule, UnionAccessInfo};

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
    let info = access_info(sink, must_sources, may_sources)?;
    // Any schedule the tree does not express (or a failure building it,
    // which out of operations the flat one meets again) is taken flat.
    let info = match schedule_tree(schedule, [Some(sink), must_sources, may_sources].into_iter().flatten()) {
        Ok(Some(tree)) => info.set_schedule(tree),
        _ => info.set_schedule_map(schedule.copy()?),
    };
    dependences(info.checked()?, result)
}

fn access_info(
    sink: &UnionMap,
    must_sources: Option<&UnionMap>,
    may_sources: Option<&UnionMap>,
) -> IslResult<UnionAccessInfo> {
    let mut info = UnionAccessInfo::from_sink(sink.copy()?).checked()?;
    if let Some(m) = must_sources {
        info = info.set_must_source(m.copy()?).checked()?;
    }
    if let Some(m) = may_sources {
        info = info.set_may_source(m.copy()?).checked()?;
    }
    Ok(info)
}

fn dependences(info: UnionAccessInfo, result: FlowResult) -> IslResult<UnionMap> {
    let flow = info.compute_flow().checked()?;
    match result {
        FlowResult::Must => flow.get_must_dependence(),
        FlowResult::May => flow.get_may_dependence(),
    }
    .checked()
    .map(UnionMap)
}

/// `schedule` of the statements that access something in `accesses`
/// (times of one length) as a schedule tree: a sequence where every
/// statement's time is a constant, a band where it is not. isl then
/// splits the accesses at each sequence instead of comparing every pair
/// of times in full, but visits each leaf for each access: the statements
/// that access nothing here are left out.
fn schedule_tree<'a>(schedule: &UnionMap, accesses: impl Iterator<Item = &'a UnionMap>) -> IslResult<Option<Schedule>> {
    let mut names = Vec::new();
    for access in accesses {
        for m in access.maps()? {
            // Tagged or unnamed: a flat schedule serves.
            let Ok(name) = m.domain_name() else { return Ok(None) };
            names.push(name);
        }
    }
    let maps = schedule.among(&names)?.maps()?;
    let maps: Vec<&Map> = maps.iter().collect();
    let dims = maps.iter().map(|m| m.n_out()).collect::<IslResult<Vec<_>>>()?;
    match dims.split_first() {
        Some((&first, rest)) if rest.iter().all(|&n| n == first) => subtree(&maps, 0, first).map(Some),
        _ => Ok(None),
    }
}

/// The tree of dimensions `d..` of `maps` (a non-empty list): its depth
/// is the number of dimensions.
fn subtree(maps: &[&Map], d: usize, dims: usize) -> IslResult<Schedule> {
    if d == dims {
        let domains = maps.iter().map(|m| m.domain()).collect::<IslResult<Vec<_>>>()?;
        return Schedule::from_domain(UnionSet::from_sets(&domains)?.copy()?).checked();
    }
    let constants = maps.iter().map(|m| m.out_constant(d)).collect::<IslResult<Vec<_>>>()?;
    if let Some(values) = constants.into_iter().collect::<Option<Vec<i64>>>() {
        let mut distinct = values.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let mut sequence: Option<Schedule> = None;
        for v in distinct {
            let group: Vec<&Map> = maps.iter().zip(&values).filter(|(_, &x)| x == v).map(|(m, _)| *m).collect();
            let child = subtree(&group, d + 1, dims)?;
            sequence = Some(match sequence {
                None => child,
                Some(before) => before.sequence(child).checked()?,
            });
        }
        return sequence.ok_or_else(|| IslError("a schedule tree of no statements".into()));
    }
    let band = maps.iter().map(|m| only_out(m, d, dims)).collect::<IslResult<Vec<_>>>()?;
    let band = MultiUnionPwAff::from_union_map(UnionMap::from_maps(&band)?.copy()?).checked()?;
    subtree(maps, d + 1, dims)?.insert_partial_schedule(band).checked()
}

/// `m` with output dimension `d` of `dims` alone.
fn only_out(m: &Map, d: usize, dims: usize) -> IslResult<Map> {
    let after = m.copy()?.project_out(DimType::Out, d as u32 + 1, (dims - d - 1) as u32).checked()?;
    after.project_out(DimType::Out, 0, d as u32).checked().map(Map)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn union(texts: &[&str]) -> UnionMap {
        let maps: Vec<Map> = texts.iter().map(|t| Map::parse(t).unwrap()).collect();
        UnionMap::from_maps(&maps).unwrap()
    }

    fn same(a: &UnionMap, b: &UnionMap) -> bool {
        a.subtract(b).unwrap().is_empty().unwrap() && b.subtract(a).unwrap().is_empty().unwrap()
    }

    /// A nest, then a nest of two loops around two statements in sequence,
    /// and a statement that accesses none of the arrays asked about.
    #[test]
    fn the_tree_finds_what_the_flat_schedule_does() {
        let p = "[n] -> ";
        let schedule = union(&[
            &format!("{p}{{ S0[i] -> [0, i, 0, 0, 0] : 0 <= i < n }}"),
            &format!("{p}{{ S1[i, j] -> [1, i, 0, j, 0] : 0 <= i, j < n }}"),
            &format!("{p}{{ S2[i, j] -> [1, i, 1, j, 0] : 0 <= i, j < n }}"),
            &format!("{p}{{ S3[i] -> [2, i, 0, 0, 0] : 0 <= i < n }}"),
        ]);
        let writes = union(&[
            &format!("{p}{{ S0[i] -> A[i] : 0 <= i < n }}"),
            &format!("{p}{{ S1[i, j] -> B[i] : 0 <= i, j < n }}"),
            &format!("{p}{{ S2[i, j] -> A[j] : 0 <= i, j < n }}"),
        ]);
        let reads = union(&[
            &format!("{p}{{ S1[i, j] -> A[j - 1] : 0 <= i < n and 1 <= j < n }}"),
            &format!("{p}{{ S2[i, j] -> B[i] : 0 <= i, j < n }}"),
        ]);
        let accesses = [&reads, &writes];
        let tree = schedule_tree(&schedule, accesses.into_iter()).unwrap().expect("a tree");
        for result in [FlowResult::Must, FlowResult::May] {
            let info = || access_info(&reads, Some(&writes), None).unwrap();
            let by_tree = dependences(info().set_schedule(tree.copy().unwrap()).checked().unwrap(), result).unwrap();
            let flat =
                dependences(info().set_schedule_map(schedule.copy().unwrap()).checked().unwrap(), result).unwrap();
            assert!(!flat.is_empty().unwrap());
            assert!(same(&by_tree, &flat), "{}\n{}", by_tree.to_text().unwrap(), flat.to_text().unwrap());
        }
    }

    #[test]
    fn times_of_different_lengths_stay_flat() {
        let schedule = union(&["{ S0[i] -> [0, i] : 0 <= i < 4 }", "{ S1[i] -> [1, i, 0] : 0 <= i < 4 }"]);
        let writes = union(&["{ S0[i] -> A[i] : 0 <= i < 4 }", "{ S1[i] -> A[i] : 0 <= i < 4 }"]);
        assert!(schedule_tree(&schedule, [&writes].into_iter()).unwrap().is_none());
    }
}
