//! Schedules computed by isl's scheduler.

use super::scattering::Scattering;
use crate::model::isl::{self, IslError, IslResult, Map, SchedulerOptions, UnionMap, UnionSet};
use crate::model::{Scop, Statement};
use serde::Serialize;

/// How aggressively `--schedule=auto` fuses loop nests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fuse {
    /// Fuse whenever the dependences allow it.
    Max,
    /// isl's fusion where it keeps every statement's loops in permutable
    /// bands (so tiling and vectorisation survive it) and costs no
    /// matrix product its packed panels; otherwise none.
    Smart,
    /// Keep every strongly connected component in its own nest.
    None,
}

impl Scattering {
    /// isl's scheduler, configured like PLUTO: outer parallelism, permutable
    /// bands, small skews; every dependence of `legality` (see
    /// [`crate::deps::Dependences::generators`]) is a validity, proximity and
    /// coincidence constraint.
    pub fn auto(scop: &Scop, legality: &UnionMap, fuse: Fuse) -> IslResult<Scattering> {
        let options = SchedulerOptions {
            outer_coincidence: true,
            serialize_sccs: fuse == Fuse::None,
            whole_component: fuse == Fuse::Max,
            max_coefficient: MAX_SCHEDULE_COEFFICIENT,
        };
        Scattering::computed(scop, (0..scop.statements.len()).collect(), legality, options)
    }

    /// A schedule of the statements `stmts` (one loop nest) whose outer
    /// band is as deep as the dependences allow, outer parallelism
    /// forgone: time loops skewed so that time and space tile together.
    pub fn skewed(scop: &Scop, stmts: Vec<usize>, legality: &UnionMap) -> IslResult<Scattering> {
        let options = SchedulerOptions {
            outer_coincidence: false,
            serialize_sccs: false,
            whole_component: true,
            max_coefficient: MAX_SCHEDULE_COEFFICIENT,
        };
        Scattering::computed(scop, stmts, legality, options)
    }

    /// isl's schedule of the statements `stmts` under the dependences among them.
    fn computed(
        scop: &Scop,
        stmts: Vec<usize>,
        legality: &UnionMap,
        options: SchedulerOptions,
    ) -> IslResult<Scattering> {
        let domain = UnionSet::from_sets(stmts.iter().map(|&k| &scop.statements[k].domain))?;
        let among = legality.intersect_domain(&domain)?.intersect_range(&domain)?;
        let scalars = match crate::deps::condition_scalars(scop)? {
            Some((live, reuse)) => Some((
                live.intersect_domain(&domain)?.intersect_range(&domain)?,
                reuse.intersect_domain(&domain)?.intersect_range(&domain)?,
            )),
            None => None,
        };
        let conditional = scalars.as_ref().map(|(live, reuse)| (live, reuse));
        let flat = isl::compute_schedule(&domain, &among, &among, &among, conditional, options)?;
        let mut maps: Vec<Option<Map>> = vec![None; stmts.len()];
        for m in flat.maps()? {
            let name = m.domain_name()?;
            match stmts.iter().position(|&k| scop.statements[k].name == name) {
                Some(k) => maps[k] = Some(m),
                None => return Err(IslError(format!("the scheduler returned an unknown statement `{name}`"))),
            }
        }
        let maps: Vec<Map> = stmts
            .iter()
            .zip(maps)
            .map(|(&k, m)| m.map_or_else(|| never_runs(&scop.statements[k]), Ok))
            .collect::<IslResult<_>>()?;
        Scattering::padded(stmts, maps)
    }
}

/// isl's scheduler leaves out a statement whose domain is empty (a loop
/// that runs zero times, a condition no iteration meets): it never runs,
/// so any time serves; the first dimension of its original schedule
/// keeps it beside its neighbours in the source.
fn never_runs(statement: &Statement) -> IslResult<Map> {
    match statement.domain.is_empty()? {
        true => statement.schedule.keep_leading_out(1),
        false => Err(IslError(format!("the scheduler dropped statement {}", statement.name))),
    }
}

/// Larger coefficients give steep skews whose tiles vectorise badly.
const MAX_SCHEDULE_COEFFICIENT: i32 = 4;
