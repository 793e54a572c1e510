//! The live ranges a schedule breaks (seed 004, Trifunovic and Cohen;
//! the live ranges themselves are `deps::live`'s).
//!
//! A schedule that breaks a boundary (a loop run in parallel over
//! iterations that reuse one scalar, an interchange that interleaves two
//! values) violates the live ranges on either side of it, and the
//! variable's storage must be repaired: a private copy per iteration of
//! the loop that separates them, or an array expanded with a copy per
//! iteration (`storage::expand`); otherwise the step is refused (the
//! legality verifier checks every boundary it is not told is repaired).
//! `--emit=live-ranges` prints each variable's live ranges and, under
//! the final schedule, which boundaries it breaks and how they were
//! repaired.

use super::analysis::{prefix_relation, Then};
use super::scattering::Scattering;
use crate::deps::live::LiveRanges;
use crate::model::isl::{IslResult, Map};
use crate::model::{self, statement_index, Scop};

/// How a boundary between two live ranges fares under a schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Breach {
    /// The later live range starts before the earlier one ends: the
    /// first time dimension where the two instances differ runs them
    /// the other way round.
    Reversed { dim: usize },
    /// The two instances lie in different iterations of a loop that runs
    /// its iterations at the same time (parallel, SIMD or jammed).
    Concurrent { dim: usize },
}

/// One boundary statement pair a schedule breaks, and where.
pub struct Violation {
    pub source: usize,
    pub sink: usize,
    pub breach: Breach,
    /// The instance pairs concerned, in isl notation with the program's names.
    pub pairs: String,
}

/// The boundaries of `live` that `sc` (every statement of the SCoP)
/// breaks, where `concurrent(statement, dim)` says whether the loop over
/// `dim` around a statement runs its iterations at the same time.
pub fn violations(
    scop: &Scop,
    live: &LiveRanges,
    sc: &Scattering,
    concurrent: &dyn Fn(usize, usize) -> bool,
) -> IslResult<Vec<Violation>> {
    let n_params = scop.ast.params.len();
    // By dimension: pairs that first differ there, run the other way
    // round, and in order.
    let first_difference = (0..sc.dims)
        .map(|dim| {
            let reversed = prefix_relation(n_params, sc.dims, dim, Then::Earlier)?;
            let apart = prefix_relation(n_params, sc.dims, dim, Then::Later)?;
            Ok((reversed, apart))
        })
        .collect::<IslResult<Vec<_>>>()?;
    let mut found = Vec::new();
    for pair in live.boundaries.maps()? {
        let Some((source, sink, in_time)) = in_time(sc, &pair)? else { continue };
        for (dim, (reversed, apart)) in first_difference.iter().enumerate() {
            let reversed = in_time.intersect(reversed)?;
            let breach = if !reversed.is_empty()? {
                Some((Breach::Reversed { dim }, reversed))
            } else if concurrent(source, dim) && concurrent(sink, dim) {
                let apart = in_time.intersect(apart)?;
                (!apart.is_empty()?).then_some((Breach::Concurrent { dim }, apart))
            } else {
                None
            };
            if let Some((breach, pairs)) = breach {
                let text = model::readable(&pairs.coalesce()?.to_text()?, &scop.ast.params);
                found.push(Violation { source, sink, breach, pairs: text });
            }
        }
    }
    Ok(found)
}

/// Whether `sc` (every statement of the SCoP) reverses some boundary of
/// `live`: what [`violations`] finds as [`Breach::Reversed`], known
/// without finding where (one intersection per boundary, not one per
/// dimension: the storage-expansion test of deriche's ten filter states
/// took 8% of its compile time).
pub fn reverses_some(scop: &Scop, live: &LiveRanges, sc: &Scattering) -> IslResult<bool> {
    let n_params = scop.ast.params.len();
    let mut reversed = prefix_relation(n_params, sc.dims, 0, Then::Earlier)?;
    for dim in 1..sc.dims {
        reversed = reversed.union(&prefix_relation(n_params, sc.dims, dim, Then::Earlier)?)?;
    }
    for pair in live.boundaries.maps()? {
        let Some((_, _, in_time)) = in_time(sc, &pair)? else { continue };
        if !in_time.intersect(&reversed)?.is_empty()? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The statements of a boundary `pair` and its instance pairs as pairs
/// of times under `sc`; `None` where `sc` schedules either statement not.
fn in_time(sc: &Scattering, pair: &Map) -> IslResult<Option<(usize, usize, Map)>> {
    let (source, sink) = (statement_index(&pair.domain_name()?), statement_index(&pair.range_name()?));
    let (Some(from), Some(to)) = (time_of(sc, source), time_of(sc, sink)) else { return Ok(None) };
    Ok(Some((source, sink, from.reverse()?.apply_range(pair)?.apply_range(to)?)))
}

/// The time map of statement `k` in `sc`.
fn time_of(sc: &Scattering, k: usize) -> Option<&Map> {
    sc.stmts.iter().position(|&s| s == k).map(|at| &sc.maps[at])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::Source;

    /// A scalar each iteration sets and reads: one live range per
    /// iteration, a boundary between consecutive ones.
    const REUSED: &str = "void f(int n, double A[n], double B[n]) {
  double t;
#pragma scop
  for (int i = 0; i < n; i++) {
    t = A[i];
    B[i] = t * 2;
  }
#pragma endscop
}
";

    /// `REUSED` scheduled with its loop running in the opposite direction
    /// (`reversed`) or as written.
    fn scheduled(reversed: bool) -> Scattering {
        let sign = if reversed { "-" } else { "" };
        let maps =
            (0..2).map(|k| Map::parse(&format!("[p0] -> {{ S{k}[i0] -> [0, {sign}i0, {k}] }}")).unwrap()).collect();
        Scattering { stmts: vec![0, 1], maps, dims: 3 }
    }

    #[test]
    fn a_boundary_is_reversed_exactly_where_violations_finds_it_reversed() {
        let source = Source::parse(REUSED.to_string()).unwrap();
        let scop = Scop::build(source.scops().scops.remove(0)).unwrap();
        let deps = crate::deps::analyse(&scop).unwrap();
        let live = crate::deps::live::of_scop(&scop, Some(&deps), &|v| v == "t").unwrap().remove(0);
        for reversed in [false, true] {
            let sc = scheduled(reversed);
            let found = violations(&scop, &live, &sc, &|_, _| false).unwrap();
            let breaches = found.iter().any(|v| matches!(v.breach, Breach::Reversed { .. }));
            assert_eq!(breaches, reversed);
            assert_eq!(reverses_some(&scop, &live, &sc).unwrap(), reversed);
        }
    }
}
