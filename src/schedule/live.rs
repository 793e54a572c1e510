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
        let (source, sink) = (statement_index(&pair.domain_name()?), statement_index(&pair.range_name()?));
        let (Some(from), Some(to)) = (time_of(sc, source), time_of(sc, sink)) else { continue };
        let in_time = from.reverse()?.apply_range(&pair)?.apply_range(to)?;
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

/// The time map of statement `k` in `sc`.
fn time_of(sc: &Scattering, k: usize) -> Option<&Map> {
    sc.stmts.iter().position(|&s| s == k).map(|at| &sc.maps[at])
}
